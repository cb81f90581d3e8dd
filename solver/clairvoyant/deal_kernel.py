"""Bit-packed numba kernel of solo Onirim in deal mode (see docs/SOLVER.md for the layout).

A state is three int64 words (every field fits in 63 bits, so signed arithmetic never sees the
top bit; only the generator works in uint64).  The deck is not stored card by card: it is

    override (the <= 4 cards a prophecy put back on top, top first)
    ++ perm[p:n]  (the rest of the permutation made by the last shuffle)

where ``perm`` is the permutation of the last shuffle.  Permutations live in a buffer
``perms[slot]`` with ``slot = shuffles - s_root``; slot 0 holds the deck of the root position
(whatever order it had), every later slot is written by the shuffle that creates it.  In a
depth-first search only one child of a node is materialised at a time, so a slot is never
overwritten while a state on the current path still reads it.

What this file keeps: the deck model (the permutation buffer and its cache, the override, the
pop, the shuffle, the prophecy on the deck words), the limbo fields and the solo layout's
accessors.  The turn that carries the rules out on them (``_advance``, ``_end_turn``, ``_act``,
``_apply``, ``_legal``) is in :mod:`solver.clairvoyant.deal_turn`, generated with the
two-player one from one template, ``solver/deal_turn_template.py`` (:mod:`solver.specialise`).
The rules are not written there either: the board's steps are :mod:`solver.board`'s (a play
into the row, a Door into play, the Nightmare's options) and every decision of the turn's
automatic part is a shared step of :mod:`solver.steps` (``draw_next``, ``hand_full``,
``refill_card``, ``door_waits``, ``redraw_card``, ``reveal_card``, ``limbo_back``,
``discard_foresees``, ``foresee_reveals``, ``may_gain_door``, ``prophecy_count``).

Public Python functions validate and convert; the ``_underscore`` functions are
``@njit(cache=True)`` kernels.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import game
from engine.rules import COUNTS as _COUNTS
from engine.rules import DEAL_LOST as PH_LOST
from engine.rules import DEAL_PHASE_NAMES as PHASE_NAMES
from engine.rules import DEAL_WON as PH_WON
from engine.rules import COLOURS, FIRST_DOOR, HAND_SIZE, PH_DOOR, PH_NIGHTMARE, PH_PLAY
from engine.rules import PH_PROPHECY
from engine.rules import NIGHTMARE as NIGHT
from engine.rules import NO_CARD as EMPTY
from engine.rules import NUM_LOCATION_TYPES as NLOC
from engine.rules import NUM_TYPES as NT

from solver import board as board_layer
from solver import steps
# _apply and _legal borrow their arrays on entry, which removes the reference counting of
# every array passed down the inlined helpers (60% of the plain search's time was spent
# there); the duo kernel imports the name from here
from solver.borrow import borrow as _borrow

# ----------------------------------------------------------------------------- constants
# card types, rule sizes and phase numbers: engine.rules (the short names are this module's)
COUNTS = np.array(_COUNTS, dtype=np.int64)

# word 0: the board word of the packed board layer (solver.board), hand at bit 0
HAND_AT = 0         # 12 x 3 bits: count of each Location type in hand (bits 3c..3c+2)
ROW_AT = HAND_AT + board_layer.ROW_FROM_HAND      # 36: the row field
LAST_SHIFT = ROW_AT                     # 4 bits: type of the last card of the row, 15 = empty
SER_SHIFT = ROW_AT + board_layer.SER_FROM_ROW     # 40, 2 bits: open series (1, 2); 0 = none
DOOR_SHIFT = ROW_AT + board_layer.DOORS_FROM_ROW  # 42, 4 x 2 bits: Doors in play per colour
LDOOR_SHIFT = 50    # 4 x 2 bits: Doors in limbo per colour (this kernel's own field)
PHASE_SHIFT = board_layer.PHASE_AT                # 58, 3 bits: phase
DRAWN_SHIFT = board_layer.DRAWN_AT                # 61, 2 bits: colour of the drawn Door (phase door)
# word 1
#   bits 0..3       4 bits: Nightmares in limbo
S_SHIFT = 4         # 8 bits: shuffles done so far (absolute, as the engine counts)
P_SHIFT = 12        # 7 bits: next unread position of perm
OLEN_SHIFT = 19     # 3 bits: number of override cards (0..4)
OV_SHIFT = 22       # 4 x 5 bits: override cards, top first (card i at OV_SHIFT + 5 i)
N_SHIFT = 42        # 7 bits: length of perm
# word 2: M = the multiset the last shuffle permuted (types 0..11: 4 bits, Doors: 2 bits at
# 48 + 2 (t - 12), Nightmares: 4 bits at 56).  Together with the shuffle index it determines
# perm, hence it is part of the key.
NW = 3

M_REFILL, M_REDRAW, M_FORESEE = 0, 1, 2
MAX_SLOTS = 256
PERM_W = 80                 # a slot row: the permutation (bytes 0..79), then
SFX = PERM_W                # block suffix counts: byte SFX + 17 q + t = count of type t in
NBLK = 11                   # perm[8 q : n], for q = 0 .. 10
ROW_W = PERM_W + NBLK * NT
NCACHE = 8192               # permutation cache: rows MAX_SLOTS .. MAX_SLOTS + NCACHE - 1
PERMS_ROWS = MAX_SLOTS + NCACHE
# ``wk`` (int64 scratch passed to every kernel that may shuffle): wk[0:17] card counts,
# wk[WK_PC + 2 i], wk[WK_PC + 2 i + 1] = (M, shuffle index) held by cache row i (-1: empty)
WK_PC = 32
WK_HITS = 20                # wk[20], wk[21]: permutation cache hits, misses (statistics)
WK_LEN = WK_PC + 2 * NCACHE

# engine action numbers (mirrored)
A_PLAY = game.PLAY
A_DISCARD = game.DISCARD
A_PROPHECY = game.PROPHECY
A_DOOR_KEY = game.DOOR_KEY
A_DOOR_LIMBO = game.DOOR_LIMBO
MAX_MOVES = 128             # at most 120 legal actions (a prophecy of 5 distinct cards)
assert MAX_MOVES >= steps.PERM_STRIDE * (steps.KEPT_MAX + 1)
MOVES_BUF = 256             # a move buffer: moves in [0, 128), scratch above
CODES_AT = 128
REV_AT = 250

# the prophecy's orders (the shared table of solver.steps; these names are this module's)
PERMS_TABLE = steps.PERMS
NPERM = steps.NPERM

# ----------------------------------------------------------------------------- generator
# engine.rng's shuffle, with the shared mixer (solver.steps.mix64 / word)


@njit(cache=True)
def _stream_key(seed, index):
    k0 = steps.mix64(seed + steps.GAMMA)
    return steps.mix64(k0 ^ ((np.uint64(index) + np.uint64(1)) * steps.GAMMA))


# r % m for m <= 128 without a 64-bit division: r is cut into 21-bit limbs (Horner), each step
# divides x < 2**28 by m as floor(x * MAGIC[m] / 2**35) with MAGIC[m] = ceil(2**35 / m), exact
# because x * (MAGIC[m] - 2**35 / m) < x < 2**35 / m for every m <= 128.
MAGIC = np.array([0] + [-(-(1 << 35) // m) for m in range(1, 129)], dtype=np.int64)


@njit(cache=True, inline="always")
def _mod_small(r, m):
    mg = MAGIC[m]
    x = np.int64(r >> np.uint64(42))
    x = x - m * ((x * mg) >> 35)
    x = (x << 21) | np.int64((r >> np.uint64(21)) & np.uint64(0x1FFFFF))
    x = x - m * ((x * mg) >> 35)
    x = (x << 21) | np.int64(r & np.uint64(0x1FFFFF))
    return x - m * ((x * mg) >> 35)


@njit(cache=True, inline="always")
def _shuffle_row(counts, seed, index, perms, row):
    """Lay ``counts`` out sorted by type in ``perms[row]``, then Fisher-Yates with stream
    (seed, index); returns n.  (Rows are indexed, never sliced: a slice is an array view, and
    views cost reference counting in numba.)"""
    n = 0
    for t in range(NT):
        for _ in range(counts[t]):
            perms[row, n] = t
            n += 1
    key = _stream_key(seed, index)
    for t in range(n - 1, 0, -1):
        i = n - 1 - t
        r = steps.word(key, i)
        j = _mod_small(r, t + 1)
        x = perms[row, t]
        perms[row, t] = perms[row, j]
        perms[row, j] = x
    return n


@njit(cache=True)
def _shuffle_into(counts, seed, index, out):
    """The same shuffle into a 1-D array (for the Python wrapper and tests)."""
    buf = np.zeros((1, out.shape[0]), dtype=np.uint8)
    n = _shuffle_row(counts, seed, index, buf, 0)
    for i in range(n):
        out[i] = buf[0, i]
    return n


def shuffle_counts(counts, seed: int, index: int) -> list[int]:
    """Kernel mirror of :func:`engine.rng.shuffle_counts`."""
    c = np.asarray(counts, dtype=np.int64)
    if c.shape != (NT,) or (c < 0).any():
        raise ValueError(f"counts must be {NT} non-negative integers")
    out = np.zeros(int(c.sum()) + 1, dtype=np.uint8)
    n = _shuffle_into(c, np.uint64(seed), np.int64(index), out)
    return [int(x) for x in out[:n]]


# ----------------------------------------------------------------------------- field access


@njit(cache=True, inline="always")
def _hand_n(w0, c):
    return board_layer.hand_get(w0, HAND_AT, c)


@njit(cache=True, inline="always")
def _hand_size(w0):
    return board_layer.hand_size(w0, HAND_AT)


@njit(cache=True, inline="always")
def _phase(st):
    return board_layer.phase_get(st[0], PHASE_SHIFT)


@njit(cache=True, inline="always")
def _set_phase(st, ph):
    st[0] = board_layer.phase_set(st[0], PHASE_SHIFT, ph)


@njit(cache=True, inline="always")
def _doors_total(w0):
    return board_layer.doors_total(w0, DOOR_SHIFT)


@njit(cache=True, inline="always")
def _deck_size(st):
    w1 = st[1]
    return ((w1 >> OLEN_SHIFT) & 7) + ((w1 >> N_SHIFT) & 127) - ((w1 >> P_SHIFT) & 127)


@njit(cache=True, inline="always")
def _slot(st, s_root):
    return ((st[1] >> S_SHIFT) & 255) - s_root


@njit(cache=True, inline="always")
def _card_at(st, perms, s_root, i):
    w1 = st[1]
    olen = (w1 >> OLEN_SHIFT) & 7
    if i < olen:
        return (w1 >> (OV_SHIFT + 5 * i)) & 31
    return np.int64(perms[_slot(st, s_root), ((w1 >> P_SHIFT) & 127) + i - olen])


@njit(cache=True, inline="always")
def _pop(st, perms, s_root):
    w1 = st[1]
    olen = (w1 >> OLEN_SHIFT) & 7
    if olen > 0:
        ov = (w1 >> OV_SHIFT) & 0xFFFFF
        c = ov & 31
        ov >>= 5
        w1 = (w1 & ~(np.int64(0xFFFFF) << OV_SHIFT) & ~(np.int64(7) << OLEN_SHIFT)) \
            | (ov << OV_SHIFT) | ((olen - 1) << OLEN_SHIFT)
        st[1] = w1
        return c
    p = (w1 >> P_SHIFT) & 127
    c = np.int64(perms[_slot(st, s_root), p])
    st[1] = (w1 & ~(np.int64(127) << P_SHIFT)) | ((p + 1) << P_SHIFT)
    return c


@njit(cache=True, inline="always")
def _to_limbo(st, c):
    """A Door or the Nightmare into limbo (this kernel's limbo fields)."""
    if c < NIGHT:
        st[0] += np.int64(1) << (LDOOR_SHIFT + 2 * (c - FIRST_DOOR))
    else:
        st[1] += 1


@njit(cache=True, inline="always")
def _redraw_card(st, c):
    """A card drawn while (re)drawing a whole hand (the setup, the Nightmare's redraw):
    where it goes is :func:`solver.steps.redraw_card`'s (a Location to the hand, the rest
    to limbo)."""
    if steps.redraw_card(c) == steps.GO_HAND:
        st[0] = board_layer.hand_add(st[0], HAND_AT, c, 1)
    else:
        _to_limbo(st, c)


@njit(cache=True, inline="always")
def _fill_sfx(perms, slot, n):
    """Block suffix counts of perms[slot, :n] (see SFX)."""
    for q in range(NBLK - 1, -1, -1):
        b = SFX + q * NT
        if q == NBLK - 1:
            for t in range(NT):
                perms[slot, b + t] = 0
        else:
            for t in range(NT):
                perms[slot, b + t] = perms[slot, b + NT + t]
        lo = 8 * q
        hi = min(n, lo + 8)
        for i in range(lo, hi):
            perms[slot, b + perms[slot, i]] += 1


def new_wk():
    wk = np.zeros(WK_LEN, dtype=np.int64)
    wk[WK_PC:] = -1
    return wk


@njit(cache=True, inline="always")
def _deck_counts(st, perms, s_root, counts):
    w1 = st[1]
    p = (w1 >> P_SHIFT) & 127
    n = (w1 >> N_SHIFT) & 127
    slot = _slot(st, s_root)
    q = (p + 7) >> 3
    b = SFX + q * NT
    for t in range(NT):
        counts[t] = perms[slot, b + t]
    hi = min(n, q * 8)
    for i in range(p, hi):
        counts[perms[slot, i]] += 1
    olen = (w1 >> OLEN_SHIFT) & 7
    for i in range(olen):
        counts[(w1 >> (OV_SHIFT + 5 * i)) & 31] += 1


@njit(cache=True, inline="always")
def _pack_m(counts):
    m = np.int64(0)
    for t in range(NLOC):
        m |= np.int64(counts[t]) << (4 * t)
    for t in range(FIRST_DOOR, NIGHT):
        m |= np.int64(counts[t]) << (48 + 2 * (t - FIRST_DOOR))
    m |= np.int64(counts[NIGHT]) << 56
    return m


@njit(cache=True, inline="always")
def _shuffle(st, perms, s_root, seed, counts):
    """Shuffle the multiset ``counts`` as the next shuffle of the game: it becomes the deck."""
    w1 = st[1]
    s = (w1 >> S_SHIFT) & 255
    slot = s + 1 - s_root
    m = _pack_m(counts)
    h = np.int64((np.uint64(m) * steps.GAMMA + np.uint64(s) *
                  np.uint64(0xC2B2AE3D27D4EB4F)) >> np.uint64(40)) & (NCACHE - 1)
    line = MAX_SLOTS + h
    n = 0
    for t in range(NT):
        n += counts[t]
    if counts[WK_PC + 2 * h] == m and counts[WK_PC + 2 * h + 1] == s:
        for z in range(ROW_W):
            perms[slot, z] = perms[line, z]
        counts[WK_HITS] += 1
    else:
        counts[WK_HITS + 1] += 1
        _shuffle_row(counts, seed, s, perms, slot)
        _fill_sfx(perms, slot, n)
        for z in range(ROW_W):
            perms[line, z] = perms[slot, z]
        counts[WK_PC + 2 * h] = m
        counts[WK_PC + 2 * h + 1] = s
    # keep limbo nightmares (the caller clears limbo if it was shuffled in)
    w1 = (w1 & np.int64(15)) | ((s + 1) << S_SHIFT) | (np.int64(n) << N_SHIFT)
    st[1] = w1
    st[2] = m


@njit(cache=True, inline="always")
def _gain_door(st, col):
    """Put a Door of colour col in play (the layer's gain_door); True if that wins."""
    w0, won = board_layer.gain_door(st[0], DOOR_SHIFT, col)
    st[0] = w0
    if won:
        _set_phase(st, PH_WON)
    return won


@njit(cache=True, inline="always")
def _prophecy_apply(st, a, perms, s_root):
    """Prophecy action ``a`` on this deck model: the revealed cards leave the deck but for
    the kept ones, which go back on top as the override in the chosen order (the discarded
    one leaves the game).  The two-player kernel shares the deck words and calls this too."""
    i, pi = steps.prophecy_split(a - A_PROPHECY)
    k = steps.prophecy_count(_deck_size(st))
    m = k - 1
    ov = np.int64(0)
    for q in range(m):
        ov |= _card_at(st, perms, s_root, steps.kept_index(m, pi, q, i)) << (5 * q)
    w1 = st[1]
    olen = (w1 >> OLEN_SHIFT) & 7
    p = ((w1 >> P_SHIFT) & 127) + (k - olen)
    w1 = (w1 & ~(np.int64(0xFFFFF) << OV_SHIFT) & ~(np.int64(7) << OLEN_SHIFT)
          & ~(np.int64(127) << P_SHIFT))
    st[1] = w1 | (ov << OV_SHIFT) | (np.int64(m) << OLEN_SHIFT) | (p << P_SHIFT)


@njit(cache=True, inline="always")
def _prophecy_legal(st, perms, s_root, out):
    """The prophecy's legal actions on this deck model (the shared enumeration,
    :func:`solver.steps.prophecy_moves`, on the top cards; scratch in the upper half of
    ``out``: the revealed cards at REV_AT, the codes at CODES_AT)."""
    k = steps.prophecy_count(_deck_size(st))
    for j in range(k):
        out[REV_AT + j] = _card_at(st, perms, s_root, j)
    return steps.prophecy_moves(out, k, CODES_AT, REV_AT)


# ----------------------------------------------------------------------------- Python side


def encode(state, perms=None) -> tuple[np.ndarray, np.ndarray, int, np.uint64]:
    """Encode a solo engine State in deal mode, at a decision or terminal phase.

    Returns (st, perms, s_root, seed).  ``perms``: an existing (PERMS_ROWS, ROW_W) uint8
    buffer to reuse (its row 0 is rewritten; every other row is written by a shuffle before
    it is read, and the permutation cache is emptied by whoever resets its ``wk``)."""
    from engine.errors import OnirimError
    if state.players != 1:
        raise OnirimError("the clairvoyant kernel plays solo games only")
    if state.seed is None or any(state.unknown):
        raise OnirimError("clairvoyant solving needs deal mode: a seed and a fully known deck")
    if state.phase not in PHASE_NAMES:
        raise OnirimError(f"cannot solve from phase {state.phase}")
    if state.shuffles > 160:   # + at most ~90 more in a game: the 8-bit field never wraps
        raise OnirimError("too many shuffles for the kernel")
    st = np.zeros(NW, dtype=np.int64)
    ph = PHASE_NAMES.index(state.phase)
    drawn = state.drawn - FIRST_DOOR if state.phase == "door" else 0
    w0 = board_layer.pack_board(state.hands[0], state.rows[0], state.doors[0], ph, drawn, HAND_AT)
    ln = 0
    for c in state.limbo:
        if c == NIGHT:
            ln += 1
        else:
            w0 += 1 << (LDOOR_SHIFT + 2 * (c - FIRST_DOOR))
    if perms is None:
        perms = np.zeros((PERMS_ROWS, ROW_W), dtype=np.uint8)
    else:
        perms[0, :] = 0
    deck = list(state.deck)
    perms[0, :len(deck)] = deck
    _fill_sfx(perms, 0, len(deck))
    s = state.shuffles
    w1 = ln | s << S_SHIFT | len(deck) << N_SHIFT
    counts = np.zeros(NT, dtype=np.int64)
    for c in deck:
        counts[c] += 1
    st[0] = w0
    st[1] = w1
    st[2] = _pack_m(counts)
    return st, perms, s, np.uint64(state.seed)


def decode(st, perms, s_root) -> dict:
    """The kernel state as plain Python values, in engine terms."""
    w0, w1 = int(st[0]), int(st[1])
    board = board_layer.unpack_board(w0, HAND_AT)
    limbo = []
    for col in range(COLOURS):
        limbo += [FIRST_DOOR + col] * ((w0 >> (LDOOR_SHIFT + 2 * col)) & 3)
    limbo += [NIGHT] * (w1 & 15)
    ph = board["phase"]
    drawn = None
    if ph == PH_DOOR:
        drawn = FIRST_DOOR + board["drawn_colour"]
    elif ph == PH_NIGHTMARE:
        drawn = NIGHT
    deck = [int(_card_at(st, perms, np.int64(s_root), i)) for i in range(int(_deck_size(st)))]
    return {"hand": board["hand"], "last": board["last"], "series": board["series"],
            "doors": board["doors"], "limbo": limbo,
            "deck": deck, "phase": PHASE_NAMES[ph], "drawn": drawn,
            "shuffles": (w1 >> S_SHIFT) & 255}


def engine_view(state) -> dict:
    """The same fields read from an engine State (for differential tests)."""
    row = state.rows[0]
    return {"hand": list(state.hands[0]), "last": row[-1] if row else None,
            "series": game.series_length(row), "doors": list(state.doors[0]),
            "limbo": list(state.limbo), "deck": list(state.deck), "phase": state.phase,
            "drawn": state.drawn if state.phase in ("door", "nightmare") else None,
            "shuffles": state.shuffles}
