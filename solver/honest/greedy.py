"""The base policies of the honest kernel: greedy, greedy-plus and greedy-keep-doors on the
information state.

``greedy`` is :func:`engine.policy.greedy_action` (solo) and ``greedy-plus``
:func:`solver.honest.rollout.greedy_plus_action`, both on the array of
:mod:`solver.honest.state`; both are checked against their Python references at every decision
of the differential run (``tests/honest_kit.py``).  Their ranks are greedy's shared ranks
(:mod:`solver.steps`: ``discard_rank``, ``play_rank``, ``prophecy_value``).  The greedy play
decision reads per-colour tables (``PLAY_BEST``, ``LOWEST``); the readable rule-by-rule version
is kept as ``_greedy_play_ref`` and tested against it.  ``greedy-keep-doors``
(:func:`keep_doors`) is :func:`engine.policy.keep_doors_action`, checked against it at every
decision of real games (tests/solver/honest/test_strong.py).  ``base_action(S, base)`` plays
any of the three by number (``BASES``): the playouts of :mod:`solver.honest.playouts` take it
as an argument.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, FIRST_DOOR, NO_CARD

# absolute, not relative (see solver.honest.state)
from solver import board as B
from solver import steps as X
from solver.honest.state import (A_DISCARD, A_DOOR_KEY, A_NM_DOOR, A_NM_KEY, A_NM_REDRAW,
                                 A_NM_REVEAL, A_PLAY, DR, DRAWN, H, L, LAST, NIGHT, NTOP,
                                 P_DOOR, P_NIGHTMARE, P_PLAY, P_PROPHECY, PH, SER, TOP, U,
                                 UTOT)


# ----------------------------------------------------------------------------- greedy
@njit(cache=True, inline="always")
def _cnt(S, col):
    return S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]


# greedy's ranks are the shared ones (solver.steps); these adapters read them off the array
@njit(cache=True, inline="always")
def _discard_rank(S, s_col, s_len, c, extra):
    """engine.policy._discard_rank as one integer (lower = discarded first); ``extra`` cards of
    colour ``c`` are counted as in hand too (the prophecy ranks c within hand + [c])."""
    col = c // 3
    needed = 1 if X.door_needed(S[DR + col]) else 0
    ins = 1 if (col == s_col and s_len != 0 and needed == 1) else 0
    return X.discard_rank(c, needed, ins, _cnt(S, col) + extra)


@njit(cache=True, inline="always")
def _play_rank(S, c):
    """engine.policy._play_choice's key: a follow-up in hand, non-Key, Moon > Sun > Key."""
    col = c // 3
    follow = 0
    for x in range(col * 3, col * 3 + 3):
        if x % 3 != c % 3 and S[H + x] > 0:
            follow = 1
    return X.play_rank(c, follow)


@njit(cache=True)
def _prophecy_value(S, s_col, s_len, c):
    """engine.policy._prophecy_value (a pair) as one integer: higher = nearer the top."""
    if c == NIGHT:
        return X.prophecy_value(c, 0, False, False, 0)
    if c >= FIRST_DOOR:
        col = c - FIRST_DOOR
        return X.prophecy_value(c, S[DR + col], S[H + B.key_of(col)] > 0, False, 0)
    col = c // 3
    return X.prophecy_value(c, S[DR + col], False, col == s_col and s_len != 0, _cnt(S, col))


@njit(cache=True)
def _greedy_play_ref(S):
    """The readable greedy play decision (engine.policy._play_choice / _discard_rank, rule by
    rule); :func:`_greedy_play` is the same decision from tables, checked against this one."""
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        lsym = -1
    else:
        s_col = last // 3
        s_len = S[SER]
        lsym = last % 3
    cnt = (_cnt(S, 0), _cnt(S, 1), _cnt(S, 2), _cnt(S, 3))
    need = (X.door_needed(S[DR]), X.door_needed(S[DR + 1]), X.door_needed(S[DR + 2]),
            X.door_needed(S[DR + 3]))
    active_needed = s_col >= 0 and need[s_col]
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        best = -1
        best_r = 1 << 40
        for c in range(s_col * 3, s_col * 3 + 3):
            if S[H + c] > 0 and c % 3 != lsym:
                r = _play_rank(S, c)
                if r < best_r:
                    best_r = r
                    best = c
        if best >= 0:
            return A_PLAY + best
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == 2):
        top = 0
        for col in range(COLOURS):
            n = cnt[col]
            if need[col] and n >= 2 and n > top:
                for c in range(col * 3, col * 3 + 3):
                    if S[H + c] > 0 and c % 3 != lsym:
                        top = n
                        break
        if top > 0:
            best = -1
            best_r = 1 << 40
            for col in range(COLOURS):
                if need[col] and cnt[col] == top:
                    for c in range(col * 3, col * 3 + 3):
                        if S[H + c] > 0 and c % 3 != lsym:
                            r = _play_rank(S, c)
                            if r < best_r:
                                best_r = r
                                best = c
            return A_PLAY + best
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best = -1
    best_r = 1 << 40
    for c in range(12):
        if S[H + c] > 0:
            col = c // 3
            nd = 1 if need[col] else 0
            ins = 1 if (col == s_col and s_len != 0 and nd == 1) else 0
            r = X.discard_rank(c, nd, ins, cnt[col])
            if r < best_r:
                best_r = r
                best = c
    return A_DISCARD + best


# Greedy play from tables.  Within one colour the greedy ranks depend only on which of its
# three cards are held (a 3-bit mask: bit 0 Sun, 1 Moon, 2 Key) and the last card's symbol:
# PLAY_BEST[mask, lsym + 1] = (class * 16 + offset) of the colour's playable card with the
# lowest _play_rank (class = the rank without the card number; adding colour * 3 gives the
# full rank, whose last term is the card number), or NO_PLAY if no card of it may be played.
# For discards the lowest-ranked card of a colour is always its lowest held offset (Sun < Moon
# < Key: the Key term outweighs the symbol term), LOWEST[mask].
NO_PLAY = 1 << 40


def _play_tables():
    best = np.full((8, 4), NO_PLAY, dtype=np.int64)
    lowest = np.full(8, -1, dtype=np.int64)
    for mask in range(8):
        held = [off for off in range(3) if mask >> off & 1]
        if held:
            lowest[mask] = held[0]
        for ls in range(-1, 3):
            for off in held:
                if off == ls:
                    continue
                follow = 1 if any(x != off for x in held) else 0
                r = int(X.play_rank.py_func(off, follow))
                if r < best[mask, ls + 1]:
                    best[mask, ls + 1] = r
    return best, lowest


PLAY_BEST, LOWEST = _play_tables()


@njit(cache=True, inline="always")
def _mask(S, col):
    b = H + col * 3
    return (1 if S[b] > 0 else 0) | (2 if S[b + 1] > 0 else 0) | (4 if S[b + 2] > 0 else 0)


@njit(cache=True, inline="always")
def _greedy_play(S):
    """engine.policy's play decision (rules 1-4) from the tables above; the same action as
    :func:`_greedy_play_ref` at every state (tests/solver/honest/test_honest_kernel.py)."""
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // 3
        s_len = S[SER]
        ls1 = last % 3 + 1
    m0 = _mask(S, 0)
    m1 = _mask(S, 1)
    m2 = _mask(S, 2)
    m3 = _mask(S, 3)
    active_needed = s_col >= 0 and X.door_needed(S[DR + s_col])
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        pb = PLAY_BEST[_mask(S, s_col), ls1]
        if pb < NO_PLAY:
            return A_PLAY + s_col * 3 + (pb & 15)
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == 2):
        top = 0
        best_r = NO_PLAY
        for col in range(COLOURS):
            if X.door_needed(S[DR + col]):
                n = _cnt(S, col)
                if n >= 2 and n >= top:
                    m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
                    pb = PLAY_BEST[m, ls1]
                    if pb < NO_PLAY:
                        r = pb + col * 3
                        if n > top or r < best_r:
                            top = n
                            best_r = r
        if top > 0:
            return A_PLAY + (best_r & 15)
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best_r = NO_PLAY
    for col in range(COLOURS):
        m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
        if m != 0:
            off = LOWEST[m]
            nd = 1 if X.door_needed(S[DR + col]) else 0
            ins = 1 if (col == s_col and s_len != 0 and nd == 1) else 0
            r = X.discard_rank(col * 3 + off, nd, ins, _cnt(S, col))
            if r < best_r:
                best_r = r
    return A_DISCARD + (best_r & 15)


@njit(cache=True)
def _greedy_prophecy(S):
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
    else:
        s_col = last // 3
        s_len = S[SER]
    k = X.prophecy_count(S[NTOP] + S[UTOT])
    victim = -1
    for j in range(k):
        if S[TOP + j] == NIGHT:
            victim = NIGHT
    if victim < 0:
        best_r = 1 << 40
        for j in range(k):
            c = S[TOP + j]
            if c < 12:
                r = _discard_rank(S, s_col, s_len, c, 1)
                if r < best_r:
                    best_r = r
                    victim = c
    if victim < 0:                            # only Doors revealed
        best_r = 1 << 40
        for j in range(k):
            r = _prophecy_value(S, s_col, s_len, S[TOP + j])
            if r < best_r:
                best_r = r
                victim = S[TOP + j]
    # the rest, best first; a stable sort (ties keep the revealed order), as Python's
    rest0 = 0
    rest1 = 0
    rest2 = 0
    rest3 = 0
    v0 = 0
    v1 = 0
    v2 = 0
    v3 = 0
    m = 0
    removed = False
    for j in range(k):
        c = S[TOP + j]
        if not removed and c == victim:
            removed = True
            continue
        v = _prophecy_value(S, s_col, s_len, c)
        # insert (c, v) after every entry of value >= v
        if m >= 1 and v0 < v:
            rest3, rest2, rest1, rest0 = rest2, rest1, rest0, c
            v3, v2, v1, v0 = v2, v1, v0, v
        elif m >= 2 and v1 < v:
            rest3, rest2, rest1 = rest2, rest1, c
            v3, v2, v1 = v2, v1, v
        elif m >= 3 and v2 < v:
            rest3, rest2 = rest2, c
            v3, v2 = v2, v
        else:
            if m == 0:
                rest0 = c
                v0 = v
            elif m == 1:
                rest1 = c
                v1 = v
            elif m == 2:
                rest2 = c
                v2 = v
            else:
                rest3 = c
                v3 = v
        m += 1
    # the smallest action number with that outcome (the one the legal list keeps)
    for i in range(k):
        if S[TOP + i] != victim:
            continue
        for p in range(X.NPERM[m]):
            same = True
            for q in range(m):
                j = X.kept_index(m, p, q, i)
                if q == 0:
                    want = rest0
                elif q == 1:
                    want = rest1
                elif q == 2:
                    want = rest2
                else:
                    want = rest3
                if S[TOP + j] != want:
                    same = False
                    break
            if same:
                return X.prophecy_action(i, p)
    return -1                                 # unreachable for a legal state


@njit(cache=True, inline="always")
def _greedy_nightmare(S):
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
    else:
        s_col = last // 3
        s_len = S[SER]
    best = -1
    best_r = 1 << 40
    for col in range(COLOURS):
        c = B.key_of(col)
        if S[H + c] > 0:
            r = _discard_rank(S, s_col, s_len, c, 0)
            if r < best_r:
                best_r = r
                best = col
    if best >= 0:
        return A_NM_KEY + best
    size = S[NTOP] + S[UTOT]
    if size >= 10:
        return A_NM_REVEAL
    any_needed = False
    for c in range(12):
        if S[H + c] > 0 and X.door_needed(S[DR + c // 3]):
            any_needed = True
    if not any_needed:
        return A_NM_REDRAW
    if size >= 6:
        for col in range(COLOURS):
            if S[DR + col] > 0:
                return A_NM_DOOR + col
    return A_NM_REVEAL


@njit(cache=True, inline="always")
def greedy(S):
    """engine.policy.greedy_action (solo) at the decision state ``S``."""
    ph = S[PH]
    if ph == P_PLAY:
        return _greedy_play(S)
    if ph == P_PROPHECY:
        return _greedy_prophecy(S)
    if ph == P_DOOR:
        return A_DOOR_KEY
    if ph == P_NIGHTMARE:
        return _greedy_nightmare(S)
    return -1


@njit(cache=True, inline="always")
def greedy_plus(S):
    """solver.honest.rollout.greedy_plus_action: greedy with two changes.

    1. Nightmare: where greedy would reveal the top 5, discard the hand instead.
    2. Play: where greedy would discard a non-Key card that may be played (its symbol differs
       from the last card's) while the row has no open series of a needed colour, play it."""
    return _plus_of(S, greedy(S))


@njit(cache=True, inline="always")
def _plus_of(S, a):
    """greedy-plus's action from greedy's action ``a`` at ``S`` (its two changes)."""
    ph = S[PH]
    if ph == P_NIGHTMARE:
        if a == A_NM_REVEAL:
            return A_NM_REDRAW
        return a
    if ph == P_PLAY and a >= A_DISCARD:
        c = a - A_DISCARD
        last = S[LAST]
        if not B.is_key(c) and B.playable(last, c):
            if not (S[SER] != 0 and X.door_needed(S[DR + last // 3])):
                return A_PLAY + c
    return a


# ----------------------------------------------------------------------------- keep-doors
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
    """greedy-keep-doors (engine.policy.keep_doors_action) at the decision state ``S``:
    greedy-plus, but where greedy-plus would discard in the play phase, a Key that can open
    no more Door (:func:`dead_key`) is discarded instead (docs/POLICIES.md, "Stronger honest
    play")."""
    return _keep_of(S, greedy_plus(S))


@njit(cache=True, inline="always")
def _keep_of(S, a):
    """greedy-keep-doors's action from greedy-plus's action ``a`` at ``S``."""
    if S[PH] == P_PLAY and a >= A_DISCARD:
        for col in range(COLOURS):
            k = B.key_of(col)
            if S[H + k] > 0 and dead_key(S, col):
                return A_DISCARD + k
    return a


# The base policies of the playouts, by number (the kernels' ``base`` argument).
GREEDY, GREEDY_PLUS, KEEP_DOORS = 0, 1, 2
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS, "greedy-keep-doors": KEEP_DOORS}


@njit(cache=True, inline="always")
def base_action(S, base):
    """The base policy ``base`` (GREEDY, GREEDY_PLUS or KEEP_DOORS) at ``S``: greedy's action,
    then greedy-plus's changes, then keep-doors' change, so that greedy is inlined once here
    (inlining greedy, greedy_plus and keep_doors each put three copies of greedy into every
    kernel that inlines this)."""
    a = greedy(S)
    if base == GREEDY_PLUS or base == KEEP_DOORS:
        a = _plus_of(S, a)
        if base == KEEP_DOORS:
            a = _keep_of(S, a)
    return a


def greedy_at(S) -> int:
    return int(greedy(S))


@njit(cache=True)
def _base_at(S, base):
    """``base_action`` behind a call.  ``base_action`` is inlined where it runs once per
    playout step (``playouts.playout``); the sites that run once per decision (the rollout
    and sequential-halving decisions, the kernel's game loops) call this instead.  Inlining
    it there too put three copies of the greedy variants into each of those kernels and cost
    about a minute of compile per site (``python -m benchmarks.bench_compile honest``: the
    honest family fell from 508 s of compile CPU to 131 s, with ``base_action``'s single
    greedy); the runtime cost is one call per decision."""
    return base_action(S, base)


def base_at(S, base: str) -> int:
    """The base policy's action at the decision state ``S``."""
    return int(_base_at(S, np.int64(BASES[base])))
