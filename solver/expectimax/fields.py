"""Expectimax kernel (1/6), field access: the four packed ``int64`` words of a position.

The expectimax kernel is split along its seams: ``control`` (settings and
counters), ``fields`` (this file), ``rules`` (rule steps), ``bound``
(the can-still-win bound), ``table`` (the memo table and its atomics),
``chance`` (chance outcomes) and ``search`` (the search); each imports only
the ones before it.  ``solver.expectimax.kernel`` re-exports them all.

A solo position is packed into four ``int64`` words (63 bits used in each, so that every shift
and mask is plain signed arithmetic).  Card types are those of :mod:`engine.cards`.

``w0``  bits 4t..4t+3          unknown-deck count of type t, for t = 0..14
``w1``  bits 0..7              unknown-deck counts of types 15 (DL) and 16 (N), 4 bits each
        bits 8+3c..10+3c       hand count of Location type c (0..11), 3 bits each
        bits 44..47            last card of the labyrinth row (15 = empty row)
        bits 48..49            open series: 1 or 2, 0 if none (empty row, or complete)
        bits 50+2k..51+2k      Doors of colour k in play (0..2)
        bits 58..60            phase (see below)
        bits 61..62            colour of the drawn Door (phase ``door`` only, else 0)
``w2``  bits 2k..2k+1          Doors of colour k in limbo
        bits 8..11             Nightmares in limbo
        bits 12..14            ``left``: cards still to reveal (phase ``reveal``)
        bits 15..19            L, the number of known cards on top of the deck (0..20)
        bits 20+5j..24+5j      known card in slot j, j = 0..7
``w3``  bits 5(j-8)..          known card in slot j, j = 8..19
        bits 60..62            F: the top F known cards are *free* (kept by a prophecy; the
                               player picks their order as they are drawn), sorted by type

The known prefix is a stack: slot L-1 is the top card of the deck, slot 0 the deepest known
card; every unknown card lies below slot 0.  Unused slots are 0, so equal positions have equal
words and the memo keys are exact.

What the packing forgets on purpose: the labyrinth row beyond its last card and the length of
its current series (nothing else of the row matters to the rules), the discard pile (it never
comes back; it matters only through the counts of the cards still in the deck), and the order
in which cards reached the limbo (it is shuffled as a whole).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from solver import board

MAX_PREFIX = 20


W0_TYPES = 15    # packing: types 0..14 have their unknown count in w0, 15 and 16 in w1


                         # 1.5 ms late in a game, where looks every 128 nodes cost 3% of
                         # the speed.  Early in a game a node can cost 30 ms: the caller
                         # then sets mask 0 (every node)

@nb.njit(inline="always", cache=True)
def unk_get(w0, w1, t):
    if t < W0_TYPES:
        return (w0 >> (4 * t)) & 15
    return (w1 >> (4 * (t - W0_TYPES))) & 15


@nb.njit(inline="always", cache=True)
def unk_add(w0, w1, t, d):
    if t < W0_TYPES:
        return w0 + d * (np.int64(1) << (4 * t)), w1
    return w0, w1 + d * (np.int64(1) << (4 * (t - W0_TYPES)))


@nb.njit(inline="always", cache=True)
def unk_total(w0, w1):
    # add the 15 nibbles of w0 in parallel (bytes, then a shift-add tree; no overflow:
    # w0 < 2**60 and the total is at most 76)
    x = (w0 & 0x0F0F0F0F0F0F0F0F) + ((w0 >> 4) & 0x0F0F0F0F0F0F0F0F)
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return (x & 255) + (w1 & 15) + ((w1 >> 4) & 15)


# The board fields (hand, row, Doors, phase, drawn Door) are those of the packed board layer
# (solver.board), at these offsets of w1; the names below bind them, the code is the layer's.
HAND_AT = 8
ROW_AT = HAND_AT + board.ROW_FROM_HAND          # 44
DOORS_AT = ROW_AT + board.DOORS_FROM_ROW        # 50


@nb.njit(inline="always", cache=True)
def hand_get(w1, c):
    return board.hand_get(w1, HAND_AT, c)


@nb.njit(inline="always", cache=True)
def hand_size(w1):
    return board.hand_size(w1, HAND_AT)


@nb.njit(inline="always", cache=True)
def hand_add(w1, c, d):
    return board.hand_add(w1, HAND_AT, c, d)


@nb.njit(inline="always", cache=True)
def row_last(w1):
    return board.row_last(w1, ROW_AT)


@nb.njit(inline="always", cache=True)
def row_series(w1):
    return board.row_series(w1, ROW_AT)


@nb.njit(inline="always", cache=True)
def doors_get(w1, k):
    return board.doors_get(w1, DOORS_AT, k)


@nb.njit(inline="always", cache=True)
def doors_total(w1):
    return board.doors_total(w1, DOORS_AT)


@nb.njit(inline="always", cache=True)
def doors_add(w1, k, d):
    return board.doors_add(w1, DOORS_AT, k, d)


@nb.njit(inline="always", cache=True)
def phase_get(w1):
    return board.phase_get(w1, board.PHASE_AT)


@nb.njit(inline="always", cache=True)
def phase_set(w1, ph):
    return board.phase_set(w1, board.PHASE_AT, ph)


@nb.njit(inline="always", cache=True)
def drawn_get(w1):
    return board.drawn_get(w1, board.DRAWN_AT)


@nb.njit(inline="always", cache=True)
def drawn_set(w1, k):
    return board.drawn_set(w1, board.DRAWN_AT, k)


@nb.njit(inline="always", cache=True)
def limbo_door_get(w2, k):
    return (w2 >> (2 * k)) & 3


@nb.njit(inline="always", cache=True)
def limbo_n_get(w2):
    return (w2 >> 8) & 15


@nb.njit(inline="always", cache=True)
def left_get(w2):
    return (w2 >> 12) & 7


@nb.njit(inline="always", cache=True)
def left_set(w2, v):
    return (w2 & ~(np.int64(7) << 12)) | (np.int64(v) << 12)


@nb.njit(inline="always", cache=True)
def plen(w2):
    return (w2 >> 15) & 31


@nb.njit(inline="always", cache=True)
def plen_set(w2, n):
    return (w2 & ~(np.int64(31) << 15)) | (np.int64(n) << 15)


@nb.njit(inline="always", cache=True)
def slot_get(w2, w3, j):
    if j < 8:
        return (w2 >> (20 + 5 * j)) & 31
    return (w3 >> (5 * (j - 8))) & 31


@nb.njit(inline="always", cache=True)
def slot_set(w2, w3, j, v):
    if j < 8:
        s = 20 + 5 * j
        return (w2 & ~(np.int64(31) << s)) | (np.int64(v) << s), w3
    s = 5 * (j - 8)
    return w2, (w3 & ~(np.int64(31) << s)) | (np.int64(v) << s)


@nb.njit(inline="always", cache=True)
def free_get(w3):
    return (w3 >> 60) & 7


@nb.njit(inline="always", cache=True)
def free_set(w3, f):
    return (w3 & ~(np.int64(7) << 60)) | (np.int64(f) << 60)
