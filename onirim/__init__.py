"""Command line of the onirim package (``onirim ...``)."""
