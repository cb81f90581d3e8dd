"""Rank every action of a seeded position by clairvoyant solves, solo or two-player: the
``clairvoyant`` mode of :func:`solver.api.rank`.

The deal is known (seed, shuffles and the whole deck), so each action's value is 1 (a WIN:
the solver's line, replayed in the engine before it is returned), 0 (a LOSS: a search that
cut nothing) or unknown, ``[0, 1]``, when its share of the budget ran out.  One ranking loop
serves both player counts; :class:`ClairvoyantRank` passes it the solve of one child
position (``solver.clairvoyant`` solo, ``solver.duo.search`` two-player).
"""
from __future__ import annotations

import time
from typing import Callable

from engine.errors import OnirimError
from engine.notation import format_position

from solver.registry import SolverBase, register_solver
from solver.results import ActionValue, Ranking, finish
from solver.expectimax.solver import check_decision

__all__ = ["ClairvoyantRank", "check_clairvoyant", "clairvoyant_rank"]


def check_clairvoyant(state) -> None:
    """A clairvoyant question needs the deal: its seed and the whole deck, at a decision."""
    if state.seed is None:
        raise OnirimError("seed: clairvoyant mode needs the deal's seed (and shuffles)")
    if sum(state.unknown):
        raise OnirimError("deck: clairvoyant mode needs the whole deck listed (no *)")
    check_decision(state)


def clairvoyant_rank(state, solve: Callable, budget_nodes: int | None,
                     budget_s: float | None, on_progress=None) -> Ranking:
    """``solve(child, budget_nodes, budget_s)`` returns a result with ``result`` ('WIN',
    'LOSS' or 'UNKNOWN'), ``nodes`` and ``line``.  The budgets are shared out evenly over the
    actions still to solve, so the whole ranking keeps within them.  ``ranking.line`` is the
    proven best action followed by its winning line, when there is one.  Ctrl-C leaves the
    actions not yet solved at [0, 1] and marks the ranking ``extra["interrupted"]``."""
    check_clairvoyant(state)
    t0 = time.perf_counter()
    acts = state.legal_actions()
    nodes = 0
    results = {a: ActionValue(action=state.action_to_string(a), action_id=a, lo=0.0, hi=1.0)
               for a in acts}
    lines = {}
    interrupted = False
    try:
        for i, a in enumerate(acts):
            child = state.clone()
            child.apply_action(a)
            if child.is_terminal():
                v = 1.0 if child.won() else 0.0
                results[a] = ActionValue(action=results[a].action, action_id=a, lo=v, hi=v)
                continue
            left = len(acts) - i
            per_nodes = None if budget_nodes is None else max(1, (budget_nodes - nodes) // left)
            per_s = None
            if budget_s is not None:
                per_s = max(0.001, (budget_s - (time.perf_counter() - t0)) / left)
            res = solve(child, per_nodes, per_s)
            nodes += int(res.nodes)
            v = {"WIN": 1.0, "LOSS": 0.0}.get(res.result)
            if v is not None:
                results[a] = ActionValue(action=results[a].action, action_id=a, lo=v, hi=v)
            if res.result == "WIN":
                lines[results[a].action] = list(res.line)
            if on_progress is not None:
                on_progress(sum(r.exact for r in results.values()), len(acts), nodes, 1)
    except KeyboardInterrupt:
        interrupted = True
    ranking = Ranking(format_position(state), "clairvoyant", list(results.values()), nodes,
                      0.0)
    finish(ranking)
    if ranking.actions and ranking.best in lines:
        ranking.line = [ranking.best] + lines[ranking.best]
    if interrupted:
        ranking.extra["interrupted"] = True
    ranking.seconds = time.perf_counter() - t0
    return ranking


@register_solver("clairvoyant", players=(1, 2), options=("tree",),
                 doc="the deal known (seed and deck): each action a WIN, a LOSS or open")
class ClairvoyantRank(SolverBase):
    """The ``clairvoyant`` mode: solo deals by ``solver.clairvoyant.ClairvoyantSolver``,
    two-player deals by ``solver.duo.search.DuoSolver`` (both found through
    ``solver.registry.CLAIRVOYANT_SOLVERS``), each made and warmed up (its
    kernels compiled or loaded) in ``prepare``, before the clock."""

    def __init__(self):
        self.solver = None
        self.last = None        # the last ranking (``tree`` draws it)

    def position(self, state, hide: bool = False):
        check_clairvoyant(state)
        return state, None

    def prepare(self, state=None, say=None) -> None:
        """Make the solver of the position's player count and run a small search of deal 0
        (a few thousand nodes), so that compiling never counts against the budget."""
        from engine.game import Game
        players = 1 if state is None else state.players
        from solver.registry import CLAIRVOYANT_SOLVERS
        # the two-player class registers from solver.duo.search, which solver.api loads with
        # the built-in solvers (this family cannot import the two-player one: it builds on it)
        self.solver = (CLAIRVOYANT_SOLVERS[2](tt_mb=64) if players == 2
                       else CLAIRVOYANT_SOLVERS[1]())
        self.solver.solve_state(Game(players).new_initial_state(0), budget_nodes=2_000)

    def rank(self, state, budget_nodes=None, budget_s=None, *, on_progress=None,
             reserve_s: float = 0.0) -> Ranking:
        if self.solver is None:
            self.prepare(state)
        if budget_s is not None:
            budget_s = max(0.001, budget_s - reserve_s)

        def solve(child, per_nodes, per_s):
            return self.solver.solve_state(child, budget_nodes=per_nodes, budget_s=per_s)

        ranking = clairvoyant_rank(state, solve, budget_nodes, budget_s, on_progress)
        if state.players == 2:
            ranking.extra["players"] = 2
            if ranking.line:
                ranking.extra["line"] = ranking.line
        self.last = ranking
        return ranking

    def tree(self, state, budget_nodes=None, deadline=None):
        """The root and one node per action of the last ranking (no search)."""
        return flat_graph(state, self.last)


def flat_graph(state, ranking):
    """The root and one node per action (clairvoyant modes), a networkx DiGraph."""
    import networkx as nx
    graph = nx.DiGraph()
    graph.add_node("n0", phase=state.phase, position=ranking.position, kind="decision",
                   label=state.phase)
    for i, av in enumerate(ranking.actions, 1):
        attrs = dict(lo=av.lo, hi=av.hi, exact=av.exact, kind="child",
                     label=f"{av.value:.0f}" if av.exact else "?")
        if av.exact:
            attrs["value"] = av.value
        graph.add_node(f"n{i}", **attrs)
        graph.add_edge("n0", f"n{i}", action=av.action)
    return graph
