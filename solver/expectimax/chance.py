"""Expectimax kernel (5/6), chance outcomes: the positions and probabilities of a chance
node (one draw, or the multiset of r cards a reveal shows, multivariate
hypergeometric).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from engine.rules import FIRST_DOOR, NUM_TYPES, PROPHECY_SIZE
from engine.rules import PH_FORESEE as FORESEE
from engine.rules import PH_REDRAW as REDRAW
from engine.rules import PH_REFILL as REFILL
from engine.rules import PH_REVEAL as REVEAL
from .fields import left_get, left_set, plen, unk_add, unk_get, unk_total
from .rules import push_bottom, redrawn, refill_with, revealed, to_limbo
from solver import steps


@nb.njit(cache=True)
def single_outcomes(w0, w1, w2, w3, ph, total):
    """The next card from the unknown part: one outcome per card type present."""
    m = 0
    for t in range(NUM_TYPES):
        if unk_get(w0, w1, t) > 0:
            m += 1
    cw = np.empty((m, 4), np.int64)
    cp = np.empty(m)
    m = 0
    for t in range(NUM_TYPES):
        n = unk_get(w0, w1, t)
        if n == 0:
            continue
        a0, a1 = unk_add(w0, w1, t, -1)
        a2 = w2
        a3 = w3
        if ph == REFILL:
            a1, a2 = refill_with(a1, a2, t)
        elif ph == REDRAW:
            a1, a2 = redrawn(a1, a2, t)
        elif ph == REVEAL:
            a2 = revealed(a2, t)
        else:
            a2, a3 = push_bottom(a2, a3, t)
        cw[m, 0] = a0
        cw[m, 1] = a1
        cw[m, 2] = a2
        cw[m, 3] = a3
        cp[m] = n / total
        m += 1
    return cw, cp


@nb.njit(cache=True)
def _choose(n, k):
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@nb.njit(cache=True)
def reveal_outcomes(w0, w1, w2, w3, r, total, foresee):
    """Nightmare 'reveal' of r unknown cards at once: the order does not matter (Locations go
    to the discard pile, the rest to limbo), so one outcome per multiset of r cards, with its
    multivariate hypergeometric probability.  Same leaves as r single draws, no middle.
    With ``foresee`` the r cards join the known prefix instead (a prophecy is about to
    reorder them at will, so their order does not matter either)."""
    ts = np.empty(NUM_TYPES, np.int64)
    ns = np.empty(NUM_TYPES, np.int64)
    m = 0
    for t in range(NUM_TYPES):
        n = unk_get(w0, w1, t)
        if n > 0:
            ts[m] = t
            ns[m] = n
            m += 1
    # count the outcomes, then fill (odometer over x with sum r, 0 <= x_i <= n_i)
    x = np.zeros(m, np.int64)
    cap = np.zeros(m + 1, np.int64)     # cap[i] = sum of ns[i:]
    for i in range(m - 1, -1, -1):
        cap[i] = cap[i + 1] + ns[i]
    out = 0
    for pass_ in range(2):
        if pass_ == 1:
            cw = np.empty((out, 4), np.int64)
            cp = np.empty(out)
            denom = _choose(total, r)
        out = 0
        rem = r
        for i in range(m):
            x[i] = min(ns[i], rem)
            rem -= x[i]
        while True:
            if pass_ == 1:
                a0 = w0
                a1 = w1
                a2 = w2 if foresee else left_set(w2, 0)
                a3 = w3
                p = 1.0
                for i in range(m):
                    if x[i] > 0:
                        t = ts[i]
                        a0, a1 = unk_add(a0, a1, t, -x[i])
                        if foresee:
                            for _ in range(x[i]):
                                a2, a3 = push_bottom(a2, a3, t)
                        elif t >= FIRST_DOOR:
                            for _ in range(x[i]):
                                a2 = to_limbo(a2, t)
                        p *= _choose(ns[i], x[i])
                cw[out, 0] = a0
                cw[out, 1] = a1
                cw[out, 2] = a2
                cw[out, 3] = a3
                cp[out] = p / denom
            out += 1
            # next: the rightmost i < m-1 with x[i] > 0 whose right side can take one more
            j = -1
            right = 0
            for i in range(m - 1, -1, -1):
                if x[i] > 0 and cap[i + 1] - right >= 1 and i < m - 1:
                    j = i
                    break
                right += x[i]
            if j < 0:
                break
            x[j] -= 1
            rem = right + 1
            for i in range(j + 1, m):
                x[i] = min(ns[i], rem)
                rem -= x[i]
    return cw, cp


@nb.njit(cache=True)
def outcomes(ph, w0, w1, w2, w3):
    """The outcomes (positions, probabilities) of a chance node in phase ph."""
    total = unk_total(w0, w1)
    if ph == REVEAL and left_get(w2) > 1:
        return reveal_outcomes(w0, w1, w2, w3, left_get(w2), total, False)
    if ph == FORESEE and steps.prophecy_count(plen(w2) + total) - plen(w2) > 1:
        return reveal_outcomes(w0, w1, w2, w3, steps.prophecy_count(plen(w2) + total) - plen(w2),
                               total, True)
    return single_outcomes(w0, w1, w2, w3, ph, total)
