"""benchmarks/bench_open_phases.py: the split by how the switch chose adds up to the whole
game, the game is the one onirim winrate plays, and a bad name is one line and status 2."""
from __future__ import annotations

import json

from benchmarks import bench_open_phases
from benchmarks.experiments import EXPERIMENTS
from solver.runs import runner


def test_the_split_adds_up_to_the_game_winrate_plays(capsys):
    seed = 10_000_000
    assert bench_open_phases.main(["--name", "duo-open-team", "--deals", "1", "--first",
                                   str(seed), "--json", "--no-save"]) == 0
    doc = json.loads(capsys.readouterr().out)
    p = EXPERIMENTS["duo-open-team"].params
    w = runner.get_worker(runner.honest_job(p["policy"], p["config"], 2, 1, talk="open"))
    row = w.play(seed)
    how = doc["by_how"]
    assert doc["decisions"] == row["decisions"] == sum(h["decisions"] for h in how.values())
    assert doc["won"] == int(row["won"])
    assert abs(sum(h["share"] for h in how.values()) - 1) < 1e-3
    end = sum(h["decisions"] for k, h in how.items() if k not in ("base", "forced"))
    assert doc["searches"] == end > 0            # one search per end-game decision
    m = doc["ms_per_decision"]
    assert abs(sum(m.values()) - doc["cpu_ms_per_decision"]) < 0.01


def test_a_bad_name_is_one_line_and_status_2(capsys):
    assert bench_open_phases.main(["--name", "nope", "--no-save"]) == 2
    assert bench_open_phases.main(["--name", "duo-k2-192", "--no-save"]) == 2
    assert bench_open_phases.main(["--name", "duo-open-team", "--deals", "0", "--no-save"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(e.startswith("bench_open_phases:") for e in err)
