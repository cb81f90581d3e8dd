"""Where things are, for tests in any sub-folder of tests/: the source root (the folder that holds
pyproject.toml), tests/ itself, and the shared data folders tests/fixtures and tests/golden."""
from __future__ import annotations

import os

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
FIXTURES = os.path.join(TESTS, "fixtures")
GOLDEN = os.path.join(TESTS, "golden")
