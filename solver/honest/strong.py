"""Stronger honest play in the information-state kernel: the ``greedy-keep-doors`` base policy,
playouts under any base, and the sequential rollout decision ``decide_seq``.

This module adds kernels on the state of :mod:`solver.honest.state` and reuses its rule steps
(``advance``, ``apply_action``, ``legal``, the unknown-card generator) and the base policies of
:mod:`solver.honest.greedy`; it copies no rule.  Its only game loop, :func:`playout_b`, is the
loop of :func:`solver.honest.playouts.playout` with a third base policy in the dispatch.

Base policies (``BASES``): ``greedy`` (0), ``greedy-plus`` (1) and ``greedy-keep-doors`` (2).

``greedy-keep-doors`` (:func:`keep_doors`) is greedy-plus with one change, chosen by
measurement (docs/POLICIES.md, "Stronger honest play"): in the play phase, where greedy-plus
would discard, a *dead* Key is discarded instead: a Key of a colour that can gain no more
Door (both of its Doors in play, or every Door of it not in play already discarded by a
prophecy).  Such a Key can open nothing, and discarding a Key triggers a prophecy, which is
worth having; greedy keeps every Key to the last (its discard rank puts Keys after every other
card).  Keys that can still open a Door are kept exactly as greedy-plus keeps them.  The
readable reference on the engine's state is
:func:`engine.policy.keep_doors_action`; the differential test compares the two at
every decision of real games.

``decide_seq`` (sequential rollout): every legal action gets playouts of the base policy in
rounds of ``batch``, playout ``j`` of every action on the same chance stream (common random
numbers).  After each round, an action whose paired mean difference to the current leader (the
live action with the most wins) is below zero by more than ``zdrop`` standard errors is dropped
for the rest of the decision; the playouts stop when one action is left or each live action has
``n``.  The choice among the live actions is the rollout's z-margin rule
(:mod:`solver.honest.rollout`): the base policy's action unless a rival's paired mean difference
to it exceeds ``z`` standard errors (the largest such difference wins); if the base action was
dropped, the leader takes its place as the reference.  The drop is a heuristic, not a proof: an
action ``zdrop`` standard errors behind may still be the best; the test compares the screened
choice with the full one (``tests/solver/honest/test_strong.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, FIRST_DOOR

# absolute, not relative (see solver.honest.state)
from solver import board as B
from solver import steps as X
from solver.honest.greedy import greedy, greedy_plus
from solver.honest.state import (A_DISCARD, DR, DRAWN, H, L, MAX_LEGAL, NS, NTOP, P_LOST, P_PLAY,
                                 P_SETUP, P_WON, PH, TOP, U, _drawn, advance, apply_action,
                                 draw_unknown, legal, mix64, new_game, word)

GREEDY, GREEDY_PLUS, KEEP_DOORS = 0, 1, 2
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS, "greedy-keep-doors": KEEP_DOORS}
MAX_DECISIONS = 2000   # a guard: a solo game has far fewer decisions
SALT_DECISION = np.uint64(0x5851F42D4C957F2D)


# ----------------------------------------------------------------------------- base policies
@njit(cache=True, inline="always")
def doors_left(S, col):
    """Doors of colour ``col`` not in play and not discarded: in the deck (unknown or known
    top), in limbo, or drawn and awaiting a decision."""
    d = FIRST_DOOR + col
    n = S[U + d] + S[L + d] + (1 if S[DRAWN] == d else 0)
    for i in range(S[NTOP]):
        if S[TOP + i] == d:
            n += 1
    return n


@njit(cache=True, inline="always")
def dead_key(S, col):
    """True if the Key of colour ``col`` can open no more Door: the colour needs none, or
    none of its Doors is left to draw."""
    return (not X.door_needed(S[DR + col])) or doors_left(S, col) == 0


@njit(cache=True, inline="always")
def keep_doors(S):
    """greedy-keep-doors at the decision state ``S`` (module docstring)."""
    a = greedy_plus(S)
    if S[PH] == P_PLAY and a >= A_DISCARD:
        for col in range(COLOURS):
            k = B.key_of(col)
            if S[H + k] > 0 and dead_key(S, col):
                return A_DISCARD + k
    return a


@njit(cache=True, inline="always")
def base_of(S, base):
    if base == KEEP_DOORS:
        return keep_doors(S)
    if base == GREEDY_PLUS:
        return greedy_plus(S)
    return greedy(S)


@njit(cache=True)
def _base_at(S, base):
    return base_of(S, base)


def base_at(S, base: str) -> int:
    """The base policy ``base`` (a name of ``BASES``) at the decision state ``S``."""
    return int(_base_at(S, np.int64(BASES[base])))


# ----------------------------------------------------------------------------- playouts
@njit(cache=True, _nrt=False)
def playout_b(S, key, base):
    """Play ``S`` to the end with base policy ``base`` and draws from stream ``key`` (the
    loop of solver.honest.playouts.playout).  Returns 1 (won), 0 (lost), -1 (guard)."""
    ctr = 0
    steps = 0
    while True:
        advance(S)
        ph = S[PH]
        if ph == P_WON:
            return 1
        if ph == P_LOST:
            return 0
        if ph >= P_SETUP:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            _drawn(S, t)
            continue
        apply_action(S, base_of(S, base))
        steps += 1
        if steps > MAX_DECISIONS:
            return -1


@njit(cache=True)
def base_games(n, key0, base, out):
    """``n`` whole games from the setup played by ``base``; game g with stream
    word(key0, g); out[g] = 1 if won."""
    S = np.empty(NS, dtype=np.int64)
    for g in range(n):
        new_game(S)
        out[g] = 1 if playout_b(S, word(key0, g), base) > 0 else 0


@njit(cache=True, inline="always")
def _copy(dst, src):
    for i in range(NS):
        dst[i] = src[i]


@njit(cache=True)
def _eval(S0, a, j0, j1, key, S, row, base):
    """row[j] = 1 if ``base`` wins after action ``a`` from ``S0`` with stream word(key, j),
    for j in [j0, j1)."""
    for j in range(j0, j1):
        _copy(S, S0)
        apply_action(S, a)
        row[j] = 1 if playout_b(S, word(key, j), base) > 0 else 0


@njit(cache=True)
def estimate_all_base(S0, n, key, acts, res, base):
    """res[i, j] = playout j of ``base`` after action acts[i] (1 won, 0 lost); returns the
    number of legal actions (written to ``acts``).  Playout j of every action uses the
    stream word(key, j)."""
    nact = legal(S0, acts)
    S = np.empty(NS, dtype=np.int64)
    for i in range(nact):
        _eval(S0, acts[i], 0, n, key, S, res[i], base)
    return nact


# ----------------------------------------------------------------------------- sequential
@njit(cache=True)
def _paired(res, i, r, n):
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
def _leader(res, alive, nact, n):
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
def seq_core(S0, acts, nact, bi, n, batch, z, zdrop, key, base, res, used):
    """The sequential rollout over the ``nact`` actions ``acts`` with base row ``bi``
    (module docstring).  ``res`` (nact x n, int8) receives the playouts; used[0] = the
    playouts made in all.  Returns the chosen row."""
    S = np.empty(NS, dtype=np.int64)
    alive = np.ones(nact, dtype=np.bool_)
    nalive = nact
    done = 0
    total = 0
    while done < n and nalive > 1:
        j1 = min(n, done + max(batch, done // 4))
        for i in range(nact):
            if alive[i]:
                _eval(S0, acts[i], done, j1, key, S, res[i], base)
                total += j1 - done
        done = j1
        if zdrop <= 0.0 or done >= n:
            continue
        lead = _leader(res, alive, nact, done)
        for i in range(nact):
            if alive[i] and i != lead:
                m, se = _paired(res, i, lead, done)
                if m + zdrop * se < 0.0:
                    alive[i] = False
                    nalive -= 1
    used[0] = total
    if nalive == 1:
        for i in range(nact):
            if alive[i]:
                return i
    ref = bi if alive[bi] else _leader(res, alive, nact, done)
    best = ref
    best_d = 0.0
    for i in range(nact):
        if alive[i] and i != ref:
            m, se = _paired(res, i, ref, done)
            if m > z * se and m > best_d:
                best = i
                best_d = m
    return best


@njit(cache=True)
def decide_seq(S0, n, batch, z, zdrop, key, base):
    """The sequential rollout action at decision state ``S0`` (module docstring)."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    g = base_of(S0, base)
    bi = 0
    for i in range(nact):
        if acts[i] == g:
            bi = i
    res = np.zeros((nact, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    return acts[seq_core(S0, acts, nact, bi, n, batch, z, zdrop, key, base, res, used)]


@njit(cache=True)
def seq_games(n_games, key0, n, batch, z, zdrop, base, out, playouts):
    """Whole games from the setup played by the sequential rollout inside the kernel (for
    tuning; the measured runs play through the engine with ``onirim winrate``): game g with
    stream word(key0, g), decision i of it with stream word(mix64(key ^ SALT), i).
    out[g] = 1 if won; playouts[g] = the playouts it made."""
    S = np.empty(NS, dtype=np.int64)
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    res = np.zeros((MAX_LEGAL, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    for g in range(n_games):
        new_game(S)
        key = word(key0, g)
        dkey = mix64(key ^ SALT_DECISION)
        ctr = 0
        steps = 0
        out[g] = 0
        playouts[g] = 0
        while steps <= MAX_DECISIONS:
            advance(S)
            ph = S[PH]
            if ph == P_WON:
                out[g] = 1
                break
            if ph == P_LOST:
                break
            if ph >= P_SETUP:
                t = draw_unknown(S, key, ctr)
                ctr += 1
                _drawn(S, t)
                continue
            nact = legal(S, acts)
            a = acts[0]
            if nact > 1:
                gb = base_of(S, base)
                bi = 0
                for i in range(nact):
                    if acts[i] == gb:
                        bi = i
                r = seq_core(S, acts, nact, bi, n, batch, z, zdrop, word(dkey, steps), base,
                             res, used)
                a = acts[r]
                playouts[g] += used[0]
            apply_action(S, a)
            steps += 1

