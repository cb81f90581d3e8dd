"""Bit-packed numba kernel of two-player Onirim in deal mode (docs/DUO.md has the layout).

The board fields and the rule steps on them are the packed board layer's (:mod:`solver.board`),
bound here at the duo offsets: each row has the layer's row shape (last card 4 bits, open series
2 bits: 1 or 2, 0 for none) and goes through ``board.play_row``; a play needs ``board.playable``; the
Nightmare's options are ``board.nightmare_kind``'s; own hands, shared cards, Doors in play and Doors
in limbo are the layer's generic counters (``board.cnt_get`` / ``cnt_add`` / ``cnt_sum`` /
``cnt_clear``, 2, 4, 1 and 2 bits a counter); a Door wins with the layer's rule (every Door in
play, ``DOORS_TO_WIN``).  The decisions of the turn's automatic part are the shared steps of
:mod:`solver.steps`, the same calls as the solo kernel's and the two-player information-state
kernel's: ``fill_zone`` (own cards first, then the shared ones, D4), ``draw_next``,
``refill_card`` with the two-player ``door_waits`` / ``may_gain_door`` (D5), ``redraw_card``,
``reveal_card``, ``limbo_back``, ``discard_foresees``, ``foresee_reveals``, ``draft_done``.
What this file keeps is plumbing: where the two zones, the Doors per player and the limbo sit
in its words and their accessors, and the deck (the solo kernel's, by import).  The turn
(``_advance``, ``_end_turn``, ``_act`` with the swap's and the draft's moves, ``_apply``,
``_legal``) is in :mod:`solver.duo.deal_turn`, generated with the solo one from one template,
``solver/deal_turn_template.py`` (:mod:`solver.specialise`).

A duo state is four int64 words.  Words 1 and 2 are exactly the deck words of the solo kernel
(:mod:`solver.clairvoyant.deal_kernel`: ``st[1]`` = Nightmares in limbo, shuffle count, read position, prophecy
override, permutation length; ``st[2]`` = the multiset ``M`` the last shuffle permuted), so the
solo kernel's deck functions (``_pop``, ``_card_at``, ``_deck_size``, ``_deck_counts``,
``_shuffle``) and its permutation buffer and cache are used as they are, by import.  The rest:

word 0  own cards of player 0: 12 x 2 bits (count per Location type, at most 3), bits 0..23
        own cards of player 1: 12 x 2 bits, bits 24..47
        phase (3 bits, 48), active player (1 bit, 51), colour of the drawn Door (2 bits, 52),
        Doors of player 0 (4 bits, one per colour, 54), Doors of player 1 (4 bits, 58)
word 1  the solo deck word (bits 0..48), then Doors in limbo: 4 x 2 bits at 49
word 3  shared cards (the centre during the draft): 12 x 4 bits, bits 0..47
        row of player 0: last card type (4 bits, 48; 15 = NO_CARD: empty), open series (2, 52)
        row of player 1: last card type (4 bits, 54), open series (2, 58)
        (the open series as the board layer counts it: 1 or 2, 0 for an empty row or once
        the last card completed a series of 3)

Action integers are the engine's (``engine.game``: PLAY/DISCARD by zone, SWAP, PROPHECY,
DOOR_KEY by zone, NM_KEY by zone, DRAFT).  Public Python functions validate and convert; the
``_underscore`` functions are ``@njit(cache=True)`` kernels.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import game
from engine.rules import COLOURS, FIRST_DOOR, SERIES_LENGTH
from engine.rules import DEAL_DRAFT as PH_DRAFT
from engine.rules import DEAL_DUO_PHASE_NAMES as PHASE_NAMES
from engine.rules import DEAL_LOST as PH_LOST
from engine.rules import DEAL_WON as PH_WON
from engine.rules import NIGHTMARE as NIGHT
from engine.rules import NO_CARD as EMPTY
from engine.rules import NUM_LOCATION_TYPES as NLOC
from engine.rules import NUM_TYPES as NT
from engine.rules import PH_DOOR, PH_NIGHTMARE, PH_PLAY, PH_PROPHECY

from solver import board
from solver import steps
from solver.clairvoyant import deal_kernel as deal
from solver.clairvoyant.deal_kernel import _borrow, _card_at, _deck_counts, _deck_size, _fill_sfx
from solver.clairvoyant.deal_kernel import _pack_m, _pop, _prophecy_apply, _prophecy_legal, _shuffle
from solver.errors import UnsupportedPosition

NW = 4

# word 0
OWN_BITS = 2                         # own cards: at most 3 of a type
OWN_W = OWN_BITS * NLOC              # 24: player p's own cards at bit OWN_W * p
OWN_SHIFT = (0, OWN_W)
PHASE_SHIFT = 48
TURN_SHIFT = 51
DRAWN_SHIFT = 52
DOORS_AT = 54                        # one bit per colour per player: player p's at 54 + 4p
DOORS_SHIFT = (DOORS_AT, DOORS_AT + COLOURS)
# word 1 (above the solo deck fields, which end at bit 48)
LDOOR_SHIFT = 49                     # Doors in limbo: 4 x 2 bits
LDOOR_BITS = 2
LDOOR_MASK = np.int64(0xFF) << LDOOR_SHIFT
# word 3
SHARED_SHIFT = 0
SHARED_BITS = 4                      # the shared cards: up to 8 of a type during the draft
ROW_AT = 48                          # player p's row field (the board layer's shape) at 48 + 6p
ROW_W = board.SER_FROM_ROW + 2           # 6: last card 4 bits, open series 2 bits
LAST_SHIFT = (ROW_AT, ROW_AT + ROW_W)
SER_SHIFT = (ROW_AT + board.SER_FROM_ROW, ROW_AT + ROW_W + board.SER_FROM_ROW)

M_REFILL, M_REDRAW, M_FORESEE = 0, 1, 2

A_PLAY = game.PLAY
A_DISCARD = game.DISCARD
A_SWAP = game.SWAP
A_PROPHECY = game.PROPHECY
A_DOOR_KEY = game.DOOR_KEY
A_DOOR_LIMBO = game.DOOR_LIMBO
A_NM_KEY = game.NM_KEY
A_NM_DOOR = game.NM_DOOR
A_NM_REVEAL = game.NM_REVEAL
A_NM_REDRAW = game.NM_REDRAW
A_DRAFT = game.DRAFT
# the Nightmare's actions (engine.actions) map to the board layer's options by its
# nightmare_option_zone
MOVES_BUF = deal.MOVES_BUF     # moves in [0, 128), scratch above (as the solo kernel)
CODES_AT = deal.CODES_AT
REV_AT = deal.REV_AT
PERMS_TABLE = deal.PERMS_TABLE
NPERM = deal.NPERM

# ----------------------------------------------------------------------------- field access


@njit(cache=True, inline="always")
def _phase(st):
    return board.phase_get(st[0], PHASE_SHIFT)


@njit(cache=True, inline="always")
def _set_phase(st, ph):
    st[0] = board.phase_set(st[0], PHASE_SHIFT, ph)


@njit(cache=True, inline="always")
def _drawn(st):
    """The colour of the drawn Door (phase door)."""
    return board.drawn_get(st[0], DRAWN_SHIFT)


@njit(cache=True, inline="always")
def _turn(st):
    return (st[0] >> TURN_SHIFT) & 1


@njit(cache=True, inline="always")
def _own_n(st, p, c):
    return board.cnt_get(st[0], OWN_W * p, OWN_BITS, c)


@njit(cache=True, inline="always")
def _own_add(st, p, c, d):
    st[0] = board.cnt_add(st[0], OWN_W * p, OWN_BITS, c, d)


@njit(cache=True, inline="always")
def _own_size(st, p):
    return board.cnt_sum(st[0], OWN_W * p, OWN_BITS, NLOC)


@njit(cache=True, inline="always")
def _sh_n(st, c):
    return board.cnt_get(st[3], SHARED_SHIFT, SHARED_BITS, c)


@njit(cache=True, inline="always")
def _sh_add(st, c, d):
    st[3] = board.cnt_add(st[3], SHARED_SHIFT, SHARED_BITS, c, d)


@njit(cache=True, inline="always")
def _sh_size(st):
    return board.cnt_sum(st[3], SHARED_SHIFT, SHARED_BITS, NLOC)


@njit(cache=True, inline="always")
def _zone_n(st, p, zone, c):
    if zone == 0:
        return _own_n(st, p, c)
    return _sh_n(st, c)


@njit(cache=True, inline="always")
def _zone_add(st, p, zone, c, d):
    if zone == 0:
        _own_add(st, p, c, d)
    else:
        _sh_add(st, c, d)


@njit(cache=True, inline="always")
def _has_door(st, p, col):
    return board.cnt_get(st[0], DOORS_AT + COLOURS * p, 1, col)


@njit(cache=True, inline="always")
def _doors_total(st):
    return board.cnt_sum(st[0], DOORS_AT, 1, 2 * COLOURS)


@njit(cache=True, inline="always")
def _ldoor_n(st, col):
    return board.cnt_get(st[1], LDOOR_SHIFT, LDOOR_BITS, col)


@njit(cache=True, inline="always")
def _ldoor_add(st, col):
    st[1] = board.cnt_add(st[1], LDOOR_SHIFT, LDOOR_BITS, col, 1)


@njit(cache=True, inline="always")
def _row_at(p):
    """The bit of word 3 where player p's row field (the board layer's shape) starts."""
    return ROW_AT + ROW_W * p


@njit(cache=True, inline="always")
def _last(st, p):
    return board.row_last(st[3], _row_at(p))


@njit(cache=True, inline="always")
def _ser(st, p):
    return board.row_series(st[3], _row_at(p))


@njit(cache=True, inline="always")
def _missing_zone(st, p):
    """The zone player p's refill fills next (:func:`solver.steps.fill_zone`), -1 if none."""
    return steps.fill_zone(_own_size(st, p), _sh_size(st))


@njit(cache=True, inline="always")
def _shuffle_keep(st, perms, s_root, seed, counts):
    """The solo kernel's shuffle, keeping the Doors in limbo (it rewrites st[1])."""
    keep = st[1] & LDOOR_MASK
    _shuffle(st, perms, s_root, seed, counts)
    st[1] = (st[1] & ~LDOOR_MASK) | keep


@njit(cache=True, inline="always")
def _to_limbo(st, c):
    if c >= NIGHT:
        st[1] += 1
    else:
        _ldoor_add(st, c - FIRST_DOOR)


@njit(cache=True, inline="always")
def _gain_door(st, p, col):
    """Put a Door of colour col in play for player p (who has none of it); True if that wins
    (:func:`solver.steps.doors_win`: every Door in play).  The two-player game keeps its Doors
    per player, one bit a colour (a player holds at most one Door of a colour, ruling D5), so
    it cannot use the solo board word's Door field of :func:`solver.board.gain_door`."""
    st[0] = board.cnt_add(st[0], DOORS_AT + COLOURS * p, 1, col, 1)
    if steps.doors_win(_doors_total(st)):
        _set_phase(st, PH_WON)
        return True
    return False


# ----------------------------------------------------------------------------- Python side


def encode(state, perms=None):
    """Encode a two-player engine State in deal mode, at a decision or terminal phase.

    Returns (st, perms, s_root, seed); ``perms`` as in :func:`solver.clairvoyant.deal_kernel.encode`."""
    if state.players != 2:
        raise UnsupportedPosition("the duo kernel plays two-player games only")
    if state.seed is None or any(state.unknown):
        raise UnsupportedPosition("clairvoyant solving needs deal mode: a seed and a fully known deck")
    if state.phase not in PHASE_NAMES:
        raise UnsupportedPosition(f"cannot solve from phase {state.phase}")
    if state.shuffles > 160:   # + at most ~90 more in a game: the 8-bit field never wraps
        raise UnsupportedPosition("too many shuffles for the kernel")
    w0 = 0
    for p in range(2):
        for c in state.hands[p]:
            w0 += 1 << (OWN_W * p + OWN_BITS * c)
        for d in state.doors[p]:
            w0 |= 1 << (DOORS_AT + COLOURS * p + d - 12)
    w0 |= PHASE_NAMES.index(state.phase) << PHASE_SHIFT
    w0 |= state.turn << TURN_SHIFT
    if state.phase == "door":
        w0 |= (state.drawn - 12) << DRAWN_SHIFT
    w3 = 0
    for c in state.shared:
        w3 += 1 << (SHARED_BITS * c)
    for p in range(2):
        row = state.rows[p]
        last = row[-1] if row else EMPTY
        w3 |= last << LAST_SHIFT[p] | board.open_series(row) << SER_SHIFT[p]
    ln = 0
    ld = 0
    for c in state.limbo:
        if c == NIGHT:
            ln += 1
        else:
            ld += 1 << (2 * (c - 12))
    if perms is None:
        perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)
    else:
        perms[0, :] = 0
    deck = list(state.deck)
    perms[0, :len(deck)] = deck
    _fill_sfx(perms, 0, len(deck))
    s = state.shuffles
    w1 = ln | s << deal.S_SHIFT | len(deck) << deal.N_SHIFT | ld << LDOOR_SHIFT
    counts = np.zeros(NT, dtype=np.int64)
    for c in deck:
        counts[c] += 1
    st = np.zeros(NW, dtype=np.int64)
    st[0] = w0
    st[1] = w1
    st[2] = _pack_m(counts)
    st[3] = w3
    return st, perms, s, np.uint64(state.seed)


def decode(st, perms, s_root) -> dict:
    """The kernel state as plain Python values, in engine terms (sorted card lists)."""
    w0, w1, w3 = int(st[0]), int(st[1]), int(st[3])
    hands, doors, lasts, sers = [], [], [], []
    for p in range(2):
        h = []
        for c in range(NLOC):
            h += [c] * ((w0 >> (OWN_W * p + OWN_BITS * c)) & 3)
        hands.append(h)
        doors.append([12 + col for col in range(COLOURS)
                      if (w0 >> (DOORS_AT + COLOURS * p + col)) & 1])
        last = (w3 >> LAST_SHIFT[p]) & 15
        ser = (w3 >> SER_SHIFT[p]) & 3
        if last == EMPTY:             # engine terms: no last card, series 0
            last, ser = None, 0
        elif ser == 0:                # engine terms: the last card completed a series of 3
            ser = SERIES_LENGTH
        lasts.append(last)
        sers.append(ser)
    shared = []
    for c in range(NLOC):
        shared += [c] * ((w3 >> (SHARED_BITS * c)) & 15)
    limbo = []
    for col in range(4):
        limbo += [12 + col] * ((w1 >> (LDOOR_SHIFT + 2 * col)) & 3)
    limbo += [NIGHT] * (w1 & 15)
    ph = (w0 >> PHASE_SHIFT) & 7
    drawn = None
    if ph == PH_DOOR:
        drawn = 12 + ((w0 >> DRAWN_SHIFT) & 3)
    elif ph == PH_NIGHTMARE:
        drawn = NIGHT
    deck = [int(_card_at(st, perms, np.int64(s_root), i)) for i in range(int(_deck_size(st)))]
    return {"hands": hands, "shared": shared, "last": lasts, "series": sers, "doors": doors,
            "limbo": limbo, "deck": deck, "phase": PHASE_NAMES[ph], "drawn": drawn,
            "turn": (w0 >> TURN_SHIFT) & 1, "shuffles": (w1 >> deal.S_SHIFT) & 255}


def engine_view(state) -> dict:
    """The same fields read from an engine duo State (for differential tests)."""
    return {"hands": [list(h) for h in state.hands], "shared": list(state.shared),
            "last": [r[-1] if r else None for r in state.rows],
            "series": [game.series_length(r) for r in state.rows],
            "doors": [list(d) for d in state.doors], "limbo": list(state.limbo),
            "deck": list(state.deck), "phase": state.phase,
            "drawn": state.drawn if state.phase in ("door", "nightmare") else None,
            "turn": state.turn, "shuffles": state.shuffles}
