"""The two-player information-state kernel: honest two-player Onirim in numba, chance mode.

What one player may know (``docs/DUO.md``, "What a player may know": the strict reading) held
in one flat ``int64`` array: its own cards, the shared cards, both rows, every Door in play
(whose), the discard pile, the limbo, the drawn Door or Nightmare, the deck cards its *own*
prophecy showed (known top, top first), the phase and the player to move, and the partner's
hand and the deck's unseen part as **one unknown multiset** (counts ``U`` and a list ``ARR``
of the same cards, no order; ``HID`` says how many of them the partner holds).  This is
exactly :func:`engine.view.player_view` of a two-player position, and :func:`encode` takes it.

A playout first *deals* the partner's hand from the unknown multiset (:func:`deal_partner`:
``HID`` Locations drawn uniformly from the unknown Locations, as
:func:`engine.view.sample_position` does: a partner holds only Locations).  From then on the
array is a two-player chance-mode position of :mod:`engine.game` (both hands known, ``HID`` =
0): every step below is the engine's step, and whenever the engine would stop at a chance
node the kernel stops too, in the same phase.  ``tests/solver/duo/test_info_state.py`` and
the conformance adapter ``duo-honest`` (:mod:`solver.conformance`) walk it against the engine
state by state.  No step runs while ``HID`` > 0: the unknown part is then not the deck.

Rules.  The board steps are the packed board layer's (:mod:`solver.board`) at the value
level: ``board.playable``, ``board.series_step`` (a played Location's new series and the colour whose
series it completes), ``board.nightmare_option_zone`` / ``board.nightmare_kind`` (the Nightmare's
options by zone), ``board.key_of`` / ``board.is_key``; the prophecy (its size, its orders, its action
numbers) and the win are the shared steps of :mod:`solver.steps` (``prophecy_count``,
``PERMS``, ``kept_index``, ``prophecy_action``, ``doors_win``).  The row's fields have the
layer's meaning (``LAST`` = ``NO_CARD`` for an empty row; ``SER`` the open series 1 or 2, 0
for none).  The deck model (counts plus a list, a known top) is the one of
:mod:`solver.honest.state`, and so are its steps, imported, not copied: the draw
(:func:`draw_unknown`, the SplitMix64 word of :mod:`engine.rng`), adding and removing an
unknown card, the known top's pop, the Door taken from the deck after a series, the shuffle,
limbo, the reveal, the prophecy's legal orders and its apply, the drawn card's phase steps
(``_next_known``, ``_deck_phase``) and the Door count's win.  Their slots (``U``, ``D``,
``L``, ``PH`` .. ``LTOT``, ``TOP``, ``ARR``) are the solo kernel's names, so they sit at the
same offsets here; each step takes the deck size (:func:`deck_size`: the partner's hidden
cards are not in the deck) where the two games differ.  The turn's decisions, two-player
ones included, are the shared steps of :mod:`solver.steps`, the same calls as the deal-mode
two-player kernel's (:mod:`solver.duo.kernel`): ``fill_zone`` (own cards first, then the
shared ones, D4), ``door_waits`` / ``may_gain_door`` (a Door to the active player only if it
lacks the colour, D5), ``draft_dealt`` / ``draft_done`` (D1), ``limbo_back``,
``redraw_card``, ``discard_foresees``.  What this file keeps is plumbing: the slots of the
two zones and of the Doors per player, the exchange after a discard (D3), the Nightmare's
Door option from the active player's Doors (D6), the turn flip (D8) and the draft's move.

Actions are the engine's integers (:mod:`engine.actions`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import cards
from engine import game
from engine.rules import (COLOURS, DUO_DRAFT_SIZE, DUO_OWN_SIZE, DUO_SHARED_SIZE, FIRST_DOOR,
                          INFO_PHASE_NAMES, NO_CARD, NUM_LOCATION_TYPES, NUM_TYPES,
                          SERIES_LENGTH, TOTAL_CARDS)

from solver import board
from solver import steps
from solver.honest import state as HS

NLOC = NUM_LOCATION_TYPES
ZONE_STRIDE = NLOC                 # PLAY + zone * NLOC + c (engine.actions)
SWAP_STRIDE = NLOC * NLOC          # SWAP + (zone * NLOC + c) * SWAP_STRIDE + a * NLOC + b

# ----------------------------------------------------------------------------- layout
# The deck-model slots are the solo kernel's, at its offsets (its steps are imported and use
# them): the unknown part (counts U, list ARR, total UTOT), the discard pile D, the limbo L and
# its total LTOT, the known top TOP and its length NTOP, the phase, the drawn card, the cards
# left to reveal, and the Doors in play NDOORS.
U = HS.U         # 17: unknown counts per type (deck's unseen part, and the partner's if HID)
D = HS.D         # 17: discard pile counts
L = HS.L         # 17: limbo counts
PH = HS.PH       # phase (P_* below)
DRAWN = HS.DRAWN  # the Door or Nightmare awaiting a decision, else -1
LEFT = HS.LEFT   # cards still to reveal (nightmare reveal)
NTOP = HS.NTOP   # known top cards
UTOT = HS.UTOT   # the number of unknown cards
NDOORS = HS.NDOORS  # Doors in play, both players
LTOT = HS.LTOT   # cards in limbo
TOP = HS.TOP     # known top cards, top first (at most TOP_CAP)
ARR = HS.ARR     # the unknown cards as a list of types (UTOT of them, any order)
# The two-player fields: player 0's own cards where the solo hand is, the rest after room for
# TOP_CAP known top cards (a chance-mode position knows at most a prophecy's cards).
TOP_CAP = 32
H = HS.H         # own cards of player p at H + OWN_STEP * p: 12 counts per Location type
OWN_STEP = TOP + TOP_CAP   # player 1's own cards
SH = H + OWN_STEP + NLOC   # 12: shared cards (the centre of the draft)
DR = SH + NLOC   # 2 x 4: Doors in play of player p at DR + COLOURS * p (0 or 1 each)
LAST = DR + 2 * COLOURS    # 2: last card of player p's row (NO_CARD: empty)
SER = LAST + 2   # 2: open series of player p's row (solver.board): 1 or 2, 0 if none
ROWLEN = SER + 2           # 2: cards in player p's row
HSZ = ROWLEN + 2           # 2: own cards of player p
SHS = HSZ + 2    # shared cards
TURN = SHS + 1   # the player to move (the active seat)
HID = TURN + 1   # partner cards still inside the unknown multiset (a view: > 0 until dealt)
VIEWER = HID + 1           # whose view the array was encoded from
NS = ARR + TOTAL_CARDS
assert H + NLOC <= U and VIEWER < ARR and TOP_CAP >= steps.PROPHECY_SIZE
assert max(U + NUM_TYPES, D + NUM_TYPES, L + NUM_TYPES) <= min(PH, DRAWN, LEFT, NTOP, UTOT,
                                                                NDOORS, LTOT) <= TOP

PHASE_NAMES = INFO_PHASE_NAMES + ("draft",)
PHASE_CODE = {name: i for i, name in enumerate(PHASE_NAMES)}
P_PLAY, P_PROPHECY, P_DOOR, P_NIGHTMARE = (PHASE_CODE[n] for n in
                                           ("play", "prophecy", "door", "nightmare"))
P_SETUP, P_REFILL, P_REDRAW, P_REVEAL, P_FORESEE = (
    PHASE_CODE[n] for n in ("setup", "refill", "redraw", "reveal", "foresee"))
P_WON, P_LOST, P_DRAFT = PHASE_CODE["won"], PHASE_CODE["lost"], PHASE_CODE["draft"]
assert P_SETUP <= P_REFILL <= P_FORESEE and P_DRAFT > P_LOST     # chance: setup..foresee
assert all(PHASE_CODE[n] == HS.PHASE_CODE[n] for n in INFO_PHASE_NAMES)  # the shared steps'

NIGHT = cards.NIGHTMARE
COUNTS = np.array(cards.COUNTS, dtype=np.int64)
A_PLAY, A_DISCARD, A_SWAP, A_PROPHECY = game.PLAY, game.DISCARD, game.SWAP, game.PROPHECY
A_DOOR_KEY, A_DOOR_LIMBO = game.DOOR_KEY, game.DOOR_LIMBO
A_NM_KEY, A_NM_DOOR, A_NM_REVEAL, A_NM_REDRAW = game.NM_KEY, game.NM_DOOR, game.NM_REVEAL, game.NM_REDRAW
A_DRAFT, A_DRAW = game.DRAFT, game.DRAW
MAX_LEGAL = 256      # plays, discards and exchanges: at most 24 + 24 + 5 * 3 * 2 in a hand
_REV_NAMES = 5       # apply_action holds the revealed cards in five names
assert steps.PROPHECY_SIZE <= _REV_NAMES and MAX_LEGAL >= steps.PROPHECY_SIZE * steps.PERM_STRIDE

mix64 = steps.mix64
word = steps.word

# the deck model's steps: the solo kernel's (same slots), imported
draw_unknown = HS.draw_unknown
_remove_unknown = HS._remove_unknown
_pop_top = HS._pop_top
_shuffle = HS._shuffle
_to_limbo = HS._to_limbo
_take_door_from_deck = HS._take_door_from_deck
_revealed = HS._revealed
_foreseen = HS._foreseen
_next_known = HS._next_known
_deck_phase = HS._deck_phase
_take_drawn = HS._take_drawn
_lose_door = HS._lose_door
_start_reveal = HS._start_reveal
_door_counted = HS._door_counted
_apply_prophecy = HS._apply_prophecy
_legal_prophecy = HS._legal_prophecy
is_chance = HS.is_chance                # the same phase numbers (asserted above)
_counts = HS._counts


# ----------------------------------------------------------------------------- unknown part
@njit(cache=True, inline="always")
def deck_size(S):
    """Cards in the deck (public): the known top and the unknown cards not in the partner's
    hidden hand."""
    return S[NTOP] + S[UTOT] - S[HID]


@njit(cache=True)
def deal_partner(S, key):
    """Deal the partner's ``HID`` hidden cards from the unknown multiset: each a uniformly
    chosen unknown *Location* card (a partner holds only Locations), drawn with the words
    ``word(key, i)`` of stream ``key``.  Afterwards ``HID`` = 0 and the unknown part is the
    deck's.  The same (view, key) always gives the same hand (common random numbers)."""
    p = 1 - S[VIEWER]
    i = 0
    while S[HID] > 0:
        n = S[UTOT]
        r = word(key, i)
        i += 1
        x = np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
        t = S[ARR + x]
        if t >= NLOC:                 # not a Location: draw again (uniform over Locations)
            continue
        S[ARR + x] = S[ARR + n - 1]
        S[UTOT] = n - 1
        S[U + t] -= 1
        S[H + OWN_STEP * p + t] += 1
        S[HSZ + p] += 1
        S[HID] -= 1


# ----------------------------------------------------------------------------- zones
@njit(cache=True, inline="always")
def zone_at(S, zone):
    """The first slot of a zone of the active player: 0 its own cards, 1 the shared cards."""
    if zone == 0:
        return H + OWN_STEP * S[TURN]
    return SH


@njit(cache=True, inline="always")
def _zone_take(S, zone, c):
    if zone == 0:
        S[H + OWN_STEP * S[TURN] + c] -= 1
        S[HSZ + S[TURN]] -= 1
    else:
        S[SH + c] -= 1
        S[SHS] -= 1


@njit(cache=True, inline="always")
def _zone_put(S, zone, c):
    if zone == 0:
        S[H + OWN_STEP * S[TURN] + c] += 1
        S[HSZ + S[TURN]] += 1
    else:
        S[SH + c] += 1
        S[SHS] += 1


@njit(cache=True, inline="always")
def missing_zone(S):
    """The zone a refill fills next (D4, :func:`solver.steps.fill_zone`: own cards first,
    then the shared ones), or -1 when both are full."""
    return steps.fill_zone(S[HSZ + S[TURN]], S[SHS])


@njit(cache=True, inline="always")
def active_count(S, c):
    """Cards of type c the active player may use: own and shared."""
    return S[H + OWN_STEP * S[TURN] + c] + S[SH + c]


@njit(cache=True, inline="always")
def has_door(S, p, col):
    return S[DR + COLOURS * p + col] > 0


# ----------------------------------------------------------------------------- deck steps
@njit(cache=True, inline="always")
def _gain_door(S, col):
    """A Door of colour ``col`` goes into play for the active player (who has none of it,
    D5); True if that wins (:func:`solver.steps.doors_win`, D7)."""
    S[DR + COLOURS * S[TURN] + col] += 1
    return _door_counted(S)


@njit(cache=True, inline="always")
def _place_redrawn(S, c):
    """Setup and the Nightmare's redraw: a Location goes to the zone being filled (setup: the
    centre of the draft), a Door or Nightmare to limbo."""
    if steps.redraw_card(c) == steps.GO_HAND:
        if S[PH] == P_SETUP:
            S[SH + c] += 1
            S[SHS] += 1
        else:
            _zone_put(S, missing_zone(S), c)
    else:
        _to_limbo(S, c)


@njit(cache=True, inline="always")
def _refill_with(S, c):
    """A card drawn in a refill, where :func:`solver.steps.refill_card` and the two-player
    :func:`solver.steps.door_waits` (D5) send it."""
    go = steps.refill_card(c)
    if go == steps.GO_DOOR:
        col = c - FIRST_DOOR
        if not steps.door_waits(True, active_count(S, board.key_of(col)),
                            S[DR + COLOURS * S[TURN] + col]):
            go = steps.GO_LIMBO
    if go == steps.GO_HAND:
        _zone_put(S, missing_zone(S), c)
    elif go == steps.GO_LIMBO:
        _to_limbo(S, c)
    elif go == steps.GO_DOOR:
        S[PH] = P_DOOR
        S[DRAWN] = c
    else:
        S[PH] = P_NIGHTMARE
        S[DRAWN] = c


@njit(cache=True, inline="always")
def _end_turn(S):
    if steps.limbo_back(S[LTOT]):
        _shuffle(S, True)
    S[TURN] = 1 - S[TURN]
    S[PH] = P_PLAY


@njit(cache=True, inline="always")
def advance(S):
    """engine State._advance (two players): every automatic step until a decision, a chance
    node or the end."""
    while True:
        ph = S[PH]
        if ph == P_SETUP or ph == P_REDRAW:
            if ph == P_SETUP and steps.draft_dealt(S[SHS]):         # the centre is dealt
                if steps.limbo_back(S[LTOT]):
                    _shuffle(S, True)
                S[PH] = P_DRAFT
                return
            if ph == P_REDRAW and missing_zone(S) < 0:           # the hand is redrawn
                S[PH] = P_REFILL
                continue
            c = _next_known(S, deck_size(S))
            if c < 0:
                return
            _place_redrawn(S, c)
            continue
        if ph == P_REFILL:
            if missing_zone(S) < 0:
                _end_turn(S)
                return
            c = _next_known(S, deck_size(S))
            if c < 0:
                return
            _refill_with(S, c)
            if S[PH] != P_REFILL:
                return
            continue
        if ph == P_REVEAL or ph == P_FORESEE:
            if _deck_phase(S, ph, deck_size(S)):
                continue
            return
        return


@njit(cache=True, inline="always")
def drawn(S, t):
    """What happens to a card of type ``t`` just taken from the unknown part."""
    ph = S[PH]
    if ph == P_SETUP or ph == P_REDRAW:
        _place_redrawn(S, t)
    elif ph == P_REFILL:
        _refill_with(S, t)
    elif ph == P_REVEAL:
        _revealed(S, t)
    elif ph == P_FORESEE:
        _foreseen(S, t)


@njit(cache=True)
def apply_chance(S, t):
    """engine State._apply_chance: the next unknown card is of type ``t`` (no advance)."""
    _remove_unknown(S, t)
    drawn(S, t)


@njit(cache=True, inline="always")
def apply_action(S, a):
    """engine State._apply_decision (two players) for a legal action ``a`` (no advance)."""
    ph = S[PH]
    p = S[TURN]
    if ph == P_PLAY:
        if a < A_DISCARD:
            zone = (a - A_PLAY) // ZONE_STRIDE
            c = (a - A_PLAY) % ZONE_STRIDE
            _zone_take(S, zone, c)
            ser, done = board.series_step(S[LAST + p], S[SER + p], c)
            S[SER + p] = ser
            S[LAST + p] = c
            S[ROWLEN + p] += 1
            S[PH] = P_REFILL
            if done >= 0 and steps.may_gain_door(True, S[DR + COLOURS * p + done]):
                if _take_door_from_deck(S, done):
                    if _gain_door(S, done):
                        return
                    _shuffle(S, False)
            return
        if a < A_SWAP:
            zc = a - A_DISCARD
            ga = -1
            gb = -1
        else:
            x = a - A_SWAP
            zc = x // SWAP_STRIDE
            ga = (x % SWAP_STRIDE) // NLOC
            gb = x % NLOC
        zone = zc // ZONE_STRIDE
        c = zc % ZONE_STRIDE
        _zone_take(S, zone, c)
        S[D + c] += 1
        if ga >= 0:                   # D3: exchange own ga with shared gb
            S[H + OWN_STEP * p + ga] -= 1
            S[SH + gb] -= 1
            S[H + OWN_STEP * p + gb] += 1
            S[SH + ga] += 1
        S[PH] = P_FORESEE if steps.discard_foresees(c) else P_REFILL
    elif ph == P_PROPHECY:
        _apply_prophecy(S, a, deck_size(S))
    elif ph == P_DOOR:
        door = _take_drawn(S)
        if a == A_DOOR_LIMBO:
            _to_limbo(S, door)
        else:
            col = door - FIRST_DOOR
            k = board.key_of(col)
            _zone_take(S, a - A_DOOR_KEY, k)
            S[D + k] += 1
            _gain_door(S, col)
    elif ph == P_NIGHTMARE:
        S[D + _take_drawn(S)] += 1
        o, zone = board.nightmare_option_zone(a)
        kind, col = board.nightmare_kind(o)
        if kind == board.OPT_KEY:
            k = board.key_of(col)
            _zone_take(S, zone, k)
            S[D + k] += 1
        elif kind == board.OPT_DOOR:                 # D6: one of the active player's Doors
            _lose_door(S, DR + COLOURS * p + col, col)
        elif kind == board.OPT_REVEAL:
            _start_reveal(S, deck_size(S))
        else:                                    # D4: own and shared cards discarded
            for c in range(NLOC):
                S[D + c] += S[H + OWN_STEP * p + c] + S[SH + c]
                S[H + OWN_STEP * p + c] = 0
                S[SH + c] = 0
            S[HSZ + p] = 0
            S[SHS] = 0
            S[PH] = P_REDRAW
    elif ph == P_DRAFT:
        c = a - A_DRAFT
        S[SH + c] -= 1
        S[SHS] -= 1
        S[H + OWN_STEP * p + c] += 1
        S[HSZ + p] += 1
        S[TURN] = 1 - p
        if steps.draft_done(S[HSZ], S[HSZ + 1]):
            S[PH] = P_PLAY


# ----------------------------------------------------------------------------- a new game
def _initial_state() -> np.ndarray:
    """The array of a fresh two-player chance-mode game before the setup draws (engine
    ``Game(2).new_initial_state()``): every card unknown, both rows empty, phase setup."""
    S = np.zeros(NS, dtype=np.int64)
    HS.set_unknown(S, COUNTS)
    S[LAST] = S[LAST + 1] = NO_CARD
    S[DRAWN] = -1
    S[PH] = P_SETUP
    return S


INITIAL = _initial_state()


@njit(cache=True)
def new_game(S):
    """``S`` = a fresh game before the setup draws (one copy of ``INITIAL``)."""
    for i in range(NS):
        S[i] = INITIAL[i]


# ----------------------------------------------------------------------------- legal actions
@njit(cache=True)
def legal(S, out):
    """The legal actions (engine integers, ascending) into ``out``; returns how many."""
    ph = S[PH]
    p = S[TURN]
    n = 0
    if ph == P_PLAY:
        last = S[LAST + p]
        for zone in range(2):
            z = zone_at(S, zone)
            for c in range(NLOC):
                if S[z + c] > 0 and board.playable(last, c):
                    out[n] = A_PLAY + zone * ZONE_STRIDE + c
                    n += 1
        for zone in range(2):
            z = zone_at(S, zone)
            for c in range(NLOC):
                if S[z + c] > 0:
                    out[n] = A_DISCARD + zone * ZONE_STRIDE + c
                    n += 1
        own = H + OWN_STEP * p
        for zone in range(2):
            z = zone_at(S, zone)
            for c in range(NLOC):
                if S[z + c] == 0:
                    continue
                for ga in range(NLOC):
                    na = S[own + ga]
                    if zone == 0 and ga == c:
                        na -= 1
                    if na <= 0:
                        continue
                    for gb in range(NLOC):
                        if gb == ga:
                            continue
                        nb = S[SH + gb]
                        if zone == 1 and gb == c:
                            nb -= 1
                        if nb <= 0:
                            continue
                        out[n] = A_SWAP + (zone * ZONE_STRIDE + c) * SWAP_STRIDE \
                            + ga * NLOC + gb
                        n += 1
    elif ph == P_PROPHECY:
        n = _legal_prophecy(S, out, deck_size(S))
    elif ph == P_DOOR:
        k = board.key_of(S[DRAWN] - FIRST_DOOR)
        for zone in range(2):
            if S[zone_at(S, zone) + k] > 0:
                out[n] = A_DOOR_KEY + zone
                n += 1
        out[n] = A_DOOR_LIMBO
        n += 1
    elif ph == P_NIGHTMARE:
        for zone in range(2):
            z = zone_at(S, zone)
            for col in range(COLOURS):
                if S[z + board.key_of(col)] > 0:
                    out[n] = A_NM_KEY + zone * COLOURS + col
                    n += 1
        for col in range(COLOURS):
            if has_door(S, p, col):
                out[n] = A_NM_DOOR + col
                n += 1
        out[n] = A_NM_REVEAL
        out[n + 1] = A_NM_REDRAW
        n += 2
    elif ph == P_DRAFT:
        for c in range(NLOC):
            if S[SH + c] > 0:
                out[n] = A_DRAFT + c
                n += 1
    return n


@njit(cache=True)
def step(S, a):
    """apply_action then advance (the conformance harness's step)."""
    apply_action(S, a)
    advance(S)


@njit(cache=True)
def chance_step(S, t):
    apply_chance(S, t)
    advance(S)


# ----------------------------------------------------------------------------- Python side
def _blank() -> np.ndarray:
    S = np.zeros(NS, dtype=np.int64)
    S[LAST] = S[LAST + 1] = NO_CARD
    S[DRAWN] = -1
    return S


def encode(state) -> np.ndarray:
    """The kernel array of a two-player chance-mode engine position: a player's view
    (:func:`engine.view.player_view`: the partner cards the view knows in the partner's hand,
    its other cards inside the unknown multiset, ``HID`` = how many, which
    :func:`deal_partner` adds) or a full chance-mode ``State`` (both hands known, ``HID`` =
    0)."""
    if state.players != 2:
        raise ValueError("the two-player information-state kernel plays two-player games only")
    if state.seed is not None:
        raise ValueError("encode needs a chance-mode state (engine.view.player_view)")
    if len(state.deck) > TOP_CAP:
        raise ValueError("too many known deck cards")
    S = _blank()
    HS.encode_deck(S, state, PHASE_CODE)
    for p in range(2):
        for c in state.hands[p]:
            S[H + OWN_STEP * p + c] += 1
        S[HSZ + p] = len(state.hands[p])
        for d in state.doors[p]:
            S[DR + COLOURS * p + cards.colour(d)] += 1
        row = state.rows[p]
        S[LAST + p] = row[-1] if row else NO_CARD
        S[SER + p] = board.open_series(row)
        S[ROWLEN + p] = len(row)
    for c in state.shared:
        S[SH + c] += 1
    S[SHS] = len(state.shared)
    S[NDOORS] = sum(len(d) for d in state.doors)
    S[TURN] = state.turn
    if getattr(state, "hidden", None) is not None:     # a duo view (engine.view)
        S[HID] = state.hidden
        S[VIEWER] = state.viewer
    else:
        S[VIEWER] = state.turn
    return S


def decode(S) -> dict:
    """The kernel array as a dict of comparable fields (see :func:`engine_fields`)."""
    S = [int(x) for x in S]

    def series(p):
        if S[LAST + p] == NO_CARD:
            return 0
        return S[SER + p] if S[SER + p] != 0 else SERIES_LENGTH
    return {
        "phase": PHASE_NAMES[S[PH]], "turn": S[TURN],
        "hands": [S[H:H + NLOC], S[H + OWN_STEP:H + OWN_STEP + NLOC]],
        "shared": S[SH:SH + NLOC],
        "doors": [S[DR:DR + COLOURS], S[DR + COLOURS:DR + 2 * COLOURS]],
        "last": [None if S[LAST + p] == NO_CARD else S[LAST + p] for p in range(2)],
        "series": [series(0), series(1)], "rowlen": S[ROWLEN:ROWLEN + 2],
        **HS.decode_deck(S),
        "hidden": S[HID],
        "totals": (S[UTOT], S[HSZ], S[HSZ + 1], S[SHS], S[NDOORS], S[LTOT]),
    }


def engine_fields(state) -> dict:
    """The same fields from a two-player chance-mode engine ``State`` or view."""
    hidden = getattr(state, "hidden", 0)
    return {
        "phase": state.phase, "turn": state.turn,
        "hands": [_counts(state.hands[p], NLOC) for p in range(2)],
        "shared": _counts(state.shared, NLOC),
        "doors": [[state.doors[p].count(FIRST_DOOR + col) for col in range(COLOURS)]
                  for p in range(2)],
        "last": [state.rows[p][-1] if state.rows[p] else None for p in range(2)],
        "series": [game.series_length(state.rows[p]) for p in range(2)],
        "rowlen": [len(state.rows[p]) for p in range(2)],
        **HS.engine_deck_fields(state), "hidden": hidden,
        "totals": (sum(state.unknown), len(state.hands[0]), len(state.hands[1]),
                   len(state.shared), sum(len(d) for d in state.doors), len(state.limbo)),
    }


def diff(S, state) -> dict:
    a = decode(S)
    b = engine_fields(state)
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


def legal_list(S) -> list[int]:
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = legal(S, out)
    return [int(x) for x in out[:n]]
