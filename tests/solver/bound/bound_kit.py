"""Helpers of the bound's tests: an exact honest value in plain Python (memoised expectimax
over the engine's chance mode, the algorithm of tests/naive_expectimax.py with a memo), the
greedy policy on views, and the small positions the tests use."""
from __future__ import annotations

from engine.notation import parse_position
from engine.policy import greedy_action

from benchmarks.positions import late_position


class PyExpectimax:
    """The exact win probability of a chance-mode solo view: 1/0 at the end, the maximum
    over ``legal_actions()`` at a decision, the probability-weighted mean over
    ``chance_outcomes()`` at a chance node; memoised by the view's key (floats)."""

    def __init__(self):
        self.memo: dict = {}

    def __call__(self, view) -> float:
        key = view._key()
        got = self.memo.get(key)
        if got is not None:
            return got
        if view.is_terminal():
            got = 1.0 if view.won() else 0.0
        elif view.is_chance_node():
            got = 0.0
            for a, p in view.chance_outcomes():
                child = view.clone()
                child.apply_action(a)
                got += p * self(child)
        else:
            got = 0.0
            for a in view.legal_actions():
                child = view.clone()
                child.apply_action(a)
                got = max(got, self(child))
        self.memo[key] = got
        return got


def greedy(view) -> int:
    """The engine's greedy policy: it reads the view only."""
    return greedy_action(view)


# Small positions near the end of real (greedy, chance-mode) games: benchmarks/positions.py
# late_position(seed, n), the first phase play with at most n unknown cards, all 8 Doors
# still in the game.  (seed, n) pairs whose positions are not trivially lost.
def late(seed: int, n: int):
    p = late_position(seed, n)
    assert p is not None, (seed, n)
    return p


# Hand-made small positions with a real chance to win (values strictly between 0 and 1),
# found by tests/naive_expectimax.random_positions(...) and kept as text so that the tests
# do not depend on that generator's stream.
SMALL = [
]


def small_positions():
    return [parse_position(t) for t in SMALL]
