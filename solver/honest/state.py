"""The information-state playout kernel: honest solo Onirim in numba, chance mode.

The kernel's state is what a solo player may know (the information state), held in one flat
``int64`` array (layout below): the hand as counts per Location type, the last card of the row
and its open series, the Doors in play per colour, the *unknown* deck as counts per card type,
the known top cards of the deck (top first: cards a prophecy revealed), the limbo and discard
pile as counts, the phase, the drawn Door or Nightmare, and the cards still to reveal.  It is a
model of :mod:`engine.game` in chance mode: every step is the engine's step, and whenever the
engine would stop at a chance node the kernel stops too, in the same phase.

Board rules.  The rule steps on the board are those of the packed board layer
(:mod:`solver.board`), called at the value level on the array's slots: ``board.playable`` (which
Location may follow the row's last card), ``board.series_step`` (a played Location's new series and
the colour whose series it completes), ``board.nightmare_kind`` (what each Nightmare option is),
``board.key_of`` / ``board.is_key``; a Door wins with the layer's rule (every Door in play,
``DOORS_TO_WIN``).  The decisions of the turn's automatic part (``advance``, the drawn card's
steps ``_refill_with`` / ``_place_redrawn`` / ``_revealed``, ``_next_known``, ``_deck_phase``,
what follows a discard) are the shared steps of :mod:`solver.steps` (``hand_full``,
``draw_next``, ``refill_card``, ``door_waits``, ``redraw_card``, ``reveal_card``,
``limbo_back``, ``discard_foresees``, ``foresee_reveals``, ``may_gain_door``,
``prophecy_count``): this file carries them out on its slots and stops where the engine
stops at a chance node.  The row's fields have the layer's meaning: ``LAST`` is ``NO_CARD`` (15) for
an empty row, ``SER`` is the open series, 1 or 2, and 0 when there is none (an empty row, or
the last card completed a series of 3).  :func:`decode` gives them back in engine terms.  This
kernel keeps its own deck model (counts plus a list of the unknown cards, the known top) and
its Door-from-deck, limbo and discard steps.  The two-player information-state kernel
(:mod:`solver.duo.info_state`) holds the same deck model at the same slots (``U``, ``D``,
``L``, ``PH`` .. ``LTOT``, ``TOP``, ``ARR``: the "deck-model slots" below) and imports its
steps from here: the unknown part (draw, add, remove), the known top (pop, Door taken from the
deck), the shuffle, limbo, the reveal, the prophecy (its legal orders and its apply), the
drawn card's phase steps and the Door count's win.  Each takes the deck size where the two
games differ (the two-player deck excludes the partner's hidden hand while a view is
undealt).

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

Actions are the engine's action integers (``engine.game`` layout, solo zone 0).

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
from engine.rules import INFO_PHASE_NAMES as PHASE_NAMES

# absolute, not relative: benchmarks/bench_honest.py imports copies of this file (another
# commit's, or with one change undone) as modules of their own, outside the package
from solver import board
from solver import steps

# ----------------------------------------------------------------------------- layout
# The deck-model slots (U, D, L, PH, DRAWN, LEFT, NTOP, UTOT, NDOORS, LTOT, TOP, ARR) are also
# the two-player information-state kernel's (solver.duo.info_state), which imports the steps
# below that use them; the others (H, DR, LAST, SER, ROWLEN, HSIZE) are solo only.
H = 0            # 12: hand counts per Location type
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
UTOT = 74        # sum of the unknown counts
HSIZE = 75       # cards in hand
NDOORS = 76      # Doors in play
LTOT = 77        # cards in limbo
TOP = 80         # known top cards, top first (up to 76)
ARR = 160        # the unknown cards as a list of types (UTOT of them, any order)
NS = 240         # array length

PHASE_CODE = {name: i for i, name in enumerate(PHASE_NAMES)}
P_PLAY, P_PROPHECY, P_DOOR, P_NIGHTMARE = (PHASE_CODE[n] for n in DEAL_PHASE_NAMES[:4])
P_SETUP, P_REFILL, P_REDRAW, P_REVEAL, P_FORESEE = (
    PHASE_CODE[n] for n in ("setup", "refill", "redraw", "reveal", "foresee"))
P_WON, P_LOST = PHASE_CODE["won"], PHASE_CODE["lost"]

NIGHT = card_codes.NIGHTMARE
COUNTS = np.array(card_codes.COUNTS, dtype=np.int64)
A_PLAY, A_DISCARD, A_PROPHECY = game.PLAY, game.DISCARD, game.PROPHECY
A_DOOR_KEY, A_DOOR_LIMBO = game.DOOR_KEY, game.DOOR_LIMBO
A_NM_KEY, A_NM_DOOR, A_NM_REVEAL, A_NM_REDRAW = game.NM_KEY, game.NM_DOOR, game.NM_REVEAL, game.NM_REDRAW
A_DRAW = game.DRAW
MAX_LEGAL = 128
_REV_NAMES = 5   # apply_action holds the revealed cards in five names, rev0 .. rev4
assert steps.PROPHECY_SIZE <= _REV_NAMES and MAX_LEGAL >= steps.PROPHECY_SIZE * steps.PERM_STRIDE

# the prophecy's orders and the mixer are the shared ones (solver.steps); these names are
# this kernel's (its callers use them)
NPERM = steps.NPERM
PERMS = steps.PERMS
GAMMA = steps.GAMMA
mix64 = steps.mix64
word = steps.word


# ----------------------------------------------------------------------------- generator


@njit(cache=True, inline="always")
def draw_unknown(S, key, i):
    """Draw ``i`` of stream ``key``: take a uniformly chosen unknown card out of the deck's
    unknown part and return its type (type t comes with probability unknown[t] / total)."""
    r = word(key, i)
    n = S[UTOT]
    x = np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
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
    return S


INITIAL = _initial_state()


@njit(cache=True)
def new_game(S):
    """``S`` = a fresh chance-mode game before the setup draws (engine new_initial_state()):
    one copy of the template ``INITIAL`` (every field zero but the unknown counts and list,
    UTOT = 76, LAST = NO_CARD, DRAWN = -1, phase setup)."""
    for i in range(NS):
        S[i] = INITIAL[i]


@njit(cache=True, inline="always")
def deck_size(S):
    return S[NTOP] + S[UTOT]


@njit(cache=True, inline="always")
def _pop_top(S):
    c = S[TOP]
    n = S[NTOP]
    for i in range(n - 1):
        S[TOP + i] = S[TOP + i + 1]
    S[NTOP] = n - 1
    return c


@njit(cache=True, inline="always")
def _shuffle(S, with_limbo):
    """The deck (and the limbo) becomes unknown: counts only."""
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
def _gain_door(S, col):
    """A Door of colour ``col`` goes into play; True if that wins.  This kernel keeps the
    Doors as counts in array slots with their total beside them, not in a board word, so it
    does not call :func:`solver.board.gain_door` (which reads the total off a packed field)."""
    S[DR + col] += 1
    return _door_counted(S)


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
def _refill_with(S, c):
    """A card drawn in a refill, where :func:`solver.steps.refill_card` and
    :func:`solver.steps.door_waits` send it."""
    go = steps.refill_card(c)
    if go == steps.GO_DOOR:
        col = c - FIRST_DOOR
        if not steps.door_waits(False, S[H + board.key_of(col)], S[DR + col]):
            go = steps.GO_LIMBO
    if go == steps.GO_HAND:
        S[H + c] += 1
        S[HSIZE] += 1
    elif go == steps.GO_LIMBO:
        _to_limbo(S, c)
    elif go == steps.GO_DOOR:
        S[PH] = P_DOOR
        S[DRAWN] = c
    else:
        S[PH] = P_NIGHTMARE
        S[DRAWN] = c


@njit(cache=True, inline="always")
def _place_redrawn(S, c):
    """A card drawn in the setup or a redraw (:func:`solver.steps.redraw_card`)."""
    if steps.redraw_card(c) == steps.GO_HAND:
        S[H + c] += 1
        S[HSIZE] += 1
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
def advance(S):
    """engine State._advance: every automatic step until a decision, a chance node or the end."""
    while True:
        ph = S[PH]
        if ph == P_SETUP or ph == P_REDRAW:
            if steps.hand_full(S[HSIZE]):
                if ph == P_SETUP:
                    if steps.limbo_back(S[LTOT]):
                        _shuffle(S, True)
                    S[PH] = P_PLAY
                    return
                S[PH] = P_REFILL
                continue
            c = _next_known(S, S[NTOP] + S[UTOT])
            if c < 0:
                return
            _place_redrawn(S, c)
            continue
        if ph == P_REFILL:
            if steps.hand_full(S[HSIZE]):
                if steps.limbo_back(S[LTOT]):  # end of turn: limbo shuffled back
                    _shuffle(S, True)
                S[PH] = P_PLAY
                return
            c = _next_known(S, S[NTOP] + S[UTOT])
            if c < 0:
                return
            _refill_with(S, c)
            if S[PH] != P_REFILL:
                return
            continue
        if ph == P_REVEAL or ph == P_FORESEE:
            if _deck_phase(S, ph, S[NTOP] + S[UTOT]):
                continue
            return
        return


@njit(cache=True)
def is_chance(S):
    return S[PH] >= P_SETUP and S[PH] <= P_FORESEE


@njit(cache=True, inline="always")
def apply_chance(S, t):
    """engine State._apply_chance: the next unknown card is of type ``t`` (no advance)."""
    _remove_unknown(S, t)
    _drawn(S, t)


@njit(cache=True, inline="always")
def _drawn(S, t):
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


@njit(cache=True, inline="always")
def _legal_prophecy(S, out, size):
    """The prophecy's legal actions (one per distinct outcome, ascending) into ``out``, the
    deck holding ``size`` cards; returns how many."""
    k = steps.prophecy_count(size)
    m = k - 1
    codes = np.empty(steps.PERM_STRIDE * steps.PROPHECY_SIZE, dtype=np.int64)
    nc = 0
    n = 0
    for i in range(k):
        for p in range(NPERM[m]):
            code = S[TOP + i]
            for q in range(m):
                code = code * NUM_TYPES + S[TOP + steps.kept_index(m, p, q, i)]
            seen = False
            for x in range(nc):
                if codes[x] == code:
                    seen = True
                    break
            if not seen:
                codes[nc] = code
                nc += 1
                out[n] = steps.prophecy_action(i, p)
                n += 1
    return n


@njit(cache=True, inline="always")
def apply_action(S, a):
    """engine State._apply_decision (solo) for a legal action ``a`` (no advance)."""
    ph = S[PH]
    if ph == P_PLAY:
        if a < A_DISCARD:
            c = a - A_PLAY
            S[H + c] -= 1
            S[HSIZE] -= 1
            ser, done = board.series_step(S[LAST], S[SER], c)
            S[SER] = ser
            S[LAST] = c
            S[ROWLEN] += 1
            S[PH] = P_REFILL
            if done >= 0 and steps.may_gain_door(False, S[DR + done]):
                col = done
                if _take_door_from_deck(S, col):
                    if _gain_door(S, col):
                        return
                    _shuffle(S, False)
        else:
            c = a - A_DISCARD
            S[H + c] -= 1
            S[HSIZE] -= 1
            S[D + c] += 1
            S[PH] = P_FORESEE if steps.discard_foresees(c) else P_REFILL
    elif ph == P_PROPHECY:
        _apply_prophecy(S, a, S[NTOP] + S[UTOT])
    elif ph == P_DOOR:
        door = _take_drawn(S)
        if a == A_DOOR_LIMBO:
            _to_limbo(S, door)
        else:
            col = door - 12
            k = board.key_of(col)
            S[H + k] -= 1
            S[HSIZE] -= 1
            S[D + k] += 1
            _gain_door(S, col)
    elif ph == P_NIGHTMARE:
        S[D + _take_drawn(S)] += 1
        kind, col = board.nightmare_kind(board.nightmare_option_of(a))
        if kind == board.OPT_KEY:
            k = board.key_of(col)
            S[H + k] -= 1
            S[HSIZE] -= 1
            S[D + k] += 1
        elif kind == board.OPT_DOOR:
            _lose_door(S, DR + col, col)
        elif kind == board.OPT_REVEAL:
            _start_reveal(S, S[NTOP] + S[UTOT])
        else:
            for c in range(NUM_LOCATION_TYPES):
                S[D + c] += S[H + c]
                S[H + c] = 0
            S[HSIZE] = 0
            S[PH] = P_REDRAW


# ----------------------------------------------------------------------------- legal actions
@njit(cache=True)
def legal(S, out):
    """The legal actions (engine integers, ascending) into ``out``; returns how many."""
    ph = S[PH]
    n = 0
    if ph == P_PLAY:
        last = S[LAST]
        for c in range(NUM_LOCATION_TYPES):
            if S[H + c] > 0:
                if board.playable(last, c):
                    out[n] = A_PLAY + c
                    n += 1
        for c in range(NUM_LOCATION_TYPES):
            if S[H + c] > 0:
                out[n] = A_DISCARD + c
                n += 1
    elif ph == P_PROPHECY:
        n = _legal_prophecy(S, out, S[NTOP] + S[UTOT])
    elif ph == P_DOOR:
        out[0] = A_DOOR_KEY       # a Door waits for a decision only when its Key is in hand
        out[1] = A_DOOR_LIMBO
        n = 2
    elif ph == P_NIGHTMARE:
        for o in range(board.NM_OPTIONS):            # in the engine's order
            kind, col = board.nightmare_kind(o)
            if kind == board.OPT_KEY and S[H + board.key_of(col)] == 0:
                continue                          # a Key needs one in hand
            if kind == board.OPT_DOOR and S[DR + col] == 0:
                continue                          # a Door needs one in play
            out[n] = board.nightmare_action_of(o)
            n += 1
    return n


# ----------------------------------------------------------------------------- Python side
def encode(state) -> np.ndarray:
    """The kernel array of a solo chance-mode engine ``State`` (e.g. a player_view)."""
    if state.players != 1:
        raise ValueError("the honest kernel plays solo games only")
    if state.seed is not None:
        raise ValueError("encode needs a chance-mode state (engine.view.player_view)")
    if len(state.deck) > NS - TOP:
        raise ValueError("too many known deck cards")
    S = np.zeros(NS, dtype=np.int64)
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
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = legal(S, out)
    return [int(x) for x in out[:n]]
