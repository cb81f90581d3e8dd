"""Estimates of a search policy's winning chance after each action, with 95% intervals.

``onirim best`` gives sound bounds ``[lo, hi]`` on the *optimal* winning chance of every
action.  Far from the end of a game the exact search cannot close them within a budget, and
``[lo, 1]`` says little.  This module adds, for each action ``a``, an estimate of the winning
chance of a concrete player who takes ``a`` and then plays on with a policy, from the same
information (the player's view): that is a *policy value*, a lower bound on the optimal value
in expectation, and it is always reported apart from ``lo``/``hi`` (docs/EXPECTIMAX.md,
"Estimates").

:func:`estimate_actions` ``(view, actions, deadline, stream)`` chooses the estimator by the
budget (its docstring has the rule):

* level 2 (:mod:`solver.honest.estimate_l2`): the action, then the level-1 *rollout* over
  ``POLICY`` to the end, when the time left buys at least ``L2_MIN_PLAYOUTS`` such playouts
  per action (late in a game about a second does; at a game's first decision about ten);
* level 1 otherwise: the fast numba playouts of :func:`action_estimates` ``(view, n, stream)``, in batches sized
  to the time left;
* :func:`engine_estimates`, the readable reference that the calibration test and benchmark
  use: playouts of the same policy through the engine
  (``engine.policy.keep_doors_action``): playout ``j``
  deals the unknown cards of the view in a uniformly random order and fixes every later
  shuffle (a deal-mode state keyed by ``(stream, j)``), and *every* action is played out on
  that same deal: common random numbers, so that the differences between actions are not
  drowned by the noise of different deals.  Rounds (one playout of every action) run until
  the deadline; a round the deadline cuts short is dropped, so every action has the same
  number of playouts.

The policy played after the action is ``POLICY``, ``greedy-keep-doors``: the strongest base
policy whose playouts cost about as much as greedy's (docs/POLICIES.md, "Stronger honest
play"; until issue 29 it was plain ``greedy``, an 11% player, which valued moves by its own
mistakes).  It reads only what the player may know (see ``engine.policy``), so a playout
on a deal-mode state plays exactly as it would from the player's view; the deal only decides
the chance outcomes.  The interval is Wilson's score interval for a binomial proportion.

:func:`policy_value` computes the exact value of "``a`` then the policy" on small positions
by enumerating the chance outcomes with the engine (the policy is deterministic): the
calibration
test and ``benchmarks/bench_best_budget.py`` check that the intervals contain it at about
the stated rate.
"""
from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from engine import rng

from solver.errors import PolicyError
from engine.policy import keep_doors_action as _policy_action
from solver.honest.estimate_result import POLICY, ActionEstimate, Estimates  # noqa: F401
from solver.stats import wilson

_DEAL_INDEX = 1 << 41              # rng shuffle index of the playout's deal of unknown cards
_MAX_STEPS = 10_000                # a playout longer than this is a bug, not a game


# ------------------------------------------------------------------------------ playouts
def determinize(view, stream: int, j: int):
    """Playout ``j``'s deal: a deal-mode copy of ``view`` whose unknown cards lie below the
    known top in a uniformly random order, and whose later shuffles are fixed by a seed;
    both drawn from ``(stream, j)``."""
    key = rng.stream_key(stream & rng.MASK, j)
    seed = rng.word(key, 0)
    s = view.clone()
    s.deck = list(view.deck) + rng.shuffle_counts(view.unknown, seed, _DEAL_INDEX)
    s.unknown = [0] * len(view.unknown)
    s.seed = seed
    s.shuffles = 0
    s.known_top = len(view.deck)
    return s


def play_out(state) -> bool:
    """Play ``state`` (deal mode) to the end with ``POLICY``; True if won."""
    for _ in range(_MAX_STEPS):
        if state.is_terminal():
            return state.won()
        state.apply_action(_policy_action(state))
    raise RuntimeError("a playout did not end")    # pragma: no cover


def engine_estimates(view, actions, deadline: float | None, stream: int,
                     max_playouts: int | None = None, min_playouts: int = 1) -> Estimates:
    """``POLICY``'s playouts through the engine with common random numbers (module docstring):
    whole rounds until ``deadline`` (a ``time.perf_counter()`` value) or ``max_playouts``
    per action, at least ``min_playouts`` rounds whatever the clock says."""
    if deadline is None and max_playouts is None:
        raise ValueError("engine_estimates: give a deadline or max_playouts")
    t0 = time.perf_counter()
    actions = list(actions)
    wins = {a: 0 for a in actions}
    n = 0
    while max_playouts is None or n < max_playouts:
        if deadline is not None and n >= min_playouts and time.perf_counter() >= deadline:
            break
        deal = determinize(view, stream, n)
        got = {}
        for a in actions:
            if deadline is not None and n >= min_playouts and time.perf_counter() >= deadline:
                got = None          # a round cut short is dropped: every action keeps n
                break
            s = deal.clone()
            s.apply_action(a)
            got[a] = play_out(s)
        if got is None:
            break
        for a, w in got.items():
            wins[a] += w
        n += 1
    out = Estimates(playouts=n, method="engine", seconds=time.perf_counter() - t0)
    for a in actions:
        out.by_action[a] = ActionEstimate(a, wins[a] / n if n else float("nan"),
                                          wilson(wins[a], n), n)
    return out


def action_estimates(view, n: int, stream: int) -> list[tuple[int, float, float, float]]:
    """Every legal action of ``view`` (a solo decision of the player's view) with the winning
    rate of ``n`` playouts of ``POLICY`` after it and its Wilson 95% interval, ``[(action,
    mean, ci_lo, ci_hi), ...]`` in the order of ``view.legal_actions()``: the numba kernel
    (``solver.honest.strong.estimate_all_base``); playout j uses the same chance stream after
    every action.  The key is that of ``solver.honest.rollout.action_estimates``."""
    from solver.honest import kernel as HK
    from solver.honest import strong
    from solver.honest.rollout import _key
    if n < 1:
        raise PolicyError(f"n: {n!r} must be >= 1")
    S = HK.encode(view)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, n), dtype=np.int8)
    m = strong.estimate_all_base(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                                 np.int64(strong.BASES[POLICY]))
    out = []
    for i in range(m):
        k = int(res[i].sum())
        lo, hi = wilson(k, n)
        out.append((int(acts[i]), k / n, lo, hi))
    return out


def prepare(view) -> None:
    """Compile (or load) the fast playouts and the level-2 ones so that no budget pays for
    it: one call of ``action_estimates`` with one playout, one level-2 round."""
    from solver.honest import estimate_l2
    action_estimates(view, 1, 0)
    estimate_l2.prepare(view)


def _from_rollout(result, actions, n):
    """``action_estimates``' rows, ``(action, mean, ci_lo, ci_hi)`` for every legal action,
    as estimates of ``actions``."""
    rows = {int(a): (float(m), (float(lo), float(hi))) for a, m, lo, hi in result}
    return {a: ActionEstimate(a, rows[a][0], rows[a][1], n) for a in actions}


# The fast playouts keep one byte per playout and legal action in a batch, and a batch is
# at most this many playouts (about 16 MB).
_MAX_FAST_PLAYOUTS = 1 << 17
FIRST_BATCH = 64          # playouts of the first batch against a deadline ...
FIRST_BATCH_S = 0.05      # ... when at least this many seconds are left (else 1)
MAX_BATCH_S = 0.2         # no batch is sized to last longer than this: a batch is one
                          # numba call that cannot look at the clock, and on a loaded
                          # machine the rate of the batch before can be far off


# The choice of estimator under a deadline (estimate_actions): level 1 for a share of the time
# (its estimates are the fallback, and its pace predicts a level-2 round's), then level 2 if
# it buys enough playouts.
L2_PLAYOUT_UNKNOWN = 20   # without a deadline: level 2 at most this many unknown cards (a
                          # round then costs about 10 ms of CPU at most: 64 rounds < 1 s)
L2_MIN_S = 0.2            # below this many seconds: level 1 only
L1_SHARE = 0.1            # the level-1 phase: this share of the time ...
L1_MAX_S = 0.5            # ... and at most this many seconds
L2_MIN_PLAYOUTS = 32      # level 2 only if at least this many rounds fit in the time left:
                          # the leader of 32 has a mean regret of 0.0089 on the late
                          # positions of docs/REGRET.md, 16 about level 1's (0.015 vs 0.016)
L2_RATIO = 100            # a level-2 round costs at most about this many level-1 rounds per
                          # unknown card (10 at least): measured 14 to 95, 60 to 80 early in
                          # a game (about 5,600 level-1 rounds at the first decision)
L2_TRY_SHARE = 0.25       # the first level-2 round is tried only if it would take at most
                          # this share of the time left at L2_RATIO


def estimate_actions(view, actions, deadline: float | None, stream: int,
                     max_playouts: int | None = None, level: int | None = None) -> Estimates:
    """Estimate, for each action of ``actions`` (legal in ``view``, a decision of the
    player's view), the winning chance of playing it and then a policy, with a 95%
    interval, using the time until ``deadline`` (a ``time.perf_counter()`` value; None:
    ``max_playouts`` per action).  Same view, actions, budget in playouts and stream: the
    same answer.

    ``level`` 1: ``POLICY``'s playouts (:func:`_level1`); 2: level-2 playouts
    (:func:`solver.honest.estimate_l2.l2_estimates`); None, the rule of ``onirim best``:
    without a deadline (``max_playouts`` per action, default 64), level 2 if at most
    ``L2_PLAYOUT_UNKNOWN`` cards are unknown, else level 1 (a level-2 round costs a few
    milliseconds late in a game and 100 times more at its start, and a playout budget
    promises a bounded answer); with a deadline, level 1 alone if less than
    ``L2_MIN_S`` is left; else level 1 for ``L1_SHARE`` of the time (``L1_MAX_S`` at most),
    then one level-2 round if it would take at most ``L2_TRY_SHARE`` of the time left at
    ``L2_RATIO`` level-1 rounds per unknown card, and level-2 rounds to the deadline if that first round's
    pace lets at least ``L2_MIN_PLAYOUTS`` of them fit (the level-2 estimates are kept if at
    least half that many were made by the deadline).  Otherwise level 1 goes on to the
    deadline (its two phases' playouts pooled) and ``note`` says why.  The result's
    ``estimator`` names the one used; ``max_playouts`` caps the level-1 playouts."""
    if level not in (None, 1, 2):
        raise ValueError(f"estimate_actions: level {level!r} (1, 2 or None)")
    from solver.honest import estimate_l2
    if level == 2:
        return estimate_l2.l2_estimates(view, actions, deadline, stream,
                                        max_playouts if deadline is not None or max_playouts
                                        else 64)
    t0 = time.perf_counter()
    if deadline is None and level is None and sum(view.unknown) <= L2_PLAYOUT_UNKNOWN:
        return estimate_l2.l2_estimates(view, actions, None, stream, max_playouts or 64)
    if level == 1 or deadline is None or deadline - t0 < L2_MIN_S:
        return _level1(view, actions, deadline, stream, max_playouts)
    e1 = _level1(view, actions, t0 + min(L1_SHARE * (deadline - t0), L1_MAX_S), stream,
                 max_playouts)
    left = deadline - time.perf_counter()
    # a level-2 round at the highest ratio measured
    guess = L2_RATIO * max(sum(view.unknown), 10) * e1.seconds / e1.playouts
    if guess > L2_TRY_SHARE * left:
        note = (f"level 2 not tried: a round could take {guess:.2g} s, "
                f"{left:.2g} s left")
    else:
        e2 = estimate_l2.l2_estimates(view, actions, deadline, stream,
                                      need=L2_MIN_PLAYOUTS)
        if e2.playouts >= L2_MIN_PLAYOUTS // 2:     # the first round's pace promised
            e2.seconds = time.perf_counter() - t0     # L2_MIN_PLAYOUTS: a busier machine
            return e2                                 # may give somewhat fewer
        note = (f"level 2 not used: {e2.playouts} playout{'' if e2.playouts == 1 else 's'} "
                f"per action in {e2.seconds:.2g} s, fewer than {L2_MIN_PLAYOUTS} would fit")
    if max_playouts is None or e1.playouts < max_playouts:
        more = _level1(view, actions, deadline, rng.word(stream, _MORE), None if
                       max_playouts is None else max_playouts - e1.playouts)
        e1 = _pool(e1, more)
    e1.note = note
    e1.seconds = time.perf_counter() - t0
    return e1


_MORE = 1 << 40           # the stream index of level 1's second phase


def _pool(a: Estimates, b: Estimates) -> Estimates:
    """Two level-1 estimates of the same actions on independent playouts, pooled."""
    n = a.playouts + b.playouts
    by = {}
    for act, ea in a.by_action.items():
        k = round(ea.estimate * a.playouts) + round(b.by_action[act].estimate * b.playouts)
        by[act] = ActionEstimate(act, k / n, wilson(k, n), n)
    return Estimates(by_action=by, playouts=n, method=a.method, policy=a.policy,
                     seconds=a.seconds + b.seconds)


def _level1(view, actions, deadline: float | None, stream: int,
            max_playouts: int | None = None) -> Estimates:
    """``POLICY``'s fast playouts after each action: ``max_playouts`` (default 64) per
    action without a deadline; with one, batches sized to the time left."""
    t0 = time.perf_counter()
    if deadline is None:
        n = max_playouts if max_playouts is not None else 64
        return Estimates(by_action=_from_rollout(action_estimates(view, n, stream), actions,
                                                 n),
                         playouts=n, method="rollout", seconds=time.perf_counter() - t0)
    # Against a deadline: batches, each sized to half the time left at the rate the last one
    # ran (and to MAX_BATCH_S at most), so that no batch (one uninterruptible numba call)
    # overruns the budget by much.  The first
    # batch is one playout when little time is left (FIRST_BATCH otherwise), so that a tiny
    # budget is not overrun by its first batch.  Batch b uses its own stream; within a batch
    # every action sees the same playouts.  At least one playout is always made.
    cap = min(max_playouts or _MAX_FAST_PLAYOUTS, _MAX_FAST_PLAYOUTS)
    wins = dict.fromkeys(actions, 0)
    n, b = 0, 0
    size = min(FIRST_BATCH if deadline - t0 > FIRST_BATCH_S else 1, cap)
    while size >= 1:
        t = time.perf_counter()
        rows = _from_rollout(action_estimates(view, size, stream if b == 0
                                              else rng.word(stream, b)), actions, size)
        for a in actions:
            wins[a] += round(rows[a].estimate * size)
        n += size
        b += 1
        per = max(time.perf_counter() - t, 1e-9) / size
        left = deadline - time.perf_counter()
        size = min(cap - n, int(min(0.5 * left, MAX_BATCH_S) / per))
    res = {a: ActionEstimate(a, wins[a] / n, wilson(wins[a], n), n) for a in actions}
    return Estimates(by_action=res, playouts=n, method="rollout",
                     seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------- exact policy value
def policy_value(state, memo: dict | None = None) -> Fraction:
    """The exact winning chance of ``POLICY`` from a chance-mode ``state`` (every
    chance outcome enumerated with the engine; positions memoized).  Exponential in the
    unknown cards: meant for small positions (about 9 unknown cards or fewer)."""
    if state.seed is not None:
        raise ValueError("policy_value: a chance-mode state (the player's view), not a deal")
    memo = {} if memo is None else memo

    def value(s) -> Fraction:
        if s.is_terminal():
            return Fraction(1 if s.won() else 0)
        k = s._key()
        v = memo.get(k)
        if v is not None:
            return v
        if s.is_chance_node():
            v = Fraction(0)
            for a, p in s.chance_outcomes_exact():
                c = s.clone()
                c.apply_action(a)
                v += p * value(c)
        else:
            c = s.clone()
            c.apply_action(_policy_action(s))
            v = value(c)
        memo[k] = v
        return v

    return value(state)
