"""The two-player information-state kernel: the two-player arrays of the one
information-state kernel (:mod:`solver.honest.state`), their encoding, and the partner's deal.

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
0), and the turn is the information-state kernel's: :mod:`solver.honest.state` writes
``advance``, ``apply_action``, ``apply_chance``, ``legal``, ``step`` once for one and two
players, the number of players being the array's slot ``NPL`` (2 here) and the player to move
its slot ``TURN``, as :mod:`engine.game` keeps them in its state; a player's slots (own cards
``H``, Doors ``DR``, row ``LAST`` / ``SER`` / ``ROWLEN``, ``HSIZE``) are player 0's at the solo
offsets and player 1's at the same offsets plus ``PSTEP``.  The open game (the partner's hand
known) is an array with ``HID`` = 0 and the partner's cards in their own slots: :func:`encode`
of a full chance-mode ``State`` gives it, and it needs no other turn.
``tests/solver/duo/test_info_state.py`` and the conformance adapter ``duo-honest``
(:mod:`solver.conformance`) walk it against the engine state by state.  No step runs while
``HID`` > 0: the unknown part is then not the deck.

This module keeps the two-player side: the names its users import (the kernel's, with
``NS`` and ``MAX_LEGAL`` the two-player sizes), the initial state, :func:`deal_partner`,
:func:`encode`, :func:`decode`, :func:`engine_fields` and :func:`diff`.

Actions are the engine's integers (:mod:`engine.actions`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import cards
from engine import game
from engine.rules import COLOURS, FIRST_DOOR, NO_CARD, SERIES_LENGTH

from solver import board
from solver.honest import state as kernel

# ----------------------------------------------------------------------------- layout
# The one kernel's slots: the deck model (U, D, L, PH .. LTOT, TOP, ARR), the shared cards
# (SH, SHS), the partner's hidden cards (HID), the viewer, and player p's slots at the solo
# offset plus PSTEP * p (OWN_STEP: the same stride, by the name the policies use for hands).
U, D, L, TOP, TOP_CAP, ARR = kernel.U, kernel.D, kernel.L, kernel.TOP, kernel.TOP_CAP, kernel.ARR
PH, DRAWN, LEFT, NTOP, UTOT = kernel.PH, kernel.DRAWN, kernel.LEFT, kernel.NTOP, kernel.UTOT
NDOORS, LTOT, NPL, TURN = kernel.NDOORS, kernel.LTOT, kernel.NPL, kernel.TURN
SH, SHS, HID, VIEWER = kernel.SH, kernel.SHS, kernel.HID, kernel.VIEWER
H, DR, LAST, SER, ROWLEN = kernel.H, kernel.DR, kernel.LAST, kernel.SER, kernel.ROWLEN
HSZ = HSIZE = kernel.HSIZE
PSTEP = OWN_STEP = kernel.PSTEP
NS = kernel.NS_DUO
NLOC, ZONE_STRIDE, SWAP_STRIDE = kernel.NLOC, kernel.ZONE_STRIDE, kernel.SWAP_STRIDE

PHASE_NAMES, PHASE_CODE = kernel.PHASE_NAMES, kernel.PHASE_CODE
P_PLAY, P_PROPHECY, P_DOOR, P_NIGHTMARE = (kernel.P_PLAY, kernel.P_PROPHECY, kernel.P_DOOR,
                                           kernel.P_NIGHTMARE)
P_SETUP, P_REFILL, P_REDRAW, P_REVEAL, P_FORESEE = (kernel.P_SETUP, kernel.P_REFILL,
                                                    kernel.P_REDRAW, kernel.P_REVEAL,
                                                    kernel.P_FORESEE)
P_WON, P_LOST, P_DRAFT = kernel.P_WON, kernel.P_LOST, kernel.P_DRAFT

NIGHT = cards.NIGHTMARE
COUNTS = kernel.COUNTS
A_PLAY, A_DISCARD, A_SWAP, A_PROPHECY = game.PLAY, game.DISCARD, game.SWAP, game.PROPHECY
A_DOOR_KEY, A_DOOR_LIMBO = game.DOOR_KEY, game.DOOR_LIMBO
A_NM_KEY, A_NM_DOOR, A_NM_REVEAL, A_NM_REDRAW = game.NM_KEY, game.NM_DOOR, game.NM_REVEAL, game.NM_REDRAW
A_DRAFT, A_DRAW = game.DRAFT, game.DRAW
MAX_LEGAL = kernel.MAX_LEGAL_DUO

mix64 = kernel.mix64
word = kernel.word
below = kernel.below

# the turn and the deck model: the one kernel's functions; advance, apply_action, drawn,
# step and chance_step are its turn compiled for two players (this module's arrays are
# two-player ones: NPL = 2), the *_inline forms the turn inlined where called (with npl = 2:
# the playout loop), the others read the number of players from the array
draw_unknown = kernel.draw_unknown
deck_size = kernel.deck_size
zone_at = kernel.zone_at
missing_zone = kernel.missing_zone
active_count = kernel.active_count
advance = kernel.advance_duo
advance_inline = kernel.advance_inline
apply_action_inline = kernel.apply_action_inline
drawn_inline = kernel.drawn_inline
apply_action = kernel.apply_action_duo
drawn = kernel.drawn_duo
apply_chance = kernel.apply_chance
legal = kernel.legal
legal_list = kernel.legal_list
step = kernel.step_duo
chance_step = kernel.chance_step_duo
is_chance = kernel.is_chance
_counts = kernel._counts


# ----------------------------------------------------------------------------- a new game
def _blank() -> np.ndarray:
    """A two-player array with nothing in it: both rows empty, no drawn card."""
    S = np.zeros(NS, dtype=np.int64)
    S[NPL] = 2
    S[LAST] = S[LAST + PSTEP] = NO_CARD
    S[DRAWN] = -1
    return S


def _initial_state() -> np.ndarray:
    """The array of a fresh two-player chance-mode game before the setup draws (engine
    ``Game(2).new_initial_state()``): every card unknown, both rows empty, phase setup."""
    S = _blank()
    kernel.set_unknown(S, COUNTS)
    S[PH] = P_SETUP
    return S


INITIAL = _initial_state()


@njit(cache=True)
def new_game(S):
    """``S`` = a fresh game before the setup draws (one copy of ``INITIAL``)."""
    for i in range(NS):
        S[i] = INITIAL[i]


# ----------------------------------------------------------------------------- the partner
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
        x = below(r, n)
        t = S[ARR + x]
        if t >= NLOC:                 # not a Location: draw again (uniform over Locations)
            continue
        S[ARR + x] = S[ARR + n - 1]
        S[UTOT] = n - 1
        S[U + t] -= 1
        S[H + PSTEP * p + t] += 1
        S[HSIZE + PSTEP * p] += 1
        S[HID] -= 1


# ----------------------------------------------------------------------------- Python side
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
    kernel.encode_deck(S, state, PHASE_CODE)
    for p in range(2):
        r = PSTEP * p
        for c in state.hands[p]:
            S[H + r + c] += 1
        S[HSIZE + r] = len(state.hands[p])
        for d in state.doors[p]:
            S[DR + r + cards.colour(d)] += 1
        row = state.rows[p]
        S[LAST + r] = row[-1] if row else NO_CARD
        S[SER + r] = board.open_series(row)
        S[ROWLEN + r] = len(row)
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
        if S[LAST + PSTEP * p] == NO_CARD:
            return 0
        return S[SER + PSTEP * p] if S[SER + PSTEP * p] != 0 else SERIES_LENGTH
    return {
        "phase": PHASE_NAMES[S[PH]], "turn": S[TURN],
        "hands": [S[H + PSTEP * p:H + PSTEP * p + NLOC] for p in range(2)],
        "shared": S[SH:SH + NLOC],
        "doors": [S[DR + PSTEP * p:DR + PSTEP * p + COLOURS] for p in range(2)],
        "last": [None if S[LAST + PSTEP * p] == NO_CARD else S[LAST + PSTEP * p]
                 for p in range(2)],
        "series": [series(0), series(1)], "rowlen": [S[ROWLEN + PSTEP * p] for p in range(2)],
        **kernel.decode_deck(S),
        "hidden": S[HID],
        "totals": (S[UTOT], S[HSIZE], S[HSIZE + PSTEP], S[SHS], S[NDOORS], S[LTOT]),
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
        **kernel.engine_deck_fields(state), "hidden": hidden,
        "totals": (sum(state.unknown), len(state.hands[0]), len(state.hands[1]),
                   len(state.shared), sum(len(d) for d in state.doors), len(state.limbo)),
    }


def diff(S, state) -> dict:
    a = decode(S)
    b = engine_fields(state)
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


