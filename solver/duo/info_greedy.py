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
``prophecy_value``), and the decisions built on them are the solo greedy's, written once in
:mod:`solver.steps` (its section of greedy's decisions: the play decision from the per-colour
tables, the prophecy order, the Nightmare's fallback, greedy-plus's play change), here on the
active hand (own and shared cards); "a colour the player needs" is the two-player one (the
active player holds no Door of it, ruling D5), passed to ``prophecy_value`` as a Door count
of 0 (needed) or ``DOORS_PER_COLOUR`` (not needed).  What stays here is what only two players
have: the zone of a card (own or shared), the draft and the hand exchanges.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.cards import KEY, MOON, SUN
from engine.rules import COLOURS, DOORS_PER_COLOUR, FIRST_DOOR, NO_CARD, SYMBOLS

from solver import board
from solver import steps
from solver.duo import team_greedy
from solver.duo.info_state import (A_DISCARD, A_DOOR_KEY, A_DRAFT, A_NM_DOOR, A_NM_KEY,
                                   A_NM_REDRAW, A_NM_REVEAL, A_PLAY, A_SWAP, DR, H, LAST,
                                   DRAWN as DRAWN_SLOT,
                                   NLOC, OWN_STEP, P_DOOR, P_DRAFT, P_NIGHTMARE, P_PLAY, PSTEP,
                                   P_PROPHECY, PH, SER, SH, TOP, TURN, ZONE_STRIDE, deck_size)

NO_RANK = steps.NO_RANK
assert COLOURS == 4           # _greedy_play holds the four colours' masks in a 4-tuple
# engine.policy._DRAFT_PREF: Keys before Suns before Moons (lower = drafted first)
DRAFT_PREF = np.zeros(SYMBOLS, dtype=np.int64)
DRAFT_PREF[KEY], DRAFT_PREF[SUN], DRAFT_PREF[MOON] = 0, 1, 2


# ----------------------------------------------------------------------------- knowledge
@njit(cache=True, inline="always")
def _needed(S, p, col):
    """Player p may still gain a Door of colour col (two-player: it holds none, D5)."""
    return S[DR + PSTEP * p + col] == 0


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
    last = S[LAST + PSTEP * p]
    if last == NO_CARD:
        return -1, 0
    return last // SYMBOLS, S[SER + PSTEP * p]


@njit(cache=True, inline="always")
def _zone_of(S, own, c):
    """engine.policy._zone_action: own cards first, else the shared ones."""
    return 0 if S[own + c] > 0 else 1


@njit(cache=True, inline="always")
def _prophecy_hand(S, p, own):
    """The active hand as solver.steps' prophecy reads it: per colour its Doors as
    greedy counts them (0: needed, D5; DOORS_PER_COLOUR: not), its Key held (own or shared),
    its cards (own and shared)."""
    keys = (board.key_of(0), board.key_of(1), board.key_of(2), board.key_of(3))
    return ((0 if _needed(S, p, 0) else DOORS_PER_COLOUR, 0 if _needed(S, p, 1) else
             DOORS_PER_COLOUR, 0 if _needed(S, p, 2) else DOORS_PER_COLOUR,
             0 if _needed(S, p, 3) else DOORS_PER_COLOUR),
            (S[own + keys[0]] + S[SH + keys[0]] > 0, S[own + keys[1]] + S[SH + keys[1]] > 0,
             S[own + keys[2]] + S[SH + keys[2]] > 0, S[own + keys[3]] + S[SH + keys[3]] > 0),
            (_cnt(S, own, 0), _cnt(S, own, 1), _cnt(S, own, 2), _cnt(S, own, 3)))


# ----------------------------------------------------------------------------- decisions
@njit(cache=True, inline="always")
def _greedy_play(S):
    """engine.policy's play decision (rules 1-4) from the per-colour tables
    (:func:`solver.steps.play_choice`, the solo greedy's) on the active hand (own and
    shared cards); the card is then taken from the own cards if held there
    (engine.policy._zone_action)."""
    p = S[TURN]
    own = H + OWN_STEP * p
    last = S[LAST + PSTEP * p]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // SYMBOLS
        s_len = S[SER + PSTEP * p]
        ls1 = last % SYMBOLS + 1
    # the hand is own + shared cards and "needed" is D5's (no Door held): this kernel's
    play, c = steps.play_choice(S, own, SH, True, DR + PSTEP * p, True, s_col, s_len, ls1)
    return (A_PLAY if play else A_DISCARD) + _zone_of(S, own, c) * ZONE_STRIDE + c


@njit(cache=True)
def prophecy_with_victim(S, victim):
    """The prophecy action that discards a revealed card of type ``victim`` and puts the
    others back in greedy's order (engine.policy._greedy_prophecy: by _prophecy_value, best
    on top, ties in the revealed order), as the smallest action number with that outcome
    (the one the legal list keeps); -1 if no revealed card has that type
    (:func:`solver.steps.prophecy_order` on the active hand)."""
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len = _series(S, p)
    doors, keys, cnts = _prophecy_hand(S, p, own)
    return steps.prophecy_order(S, TOP, steps.prophecy_count(deck_size(S)), victim, doors, keys, cnts,
                            s_col, s_len)


@njit(cache=True)
def _greedy_prophecy(S):
    """engine.policy._greedy_prophecy (solver.steps.greedy_prophecy, the solo greedy's)
    on the active hand."""
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len = _series(S, p)
    doors, keys, cnts = _prophecy_hand(S, p, own)
    return steps.greedy_prophecy(S, TOP, steps.prophecy_count(deck_size(S)), doors, keys, cnts, s_col,
                             s_len)


@njit(cache=True, inline="always")
def _greedy_nightmare(S):
    """engine.policy._greedy_nightmare (solver.steps, the solo greedy's) on the active
    hand; the Key is taken from the own cards if held there (the zone: this kernel's)."""
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len = _series(S, p)
    d = DR + PSTEP * p
    best = steps.nightmare_key(S, own, SH, True, d, True, s_col, s_len)
    if best >= 0:
        return A_NM_KEY + _zone_of(S, own, board.key_of(best)) * COLOURS + best
    return steps.nightmare_fallback(S, own, SH, True, d, True, deck_size(S), A_NM_REVEAL,
                                A_NM_REDRAW, A_NM_DOOR)


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
        return A_DOOR_KEY + _zone_of(S, own, board.key_of(S[DRAWN_SLOT] - FIRST_DOOR))
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
        last = S[LAST + PSTEP * p]
        open_needed = (last != NO_CARD and S[SER + PSTEP * p] != 0
                       and _needed(S, p, last // SYMBOLS))
        if steps.plus_plays(last, c, open_needed):
            return A_PLAY + zc
    return a


GREEDY, GREEDY_PLUS, TEAM = 0, 1, 2
# "team" reads both hands: the open game's only (solver.duo.team_greedy; OPEN_ONLY)
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS, "team": TEAM}
OPEN_ONLY = ("team",)


@njit(cache=True, inline="always")
def base_action(S, base):
    """The base policy ``base`` at ``S``: greedy's action, then greedy-plus's changes (bases
    greedy-plus and team), then the team's (:func:`solver.duo.team_greedy.team_of`), so that
    greedy is inlined once here, not twice."""
    a = greedy(S)
    if base != GREEDY:
        a = _plus_of(S, a)
    if base == TEAM:
        a = team_greedy.team_of(S, a)
    return a


@njit(cache=True)
def _base_at(S, base):
    return base_action(S, base)


def base_at(S, base: str) -> int:
    """The base policy's action at the decision state ``S`` (an info_state array)."""
    return int(_base_at(S, np.int64(BASES[base])))
