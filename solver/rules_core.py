"""Move ordering and loss bounds, written once in plain Python that numba can compile.

The kernel search compiles these functions with ``numba.njit``; the pure-Python reference
search over ``engine/`` (``solver.clairvoyant.pysearch``) calls the very same source uncompiled, so both
searches visit nodes in the same order and prune the same nodes.  All arguments are plain ints
and int64 numpy arrays in engine terms:

``hand[12]``   count of each Location type in hand
``deckc[17]``  count of each card type in the deck
``doors[4]``   Doors in play per colour
``ldoors[4]``  Doors in limbo per colour
``drawn``      colour of the Door awaiting a decision (phase door), else -1
``last``       type of the last card of the row, 15 if the row is empty
``ser``        length of the open series: 1 or 2; 0 if none (empty row or series complete)
``rev[5]``     the top min(PROPHECY_SIZE, deck) cards (phase prophecy), -1 beyond
"""
from __future__ import annotations

# engine action numbers and card types, imported as module-level names (numba freezes them
# as constants)
from engine.game import DISCARD as _DISCARD
from engine.game import DOOR_KEY as _DOOR_KEY
from engine.game import DOOR_LIMBO as _DOOR_LIMBO
from engine.game import NM_DOOR as _NM_DOOR
from engine.game import NM_KEY as _NM_KEY
from engine.game import NM_REVEAL as _NM_REVEAL
from engine.game import PROPHECY as _PROPHECY
from engine.game import SWAP as _SWAP
from engine.rules import (COLOURS, DOORS_PER_COLOUR, FIRST_DOOR, HAND_SIZE, NIGHTMARE, NO_CARD,
                          NUM_LOCATION_TYPES, PROPHECY_SIZE, SERIES_LENGTH, SYMBOLS)

from solver.steps import PERM_STRIDE

B_DOORS = 1      # a Door is out of the game (discarded): lost
B_PLAYS = 2      # series Doors need more plays than the deck leaves turns
B_SUPPLY = 4     # a colour lacks the Locations its series Doors need
ALL_BOUNDS = B_DOORS | B_PLAYS | B_SUPPLY


def dead_core(hand, deckc, doors, ldoors, drawn, last0, ser0, last1, ser1, hs, is_play, bounds):
    """True if the position can provably no longer be won (docs/SOLVER.md, B1-B3; for two
    players docs/DUO.md, DB1-DB3): the one dead-position bound of every search.

    ``hand[12]``: the Locations the side to move may still play or discard (solo: the hand;
    two players: both players' own cards and the shared cards); ``hs``: the active player's
    hand size; ``last0``/``ser0``, ``last1``/``ser1``: the rows (a solo game passes its row and
    an empty second one, ``NO_CARD``, 0); ``is_play``: the position is at a play decision."""
    if bounds & B_DOORS:
        for col in range(COLOURS):
            avail = doors[col] + ldoors[col] + deckc[FIRST_DOOR + col]
            if drawn == col:
                avail += 1
            if avail < DOORS_PER_COLOUR:
                return True
    if bounds & (B_PLAYS | B_SUPPLY):
        nloc = 0
        for t in range(NUM_LOCATION_TYPES):
            nloc += deckc[t]
        if is_play:
            pmax = nloc + 1
        else:
            # a turn that ends in a discard: the hand refills to HAND_SIZE before the next play
            pmax = nloc + hs - (HAND_SIZE - 1)
            if pmax < 0:
                pmax = 0
        need_plays = 0
        for col in range(COLOURS):
            need = DOORS_PER_COLOUR - doors[col]
            if need <= 0:
                continue
            keys = hand[col * SYMBOLS + SYMBOLS - 1] + deckc[col * SYMBOLS + SYMBOLS - 1]
            kd = need if keys > need else keys
            sd = need - kd
            if sd == 0:
                continue
            c0 = 0
            if last0 != NO_CARD and last0 // SYMBOLS == col:
                c0 = ser0
            c1 = 0
            if last1 != NO_CARD and last1 // SYMBOLS == col:
                c1 = ser1
            # each series Door can use the open series of one row: the best sd of them
            if sd == 1:
                credit = c0 if c0 > c1 else c1
            else:
                credit = c0 + c1
            if bounds & B_SUPPLY:
                locs = 0
                for t in range(col * SYMBOLS, col * SYMBOLS + SYMBOLS):
                    locs += hand[t] + deckc[t]
                if kd + SERIES_LENGTH * sd - credit > locs:
                    return True
            need_plays += SERIES_LENGTH * sd - credit
        if (bounds & B_PLAYS) and need_plays > pmax:
            return True
    return False


def score_move(a, hand, ncol, deckc, doors, last, ser, rev):
    """Heuristic priority of action ``a`` (higher is tried first; ties: smaller ``a``).
    ``ncol[c]`` is the number of cards of colour c in hand."""
    if a < _DISCARD:                       # play a Location
        col = a // 3
        if last != NO_CARD and last // 3 == col and ser != 0:
            if ser == 2:
                if doors[col] < DOORS_PER_COLOUR and deckc[FIRST_DOOR + col] > 0:
                    s = 1000
                else:
                    s = 150
            else:
                s = 600 + 10 * ncol[col]
        elif doors[col] >= DOORS_PER_COLOUR:
            s = 20
        else:
            s = 100 + 10 * ncol[col]
        if a % 3 == 2:
            s -= 40
        return s
    if a < _SWAP:                             # discard
        c = a - _DISCARD
        col = c // 3
        if c % 3 == 2:
            if doors[col] >= DOORS_PER_COLOUR:
                return 500
            return 300
        if doors[col] >= DOORS_PER_COLOUR:
            return 400
        return 200 - 10 * ncol[col]
    if a < _DOOR_KEY:                      # prophecy
        x = a - _PROPHECY
        card = rev[x // PERM_STRIDE]
        if card == NIGHTMARE:
            s = 900
        elif card >= FIRST_DOOR:
            s = 0
        elif doors[card // 3] >= DOORS_PER_COLOUR:
            s = 600
        else:
            s = 500
        return s - x % PERM_STRIDE
    if a == _DOOR_KEY:
        return 1000
    if a == _DOOR_LIMBO:
        return 0
    if a < _NM_DOOR:
        if doors[a - _NM_KEY] >= DOORS_PER_COLOUR:
            return 900
        return 400
    if a < _NM_REVEAL:
        return 0
    if a == _NM_REVEAL:
        s = 600
        for j in range(PROPHECY_SIZE):
            if rev[j] >= FIRST_DOOR and rev[j] < NIGHTMARE:
                s -= 100
        return s
    return 200                             # redraw


def colour_counts(hand, ncol):
    for col in range(COLOURS):
        ncol[col] = hand[col * 3] + hand[col * 3 + 1] + hand[col * 3 + 2]


def eval_state(hand, deckc, doors, ldoors, last, ser, lnight, w):
    """Static value of a position at the start of a turn, for the beam search (higher is
    better).  Integer weights ``w`` (solver.clairvoyant.beam.DEFAULT_WEIGHTS, tuned on node counts):
    w0 per Door in play, w1 per Location left in the deck, w2 per Key in hand of a colour
    still needing Doors (at most the Doors needed), w3 x series length of an open series whose
    Door is still in the deck, w4 per card in hand of a colour still needing Doors, -w5 per
    Nightmare in the deck, -w6 per Nightmare in limbo, w7 x series length if the hand can extend
    that open series next turn, w8 per needed colour with two different symbols in hand."""
    nd = 0
    for col in range(COLOURS):
        nd += doors[col]
    nloc = 0
    for t in range(NUM_LOCATION_TYPES):
        nloc += deckc[t]
    v = w[0] * nd + w[1] * nloc
    for col in range(COLOURS):
        need = DOORS_PER_COLOUR - doors[col]
        if need <= 0:
            continue
        k = hand[col * 3 + 2]
        if k > need:
            k = need
        v += w[2] * k
        if last != NO_CARD and last // 3 == col and ser != 0 and deckc[FIRST_DOOR + col] > 0:
            v += w[3] * ser
            # a card in hand that can extend the open series next turn
            for t in range(col * 3, col * 3 + 3):
                if hand[t] > 0 and t % 3 != last % 3:
                    v += w[7] * ser
                    break
        ncol = hand[col * 3] + hand[col * 3 + 1] + hand[col * 3 + 2]
        v += w[4] * ncol
        # two different symbols of a needed colour in hand: the start of a series
        nsym = 0
        for t in range(col * 3, col * 3 + 3):
            if hand[t] > 0:
                nsym += 1
        if nsym >= 2:
            v += w[8]
    v -= w[5] * deckc[NIGHTMARE]
    v -= w[6] * lnight
    return v
