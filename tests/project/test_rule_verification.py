"""The rule verification's counts come from stored rows (benchmarks/rule_verification.py, one
row per check run): a count edited in the rows, or a check stored as failed, fails the paper's
and the README's check; and the runner reports a failing test as a failed check, with the
counts the test made."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap

import pytest

from papers import build, check
from test_paper import ROOT, _copy_paper


@pytest.fixture
def paper(tmp_path, monkeypatch):
    dst = _copy_paper(tmp_path, monkeypatch)
    assert check.check() == []
    return dst


def _rewrite_row(name: str, fn) -> None:
    """Apply ``fn`` to the stored row of check ``name`` (in the copy of the rows)."""
    from benchmarks import rows as rows_mod
    path = rows_mod.path_of("rule-verification")
    runs, rows = rows_mod.read_lines(path)
    hit = [o for o in rows if o.get("check") == name]
    assert len(hit) == 1, name
    fn(hit[0])
    with gzip.open(path, "wt") as f:
        for k in sorted(runs):
            f.write(json.dumps(runs[k], sort_keys=True) + "\n")
            f.writelines(json.dumps(o, sort_keys=True) + "\n" for o in rows if o["r"] == k)


def test_a_count_edited_in_the_rows_fails_the_check(paper):
    def more(row):
        row["counts"]["playouts"] += 1
    _rewrite_row("invariants", more)
    problems = check.check()
    assert any("numbers.typ" in p and "rv_invariant_playouts" in p for p in problems), problems
    assert any("rule-verification.json" in p for p in problems), problems
    assert any("RESULTS.md" in p for p in problems), problems   # its block


def test_a_failed_check_fails_the_check_and_prints_failed(paper):
    def fail(row):
        row["passed"] = False
    _rewrite_row("brute-force", fail)
    problems = check.check()
    assert any("numbers.typ" in p for p in problems), problems
    recs = {**build.load_records(),
            "rule-verification": build.rowdata.rule_verification_record()}
    vals = build.numbers_values(recs)
    assert vals["rv_brute_force_agree"][0] == "FAILED"
    assert vals["rv_invariant_playouts"][0] != "FAILED"


def test_a_hand_edited_record_fails_the_check(paper):
    rec = paper / "data" / "rule-verification.json"
    text = rec.read_text()
    k = text.index('"golden_games": ')
    rec.write_text(text[:k] + '"golden_games": 9' + text[k + len('"golden_games": '):])
    assert any("rule-verification.json" in p for p in check.check())


@pytest.mark.slow       # a pytest run in a subprocess: several seconds
def test_the_runner_reports_a_failing_test_with_its_counts(tmp_path):
    """A check of two tests, one failing: the row says failed, names the test, and carries
    what the tests counted (STATS) up to the failure."""
    f = tmp_path / "test_rv_probe.py"
    f.write_text(textwrap.dedent("""
        from collections import Counter
        STATS = Counter()

        def test_counts():
            STATS["n"] += 3

        def test_fails():
            STATS["n"] += 1
            assert False
    """))
    code = textwrap.dedent(f"""
        import json
        from benchmarks import rule_verification as RV
        c = RV.Check("probe", "a probe", ({str(f)!r},),
                     lambda st, mods: {{"n": st["test_rv_probe.py"]["n"]}})
        print("RESULT", json.dumps(RV._run_tests(c)))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT "):])
    assert out["passed"] is False
    assert out["tests_passed"] == 1
    assert [t.split("::")[-1] for t in out["tests_failed"]] == ["test_fails"]
    assert out["counts"] == {"n": 4}


def test_every_check_of_the_registry_is_stored_or_planned():
    """The rows' checks are those of benchmarks/rule_verification.py, in its order."""
    from benchmarks import rows as rows_mod
    from benchmarks.experiments import EXPERIMENTS
    from benchmarks.rule_verification import CHECKS
    assert EXPERIMENTS["rule-verification"].deals == len(CHECKS)
    for r in rows_mod.read("rule-verification"):
        assert CHECKS[r["seed"]].name == r["check"]
