"""The two-player base policies on the information-state kernel: ``greedy`` and
``duo-greedy-plus`` in numba, decision for decision those of :func:`engine.policy.greedy_action`
and :func:`solver.duo.honest.duo_greedy_plus_action` (``tests/solver/duo/test_info_greedy.py``
compares them at every decision of many games, on views and on full positions).

Both read only what the active player may know: its own cards, the shared cards, its row, its
Doors, the deck size and, in phase prophecy, the cards its prophecy reveals.  In a playout the
partner's seat is played by the same function on the partner's own cards (dealt from the
unknown multiset): neither reads the other seat's hand, so a seat never uses its partner's
cards (``docs/DUO.md``, the strict reading).

The ranks are greedy's shared ranks (:mod:`solver.steps`: ``discard_rank``, ``play_rank``,
``prophecy_value``), and the play decision reads the solo greedy's per-colour tables
(:mod:`solver.honest.greedy`, ``PLAY_BEST`` and ``LOWEST``) on the active hand (own and
shared cards); "a colour the player needs" is the two-player one (the active player holds
no Door of it, ruling D5), passed to ``prophecy_value`` as a Door count of 0 (needed) or
``DOORS_PER_COLOUR`` (not needed).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.cards import KEY, MOON, SUN
from engine.rules import COLOURS, DOORS_PER_COLOUR, FIRST_DOOR, NO_CARD, SYMBOLS

from solver import board as B
from solver import steps as X
from solver.honest.greedy import LOWEST, NO_PLAY, PLAY_BEST
from solver.duo.info_state import (A_DISCARD, A_DOOR_KEY, A_DRAFT, A_NM_DOOR, A_NM_KEY,
                                   A_NM_REDRAW, A_NM_REVEAL, A_PLAY, A_SWAP, DR, H, LAST, NIGHT,
                                   DRAWN as DRAWN_SLOT,
                                   NLOC, OWN_STEP, P_DOOR, P_DRAFT, P_NIGHTMARE, P_PLAY,
                                   P_PROPHECY, PH, SER, SH, TOP, TURN, ZONE_STRIDE, deck_size)

NO_RANK = 1 << 40
CARD_MASK = (1 << X.CARD_BITS) - 1     # a rank's last term: the card
assert COLOURS == 4           # _greedy_play holds the four colours' masks in four names
# engine.policy._DRAFT_PREF: Keys before Suns before Moons (lower = drafted first)
DRAFT_PREF = np.zeros(SYMBOLS, dtype=np.int64)
DRAFT_PREF[KEY], DRAFT_PREF[SUN], DRAFT_PREF[MOON] = 0, 1, 2
# engine.policy._greedy_nightmare's deck-size thresholds (a heuristic, not a rule size)
REVEAL_MIN_DECK = 10
DOOR_MIN_DECK = 6


# ----------------------------------------------------------------------------- knowledge
@njit(cache=True, inline="always")
def _needed(S, p, col):
    """Player p may still gain a Door of colour col (two-player: it holds none, D5)."""
    return S[DR + COLOURS * p + col] == 0


@njit(cache=True, inline="always")
def _cnt(S, own, col):
    """Cards of colour ``col`` in the active hand (own cards at ``own`` and shared cards)."""
    b = col * SYMBOLS
    s = 0
    for x in range(b, b + SYMBOLS):
        s += S[own + x] + S[SH + x]
    return s


@njit(cache=True, inline="always")
def _series(S, p):
    """(colour, open series) of player p's row: (-1, 0) for an empty row; the series is 0
    once the last card completed one (engine: series_length 3)."""
    last = S[LAST + p]
    if last == NO_CARD:
        return -1, 0
    return last // SYMBOLS, S[SER + p]


@njit(cache=True, inline="always")
def _discard_rank(S, p, own, s_col, s_len, c, extra):
    """engine.policy._discard_rank of c in the active hand (plus ``extra`` cards of c's
    colour: the prophecy ranks c within hand + [c])."""
    col = c // SYMBOLS
    needed = 1 if _needed(S, p, col) else 0
    ins = 1 if (col == s_col and s_len != 0 and needed == 1) else 0
    return X.discard_rank(c, needed, ins, _cnt(S, own, col) + extra)


@njit(cache=True, inline="always")
def _zone_of(S, own, c):
    """engine.policy._zone_action: own cards first, else the shared ones."""
    return 0 if S[own + c] > 0 else 1


@njit(cache=True)
def prophecy_value(S, c):
    """engine.policy._prophecy_value for the active player, as one integer."""
    p = S[TURN]
    own = H + OWN_STEP * p
    if c == NIGHT:
        return X.prophecy_value(c, 0, False, False, 0)
    if c >= FIRST_DOOR:
        col = c - FIRST_DOOR
        k = B.key_of(col)
        held = S[own + k] + S[SH + k] > 0
        return X.prophecy_value(c, 0 if _needed(S, p, col) else DOORS_PER_COLOUR, held,
                                False, 0)
    col = c // SYMBOLS
    s_col, s_len = _series(S, p)
    return X.prophecy_value(c, 0 if _needed(S, p, col) else DOORS_PER_COLOUR, False,
                            col == s_col and s_len != 0, _cnt(S, own, col))


# ----------------------------------------------------------------------------- decisions
@njit(cache=True, inline="always")
def _mask(S, own, col):
    """Which of colour ``col``'s three cards the active hand holds (own or shared): bit 0 Sun,
    1 Moon, 2 Key (the index of the solo greedy's tables)."""
    b = col * SYMBOLS
    return ((1 if S[own + b] + S[SH + b] > 0 else 0)
            | (2 if S[own + b + 1] + S[SH + b + 1] > 0 else 0)
            | (4 if S[own + b + 2] + S[SH + b + 2] > 0 else 0))


@njit(cache=True, inline="always")
def _greedy_play(S):
    """engine.policy's play decision (rules 1-4) from the solo greedy's per-colour tables
    (:data:`solver.honest.greedy.PLAY_BEST`, ``LOWEST``: within a colour the ranks depend only
    on which of its cards are held and on the last card's symbol), on the active hand (own
    and shared cards); the card is then taken from the own cards if held there
    (engine.policy._zone_action)."""
    p = S[TURN]
    own = H + OWN_STEP * p
    last = S[LAST + p]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // SYMBOLS
        s_len = S[SER + p]
        ls1 = last % SYMBOLS + 1
    m0 = _mask(S, own, 0)
    m1 = _mask(S, own, 1)
    m2 = _mask(S, own, 2)
    m3 = _mask(S, own, 3)
    d = DR + COLOURS * p
    active_needed = s_col >= 0 and S[d + s_col] == 0
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        m = m0 if s_col == 0 else (m1 if s_col == 1 else (m2 if s_col == 2 else m3))
        pb = PLAY_BEST[m, ls1]
        if pb < NO_PLAY:
            c = s_col * SYMBOLS + (pb & CARD_MASK)
            return A_PLAY + _zone_of(S, own, c) * ZONE_STRIDE + c
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == 2):
        top = 0
        best_r = NO_PLAY
        for col in range(COLOURS):
            if S[d + col] == 0:
                n = _cnt(S, own, col)
                if n >= 2 and n >= top:
                    m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
                    pb = PLAY_BEST[m, ls1]
                    if pb < NO_PLAY:
                        r = pb + col * SYMBOLS
                        if n > top or r < best_r:
                            top = n
                            best_r = r
        if top > 0:
            c = best_r & CARD_MASK
            return A_PLAY + _zone_of(S, own, c) * ZONE_STRIDE + c
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best_r = NO_PLAY
    for col in range(COLOURS):
        m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
        if m != 0:
            nd = 1 if S[d + col] == 0 else 0
            ins = 1 if (col == s_col and s_len != 0 and nd == 1) else 0
            r = X.discard_rank(col * SYMBOLS + LOWEST[m], nd, ins, _cnt(S, own, col))
            if r < best_r:
                best_r = r
    c = best_r & CARD_MASK
    return A_DISCARD + _zone_of(S, own, c) * ZONE_STRIDE + c


@njit(cache=True)
def prophecy_with_victim(S, victim):
    """The prophecy action that discards a revealed card of type ``victim`` and puts the
    others back in greedy's order (engine.policy._greedy_prophecy: by _prophecy_value, best
    on top, ties in the revealed order), as the smallest action number with that outcome
    (the one the legal list keeps); -1 if no revealed card has that type."""
    k = X.prophecy_count(deck_size(S))
    # the kept cards, best first, in four names (a prophecy keeps at most 4: no array, so
    # that the playout loop allocates nothing); a stable insertion: after every entry of
    # value >= v
    r0 = r1 = r2 = r3 = 0
    v0 = v1 = v2 = v3 = 0
    m = 0
    removed = False
    for j in range(k):
        c = S[TOP + j]
        if not removed and c == victim:
            removed = True
            continue
        v = prophecy_value(S, c)
        if m >= 1 and v0 < v:
            r3, r2, r1, r0 = r2, r1, r0, c
            v3, v2, v1, v0 = v2, v1, v0, v
        elif m >= 2 and v1 < v:
            r3, r2, r1 = r2, r1, c
            v3, v2, v1 = v2, v1, v
        elif m >= 3 and v2 < v:
            r3, r2 = r2, c
            v3, v2 = v2, v
        elif m == 0:
            r0, v0 = c, v
        elif m == 1:
            r1, v1 = c, v
        elif m == 2:
            r2, v2 = c, v
        else:
            r3, v3 = c, v
        m += 1
    if not removed:
        return -1
    for i in range(k):
        if S[TOP + i] != victim:
            continue
        for pi in range(X.NPERM[m]):
            same = True
            for q in range(m):
                want = r0 if q == 0 else (r1 if q == 1 else (r2 if q == 2 else r3))
                if S[TOP + X.kept_index(m, pi, q, i)] != want:
                    same = False
                    break
            if same:
                return X.prophecy_action(i, pi)
    return -1


@njit(cache=True)
def _greedy_prophecy(S):
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len = _series(S, p)
    k = X.prophecy_count(deck_size(S))
    victim = -1
    for j in range(k):
        if S[TOP + j] == NIGHT:
            victim = NIGHT
    if victim < 0:
        best_r = NO_RANK
        for j in range(k):
            c = S[TOP + j]
            if c < NLOC:
                r = _discard_rank(S, p, own, s_col, s_len, c, 1)
                if r < best_r:
                    best_r = r
                    victim = c
    if victim < 0:                            # only Doors revealed: the first lowest value
        best_r = NO_RANK
        for j in range(k):
            r = prophecy_value(S, S[TOP + j])
            if r < best_r:
                best_r = r
                victim = S[TOP + j]
    return prophecy_with_victim(S, victim)


@njit(cache=True, inline="always")
def _greedy_nightmare(S):
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len = _series(S, p)
    best = -1
    best_r = NO_RANK
    for col in range(COLOURS):
        c = B.key_of(col)
        if S[own + c] + S[SH + c] > 0:
            r = _discard_rank(S, p, own, s_col, s_len, c, 0)
            if r < best_r:
                best_r = r
                best = col
    if best >= 0:
        return A_NM_KEY + _zone_of(S, own, B.key_of(best)) * COLOURS + best
    size = deck_size(S)
    if size >= REVEAL_MIN_DECK:
        return A_NM_REVEAL
    any_needed = False
    for c in range(NLOC):
        if S[own + c] + S[SH + c] > 0 and _needed(S, p, c // SYMBOLS):
            any_needed = True
    if not any_needed:
        return A_NM_REDRAW
    if size >= DOOR_MIN_DECK:
        for col in range(COLOURS):
            if not _needed(S, p, col):
                return A_NM_DOOR + col
    return A_NM_REVEAL


@njit(cache=True, inline="always")
def _greedy_draft(S):
    p = S[TURN]
    own = H + OWN_STEP * p
    best = -1
    best_r = NO_RANK
    for c in range(NLOC):
        if S[SH + c] == 0:
            continue
        col = c // SYMBOLS
        n = 0
        for x in range(col * SYMBOLS, col * SYMBOLS + SYMBOLS):
            n += S[own + x]
        r = ((((0 if _needed(S, p, col) else 1) * 16 + (15 - n)) * 4 + DRAFT_PREF[c % SYMBOLS])
             * 16 + c)
        if r < best_r:
            best_r = r
            best = c
    return A_DRAFT + best


@njit(cache=True, inline="always")
def greedy(S):
    """engine.policy.greedy_action at the decision state ``S`` (the active seat)."""
    ph = S[PH]
    if ph == P_PLAY:
        return _greedy_play(S)
    if ph == P_PROPHECY:
        return _greedy_prophecy(S)
    if ph == P_DOOR:
        own = H + OWN_STEP * S[TURN]
        return A_DOOR_KEY + _zone_of(S, own, B.key_of(S[DRAWN_SLOT] - FIRST_DOOR))
    if ph == P_NIGHTMARE:
        return _greedy_nightmare(S)
    if ph == P_DRAFT:
        return _greedy_draft(S)
    return -1


@njit(cache=True, inline="always")
def greedy_plus(S):
    """solver.duo.honest.duo_greedy_plus_action: greedy, but discard the hand where greedy
    would reveal at a Nightmare, and play (not discard) a playable non-Key card where the
    active row has no open series of a colour its player still needs."""
    return _plus_of(S, greedy(S))


@njit(cache=True, inline="always")
def _plus_of(S, a):
    """greedy-plus's action from greedy's action ``a`` at ``S``."""
    ph = S[PH]
    if ph == P_NIGHTMARE:
        return A_NM_REDRAW if a == A_NM_REVEAL else a
    if ph == P_PLAY and A_DISCARD <= a < A_SWAP:
        zc = a - A_DISCARD
        c = zc % ZONE_STRIDE
        p = S[TURN]
        last = S[LAST + p]
        if not B.is_key(c) and B.playable(last, c):
            open_needed = (last != NO_CARD and S[SER + p] != 0
                           and _needed(S, p, last // SYMBOLS))
            if not open_needed:
                return A_PLAY + zc
    return a


GREEDY, GREEDY_PLUS = 0, 1
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS}


@njit(cache=True, inline="always")
def base_action(S, base):
    """The base policy ``base`` at ``S``: greedy's action, then greedy-plus's changes, so that
    greedy is inlined once here, not twice."""
    a = greedy(S)
    if base == GREEDY_PLUS:
        a = _plus_of(S, a)
    return a


@njit(cache=True)
def _base_at(S, base):
    return base_action(S, base)


def base_at(S, base: str) -> int:
    """The base policy's action at the decision state ``S`` (an info_state array)."""
    return int(_base_at(S, np.int64(BASES[base])))
