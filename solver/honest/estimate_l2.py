"""Level-2 estimates with a deadline: each action, then *rollout* play to the end.

:func:`l2_estimates` ``(view, actions, deadline, stream, max_playouts)`` gives every action
of a decision of the player's view the winning rate of playouts in which the action is
played and then every later decision is the level-1 rollout's over ``greedy-keep-doors``
(``INNER`` playouts per action, the ``rollout`` policy's margin and screen), with Wilson's
95% interval and the number of playouts.  A playout is
:func:`solver.honest.strong.estimate_all_l2` with one playout per legal action; no kernel
code of its own.  Rounds (one playout of every legal action, on one chance stream: common
random numbers) run until ``deadline`` or ``max_playouts``; round ``r`` uses the stream
``word(key, r)`` whatever the budget, so the estimates depend only on the view, the stream
and the number of rounds: a deadline that allowed ``n`` rounds gives exactly what
``max_playouts=n`` gives.  A round is one numba call that cannot look at the clock: the next
round starts only if the mean round so far would end before the deadline.

Why: on the late positions of docs/REGRET.md the leader of these estimates (256 playouts per
action) has a mean regret of 0.0028 against 0.016 for the leader of greedy-keep-doors
playouts (docs/REGRET.md, "The leader of onirim best").  A level-2 round costs a few
milliseconds late in a game and about 0.15 s at its first decision, so
:func:`solver.honest.estimate.estimate_actions` uses it only when the budget buys at least
``MIN_PLAYOUTS`` rounds (its docstring has the rule).

:func:`prepare` compiles (or loads) the kernel before any clock starts.
"""
from __future__ import annotations

import time

import numpy as np

from engine import rng

from solver.errors import PolicyError
from solver.honest.estimate_result import ActionEstimate, Estimates
from solver.stats import wilson

INNER = 32             # playouts per action of the level-1 rollout inside each playout
Z1, SCREEN1, KEEP1 = 1.0, 16, 6      # the rollout policy's margin and screen (its defaults)
BASE = "greedy-keep-doors"
POLICY = f"rollout (level 1, {INNER} playouts per action, over {BASE})"
ESTIMATOR = "level-2"
_SALT = 0x2545F4914F6CDD1D           # this estimator's own playout key
MAX_ROUNDS = 1 << 16                 # under a deadline alone, at most this many rounds


def _key(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


class _Rounds:
    """The encoded view and the buffers of one query; :meth:`run` plays round ``r``."""

    def __init__(self, view, inner: int):
        from solver.honest import kernel as HK
        from solver.honest import strong
        self.strong = strong
        self.S = HK.encode(view)
        self.acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        self.res = np.zeros((HK.MAX_LEGAL, 1), dtype=np.int8)
        self.args = (np.int64(inner), np.float64(Z1), np.int64(SCREEN1), np.int64(KEEP1),
                     np.int64(strong.BASES[BASE]))

    def run(self, key: int, r: int) -> dict[int, int]:
        """{action id: 1 won / 0 lost} of round ``r`` (stream word(key, r))."""
        m = self.strong.estimate_all_l2(self.S, np.int64(1), np.uint64(rng.word(key, r)),
                                        self.acts, self.res, *self.args)
        return {int(self.acts[i]): int(self.res[i, 0]) for i in range(m)}


def l2_estimates(view, actions, deadline: float | None, stream: int,
                 max_playouts: int | None = None, inner: int = INNER,
                 min_playouts: int = 1, need: int = 0):
    """Level-2 estimates of ``actions`` (legal in ``view``, a solo decision of the player's
    view): rounds until ``deadline`` (a ``time.perf_counter()`` value) or ``max_playouts``
    per action, at least ``min_playouts`` whatever the clock says (module docstring).
    ``need``: after the first round, stop there if the rounds that would fit by the deadline
    at its pace are fewer than ``need`` (the caller then plays something cheaper).  Returns :class:`solver.honest.estimate.Estimates` (``estimator``
    "level-2"; ``playouts`` 0 if no round ran)."""
    if deadline is None and max_playouts is None:
        raise ValueError("l2_estimates: give a deadline or max_playouts")
    if max_playouts is not None and max_playouts < 1:
        raise PolicyError(f"max_playouts: {max_playouts!r} must be >= 1")
    if inner < 1:
        raise PolicyError(f"inner: {inner!r} must be >= 1")
    t0 = time.perf_counter()
    actions = list(actions)
    rounds = _Rounds(view, inner)
    key = _key(stream)
    wins = dict.fromkeys(actions, 0)
    n = 0
    cap = MAX_ROUNDS if max_playouts is None else max_playouts
    while n < cap:
        now = time.perf_counter()
        if n >= min_playouts and deadline is not None:
            per = (now - t0) / n if n else 0.0
            if now + per > deadline:       # the next round would end after the deadline
                break
        got = rounds.run(key, n)
        for a in actions:
            wins[a] += got[a]
        n += 1
        if n == 1 and need > 1 and deadline is not None:
            now = time.perf_counter()
            if 1 + (deadline - now) / max(now - t0, 1e-9) < need:
                break
    res = {a: ActionEstimate(a, wins[a] / n if n else float("nan"), wilson(wins[a], n), n)
           for a in actions}
    return Estimates(by_action=res, playouts=n, method="rollout",
                     policy=POLICY if inner == INNER else
                     f"rollout (level 1, {inner} playouts per action, over {BASE})",
                     estimator=ESTIMATOR, seconds=time.perf_counter() - t0)


def prepare(view) -> None:
    """Compile (or load) the level-2 playouts so that no budget pays for it: one round with
    one inner playout."""
    _Rounds(view, 1).run(0, 0)
