"""numba kernels of the honest-information expectimax (see docs/EXPECTIMAX.md).

A solo position is packed into four ``int64`` words (63 bits used in each, so that every shift
and mask is plain signed arithmetic).  Card types are those of :mod:`engine.cards`.

``w0``  bits 4t..4t+3          unknown-deck count of type t, for t = 0..14
``w1``  bits 0..7              unknown-deck counts of types 15 (DL) and 16 (N), 4 bits each
        bits 8+3c..10+3c       hand count of Location type c (0..11), 3 bits each
        bits 44..47            last card of the labyrinth row (15 = empty row)
        bits 48..49            length 0..3 of the series that card belongs to
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

The search returns an interval ``(lo, hi)`` that always contains the exact win probability,
for any window and any budget; the window (alpha, beta) only decides how much work is spent.
"""
from __future__ import annotations

import mmap
import threading
import time

import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from llvmlite import ir as llvm_ir

# card types, rule sizes and phase numbers: engine.rules (imported as module-level names, which
# numba compiles as constants)
from engine.rules import DOORS_TO_WIN, FIRST_DOOR, HAND_SIZE, NO_CARD
from engine.rules import NUM_LOCATION_TYPES, NUM_TYPES, PROPHECY_SIZE
from engine.rules import PH_DOOR as DOOR
from engine.rules import PH_FORESEE as FORESEE
from engine.rules import PH_LOST as LOST
from engine.rules import NIGHTMARE as NM_CARD  # NIGHTMARE: the phase
from engine.rules import PH_NIGHTMARE as NIGHTMARE
from engine.rules import PH_PICK as PICK  # status only: a refill from free known cards
from engine.rules import PH_PLAY as PLAY
from engine.rules import PH_PROPHECY as PROPHECY
from engine.rules import PH_REDRAW as REDRAW
from engine.rules import PH_REFILL as REFILL
from engine.rules import PH_REVEAL as REVEAL
from engine.rules import PH_WON as WON

MAX_PREFIX = 20
W0_TYPES = 15    # packing: types 0..14 have their unknown count in w0, 15 and 16 in w1

# stats array slots
ST_NODES, ST_LIMIT, ST_HITS, ST_STORED, ST_FULL, ST_PRUNE, ST_BOUND = 0, 1, 2, 3, 4, 5, 6
ST_PEEK = 7
ST_SIZE = 24
ST_PHASE = 8     # stats[8 + phase]: nodes expanded per phase (phase 0..10, slots 8..18)
ST_DEADLINE = 20     # perf_counter() deadline in microseconds (0: none), checked in search
ST_TIMEOUT = 21      # set to 1 when the deadline stopped a search
ST_REVERSE = 19      # 1: visit children and outcomes in reverse order (a helper thread)
ST_PROBE = 22        # 1: probe (one child per decision, chosen by child_score; section 4a)
ST_CLOCK_MASK = 23    # under a deadline, look at the clock when (nodes & mask) == 0
CLOCK_EVERY = 1 << 9     # the usual nodes between two looks (mask CLOCK_EVERY - 1): about
                         # 1.5 ms late in a game, where looks every 128 nodes cost 3% of
                         # the speed.  Early in a game a node can cost 30 ms: the caller
                         # then sets mask 0 (every node)

# ------------------------------------------------------------------------- field access
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


@nb.njit(inline="always", cache=True)
def hand_get(w1, c):
    return (w1 >> (8 + 3 * c)) & 7


@nb.njit(inline="always", cache=True)
def hand_size(w1):
    # 12 fields of 3 bits: pairs into 6-bit fields, then two interleaved sums of three
    x = (w1 >> 8) & 0xFFFFFFFFF
    y = (x & 0o070707070707) + ((x >> 3) & 0o070707070707)
    t = y + (y >> 12) + (y >> 24)
    return (t & 63) + ((t >> 6) & 63)


@nb.njit(inline="always", cache=True)
def hand_add(w1, c, d):
    return w1 + d * (np.int64(1) << (8 + 3 * c))


@nb.njit(inline="always", cache=True)
def row_last(w1):
    return (w1 >> 44) & 15


@nb.njit(inline="always", cache=True)
def row_series(w1):
    return (w1 >> 48) & 3


@nb.njit(inline="always", cache=True)
def set_row(w1, last, series):
    w1 &= ~(np.int64(63) << 44)
    return w1 | (last << 44) | (series << 48)


@nb.njit(inline="always", cache=True)
def doors_get(w1, k):
    return (w1 >> (50 + 2 * k)) & 3


@nb.njit(inline="always", cache=True)
def doors_total(w1):
    return (((w1 >> 50) & 3) + ((w1 >> 52) & 3) + ((w1 >> 54) & 3) + ((w1 >> 56) & 3))


@nb.njit(inline="always", cache=True)
def doors_add(w1, k, d):
    return w1 + d * (np.int64(1) << (50 + 2 * k))


@nb.njit(inline="always", cache=True)
def phase_get(w1):
    return (w1 >> 58) & 7


@nb.njit(inline="always", cache=True)
def phase_set(w1, ph):
    return (w1 & ~(np.int64(7) << 58)) | (np.int64(ph) << 58)


@nb.njit(inline="always", cache=True)
def drawn_get(w1):
    return (w1 >> 61) & 3


@nb.njit(inline="always", cache=True)
def drawn_set(w1, k):
    return (w1 & ~(np.int64(3) << 61)) | (np.int64(k) << 61)


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


# ------------------------------------------------------------------------- rule steps
@nb.njit(cache=True)
def pop_top(w2, w3):
    """Remove the top known card; returns (card, w2, w3)."""
    n = plen(w2)
    c = slot_get(w2, w3, n - 1)
    w2, w3 = slot_set(w2, w3, n - 1, 0)
    f = free_get(w3)
    if f > 0:
        w3 = free_set(w3, f - 1)
    return c, plen_set(w2, n - 1), w3


@nb.njit(cache=True)
def remove_slot(w2, w3, j):
    """Take the known card in slot j out of the deck (the cards above move down one slot;
    a free card taken out leaves one free card fewer)."""
    n = plen(w2)
    for i in range(j, n - 1):
        w2, w3 = slot_set(w2, w3, i, slot_get(w2, w3, i + 1))
    w2, w3 = slot_set(w2, w3, n - 1, 0)
    f = free_get(w3)
    if j >= n - f:
        w3 = free_set(w3, f - 1)
    return plen_set(w2, n - 1), w3


@nb.njit(cache=True)
def push_bottom(w2, w3, c):
    """A card revealed from the unknown part joins the known prefix below the known cards."""
    n = plen(w2)
    for j in range(n, 0, -1):
        w2, w3 = slot_set(w2, w3, j, slot_get(w2, w3, j - 1))
    w2, w3 = slot_set(w2, w3, 0, c)
    return plen_set(w2, n + 1), w3


@nb.njit(cache=True)
def shuffle_all(w0, w1, w2, w3, with_limbo):
    """Chance-mode shuffle: every deck card (and the limbo) becomes unknown."""
    n = plen(w2)
    for j in range(n):
        w0, w1 = unk_add(w0, w1, slot_get(w2, w3, j), 1)
    w2 = w2 & 0x7FFF          # keep limbo and left, drop the prefix
    w3 = np.int64(0)
    if with_limbo:
        for k in range(4):
            w0, w1 = unk_add(w0, w1, FIRST_DOOR + k, limbo_door_get(w2, k))
        w0, w1 = unk_add(w0, w1, NM_CARD, limbo_n_get(w2))
        w2 = w2 & ~np.int64(0xFFF)
    return w0, w1, w2, w3


@nb.njit(cache=True)
def to_limbo(w2, c):
    if c == NM_CARD:
        return w2 + (np.int64(1) << 8)
    return w2 + (np.int64(1) << (2 * (c - FIRST_DOOR)))


@nb.njit(cache=True)
def refill_with(w1, w2, c):
    """A card drawn while refilling the hand."""
    if c < NUM_LOCATION_TYPES:
        return hand_add(w1, c, 1), w2
    if c < NM_CARD:
        k = c - FIRST_DOOR
        if hand_get(w1, 3 * k + 2) > 0:
            return drawn_set(phase_set(w1, DOOR), k), w2
        return w1, to_limbo(w2, c)
    return phase_set(w1, NIGHTMARE), w2


@nb.njit(cache=True)
def redrawn(w1, w2, c):
    """A card drawn during the nightmare redraw (or the setup): Doors and N to limbo."""
    if c < NUM_LOCATION_TYPES:
        return hand_add(w1, c, 1), w2
    return w1, to_limbo(w2, c)


@nb.njit(cache=True)
def revealed(w2, c):
    """A card revealed by the nightmare: Locations to the discard pile, the rest to limbo."""
    w2 = left_set(w2, left_get(w2) - 1)
    if c < NUM_LOCATION_TYPES:
        return w2
    return to_limbo(w2, c)


@nb.njit(cache=True)
def advance(w0, w1, w2, w3):
    """Play every automatic step.  Returns (status, w0..w3): status is the phase of the
    decision or chance node reached, or WON / LOST."""
    while True:
        if doors_total(w1) == DOORS_TO_WIN:
            return WON, w0, w1, w2, w3
        ph = phase_get(w1)
        if ph == REFILL:
            if hand_size(w1) == HAND_SIZE:
                if (w2 & 0xFFF) != 0:
                    w0, w1, w2, w3 = shuffle_all(w0, w1, w2, w3, True)
                return PLAY, w0, phase_set(w1, PLAY), w2, w3
            n = plen(w2)
            if n == 0:
                if unk_total(w0, w1) == 0:
                    return LOST, w0, w1, w2, w3
                return REFILL, w0, w1, w2, w3
            f = free_get(w3)
            if f >= 2 and slot_get(w2, w3, n - 1) != slot_get(w2, w3, n - f) and \
                    (slot_get(w2, w3, n - 1) >= FIRST_DOOR or hand_size(w1) + f > HAND_SIZE):
                # the player picks which of the free cards comes next (deferred order);
                # not when they are all Locations and the hand takes them all (every
                # order ends in the same hand, with no decision on the way)
                return PICK, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w1, w2 = refill_with(w1, w2, c)
            continue
        if ph == REDRAW:
            if hand_size(w1) == HAND_SIZE:
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) == 0:
                if unk_total(w0, w1) == 0:
                    return LOST, w0, w1, w2, w3
                return REDRAW, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w1, w2 = redrawn(w1, w2, c)
            continue
        if ph == REVEAL:
            if left_get(w2) == 0:
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) == 0:
                return REVEAL, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w2 = revealed(w2, c)
            continue
        if ph == FORESEE:
            k = min(PROPHECY_SIZE, plen(w2) + unk_total(w0, w1))
            if k == 0:
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) < k:
                return FORESEE, w0, w1, w2, w3
            return PROPHECY, w0, phase_set(w1, PROPHECY), w2, w3
        return ph, w0, w1, w2, w3


@nb.njit(inline="always", cache=True)
def unk_doors(w0, w1):
    """Doors in the unknown part of the deck (types 12..14 in w0, 15 in w1)."""
    return ((w0 >> 48) & 15) + ((w0 >> 52) & 15) + ((w0 >> 56) & 15) + (w1 & 15)


@nb.njit(inline="always", cache=True)
def doors_outside_prefix(w0, w1, w2):
    """Doors in play, in limbo, drawn (phase door) and in the unknown part of the deck:
    every Door not in the discard pile except those in the known prefix."""
    n = doors_total(w1) + (w2 & 3) + ((w2 >> 2) & 3) + ((w2 >> 4) & 3) + ((w2 >> 6) & 3)
    n += unk_doors(w0, w1)
    if phase_get(w1) == DOOR:
        n += 1
    return n


@nb.njit(cache=True)
def doors_reachable(w0, w1, w2, w3):
    """True unless a Door is in the discard pile (then the game cannot be won: a win needs
    all 8 Doors in play, and the discard pile never comes back)."""
    n = doors_outside_prefix(w0, w1, w2)
    for j in range(plen(w2)):
        c = slot_get(w2, w3, j)
        if c >= FIRST_DOOR and c < NM_CARD:
            n += 1
    return n == DOORS_TO_WIN


@nb.njit(inline="always", cache=True)
def nightmare_option(w0, w1, w2, act):
    """Option act of a Nightmare: 0..3 discard the Key of colour act, 4..7 put a Door of
    colour act - 4 from play into limbo, 8 reveal the top min(5, deck) cards, 9 discard the
    hand and redraw.  Returns (legal, w1, w2) of the position after it (w0, w3 unchanged)."""
    if act < 4:
        if hand_get(w1, 3 * act + 2) == 0:
            return False, w1, w2
        return True, hand_add(phase_set(w1, REFILL), 3 * act + 2, -1), w2
    if act < 8:
        k = act - 4
        if doors_get(w1, k) == 0:
            return False, w1, w2
        return True, doors_add(phase_set(w1, REFILL), k, -1), to_limbo(w2, FIRST_DOOR + k)
    if act == 8:
        return True, phase_set(w1, REVEAL), left_set(w2, min(PROPHECY_SIZE, plen(w2) + unk_total(w0, w1)))
    return True, phase_set(w1, REDRAW) & ~(np.int64(0xFFFFFFFFF) << 8), w2


@nb.njit(inline="always", cache=True)
def sms_range(n, n_s, n_m):
    """n disjoint series of one colour made of n_s Suns and n_m Moons: each is Sun-Moon-Sun
    or Moon-Sun-Moon (no two neighbours share a symbol), and a of the first kind need n + a
    Suns and 2n - a Moons.  Returns the range (lo, hi) of the feasible a; lo > hi when none
    is (which happens exactly unless n_s >= n, n_m >= n and n_s + n_m >= 3n)."""
    return max(0, 2 * n - n_m), min(n, n_s - n)


@nb.njit(inline="always", cache=True)
def min_junk(xlo, xhi, nblk, p):
    """The fewest plays that must separate nblk new series, x of them Sun-Moon-Sun (x in
    xlo..xhi) and the others Moon-Sun-Moon, when they follow a row card of symbol p (0 Sun,
    1 Moon, 2 none): two series in a row may not meet in the same symbol, so an extra card
    goes between them.  Alternating is best; with p = Sun the sequence also starts after a
    Sun."""
    best = nblk + 1
    for x in range(xlo, xhi + 1):
        y = nblk - x
        if p == 0:
            j = max(0, max(x - y, y - x - 1))
        elif p == 1:
            j = max(0, max(y - x, x - y - 1))
        else:
            j = max(0, abs(x - y) - 1)
        if j < best:
            best = j
    return best


@nb.njit(cache=True)
def can_still_win(w0, w1, w2, w3):
    """A necessary condition for winning (False means the value is exactly 0).  At a
    Nightmare, the condition of at least one of its options (every option leads to a
    position that must be winnable)."""
    if phase_get(w1) != NIGHTMARE:
        return _can_still_win(w0, w1, w2, w3)
    for act in range(10):
        ok, a1, a2 = nightmare_option(w0, w1, w2, act)
        if ok and _can_still_win(w0, a1, a2, w3):
            return True
    return False


@nb.njit(inline="always", cache=True)
def _can_still_win(w0, w1, w2, w3, symbols=True):
    """The condition of can_still_win (docs/EXPECTIMAX.md section 3).  In phase reveal the
    top ``left`` cards are on their way out: the known ones are not counted, and of the
    unknown ones every card beyond the unknown Doors and Nightmares is a Location lost.
    ``symbols=False`` leaves out the plays that separate series (step 6; for the tests)."""
    return slack(w0, w1, w2, w3, symbols) >= 0


@nb.njit(cache=True)
def slack(w0, w1, w2, w3, symbols=True):
    """The plays left beyond the fewest that the can-still-win test counts for the
    missing Doors (section 3), or -1 when the test fails.  The test is slack >= 0; the
    probe's heuristic (static_eval) also reads the number."""
    ph = phase_get(w1)
    n_known = plen(w2)
    # Doors not in the discard pile (step 1): the known ones are added below
    nd = doors_outside_prefix(w0, w1, w2)
    # per colour k, in byte k: Suns, Moons and Keys in the known part of the deck
    suns = np.int64(0)
    moons = np.int64(0)
    keys = np.int64(0)
    lost = 0
    stay = n_known
    if ph == REVEAL:
        # the top ``left`` cards are revealed: the known ones leave the deck, and of the
        # unknown ones every card beyond the unknown Doors and Nightmares is a Location
        left = left_get(w2)
        gone = min(left, n_known)
        stay = n_known - gone
        nonloc = unk_doors(w0, w1) + unk_get(w0, w1, NM_CARD)
        lost = max(0, left - gone - nonloc)
    nloc = 0
    ddeck = np.int64(0)       # per colour k, in byte k: Doors in the deck that stay there
    for j in range(n_known):
        c = slot_get(w2, w3, j)
        if c < NUM_LOCATION_TYPES:
            if j < stay:
                nloc += 1
                sh = 8 * (c // 3)
                r = c % 3
                if r == 0:
                    suns += np.int64(1) << sh
                elif r == 1:
                    moons += np.int64(1) << sh
                else:
                    keys += np.int64(1) << sh
        elif c < NM_CARD:
            nd += 1
            if j < stay:
                ddeck += np.int64(1) << (8 * (c - FIRST_DOOR))
    if nd != DOORS_TO_WIN:
        return -1
    # the unknown Locations: nibbles 0..11 of w0, t = 3 colour + symbol
    x = w0 & np.int64(0xFFFFFFFFFFFF)
    x = (x & np.int64(0x0F0F0F0F0F0F)) + ((x >> 4) & np.int64(0x0F0F0F0F0F0F))
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    nloc += (x & 255) - lost
    for k in range(4):
        sh = 8 * k
        suns += ((w0 >> (12 * k)) & 15) << sh
        moons += ((w0 >> (12 * k + 4)) & 15) << sh
        keys += ((w0 >> (12 * k + 8)) & 15) << sh
    h = hand_size(w1)
    if ph == PLAY:
        plays = 1 + nloc
    elif nloc >= HAND_SIZE - h:
        plays = 1 + nloc - (HAND_SIZE - h)
    else:
        # the hand can never be refilled: the game is lost when the deck runs out, so a win
        # must come before, by Keys opening Doors drawn from the deck (step 7): no play,
        # and every missing Door is in the deck (a Door in limbo returns only at the end
        # of the turn)
        plays = 0
        for k in range(4):
            d = ((ddeck >> (8 * k)) & 255) + unk_get(w0, w1, FIRST_DOOR + k)
            if ph == DOOR and drawn_get(w1) == k:
                d += 1
            if 2 - doors_get(w1, k) > d:
                return -1
    last = row_last(w1)
    ser = row_series(w1)
    # symbol of the row's last card: 0 Sun, 1 Moon, 2 Key or empty row (no constraint)
    sigma = 2 if last == NO_CARD else last % 3
    kc = last // 3 if (last != NO_CARD and ser < 3) else -1
    base = 0                 # plays of the colours other than the current series' one
    xlo = 0                  # Sun-Moon-Sun blocks among their new series: xlo .. xhi
    xhi = 0
    nblk = 0                 # their new series
    cur_need = 0
    cur_s = 0
    cur_m = 0
    for k in range(4):
        missing = 2 - doors_get(w1, k)
        keys_k = hand_get(w1, 3 * k + 2) + ((keys >> (8 * k)) & 255)
        need_k = missing - keys_k
        if need_k <= 0:
            continue
        # at least need_k series of colour k without a Key from hand or deck (see the
        # docs), each Sun-Moon-Sun or Moon-Sun-Moon, from the Suns and Moons of colour k
        # in hand or deck
        n_s = hand_get(w1, 3 * k) + ((suns >> (8 * k)) & 255)
        n_m = hand_get(w1, 3 * k + 1) + ((moons >> (8 * k)) & 255)
        if k == kc:
            cur_need = need_k
            cur_s = n_s
            cur_m = n_m
            continue
        lo, hi = sms_range(need_k, n_s, n_m)
        if lo > hi:
            return -1
        base += 3 * need_k
        xlo += lo
        xhi += hi
        nblk += need_k
    if not symbols:
        xlo = 0
        xhi = nblk
    if cur_need == 0:
        return plays - base - min_junk(xlo, xhi, nblk, sigma if symbols else 2)
    # the colour of the current series: (a) left unfinished, cur_need new series after the
    # row's last card; (b) completed first by 3 - ser Sun / Moon cards ending in symbol e,
    # then cur_need - 1 new series
    best = -1
    for v in range(3):
        if v == 0:
            us, um, e, n, req = 0, 0, sigma, cur_need, 3 * cur_need
        else:
            n = cur_need - 1
            req = 3 * n + 3 - ser
            if ser == 2:
                # one card of a symbol other than the last: a Moon (ends M) or a Sun
                if v == 1:
                    us, um, e = 0, 1, 1
                    if sigma == 1:
                        continue
                else:
                    us, um, e = 1, 0, 0
                    if sigma == 0:
                        continue
            else:
                # two cards, a Sun and a Moon; the first differs from the last card, the
                # second from the first: it ends in the last card's symbol (either after
                # a Key)
                us, um = 1, 1
                e = v - 1
                if sigma != 2 and e != sigma:
                    continue
        ns2 = cur_s - us
        nm2 = cur_m - um
        if ns2 < 0 or nm2 < 0:
            continue
        lo, hi = sms_range(n, ns2, nm2)
        if lo > hi:
            continue
        if not symbols:
            lo = 0
            hi = n
            e = 2
        sl = plays - base - req - min_junk(xlo + lo, xhi + hi, nblk + n, e)
        if sl > best:
            best = sl
    return best


@nb.njit(cache=True)
def sort_top(w2, w3, k):
    """Sort the top k known cards (slots n-k .. n-1) by type: the canonical order of a set of
    revealed cards that the player is about to reorder at will (prophecy)."""
    n = plen(w2)
    for i in range(n - k + 1, n):
        j = i
        while j > n - k and slot_get(w2, w3, j - 1) > slot_get(w2, w3, j):
            a = slot_get(w2, w3, j - 1)
            b = slot_get(w2, w3, j)
            w2, w3 = slot_set(w2, w3, j - 1, b)
            w2, w3 = slot_set(w2, w3, j, a)
            j -= 1
    return w2, w3


# ------------------------------------------------------------------------- memo table
@nb.njit(inline="always", cache=True)
def _hash(w0, w1, w2, w3):
    h = w0 * np.int64(-7046029254386353131) + w1
    h = (h ^ (h >> 31)) * np.int64(-4658895280553007687) + w2
    h = (h ^ (h >> 29)) * np.int64(-7723592293110705685) + w3
    h = (h ^ (h >> 32)) * np.int64(-7046029254386353131)
    return h ^ (h >> 29)


PROBE = 8   # a key lives in one of the PROBE slots after its hash position


# Several threads may share one table (``Expectimax(threads=2)``).  Each row is guarded by
# a sequence lock in word 7: even when the row is stable, odd while a writer owns it.  A
# writer takes the row with a compare-and-swap from even v to v + 1 (if that fails, another
# thread is writing the row, and the store is simply dropped: the memo is only a cache),
# writes the row, and releases it with v + 2.  A reader reads v1 (acquire), the key and the
# interval, then v2 after an acquire fence, and trusts what it read only if v1 == v2 and v1
# is even: no write overlapped the read, so the key and the interval belong together.
# With a single thread every compare-and-swap succeeds and every read is trusted.
def _item_ptr(context, builder, sig, args):
    aryty = sig.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    j = context.cast(builder, args[2], sig.args[2], types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [i, j], wraparound=False)


@intrinsic
def load_acquire(typingctx, arr, i, j):
    """arr[i, j] (int64) read with acquire ordering."""
    sig = types.int64(arr, i, j)

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_item_ptr(context, builder, sig, args), "acquire", 8)
    return sig, codegen


@intrinsic
def store_release(typingctx, arr, i, j, v):
    """arr[i, j] = v (int64) with release ordering."""
    sig = types.void(arr, i, j, v)

    def codegen(context, builder, sig, args):
        val = context.cast(builder, args[3], sig.args[3], types.int64)
        builder.store_atomic(val, _item_ptr(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def compare_swap(typingctx, arr, i, j, old, new):
    """Atomically: if arr[i, j] == old, set it to new and return True; else False."""
    sig = types.boolean(arr, i, j, old, new)

    def codegen(context, builder, sig, args):
        o = context.cast(builder, args[3], sig.args[3], types.int64)
        n = context.cast(builder, args[4], sig.args[4], types.int64)
        res = builder.cmpxchg(_item_ptr(context, builder, sig, args), o, n,
                              "acq_rel", "acquire")
        return builder.extract_value(res, 1)
    return sig, codegen


@intrinsic
def fence_acquire(typingctx):
    """An acquire fence (no earlier read moves after it)."""
    sig = types.void()

    def codegen(context, builder, sig, args):
        builder.fence("acquire")
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def prefetch_row(typingctx, arr, i):
    """Hint the CPU to fetch the cache line of arr[i, 0] (no effect on results)."""
    sig = types.void(arr, i)

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ii = context.cast(builder, args[1], sig.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [ii, zero],
                                       wraparound=False)
        i8p = llvm_ir.IntType(8).as_pointer()
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # llvm.prefetch(address, read, high locality, data cache)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return sig, codegen


if nb.config.DISABLE_JIT:
    # NUMBA_DISABLE_JIT=1 (a coverage run of the kernels as plain Python): intrinsics cannot
    # run uncompiled, so these stand-ins take their place.  The compare-and-swap holds a lock
    # so that it stays atomic between Python threads.  Compiled runs never see them.
    _CAS_LOCK = threading.Lock()

    def load_acquire(arr, i, j):             # noqa: F811
        return arr[i, j]

    def store_release(arr, i, j, v):         # noqa: F811
        arr[i, j] = v

    def compare_swap(arr, i, j, old, new):   # noqa: F811
        with _CAS_LOCK:
            if arr[i, j] != old:
                return False
            arr[i, j] = new
            return True

    def fence_acquire():                     # noqa: F811
        pass

    def prefetch_row(arr, i):                # noqa: F811
        pass


@nb.njit(inline="always", cache=True)
def prefetch_key(keys, w0, w1, w2, w3):
    """Start loading the first memo row of a key that will be probed soon: a parent hints
    all its children's rows before searching the first, so the memory latencies overlap
    (measured: about 20 % of the search time)."""
    prefetch_row(keys, _hash(w0, w1, w2, w3) & (keys.shape[0] - 1))


@nb.njit(cache=True)
def memo_get(keys, vals, w0, w1, w2, w3):
    """(found, lo, hi): the interval stored for the key, or (False, 0, 1)."""
    mask = keys.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    for _ in range(PROBE):
        v1 = load_acquire(keys, i, 7)
        k0 = keys[i, 0]
        if k0 == -1:
            return False, 0.0, 1.0
        if k0 == w0 and keys[i, 1] == w1 and keys[i, 2] == w2 and keys[i, 3] == w3:
            lo = vals[i, 5]
            hi = vals[i, 6]
            fence_acquire()
            if (v1 & 1) == 0 and keys[i, 7] == v1:
                return True, lo, hi
            return False, 0.0, 1.0       # a write overlapped: count it as a miss
        i = (i + 1) & mask
    return False, 0.0, 1.0


@nb.njit(inline="always", cache=True)
def _slot(keys, w0, w1, w2, w3):
    """The row a key is stored in: its own row in its probe window, else the first empty
    one, else the one whose entry cost the least work."""
    mask = keys.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    t = -1
    for _ in range(PROBE):
        k0 = keys[i, 0]
        if k0 == -1 or (k0 == w0 and keys[i, 1] == w1 and keys[i, 2] == w2
                        and keys[i, 3] == w3):
            return i
        if t < 0 or keys[i, 4] < keys[t, 4]:
            t = i
        i = (i + 1) & mask
    return t


@nb.njit(cache=True)
def memo_store(keys, vals, stats, w0, w1, w2, w3, lo, hi, work):
    """Store a sound interval for the key: intersected with the entry already there, else
    in the first empty slot of the key's probe window, else over the entry of the window
    that cost the least work."""
    t = _slot(keys, w0, w1, w2, w3)
    v = load_acquire(keys, t, 7)
    if (v & 1) != 0 or not compare_swap(keys, t, 7, v, v + 1):
        return           # another thread is writing this row
    if keys[t, 0] == w0 and keys[t, 1] == w1 and keys[t, 2] == w2 and keys[t, 3] == w3:
        # both intervals are sound: keep their intersection
        if vals[t, 5] > lo:
            lo = vals[t, 5]
        if vals[t, 6] < hi:
            hi = vals[t, 6]
        work += keys[t, 4]
    elif keys[t, 0] == -1:
        stats[ST_STORED] += 1
    else:
        stats[ST_FULL] += 1      # an entry is replaced
    keys[t, 0] = w0
    keys[t, 1] = w1
    keys[t, 2] = w2
    keys[t, 3] = w3
    keys[t, 4] = work
    vals[t, 5] = lo
    vals[t, 6] = hi
    store_release(keys, t, 7, v + 2)


@nb.njit(cache=True)
def rehash(keys, new_keys):
    """Copy every entry of ``keys`` into the empty table ``new_keys`` (a larger one), rows
    unchanged (key, work, interval; the sequence lock starts even).  A key goes to the first
    empty slot of its probe window in the new table, else over the entry of the window that
    cost the least work, if that cost less than its own (so a smaller table only loses
    work, never a wrong value).  Single-threaded: no search may run meanwhile.  Returns the
    number of entries in the new table."""
    used = 0
    for r in range(keys.shape[0]):
        if keys[r, 0] == -1:
            continue
        # keys are unique in a table, so the slot is empty or a replacement candidate
        t = _slot(new_keys, keys[r, 0], keys[r, 1], keys[r, 2], keys[r, 3])
        if new_keys[t, 0] == -1:
            used += 1
        elif new_keys[t, 4] >= keys[r, 4]:
            continue
        for j in range(7):
            new_keys[t, j] = keys[r, j]
        new_keys[t, 7] = 0
    return used


# ------------------------------------------------------------------------- chance outcomes
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


# ------------------------------------------------------------------------- the search
@nb.njit(cache=True)
def now_us():
    """time.perf_counter() in whole microseconds (the same clock as the Python side)."""
    with nb.objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


@nb.njit(cache=True)
def canonical(w0, w1, w2, w3):
    """advance() and the canonical order of cards about to be reordered at will."""
    status, w0, w1, w2, w3 = advance(w0, w1, w2, w3)
    if status == PROPHECY:
        # the revealed cards are reordered at will: their order is irrelevant, and so is
        # the number of free cards (all of them are among the revealed ones)
        w2, w3 = sort_top(w2, free_set(w3, 0), min(PROPHECY_SIZE, plen(w2) + unk_total(w0, w1)))
    elif status == FORESEE:
        # every known card lies among the cards being revealed (fewer than 5 are known)
        w2, w3 = sort_top(w2, free_set(w3, 0), plen(w2))
    return status, w0, w1, w2, w3


@nb.njit(cache=True)
def static_eval(w0, w1, w2, w3):
    """A heuristic score of a position (higher looks better).  It only chooses the child a
    probe follows, so it never affects soundness (docs/EXPECTIMAX.md section 4a): 1000
    per Door in play, 10 per play of slack in the can-still-win count, 30 per card of the
    row's current series when its colour still misses a Door, and per card in hand 20
    (Key) or 5 (Sun, Moon) of a colour that misses a Door, else 3 or 1."""
    sc = 1000 * doors_total(w1) + 10 * slack(w0, w1, w2, w3)
    last = row_last(w1)
    if last != NO_CARD and doors_get(w1, last // 3) < 2 and row_series(w1) < 3:
        sc += 30 * row_series(w1)
    for c in range(NUM_LOCATION_TYPES):
        h = hand_get(w1, c)
        if h == 0:
            continue
        miss = doors_get(w1, c // 3) < 2
        if c % 3 == 2:
            sc += h * (20 if miss else 3)
        else:
            sc += h * (5 if miss else 1)
    return sc


@nb.njit(inline="always", cache=True)
def outcome_static(cw, i, stats):
    """Row i of a chance node's outcomes brought to its canonical form: (status, words,
    score), the score being 10,000 times the value of a settled outcome, else its
    static_eval."""
    st, a0, a1, a2, a3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    q = quick(st, a0, a1, a2, a3, stats)
    sc = q * 10000.0 if q >= 0.0 else float(static_eval(a0, a1, a2, a3))
    return st, a0, a1, a2, a3, q < 0.0, sc


@nb.njit(cache=True)
def mean_static(status, w0, w1, w2, w3, stats):
    """static_eval, or at a chance node the mean of its outcomes' outcome_static."""
    if status < REFILL or status == PICK:
        return float(static_eval(w0, w1, w2, w3))
    cw, cp = outcomes(status, w0, w1, w2, w3)
    total = 0.0
    for i in range(cp.shape[0]):
        total += cp[i] * outcome_static(cw, i, stats)[6]
    return total


@nb.njit(cache=True)
def child_score(status, w0, w1, w2, w3, stats):
    """The probe's preference for a canonical child: mean_static, except that an outcome
    that draws a Nightmare (and is not settled) counts the best mean_static of its options.
    (Not written as one recursive function: numba's cache mishandled the recursion
    between the two versions that a flag argument made.)"""
    if status < REFILL or status == PICK:
        return mean_static(status, w0, w1, w2, w3, stats)
    cw, cp = outcomes(status, w0, w1, w2, w3)
    sc = 0.0
    for i in range(cp.shape[0]):
        st, a0, a1, a2, a3, open_, v = outcome_static(cw, i, stats)
        if open_ and st == NIGHTMARE:
            v = -1e300
            for act in range(10):
                ok, b1, b2 = nightmare_option(a0, a1, a2, act)
                if ok:
                    s2, c0, c1, c2, c3 = canonical(a0, b1, b2, a3)
                    q2 = quick(s2, c0, c1, c2, c3, stats)
                    v = max(v, q2 * 10000.0 if q2 >= 0.0
                            else mean_static(s2, c0, c1, c2, c3, stats))
        sc += cp[i] * v
    return sc


@nb.njit(cache=True)
def outcomes(ph, w0, w1, w2, w3):
    """The outcomes (positions, probabilities) of a chance node in phase ph."""
    total = unk_total(w0, w1)
    if ph == REVEAL and left_get(w2) > 1:
        return reveal_outcomes(w0, w1, w2, w3, left_get(w2), total, False)
    if ph == FORESEE and min(PROPHECY_SIZE, plen(w2) + total) - plen(w2) > 1:
        return reveal_outcomes(w0, w1, w2, w3, min(PROPHECY_SIZE, plen(w2) + total) - plen(w2),
                               total, True)
    return single_outcomes(w0, w1, w2, w3, ph, total)


@nb.njit(cache=True)
def search(w0, w1, w2, w3, alpha, beta, keys, vals, stats):
    """Sound interval (lo, hi) on the win probability of the position under optimal play.

    alpha/beta: the caller only needs to know whether the value is <= alpha or >= beta; the
    search may stop early once that is settled (Star1 at chance nodes, alpha-beta at decision
    nodes).  Pruning is switched off by stats[ST_PRUNE] == 0."""
    status, w0, w1, w2, w3 = canonical(w0, w1, w2, w3)
    q = quick(status, w0, w1, w2, w3, stats)
    if q >= 0.0:
        return q, q
    return expand(status, w0, w1, w2, w3, alpha, beta, keys, vals, stats)


@nb.njit(inline="always", cache=True)
def quick(status, w0, w1, w2, w3, stats):
    """The value of a canonical position when it costs no search (won, lost, or hopeless by
    the can-still-win test), else -1."""
    if status == WON:
        return 1.0
    if status == LOST:
        return 0.0
    if stats[ST_BOUND] != 0:
        if not can_still_win(w0, w1, w2, w3):
            return 0.0
    elif not doors_reachable(w0, w1, w2, w3):
        return 0.0
    return -1.0


@nb.njit(cache=True)
def settle(cw, m, keys, stats):
    """The first m rows of cw are a node's children.  Brings each to its canonical form in
    place and returns (status, q) per child: q is its value when it costs no search
    (quick), else -1, and then its memo row is prefetched, so the probes of all the
    children that will be searched overlap."""
    cs = np.empty(m, np.int64)
    cq = np.empty(m)
    for i in range(m):
        s_, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3] = canonical(cw[i, 0], cw[i, 1],
                                                               cw[i, 2], cw[i, 3])
        cs[i] = s_
        cq[i] = quick(s_, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], stats)
        if cq[i] < 0.0:
            prefetch_key(keys, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
    return cs, cq


@nb.njit(inline="always", cache=True)
def decision_children(ph, w0, w1, w2, w3, rev, ch):
    """The children of a decision node in phase (status) ph, written to the rows of ch
    (at most 24); returns their number.  One child per distinct action: at play each card
    type played (when legal) and discarded, at a prophecy each distinct discard (the kept
    cards become free), at PICK each distinct free type drawn next (or each multiset the
    hand takes), at a Door open or not, at a Nightmare each legal option.  rev: generate
    them in reverse order (the helper thread of lazy SMP)."""
    nc = 0
    if ph == PLAY:
        last = row_last(w1)
        ser = row_series(w1)
        b1 = phase_set(w1, REFILL)
        for ci in range(NUM_LOCATION_TYPES):
            c = 11 - ci if rev else ci
            if hand_get(w1, c) == 0:
                continue
            h1 = hand_add(b1, c, -1)
            for act in range(2):
                if act == 0:
                    # play c to the row
                    if last != NO_CARD and (last % 3) == (c % 3):
                        continue
                    col = c // 3
                    if last != NO_CARD and last // 3 == col and ser < 3:
                        s = ser + 1
                    else:
                        s = 1
                    a0 = w0
                    a1 = set_row(h1, c, s)
                    a2 = w2
                    a3 = w3
                    if s == 3:
                        got = False
                        n = plen(a2)
                        for j in range(n - 1, -1, -1):
                            if slot_get(a2, a3, j) == FIRST_DOOR + col:
                                a2, a3 = remove_slot(a2, a3, j)
                                got = True
                                break
                        if not got and unk_get(a0, a1, FIRST_DOOR + col) > 0:
                            a0, a1 = unk_add(a0, a1, FIRST_DOOR + col, -1)
                            got = True
                        if got:
                            a1 = doors_add(a1, col, 1)
                            if doors_total(a1) < 8:
                                a0, a1, a2, a3 = shuffle_all(a0, a1, a2, a3, False)
                else:
                    a0 = w0
                    a1 = h1
                    a2 = w2
                    a3 = w3
                    if c % 3 == 2:
                        a1 = phase_set(a1, FORESEE)
                ch[nc, 0] = a0
                ch[nc, 1] = a1
                ch[nc, 2] = a2
                ch[nc, 3] = a3
                nc += 1
    elif ph == PICK and slot_get(w2, w3, plen(w2) - 1) < NUM_LOCATION_TYPES:
        # every free card is a Location and the hand takes r < f of them (advance
        # draws them all when they fit): the first r drawn go to the hand in any order,
        # then the refill stops, so one child per multiset of r free cards
        n = plen(w2)
        f = free_get(w3)
        r = HAND_SIZE - hand_size(w1)
        for mi in range(1 << f):
            mask = ((1 << f) - 1 - mi) if rev else mi
            cnt = 0
            ok = True
            for i in range(f):
                if (mask >> i) & 1:
                    cnt += 1
                    if i > 0 and ((mask >> (i - 1)) & 1) == 0 and \
                            slot_get(w2, w3, n - f + i) == slot_get(w2, w3, n - f + i - 1):
                        ok = False
            if cnt != r or not ok:
                continue
            a1 = w1
            a2 = w2
            a3 = w3
            for i in range(f - 1, -1, -1):
                if (mask >> i) & 1:
                    a1 = hand_add(a1, slot_get(w2, w3, n - f + i), 1)
                    a2, a3 = remove_slot(a2, a3, n - f + i)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = a3
            nc += 1
    elif ph == PROPHECY or ph == PICK:
        # one child per distinct type among the top m known cards (sorted, so equal
        # types are neighbours): at a prophecy the discarded one (the others stay as
        # free cards), at PICK the free card drawn next
        n = plen(w2)
        if ph == PROPHECY:
            m = min(PROPHECY_SIZE, n + unk_total(w0, w1))
            base3 = free_set(w3, 0)
        else:
            m = free_get(w3)
            base3 = w3
        prev = -1
        for jj in range(m):
            j = n - m + jj if rev else n - 1 - jj
            t = slot_get(w2, w3, j)
            if t == prev:
                continue
            prev = t
            a2, a3 = remove_slot(w2, base3, j)
            if ph == PROPHECY:
                a1 = phase_set(w1, REFILL)
                a3 = free_set(a3, m - 1)
            else:
                a1, a2 = refill_with(w1, a2, t)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = a3
            nc += 1
    elif ph == DOOR:
        k = drawn_get(w1)
        b1 = drawn_set(phase_set(w1, REFILL), 0)
        for ai in range(2):
            act = 1 - ai if rev else ai
            if act == 0:
                a1 = doors_add(hand_add(b1, 3 * k + 2, -1), k, 1)
                a2 = w2
            else:
                a1 = b1
                a2 = to_limbo(w2, FIRST_DOOR + k)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = w3
            nc += 1
    else:
        for ai in range(10):
            ok, a1, a2 = nightmare_option(w0, w1, w2, 9 - ai if rev else ai)
            if not ok:
                continue
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = w3
            nc += 1
    return nc


@nb.njit(cache=True)
def expand(status, w0, w1, w2, w3, alpha, beta, keys, vals, stats):
    """search() of a canonical position that quick() did not settle."""
    if stats[ST_PRUNE] == 0:
        alpha = -1.0
        beta = 2.0
    probe = stats[ST_PROBE] != 0
    found, lo0, hi0 = memo_get(keys, vals, w0, w1, w2, w3)
    if found:
        if lo0 == hi0 or hi0 <= alpha or lo0 >= beta or probe:
            stats[ST_HITS] += 1
            return lo0, hi0
    if stats[ST_NODES] >= stats[ST_LIMIT]:
        return lo0, hi0
    stats[ST_NODES] += 1
    stats[ST_PHASE + status] += 1
    if stats[ST_DEADLINE] != 0 and (stats[ST_NODES] & stats[ST_CLOCK_MASK]) == 0:
        if now_us() > stats[ST_DEADLINE]:
            # out of time: every later call returns the bounds it has (sound, see above)
            stats[ST_LIMIT] = stats[ST_NODES]
            stats[ST_TIMEOUT] = 1
    nodes0 = stats[ST_NODES]
    ph = status
    rev = stats[ST_REVERSE] != 0     # visit children and outcomes in reverse order
    lo = 0.0
    hi = 0.0
    if ph >= REFILL and ph != PICK:
        # ---------------------------------------------------------------- chance node
        # Star1 with cheap child bounds: a first pass gives every outcome the bounds that
        # cost no search (won / lost / hopeless / memo), so the unexplored outcomes count
        # [lb, ub] instead of [0, 1] in the window arithmetic.
        cw, cp = outcomes(ph, w0, w1, w2, w3)
        m = cp.shape[0]
        cs, cq = settle(cw, m, keys, stats)
        clb = np.empty(m)
        cub = np.empty(m)
        slo = 0.0
        shi = 0.0
        for i in range(m):
            if cq[i] >= 0.0:
                lb = cq[i]
                ub = cq[i]
            else:
                lb, ub = 0.0, 1.0
                if stats[ST_PEEK] != 0:
                    found, lb, ub = memo_get(keys, vals, cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
            clb[i] = lb
            cub[i] = ub
            slo += cp[i] * lb
            shi += cp[i] * ub
        if not (shi <= alpha or slo >= beta):
            for ii in range(m):
                i = m - 1 - ii if rev else ii
                if clb[i] == cub[i]:
                    continue
                p = cp[i]
                ca = (alpha - (shi - p * cub[i])) / p
                cb = (beta - (slo - p * clb[i])) / p
                clo, chi = expand(cs[i], cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], ca, cb,
                                  keys, vals, stats)
                if clo < clb[i]:
                    clo = clb[i]
                if chi > cub[i]:
                    chi = cub[i]
                slo += p * (clo - clb[i])
                shi += p * (chi - cub[i])
                clb[i] = clo
                cub[i] = chi
                if shi <= alpha or slo >= beta:
                    break
        # recompute in a fixed order: exact children give lo == hi bit for bit
        lo = 0.0
        hi = 0.0
        for i in range(m):
            lo += cp[i] * clb[i]
            hi += cp[i] * cub[i]
    else:
        # ---------------------------------------------------------------- decision node
        # generate the children, hint their memo rows, then search them
        ch = np.empty((24, 4), np.int64)
        nc = decision_children(ph, w0, w1, w2, w3, rev, ch)
        ds, dq = settle(ch, nc, keys, stats)
        for i in range(nc):
            if dq[i] > lo:
                lo = dq[i]
            if dq[i] > hi:
                hi = dq[i]
        # a probe follows one child, the one child_score likes best (section 4a): its
        # lower bound is one for this node; the other open children count [0, 1]
        only = -1
        nopen = 0
        if probe:
            bs = -1e300
            for i in range(nc):
                if dq[i] < 0.0:
                    nopen += 1
                    sc = child_score(ds[i], ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3], stats)
                    if sc > bs:
                        bs = sc
                        only = i
        for i in range(nc):
            if lo >= beta:
                break
            if dq[i] >= 0.0 or (probe and i != only):
                continue
            clo, chi = expand(ds[i], ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3], max(alpha, lo),
                              beta, keys, vals, stats)
            if clo > lo:
                lo = clo
            if chi > hi:
                hi = chi
        if lo >= beta or nopen > 1:
            # children left unexplored (by a cut, or by a probe) count [0, 1]
            hi = 1.0
    # intersect with what was known before
    if lo < lo0:
        lo = lo0
    if hi > hi0:
        hi = hi0
    if hi < lo:   # only float noise can do this
        hi = lo
    memo_store(keys, vals, stats, w0, w1, w2, w3, lo, hi, stats[ST_NODES] - nodes0 + 1)
    return lo, hi


# ------------------------------------------------------------------------- entry points
@nb.njit(cache=True, nogil=True)
def solve_words(w0, w1, w2, w3, alpha, beta, keys, vals, stats):
    return search(w0, w1, w2, w3, alpha, beta, keys, vals, stats)


@nb.njit(cache=True)
def advance_words(w0, w1, w2, w3):
    return advance(w0, w1, w2, w3)


def _table_memory(rows: int) -> np.ndarray:
    """rows x 8 int64, filled with -1.  On Linux the memory is an anonymous private mapping
    advised for transparent huge pages: the memo is probed at random, and 2 MiB pages spare
    most TLB misses (about 10 % of the search time measured on a 2^24-entry table).
    Elsewhere, or if the advice is refused, plain numpy memory."""
    nbytes = rows * 64
    if nbytes >= (1 << 22) and hasattr(mmap, "MADV_HUGEPAGE") and hasattr(mmap, "MAP_PRIVATE"):
        try:
            mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            mm.madvise(mmap.MADV_HUGEPAGE)
            keys = np.frombuffer(mm, dtype=np.int64).reshape(rows, 8)
            keys.fill(-1)
            return keys
        except (OSError, ValueError, AttributeError):
            pass
    return np.full((rows, 8), -1, dtype=np.int64)


def new_tables(bits: int):
    # one 64-byte row per entry (one cache line): key words 0..3, work 4, lo 5, hi 6 (as
    # float64 through the view ``vals`` of the same memory), 7 the row's sequence lock
    keys = _table_memory(1 << bits)
    keys[:, 7] = 0          # the sequence locks start even (free)
    vals = keys.view(np.float64)
    stats = np.zeros(ST_SIZE, dtype=np.int64)
    stats[ST_LIMIT] = np.iinfo(np.int64).max
    stats[ST_PRUNE] = 1
    stats[ST_BOUND] = 1
    stats[ST_PEEK] = 0
    return keys, vals, stats
