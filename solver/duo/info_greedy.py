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
from solver.duo.learned_weights import TUNE as LEARNED_TUNE, WEIGHTS as LEARNED_WEIGHTS
from solver.duo.learned60_weights import TUNE as LEARNED60_TUNE, WEIGHTS as LEARNED60_WEIGHTS
from solver.duo.info_state import (A_DISCARD, A_DOOR_KEY, A_DRAFT, A_NM_DOOR, A_NM_KEY,
                                   A_NM_REDRAW, A_NM_REVEAL, A_PLAY, A_SWAP, DR, H, LAST,
                                   SWAP_STRIDE,
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


# ----------------------------------------------------------------------------- plus2
# ``plus2``: greedy-plus with the partner's public needs (its Doors and its row are public).
# Each seat still reads only its own cards, the shared cards, both rows, both players' Doors
# and the deck size.  Three decisions change (docs/DUO_BASES.md, "A stronger base: plus2"):
# * phase play: every play and plain discard is scored by an integer linear function of the
#   features of P2_FEATURES (the first, ``gp``, is 1 for greedy-plus's own action: with its
#   weight alone the choice is greedy-plus's); after a discard the exchange of
#   :func:`_plus2_swap` gives the partner, through the shared cards, what it needs and the
#   player does not, and keeps in the own cards what the player needs;
# * phase nightmare: the Key discarded is the one the team needs least, and without a Key
#   the hand is discarded only if few of its cards are of a colour the team needs;
# * elsewhere greedy-plus's action.
P2_FEATURES = (
    "gp",            # the action is greedy-plus's action
    "p_cont",        # play: extends the player's open series of a colour it needs
    "p_complete",    # play: ... and completes it (a Door)
    "p_break",       # play: another colour after an open series of a needed colour
    "p_need",        # play: the player needs the colour
    "p_follow",      # play: need * (cards of the colour in the hand - 1)
    "p_key",         # play: a Key
    "p_partner",     # play: a colour only the partner needs
    "p_dead",        # play: a colour neither player needs
    "d_key",         # discard: a Key (a prophecy follows)
    "d_dead_key",    # discard: a Key of a colour neither player needs
    "d_need",        # discard: the player needs the colour
    "d_series",      # discard: the colour of the player's open series, needed
    "d_cnt",         # discard: cards of the colour in the hand
    "d_partner",     # discard: a colour only the partner needs
    "d_pseries",     # discard: the partner's open needed series' colour, playable there
    "d_dead",        # discard: a colour neither player needs
)
P2_WEIGHTS = np.array((100, 20, 20, -20, 0, 0, -40, -110, -60, 20, 20, -40, 0, 20, -60, -60, 40),
                      dtype=np.int64)
# the exchange and the Nightmare: (swap margin, partner-needs value, player-needs value,
# partner-series value, player-series value, Nightmare: redraw if at most this many hand
# cards are of a colour the team needs)
P2_TUNE = np.array((1, 6, 2, 5, 1, 5), dtype=np.int64)
P2_NF = len(P2_FEATURES)
SW_MARGIN, SW_PART, SW_MINE, SW_PSER, SW_MSER, NM_USEFUL = 0, 1, 2, 3, 4, 5


@njit(cache=True, inline="always")
def _open_need(S, p):
    """(colour, length, last card) of player p's open series if p needs its colour, else
    (-1, 0, last card)."""
    last = S[LAST + PSTEP * p]
    if last == NO_CARD or S[SER + PSTEP * p] == 0 or not _needed(S, p, last // SYMBOLS):
        return -1, 0, last
    return last // SYMBOLS, S[SER + PSTEP * p], last


@njit(cache=True, inline="always")
def _p2_score(S, w, c, play, gp_card, gp_play, p, s_col, s_len, qc, qlast):
    """The score of playing (``play``) or discarding Location c in the active hand of player
    p (its open needed series ``s_col``, ``s_len``; the partner's ``qc``, last card
    ``qlast``)."""
    col = c // SYMBOLS
    need = _needed(S, p, col)
    pneed = _needed(S, 1 - p, col)
    part = pneed and not need
    dead = not need and not pneed
    key = board.is_key(c)
    v = w[0] * (c == gp_card and play == gp_play)
    if play:
        cont = s_col == col
        v += w[1] * cont + w[2] * (cont and s_len == 2) + w[3] * (s_col >= 0 and not cont)
        v += w[6] * key + w[7] * part + w[8] * dead
        if need:
            v += w[4] + w[5] * (_cnt(S, H + OWN_STEP * p, col) - 1)
    else:
        v += w[9] * key + w[10] * (key and dead) + w[11] * need
        v += w[12] * (s_col == col) + w[13] * _cnt(S, H + OWN_STEP * p, col)
        v += w[14] * part + w[16] * dead
        v += w[15] * (qc == col and part and board.playable(qlast, c))
    return v


@njit(cache=True, inline="always")
def _card_worth(S, p, c, t, mc, mlast, qc, qlast):
    """What Location c is worth in the shared cards rather than in player p's own ones
    (higher: rather shared): the partner's need of it minus the player's (weights ``t``;
    ``mc``/``mlast``, ``qc``/``qlast``: the open needed series' colour and the last card of
    the player's row and of the partner's)."""
    col = c // SYMBOLS
    v = t[SW_PART] * _needed(S, 1 - p, col) - t[SW_MINE] * _needed(S, p, col)
    v += t[SW_PSER] * (qc == col and board.playable(qlast, c))
    v -= t[SW_MSER] * (mc == col and board.playable(mlast, c))
    return v


@njit(cache=True, inline="always")
def _plus2_swap(S, zone, c, t, p, mc, mlast, qc, qlast):
    """The discard of Location c from ``zone`` with plus2's exchange: give the own card a for
    the shared card b that most raises what the shared cards are worth to the partner, if by
    more than the margin; else the plain discard."""
    own = H + OWN_STEP * p
    best = t[SW_MARGIN]
    ba = -1
    bb = -1
    for a in range(NLOC):
        if S[own + a] - (zone == 0 and a == c) <= 0:
            continue
        wa = _card_worth(S, p, a, t, mc, mlast, qc, qlast)
        for b in range(NLOC):
            if b == a or S[SH + b] - (zone == 1 and b == c) <= 0:
                continue
            g = wa - _card_worth(S, p, b, t, mc, mlast, qc, qlast)
            if g > best:
                best = g
                ba = a
                bb = b
    zc = zone * ZONE_STRIDE + c
    if ba < 0:
        return A_DISCARD + zc
    return A_SWAP + zc * SWAP_STRIDE + ba * NLOC + bb


@njit(cache=True, inline="always")
def _plus2_play(S, gp, w, t):
    """plus2's phase-play action (greedy-plus's action ``gp``)."""
    p = S[TURN]
    own = H + OWN_STEP * p
    s_col, s_len, last = _open_need(S, p)
    qc, _, qlast = _open_need(S, 1 - p)
    gz = gp - A_PLAY if gp < A_DISCARD else gp - A_DISCARD
    gp_card = gz % ZONE_STRIDE
    gp_play = gp < A_DISCARD
    best = -(1 << 60)
    bc = -1
    bplay = False
    for c in range(NLOC):
        if S[own + c] + S[SH + c] == 0:
            continue
        if board.playable(last, c):
            v = _p2_score(S, w, c, True, gp_card, gp_play, p, s_col, s_len, qc, qlast)
            if v > best or (v == best and not bplay):     # plays first on a tie
                best = v
                bc = c
                bplay = True
        v = _p2_score(S, w, c, False, gp_card, gp_play, p, s_col, s_len, qc, qlast)
        if v > best:
            best = v
            bc = c
            bplay = False
    zone = _zone_of(S, own, bc)
    if bplay:
        return A_PLAY + zone * ZONE_STRIDE + bc
    return _plus2_swap(S, zone, bc, t, p, s_col, last, qc, qlast)


@njit(cache=True, inline="always")
def _plus2_nightmare(S, gp, t):
    """plus2's Nightmare: the held Key of a colour neither player needs, else of one only the
    partner needs, else greedy's Key; without a Key, discard the hand if at most
    ``t[NM_USEFUL]`` of its cards are of a colour the team needs, else greedy-plus's option."""
    p = S[TURN]
    own = H + OWN_STEP * p
    best = -1
    best_r = 3
    for col in range(COLOURS):
        k = board.key_of(col)
        if S[own + k] + S[SH + k] == 0:
            continue
        r = (1 if _needed(S, 1 - p, col) else 0) + (2 if _needed(S, p, col) else 0)
        if r < best_r:
            best_r = r
            best = col
    if best >= 0:
        return A_NM_KEY + _zone_of(S, own, board.key_of(best)) * COLOURS + best
    if A_NM_KEY <= gp < A_NM_DOOR:
        return gp
    useful = 0
    for c in range(NLOC):
        col = c // SYMBOLS
        if _needed(S, p, col) or _needed(S, 1 - p, col):
            useful += S[own + c] + S[SH + c]
    if useful <= t[NM_USEFUL]:
        return A_NM_REDRAW
    return gp


@njit(cache=True, inline="always")
def plus2_with(S, a, w, t):
    """plus2's action at ``S``, greedy-plus's being ``a``, with the weights ``w``
    (P2_FEATURES) and ``t`` (P2_TUNE)."""
    ph = S[PH]
    if ph == P_PLAY:
        return _plus2_play(S, a, w, t)
    if ph == P_NIGHTMARE:
        return _plus2_nightmare(S, a, t)
    return a


def _fitted(weights, tune, path: str):
    """A fitted base's weights and tune numbers as plus2_with takes them, checked against
    plus2's shapes (``path``: the weights module, for the message)."""
    w, t = np.array(weights, dtype=np.int64), np.array(tune, dtype=np.int64)
    assert w.shape == P2_WEIGHTS.shape and t.shape == P2_TUNE.shape, \
        f"{path}: one weight per P2_FEATURES and per P2_TUNE entry"
    return w, t


# ``learned``: plus2's decisions with the weights fitted by benchmarks/learn_duo_base.py
# (solver/duo/learned_weights.py; docs/DUO_BASES.md, "A fitted plus2: the base learned")
L_WEIGHTS, L_TUNE = _fitted(LEARNED_WEIGHTS, LEARNED_TUNE, "solver/duo/learned_weights.py")
# ``learned60``: the same with the weights of a fit twice as long (60 iterations;
# solver/duo/learned60_weights.py; docs/DUO_BASES.md, "A longer fit: the base learned60")
L60_WEIGHTS, L60_TUNE = _fitted(LEARNED60_WEIGHTS, LEARNED60_TUNE,
                                "solver/duo/learned60_weights.py")

GREEDY, GREEDY_PLUS, PLUS2, TEAM, LEARNED, LEARNED60 = 0, 1, 2, 3, 4, 5
# "team" reads both hands: the open game's only (solver.duo.team_greedy; OPEN_ONLY)
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS, "plus2": PLUS2, "team": TEAM,
         "learned": LEARNED, "learned60": LEARNED60}
OPEN_ONLY = ("team",)


@njit(cache=True, inline="always")
def base_action(S, base):
    """The base policy ``base`` at ``S``: greedy's action, then greedy-plus's changes (every
    base but greedy), then plus2's (with its weights or learned's) or the team's
    (:func:`solver.duo.team_greedy.team_of`), so that greedy and plus2 are inlined once here,
    not twice."""
    a = greedy(S)
    if base != GREEDY:
        a = _plus_of(S, a)
    if base == PLUS2 or base == LEARNED or base == LEARNED60:
        w, t = P2_WEIGHTS, P2_TUNE
        if base == LEARNED:
            w, t = L_WEIGHTS, L_TUNE
        elif base == LEARNED60:
            w, t = L60_WEIGHTS, L60_TUNE
        a = plus2_with(S, a, w, t)
    elif base == TEAM:
        a = team_greedy.team_of(S, a)
    return a


@njit(cache=True)
def base_action_call(S, base):
    """:func:`base_action` as an ordinary call, for the callers off the playouts' inner loop
    (a decision's root, the partner filter's tries, Python).  ``base_action`` is inlined
    (``inline="always"``): numba types its whole body again at every call site, about 20 s of
    compile CPU per caller (``python -m benchmarks.bench_compile duo-honest``), which only
    the playouts' step (:func:`solver.duo.info_playouts._play`) repays, by about 3% of
    playout speed (``python -m benchmarks.bench_duo_playouts --against``, with it not
    inlined anywhere)."""
    return base_action(S, base)


def base_at(S, base: str) -> int:
    """The base policy's action at the decision state ``S`` (an info_state array)."""
    return int(base_action_call(S, np.int64(BASES[base])))


@njit(cache=True)
def _plus2_with_at(S, gp, w, t):
    """plus2's action at ``S`` with other weights (the tests' anchor check)."""
    return plus2_with(S, gp, w, t)
