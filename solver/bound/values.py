"""Choices of ``W``, the function of the player's view that sets the penalties
(``docs/BOUND.md`` section 6).  Each is a callable ``W(view) -> float`` on chance-mode solo
views (decisions, chance nodes and the end of the game); none may change the view.

* :func:`zero` - ``W = 0``: no penalty, the clairvoyant bound;
* :class:`ExactValue` - the exact honest value of the view (the expectimax), memoised by view;
  with it the inner maximum is the position's value on every deal (strong duality);
* :class:`NoiseValue` - a deterministic pseudo-random number in ``[0, scale)`` per view: a
  deliberately wrong ``W`` for tests (any ``W`` gives a valid bound);
* :class:`DecisionClosure` - a ``W`` given at decisions only, extended to chance nodes by its
  expectation over the draws up to the next decision (one penalty per turn, section 3).
"""
from __future__ import annotations

import hashlib

from engine.notation import format_position


def zero(view) -> float:
    return 0.0


class ExactValue:
    """``W(view)`` = the exact honest win probability of the view, from
    ``solver.expectimax.Expectimax`` (the kernel; ``value`` must come back exact), memoised
    by the view's key.  ``solver`` may be any object with a ``value(state)`` giving an
    interval (``lo``, ``hi``), or a function of the view giving a number."""

    def __init__(self, solver=None):
        if solver is None:
            from solver.expectimax import Expectimax
            solver = Expectimax()
        self.solver = solver
        self.memo: dict = {}

    def __call__(self, view) -> float:
        key = view._key()
        got = self.memo.get(key)
        if got is None:
            if view.is_terminal():
                got = 1.0 if view.won() else 0.0
            elif callable(self.solver):
                got = float(self.solver(view))
            else:
                iv = self.solver.value(view)
                if iv.lo != iv.hi:
                    raise RuntimeError(f"the value of {view} is not exact: [{iv.lo}, {iv.hi}]")
                got = iv.lo
            self.memo[key] = got
        return got


class NoiseValue:
    """A fixed pseudo-random ``W``: a hash of the view's notation (and ``salt``) mapped to
    ``[0, scale)``.  The same view always gets the same number."""

    def __init__(self, scale: float = 1.0, salt: str = ""):
        self.scale = scale
        self.salt = salt

    def __call__(self, view) -> float:
        h = hashlib.sha256((self.salt + format_position(view)).encode()).digest()
        return self.scale * int.from_bytes(h[:8], "big") / 2**64


class DecisionClosure:
    """``W`` at decisions and at the end of the game; at a chance node, the expectation of
    ``W`` at the next decision (or end) over the draws in between (the engine's chance
    probabilities).  Memoised by view."""

    def __init__(self, W):
        self.W = W
        self.memo: dict = {}

    def __call__(self, view) -> float:
        if not view.is_chance_node():
            return self.W(view)
        key = view._key()
        got = self.memo.get(key)
        if got is None:
            got = 0.0
            for a, p in view.chance_outcomes():
                child = view.clone()
                child.apply_action(a)
                got += p * self(child)
            self.memo[key] = got
        return got
