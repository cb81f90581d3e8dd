"""The graph of one optimal strategy, read from a solved memo (docs/EXPECTIMAX.md, section 9).

After an exact search the memo holds the exact value of the root and, below it, of every
position an optimal strategy reaches: at a decision node whose value v is exact, every child
has hi <= v, so a child with lo == v is exact too; at a chance node with an exact value every
outcome of positive probability is exact.  (An entry may be gone since: overwritten in a full
probe window, or its store dropped while the other thread held the row; the walk then
searches that position again.)  ``strategy_graph`` walks the graph: at a decision node it
follows the first child worth v, at a chance node every outcome.  It counts the distinct
positions that need a search (those ``quick`` does not settle), per phase, and evaluates the
strategy it followed (post-order: the mean over the outcomes, the chosen child's value at a
decision), which must give the root's value back.

A proof that the root is worth at least v has to evaluate some optimal strategy on all its
chance outcomes.  The graph walked here is one of them (not necessarily the smallest), so
its size shows what the lower half of an exact answer costs.  The rest of an exact search
goes to the upper half: showing that no other action does better.
``benchmarks/bench_strategy_graph.py`` compares the two.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from solver.expectimax.kernel import (PICK, REFILL, _hash, canonical, decision_children,
                                      memo_get, outcomes, quick, search)

# "Exact" up to float rounding: a bound computed with an unexplored outcome of tiny
# probability can lie one unit in the last place above the exact sum, while the parent's
# sums already round to lo == hi (docs/EXPECTIMAX.md, section 3, "Intervals").
TOL = 1e-12


@nb.njit(cache=True)
def _slot(vis, w0, w1, w2, w3):
    """The row of vis holding the position, or the empty row where it goes (the memo's
    hash, linear probing on the full key: no collision can merge two positions)."""
    mask = vis.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    while True:
        if vis[i, 5] == 0:
            return i
        if vis[i, 0] == w0 and vis[i, 1] == w1 and vis[i, 2] == w2 and vis[i, 3] == w3:
            return i
        i = (i + 1) & mask


@nb.njit(cache=True)
def _children(st, w0, w1, w2, w3):
    """(rows, probabilities, chance) of a position: the outcomes of a chance node, or the
    children of a decision node (probabilities unused)."""
    if st >= REFILL and st != PICK:
        cw, cp = outcomes(st, w0, w1, w2, w3)
        return cw, cp, True
    ch = np.empty((24, 4), np.int64)
    nc = decision_children(st, w0, w1, w2, w3, False, ch)
    return ch[:nc], np.zeros(nc), False


@nb.njit(cache=True)
def known_bounds(cw, i, keys, vals, cfg):
    """(lo, hi) of child (row) i of cw that cost no search: its value when quick settles
    it, its memo interval, or (0, 1) when it has no entry."""
    s2, c0, c1, c2, c3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    q2 = quick(s2, c0, c1, c2, c3, cfg)
    if q2 >= 0.0:
        return q2, q2
    f2, l2, h2 = memo_get(keys, vals, c0, c1, c2, c3)
    if f2:
        return l2, h2
    return 0.0, 1.0


@nb.njit(cache=True)
def _choose(cw, v, keys, vals, cfg):
    """The first child (row of cw) known to be worth v (both bounds within TOL of v); -1
    if none is."""
    for i in range(cw.shape[0]):
        lo, hi = known_bounds(cw, i, keys, vals, cfg)
        if abs(lo - v) <= TOL and abs(hi - v) <= TOL:
            return i
    return -1


@nb.njit(cache=True)
def _exact(w0, w1, w2, w3, keys, vals, cfg, ctr):
    """(exact, value, searched) of a canonical position: from the memo, or, when its entry
    is gone (overwritten in a full probe window, or a store dropped while the other thread
    held the row), by searching it again."""
    found, lo, hi = memo_get(keys, vals, w0, w1, w2, w3)
    if found and hi - lo <= TOL:
        return True, lo, False
    lo, hi = search(w0, w1, w2, w3, 0.0, 1.0, keys, vals, cfg, ctr)
    return hi - lo <= TOL, lo, True


@nb.njit(cache=True)
def _done_value(cw, i, vis, cfg):
    """The strategy's value at child i (its quick value, or the value the walk stored)."""
    s2, c0, c1, c2, c3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    q2 = quick(s2, c0, c1, c2, c3, cfg)
    if q2 >= 0.0:
        return q2
    r2 = _slot(vis, c0, c1, c2, c3)
    return vis.view(np.float64)[r2, 4]


@nb.njit(cache=True)
def _push(stack, sp, st, w0, w1, w2, w3, leave):
    """Push (status, words, leave) on the walk's stack, doubling it when full; returns
    (stack, sp)."""
    if sp == stack.shape[0]:
        bigger = np.empty((2 * stack.shape[0], 6), np.int64)
        bigger[:sp] = stack[:sp]
        stack = bigger
    stack[sp, 0] = st
    stack[sp, 1] = w0
    stack[sp, 2] = w1
    stack[sp, 3] = w2
    stack[sp, 4] = w3
    stack[sp, 5] = leave
    return stack, sp + 1


@nb.njit(cache=True)
def _walk(w0, w1, w2, w3, keys, vals, cfg, ctr, vis, counts):
    """Returns (value of the strategy followed, positions found exact neither in the memo
    nor by a new search, positions searched again, full).

    vis: one row per position reached: columns 0..3 its words, 4 its value (float64 bits:
    the exact value on entry, the strategy's value on leaving), 5 its state (0 empty row,
    1 entered, 2 left), 6 the decision child chosen (-1: none found).  A depth-first walk
    with an explicit stack: a position is left once every child it follows is left (the
    game has no cycles: every turn and every Nightmare discards a card for good)."""
    fv = vis.view(np.float64)
    s, a0, a1, a2, a3 = canonical(w0, w1, w2, w3)
    q = quick(s, a0, a1, a2, a3, cfg)
    if q >= 0.0:
        return q, 0, 0, False
    cap = vis.shape[0] // 2       # at most half full: probing stays short
    used = 0
    missing = 0
    searched = 0
    stack = np.empty((4096, 6), np.int64)     # (status, words, 0 = enter / 1 = leave)
    stack, sp = _push(stack, 0, s, a0, a1, a2, a3, 0)
    while sp > 0:
        sp -= 1
        st = stack[sp, 0]
        b0 = stack[sp, 1]
        b1 = stack[sp, 2]
        b2 = stack[sp, 3]
        b3 = stack[sp, 4]
        leave = stack[sp, 5] == 1
        r = _slot(vis, b0, b1, b2, b3)
        if not leave:
            if vis[r, 5] != 0:
                continue            # reached before along another path
            if used >= cap:
                return 0.0, missing, searched, True
            used += 1
            vis[r, 0] = b0
            vis[r, 1] = b1
            vis[r, 2] = b2
            vis[r, 3] = b3
            vis[r, 5] = 1
            counts[st] += 1
            ok, lo, again = _exact(b0, b1, b2, b3, keys, vals, cfg, ctr)
            searched += again
            fv[r, 4] = lo           # the value (replaced by the strategy's on leaving)
            if not ok:
                missing += 1                        # cannot happen without a node limit
                vis[r, 5] = 2
                continue
            stack, sp = _push(stack, sp, st, b0, b1, b2, b3, 1)
            cw, cp, chance = _children(st, b0, b1, b2, b3)
            if not chance:
                i = _choose(cw, lo, keys, vals, cfg)
                if i < 0:
                    # the optimal child's entry is gone: search the children again, in
                    # order, and take the first whose exact value is v.  The value the
                    # search returns is used, not the memo read after it: in a small memo
                    # a later child's search can overwrite an earlier child's entry again.
                    for j in range(cw.shape[0]):
                        s2, c0, c1, c2, c3 = canonical(cw[j, 0], cw[j, 1], cw[j, 2], cw[j, 3])
                        q2 = quick(s2, c0, c1, c2, c3, cfg)
                        if q2 >= 0.0:
                            ok2 = True
                            v2 = q2
                        else:
                            ok2, v2, again2 = _exact(c0, c1, c2, c3, keys, vals, cfg, ctr)
                            searched += again2
                        if ok2 and abs(v2 - lo) <= TOL:
                            i = j
                            break
                vis[r, 6] = i
                if i < 0:
                    missing += 1
                    continue
                s2, c0, c1, c2, c3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
                if quick(s2, c0, c1, c2, c3, cfg) < 0.0:
                    stack, sp = _push(stack, sp, s2, c0, c1, c2, c3, 0)
                continue
            for i in range(cw.shape[0]):
                s2, c0, c1, c2, c3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
                if quick(s2, c0, c1, c2, c3, cfg) < 0.0:
                    stack, sp = _push(stack, sp, s2, c0, c1, c2, c3, 0)
            continue
        # leave: every child followed is done; evaluate the strategy here
        cw, cp, chance = _children(st, b0, b1, b2, b3)
        v = 0.0
        if chance:
            for i in range(cw.shape[0]):
                v += cp[i] * _done_value(cw, i, vis, cfg)
        else:
            i = vis[r, 6]                                   # the child chosen on entry
            v = fv[r, 4] if i < 0 else _done_value(cw, i, vis, cfg)   # < 0: missing
        fv[r, 4] = v
        vis[r, 5] = 2
    r = _slot(vis, a0, a1, a2, a3)
    return fv[r, 4], missing, searched, False


def strategy_graph(words, keys, vals, cfg, ctr, bits: int = 24):
    """Walk one optimal strategy from the packed position ``words`` through a solved memo
    (``keys``, ``vals``, ``settings``, ``counters`` of an Expectimax).  Returns a dict: ``value`` (the
    strategy's win probability, which must be the root's exact value), ``positions``
    (distinct positions that need a search), ``per_status`` (their count per phase/status
    number), ``searched_again`` (positions whose exact entry was gone, overwritten or
    dropped, and that the walk searched again), ``missing`` (positions left without an
    exact value: 0 unless something is wrong) and ``full`` (the visited table of 2^bits
    rows filled up; the walk stopped)."""
    vis = np.zeros((1 << bits, 7), np.int64)
    counts = np.zeros(16, np.int64)
    w = [np.int64(x) for x in words]
    v, missing, searched, full = _walk(w[0], w[1], w[2], w[3], keys, vals, cfg, ctr, vis,
                                       counts)
    return {"value": float(v), "positions": int(counts.sum()),
            "per_status": [int(x) for x in counts[:11]], "missing": int(missing),
            "searched_again": int(searched), "full": bool(full)}
