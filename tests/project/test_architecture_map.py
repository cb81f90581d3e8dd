"""docs/ARCHITECTURE.md is the one file map of the tree: every folder of the tree (every
package and sub-package, the data folders, the tests' folders) is named there as a
backticked path ending in ``/``.  The check walks folders, not files, so a module moved
within a folder changes nothing here; a new or renamed folder must be added to the map."""
from __future__ import annotations

import os
import re
from pathlib import Path

from paths import ROOT

MAP = Path(ROOT) / "docs" / "ARCHITECTURE.md"
# Not part of the tree: environments, caches, build output, version control.
SKIP = {"__pycache__", "build", "node_modules"}


def tree_folders(root: str | Path) -> list[str]:
    """Every folder under ``root`` that holds a file, as ``path/`` relative to ``root``;
    hidden folders, caches, build output and egg-info are left out, but ``.ci``, which CI
    runs, is kept."""
    out = []
    root = str(root)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.endswith(".egg-info")
                         and (not d.startswith(".") or d == ".ci"))
        rel = os.path.relpath(folder, root)
        if rel != "." and any(not f.startswith(".") for f in files):
            out.append(rel.replace(os.sep, "/") + "/")
    return out


def named(text: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z0-9_.\-/]+/)`", text))


def missing(root, text: str) -> list[str]:
    have = named(text)
    return [f for f in tree_folders(root) if f not in have]


def test_every_folder_of_the_tree_is_in_the_map():
    bad = missing(ROOT, MAP.read_text())
    assert not bad, f"folders missing from docs/ARCHITECTURE.md: {bad}"


def test_every_solver_sub_package_is_in_the_map():
    text = MAP.read_text()
    subs = [p.name for p in (Path(ROOT) / "solver").iterdir()
            if (p / "__init__.py").exists()]
    assert len(subs) >= 6
    assert all(f"`solver/{s}/`" in text for s in subs), subs


def test_a_new_folder_is_caught(tmp_path):
    (tmp_path / "solver" / "newfamily").mkdir(parents=True)
    (tmp_path / "solver" / "newfamily" / "__init__.py").write_text("")
    (tmp_path / "solver" / "x.py").write_text("")
    (tmp_path / "solver" / "__pycache__").mkdir()
    (tmp_path / "solver" / "__pycache__" / "x.pyc").write_text("")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "f").write_text("")
    assert missing(tmp_path, "`solver/` only") == ["solver/newfamily/"]
    assert missing(tmp_path, "`solver/` and `solver/newfamily/`") == []
