"""``onirim best``'s leader: the decision of the strongest policy the budget affords, never a
misleading pick.

* the JSON form of a position is accepted and ranked as its notation is (docs/NOTATION.md
  section 2.5: every command that takes a position accepts either form);
* no leader by a ``lo`` that reads 0 (an interrupted early answer names none);
* a tiny time budget still names the default policy's decision, never a leader from one
  playout per action; more time never a weaker one (the default's decision is the first step);
* under a node budget the answer is the same every time, and the leader is the default
  policy's own ``decide`` among the actions the bounds do not prove worse.
"""
from __future__ import annotations

import json

import pytest

from engine.game import Game
from engine.notation import format_position, parse_position, to_json
from engine.policy import keep_doors_action
from engine.view import player_view
from onirim.cli import main
from solver import api
from solver.advice import position_stream
from solver.policies.endgame import not_proven_worse
from solver.results import CRITERION_LO, NO_LEADER, ActionValue, Ranking, finish

TURN1 = format_position(player_view(Game(1).new_initial_state(seed=0)))


def _mid_game_view(seed=3, deck_left=40):
    s = Game(1).new_initial_state(seed)
    while not (s.phase == "play" and s.deck_size() <= deck_left):
        s.apply_action(keep_doors_action(s))
    return player_view(s)


def _answer(capsys, argv):
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    d.pop("seconds")
    d.get("estimates", {}).pop("seconds", None)
    for step in d.get("estimates", {}).get("steps", []):
        step.pop("seconds")
    return d


def test_best_takes_the_json_form_of_a_position(capsys):
    """``onirim best "$(onirim show P --json)"`` ranks P: the same answer under a node budget
    (deterministic) as the notation gets."""
    text = format_position(_mid_game_view())
    as_json = json.dumps(to_json(parse_position(text)))
    a = _answer(capsys, ["best", text, "--budget-nodes", "200", "--json"])
    b = _answer(capsys, ["best", as_json, "--budget-nodes", "200", "--json"])
    assert a == b and (a["best"] or a["leader"]) is not None


def test_bad_json_is_one_line_and_status_2(capsys):
    assert main(["best", '{"mode": 3}', "--budget-nodes", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "mode" in err[0]


def _ranking(los, estimates=False):
    acts = [ActionValue(f"play {i}", lo, 1.0, action_id=i) for i, lo in enumerate(los)]
    if estimates:
        for a in acts:
            a.estimate, a.ci95 = 0.5, (0.4, 0.6)
    return Ranking("p", "expectimax", acts)


def test_no_leader_by_a_lo_that_reads_zero():
    """Every lo below what six places show (an interrupted turn-1 answer) names no leader;
    a lo that shows names one by lo."""
    r = _ranking([1e-9, 3e-8, 0.0])
    finish(r)
    assert r.leader is None and r.criterion == NO_LEADER
    r = _ranking([1e-9, 0.25, 0.0])
    finish(r)
    assert r.leader == "play 1" and r.criterion == CRITERION_LO


def test_an_interrupted_early_answer_names_no_leader(monkeypatch):
    """Interrupted during the exact search of a turn-1 position (every lo 0): no leader."""
    from solver.expectimax import solver as ex_solver
    real = ex_solver.Expectimax._rounds

    def stop(self, q, allowance):
        raise KeyboardInterrupt
    monkeypatch.setattr(ex_solver.Expectimax, "_rounds", stop)
    r = api.rank(TURN1, "expectimax", budget_s=5.0)
    monkeypatch.setattr(ex_solver.Expectimax, "_rounds", real)
    assert r.interrupted and r.best is None
    if max(a.lo for a in r.actions) < 5e-7:
        assert r.leader is None and r.criterion == NO_LEADER


def test_a_tiny_time_budget_names_the_default_policys_decision():
    """``--budget-s 0.001``: the leader is the default policy's decision at the position's
    stream among the actions not proven worse, with its search's estimates (named), not a
    leader from one playout per action."""
    view = _mid_game_view(5)
    r = api.rank(view, "expectimax", budget_s=0.001)
    assert r.best is None and r.leader is not None
    est = r.extra["estimates"]
    assert est["steps"][0]["policy"] == "the default policy"
    assert "seq-rollout" in est["search"] and est["policy"] in r.criterion
    allowed = {a.action_id for a in not_proven_worse(r.actions)}
    d = api.make_default_policy().decide(view, position_stream(view), allowed)
    if len(est["steps"]) == 1:
        assert r.leader == view.action_to_string(d.action)
    shown = [a for a in r.actions if a.estimate is not None]
    assert shown and all(a.ci95[0] <= a.estimate <= a.ci95[1] for a in shown)
    assert est["playouts_per_action"] > 1


@pytest.mark.slow
def test_a_node_budget_gives_the_same_answer_and_the_default_policys_leader():
    view = _mid_game_view(11)
    a = api.rank(view, "expectimax", budget_nodes=300).to_json()
    b = api.rank(view, "expectimax", budget_nodes=300).to_json()
    for d in (a, b):
        d.pop("seconds")
        d["estimates"].pop("seconds")
        for step in d["estimates"]["steps"]:
            step.pop("seconds")
    assert a == b
    assert [s["policy"] for s in a["estimates"]["steps"]] == ["the default policy"]
    r = api.rank(view, "expectimax", budget_nodes=300)
    allowed = {x.action_id for x in not_proven_worse(r.actions)}
    d = api.make_default_policy().decide(view, position_stream(view), allowed)
    assert r.leader == view.action_to_string(d.action)
