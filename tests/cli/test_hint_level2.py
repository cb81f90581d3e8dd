"""``onirim play``'s hint near the end of a solo game (issue 29 item 3): when the exact search
does not prove a move within its 2 seconds, the leader of the same ranking's level-2
estimates (made within those 2 seconds), named as such; with level-1 estimates (or none),
the default policy as before."""
from __future__ import annotations

from engine.game import Game
from engine.policy import greedy_action
from engine.view import player_view
from onirim.cmd_play import Hinter
from solver.api import SolverBase


def _late(seed=5, deck=15):
    s = Game(1).new_initial_state(seed)
    while not (s.phase == "play" and s.deck_size() <= deck):
        s.apply_action(greedy_action(s))
    return s


class _Row:
    def __init__(self, action, lo, hi):
        self.action, self.lo, self.hi = action, lo, hi


class _Ranking:
    def __init__(self, rows, leader, estimator):
        self.actions, self.leader, self.criterion = rows, leader, None
        self.extra = {"estimates": {"estimator": estimator, "playouts_per_action": 77}}


class _Solver(SolverBase):     # a registered solver's interface (the hint calls api.rank)
    def __init__(self, ranking):
        self.ranking, self.seen = ranking, []

    def rank(self, view, budget_nodes=None, budget_s=None, *, on_progress=None,
             reserve_s=0.0):
        self.seen.append((view, budget_s))
        return self.ranking


def test_unproven_late_hint_is_the_level2_leader_and_says_so():
    s = _late()
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    rows = [_Row(x, 0.1, 0.6) for x in acts]            # overlapping bounds: unproven
    h = Hinter(lambda _: None)
    h._solver = _Solver(_Ranking(rows, acts[-1], "level-2"))
    a, why = h.hint(s, 1)
    assert s.action_to_string(a) == acts[-1]
    assert why.startswith("heuristic: leader of level-2 estimates") and "77 playouts" in why
    assert "not proven best" in why and "did not settle it in 2 s" in why
    assert h._solver.seen[-1] == (player_view(s), h.limit_s)


def test_with_level1_estimates_the_default_policy_as_before():
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    label = f"{DEFAULT_HONEST_POLICY} (base={DEFAULT_HONEST_ARGS['base']})"
    s = _late()
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    rows = [_Row(x, 0.1, 0.6) for x in acts]
    h = Hinter(lambda _: None)
    h._solver = _Solver(_Ranking(rows, acts[-1], "level-1"))
    a, why = h.hint(s, 1)
    assert why.startswith(f"heuristic: {label} policy, not proven best")
    assert a in s.legal_actions()
