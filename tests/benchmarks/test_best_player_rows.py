"""The best-player experiments (``benchmarks/bench_best_player.py`` registered in
``benchmarks/experiments.py``) and their record (``papers/rowdata.best_player_record``):
each experiment's command plays its parameters, and the record pairs rows deal by deal."""
from __future__ import annotations

import shlex

import pytest

from benchmarks import bench_best_player, experiments
from papers import rowdata


def test_every_best_player_experiments_command_plays_its_params():
    found = [e for e in experiments.EXPERIMENTS.values() if e.kind == "best-player"]
    assert {e.name for e in found} >= {"best-nodes-20", "best-control", "best-nodes-400000"}
    for e in found:
        argv = shlex.split(e.command)
        assert argv[:3] == ["python", "-m", "benchmarks.bench_best_player"]
        args = bench_best_player.parser().parse_args(argv[3:])
        assert bench_best_player.params_of(args) == e.params, e.name
        assert e.params["deals"] == e.deals and not e.cheap
        assert bench_best_player.rows_dir(e.name) == experiments.path_of(e.name).parent


def test_a_run_of_no_experiment_stays_out_of_rows():
    assert bench_best_player.rows_dir("best-s10") == bench_best_player.OTHER_DIR


def _rows(name, wins):
    run = {"run": 1, "command": f"cmd {name}", "commit": "abc1234", "clean_tree": True,
           "machine": {"cpu": "x", "cores": 2}, "started": "2026-12-06T00:00:00+00:00"}
    return [{"seed": s, "won": w, "doors": 8 if w else 5, "decisions": 10, "proven": 1,
             "leaders": {"the default policy": 9}, "no_leader": 0, "max_decision_cpu_s": 0.5,
             "cpu_s": 1.0, "wall_s": 2.0, "load": 3.0, "run": run}
            for s, w in enumerate(wins)]


def test_the_record_pairs_the_rows_deal_by_deal(monkeypatch):
    mine = _rows("mine", [1, 1, 0, 1, 0, 1])
    theirs = _rows("theirs", [0, 1, 0, 1, 1, 0, 1])        # one more deal: not common
    monkeypatch.setattr(rowdata, "stored", lambda name: theirs if name == "theirs" else None)
    r = rowdata.best_player_row("mine", mine, bench_best_player.params(400_000), 500,
                                {"default": "theirs", "absent": "nothing-stored"})
    assert (r["deals"], r["wins"], r["proven"], r["decisions"]) == (6, 4, 6, 60)
    assert r["leaders"] == {"the default policy": 54}
    (pr,) = r["pairs"]
    assert pr["common_deals"] == 6 and (pr["wins"], pr["their_wins"]) == (4, 3)
    # won by mine only: seeds 0 and 5; by theirs only: seed 4; sign test of 2 against 1
    assert (pr["won_by_it_only"], pr["won_by_them_only"]) == (2, 1)
    assert pr["p_two_sided"] == pytest.approx(1.0)
    assert r["policy"] == "`onirim best --budget-nodes 400000`"
