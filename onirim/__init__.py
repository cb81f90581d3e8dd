"""Command line of the onirim package (``onirim ...``)."""

# The package version; pyproject.toml's [project] version must match it
# (tests/cli/test_cli.py::test_version_matches_pyproject).
__version__ = "0.1.0"
