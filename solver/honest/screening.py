"""The bookkeeping of playout rounds, written once for the rollouts of both information-state
kernels (solo :mod:`solver.honest.playouts` and :mod:`solver.honest.strong`, two-player
:mod:`solver.duo.info_playouts`).

Every rollout decision fills a table ``res`` (one row per candidate action, one column per
playout, playout ``j`` of every row on the same chance stream) and then chooses a row.  The
pieces here read only that table, never a game state, so they do not depend on the rules or on
the number of players:

* :func:`row_of`: the row of an action (the base policy's) among the candidates;
* :func:`screens` and :func:`screen_top`: the screening round (all candidates get the first
  ``screen`` playouts, then only the ``keep`` best and the base row get the rest);
* :func:`paired`: the mean and standard error of the paired difference of two rows;
* :func:`select`: the z-margin rule (the base row unless a rival's paired mean difference
  exceeds ``z`` standard errors; the largest such difference wins);
* :func:`leader` and :func:`indifferent`: the sequential rollout's leader and its
  indifference stop (:func:`solver.honest.strong.seq_core`).

How a playout is played (the base policy, the partner's hand dealt from the unknown cards, the
reward) stays in each kernel's ``_eval``.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def row_of(acts, m, a, missing):
    """The index of action ``a`` in ``acts[:m]`` (the last if it stands twice), ``missing`` if
    it is not there."""
    r = missing
    for i in range(m):
        if acts[i] == a:
            r = i
    return r


@njit(cache=True, inline="always")
def screens(n, screen, keep, m):
    """True if a decision over ``m`` candidates with ``n`` playouts each screens: a first
    round of ``screen`` playouts (0 < screen < n) leaves more than ``keep`` + 1 of them."""
    return screen > 0 and screen < n and m > keep + 1


@njit(cache=True)
def leader(res, alive, nact, n):
    """The live row with the most wins in the first ``n`` playouts (ties: the first)."""
    best = -1
    bs = -1
    for i in range(nact):
        if alive[i]:
            s = 0
            for j in range(n):
                s += res[i, j]
            if s > bs:
                bs = s
                best = i
    return best


@njit(cache=True)
def screen_top(res, nact, base, n_s, keep, cand):
    """Candidates after the screen: the ``keep`` rows with the most wins in the first ``n_s``
    playouts (ties: lower row), plus the base row.  Returns how many (into ``cand``)."""
    m = 0
    left = np.ones(nact, dtype=np.bool_)
    for _ in range(min(keep, nact)):
        bi = leader(res, left, nact, n_s)
        left[bi] = False
        cand[m] = bi
        m += 1
    if left[base]:
        cand[m] = base
        m += 1
    return m


@njit(cache=True)
def paired(res, i, r, n):
    """(mean, standard error) of the paired difference res[i, :n] - res[r, :n]."""
    s = 0
    s2 = 0
    for j in range(n):
        d = np.int64(res[i, j]) - np.int64(res[r, j])
        s += d
        s2 += d * d
    mean = s / n
    var = 0.0
    if n > 1:
        var = (s2 - s * s / n) / (n - 1)
        if var < 0.0:
            var = 0.0
    return mean, np.sqrt(var / n)


@njit(cache=True)
def select(res, cand, m, base, n, z):
    """The row of ``res[:, :n]`` to play among the rows ``cand[:m]``: the base row unless a
    candidate's paired mean difference to it exceeds ``z`` standard errors (the largest such
    difference wins; ties: the first in ``cand``)."""
    best = base
    best_d = 0.0
    for q in range(m):
        i = cand[q]
        if i == base:
            continue
        mean, se = paired(res, i, base, n)
        if mean > z * se and mean > best_d:
            best = i
            best_d = mean
    return best


@njit(cache=True)
def indifferent(res, alive, nact, ref, n, stop, zstop):
    """True if no live rival's paired mean difference to row ``ref`` over the first ``n``
    playouts, plus ``zstop`` standard errors, reaches ``stop``."""
    for i in range(nact):
        if alive[i] and i != ref:
            m, se = paired(res, i, ref, n)
            if m + zstop * se >= stop:
                return False
    return True
