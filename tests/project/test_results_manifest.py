"""Every stored result file is accounted for in benchmarks/results/MANIFEST.md (what cites it,
the command that made it, the commit), and every per-deal rows file belongs to an experiment
of ``python -m benchmarks.experiments`` (whose registry gives its command, parameters and
cost; each rows file carries its commit and machine): a result committed without its entry
fails here."""
import fnmatch
import re
from pathlib import Path

from benchmarks.experiments import EXPERIMENTS
from benchmarks.rows import ROWS_DIR, SUFFIX

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def _named(text):
    """The file names and patterns the manifest writes in backticks: full names, globs
    (``regret-games-*.json``) and the short form of a series (``-043717.json`` after a full
    name of the same series)."""
    return {t.split("/")[-1] or t.rstrip("/").split("/")[-1] + "/"
            for t in re.findall(r"`([^`\s]+)`", text)}


def _covered(name, tokens):
    for t in tokens:
        if name == t or name + "/" == t or fnmatch.fnmatch(name, t):
            return True
        if t.startswith("-") and name.endswith(t):     # a short form of a series
            return True
    return False


def test_every_result_file_is_in_the_manifest():
    text = (RESULTS / "MANIFEST.md").read_text()
    tokens = _named(text)
    missing = [p.name for p in sorted(RESULTS.iterdir())
               if p.name != "MANIFEST.md" and p.name != "rows" and not _covered(p.name, tokens)]
    assert not missing, f"not in benchmarks/results/MANIFEST.md: {missing}"


def test_every_rows_file_belongs_to_an_experiment():
    stray = [p.name for p in ROWS_DIR.glob("*" + SUFFIX)
             if p.name[:-len(SUFFIX)] not in EXPERIMENTS]
    assert not stray, f"rows files of no experiment (benchmarks/experiments.py): {stray}"


def test_the_manifest_check_fails_on_an_unnamed_file():
    tokens = _named("| `regret-20261201-043541.json`, `-043717.json`, `regret-games-*.json` |")
    assert _covered("regret-20261201-043717.json", tokens)
    assert _covered("regret-games-20261201-044057.json", tokens)
    assert not _covered("regret-20261201-999999.json", tokens)
    assert not _covered("leader-20261203-082730.json", tokens)
