"""benchmarks/bench_phases.py: the per-phase split adds up to the whole game, and a bad name is
one line and status 2."""
from __future__ import annotations

import json

from benchmarks import bench_phases
from engine.game import Game
from engine.policy import keep_doors_action
from engine.view import player_view


def test_the_phases_add_up_to_the_games(capsys):
    assert bench_phases.main(["--name", "greedy-keep-doors", "--deals", "2", "--first", "5",
                              "--json", "--no-save"]) == 0
    doc = json.loads(capsys.readouterr().out)
    n = play = won = 0
    for seed in (5, 6):                 # the same games, played here
        s = Game(1).new_initial_state(seed=seed)
        while not s.is_terminal():
            v = player_view(s)
            n += 1
            play += v.phase == "play" and len(v.legal_actions()) > 1
            s.apply_action(keep_doors_action(v))
        won += s.returns()[0] > 0
    ph = doc["phases"]
    assert doc["decisions"] == n == sum(p["decisions"] for p in ph.values())
    assert doc["won"] == won
    assert abs(sum(p["share"] for p in ph.values()) - 1) < 1e-3
    # the base policy is the scorer's argmax only for learned-base; keep-doors may differ
    assert sum(doc["play_rank_of_choice"].values()) == play
    bm = doc["by_margin"]
    assert bm[0]["margin_at_least"] == 0 and bm[0]["decisions"] == play
    assert bm[0]["departs"] == play - doc["play_rank_of_choice"].get("0", 0)
    assert all(x["decisions"] >= y["decisions"] and x["departs"] >= y["departs"]
               for x, y in zip(bm, bm[1:]))


def test_a_bad_name_is_one_line_and_status_2(capsys):
    assert bench_phases.main(["--name", "nope", "--no-save"]) == 2
    assert bench_phases.main(["--name", "greedy", "--deals", "0", "--no-save"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(e.startswith("bench_phases:") for e in err)
