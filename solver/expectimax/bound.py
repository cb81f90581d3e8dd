"""Expectimax kernel (3/6), the can-still-win bound: a necessary condition for a win, so
that a position failing it is worth exactly 0 with no search (docs/EXPECTIMAX.md
section 3, "The can-still-win bound", which argues every step).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from engine.rules import DOORS_PER_COLOUR, DOORS_TO_WIN, FIRST_DOOR, HAND_SIZE, NO_CARD
from engine.rules import NUM_LOCATION_TYPES
from engine.rules import PH_DOOR as DOOR
from engine.rules import PH_NIGHTMARE as NIGHTMARE
from engine.rules import NIGHTMARE as NM_CARD
from engine.rules import PH_PLAY as PLAY
from engine.rules import PH_REVEAL as REVEAL
from solver.board import key_of
from .fields import (doors_get, doors_total, drawn_get, hand_get, hand_size, left_get,
                         phase_get, plen, row_last, row_series, slot_get, unk_get)
from .rules import nightmare_option


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
            if DOORS_PER_COLOUR - doors_get(w1, k) > d:
                return -1
    last = row_last(w1)
    ser = row_series(w1)
    # symbol of the row's last card: 0 Sun, 1 Moon, 2 Key or empty row (no constraint)
    sigma = 2 if last == NO_CARD else last % 3
    kc = last // 3 if ser != 0 else -1
    base = 0                 # plays of the colours other than the current series' one
    xlo = 0                  # Sun-Moon-Sun blocks among their new series: xlo .. xhi
    xhi = 0
    nblk = 0                 # their new series
    cur_need = 0
    cur_s = 0
    cur_m = 0
    for k in range(4):
        missing = DOORS_PER_COLOUR - doors_get(w1, k)
        keys_k = hand_get(w1, key_of(k)) + ((keys >> (8 * k)) & 255)
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
