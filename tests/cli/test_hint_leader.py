"""``onirim play``'s hint near the end of a solo game: one query of ``onirim best``
(``solver.api.rank``).  Proven: its best move.  Unproven: the ranking's own leader (the move of
the strongest policy the hint's seconds afford, ``solver.advice``), named as the ranking names
it; the default policy is not asked again.  Without a policy's leader (an interrupted
ranking), the default policy."""
from __future__ import annotations

import pytest

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
    def __init__(self, rows, leader, estimates):
        self.actions, self.leader, self.criterion = rows, leader, None
        self.extra = {} if estimates is None else {"estimates": estimates}


class _Solver(SolverBase):     # a registered solver's interface (the hint calls api.rank)
    def __init__(self, ranking):
        self.ranking, self.seen = ranking, []

    def rank(self, view, budget_nodes=None, budget_s=None, *, on_progress=None,
             reserve_s=0.0):
        self.seen.append((view, budget_s))
        return self.ranking


def _no_second_search(monkeypatch):
    """The hint must not ask a policy again once the ranking has a leader."""
    def refuse(self):
        raise AssertionError("the hint asked the default policy after the ranking")
    monkeypatch.setattr(Hinter, "policy", refuse)


STRONGEST = {"estimator": "policy", "policy": "strongest", "how": "rollout",
             "search": "seq-rollout n=4096 over learned-base, horizon 32"}


@pytest.mark.parametrize("which", [0, -1, 1])
def test_unproven_hint_is_the_rankings_leader_named_as_it_names_it(which, monkeypatch):
    _no_second_search(monkeypatch)
    s = _late()
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    rows = [_Row(x, 0.1, 0.6) for x in acts]            # overlapping bounds: unproven
    h = Hinter(lambda _: None)
    h._solver = _Solver(_Ranking(rows, acts[which], STRONGEST))
    a, why = h.hint(s, 1)
    assert s.action_to_string(a) == acts[which]          # whichever move the ranking leads
    assert why.startswith("heuristic: the move strongest plays here, onirim best's leader "
                          "(estimates: seq-rollout n=4096 over learned-base, horizon 32)")
    assert "not proven best" in why and "did not settle it in 2 s" in why
    assert h._solver.seen == [(player_view(s), h.limit_s)]      # one query
    assert h._policy is None


def test_a_leader_its_policy_proved_says_so(monkeypatch):
    _no_second_search(monkeypatch)
    s = _late()
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    h = Hinter(lambda _: None)
    est = {**STRONGEST, "policy": "the default policy", "how": "exact"}
    h._solver = _Solver(_Ranking([_Row(x, 0.1, 0.6) for x in acts], acts[1], est))
    a, why = h.hint(s, 1)
    assert s.action_to_string(a) == acts[1]
    assert why.startswith("heuristic: the move the default policy plays here (its own exact "
                          "end-game search proves it best), onirim best's leader")


@pytest.mark.parametrize("estimates", [None, {"estimator": "level-1", "policy": "greedy"}])
def test_without_a_policys_leader_the_default_policy(estimates, monkeypatch):
    s = _late()
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    asked = []

    class Stub:
        name, config = "stub", {}

        def act(self, view, stream):
            asked.append((view, stream))
            return s.legal_actions()[2]
    monkeypatch.setattr(Hinter, "policy", lambda self: Stub())
    h = Hinter(lambda _: None)
    h._solver = _Solver(_Ranking([_Row(x, 0.1, 0.6) for x in acts], acts[-1], estimates))
    a, why = h.hint(s, 7)
    assert a == s.legal_actions()[2] and asked == [(player_view(s), 7)]
    assert why.startswith("heuristic: stub policy, not proven best; the exact search did "
                          "not settle it")


@pytest.mark.slow
def test_the_hint_is_best_s_answer_with_the_real_search(monkeypatch):
    """The real query (compiles the search and the policies once): the hint plays what the
    ranking it got says (its best, else its leader), and makes no policy of its own."""
    from solver import api
    got = []
    real = api.rank

    def spy(*args, **kw):
        got.append(real(*args, **kw))
        return got[-1]
    monkeypatch.setattr(api, "rank", spy)
    s = _late(seed=5, deck=15)
    h = Hinter(lambda _: None)
    a, why = h.hint(s, 1)
    (r,) = got
    assert s.action_to_string(a) == (r.best or r.leader)
    assert h._policy is None
    if r.best is None:
        assert why.startswith(f"heuristic: the move {r.extra['estimates']['policy']} plays")
