"""The paper (papers/onirim): traceability of every number, the records, and the build.

The check runs without typst or matplotlib; the PDF test runs only if typst is importable.
"""
from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from papers import build, check
import paths

ROOT = Path(paths.ROOT)


def test_check_passes_on_the_committed_paper():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "papers.check"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "papers.check: ok" in r.stdout


def test_hand_typed_numbers_are_caught():
    text = "\n".join([
        "The greedy policy wins 12.5% of deals.",              # a number typed by hand
        "It wins #num.gp_solo_rate of #num.gp_solo_deals.",  # named values
        "SPEC ruling 3 and rulings 2 to 4, and D5.",          # references, allowed
        "// a comment may say 42",
        '#exp("certify-thirteen") and a width: 80%',
        "a count of 1,188,311 nodes",
    ])
    problems = check.hand_typed_numbers(text)
    assert len(problems) == 2, problems
    assert "'12.5%'" in problems[0] and ":1:" in problems[0]
    assert "'1,188,311'" in problems[1] and ":6:" in problems[1]


def test_undefined_names_and_experiments_are_caught():
    numbers = '#let num = (\n  gp_solo_rate: "11.0%",  // x\n)\n'
    text = '#num.gp_solo_rate #num.no_such_value #exp("greedy-policy") #exp("nowhere")'
    problems = check.undefined_names(text, numbers, {"greedy-policy": {}})
    assert len(problems) == 2, problems
    assert "no_such_value" in problems[0] and "nowhere" in problems[1]


def _copy_paper(tmp_path, monkeypatch):
    dst = tmp_path / "onirim"
    shutil.copytree(build.PAPER, dst, ignore=shutil.ignore_patterns("build", "*.pdf"))
    monkeypatch.setattr(build, "PAPER", dst)
    monkeypatch.setattr(build, "DATA", dst / "data")
    monkeypatch.setattr(build, "TABLES", dst / "tables")
    monkeypatch.setattr(build, "FIGURES", dst / "figures")
    monkeypatch.setattr(build, "SOURCE", dst / "onirim.typ")
    return dst


def test_check_fails_on_a_number_changed_by_hand_and_passes_again(tmp_path, monkeypatch):
    dst = _copy_paper(tmp_path, monkeypatch)
    assert check.check() == []
    numbers = dst / "tables" / "numbers.typ"
    good = numbers.read_text()
    line = next(ln for ln in good.splitlines() if ln.strip().startswith("cv_wins:"))
    numbers.write_text(good.replace(line, line.replace('"100,000"', '"99,999"')))
    problems = check.check()
    assert len(problems) == 1 and "numbers.typ" in problems[0] and "99,999" in problems[0]
    numbers.write_text(good)
    # a generated table and an extracted record are checked the same way
    table = dst / "tables" / "endgame.typ"
    table.write_text(table.read_text().replace('"16", "3", "3"', '"16", "3", "2"'))
    rec = dst / "data" / "strategy-graph.json"
    rec.write_text(rec.read_text().replace('"seed": 56', '"seed": 57'))
    problems = check.check()
    assert any("endgame.typ" in p for p in problems), problems
    assert any("strategy-graph.json" in p for p in problems), problems
    shutil.copy(build.ROOT / "papers/onirim/tables/endgame.typ", table)
    shutil.copy(build.ROOT / "papers/onirim/data/strategy-graph.json", rec)
    # the text itself
    src = dst / "onirim.typ"
    text = src.read_text()
    src.write_text(text.replace("wins #num.gp_solo_rate of solo", "wins 11.0% of solo"))
    problems = check.check()
    assert len(problems) == 1 and "'11.0%'" in problems[0], problems
    src.write_text(text)
    assert check.check() == []


def test_records_have_the_required_fields():
    recs = build.load_records()
    assert build.validate_records(recs) == []
    for name in build.EXTRACTED:
        assert recs[name]["extracted_by"] == "papers/build.py"
    hand = [r for n, r in recs.items() if n not in build.EXTRACTED]
    assert hand and all(r["source"] and "command" in r for r in hand)


def test_ladder_rows_follow_the_schema_and_intervals_are_wilson():
    recs = build.load_records()
    lad = recs["honest-ladder"]
    assert lad["status"] in ("preliminary", "final")
    need = {"policy", "config", "deals", "seed_first", "wins", "decisions", "seconds",
            "regret", "command", "source", "commit", "machine", "date"}
    for r in lad["rows"]:
        assert need <= set(r), need - set(r)
        assert 0 <= r["wins"] <= r["deals"]
        if "ci95" in r:
            assert r["ci95"] == pytest.approx(build.wilson(r["wins"], r["deals"]), abs=1e-12)
    # the README's clairvoyant interval is the Wilson interval of its counts
    cv = recs["clairvoyant-winrate"]["numbers"]
    assert tuple(cv["ci95"]) == pytest.approx(build.wilson(cv["wins"], cv["deals"]), abs=1e-15)


def test_a_final_ladder_with_regret_is_rendered():
    recs = copy.deepcopy(build.load_records())
    row = dict(recs["honest-ladder"]["rows"][-1], policy="rollout", config={"samples": 64},
               regret={"positions": 300, "mean": 0.0123, "ci95": [0.01, 0.015],
                       "solver": "expectimax"}, decisions=None, seconds=None)
    recs["honest-ladder"]["rows"].append(row)
    recs["honest-ladder"]["status"] = "final"
    table = build.table_ladder(recs)
    assert '"rollout", "samples=64"' in table and "0.0123 (300 positions)" in table
    assert "not measured" in table
    values = build.numbers_values(recs)
    assert values["ladder_status"][0] == "final"
    assert values["ladder_rows"][0] == str(len(recs["honest-ladder"]["rows"]))


def test_example_game_lines_replay_in_the_engine():
    ex = build.example_lines(build.load_records())
    assert ex["clairvoyant_won"]
    cv = ex["clairvoyant"]
    assert cv[-1][1] == 8 and all(0 <= p[1] <= 8 for p in cv)
    assert len(ex["greedy"]) == len(ex["greedy_line"]) + 1


def test_pdf_builds():
    typst = pytest.importorskip("typst")
    pdf = typst.compile(str(build.SOURCE), root=str(build.PAPER), ignore_system_fonts=True)
    assert pdf[:5] == b"%PDF-"
    pages = typst.compile(str(build.SOURCE), root=str(build.PAPER), format="png", ppi=8)
    assert isinstance(pages, list) and len(pages) >= 6
