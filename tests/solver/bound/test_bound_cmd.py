"""``onirim bound`` (onirim/cmd_bound.py): bad input is one line and exit 2; the JSON carries
the bound, its intervals and the W; rows are stored per deal and a rerun resumes; --jobs does
not change a row."""
from __future__ import annotations

import json
import sqlite3

import pytest

from onirim.cli import main

FAST = ["--budget-nodes", "400"]        # whole deals cut short: each counts 1 (W = 0, sound)


@pytest.mark.parametrize("argv, field", [
    (["bound", "--deals", "0"], "--deals"),
    (["bound", "--deals", "2", "--switch", "8"], "--switch"),
    (["bound", "--deals", "2", "--policy", "greedy"], "--switch"),
    (["bound", "--deals", "2", "--policy", "no-such-policy", "--switch", "8"], "--policy"),
    (["bound", "--deals", "2", "--stop", "-1"], "--stop"),
    (["bound", "--deals", "2", "--w", "half"], "--w"),
])
def test_bad_input_is_one_line_and_exit_2(argv, field, capsys, tmp_path):
    assert main(argv + ["--db", str(tmp_path / "b.sqlite")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("onirim: error: ") and field in err[0], err


def _json(capsys):
    return json.loads(capsys.readouterr().out)


def _rows(path):
    con = sqlite3.connect(path)
    out = {int(s): json.loads(r) for s, r in con.execute("SELECT seed, row FROM bound_rows")}
    con.close()
    return out


def _stable(row):
    return {k: v for k, v in row.items() if k not in ("cpu_s", "seconds", "pid")}


def test_json_resume_and_rows(capsys, tmp_path):
    db = str(tmp_path / "b.sqlite")
    assert main(["bound", "--deals", "2", "--seed", "5", "--db", db, "--json"] + FAST) == 0
    out = _json(capsys)
    assert out["deals"] == 2 and out["new_deals"] == 2
    assert out["bound"] == 1.0 and out["upper95"] == 1.0 and out["ci95"] == [1.0, 1.0]
    assert out["unfinished"] >= 1 and "W = 0" in out["W"] and "honest optimum" in out["bounds"]
    first = _rows(db)
    assert sorted(first) == [5, 6]
    assert main(["bound", "--deals", "3", "--seed", "5", "--db", db, "--json"] + FAST) == 0
    out = _json(capsys)
    assert out["deals"] == 3 and out["new_deals"] == 1
    again = _rows(db)
    assert all(again[s] == first[s] for s in first)


def test_a_policy_prefix_and_jobs(capsys, tmp_path):
    argv = ["bound", "--deals", "3", "--seed", "0", "--json", "--policy", "greedy",
            "--switch", "9", "--stop", "3"]
    db1, db2 = str(tmp_path / "1.sqlite"), str(tmp_path / "2.sqlite")
    assert main(argv + ["--db", db1]) == 0
    out = _json(capsys)
    assert out["policy"] == "greedy" and out["switch"] == 9 and "greedy" in out["bounds"]
    assert 0.0 <= out["bound"] <= 1.0 and out["policy_rate"] <= out["bound"] + 1.0
    assert out["ci95"][0] <= out["bound"] <= out["upper95"] <= out["ci95"][1]
    assert main(argv + ["--db", db2, "--jobs", "2"]) == 0
    capsys.readouterr()
    r1, r2 = _rows(db1), _rows(db2)
    assert {s: _stable(r) for s, r in r1.items()} == {s: _stable(r) for s, r in r2.items()}
    for r in r1.values():
        assert r["unknown_at_start"] <= 9 or r["decided_before_switch"]
