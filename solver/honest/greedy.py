"""The base policies of the honest kernel: greedy, greedy-plus, greedy-keep-doors and
learned-base on the information state.

``greedy`` is :func:`engine.policy.greedy_action` (solo) and ``greedy-plus``
:func:`solver.honest.rollout.greedy_plus_action`, both on the array of
:mod:`solver.honest.state`; both are checked against their Python references at every decision
of the differential run (``tests/honest_kit.py``).  Their ranks are greedy's shared ranks
(:mod:`solver.steps`: ``discard_rank``, ``play_rank``, ``prophecy_value``), and the decisions
built on them are written once there (its section of greedy's decisions), shared with the
two-player greedy (:mod:`solver.duo.info_greedy`); this module reads the hand and the Doors
off its array.  The greedy play decision reads per-colour tables (``solver.steps.PLAY_BEST``,
``LOWEST``); the readable rule-by-rule version is kept as ``_greedy_play_ref`` and tested
against it.
``greedy-keep-doors`` (:func:`keep_doors`) is :func:`engine.policy.keep_doors_action`,
checked against it at every decision of real games (tests/solver/honest/test_strong.py).
``learned-base`` (:mod:`solver.honest.learned`) is greedy-keep-doors with its play-phase
decision replaced by a learned linear scorer.
``base_action(S, base)`` plays any of the four by number (``BASES``): the playouts of
:mod:`solver.honest.playouts` take it as an argument.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, FIRST_DOOR, NO_CARD

# absolute, not relative (see solver.honest.state)
from solver import board
from solver import steps
from solver.honest.learned import learned_play
from solver.honest.learned2 import learned2
from solver.honest.state import (A_DISCARD, A_DOOR_KEY, A_NM_DOOR, A_NM_KEY, A_NM_REDRAW,
                                 A_NM_REVEAL, A_PLAY, DR, DRAWN, H, L, LAST, NTOP,
                                 P_DOOR, P_NIGHTMARE, P_PLAY, P_PROPHECY, PH, SER, TOP, U,
                                 UTOT)


# ----------------------------------------------------------------------------- greedy
@njit(cache=True, inline="always")
def _cnt(S, col):
    return S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]


# greedy's ranks are the shared ones (solver.steps); these adapters read them off the array
@njit(cache=True, inline="always")
def _play_rank(S, c):
    """engine.policy._play_choice's key: a follow-up in hand, non-Key, Moon > Sun > Key."""
    col = c // 3
    follow = 0
    for x in range(col * 3, col * 3 + 3):
        if x % 3 != c % 3 and S[H + x] > 0:
            follow = 1
    return steps.play_rank(c, follow)


@njit(cache=True, inline="always")
def _series(S):
    """(colour, open series) of the row: (-1, 0) for an empty row."""
    last = S[LAST]
    if last == NO_CARD:
        return -1, 0
    return last // 3, S[SER]


@njit(cache=True, inline="always")
def _prophecy_hand(S):
    """The hand as solver.steps' prophecy reads it: per colour its Doors in play, its
    Key in hand, its cards in hand."""
    return ((S[DR], S[DR + 1], S[DR + 2], S[DR + 3]),
            (S[H + board.key_of(0)] > 0, S[H + board.key_of(1)] > 0, S[H + board.key_of(2)] > 0,
             S[H + board.key_of(3)] > 0),
            (_cnt(S, 0), _cnt(S, 1), _cnt(S, 2), _cnt(S, 3)))


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
    need = (steps.door_needed(S[DR]), steps.door_needed(S[DR + 1]), steps.door_needed(S[DR + 2]),
            steps.door_needed(S[DR + 3]))
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
            r = steps.discard_rank_in(c, col, 1 if need[col] else 0, s_col, s_len, cnt[col])
            if r < best_r:
                best_r = r
                best = c
    return A_DISCARD + best


# Greedy play from the per-colour tables of solver.steps (PLAY_BEST, LOWEST), shared
# with the two-player greedy; only where the hand and the Doors are (one hand) is this kernel's.
@njit(cache=True, inline="always")
def _greedy_play(S):
    """engine.policy's play decision (rules 1-4) from the tables
    (:func:`solver.steps.play_choice`); the same action as :func:`_greedy_play_ref` at
    every state (tests/solver/honest/test_honest_kernel.py)."""
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // 3
        s_len = S[SER]
        ls1 = last % 3 + 1
    play, c = steps.play_choice(S, H, H, False, DR, False, s_col, s_len, ls1)
    return (A_PLAY if play else A_DISCARD) + c


@njit(cache=True)
def _greedy_prophecy(S):
    """engine.policy._greedy_prophecy (solver.steps.greedy_prophecy, shared with the
    two-player greedy) on this kernel's hand."""
    s_col, s_len = _series(S)
    doors, keys, cnts = _prophecy_hand(S)
    return steps.greedy_prophecy(S, TOP, steps.prophecy_count(S[NTOP] + S[UTOT]), doors, keys, cnts,
                             s_col, s_len)


@njit(cache=True, inline="always")
def _greedy_nightmare(S):
    """engine.policy._greedy_nightmare (solver.steps, shared with the two-player greedy)
    on this kernel's hand and Doors."""
    s_col, s_len = _series(S)
    col = steps.nightmare_key(S, H, H, False, DR, False, s_col, s_len)
    if col >= 0:
        return A_NM_KEY + col
    return steps.nightmare_fallback(S, H, H, False, DR, False, S[NTOP] + S[UTOT], A_NM_REVEAL,
                                A_NM_REDRAW, A_NM_DOOR)


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
        # an empty row has no open series (S[SER] = 0): last // 3 is not read then
        if steps.plus_plays(last, c, S[SER] != 0 and steps.door_needed(S[DR + last // 3])):
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
    return (not steps.door_needed(S[DR + col])) or doors_left(S, col) == 0


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
            k = board.key_of(col)
            if S[H + k] > 0 and dead_key(S, col):
                return A_DISCARD + k
    return a


# The base policies of the playouts, by number (the kernels' ``base`` argument).
GREEDY, GREEDY_PLUS, KEEP_DOORS, LEARNED, LEARNED2 = 0, 1, 2, 3, 4
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS, "greedy-keep-doors": KEEP_DOORS,
         "learned-base": LEARNED, "learned-base-2": LEARNED2}


@njit(cache=True, inline="always")
def base_action(S, base):
    """The base policy ``base`` (GREEDY, GREEDY_PLUS, KEEP_DOORS or LEARNED) at ``S``:
    greedy's action, then greedy-plus's changes, then keep-doors' change, then (LEARNED) the
    learned play-phase scorer given keep-doors' action (:mod:`solver.honest.learned`), so
    that greedy is inlined once here (inlining greedy, greedy_plus and keep_doors each put
    three copies of greedy into every kernel that inlines this)."""
    a = greedy(S)
    if base != GREEDY:
        a = _plus_of(S, a)
        if base != GREEDY_PLUS:
            a = _keep_of(S, a)
            if base == LEARNED and S[PH] == P_PLAY:
                a = learned_play(S, a)
            elif base == LEARNED2:
                a = learned2(S, a)
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
