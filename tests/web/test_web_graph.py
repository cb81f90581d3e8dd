"""The win-probability graph's numbers (onirim/web/games.py): one number per ranking, and a
move's drop measured inside the ranking of the position where it was played."""
from __future__ import annotations

from onirim.web.games import MARKED_DROPS, WebGame, point_of


def _ranking(best=None, leader=None, **acts):
    """A ranking's JSON: acts maps an action to (lo, hi, estimate or None)."""
    rows = []
    for name, (lo, hi, est) in acts.items():
        row = {"action": name.replace("_", " "), "lo": lo, "hi": hi, "exact": hi - lo < 1e-12,
               "value": lo if hi - lo < 1e-12 else None}
        if est is not None:
            row["estimate"], row["ci95"] = est, [est - 0.05, est + 0.05]
        rows.append(row)
    return {"actions": rows, "best": best, "leader": leader}


def test_a_proven_best_gives_its_exact_value():
    p = point_of(_ranking(best="play Os", play_Os=(0.4, 0.4, None), play_Am=(0.1, 0.3, None)))
    assert p["kind"] == "exact" and p["value"] == 0.4 and p["best"] == "play Os"
    assert p["actions"]["play Am"] == 0.1             # its lo: proven reachable


def test_estimates_give_the_highest_estimate():
    p = point_of(_ranking(leader="play Am", play_Os=(0.0, 1.0, 0.2),
                          play_Am=(0.0, 1.0, 0.3)))
    assert p["kind"] == "estimate" and p["value"] == 0.3 and p["best"] == "play Am"


def test_bounds_alone_give_the_highest_lo():
    p = point_of(_ranking(play_Os=(0.05, 1.0, None), play_Am=(0.0, 1.0, None)))
    assert p["kind"] == "bound" and p["value"] == 0.05 and p["best"] == "play Os"
    assert point_of({"actions": []}) is None


def test_drops_are_measured_where_the_move_was_played_and_the_largest_marked():
    game = WebGame("solo", 130)
    played = []
    for i in range(6):
        labels = game.board()["legal"]
        move, other = labels[0], labels[1]
        # the move played is worse than the other by i / 20 in its own position's ranking
        game.points[i] = point_of(_ranking(leader=other, **{
            move.replace(" ", "_"): (0.0, 1.0, 0.5 - i / 20),
            other.replace(" ", "_"): (0.0, 1.0, 0.5)}))
        game.move(move)
        played.append((move, other))
    graph = game.graph()
    rows = graph["points"]
    assert [r["played"] for r in rows[:6]] == [m for m, _ in played]
    assert [round(r["drop"], 6) for r in rows[:6]] == [round(i / 20, 6) for i in range(6)]
    assert graph["marked"] == [5, 4, 3][:MARKED_DROPS]
    assert all(rows[i]["better"] == played[i][1] for i in graph["marked"])
    assert rows[6]["value"] is None                   # not ranked yet
