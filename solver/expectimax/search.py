"""Expectimax kernel (6/6), the search: intervals that always contain the exact win
probability, Star1 and alpha-beta windows, node limits and the deadline, probes.
Settings and counters: ``solver.expectimax.control``.

The search returns an interval ``(lo, hi)`` that always contains the exact win
probability, for any window and any budget; the window (alpha, beta) only decides
how much work is spent.
"""
from __future__ import annotations

import time

import numba as nb
import numpy as np

from engine.rules import DOORS_PER_COLOUR, NO_CARD, NUM_LOCATION_TYPES
from engine.rules import PH_LOST as LOST
from engine.rules import PH_NIGHTMARE as NIGHTMARE
from engine.rules import PH_PICK as PICK
from engine.rules import PH_REFILL as REFILL
from engine.rules import PH_WON as WON
from .control import (CT_HITS, CT_NODES, CT_PHASE, CT_TIMEOUT, SE_BOUND, SE_CLOCK_MASK,
                          SE_DEADLINE, SE_LIMIT, SE_PEEK, SE_PROBE, SE_PRUNE, SE_REVERSE,
                          new_settings)
from solver.board import is_key
from solver.borrow import borrow
from .fields import doors_get, doors_total, hand_get, row_last, row_series
from .rules import canonical, decision_children, nightmare_option
from .bound import can_still_win, doors_reachable, slack
from .table import memo_get, memo_store, prefetch_key
from .chance import outcomes


@nb.njit(cache=True)
def now_us():
    """time.perf_counter() in whole microseconds (the same clock as the Python side)."""
    with nb.objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


@nb.njit(cache=True)
def static_eval(w0, w1, w2, w3):
    """A heuristic score of a position (higher looks better).  It only chooses the child a
    probe follows, so it never affects soundness (docs/EXPECTIMAX.md section 4a): 1000
    per Door in play, 10 per play of slack in the can-still-win count, 30 per card of the
    row's current series when its colour still misses a Door, and per card in hand 20
    (Key) or 5 (Sun, Moon) of a colour that misses a Door, else 3 or 1."""
    sc = 1000 * doors_total(w1) + 10 * slack(w0, w1, w2, w3)
    last = row_last(w1)
    if last != NO_CARD and doors_get(w1, last // 3) < DOORS_PER_COLOUR:
        sc += 30 * row_series(w1)
    for c in range(NUM_LOCATION_TYPES):
        h = hand_get(w1, c)
        if h == 0:
            continue
        miss = doors_get(w1, c // 3) < DOORS_PER_COLOUR
        if is_key(c):
            sc += h * (20 if miss else 3)
        else:
            sc += h * (5 if miss else 1)
    return sc


@nb.njit(inline="always", cache=True)
def outcome_static(cw, i, cfg):
    """Row i of a chance node's outcomes brought to its canonical form: (status, words,
    score), the score being 10,000 times the value of a settled outcome, else its
    static_eval."""
    st, a0, a1, a2, a3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    q = quick(st, a0, a1, a2, a3, cfg)
    sc = q * 10000.0 if q >= 0.0 else float(static_eval(a0, a1, a2, a3))
    return st, a0, a1, a2, a3, q < 0.0, sc


@nb.njit(cache=True)
def mean_static(status, w0, w1, w2, w3, cfg):
    """static_eval, or at a chance node the mean of its outcomes' outcome_static."""
    if status < REFILL or status == PICK:
        return float(static_eval(w0, w1, w2, w3))
    cw, cp = outcomes(status, w0, w1, w2, w3)
    total = 0.0
    for i in range(cp.shape[0]):
        total += cp[i] * outcome_static(cw, i, cfg)[6]
    return total


@nb.njit(cache=True)
def child_score(status, w0, w1, w2, w3, cfg):
    """The probe's preference for a canonical child: mean_static, except that an outcome
    that draws a Nightmare (and is not settled) counts the best mean_static of its options.
    (Not written as one recursive function: numba's cache mishandled the recursion
    between the two versions that a flag argument made.)"""
    if status < REFILL or status == PICK:
        return mean_static(status, w0, w1, w2, w3, cfg)
    cw, cp = outcomes(status, w0, w1, w2, w3)
    sc = 0.0
    for i in range(cp.shape[0]):
        st, a0, a1, a2, a3, open_, v = outcome_static(cw, i, cfg)
        if open_ and st == NIGHTMARE:
            v = -1e300
            for act in range(10):
                ok, b1, b2 = nightmare_option(a0, a1, a2, act)
                if ok:
                    s2, c0, c1, c2, c3 = canonical(a0, b1, b2, a3)
                    q2 = quick(s2, c0, c1, c2, c3, cfg)
                    v = max(v, q2 * 10000.0 if q2 >= 0.0
                            else mean_static(s2, c0, c1, c2, c3, cfg))
        sc += cp[i] * v
    return sc


@nb.njit(cache=True)
def search(w0, w1, w2, w3, alpha, beta, keys, vals, cfg, ctr):
    """Sound interval (lo, hi) on the win probability of the position under optimal play.

    alpha/beta: the caller only needs to know whether the value is <= alpha or >= beta; the
    search may stop early once that is settled (Star1 at chance nodes, alpha-beta at decision
    nodes).  Pruning is switched off by cfg[SE_PRUNE] == 0 (settings and counters:
    ``solver.expectimax.control``)."""
    status, w0, w1, w2, w3 = canonical(w0, w1, w2, w3)
    q = quick(status, w0, w1, w2, w3, cfg)
    if q >= 0.0:
        return q, q
    return expand(status, w0, w1, w2, w3, alpha, beta, keys, vals, cfg, ctr)


@nb.njit(inline="always", cache=True)
def quick(status, w0, w1, w2, w3, cfg):
    """The value of a canonical position when it costs no search (won, lost, or hopeless by
    the can-still-win test), else -1."""
    if status == WON:
        return 1.0
    if status == LOST:
        return 0.0
    if cfg[SE_BOUND] != 0:
        if not can_still_win(w0, w1, w2, w3):
            return 0.0
    elif not doors_reachable(w0, w1, w2, w3):
        return 0.0
    return -1.0


@nb.njit(cache=True)
def settle(cw, m, keys, cfg):
    """The first m rows of cw are a node's children.  Brings each to its canonical form in
    place and returns (status, q) per child: q is its value when it costs no search
    (quick), else -1, and then its memo row is prefetched, so the probes of all the
    children that will be searched overlap."""
    cs = np.empty(m, np.int64)
    cq = np.empty(m)
    for i in range(m):
        s_, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3] = canonical(cw[i, 0], cw[i, 1],
                                                               cw[i, 2], cw[i, 3])
        cs[i] = s_
        cq[i] = quick(s_, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], cfg)
        if cq[i] < 0.0:
            prefetch_key(keys, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    return cs, cq


@nb.njit(cache=True)
def expand(status, w0, w1, w2, w3, alpha, beta, keys, vals, cfg, ctr):
    """search() of a canonical position that quick() did not settle.

    The memo, the settings and the counters are borrowed (:mod:`solver.borrow`): the caller
    holds them for the whole search, and the recursion and the helpers only index them, so
    no call of the search counts references to them (a quarter of the search's time did)."""
    keys = borrow(keys)
    vals = borrow(vals)
    cfg = borrow(cfg)
    ctr = borrow(ctr)
    if cfg[SE_PRUNE] == 0:
        alpha = -1.0
        beta = 2.0
    probe = cfg[SE_PROBE] != 0
    found, lo0, hi0 = memo_get(keys, vals, w0, w1, w2, w3)
    if found:
        if lo0 == hi0 or hi0 <= alpha or lo0 >= beta or probe:
            ctr[CT_HITS] += 1
            return lo0, hi0
    if ctr[CT_NODES] >= cfg[SE_LIMIT] or ctr[CT_TIMEOUT] != 0:
        return lo0, hi0
    ctr[CT_NODES] += 1
    ctr[CT_PHASE + status] += 1
    if cfg[SE_DEADLINE] != 0 and (ctr[CT_NODES] & cfg[SE_CLOCK_MASK]) == 0:
        if now_us() > cfg[SE_DEADLINE]:
            # out of time: every later call returns the bounds it has (sound, see above)
            ctr[CT_TIMEOUT] = 1
    nodes0 = ctr[CT_NODES]
    ph = status
    rev = cfg[SE_REVERSE] != 0     # visit children and outcomes in reverse order
    lo = 0.0
    hi = 0.0
    if ph >= REFILL and ph != PICK:
        
        # Star1 with cheap child bounds: a first pass gives every outcome the bounds that
        # cost no search (won / lost / hopeless / memo), so the unexplored outcomes count
        # [lb, ub] instead of [0, 1] in the window arithmetic.
        cw, cp = outcomes(ph, w0, w1, w2, w3)
        m = cp.shape[0]
        cs, cq = settle(cw, m, keys, cfg)
        clb = np.empty(m)
        cub = np.empty(m)
        slo = 0.0
        shi = 0.0
        for i in range(m):
            if cq[i] >= 0.0:
                lb = cq[i]
                ub = cq[i]
            else:
                lb, ub = 0.0, 1.0
                if cfg[SE_PEEK] != 0:
                    found, lb, ub = memo_get(keys, vals, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
            clb[i] = lb
            cub[i] = ub
            slo += cp[i] * lb
            shi += cp[i] * ub
        if not (shi <= alpha or slo >= beta):
            for ii in range(m):
                i = m - 1 - ii if rev else ii
                if clb[i] == cub[i]:
                    continue
                p = cp[i]
                ca = (alpha - (shi - p * cub[i])) / p
                cb = (beta - (slo - p * clb[i])) / p
                clo, chi = expand(cs[i], cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], ca, cb,
                                  keys, vals, cfg, ctr)
                if clo < clb[i]:
                    clo = clb[i]
                if chi > cub[i]:
                    chi = cub[i]
                slo += p * (clo - clb[i])
                shi += p * (chi - cub[i])
                clb[i] = clo
                cub[i] = chi
                if shi <= alpha or slo >= beta:
                    break
        # recompute in a fixed order: exact children give lo == hi bit for bit
        lo = 0.0
        hi = 0.0
        for i in range(m):
            lo += cp[i] * clb[i]
            hi += cp[i] * cub[i]
    else:
        
        # generate the children, hint their memo rows, then search them
        ch = np.empty((24, 4), np.int64)
        nc = decision_children(ph, w0, w1, w2, w3, rev, ch)
        ds, dq = settle(ch, nc, keys, cfg)
        for i in range(nc):
            if dq[i] > lo:
                lo = dq[i]
            if dq[i] > hi:
                hi = dq[i]
        # a probe follows one child, the one child_score likes best (section 4a): its
        # lower bound is one for this node; the other open children count [0, 1]
        only = -1
        nopen = 0
        if probe:
            bs = -1e300
            for i in range(nc):
                if dq[i] < 0.0:
                    nopen += 1
                    sc = child_score(ds[i], ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3], cfg)
                    if sc > bs:
                        bs = sc
                        only = i
        for i in range(nc):
            if lo >= beta:
                break
            if dq[i] >= 0.0 or (probe and i != only):
                continue
            clo, chi = expand(ds[i], ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3], max(alpha, lo),
                              beta, keys, vals, cfg, ctr)
            if clo > lo:
                lo = clo
            if chi > hi:
                hi = chi
        if lo >= beta or nopen > 1:
            # children left unexplored (by a cut, or by a probe) count [0, 1]
            hi = 1.0
    # intersect with what was known before
    if lo < lo0:
        lo = lo0
    if hi > hi0:
        hi = hi0
    if hi < lo:   # only float noise can do this
        hi = lo
    memo_store(keys, vals, ctr, w0, w1, w2, w3, lo, hi, ctr[CT_NODES] - nodes0 + 1)
    return lo, hi


@nb.njit(cache=True, nogil=True)
def solve(w0, w1, w2, w3, alpha, beta, keys, vals, cfg, ctr):
    """search() without the GIL (the entry point of every search thread)."""
    return search(w0, w1, w2, w3, alpha, beta, keys, vals, cfg, ctr)


def solve_words(w0, w1, w2, w3, alpha, beta, keys, vals, counters, settings=None):
    """search() from Python: ``counters`` receive the counts, ``settings`` (default: pruning
    and the bound on, no limit, no deadline: ``exk_control.new_settings()``) say what the
    search may do."""
    if settings is None:
        settings = new_settings()
    return solve(w0, w1, w2, w3, alpha, beta, keys, vals, settings, counters)
