"""benchmarks/side_by_side.py: configurations alternated deal by deal in one process, rows
appended as they finish (resumable), summaries paired deal by deal."""
from __future__ import annotations

import json

import pytest

from benchmarks import side_by_side as sbs
from solver.errors import PolicyError


def test_parse_config_reads_numbers_and_strings():
    assert sbs.parse_config("k=duo-krollout2:n=160,z=1.5,base=plus2") == (
        "k", "duo-krollout2", {"n": 160, "z": 1.5, "base": "plus2"})
    assert sbs.parse_config("g=duo-plus2") == ("g", "duo-plus2", {})
    assert sbs.parse_config("o=duo-open-switch:unknown=6,base=duo-krollout:base=learned,n=64") \
        == ("o", "duo-open-switch", {"unknown": 6, "base": "duo-krollout:base=learned,n=64"})


def test_run_plays_the_open_game_with_talk_open(tmp_path):
    out = str(tmp_path / "o")
    sbs.run(out, 0, 1, ["k=duo-krollout:base=team,n=4,screen=0"], talk="open")
    assert sbs.read_rows(out, "k")[0]["decisions"] > 0
    with pytest.raises(PolicyError):              # the team base reads both hands: open only
        sbs.run(str(tmp_path / "s"), 0, 1, ["k=duo-krollout:base=team,n=4,screen=0"])


def test_run_writes_one_row_a_deal_and_resumes(tmp_path):
    out = str(tmp_path / "r")
    sbs.run(out, 0, 2, ["a=duo-greedy-plus", "b=duo-plus2"])
    a, b = sbs.read_rows(out, "a"), sbs.read_rows(out, "b")
    assert sorted(a) == sorted(b) == [0, 1]
    assert all(r["decisions"] > 0 and r["cpu_s"] >= 0 for r in a.values())
    sbs.run(out, 0, 3, ["a=duo-greedy-plus"])          # only deal 2 is new
    with open(tmp_path / "r" / "a.jsonl") as f:
        assert [json.loads(x)["seed"] for x in f] == [0, 1, 2]


def test_summary_pairs_deal_by_deal(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    won = {"a": [1, 1, 0, 0], "b": [1, 0, 1, 1]}
    for label, ws in won.items():
        with open(out / f"{label}.jsonl", "w") as f:
            for seed, w in enumerate(ws):
                f.write(json.dumps({"seed": seed, "won": bool(w), "decisions": 10,
                                    "cpu_s": 0.1 if label == "a" else 0.2}) + "\n")
    lines = sbs.summary(str(out), ["a", "b"])
    assert lines[0].startswith("4 deals")
    assert "b: 3 won" in lines[2] and "+2 / -1" in lines[2] and "CPU ratio 2.000" in lines[2]
