"""Rank every action of a seeded position by clairvoyant solves, solo or two-player.

The deal is known (seed, shuffles and the whole deck), so each action's value is 1 (a WIN:
the solver's line, replayed in the engine before it is returned), 0 (a LOSS: a search that
cut nothing) or unknown, ``[0, 1]``, when its share of the budget ran out.  One ranking loop
serves both player counts; the caller passes the solve of one child position.
"""
from __future__ import annotations

import time
from typing import Callable

from engine.errors import OnirimError
from engine.notation import format_position

from solver.expectimax.solver import ActionValue, Ranking, check_decision, finish

__all__ = ["check_clairvoyant", "clairvoyant_rank"]


def check_clairvoyant(state) -> None:
    """A clairvoyant question needs the deal: its seed and the whole deck, at a decision."""
    if state.seed is None:
        raise OnirimError("seed: clairvoyant mode needs the deal's seed (and shuffles)")
    if sum(state.unknown):
        raise OnirimError("deck: clairvoyant mode needs the whole deck listed (no *)")
    check_decision(state)


def clairvoyant_rank(state, solve: Callable, budget_nodes: int | None,
                     budget_s: float | None) -> Ranking:
    """``solve(child, node_budget, time_budget_s)`` returns a result with ``result`` ('WIN',
    'LOSS' or 'UNKNOWN'), ``nodes`` and ``line``.  The budgets are shared out evenly over the
    actions still to solve, so the whole ranking keeps within them.  ``ranking.line`` is the
    proven best action followed by its winning line, when there is one."""
    check_clairvoyant(state)
    t0 = time.perf_counter()
    acts = state.legal_actions()
    nodes = 0
    results = []
    lines = {}
    for i, a in enumerate(acts):
        text = state.action_to_string(a)
        child = state.clone()
        child.apply_action(a)
        if child.is_terminal():
            v = 1.0 if child.won() else 0.0
            results.append(ActionValue(action=text, action_id=a, lo=v, hi=v))
            continue
        left = len(acts) - i
        per_nodes = None if budget_nodes is None else max(1, (budget_nodes - nodes) // left)
        per_s = None
        if budget_s is not None:
            per_s = max(0.01, (budget_s - (time.perf_counter() - t0)) / left)
        res = solve(child, per_nodes, per_s)
        nodes += int(res.nodes)
        if res.result == "WIN":
            results.append(ActionValue(action=text, action_id=a, lo=1.0, hi=1.0))
            lines[text] = list(res.line)
        elif res.result == "LOSS":
            results.append(ActionValue(action=text, action_id=a, lo=0.0, hi=0.0))
        else:
            results.append(ActionValue(action=text, action_id=a, lo=0.0, hi=1.0))
    ranking = Ranking(format_position(state), "clairvoyant", results, nodes, 0.0)
    finish(ranking)
    if ranking.actions and ranking.best in lines:
        ranking.line = [ranking.best] + lines[ranking.best]
    ranking.seconds = time.perf_counter() - t0
    return ranking
