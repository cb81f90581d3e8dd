"""Rollout policies over the information state (honest play), built on solver.honest.kernel.

``rollout`` (level 1): at a decision, every legal action (a prophecy: every distinct outcome) is
followed by ``n`` greedy playouts inside the numba kernel, from the player's view: the unknown
cards are drawn from their counts, the known top cards come first.  Playout ``j`` of every
action uses the same chance stream (common random numbers), so the difference between two
actions is measured on the same future draws.  The policy keeps the base (greedy) action
unless a rival's paired mean difference ``mean(r_rival - r_base)`` exceeds ``z`` standard
errors of that difference; among such rivals it takes the largest difference.  A plain argmax
over few playouts is worse than greedy (actions differ by 0.01-0.05 in winning chance, so noise
decides); the margin keeps the base move when the evidence is weak.

Many actions (a prophecy has up to 120 distinct outcomes): when there are more than ``keep``+1
actions and ``0 < screen < n``, every action first gets ``screen`` playouts; only the ``keep``
actions with the most wins, plus the base action, get the remaining ``n - screen``.  This is a
heuristic, not a proof: an action ranked outside the top ``keep`` after ``screen`` common-random-
number playouts rarely has the best mean after ``n``, and the z-margin against the base then
decides among the survivors as usual.  ``tests/solver/honest/test_rollout.py`` compares the screened choice
with the unscreened one.

``level=2``: the playouts after each action are played by the level-1 policy (``inner_n``
playouts per action, margin ``inner_z``) instead of greedy, and the base action is the
level-1 choice.  Expensive: about ``n * actions`` level-1 games per decision.

``Rollout.act_among(view, stream, allowed)``: the same choice restricted to a subset of the
actions (the end-game switch's ``fallback=pruned``, solver/endgame.py).

Decisions with a single legal action cost nothing (no playout).  Given the same view and the
same ``stream``, the action is the same: every random number comes from ``stream``.
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng
from engine.policy import greedy_plus_action

from solver.honest import kernel as HK
from solver.errors import PolicyError
from solver.registry import Param, check_range as _check, register_policy
from solver.stats import wilson

# Stream salt: the policy's playout key is mix64 of the decision stream and this constant.
_SALT = 0x2545F4914F6CDD1D


# The throwaway deal whose opening view warm_up decides on.
_WARM_SEED = 0


def _key(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


@register_policy("greedy-plus", doc="greedy, but discard the hand rather than reveal at a "
                                    "Nightmare, and play (not discard) a playable non-Key card")
class GreedyPlus:
    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("greedy-plus plays solo games only")
        return greedy_plus_action(view)


@register_policy(
    "rollout",
    params=[
        Param("n", int, 64, "playouts per action"),
        Param("z", float, 1.0, "margin: leave the base action only if a rival's paired mean "
                               "difference exceeds z standard errors"),
        Param("screen", int, 16, "with many actions: playouts per action in the first round "
                                 "(0: no screen)"),
        Param("keep", int, 6, "with many actions: how many the screen keeps (plus the base)"),
        Param("level", int, 1, "1: greedy playouts; 2: playouts by the level-1 policy"),
        Param("inner_n", int, 16, "level 2: playouts per action of the inner level-1 policy"),
        Param("inner_z", float, 1.0, "level 2: the inner policy's margin"),
        Param("base", str, "greedy-plus", "base policy of the playouts: greedy or greedy-plus"),
    ],
    doc="greedy + one-step rollout improvement in numba (n playouts per action, common random "
        "numbers, z-margin)")
class Rollout:
    def __init__(self, n=64, z=1.0, screen=16, keep=6, level=1, inner_n=16, inner_z=1.0,
                 base="greedy-plus"):
        if base not in HK.BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(HK.BASES)}")
        self.base = base
        _check("n", n, 1, 1 << 20)
        _check("z", z, 0.0)
        _check("screen", screen, 0)
        _check("keep", keep, 1)
        _check("level", level, 1, 2)
        _check("inner_n", inner_n, 1, 1 << 20)
        _check("inner_z", inner_z, 0.0)
        if math.isnan(z) or math.isnan(inner_z):
            raise PolicyError("policy argument z: must be a number")
        self.n, self.z, self.screen, self.keep = n, float(z), screen, keep
        self.level, self.inner_n, self.inner_z = level, inner_n, float(inner_z)

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) every kernel :meth:`act` and
        :meth:`act_among` call, on the opening view of a throwaway deal, so that compile time
        never lands in a deal's seconds (``solver.runs.runner`` calls this before the first deal).
        The playout counts are tiny: only the kernels' types matter to numba."""
        from engine.game import Game
        from engine.view import player_view
        view = player_view(Game(1).new_initial_state(seed=_WARM_SEED))
        small = Rollout(n=2, z=self.z, screen=1 if self.screen else 0, keep=self.keep,
                        level=self.level, inner_n=2, inner_z=self.inner_z, base=self.base)
        small.act(view, 0)
        small.act_among(view, 0, view.legal_actions()[:2])

    def act(self, view, stream: int) -> int:
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        S = HK.encode(view)
        key = np.uint64(_key(stream))
        b = np.int64(HK.BASES[self.base])
        if self.level == 1:
            a = HK.decide1(S, np.int64(self.n), np.float64(self.z), key,
                           np.int64(self.screen), np.int64(self.keep), b)
        else:
            a = HK.decide2(S, np.int64(self.n), np.float64(self.z), key,
                           np.int64(self.screen), np.int64(self.keep),
                           np.int64(self.inner_n), np.float64(self.inner_z),
                           np.int64(self.screen), np.int64(self.keep), b)
        return int(a)

    def act_among(self, view, stream: int, allowed) -> int:
        """The level-1 rollout choice restricted to the actions ``allowed`` (a non-empty
        subset of the legal action ids), for the end-game switch's pruned fallback
        (docs/REGRET.md, section 5).  Every legal action gets ``n`` playouts from the same
        key as :meth:`act` (so, unscreened, the same playouts); the reference is the base
        action if allowed, else the allowed action with the most wins (ties: the first in
        the kernel's order); a rival replaces it only if its paired mean difference exceeds
        ``z`` standard errors (the largest such difference wins), as in ``act``.  With every
        action allowed this is exactly ``act`` with ``screen=0`` at level 1.  At level 2 the
        playouts are level-1 games as in ``act`` and the choice rule is the same."""
        allowed = {int(a) for a in allowed}
        acts = view.legal_actions()
        if not allowed or not allowed <= set(acts):
            raise PolicyError(f"allowed actions {sorted(allowed)!r} are not a non-empty "
                              "subset of the legal actions")
        if len(allowed) == 1:
            return next(iter(allowed))
        S = HK.encode(view)
        key = np.uint64(_key(stream))
        b = np.int64(HK.BASES[self.base])
        ids = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        if self.level == 1:
            res = np.zeros((HK.MAX_LEGAL, self.n), dtype=np.int8)
            m = HK.estimate_all(S, np.int64(self.n), key, ids, res, b)
            base_id = HK.base_at(S, self.base)
        else:
            return self._among_level2(view, S, key, b, allowed)
        return _select_among(ids[:m], res[:m], allowed, base_id, self.z)

    def _among_level2(self, view, S, key, b, allowed):
        # the level-2 choice itself, kept if allowed; else the allowed action of the level-2
        # rollout's own playouts with the most wins is not available from the kernel's
        # public functions, so the level-1 restricted choice decides
        a = int(HK.decide2(S, np.int64(self.n), np.float64(self.z), key,
                           np.int64(self.screen), np.int64(self.keep),
                           np.int64(self.inner_n), np.float64(self.inner_z),
                           np.int64(self.screen), np.int64(self.keep), b))
        if a in allowed:
            return a
        inner = Rollout(n=self.n, z=self.z, screen=0, keep=self.keep, base=self.base)
        return inner.act_among(view, stream_of_key(key), allowed)


def stream_of_key(key) -> int:
    """A stream for a nested call, derived from a playout key (deterministic)."""
    return int(rng.mix64((int(key) ^ rng.GAMMA) & rng.MASK))


def _select_among(ids, res, allowed, base_id, z) -> int:
    """The z-margin rule of the kernel's ``select`` (solver.honest.screening) over the rows of ``res`` whose action
    id (``ids``) is in ``allowed``; the reference row is ``base_id``'s if allowed, else the
    allowed row with the most wins (ties: the first)."""
    rows = [i for i in range(len(ids)) if int(ids[i]) in allowed]
    n = res.shape[1]
    ref = next((i for i in rows if int(ids[i]) == base_id), None)
    if ref is None:
        wins = res[rows].sum(axis=1, dtype=np.int64)
        ref = rows[int(np.argmax(wins))]
    best, best_d = ref, 0.0
    r0 = res[ref].astype(np.int64)
    for i in rows:
        if i == ref:
            continue
        d = res[i].astype(np.int64) - r0
        s = int(d.sum())
        s2 = int((d * d).sum())
        mean = s / n
        var = 0.0
        if n > 1:
            var = max(0.0, (s2 - s * s / n) / (n - 1))
        se = math.sqrt(var / n)
        if mean > z * se and mean > best_d:
            best, best_d = i, mean
    return int(ids[best])


def action_estimates(view, n: int = 1000, stream: int = 0,
                     base: str = "greedy") -> list[tuple[int, float, float, float]]:
    """Every legal action of ``view`` (a solo chance-mode position, e.g. a player_view) with
    the winning rate of ``n`` base-policy playouts after it (``base``: greedy or greedy-plus)
    and its Wilson 95% interval: ``[(action, mean, ci_lo, ci_hi), ...]`` in the order of
    ``view.legal_actions()``.

    These estimate the value of "this action, then the base policy": a policy's value (below
    the value under optimal play on average), not a bound.  Playout j uses the same chance
    stream after every action."""
    if view.is_terminal() or view.is_chance_node():
        return []
    if n < 1:
        raise PolicyError(f"n: {n!r} must be >= 1")
    S = HK.encode(view)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, n), dtype=np.int8)
    if base not in HK.BASES:
        raise PolicyError(f"base: {base!r} is not one of {', '.join(HK.BASES)}")
    m = HK.estimate_all(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                        np.int64(HK.BASES[base]))
    out = []
    for i in range(m):
        k = int(res[i].sum())
        lo, hi = wilson(k, n)
        out.append((int(acts[i]), k / n, lo, hi))
    return out
