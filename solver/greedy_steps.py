"""Greedy's decision pieces, written once for the greedy of both information-state kernels.

:mod:`solver.steps` holds greedy's ranks (``discard_rank``, ``play_rank``, ``prophecy_value``).
This module holds the decisions built on them that do not depend on how a kernel reads a hand,
so that the solo greedy (:mod:`solver.honest.greedy`) and the two-player greedy
(:mod:`solver.duo.info_greedy`) decide with the same code (issue 26):

* the per-colour **play tables** (``PLAY_BEST``, ``LOWEST``) and the **play decision**
  (:func:`play_choice`, engine.policy's rules 1-4) from a colour's held cards (a 3-bit mask),
  its count in hand and whether the colour still needs a Door;
* the **discard rank with the open series** (:func:`discard_rank_in`);
* the **prophecy**: a card's value (:func:`card_value`), the card greedy discards and the
  order it keeps the others in (:func:`greedy_prophecy`, :func:`prophecy_order`: a stable
  insertion by value, then the smallest action number with that outcome);
* the **Nightmare**: the Key to discard (:func:`nightmare_key`), else the other options
  (:func:`nightmare_fallback`, with greedy's deck-size thresholds);
* greedy-plus's play-phase change (:func:`plus_plays`).

Where the hand and the Doors are is given by arguments (the hand: one zone of counts, or own
and shared cards; a colour "needs" a Door: solo, fewer than ``DOORS_PER_COLOUR`` in play;
two-player, the player holds none, D5), and each kernel keeps how it numbers an action (the
two-player zone: own or shared card), the draft and the exchanges (two players only).
Checked through the kernels: the greedy tests of each against ``engine.policy`` and the digests
of ``benchmarks/before_after.py`` and ``solver.duo.digest``.  Split from :mod:`solver.steps`
only while that file was being edited elsewhere; it belongs beside greedy's ranks there.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, FIRST_DOOR, NIGHTMARE, NUM_LOCATION_TYPES, SYMBOLS
from solver import board as B
from solver import steps as X

NO_RANK = 1 << 40                       # above every rank
NO_PLAY = NO_RANK                       # no card of the colour may be played
CARD_MASK = (1 << X.CARD_BITS) - 1      # a rank's last term: the card
assert X.KEPT_MAX <= 4                  # kept_insert holds the kept cards in four names
NCOL = 4                                # play_choice holds a colour's mask in four names
assert COLOURS == NCOL
# engine.policy._greedy_nightmare's deck-size thresholds (a heuristic, not a rule size)
REVEAL_MIN_DECK = 10
DOOR_MIN_DECK = 6
SERIES_LAST = 2                         # engine.policy's rule 2: a series one card short


# ----------------------------------------------------------------------------- the play tables
# Within one colour the greedy ranks depend only on which of its three cards are held (a 3-bit
# mask: bit 0 Sun, 1 Moon, 2 Key) and the last card's symbol:
# PLAY_BEST[mask, lsym + 1] = (class * 16 + offset) of the colour's playable card with the
# lowest play_rank (class = the rank without the card number; adding colour * 3 gives the
# full rank, whose last term is the card number), or NO_PLAY if no card of it may be played.
# For discards the lowest-ranked card of a colour is always its lowest held offset (Sun < Moon
# < Key: the Key term outweighs the symbol term), LOWEST[mask].
def _play_tables():
    best = np.full((1 << SYMBOLS, SYMBOLS + 1), NO_PLAY, dtype=np.int64)
    lowest = np.full(1 << SYMBOLS, -1, dtype=np.int64)
    for mask in range(1 << SYMBOLS):
        held = [off for off in range(SYMBOLS) if mask >> off & 1]
        if held:
            lowest[mask] = held[0]
        for ls in range(-1, SYMBOLS):
            for off in held:
                if off == ls:
                    continue
                follow = 1 if any(x != off for x in held) else 0
                r = int(X.play_rank.py_func(off, follow))
                if r < best[mask, ls + 1]:
                    best[mask, ls + 1] = r
    return best, lowest


PLAY_BEST, LOWEST = _play_tables()


# ----------------------------------------------------------------------------- ranks in play
@njit(cache=True, inline="always")
def discard_rank_in(c, col, needed, s_col, s_len, cnt_col):
    """engine.policy._discard_rank of Location c of colour ``col``
    (:func:`solver.steps.discard_rank`) with its series term: ``col`` is ``s_col``, that of
    the open series (``s_len`` != 0), and the colour is needed (``needed`` 0/1)."""
    ins = 1 if (col == s_col and s_len != 0 and needed == 1) else 0
    return X.discard_rank(c, needed, ins, cnt_col)


# How a kernel's hand is read, as arguments: the hand is the counts at S[own:] (solo), or those
# plus the shared cards' at S[sh:] (two-player, ``two_zones``); a colour needs a Door when fewer
# than DOORS_PER_COLOUR of it are in play, S[dr + col] (solo), or when the player holds none of
# it, S[dr + col] == 0 (two-player, ``d5``: ruling D5).  The hand is read lazily, as the kernels
# did (reading every colour up front cost the solo playouts about 5%).  play_choice and the
# Nightmare's functions are called, not inlined into every kernel that inlines greedy: inlined,
# they cost about 20 s more compile per family (python -m onirim.precompile --only honest: 87 s
# of CPU against 57 s called); called, the solo greedy playouts run within 2.5% of the code
# they replace and the two-player ones about 5-9% slower (issue 26 report).
@njit(cache=True, inline="always")
def _held(S, own, sh, two_zones, x):
    return S[own + x] + S[sh + x] if two_zones else S[own + x]


@njit(cache=True, inline="always")
def hand_mask(S, own, sh, two_zones, col):
    """Which of colour ``col``'s cards the hand holds: bit 0 Sun, 1 Moon, 2 Key (the index of
    ``PLAY_BEST`` and ``LOWEST``)."""
    b = col * SYMBOLS
    return ((1 if _held(S, own, sh, two_zones, b) > 0 else 0)
            | (2 if _held(S, own, sh, two_zones, b + 1) > 0 else 0)
            | (4 if _held(S, own, sh, two_zones, b + 2) > 0 else 0))


@njit(cache=True, inline="always")
def hand_count(S, own, sh, two_zones, col):
    """The cards of colour ``col`` in the hand."""
    b = col * SYMBOLS
    return (_held(S, own, sh, two_zones, b) + _held(S, own, sh, two_zones, b + 1)
            + _held(S, own, sh, two_zones, b + 2))


@njit(cache=True, inline="always")
def colour_needed(S, dr, d5, col):
    """The colour ``col`` still needs a Door (see above)."""
    return S[dr + col] == 0 if d5 else X.door_needed(S[dr + col])


@njit(cache=True)
def play_choice(S, own, sh, two_zones, dr, d5, s_col, s_len, ls1):
    """engine.policy's play decision (rules 1-4) from the tables: (play, c), play = True to play
    Location c, False to discard it.  The hand and the Doors are read as the arguments say
    (above); ``s_col``, ``s_len``: the open series' colour (-1: an empty row) and length;
    ``ls1``: the last card's symbol + 1 (0: an empty row)."""
    m0 = hand_mask(S, own, sh, two_zones, 0)
    m1 = hand_mask(S, own, sh, two_zones, 1)
    m2 = hand_mask(S, own, sh, two_zones, 2)
    m3 = hand_mask(S, own, sh, two_zones, 3)
    active_needed = s_col >= 0 and colour_needed(S, dr, d5, s_col)
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        m = m0 if s_col == 0 else (m1 if s_col == 1 else (m2 if s_col == 2 else m3))
        pb = PLAY_BEST[m, ls1]
        if pb < NO_PLAY:
            return True, s_col * SYMBOLS + (pb & CARD_MASK)
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == SERIES_LAST):
        top = 0
        best_r = NO_PLAY
        for col in range(NCOL):
            if colour_needed(S, dr, d5, col):
                n = hand_count(S, own, sh, two_zones, col)
                if n >= 2 and n >= top:
                    m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
                    pb = PLAY_BEST[m, ls1]
                    if pb < NO_PLAY:
                        r = pb + col * SYMBOLS
                        if n > top or r < best_r:
                            top = n
                            best_r = r
        if top > 0:
            return True, best_r & CARD_MASK
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best_r = NO_PLAY
    for col in range(NCOL):
        m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
        if m != 0:
            r = discard_rank_in(col * SYMBOLS + LOWEST[m], col,
                                1 if colour_needed(S, dr, d5, col) else 0, s_col, s_len,
                                hand_count(S, own, sh, two_zones, col))
            if r < best_r:
                best_r = r
    return False, best_r & CARD_MASK


# ----------------------------------------------------------------------------- the prophecy
# The prophecy decision reads the hand through three per-colour tuples (four entries each):
# ``doors`` the colour's Doors as greedy's ranks count them (solo: the Doors in play; two-player:
# 0 if the player still needs one, else DOORS_PER_COLOUR), ``keys`` whether its Key is in hand
# and ``cnts`` its cards in hand; ``s_col``/``s_len`` are the open series (-1/0: an empty row).
@njit(cache=True, inline="always")
def card_value(c, doors, keys, cnts, s_col, s_len):
    """engine.policy._prophecy_value of a revealed card c (:func:`solver.steps.prophecy_value`:
    higher = kept nearer the top)."""
    if c == NIGHTMARE:
        return X.prophecy_value(c, 0, False, False, 0)
    if c >= FIRST_DOOR:
        col = c - FIRST_DOOR
        return X.prophecy_value(c, doors[col], keys[col], False, 0)
    col = c // SYMBOLS
    return X.prophecy_value(c, doors[col], False, col == s_col and s_len != 0, cnts[col])


@njit(cache=True, inline="always")
def kept_insert(m, c, v, r0, r1, r2, r3, v0, v1, v2, v3):
    """Insert card ``c`` of value ``v`` into the ``m`` kept cards r0.. (values v0.., best
    first) after every entry of value >= v (a stable sort, as Python's; no array, so that the
    playout loop allocates nothing).  Returns the new (r0, r1, r2, r3, v0, v1, v2, v3)."""
    if m >= 1 and v0 < v:
        return c, r0, r1, r2, v, v0, v1, v2
    if m >= 2 and v1 < v:
        return r0, c, r1, r2, v0, v, v1, v2
    if m >= 3 and v2 < v:
        return r0, r1, c, r2, v0, v1, v, v2
    if m == 0:
        return c, r1, r2, r3, v, v1, v2, v3
    if m == 1:
        return r0, c, r2, r3, v0, v, v2, v3
    if m == 2:
        return r0, r1, c, r3, v0, v1, v, v3
    return r0, r1, r2, c, v0, v1, v2, v


@njit(cache=True)
def prophecy_order(S, top, k, victim, doors, keys, cnts, s_col, s_len):
    """The prophecy action that discards a revealed card of type ``victim`` (the ``k``
    revealed cards at S[top:]) and puts the others back in greedy's order
    (engine.policy._greedy_prophecy: by value, best on top, ties in the revealed order), as
    the smallest action number with that outcome (the one the legal list keeps); -1 if no
    revealed card has that type."""
    r0 = r1 = r2 = r3 = 0
    v0 = v1 = v2 = v3 = 0
    m = 0
    removed = False
    for j in range(k):
        c = S[top + j]
        if not removed and c == victim:
            removed = True
            continue
        r0, r1, r2, r3, v0, v1, v2, v3 = kept_insert(
            m, c, card_value(c, doors, keys, cnts, s_col, s_len), r0, r1, r2, r3, v0, v1, v2,
            v3)
        m += 1
    if not removed:
        return -1
    for i in range(k):
        if S[top + i] != victim:
            continue
        for p in range(X.NPERM[m]):
            same = True
            for q in range(m):
                want = r0 if q == 0 else (r1 if q == 1 else (r2 if q == 2 else r3))
                if S[top + X.kept_index(m, p, q, i)] != want:
                    same = False
                    break
            if same:
                return X.prophecy_action(i, p)
    return -1


@njit(cache=True)
def greedy_prophecy(S, top, k, doors, keys, cnts, s_col, s_len):
    """engine.policy._greedy_prophecy on the ``k`` revealed cards at S[top:]: discard the
    Nightmare if revealed, else the Location of the lowest discard rank (ranked within the
    hand plus that card), else (only Doors) the first of the lowest value; keep the others in
    greedy's order (:func:`prophecy_order`)."""
    victim = -1
    for j in range(k):
        if S[top + j] == NIGHTMARE:
            victim = NIGHTMARE
    if victim < 0:
        best_r = NO_RANK
        for j in range(k):
            c = S[top + j]
            if c < NUM_LOCATION_TYPES:
                col = c // SYMBOLS
                r = discard_rank_in(c, col, 1 if X.door_needed(doors[col]) else 0, s_col,
                                    s_len, cnts[col] + 1)
                if r < best_r:
                    best_r = r
                    victim = c
    if victim < 0:                            # only Doors revealed: the first lowest value
        best_r = NO_RANK
        for j in range(k):
            r = card_value(S[top + j], doors, keys, cnts, s_col, s_len)
            if r < best_r:
                best_r = r
                victim = S[top + j]
    return prophecy_order(S, top, k, victim, doors, keys, cnts, s_col, s_len)


# ----------------------------------------------------------------------------- the Nightmare
@njit(cache=True)
def nightmare_key(S, own, sh, two_zones, dr, d5, s_col, s_len):
    """engine.policy._greedy_nightmare's first choice: the colour of the held Key of the lowest
    discard rank (-1: no Key in hand); the hand and the Doors read as for :func:`play_choice`."""
    best = -1
    best_r = NO_RANK
    for col in range(NCOL):
        k = B.key_of(col)
        if _held(S, own, sh, two_zones, k) > 0:
            r = discard_rank_in(k, col, 1 if colour_needed(S, dr, d5, col) else 0, s_col, s_len,
                                hand_count(S, own, sh, two_zones, col))
            if r < best_r:
                best_r = r
                best = col
    return best


@njit(cache=True)
def nightmare_fallback(S, own, sh, two_zones, dr, d5, size, a_reveal, a_redraw, a_door):
    """engine.policy._greedy_nightmare where no Key is discarded: reveal the top five of a deck
    of ``size`` >= REVEAL_MIN_DECK cards; else discard the hand if it holds no card of a needed
    colour; else, with DOOR_MIN_DECK cards in the deck, give up the Door of the first colour
    that has one (in play, or held); else reveal.  Returns the action (the kernel's numbers
    ``a_*``).  The hand is read only once the deck is small, as the kernels did."""
    if size >= REVEAL_MIN_DECK:
        return a_reveal
    any_needed = False
    for c in range(NUM_LOCATION_TYPES):
        if _held(S, own, sh, two_zones, c) > 0 and colour_needed(S, dr, d5, c // SYMBOLS):
            any_needed = True
    if not any_needed:
        return a_redraw
    if size >= DOOR_MIN_DECK:
        for col in range(NCOL):
            if S[dr + col] > 0:
                return a_door + col
    return a_reveal


# ----------------------------------------------------------------------------- greedy-plus
@njit(cache=True, inline="always")
def plus_plays(last, c, open_needed):
    """greedy-plus's play-phase change: Location c, which greedy discards, is played instead
    if it is not a Key, may follow ``last`` and the row has no open series of a needed colour
    (``open_needed``)."""
    return not B.is_key(c) and B.playable(last, c) and not open_needed
