"""The packed board layer: the board fields the kernels share, and the rule steps on them.

Every kernel keeps the same board: a hand (a count per Location type), the labyrinth row (its
last card and the length of its open series), the Doors in play (a count per colour), the
phase and the colour of a drawn Door.  They differ in their *deck* model (a shuffled
permutation in :mod:`solver.clairvoyant.deal_kernel`, unknown counts plus a known prefix in the expectimax,
counts plus a list in :mod:`solver.honest.kernel`) and in where the fields sit in their words.
This module writes the fields and the board steps once; each kernel keeps its deck model, its
``encode`` and the offsets of its fields.

**Fields.**  A field is a run of small unsigned counters in an ``int64`` word: counter ``i``
of width ``bits`` at offset ``at`` occupies bits ``at + bits*i .. at + bits*(i+1) - 1``.  The
accessors below take ``at`` (and ``bits``) as arguments; a kernel passes its module-level
constants, which numba freezes at compile time, so once the accessor is inlined the shift is a
literal and costs what a hand-written one does.  The solo packings use one shape::

    hand   12 counters of 3 bits   (HAND_BITS)      at H   (solver.clairvoyant.deal_kernel: 0, expectimax: 8)
    row    last card, 4 bits; open series, 2 bits   at H + 36
    doors  4 counters of 2 bits                     at H + 42
    phase  3 bits at 58, colour of the drawn Door 2 bits at 61

The two-player kernel keeps two rows of that shape (one per player) and narrower hands.

**The series** has one meaning everywhere: ``ser`` = 1 or 2 is the length of the open series
ending in the row's last card, and 0 means no open series (the row is empty, or its last card
completed a series of 3).  A completed series matters no more: the next card of that colour
starts a new one (ruling B2).  :func:`series_step` is the only place that counts it.

**Steps** (the rules of the board, with no deck in them):

* :func:`playable` - which Location may follow the row's last card (no two of one symbol).
* :func:`series_step` / :func:`play_row` - a Location joins the row; the colour whose series it
  completes, if any (the caller then takes that colour's Door from *its* deck model).
* :func:`gain_door` - a Door enters play; whether that wins (every Door in play).
* :func:`nightmare_kind` / :func:`nightmare_board` - the four ways of meeting a Nightmare and
  what each does to the board (a Key from the hand, a Door from play to limbo, the reveal,
  the redraw that empties the hand).
* :func:`key_of` - the Key of a colour.
* :func:`nightmare_option_zone`, :func:`nightmare_option_of`, :func:`nightmare_action_of` -
  the options as the engine's action numbers.

``tests/solver/test_board.py`` checks each step against :mod:`engine.game` on every value of
its arguments, and ``tests/solver/test_conformance.py`` runs every kernel against ``engine/``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.actions import NM_DOOR as A_NM_DOOR
from engine.actions import NM_KEY as A_NM_KEY
from engine.actions import NM_REVEAL as A_NM_REVEAL
from engine.actions import NM_REDRAW as A_NM_REDRAW
from engine.rules import COLOURS, DOORS_TO_WIN, NO_CARD, SERIES_LENGTH, SYMBOLS
from engine.rules import NUM_LOCATION_TYPES as NLOC

# ----------------------------------------------------------------------------- shape
HAND_BITS = 3                        # a solo hand holds at most 5 of a type: 3 bits
ROW_FROM_HAND = NLOC * HAND_BITS     # 36: the row follows the hand
SER_FROM_ROW = 4                     # the series follows the last card (4 bits)
DOORS_FROM_ROW = 6                   # the Doors follow the row (4 + 2 bits)
DOOR_BITS = 2                        # at most 2 Doors of a colour
PHASE_AT = 58                        # 3 bits
DRAWN_AT = 61                        # 2 bits

# the Nightmare's options, in the engine's order (engine.actions NM_KEY .. NM_REDRAW)
OPT_KEY, OPT_DOOR, OPT_REVEAL, OPT_REDRAW = 0, 1, 2, 3
NM_OPTIONS = 2 * COLOURS + 2         # option o: 0..3 a Key, 4..7 a Door, 8 reveal, 9 redraw


# ----------------------------------------------------------------------------- fields
@njit(cache=True, inline="always")
def cnt_get(w, at, bits, i):
    """Counter ``i`` of the field of ``bits``-bit counters at bit ``at`` of ``w``."""
    return (w >> (at + bits * i)) & ((np.int64(1) << bits) - 1)


@njit(cache=True, inline="always")
def cnt_add(w, at, bits, i, d):
    """``w`` with ``d`` added to counter ``i`` (the caller keeps it in range)."""
    return w + d * (np.int64(1) << (at + bits * i))


@njit(cache=True, inline="always")
def cnt_sum(w, at, bits, n):
    """The sum of counters 0 .. n-1."""
    s = np.int64(0)
    for i in range(n):
        s += (w >> (at + bits * i)) & ((np.int64(1) << bits) - 1)
    return s


@njit(cache=True, inline="always")
def cnt_clear(w, at, bits, n):
    """``w`` with counters 0 .. n-1 set to 0."""
    return w & ~(((np.int64(1) << (bits * n)) - 1) << at)


@njit(cache=True, inline="always")
def hand_get(w, h, c):
    return (w >> (h + HAND_BITS * c)) & 7


@njit(cache=True, inline="always")
def hand_add(w, h, c, d):
    return w + d * (np.int64(1) << (h + HAND_BITS * c))


@njit(cache=True, inline="always")
def hand_size(w, h):
    """Cards in a 12 x 3-bit hand: pairs into 6-bit fields, then two interleaved sums of
    three (no loop; exact for any counts 0..7: no partial sum exceeds 42 < 64)."""
    x = (w >> h) & 0xFFFFFFFFF
    y = (x & 0o070707070707) + ((x >> 3) & 0o070707070707)
    t = y + (y >> 12) + (y >> 24)
    return (t & 63) + ((t >> 6) & 63)


@njit(cache=True, inline="always")
def hand_clear(w, h):
    return w & ~(np.int64(0xFFFFFFFFF) << h)


@njit(cache=True, inline="always")
def row_last(w, r):
    """The row's last card (``NO_CARD`` for an empty row); the row's field is at bit r."""
    return (w >> r) & 15


@njit(cache=True, inline="always")
def row_series(w, r):
    return (w >> (r + SER_FROM_ROW)) & 3


@njit(cache=True, inline="always")
def row_set(w, r, last, ser):
    w &= ~(np.int64(63) << r)
    return w | (np.int64(last) << r) | (np.int64(ser) << (r + SER_FROM_ROW))


@njit(cache=True, inline="always")
def doors_get(w, d, k):
    return (w >> (d + DOOR_BITS * k)) & 3


@njit(cache=True, inline="always")
def doors_add(w, d, k, n):
    return w + n * (np.int64(1) << (d + DOOR_BITS * k))


@njit(cache=True, inline="always")
def doors_total(w, d):
    return (((w >> d) & 3) + ((w >> (d + 2)) & 3) + ((w >> (d + 4)) & 3)
            + ((w >> (d + 6)) & 3))


@njit(cache=True, inline="always")
def phase_get(w, p):
    return (w >> p) & 7


@njit(cache=True, inline="always")
def phase_set(w, p, ph):
    return (w & ~(np.int64(7) << p)) | (np.int64(ph) << p)


@njit(cache=True, inline="always")
def drawn_get(w, x):
    return (w >> x) & 3


@njit(cache=True, inline="always")
def drawn_set(w, x, k):
    return (w & ~(np.int64(3) << x)) | (np.int64(k) << x)


# ----------------------------------------------------------------------------- steps
@njit(cache=True, inline="always")
def key_of(col):
    """The Key Location of colour ``col``."""
    return col * SYMBOLS + SYMBOLS - 1


@njit(cache=True, inline="always")
def is_key(c):
    return c % SYMBOLS == SYMBOLS - 1


@njit(cache=True, inline="always")
def playable(last, c):
    """Location c may follow the row's last card ``last`` (``NO_CARD`` or any negative value
    for an empty row): never two cards of one symbol in a row (ruling 1)."""
    return last < 0 or last == NO_CARD or (last % SYMBOLS) != (c % SYMBOLS)


@njit(cache=True, inline="always")
def series_step(last, ser, c):
    """Location c joins a row that ends in ``last`` with open series ``ser``: returns the
    row's new series (1, 2, or 0 when c completes one) and the colour whose series c
    completes (-1 if none).  A card of the open series' colour extends it; any other card,
    or any card after a completed series, starts a new one (ruling 2)."""
    col = c // SYMBOLS
    s = 1
    if ser != 0 and last // SYMBOLS == col:
        s = ser + 1
    if s == SERIES_LENGTH:
        return 0, col
    return s, -1


@njit(cache=True, inline="always")
def play_row(w, r, c):
    """The row field at bit r of ``w`` after Location c joins it: (w, completed colour or
    -1).  The card is not taken out of any hand here."""
    s, done = series_step(row_last(w, r), row_series(w, r), c)
    return row_set(w, r, c, s), done


@njit(cache=True, inline="always")
def gain_door(w, d, col):
    """A Door of colour ``col`` enters play (Doors field at bit d): (w, True if every Door is
    now in play, which wins)."""
    w = doors_add(w, d, col, 1)
    return w, doors_total(w, d) == DOORS_TO_WIN


@njit(cache=True, inline="always")
def nightmare_kind(o):
    """Nightmare option o (0 .. NM_OPTIONS-1): (kind, colour), kind one of OPT_KEY (discard
    the Key of that colour from the hand), OPT_DOOR (a Door of that colour from play to limbo),
    OPT_REVEAL (reveal and discard the top cards), OPT_REDRAW (discard the hand, draw anew)."""
    if o < COLOURS:
        return OPT_KEY, o
    if o < 2 * COLOURS:
        return OPT_DOOR, o - COLOURS
    if o == 2 * COLOURS:
        return OPT_REVEAL, -1
    return OPT_REDRAW, -1


@njit(cache=True, inline="always")
def nightmare_board(w, h, d, o):
    """What Nightmare option o does to a solo board word (hand at bit h, Doors at bit d):
    (legal, w).  A Key needs one in hand, a Door needs one in play (the caller puts it in
    its limbo); the reveal changes no board field (the caller reveals from its deck); the
    redraw empties the hand (the caller discards it, if it keeps a discard pile, first)."""
    kind, col = nightmare_kind(o)
    if kind == OPT_KEY:
        k = key_of(col)
        if hand_get(w, h, k) == 0:
            return False, w
        return True, hand_add(w, h, k, -1)
    if kind == OPT_DOOR:
        if doors_get(w, d, col) == 0:
            return False, w
        return True, doors_add(w, d, col, -1)
    if kind == OPT_REVEAL:
        return True, w
    return True, hand_clear(w, h)


# ----------------------------------------------------------------------------- Python side
def open_series(row) -> int:
    """The open series of an engine row (a list of Location types), as the layer stores it:
    1 or 2, or 0 for an empty row or a completed series."""
    from engine.game import series_length
    n = series_length(row) if row else 0
    return 0 if n == SERIES_LENGTH else n


def pack_board(hand, row, doors, phase: int, drawn_colour: int, h: int) -> int:
    """The board fields of a solo board word with its hand at bit h: ``hand`` (Location
    types), ``row`` (the engine's row), ``doors`` (Door types in play), the phase number and
    the drawn Door's colour (0 unless a Door is drawn)."""
    from engine.rules import FIRST_DOOR
    r = h + ROW_FROM_HAND
    d = r + DOORS_FROM_ROW
    w = 0
    for c in hand:
        w += 1 << (h + HAND_BITS * c)
    w |= (row[-1] if row else NO_CARD) << r
    w |= open_series(row) << (r + SER_FROM_ROW)
    for door in doors:
        w += 1 << (d + DOOR_BITS * (door - FIRST_DOOR))
    return w | phase << PHASE_AT | drawn_colour << DRAWN_AT


def unpack_board(w: int, h: int) -> dict:
    """The board fields of a board word, in engine terms: hand (sorted Location types),
    last (None for an empty row), series (the engine's 1..3, 0 for an empty row), doors
    (Door types), phase (its number) and drawn_colour."""
    from engine.rules import FIRST_DOOR
    w = int(w)
    r = h + ROW_FROM_HAND
    d = r + DOORS_FROM_ROW
    hand = []
    for c in range(NLOC):
        hand += [c] * ((w >> (h + HAND_BITS * c)) & 7)
    last = (w >> r) & 15
    ser = (w >> (r + SER_FROM_ROW)) & 3
    if last == NO_CARD:
        last, ser = None, 0
    elif ser == 0:
        ser = SERIES_LENGTH
    doors = []
    for col in range(COLOURS):
        doors += [FIRST_DOOR + col] * ((w >> (d + DOOR_BITS * col)) & 3)
    return {"hand": hand, "last": last, "series": ser, "doors": doors,
            "phase": (w >> PHASE_AT) & 7, "drawn_colour": (w >> DRAWN_AT) & 3}


# ----------------------------------------------------------------------------- engine actions
# the engine numbers the Nightmare's actions NM_KEY + COLOURS * zone + colour (two zones),
# NM_DOOR + colour, NM_REVEAL, NM_REDRAW: the layer's option order
assert A_NM_DOOR == A_NM_KEY + 2 * COLOURS and A_NM_REVEAL == A_NM_DOOR + COLOURS
assert A_NM_REDRAW == A_NM_REVEAL + 1

@njit(cache=True, inline="always")
def nightmare_option_zone(a):
    """(option, zone) of an engine Nightmare action (``engine.actions``: NM_KEY + 4 * zone +
    colour for a Key from zone 0, the hand, or zone 1, the two-player shared cards; NM_DOOR +
    colour; NM_REVEAL; NM_REDRAW).  Options other than a Key have zone 0."""
    if a < A_NM_DOOR:
        x = a - A_NM_KEY
        return x % COLOURS, x // COLOURS
    if a < A_NM_REVEAL:
        return COLOURS + a - A_NM_DOOR, 0
    if a == A_NM_REVEAL:
        return 2 * COLOURS, 0
    return 2 * COLOURS + 1, 0


@njit(cache=True, inline="always")
def nightmare_option_of(a):
    """The layer's option number of a solo engine Nightmare action."""
    o, _zone = nightmare_option_zone(a)
    return o


@njit(cache=True, inline="always")
def nightmare_action_of(o):
    """The solo engine action of Nightmare option o (the inverse of nightmare_option_of)."""
    if o < COLOURS:
        return A_NM_KEY + o
    if o < 2 * COLOURS:
        return A_NM_DOOR + o - COLOURS
    if o == 2 * COLOURS:
        return A_NM_REVEAL
    return A_NM_REDRAW
