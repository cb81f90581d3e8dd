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

import numba as nb
import numpy as np

PLAY, PROPHECY, DOOR, NIGHTMARE, REFILL, REDRAW, REVEAL, FORESEE = 0, 1, 2, 3, 4, 5, 6, 7
WON, LOST = 8, 9
MAX_PREFIX = 20
NO_CARD = 15

# stats array slots
ST_NODES, ST_LIMIT, ST_HITS, ST_STORED, ST_FULL, ST_PRUNE, ST_BOUND = 0, 1, 2, 3, 4, 5, 6
ST_PEEK = 7
ST_SIZE = 24
ST_PHASE = 8     # stats[8 + phase]: nodes expanded per phase

# all permutations of 0..k-1, k <= 4, in lexicographic order (rows of PERMS[k])
_P4 = np.array([[a, b, c, d] for a in range(4) for b in range(4) for c in range(4)
                for d in range(4) if len({a, b, c, d}) == 4], dtype=np.int64)


# ------------------------------------------------------------------------- field access
@nb.njit(inline="always", cache=True)
def unk_get(w0, w1, t):
    if t < 15:
        return (w0 >> (4 * t)) & 15
    return (w1 >> (4 * (t - 15))) & 15


@nb.njit(inline="always", cache=True)
def unk_add(w0, w1, t, d):
    if t < 15:
        return w0 + d * (np.int64(1) << (4 * t)), w1
    return w0, w1 + d * (np.int64(1) << (4 * (t - 15)))


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


# ------------------------------------------------------------------------- rule steps
@nb.njit(cache=True)
def pop_top(w2, w3):
    """Remove the top known card; returns (card, w2, w3)."""
    n = plen(w2)
    c = slot_get(w2, w3, n - 1)
    w2, w3 = slot_set(w2, w3, n - 1, 0)
    return c, plen_set(w2, n - 1), w3


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
            w0, w1 = unk_add(w0, w1, 12 + k, limbo_door_get(w2, k))
        w0, w1 = unk_add(w0, w1, 16, limbo_n_get(w2))
        w2 = w2 & ~np.int64(0xFFF)
    return w0, w1, w2, w3


@nb.njit(cache=True)
def to_limbo(w2, c):
    if c == 16:
        return w2 + (np.int64(1) << 8)
    return w2 + (np.int64(1) << (2 * (c - 12)))


@nb.njit(cache=True)
def refill_with(w1, w2, c):
    """A card drawn while refilling the hand."""
    if c < 12:
        return hand_add(w1, c, 1), w2
    if c < 16:
        k = c - 12
        if hand_get(w1, 3 * k + 2) > 0:
            return drawn_set(phase_set(w1, DOOR), k), w2
        return w1, to_limbo(w2, c)
    return phase_set(w1, NIGHTMARE), w2


@nb.njit(cache=True)
def redrawn(w1, w2, c):
    """A card drawn during the nightmare redraw (or the setup): Doors and N to limbo."""
    if c < 12:
        return hand_add(w1, c, 1), w2
    return w1, to_limbo(w2, c)


@nb.njit(cache=True)
def revealed(w2, c):
    """A card revealed by the nightmare: Locations to the discard pile, the rest to limbo."""
    w2 = left_set(w2, left_get(w2) - 1)
    if c < 12:
        return w2
    return to_limbo(w2, c)


@nb.njit(cache=True)
def advance(w0, w1, w2, w3):
    """Play every automatic step.  Returns (status, w0..w3): status is the phase of the
    decision or chance node reached, or WON / LOST."""
    while True:
        if doors_total(w1) == 8:
            return WON, w0, w1, w2, w3
        ph = phase_get(w1)
        if ph == REFILL:
            if hand_size(w1) == 5:
                if (w2 & 0xFFF) != 0:
                    w0, w1, w2, w3 = shuffle_all(w0, w1, w2, w3, True)
                return PLAY, w0, phase_set(w1, PLAY), w2, w3
            if plen(w2) == 0:
                if unk_total(w0, w1) == 0:
                    return LOST, w0, w1, w2, w3
                return REFILL, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w1, w2 = refill_with(w1, w2, c)
            continue
        if ph == REDRAW:
            if hand_size(w1) == 5:
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
            k = min(5, plen(w2) + unk_total(w0, w1))
            if k == 0:
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) < k:
                return FORESEE, w0, w1, w2, w3
            return PROPHECY, w0, phase_set(w1, PROPHECY), w2, w3
        return ph, w0, w1, w2, w3


@nb.njit(cache=True)
def doors_reachable(w0, w1, w2, w3):
    """True unless a Door is in the discard pile (then the game cannot be won: a win needs
    all 8 Doors in play, and the discard pile never comes back)."""
    n = doors_total(w1)
    for k in range(4):
        n += limbo_door_get(w2, k) + unk_get(w0, w1, 12 + k)
    if phase_get(w1) == DOOR:
        n += 1
    for j in range(plen(w2)):
        c = slot_get(w2, w3, j)
        if c >= 12 and c < 16:
            n += 1
    return n == 8


@nb.njit(cache=True)
def can_still_win(w0, w1, w2, w3):
    """A necessary condition for winning (False means the value is exactly 0).

    Doors enter play only (1) by a Key of their colour held when the Door is drawn, or (2) by
    completing a series of their colour.  With missing_k Doors of colour k to gain and keys_k
    Keys of colour k in hand or deck, at least need_k = missing_k - keys_k Doors of colour k
    need a series each; series are disjoint blocks of 3, and only the current one can use
    cards already in the row (s_k of them), so at least 3 need_k - s_k future plays of
    colour k are needed, from the avail_k Locations of colour k in hand or deck.  Every play
    after the next one needs one more Location drawn from the deck (the hand must be back to
    5), so at most P = [phase play] + L - max(0, 5 - hand) ... plays remain, L = Locations
    in the deck.  See docs/EXPECTIMAX.md for the full argument."""
    if not doors_reachable(w0, w1, w2, w3):
        return False
    # per colour k, in byte k: Keys, Suns, and Locations, in the deck
    keys = np.int64(0)
    suns = np.int64(0)
    locs = np.int64(0)
    for t in range(12):
        n = unk_get(w0, w1, t)
        locs += n << (8 * (t // 3))
        if t % 3 == 2:
            keys += n << (8 * (t // 3))
        elif t % 3 == 0:
            suns += n << (8 * (t // 3))
    for j in range(plen(w2)):
        c = slot_get(w2, w3, j)
        if c < 12:
            locs += np.int64(1) << (8 * (c // 3))
            if c % 3 == 2:
                keys += np.int64(1) << (8 * (c // 3))
            elif c % 3 == 0:
                suns += np.int64(1) << (8 * (c // 3))
    nloc = (locs & 255) + ((locs >> 8) & 255) + ((locs >> 16) & 255) + ((locs >> 24) & 255)
    ph = phase_get(w1)
    h = hand_size(w1)
    if ph == PLAY:
        plays = 1 + nloc
    else:
        need = 5 - h
        plays = 1 + nloc - need if nloc >= need else 0
    last = row_last(w1)
    ser = row_series(w1)
    total = 0
    for k in range(4):
        missing = 2 - doors_get(w1, k)
        keys_k = hand_get(w1, 3 * k + 2) + ((keys >> (8 * k)) & 255)
        need_k = missing - keys_k
        if need_k <= 0:
            continue
        s_k = ser if (last != NO_CARD and last // 3 == k and ser < 3) else 0
        avail = ((locs >> (8 * k)) & 255)
        for sym in range(3):
            avail += hand_get(w1, 3 * k + sym)
        req = 3 * need_k - s_k
        if req > avail:
            return False
        # symbols: no two consecutive row cards share one, so every series needs a new
        # Moon or Key, except the current one when it has 2 cards and ends in a non-Sun;
        # all Keys of colour k are spent on Doors here (need_k > 0)
        nonsun = avail - hand_get(w1, 3 * k) - ((suns >> (8 * k)) & 255) - keys_k
        free = 1 if (s_k == 2 and last % 3 != 0) else 0
        if need_k - free > nonsun:
            return False
        total += req
    return total <= plays


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


@nb.njit(cache=True)
def memo_find(keys, w0, w1, w2, w3):
    """Index of the entry for the key, or -1-index of the slot to use for it (an empty slot,
    or when the probe window is full the entry that cost the least work to compute)."""
    mask = keys.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    victim = -1
    for _ in range(PROBE):
        k0 = keys[i, 0]
        if k0 == -1:
            return -1 - i
        if k0 == w0 and keys[i, 1] == w1 and keys[i, 2] == w2 and keys[i, 3] == w3:
            return i
        if victim < 0 or keys[i, 4] < keys[victim, 4]:
            victim = i
        i = (i + 1) & mask
    return -1 - victim


@nb.njit(cache=True)
def memo_store(keys, vals, stats, w0, w1, w2, w3, lo, hi, work):
    i = memo_find(keys, w0, w1, w2, w3)
    if i >= 0:
        # both intervals are sound: keep their intersection
        if lo > vals[i, 5]:
            vals[i, 5] = lo
        if hi < vals[i, 6]:
            vals[i, 6] = hi
        keys[i, 4] += work
        return
    i = -1 - i
    if keys[i, 0] == -1:
        stats[ST_STORED] += 1
    else:
        stats[ST_FULL] += 1      # an entry is replaced
    keys[i, 0] = w0
    keys[i, 1] = w1
    keys[i, 2] = w2
    keys[i, 3] = w3
    keys[i, 4] = work
    vals[i, 5] = lo
    vals[i, 6] = hi


# ------------------------------------------------------------------------- chance outcomes
@nb.njit(cache=True)
def single_outcomes(w0, w1, w2, w3, ph, total):
    """The next card from the unknown part: one outcome per card type present."""
    m = 0
    for t in range(17):
        if unk_get(w0, w1, t) > 0:
            m += 1
    cw = np.empty((m, 4), np.int64)
    cp = np.empty(m)
    m = 0
    for t in range(17):
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
    ts = np.empty(17, np.int64)
    ns = np.empty(17, np.int64)
    m = 0
    for t in range(17):
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
                        elif t >= 12:
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
def canonical(w0, w1, w2, w3):
    """advance() and the canonical order of cards about to be reordered at will."""
    status, w0, w1, w2, w3 = advance(w0, w1, w2, w3)
    if status == PROPHECY:
        # the revealed cards are reordered at will: their order is irrelevant
        w2, w3 = sort_top(w2, w3, min(5, plen(w2) + unk_total(w0, w1)))
    elif status == FORESEE:
        # every known card lies among the cards being revealed (fewer than 5 are known)
        w2, w3 = sort_top(w2, w3, plen(w2))
    return status, w0, w1, w2, w3


@nb.njit(cache=True)
def peek(w0, w1, w2, w3, keys, vals, stats):
    """Bounds on a position that cost no search: end of game, the can-still-win test, the
    memo; else [0, 1]."""
    status, w0, w1, w2, w3 = canonical(w0, w1, w2, w3)
    if status == WON:
        return 1.0, 1.0
    if status == LOST:
        return 0.0, 0.0
    if stats[ST_BOUND] != 0:
        if not can_still_win(w0, w1, w2, w3):
            return 0.0, 0.0
    elif not doors_reachable(w0, w1, w2, w3):
        return 0.0, 0.0
    idx = memo_find(keys, w0, w1, w2, w3)
    if idx >= 0:
        return vals[idx, 5], vals[idx, 6]
    return 0.0, 1.0


@nb.njit(cache=True)
def search(w0, w1, w2, w3, alpha, beta, keys, vals, stats):
    """Sound interval (lo, hi) on the win probability of the position under optimal play.

    alpha/beta: the caller only needs to know whether the value is <= alpha or >= beta; the
    search may stop early once that is settled (Star1 at chance nodes, alpha-beta at decision
    nodes).  Pruning is switched off by stats[ST_PRUNE] == 0."""
    status, w0, w1, w2, w3 = canonical(w0, w1, w2, w3)
    if status == WON:
        return 1.0, 1.0
    if status == LOST:
        return 0.0, 0.0
    if stats[ST_BOUND] != 0:
        if not can_still_win(w0, w1, w2, w3):
            return 0.0, 0.0
    elif not doors_reachable(w0, w1, w2, w3):
        return 0.0, 0.0
    if stats[ST_PRUNE] == 0:
        alpha = -1.0
        beta = 2.0
    idx = memo_find(keys, w0, w1, w2, w3)
    lo0 = 0.0
    hi0 = 1.0
    if idx >= 0:
        lo0 = vals[idx, 5]
        hi0 = vals[idx, 6]
        if lo0 == hi0 or hi0 <= alpha or lo0 >= beta:
            stats[ST_HITS] += 1
            return lo0, hi0
    if stats[ST_NODES] >= stats[ST_LIMIT]:
        return lo0, hi0
    stats[ST_NODES] += 1
    stats[ST_PHASE + status] += 1
    nodes0 = stats[ST_NODES]
    ph = status
    lo = 0.0
    hi = 0.0
    if ph >= REFILL:
        # ---------------------------------------------------------------- chance node
        # Star1 with cheap child bounds: a first pass gives every outcome the bounds that
        # cost no search (won / lost / hopeless / memo), so the unexplored outcomes count
        # [lb, ub] instead of [0, 1] in the window arithmetic.
        total = unk_total(w0, w1)
        if ph == REVEAL and left_get(w2) > 1:
            cw, cp = reveal_outcomes(w0, w1, w2, w3, left_get(w2), total, False)
        elif ph == FORESEE and min(5, plen(w2) + total) - plen(w2) > 1:
            cw, cp = reveal_outcomes(w0, w1, w2, w3, min(5, plen(w2) + total) - plen(w2),
                                     total, True)
        else:
            cw, cp = single_outcomes(w0, w1, w2, w3, ph, total)
        m = cp.shape[0]
        clb = np.empty(m)
        cub = np.empty(m)
        slo = 0.0
        shi = 0.0
        for i in range(m):
            if stats[ST_PEEK] != 0:
                lb, ub = peek(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], keys, vals, stats)
            else:
                lb, ub = 0.0, 1.0
            clb[i] = lb
            cub[i] = ub
            slo += cp[i] * lb
            shi += cp[i] * ub
        if not (shi <= alpha or slo >= beta):
            for i in range(m):
                if clb[i] == cub[i]:
                    continue
                p = cp[i]
                ca = (alpha - (shi - p * cub[i])) / p
                cb = (beta - (slo - p * clb[i])) / p
                clo, chi = search(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3], ca, cb,
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
        if ph == PLAY:
            last = row_last(w1)
            ser = row_series(w1)
            b1 = phase_set(w1, REFILL)
            for c in range(12):
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
                                if slot_get(a2, a3, j) == 12 + col:
                                    for i in range(j, n - 1):
                                        a2, a3 = slot_set(a2, a3, i, slot_get(a2, a3, i + 1))
                                    a2, a3 = slot_set(a2, a3, n - 1, 0)
                                    a2 = plen_set(a2, n - 1)
                                    got = True
                                    break
                            if not got and unk_get(a0, a1, 12 + col) > 0:
                                a0, a1 = unk_add(a0, a1, 12 + col, -1)
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
                    clo, chi = search(a0, a1, a2, a3, max(alpha, lo), beta, keys, vals, stats)
                    if clo > lo:
                        lo = clo
                    if chi > hi:
                        hi = chi
                    if lo >= beta:
                        break
                if lo >= beta:
                    break
        elif ph == PROPHECY:
            n = plen(w2)
            k = min(5, n + unk_total(w0, w1))
            rev = np.empty(5, np.int64)
            for i in range(k):
                rev[i] = slot_get(w2, w3, n - 1 - i)
            rest = np.empty(4, np.int64)
            seen = np.empty(24, np.int64)
            base2 = plen_set(w2, n - 1)
            done = False
            for i in range(k):
                dup = False
                for j in range(i):
                    if rev[j] == rev[i]:
                        dup = True
                if dup:
                    continue
                m = 0
                for j in range(k):
                    if j != i:
                        rest[m] = rev[j]
                        m += 1
                nseen = 0
                for p in range(24):
                    # rows of _P4 whose first m entries are < m give every order of
                    # the m kept cards (repeats are skipped by their code)
                    perm = _P4[p]
                    ok = True
                    for q in range(m):
                        if perm[q] >= m:
                            ok = False
                    if not ok:
                        continue
                    code = 0
                    for q in range(m):
                        code = code * 32 + rest[perm[q]]
                    dup = False
                    for q in range(nseen):
                        if seen[q] == code:
                            dup = True
                    if dup:
                        continue
                    seen[nseen] = code
                    nseen += 1
                    a2 = base2
                    a3 = w3
                    # slots n-1-k .. 0 stay; keep[q] goes to slot n-2-q
                    a2, a3 = slot_set(a2, a3, n - 1, 0)
                    for q in range(m):
                        a2, a3 = slot_set(a2, a3, n - 2 - q, rest[perm[q]])
                    a1 = phase_set(w1, REFILL)
                    clo, chi = search(w0, a1, a2, a3, max(alpha, lo), beta, keys, vals, stats)
                    if clo > lo:
                        lo = clo
                    if chi > hi:
                        hi = chi
                    if lo >= beta:
                        done = True
                        break
                if done:
                    break
        elif ph == DOOR:
            k = drawn_get(w1)
            b1 = drawn_set(phase_set(w1, REFILL), 0)
            for act in range(2):
                if act == 0:
                    a1 = doors_add(hand_add(b1, 3 * k + 2, -1), k, 1)
                    a2 = w2
                else:
                    a1 = b1
                    a2 = to_limbo(w2, 12 + k)
                clo, chi = search(w0, a1, a2, w3, max(alpha, lo), beta, keys, vals, stats)
                if clo > lo:
                    lo = clo
                if chi > hi:
                    hi = chi
                if lo >= beta:
                    break
        else:
            # NIGHTMARE: key (per colour held), door (per colour in play), reveal, redraw
            b1 = phase_set(w1, REFILL)
            for act in range(10):
                a1 = b1
                a2 = w2
                if act < 4:
                    if hand_get(w1, 3 * act + 2) == 0:
                        continue
                    a1 = hand_add(b1, 3 * act + 2, -1)
                elif act < 8:
                    k = act - 4
                    if doors_get(w1, k) == 0:
                        continue
                    a1 = doors_add(b1, k, -1)
                    a2 = to_limbo(w2, 12 + k)
                elif act == 8:
                    a1 = phase_set(w1, REVEAL)
                    a2 = left_set(w2, min(5, plen(w2) + unk_total(w0, w1)))
                else:
                    a1 = phase_set(w1, REDRAW) & ~(np.int64(0xFFFFFFFFF) << 8)
                clo, chi = search(w0, a1, a2, w3, max(alpha, lo), beta, keys, vals, stats)
                if clo > lo:
                    lo = clo
                if chi > hi:
                    hi = chi
                if lo >= beta:
                    break
        if lo >= beta:
            # a cut may leave children unexplored: only the trivial bound holds for them
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
@nb.njit(cache=True)
def solve_words(w0, w1, w2, w3, alpha, beta, keys, vals, stats):
    return search(w0, w1, w2, w3, alpha, beta, keys, vals, stats)


@nb.njit(cache=True)
def advance_words(w0, w1, w2, w3):
    return advance(w0, w1, w2, w3)


def new_tables(bits: int):
    # one 64-byte row per entry (one cache line): key words 0..3, work 4, lo 5, hi 6 (as
    # float64 through the view ``vals`` of the same memory), 7 unused
    keys = np.full((1 << bits, 8), -1, dtype=np.int64)
    vals = keys.view(np.float64)
    stats = np.zeros(ST_SIZE, dtype=np.int64)
    stats[ST_LIMIT] = np.iinfo(np.int64).max
    stats[ST_PRUNE] = 1
    stats[ST_BOUND] = 1
    stats[ST_PEEK] = 0
    return keys, vals, stats
