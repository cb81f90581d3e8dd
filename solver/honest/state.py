"""The information-state kernel: honest Onirim in numba, chance mode, for one and two players.

The kernel's state is what a player may know (the information state), held in one flat
``int64`` array (layout below): the hand as counts per Location type, the last card of the row
and its open series, the Doors in play per colour, the *unknown* deck as counts per card type,
the known top cards of the deck (top first: cards a prophecy revealed), the limbo and discard
pile as counts, the phase, the drawn Door or Nightmare, and the cards still to reveal.  It is a
model of :mod:`engine.game` in chance mode: every step is the engine's step, and whenever the
engine would stop at a chance node the kernel stops too, in the same phase.

One turn for one and two players.  As :mod:`engine.game` keeps the number of players and the
player to move in its state, the array holds them in slots: ``NPL`` (1 or 2) and ``TURN`` (0
solo).  ``advance``, ``apply_action``, ``apply_chance``, ``legal`` and ``step`` below are the
turn of both games; where the games differ they ask ``NPL``: the zones the active player plays
from (solo its hand; two players its own cards and the shared ones, D2), which zone a refill
fills (:func:`missing_zone`), the setup's end (the hand, or the draft's centre, D1), the draft,
the exchange with a discard (D3), the turn flip (D8).  A player's slots (hand ``H``, Doors
``DR``, row ``LAST`` / ``SER`` / ``ROWLEN``, ``HSIZE``) are player 0's at the offsets below and
player p's at the same offsets plus ``PSTEP * p``; a solo array (``NS`` slots) stops before
player 1's block, a two-player one has ``NS_DUO``.  :mod:`solver.duo.info_state` holds the
two-player side (its encoding, the partner's hand dealt from the unknown cards while a view has
``HID`` > 0); the open game (the partner's hand known) is a two-player array with ``HID`` = 0,
played by the same turn.

Board rules.  The rule steps on the board are those of the packed board layer
(:mod:`solver.board`), called at the value level on the array's slots: ``board.playable`` (which
Location may follow the row's last card), ``board.series_step`` (a played Location's new series and
the colour whose series it completes), ``board.nightmare_option_zone`` / ``board.nightmare_kind``
(what each Nightmare option is), ``board.key_of`` / ``board.is_key``; a Door wins with the
layer's rule (every Door in play, ``DOORS_TO_WIN``).  The decisions of the turn's automatic part
(``advance``, the drawn card's steps ``_refill_with`` / ``_place_redrawn`` / ``_revealed``,
``_next_known``, ``_deck_phase``, what follows a discard) are the shared steps of
:mod:`solver.steps` (``hand_full``, ``fill_zone``, ``draft_dealt``, ``draft_done``,
``draw_next``, ``refill_card``, ``door_waits``, ``redraw_card``, ``reveal_card``,
``limbo_back``, ``discard_foresees``, ``foresee_reveals``, ``may_gain_door``,
``prophecy_count``): this file carries them out on its slots and stops where the engine
stops at a chance node.  The row's fields have the layer's meaning: ``LAST`` is ``NO_CARD`` (15) for
an empty row, ``SER`` is the open series, 1 or 2, and 0 when there is none (an empty row, or
the last card completed a series of 3).  :func:`decode` gives them back in engine terms.  The
deck model is counts plus a list of the unknown cards and the known top; its size
(:func:`deck_size`) leaves out the partner's hidden cards while a two-player view is undealt.

Draws.  A card taken from the unknown part of the deck is of type ``t`` with probability
``unknown[t] / total``.  The kernel keeps the unknown cards both as counts (``U``) and as a
list of their types (``ARR``, ``total`` entries in no meaningful order; encode() lays it out
sorted by type, so equal views give equal arrays).  Draw ``i`` of a playout with key ``k``
takes the word ``r = mix64(k + (i + 1) * GAMMA)`` of :mod:`engine.rng` (SplitMix64), picks the
list entry ``x = ((r >> 32) * total) >> 32`` (bias below total / 2**32 < 2e-8) and removes it by
moving the last entry into its place: one random index per draw, no scan over the types and no
shuffle (after a shuffle the deck is simply all unknown).  A playout is a pure function of
(state, key): no generator objects, and playout ``j`` of every action of a rollout sees the same
words (common random numbers).  The list order depends on the history of the state, never on
the hidden order of a real deck (the kernel has none).

The kernel is three modules: this one (the state, its steps and the legal actions),
:mod:`solver.honest.greedy` (the base policies) and :mod:`solver.honest.playouts` (playouts and
rollouts); :mod:`solver.honest.kernel` gathers their names in one namespace.

Actions are the engine's action integers (``engine.game`` layout; solo plays zone 0 only).

Python entry points: :func:`encode` (an engine chance-mode ``State``, e.g. a
:func:`engine.view.player_view`, to a kernel array), :func:`decode` and :func:`engine_fields`
(both sides as comparable dicts), :func:`diff` (the fields where they differ) and
:func:`legal_list`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import cards as card_codes
from engine import game
from engine.rules import (COLOURS, DEAL_PHASE_NAMES, FIRST_DOOR, HAND_SIZE, NO_CARD,
                          NUM_LOCATION_TYPES, NUM_TYPES, SERIES_LENGTH, TOTAL_CARDS)
from engine.rules import INFO_PHASE_NAMES

# absolute, not relative: benchmarks/bench_honest.py imports copies of this file (another
# commit's, or with one change undone) as modules of their own, outside the package
from solver import board
from solver import steps

PHASE_NAMES = INFO_PHASE_NAMES + ("draft",)

# ----------------------------------------------------------------------------- layout
# One layout for one and two players.  NPL holds the number of players (1 or 2) and TURN the
# player to move (0 solo).  A player's slots (own hand H, Doors DR, row LAST / SER / ROWLEN,
# hand size HSIZE) are player 0's at these offsets and player p's at the same offset plus
# PSTEP * p: a solo array stops before player 1's block (NS slots), a two-player one holds it
# (NS_DUO slots).  The deck model (U, D, L, PH .. LTOT, TOP, ARR) and the two-player fields
# (the shared cards SH and their count SHS, the partner's hidden cards HID, the viewer) are
# shared; the two-player fields stay zero in a solo array.
H = 0            # 12: hand counts per Location type (two players: own cards)
U = 12           # 17: unknown deck counts per type
D = 29           # 17: discard pile counts
L = 46           # 17: limbo counts (only Doors and Nightmares ever go there)
DR = 63          # 4: Doors in play per colour
LAST = 67        # last card of the row, NO_CARD (15) if the row is empty
SER = 68         # open series (solver.board): 1 or 2, 0 if none (empty row or completed)
ROWLEN = 69      # number of cards in the row
PH = 70          # phase (P_* below)
DRAWN = 71       # the Door or Nightmare awaiting a decision, else -1
LEFT = 72        # cards still to reveal (nightmare reveal)
NTOP = 73        # number of known top cards
UTOT = 74        # sum of the unknown counts (two players: with the partner's hidden cards)
HSIZE = 75       # cards in hand (two players: own cards)
NDOORS = 76      # Doors in play (both players)
LTOT = 77        # cards in limbo
NPL = 78         # the number of players, 1 or 2
TURN = 79        # the player to move (solo: 0)
TOP = 80         # known top cards, top first (up to TOP_CAP)
TOP_CAP = 32     # a chance-mode position knows at most a prophecy's cards
SH = TOP + TOP_CAP  # 12: two players: the shared cards (the centre of the draft)
SHS = SH + 12    # two players: shared cards
HID = SHS + 1    # two players: partner cards still inside the unknown multiset (a view)
VIEWER = HID + 1  # two players: whose view the array was encoded from
ARR = 128        # the unknown cards as a list of types (UTOT of them, any order)
NS = ARR + TOTAL_CARDS      # a solo array's length
PSTEP = NS       # player p's slots: the player-0 slot + PSTEP * p
NS_DUO = PSTEP + HSIZE + 1  # a two-player array's length
assert VIEWER < ARR and TOP_CAP >= steps.PROPHECY_SIZE and SH + NUM_LOCATION_TYPES == SHS
assert H + NUM_LOCATION_TYPES <= U and DR + COLOURS <= LAST and HSIZE < TOP

PHASE_CODE = {name: i for i, name in enumerate(PHASE_NAMES)}
P_PLAY, P_PROPHECY, P_DOOR, P_NIGHTMARE = (PHASE_CODE[n] for n in DEAL_PHASE_NAMES[:4])
P_SETUP, P_REFILL, P_REDRAW, P_REVEAL, P_FORESEE = (
    PHASE_CODE[n] for n in ("setup", "refill", "redraw", "reveal", "foresee"))
P_WON, P_LOST = PHASE_CODE["won"], PHASE_CODE["lost"]
P_DRAFT = PHASE_CODE["draft"]
assert P_SETUP <= P_REFILL <= P_FORESEE and P_DRAFT > P_LOST     # chance: setup..foresee

NIGHT = card_codes.NIGHTMARE
COUNTS = np.array(card_codes.COUNTS, dtype=np.int64)
A_PLAY, A_DISCARD, A_SWAP, A_PROPHECY = game.PLAY, game.DISCARD, game.SWAP, game.PROPHECY
A_DOOR_KEY, A_DOOR_LIMBO = game.DOOR_KEY, game.DOOR_LIMBO
A_NM_KEY, A_NM_DOOR, A_NM_REVEAL, A_NM_REDRAW = game.NM_KEY, game.NM_DOOR, game.NM_REVEAL, game.NM_REDRAW
A_DRAFT, A_DRAW = game.DRAFT, game.DRAW
NLOC = NUM_LOCATION_TYPES
ZONE_STRIDE = NLOC                 # PLAY + zone * NLOC + c (engine.actions)
SWAP_STRIDE = NLOC * NLOC          # SWAP + (zone * NLOC + c) * SWAP_STRIDE + a * NLOC + b
MAX_LEGAL = 128      # solo: plays and discards, the prophecy's orders
MAX_LEGAL_DUO = 256  # two players: plays, discards and exchanges (24 + 24 + 5 * 3 * 2 at most)
_REV_NAMES = 5   # apply_action holds the revealed cards in five names, rev0 .. rev4
assert steps.PROPHECY_SIZE <= _REV_NAMES and MAX_LEGAL >= steps.PROPHECY_SIZE * steps.PERM_STRIDE

# the prophecy's orders and the mixer are the shared ones (solver.steps); these names are
# this kernel's (its callers use them)
NPERM = steps.NPERM
PERMS = steps.PERMS
GAMMA = steps.GAMMA
mix64 = steps.mix64
word = steps.word
below = steps.below


# ----------------------------------------------------------------------------- generator


@njit(cache=True, inline="always")
def draw_unknown(S, key, i):
    """Draw ``i`` of stream ``key``: take a uniformly chosen unknown card out of the deck's
    unknown part and return its type (type t comes with probability unknown[t] / total)."""
    r = word(key, i)
    n = S[UTOT]
    x = below(r, n)
    t = S[ARR + x]
    S[ARR + x] = S[ARR + n - 1]
    S[UTOT] = n - 1
    S[U + t] -= 1
    return t


@njit(cache=True, inline="always")
def _remove_unknown(S, t):
    """Take one card of type ``t`` out of the unknown part (its count must be positive)."""
    n = S[UTOT]
    for x in range(n):
        if S[ARR + x] == t:
            S[ARR + x] = S[ARR + n - 1]
            break
    S[UTOT] = n - 1
    S[U + t] -= 1


@njit(cache=True, inline="always")
def _add_unknown(S, t):
    S[ARR + S[UTOT]] = t
    S[UTOT] += 1
    S[U + t] += 1


# ----------------------------------------------------------------------------- state
def set_unknown(S, counts) -> None:
    """The unknown part of ``S`` = ``counts`` per type: the counts ``U``, the list ``ARR``
    sorted by type (equal views give equal arrays) and ``UTOT`` (both kernels)."""
    n = 0
    for t in range(NUM_TYPES):
        S[U + t] = counts[t]
        for _ in range(counts[t]):
            S[ARR + n] = t
            n += 1
    S[UTOT] = n


def encode_deck(S, state, phase_code) -> None:
    """The deck-model slots of ``S`` from a chance-mode engine ``State`` or view (both
    kernels; ``phase_code`` is the kernel's phase numbering): the unknown part, the discard
    pile, the limbo, the known top, the phase, the drawn card and the cards left to reveal."""
    set_unknown(S, state.unknown)
    for c in state.discard:
        S[D + c] += 1
    for c in state.limbo:
        S[L + c] += 1
    S[LTOT] = len(state.limbo)
    S[PH] = phase_code[state.phase]
    S[DRAWN] = -1 if state.drawn is None else state.drawn
    S[LEFT] = state.left
    S[NTOP] = len(state.deck)
    for i, c in enumerate(state.deck):
        S[TOP + i] = c


def _initial_state() -> np.ndarray:
    """The array of a fresh chance-mode game before the setup draws (see new_game)."""
    S = np.zeros(NS, dtype=np.int64)
    set_unknown(S, COUNTS)
    assert S[UTOT] == TOTAL_CARDS
    S[LAST] = NO_CARD
    S[DRAWN] = -1
    S[PH] = P_SETUP
    S[NPL] = 1
    return S


INITIAL = _initial_state()


@njit(cache=True)
def new_game(S):
    """``S`` = a fresh chance-mode game before the setup draws (engine new_initial_state()):
    one copy of the template ``INITIAL`` (every field zero but the unknown counts and list,
    UTOT = 76, LAST = NO_CARD, DRAWN = -1, NPL = 1, phase setup)."""
    for i in range(NS):
        S[i] = INITIAL[i]


@njit(cache=True, inline="always")
def deck_size(S):
    """Cards in the deck: the known top and the unknown cards, less the partner's hidden
    cards (two players, a view not yet dealt; 0 solo)."""
    return S[NTOP] + S[UTOT] - S[HID]


@njit(cache=True, inline="always")
def _deck(S, npl):
    """:func:`deck_size` in the turn specialized to ``npl`` players (solo has no hidden
    cards)."""
    if npl == 1:
        return S[NTOP] + S[UTOT]
    return S[NTOP] + S[UTOT] - S[HID]


@njit(cache=True, inline="always")
def _pop_top(S):
    c = S[TOP]
    n = S[NTOP]
    for i in range(n - 1):
        S[TOP + i] = S[TOP + i + 1]
    S[NTOP] = n - 1
    return c


@njit(cache=True, _nrt=False)
def _shuffle(S, with_limbo):
    """The deck (and the limbo) becomes unknown: counts only.  (A rare step: a call, not
    inlined; see "The rare steps" below.)"""
    for i in range(S[NTOP]):
        _add_unknown(S, S[TOP + i])
    S[NTOP] = 0
    if with_limbo:
        for t in range(FIRST_DOOR, NUM_TYPES):
            for _ in range(S[L + t]):
                _add_unknown(S, t)
            S[L + t] = 0
        S[LTOT] = 0


@njit(cache=True, inline="always")
def _door_counted(S):
    """One more Door in play (its slot already counted by the caller); True if that wins (the
    rule of :func:`solver.steps.doors_win`: every Door in play), the phase then won."""
    S[NDOORS] += 1
    if steps.doors_win(S[NDOORS]):
        S[PH] = P_WON
        return True
    return False


@njit(cache=True, inline="always")
def _gain_door(S, npl, col):
    """A Door of colour ``col`` goes into play for the active player; True if that wins.  This
    kernel keeps the Doors as counts in array slots with their total beside them, not in a board
    word, so it does not call :func:`solver.board.gain_door` (which reads the total off a
    packed field)."""
    S[DR + PSTEP * _turn(S, npl) + col] += 1
    return _door_counted(S)


# ----------------------------------------------------------------------------- zones
# The active player's cards are one zone solo (its hand) and two with two players: zone 0 its
# own cards, zone 1 the shared ones (SH).  A solo array's shared slots stay zero.  The turn's
# steps take ``npl``, the number of players: the entry points (advance, apply_action,
# apply_chance) read it from the array and pass it on as a constant, so that numba compiles
# the solo turn without the two-player branches (see advance).
@njit(cache=True, inline="always")
def _turn(S, npl):
    """The player to move (0 solo)."""
    return 0 if npl == 1 else S[TURN]


@njit(cache=True, inline="always")
def zones(S):
    """How many zones the active player plays from: 1 solo, 2 with two players."""
    return 1 if S[NPL] == 1 else 2


@njit(cache=True, inline="always")
def zone_at(S, zone):
    """The first slot of a zone of the active player: 0 its own cards, 1 the shared cards."""
    if zone == 0:
        return H + PSTEP * S[TURN]
    return SH


@njit(cache=True, inline="always")
def _zone_take(S, npl, zone, c):
    if zone == 0:
        p = PSTEP * _turn(S, npl)
        S[H + p + c] -= 1
        S[HSIZE + p] -= 1
    else:
        S[SH + c] -= 1
        S[SHS] -= 1


@njit(cache=True, inline="always")
def _zone_put(S, npl, zone, c):
    if zone == 0:
        p = PSTEP * _turn(S, npl)
        S[H + p + c] += 1
        S[HSIZE + p] += 1
    else:
        S[SH + c] += 1
        S[SHS] += 1


@njit(cache=True, inline="always")
def _missing(S, npl):
    """The zone a refill or a redraw fills next, -1 when the hand is full: solo the hand
    (:func:`solver.steps.hand_full`); two players :func:`solver.steps.fill_zone` (D4: own
    cards first, then the shared ones)."""
    if npl == 1:
        return -1 if steps.hand_full(S[HSIZE]) else 0
    return steps.fill_zone(S[HSIZE + PSTEP * S[TURN]], S[SHS])


@njit(cache=True, inline="always")
def missing_zone(S):
    """:func:`_missing` for the array's number of players."""
    return _missing(S, S[NPL])


@njit(cache=True, inline="always")
def _active(S, npl, c):
    """Cards of type c the active player may use: its hand; two players own and shared."""
    if npl == 1:
        return S[H + c]
    return S[H + PSTEP * S[TURN] + c] + S[SH + c]


@njit(cache=True, inline="always")
def active_count(S, c):
    """:func:`_active` for the array's number of players."""
    return _active(S, S[NPL], c)


@njit(cache=True, inline="always")
def _lose_door(S, slot, col):
    """The Nightmare's Door option: the Door of colour ``col`` counted at ``slot`` goes from
    play to limbo."""
    S[slot] -= 1
    S[NDOORS] -= 1
    _to_limbo(S, FIRST_DOOR + col)


@njit(cache=True, inline="always")
def _take_drawn(S):
    """The drawn Door or Nightmare leaves the decision slot (the phase goes back to refill);
    returns it."""
    c = S[DRAWN]
    S[DRAWN] = -1
    S[PH] = P_REFILL
    return c


@njit(cache=True, inline="always")
def _start_reveal(S, size):
    """The Nightmare's reveal option, the deck holding ``size`` cards."""
    S[LEFT] = steps.prophecy_count(size)
    S[PH] = P_REVEAL


@njit(cache=True, inline="always")
def _to_limbo(S, c):
    S[L + c] += 1
    S[LTOT] += 1


@njit(cache=True, inline="always")
def _refill_with(S, npl, c):
    """A card drawn in a refill, where :func:`solver.steps.refill_card` and
    :func:`solver.steps.door_waits` (two players: D5) send it."""
    go = steps.refill_card(c)
    if go == steps.GO_DOOR:
        col = c - FIRST_DOOR
        if not steps.door_waits(npl > 1, _active(S, npl, board.key_of(col)),
                                S[DR + PSTEP * _turn(S, npl) + col]):
            go = steps.GO_LIMBO
    if go == steps.GO_HAND:
        _zone_put(S, npl, _missing(S, npl), c)
    elif go == steps.GO_LIMBO:
        _to_limbo(S, c)
    elif go == steps.GO_DOOR:
        S[PH] = P_DOOR
        S[DRAWN] = c
    else:
        S[PH] = P_NIGHTMARE
        S[DRAWN] = c


@njit(cache=True, inline="always")
def _place_redrawn(S, npl, c):
    """A card drawn in the setup or a redraw (:func:`solver.steps.redraw_card`): a Location to
    the zone being filled (two players' setup: the centre of the draft), else to limbo."""
    if steps.redraw_card(c) == steps.GO_HAND:
        if npl > 1 and S[PH] == P_SETUP:
            _zone_put(S, npl, 1, c)
        else:
            _zone_put(S, npl, _missing(S, npl), c)
    else:
        _to_limbo(S, c)


@njit(cache=True, inline="always")
def _revealed(S, c):
    """A card the Nightmare's reveal turns over (:func:`solver.steps.reveal_card`); both
    kernels."""
    S[LEFT] -= 1
    if steps.reveal_card(c) == steps.GO_DISCARD:
        S[D + c] += 1
    else:
        _to_limbo(S, c)


@njit(cache=True, inline="always")
def _foreseen(S, c):
    """A card the coming prophecy will look at, drawn from the unknown part: below the known
    top."""
    S[TOP + S[NTOP]] = c
    S[NTOP] += 1


@njit(cache=True, inline="always")
def _next_known(S, size):
    """advance's draw in the setup, a redraw or a refill (the hand not full), the deck
    holding ``size`` cards: the known top card, taken off the deck; -1 if the next card is
    unknown (a chance node); -2 if the deck is empty (:func:`solver.steps.draw_next`: the
    game is lost, the phase says so).  Both kernels."""
    if steps.draw_next(False, size) == steps.NEXT_LOST:
        S[PH] = P_LOST
        return -2
    if S[NTOP] == 0:
        return -1
    return _pop_top(S)


@njit(cache=True, inline="always")
def _deck_phase(S, ph, size):
    """advance's step in phase reveal or foresee (``ph``), the deck holding ``size`` cards:
    True to go on, False at a decision or a chance node."""
    if ph == P_REVEAL:
        if S[LEFT] == 0:
            S[PH] = P_REFILL
            return True
        if S[NTOP] == 0:
            return False
        _revealed(S, _pop_top(S))
        return True
    if not steps.foresee_reveals(size):
        S[PH] = P_REFILL
        return True
    if S[NTOP] >= steps.prophecy_count(size):
        S[PH] = P_PROPHECY
    return False


@njit(cache=True, inline="always")
def _setup_done(S, npl):
    """The setup's draws are over: solo the hand is full; two players the centre of the draft
    is dealt (D1, :func:`solver.steps.draft_dealt`)."""
    if npl == 1:
        return steps.hand_full(S[HSIZE])
    return steps.draft_dealt(S[SHS])


@njit(cache=True, inline="always")
def _end_turn(S, npl):
    """The hand is full again: the limbo goes back into the deck, the other player (two
    players, D8) is to move."""
    if steps.limbo_back(S[LTOT]):
        _shuffle(S, True)
    if npl > 1:
        S[TURN] = 1 - S[TURN]
    S[PH] = P_PLAY


# The rare steps: a known card drawn after a prophecy (:func:`_refill_known`) and a shuffle
# (:func:`_shuffle`) are functions of their own, called: numba compiles ``_refill_known``
# once per number of players (``npl`` reaches it as a literal constant, and numba prunes the
# other count's branches in a function typed for a literal argument).  The other steps are
# inlined: with the setup, the reveal, the foresight and the prophecy, Door and Nightmare
# decisions called too, whole games from the setup ran 7-26% slower.
@njit(cache=True, inline="always")
def _setup_step(S, npl):
    """advance's step in phase setup or redraw: True to go on, False at a decision (the
    setup's end) or a chance node."""
    ph = S[PH]
    if ph == P_SETUP and _setup_done(S, npl):
        if steps.limbo_back(S[LTOT]):
            _shuffle(S, True)
        S[PH] = P_PLAY if npl == 1 else P_DRAFT
        return False
    if ph == P_REDRAW and _missing(S, npl) < 0:         # the hand is redrawn
        S[PH] = P_REFILL
        return True
    c = _next_known(S, _deck(S, npl))
    if c < 0:
        return False
    _place_redrawn(S, npl, c)
    return True


@njit(cache=True, _nrt=False)
def _refill_known(S, npl, c):
    """advance's refill with the known top card ``c`` (after a prophecy)."""
    _refill_with(S, npl, c)


@njit(cache=True, inline="always")
def _advance(S, npl):
    """engine State._advance for ``npl`` players: every automatic step until a decision, a
    chance node or the end."""
    while True:
        ph = S[PH]
        if ph == P_SETUP or ph == P_REDRAW:
            if _setup_step(S, npl):
                continue
            return
        if ph == P_REFILL:
            if _missing(S, npl) < 0:
                _end_turn(S, npl)
                return
            c = _next_known(S, _deck(S, npl))
            if c < 0:
                return
            _refill_known(S, npl, c)
            if S[PH] != P_REFILL:
                return
            continue
        if ph == P_REVEAL or ph == P_FORESEE:
            if _deck_phase(S, ph, _deck(S, npl)):
                continue
            return
        return


# The entry points of the turn, one per number of players, each compiled once as a function
# of its own: ``advance``, ``apply_action``, ``_drawn`` for a solo array (the turn with ``npl``
# = 1: numba prunes the two-player branches on the constant) and ``advance_duo``,
# ``apply_action_duo``, ``drawn_duo`` for a two-player one (:mod:`solver.duo.info_state` gives
# them its plain names); the arrays of each family have one number of players by
# construction.  They are not inlined: numba types an inlined function again in every caller,
# and the turn inlined into each loop that steps a game was most of the kernels' compile time.
# The one loop where a call per step costs (the playout loop, about 5-25% of a playout's time)
# inlines the turn's ``*_inline`` forms instead, in one compiled function per number of
# players (solver.honest.playouts._play, solver.duo.info_playouts._play).
@njit(cache=True, inline="always")
def advance_inline(S, npl):
    """:func:`advance` for ``npl`` players (a constant), inlined where it is called."""
    _advance(S, npl)


@njit(cache=True, inline="always")
def apply_action_inline(S, a, npl):
    """:func:`apply_action` for ``npl`` players (a constant), inlined where it is called."""
    _apply(S, a, npl)


@njit(cache=True, inline="always")
def drawn_inline(S, t, npl):
    """:func:`_drawn` for ``npl`` players (a constant), inlined where it is called."""
    _drawn_n(S, npl, t)


@njit(cache=True, _nrt=False)
def advance(S):
    """engine State._advance of a solo array: every automatic step until a decision, a chance
    node or the end."""
    _advance(S, 1)


@njit(cache=True, _nrt=False)
def advance_duo(S):
    """:func:`advance` of a two-player array."""
    _advance(S, 2)


@njit(cache=True)
def is_chance(S):
    return S[PH] >= P_SETUP and S[PH] <= P_FORESEE


@njit(cache=True, inline="always")
def _drawn_rare(S, npl, t):
    """:func:`_drawn_n` outside a refill: the setup, a redraw, the reveal, the foresight."""
    ph = S[PH]
    if ph == P_SETUP or ph == P_REDRAW:
        _place_redrawn(S, npl, t)
    elif ph == P_REVEAL:
        _revealed(S, t)
    elif ph == P_FORESEE:
        _foreseen(S, t)


@njit(cache=True, inline="always")
def _drawn_n(S, npl, t):
    """What happens to a card of type ``t`` just taken from the unknown part (``npl``
    players)."""
    if S[PH] == P_REFILL:
        _refill_with(S, npl, t)
    else:
        _drawn_rare(S, npl, t)


@njit(cache=True, _nrt=False)
def _drawn(S, t):
    """What happens to a card of type ``t`` just taken from the unknown part (a solo array)."""
    _drawn_n(S, 1, t)


@njit(cache=True, _nrt=False)
def drawn_duo(S, t):
    """:func:`_drawn` of a two-player array."""
    _drawn_n(S, 2, t)


@njit(cache=True, _nrt=False)
def apply_chance(S, t):
    """engine State._apply_chance of a solo array: the next unknown card is of type ``t`` (no
    advance)."""
    _remove_unknown(S, t)
    _drawn(S, t)


@njit(cache=True, inline="always")
def _take_door_from_deck(S, col):
    d = FIRST_DOOR + col
    n = S[NTOP]
    for i in range(n):
        if S[TOP + i] == d:
            for j in range(i, n - 1):
                S[TOP + j] = S[TOP + j + 1]
            S[NTOP] = n - 1
            return True
    if S[U + d] > 0:
        _remove_unknown(S, d)
        return True
    return False


@njit(cache=True, inline="always")
def _apply_prophecy(S, a, size):
    """The prophecy decision ``a`` on the known top, the deck holding ``size`` cards: the
    chosen revealed card to the discard pile, the others back on top in the chosen order."""
    i, p = steps.prophecy_split(a - A_PROPHECY)
    k = steps.prophecy_count(size)
    m = k - 1
    rev0 = S[TOP]
    rev1 = S[TOP + 1]
    rev2 = S[TOP + 2]
    rev3 = S[TOP + 3]
    rev4 = S[TOP + 4]           # (the revealed cards held in five names: PROPHECY_SIZE <= 5)
    victim = S[TOP + i]
    S[D + victim] += 1
    for q in range(m):
        j = steps.kept_index(m, p, q, i)
        if j == 0:
            c = rev0
        elif j == 1:
            c = rev1
        elif j == 2:
            c = rev2
        elif j == 3:
            c = rev3
        else:
            c = rev4
        S[TOP + q] = c
    # the cards below the revealed ones move up one place
    n = S[NTOP]
    for j in range(k, n):
        S[TOP + j - 1] = S[TOP + j]
    S[NTOP] = n - 1
    S[PH] = P_REFILL


# _legal_prophecy keeps each outcome's code beside its action in one entry of ``out``:
# code << PROPHECY_CODE_BITS | action (a code, below NUM_TYPES ** PROPHECY_SIZE, and an
# action below 2 ** 16 fit in an int64), so the listing allocates nothing (callers compiled
# without reference counting may call it: solver.duo.open_kernel); ``out`` is int64
PROPHECY_CODE_BITS = 16
assert game.PROPHECY + steps.PROPHECY_SIZE * steps.PERM_STRIDE < 1 << PROPHECY_CODE_BITS


@njit(cache=True, inline="always")
def _legal_prophecy(S, out, size):
    """The prophecy's legal actions (one per distinct outcome, ascending) into ``out``, the
    deck holding ``size`` cards; returns how many."""
    k = steps.prophecy_count(size)
    m = k - 1
    n = 0
    for i in range(k):
        for p in range(NPERM[m]):
            code = S[TOP + i]
            for q in range(m):
                code = code * NUM_TYPES + S[TOP + steps.kept_index(m, p, q, i)]
            seen = False
            for x in range(n):
                if out[x] >> PROPHECY_CODE_BITS == code:
                    seen = True
                    break
            if not seen:
                out[n] = (code << PROPHECY_CODE_BITS) | steps.prophecy_action(i, p)
                n += 1
    for x in range(n):
        out[x] &= (1 << PROPHECY_CODE_BITS) - 1
    return n


@njit(cache=True, inline="always")
def _play(S, npl, p, c):
    """The active player ``p`` plays ``c`` (already taken from its zone) to its row; a
    completed series brings a Door of its colour out of the deck if the player may gain it
    (:func:`solver.steps.may_gain_door`, two players: D5)."""
    r = PSTEP * p
    ser, done = board.series_step(S[LAST + r], S[SER + r], c)
    S[SER + r] = ser
    S[LAST + r] = c
    S[ROWLEN + r] += 1
    S[PH] = P_REFILL
    if done >= 0 and steps.may_gain_door(npl > 1, S[DR + r + done]):
        if _take_door_from_deck(S, done):
            if _gain_door(S, npl, done):
                return
            _shuffle(S, False)


@njit(cache=True, inline="always")
def _zone_card(npl, x):
    """(zone, card) of a zone's card number ``x`` = zone * ZONE_STRIDE + card (solo: zone 0)."""
    if npl == 1:
        return 0, x
    return x // ZONE_STRIDE, x % ZONE_STRIDE


@njit(cache=True, inline="always")
def _discard(S, npl, p, a):
    """The discard ``a`` (two players: with the exchange of one own card with one shared
    card, D3)."""
    if npl == 1 or a < A_SWAP:
        zc = a - A_DISCARD
        ga = -1
        gb = -1
    else:
        x = a - A_SWAP
        zc = x // SWAP_STRIDE
        ga = (x % SWAP_STRIDE) // NLOC
        gb = x % NLOC
    zone, c = _zone_card(npl, zc)
    _zone_take(S, npl, zone, c)
    S[D + c] += 1
    if ga >= 0:                   # D3: exchange own ga with shared gb
        own = H + PSTEP * p
        S[own + ga] -= 1
        S[SH + gb] -= 1
        S[own + gb] += 1
        S[SH + ga] += 1
    S[PH] = P_FORESEE if steps.discard_foresees(c) else P_REFILL


@njit(cache=True, inline="always")
def _nightmare(S, npl, p, a):
    """The Nightmare's option ``a``: a Key from a zone, one of the active player's Doors to
    limbo (two players: D6), the reveal, or the hand (two players: own and shared cards, D4)
    discarded and redrawn."""
    S[D + _take_drawn(S)] += 1
    o, zone = board.nightmare_option_zone(a)
    kind, col = board.nightmare_kind(o)
    if kind == board.OPT_KEY:
        k = board.key_of(col)
        _zone_take(S, npl, zone, k)
        S[D + k] += 1
    elif kind == board.OPT_DOOR:
        _lose_door(S, DR + PSTEP * p + col, col)
    elif kind == board.OPT_REVEAL:
        _start_reveal(S, _deck(S, npl))
    else:
        own = H + PSTEP * p
        for c in range(NLOC):
            S[D + c] += S[own + c] + S[SH + c]
            S[own + c] = 0
            S[SH + c] = 0
        S[HSIZE + PSTEP * p] = 0
        S[SHS] = 0
        S[PH] = P_REDRAW


@njit(cache=True, inline="always")
def _apply(S, a, npl):
    """engine State._apply_decision for ``npl`` players and a legal action ``a`` (no
    advance)."""
    if S[PH] == P_PLAY:
        p = _turn(S, npl)
        if a < A_DISCARD:
            zone, c = _zone_card(npl, a - A_PLAY)
            _zone_take(S, npl, zone, c)
            _play(S, npl, p, c)
        else:
            _discard(S, npl, p, a)
    else:
        _apply_rare(S, a, npl)


@njit(cache=True, inline="always")
def _apply_rare(S, a, npl):
    """:func:`_apply` outside phase play: the prophecy, a Door, a Nightmare, the draft."""
    ph = S[PH]
    p = _turn(S, npl)
    if ph == P_PROPHECY:
        _apply_prophecy(S, a, _deck(S, npl))
    elif ph == P_DOOR:
        door = _take_drawn(S)
        if a == A_DOOR_LIMBO:
            _to_limbo(S, door)
        else:
            col = door - FIRST_DOOR
            k = board.key_of(col)
            _zone_take(S, npl, a - A_DOOR_KEY, k)
            S[D + k] += 1
            _gain_door(S, npl, col)
    elif ph == P_NIGHTMARE:
        _nightmare(S, npl, p, a)
    elif npl > 1 and ph == P_DRAFT:   # D1: a card from the centre; the other player drafts next
        c = a - A_DRAFT
        S[SH + c] -= 1
        S[SHS] -= 1
        S[H + PSTEP * p + c] += 1
        S[HSIZE + PSTEP * p] += 1
        S[TURN] = 1 - p
        if steps.draft_done(S[HSIZE], S[HSIZE + PSTEP]):
            S[PH] = P_PLAY


@njit(cache=True, _nrt=False)
def apply_action(S, a):
    """engine State._apply_decision of a solo array for a legal action ``a`` (no advance)."""
    _apply(S, a, 1)


@njit(cache=True, _nrt=False)
def apply_action_duo(S, a):
    """:func:`apply_action` of a two-player array."""
    _apply(S, a, 2)


# ----------------------------------------------------------------------------- legal actions
@njit(cache=True, inline="always")
def _present(S, z):
    """The card types a zone (from slot ``z``) holds, as bits: bit c set if S[z + c] > 0."""
    m = 0
    for c in range(NLOC):
        if S[z + c] > 0:
            m |= 1 << c
    return m


@njit(cache=True, inline="always")
def _legal_swaps(S, out, n):
    """The discards with an exchange (two players, D3: one own card for one shared card among
    those left after the discard) after the ``n`` actions in ``out``; returns the new count.
    The own and shared types are read once, as bits; a discarded card that was the last of
    its type in its zone drops its bit while the pairs are listed."""
    own_m = _present(S, H + PSTEP * S[TURN])
    sh_m = _present(S, SH)
    for zone in range(2):
        z = zone_at(S, zone)
        for c in range(NLOC):
            if S[z + c] == 0:
                continue
            om = own_m
            sm = sh_m
            if S[z + c] == 1:
                if zone == 0:
                    om &= ~(1 << c)
                else:
                    sm &= ~(1 << c)
            first = A_SWAP + (zone * ZONE_STRIDE + c) * SWAP_STRIDE
            for ga in range(NLOC):
                if (om >> ga) & 1 == 0:
                    continue
                m = sm & ~(1 << ga)
                gb = 0
                while (m >> gb) != 0:
                    if (m >> gb) & 1:
                        out[n] = first + ga * NLOC + gb
                        n += 1
                    gb += 1
    return n


@njit(cache=True)
def legal(S, out):
    """The legal actions (engine integers, ascending) into ``out``; returns how many."""
    ph = S[PH]
    p = S[TURN]
    nz = zones(S)
    n = 0
    if ph == P_PLAY:
        last = S[LAST + PSTEP * p]
        for zone in range(nz):
            z = zone_at(S, zone)
            for c in range(NLOC):
                if S[z + c] > 0 and board.playable(last, c):
                    out[n] = A_PLAY + zone * ZONE_STRIDE + c
                    n += 1
        for zone in range(nz):
            z = zone_at(S, zone)
            for c in range(NLOC):
                if S[z + c] > 0:
                    out[n] = A_DISCARD + zone * ZONE_STRIDE + c
                    n += 1
        if nz > 1:
            n = _legal_swaps(S, out, n)
    elif ph == P_PROPHECY:
        n = _legal_prophecy(S, out, deck_size(S))
    elif ph == P_DOOR:
        k = board.key_of(S[DRAWN] - FIRST_DOOR)
        for zone in range(nz):
            if S[zone_at(S, zone) + k] > 0:
                out[n] = A_DOOR_KEY + zone
                n += 1
        out[n] = A_DOOR_LIMBO
        n += 1
    elif ph == P_NIGHTMARE:                         # the engine's order
        for zone in range(nz):
            z = zone_at(S, zone)
            for col in range(COLOURS):
                if S[z + board.key_of(col)] > 0:      # a Key needs one in hand
                    out[n] = A_NM_KEY + zone * COLOURS + col
                    n += 1
        dr = DR + PSTEP * p
        for col in range(COLOURS):
            if S[dr + col] > 0:                       # a Door needs one in play
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


@njit(cache=True, _nrt=False)
def step(S, a):
    """apply_action then advance (the conformance harness's step)."""
    apply_action(S, a)
    advance(S)


@njit(cache=True, _nrt=False)
def chance_step(S, t):
    """apply_chance then advance."""
    apply_chance(S, t)
    advance(S)


@njit(cache=True, _nrt=False)
def step_duo(S, a):
    """:func:`step` of a two-player array (the turn compiled for two players only)."""
    apply_action_duo(S, a)
    advance_duo(S)


@njit(cache=True, _nrt=False)
def chance_step_duo(S, t):
    """:func:`chance_step` of a two-player array."""
    _remove_unknown(S, t)
    drawn_duo(S, t)
    advance_duo(S)


# ----------------------------------------------------------------------------- Python side
def encode(state) -> np.ndarray:
    """The kernel array of a solo chance-mode engine ``State`` (e.g. a player_view)."""
    if state.players != 1:
        raise ValueError("the honest kernel plays solo games only")
    if state.seed is not None:
        raise ValueError("encode needs a chance-mode state (engine.view.player_view)")
    if len(state.deck) > TOP_CAP:
        raise ValueError("too many known deck cards")
    S = np.zeros(NS, dtype=np.int64)
    S[NPL] = 1
    encode_deck(S, state, PHASE_CODE)
    for c in state.hands[0]:
        S[H + c] += 1
    for d in state.doors[0]:
        S[DR + card_codes.colour(d)] += 1
    row = state.rows[0]
    S[LAST] = row[-1] if row else NO_CARD
    S[SER] = board.open_series(row)
    S[ROWLEN] = len(row)
    S[HSIZE] = len(state.hands[0])
    S[NDOORS] = len(state.doors[0])
    return S


def _counts(cards, n=17):
    out = [0] * n
    for c in cards:
        out[c] += 1
    return out


def _engine_series(S) -> int:
    """The row's series in engine terms (engine.game.series_length: 1..3, 0 for an empty
    row) from the kernel's open series (0 also once a series of 3 completes)."""
    if S[LAST] == NO_CARD:
        return 0
    return S[SER] if S[SER] != 0 else SERIES_LENGTH


def decode_deck(S) -> dict:
    """The deck-model fields of a kernel array (either kernel; ``S`` a list of ints), as
    :func:`engine_deck_fields` gives them from the engine."""
    return {
        "unknown": S[U:U + NUM_TYPES],
        "unknown_list": _counts(S[ARR:ARR + S[UTOT]]),
        "discard": S[D:D + NUM_TYPES], "limbo": S[L:L + NUM_TYPES],
        "drawn": S[DRAWN], "left": S[LEFT], "top": S[TOP:TOP + S[NTOP]],
    }


def engine_deck_fields(state) -> dict:
    """The deck-model fields of a chance-mode engine ``State`` or view (either game)."""
    return {
        "unknown": list(state.unknown), "unknown_list": list(state.unknown),
        "discard": _counts(state.discard), "limbo": _counts(state.limbo),
        "drawn": -1 if state.drawn is None else state.drawn, "left": state.left,
        "top": list(state.deck),
    }


def decode(S) -> dict:
    """The kernel state as a dict of comparable fields (see :func:`engine_fields`)."""
    S = [int(x) for x in S]
    return {
        "phase": PHASE_NAMES[S[PH]],
        "hand": S[H:H + 12],
        "doors": S[DR:DR + 4],
        "last": None if S[LAST] == NO_CARD else S[LAST], "series": _engine_series(S),
        "rowlen": S[ROWLEN],
        **decode_deck(S),
        "totals": (S[UTOT], S[HSIZE], S[NDOORS], S[LTOT]),
    }


def engine_fields(state) -> dict:
    """The same fields computed from a solo chance-mode engine ``State``."""
    row = state.rows[0]
    return {
        "phase": state.phase,
        "hand": _counts(state.hands[0], 12),
        "doors": [state.doors[0].count(FIRST_DOOR + col) for col in range(COLOURS)],
        "last": row[-1] if row else None, "series": game.series_length(row), "rowlen": len(row),
        **engine_deck_fields(state),
        "totals": (sum(state.unknown), len(state.hands[0]), len(state.doors[0]),
                   len(state.limbo)),
    }


def diff(S, state) -> dict:
    """Fields where the kernel array ``S`` and the engine ``state`` differ: {field: (k, e)}."""
    a = decode(S)
    b = engine_fields(state)
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


def legal_list(S) -> list[int]:
    out = np.zeros(MAX_LEGAL if S[NPL] == 1 else MAX_LEGAL_DUO, dtype=np.int64)
    n = legal(S, out)
    return [int(x) for x in out[:n]]
