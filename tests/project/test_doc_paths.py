"""The docs name files of the tree by path (``solver/honest/state.py``); a file moved or
deleted must take its mentions along.  Every backticked path under one of the project's
folders, in the README and in docs/, names a file that exists (a ``*`` is a pattern, a path
with an upper-case placeholder such as ``NAME`` is a template)."""
import glob
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("engine/", "solver/", "onirim/", "tests/", "benchmarks/", "papers/", "docs/")
PATH = re.compile(r"`((?:%s)[A-Za-z0-9_./*\-]+\.(?:py|md|json|jsonl|gz|txt|typ|yml|toml))`"
                  % "|".join(re.escape(f) for f in FOLDERS))


def _docs():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def stale(text: str) -> list[str]:
    out = []
    for p in PATH.findall(text):
        if re.search(r"[A-Z]{3,}", p.rsplit("/", 1)[-1]) and not p.endswith(".md"):
            continue                                 # rows/NAME.jsonl.gz: a template
        if not glob.glob(str(ROOT / p)):
            out.append(p)
    return out


def test_every_path_the_docs_name_exists():
    bad = {d.name: stale(d.read_text()) for d in _docs()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"paths named in the docs that do not exist: {bad}"


def test_a_moved_file_is_caught():
    assert stale("see `solver/expectimax_kernel.py` and `solver/exk_*.py`") == [
        "solver/expectimax_kernel.py", "solver/exk_*.py"]
    assert stale("`solver/honest/state.py`, `tests/solver/expectimax/test_*.py`, "
                 "`benchmarks/results/rows/NAME.jsonl.gz`") == []
