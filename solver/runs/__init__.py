"""Win-rate runs: the deals played by a mode (``runner``), the SQLite store of their results
(``db``) and the run spread over a dask cluster (``cluster``)."""
