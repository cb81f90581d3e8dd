"""The deal-mode turn, written once for one and two players: the template of two generated modules.

The turn of the deal-mode kernels (``_advance``, ``_end_turn``, ``_act``, ``_apply``,
``_legal``) is written here once, with the player count a module constant, ``PLAYERS``, and
the code of one count under ``if PLAYERS == 1:`` / ``else:``.  The kernels do not import this
file: :mod:`solver.specialise` writes one module per player count from it,
``solver/clairvoyant/deal_turn.py`` (``PLAYERS = 1``, the solo layout of
:mod:`solver.clairvoyant.deal_kernel`) and ``solver/duo/deal_turn.py`` (``PLAYERS = 2``, the
layout of :mod:`solver.duo.kernel`), with every ``if`` on ``PLAYERS`` folded and the other
count's branch dropped.  numba then compiles each count's turn as if it had been written for
that count alone: nothing of the other layout reaches its type inference or its inliner
(docs/SOLVER.md, "One deal-mode turn, generated per player count").

Edit this file, then run ``python -m solver.specialise`` (``tests/project/test_generated.py``
fails while a generated module differs from what this file gives, and a generated module
refuses to import while its header's digest of this file and of the generator is not current).

What stays in the layout modules: where each field sits in the state words and its accessors
(``_phase``, ``_to_limbo``, ``_gain_door``, the zones of the two-player hands), the deck model
(:mod:`solver.clairvoyant.deal_kernel`, shared by both counts), encode and decode.  The turn
modules add the Python side that steps a position with the turn (``KernelState``,
``kernel_state``: the conformance test's and the tests' one-step use).  Every rule
decision of the turn is a shared step of :mod:`solver.steps`; the board's steps are
:mod:`solver.board`'s.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, FIRST_DOOR, PH_DOOR, PH_NIGHTMARE, PH_PLAY, PH_PROPHECY
from engine.rules import DEAL_LOST as PH_LOST
from engine.rules import NIGHTMARE as NIGHT
from engine.rules import NUM_LOCATION_TYPES as NLOC

from solver import board
from solver import steps
from solver.borrow import borrow as _borrow
from solver.clairvoyant.deal_kernel import A_DISCARD, A_DOOR_KEY, A_DOOR_LIMBO, A_PLAY
from solver.clairvoyant.deal_kernel import M_FORESEE, M_REDRAW, M_REFILL
from solver.clairvoyant.deal_kernel import _deck_counts, _deck_size, _pop, _prophecy_apply
from solver.clairvoyant.deal_kernel import _prophecy_legal, _shuffle
from solver.clairvoyant.deal_kernel import MOVES_BUF, new_wk

PLAYERS = 1         # the generator writes 1 or 2 here

if PLAYERS == 1:
    from solver.clairvoyant.deal_kernel import DOOR_SHIFT, DRAWN_SHIFT, HAND_AT, LDOOR_SHIFT
    from solver.clairvoyant.deal_kernel import ROW_AT, _gain_door, _hand_n, _hand_size, _phase
    from solver.clairvoyant.deal_kernel import _redraw_card, _set_phase, _to_limbo
    from solver.clairvoyant.deal_kernel import PHASE_NAMES, decode, encode
else:
    from engine.rules import DEAL_DRAFT as PH_DRAFT
    from solver.duo.kernel import A_DRAFT, A_NM_DOOR, A_NM_KEY, A_NM_REDRAW, A_NM_REVEAL, A_SWAP
    from solver.duo.kernel import DOORS_AT, DRAWN_SHIFT, LDOOR_MASK, LDOOR_SHIFT, OWN_BITS, OWN_W
    from solver.duo.kernel import SHARED_BITS, SHARED_SHIFT, TURN_SHIFT
    from solver.duo.kernel import _drawn, _gain_door, _has_door, _last, _ldoor_add
    from solver.duo.kernel import _missing_zone, _own_add, _own_n, _own_size, _phase, _row_at
    from solver.duo.kernel import _set_phase, _sh_add, _sh_n, _shuffle_keep, _to_limbo, _turn
    from solver.duo.kernel import _zone_add, _zone_n
    from solver.duo.kernel import PHASE_NAMES, decode, encode


@njit(cache=True, inline="always")
def _end_turn(st, perms, s_root, seed, counts):
    """The end of a turn: the limbo, if it holds a card (:func:`solver.steps.limbo_back`),
    goes back into the deck, which is shuffled; then (two players) the other player's turn."""
    if PLAYERS == 1:
        w0 = st[0]
        ld = (w0 >> LDOOR_SHIFT) & 0xFF
        ln = st[1] & 15
    else:
        w1 = st[1]
        ld = (w1 >> LDOOR_SHIFT) & 0xFF
        ln = w1 & 15
    if steps.limbo_back(ld | ln):
        _deck_counts(st, perms, s_root, counts)
        for col in range(COLOURS):
            counts[FIRST_DOOR + col] += (ld >> (2 * col)) & 3
        counts[NIGHT] += ln
        if PLAYERS == 1:
            st[0] = w0 & ~(np.int64(0xFF) << LDOOR_SHIFT)
            st[1] = st[1] & ~np.int64(15)
        else:
            st[1] = st[1] & ~LDOOR_MASK & ~np.int64(15)
        _shuffle(st, perms, s_root, seed, counts)
    if PLAYERS == 2:
        st[0] ^= np.int64(1) << TURN_SHIFT
    _set_phase(st, PH_PLAY)


@njit(cache=True, inline="always")
def _advance(st, perms, s_root, seed, mode, counts):
    """The automatic part (engine ``State._advance``) from ``mode`` up to the next decision
    or the end.  Every rule decision is a shared step of :mod:`solver.steps` (the hand full,
    or for two players the zone to fill; the deck empty; where a drawn card goes, with the
    two-player Door rule ``door_waits`` with ``duo``; the foresee); this loop pops the cards
    and writes them where this deck model keeps them."""
    if PLAYERS == 2:
        p = _turn(st)
    while True:
        if mode == M_FORESEE:
            if not steps.foresee_reveals(_deck_size(st)):
                mode = M_REFILL
                continue
            _set_phase(st, PH_PROPHECY)
            return
        if PLAYERS == 1:
            nxt = steps.draw_next(steps.hand_full(_hand_size(st[0])), _deck_size(st))
        else:
            z = _missing_zone(st, p)
            nxt = steps.draw_next(z < 0, _deck_size(st))
        if nxt == steps.NEXT_LOST:
            _set_phase(st, PH_LOST)
            return
        if mode == M_REDRAW:
            if nxt == steps.NEXT_FULL:
                mode = M_REFILL
                continue
            if PLAYERS == 1:
                _redraw_card(st, _pop(st, perms, s_root))
            else:
                c = _pop(st, perms, s_root)
                if steps.redraw_card(c) == steps.GO_HAND:
                    _zone_add(st, p, z, c, 1)
                else:
                    _to_limbo(st, c)
            continue
        # refill
        if nxt == steps.NEXT_FULL:
            _end_turn(st, perms, s_root, seed, counts)
            return
        c = _pop(st, perms, s_root)
        go = steps.refill_card(c)
        if go == steps.GO_DOOR:
            col = c - FIRST_DOOR
            if PLAYERS == 1:
                if not steps.door_waits(False, _hand_n(st[0], board.key_of(col)),
                                        board.doors_get(st[0], DOOR_SHIFT, col)):
                    go = steps.GO_LIMBO
            else:
                k = board.key_of(col)
                if not steps.door_waits(True, _own_n(st, p, k) + _sh_n(st, k),
                                        _has_door(st, p, col)):
                    go = steps.GO_LIMBO
        if go == steps.GO_HAND:
            if PLAYERS == 1:
                st[0] = board.hand_add(st[0], HAND_AT, c, 1)
            else:
                _zone_add(st, p, z, c, 1)
            continue
        if go == steps.GO_LIMBO:
            _to_limbo(st, c)
            continue
        if go == steps.GO_DOOR:
            _set_phase(st, PH_DOOR)
            st[0] = board.drawn_set(st[0], DRAWN_SHIFT, c - FIRST_DOOR)
            return
        _set_phase(st, PH_NIGHTMARE)
        return


@njit(cache=True, inline="always")
def _act(st, a, perms, s_root, seed, counts):
    """Apply legal action ``a`` (engine numbering) to ``st`` in place and return the
    automatic part that follows (``M_REFILL``, ``M_FORESEE`` or ``M_REDRAW``), or -1 when
    nothing follows (the game is won, or a card was drafted).  Only :func:`_apply` calls it."""
    ph = _phase(st)
    if PLAYERS == 2:
        p = _turn(st)
    if ph == PH_PLAY:
        if a < A_DISCARD:
            if PLAYERS == 1:
                c = a - A_PLAY
                w0, col = board.play_row(board.hand_add(st[0], HAND_AT, c, -1), ROW_AT, c)
                st[0] = w0
                gains = col >= 0 and steps.may_gain_door(False, board.doors_get(w0, DOOR_SHIFT,
                                                                                col))
            else:
                zone = (a - A_PLAY) // 12
                c = (a - A_PLAY) % 12
                _zone_add(st, p, zone, c, -1)
                w3, col = board.play_row(st[3], _row_at(p), c)
                st[3] = w3
                # a completed series earns its colour's Door if the player has none (D5)
                gains = col >= 0 and steps.may_gain_door(True, _has_door(st, p, col))
            if gains:
                _deck_counts(st, perms, s_root, counts)
                if counts[FIRST_DOOR + col] > 0:
                    counts[FIRST_DOOR + col] -= 1
                    if PLAYERS == 1:
                        if _gain_door(st, col):
                            return -1
                        _shuffle(st, perms, s_root, seed, counts)
                    else:
                        if _gain_door(st, p, col):
                            return -1
                        _shuffle_keep(st, perms, s_root, seed, counts)
            return M_REFILL
        if PLAYERS == 1:
            c = a - A_DISCARD
            st[0] = board.hand_add(st[0], HAND_AT, c, -1)
        elif a < A_SWAP:
            zone = (a - A_DISCARD) // 12
            c = (a - A_DISCARD) % 12
            _zone_add(st, p, zone, c, -1)
        else:
            x = a - A_SWAP
            zc = x // 144
            ab = x % 144
            zone = zc // 12
            c = zc % 12
            _zone_add(st, p, zone, c, -1)
            ga = ab // 12
            gb = ab % 12
            _own_add(st, p, ga, -1)
            _sh_add(st, gb, -1)
            _own_add(st, p, gb, 1)
            _sh_add(st, ga, 1)
        if steps.discard_foresees(c):
            return M_FORESEE
        return M_REFILL
    if ph == PH_PROPHECY:
        _prophecy_apply(st, a, perms, s_root)
        _set_phase(st, PH_PLAY)
        return M_REFILL
    if ph == PH_DOOR:
        if PLAYERS == 1:
            col = (st[0] >> DRAWN_SHIFT) & 3
            st[0] &= ~(np.int64(3) << DRAWN_SHIFT)
        else:
            col = _drawn(st)
            st[0] = board.drawn_set(st[0], DRAWN_SHIFT, 0)
        _set_phase(st, PH_PLAY)
        if a == A_DOOR_LIMBO:
            if PLAYERS == 1:
                _to_limbo(st, FIRST_DOOR + col)
            else:
                _ldoor_add(st, col)
        elif PLAYERS == 1:
            st[0] = board.hand_add(st[0], HAND_AT, board.key_of(col), -1)
            if _gain_door(st, col):
                return -1
        else:
            _zone_add(st, p, a - A_DOOR_KEY, board.key_of(col), -1)
            if _gain_door(st, p, col):
                return -1
        return M_REFILL
    if ph == PH_NIGHTMARE:
        _set_phase(st, PH_PLAY)
        if PLAYERS == 1:
            o = board.nightmare_option_of(a)
            kind, col = board.nightmare_kind(o)
            _ok, w0 = board.nightmare_board(st[0], HAND_AT, DOOR_SHIFT, o)
            st[0] = w0
            if kind == board.OPT_DOOR:
                _to_limbo(st, FIRST_DOOR + col)
        else:
            o, zone = board.nightmare_option_zone(a)
            kind, col = board.nightmare_kind(o)
            if kind == board.OPT_KEY:                 # a Key from own (zone 0) or shared cards
                _zone_add(st, p, zone, board.key_of(col), -1)
            elif kind == board.OPT_DOOR:              # one of the player's Doors to limbo
                st[0] = board.cnt_add(st[0], DOORS_AT + COLOURS * p, 1, col, -1)
                _ldoor_add(st, col)
        if kind == board.OPT_REVEAL:
            k = steps.prophecy_count(_deck_size(st))
            for _ in range(k):
                c = _pop(st, perms, s_root)
                if steps.reveal_card(c) == steps.GO_LIMBO:
                    _to_limbo(st, c)      # (this deck model keeps no discard pile)
        elif kind == board.OPT_REDRAW:
            if PLAYERS == 2:              # own and shared cards are discarded
                st[0] = board.cnt_clear(st[0], OWN_W * p, OWN_BITS, NLOC)
                st[3] = board.cnt_clear(st[3], SHARED_SHIFT, SHARED_BITS, NLOC)
            return M_REDRAW
        return M_REFILL
    if PLAYERS == 2:
        if ph == PH_DRAFT:
            c = a - A_DRAFT
            _sh_add(st, c, -1)
            _own_add(st, p, c, 1)
            st[0] ^= np.int64(1) << TURN_SHIFT
            if steps.draft_done(_own_size(st, 0), _own_size(st, 1)):
                _set_phase(st, PH_PLAY)
            return -1
    return -1


@njit(cache=True)
def _apply(st, a, perms, s_root, seed, counts):
    """Apply legal action ``a`` (engine numbering) to ``st`` in place, then run the automatic
    part up to the next decision or the end.  :func:`_act` applies the action and names the
    automatic part that follows (-1: none); it is called once here, so that ``_advance``,
    inlined, is compiled once rather than at each of the action's seven exits (which made
    this one function about two minutes of compile)."""
    st = _borrow(st)
    perms = _borrow(perms)
    counts = _borrow(counts)

    mode = _act(st, a, perms, s_root, seed, counts)
    if mode >= 0:
        _advance(st, perms, s_root, seed, mode, counts)


@njit(cache=True)
def _legal(st, perms, s_root, out):
    """Legal actions (engine numbering, ascending) into ``out``; returns their number.

    ``out`` must hold ``MOVES_BUF`` entries: the moves go to ``out[:n]`` (n < 128) and the
    prophecy enumeration uses the entries from index 128 up as scratch.
    """
    st = _borrow(st)
    perms = _borrow(perms)
    out = _borrow(out)

    ph = _phase(st)
    if PLAYERS == 1:
        w0 = st[0]
    else:
        p = _turn(st)
    n = 0
    if ph == PH_PLAY:
        if PLAYERS == 1:
            last = board.row_last(w0, ROW_AT)
            for c in range(NLOC):
                if _hand_n(w0, c) > 0 and board.playable(last, c):
                    out[n] = A_PLAY + c
                    n += 1
            for c in range(NLOC):
                if _hand_n(w0, c) > 0:
                    out[n] = A_DISCARD + c
                    n += 1
        else:
            last = _last(st, p)
            for zone in range(2):
                for c in range(NLOC):
                    if _zone_n(st, p, zone, c) > 0 and board.playable(last, c):
                        out[n] = A_PLAY + zone * 12 + c
                        n += 1
            for zone in range(2):
                for c in range(NLOC):
                    if _zone_n(st, p, zone, c) > 0:
                        out[n] = A_DISCARD + zone * 12 + c
                        n += 1
            for zone in range(2):
                for c in range(NLOC):
                    if _zone_n(st, p, zone, c) == 0:
                        continue
                    for ga in range(NLOC):
                        na = _own_n(st, p, ga)
                        if zone == 0 and ga == c:
                            na -= 1
                        if na <= 0:
                            continue
                        for gb in range(NLOC):
                            if gb == ga:
                                continue
                            nb = _sh_n(st, gb)
                            if zone == 1 and gb == c:
                                nb -= 1
                            if nb <= 0:
                                continue
                            out[n] = A_SWAP + (zone * 12 + c) * 144 + ga * 12 + gb
                            n += 1
        return n
    if ph == PH_PROPHECY:
        return _prophecy_legal(st, perms, s_root, out)
    if ph == PH_DOOR:
        if PLAYERS == 1:
            out[0] = A_DOOR_KEY
            out[1] = A_DOOR_LIMBO
            return 2
        else:
            col = _drawn(st)
            for zone in range(2):
                if _zone_n(st, p, zone, board.key_of(col)) > 0:
                    out[n] = A_DOOR_KEY + zone
                    n += 1
            out[n] = A_DOOR_LIMBO
            return n + 1
    if ph == PH_NIGHTMARE:
        if PLAYERS == 1:
            for o in range(board.NM_OPTIONS):
                ok, _w = board.nightmare_board(w0, HAND_AT, DOOR_SHIFT, o)
                if ok:
                    out[n] = board.nightmare_action_of(o)
                    n += 1
            return n
        else:
            for zone in range(2):
                for col in range(COLOURS):
                    if _zone_n(st, p, zone, board.key_of(col)) > 0:
                        out[n] = A_NM_KEY + zone * COLOURS + col
                        n += 1
            for col in range(COLOURS):
                if _has_door(st, p, col):
                    out[n] = A_NM_DOOR + col
                    n += 1
            out[n] = A_NM_REVEAL
            out[n + 1] = A_NM_REDRAW
            return n + 2
    if PLAYERS == 2:
        if ph == PH_DRAFT:
            for c in range(NLOC):
                if _sh_n(st, c) > 0:
                    out[n] = A_DRAFT + c
                    n += 1
            return n
    return 0


# ----------------------------------------------------------------------------- Python side


class KernelState:
    """A kernel position with its permutation buffer, stepped by this turn (for the
    conformance test, tests and one-step use)."""

    def __init__(self, st, perms, s_root, seed):
        self.st = st
        self.perms = perms
        self.s_root = s_root
        self.seed = seed
        self.counts = new_wk()
        self.buf = np.zeros(MOVES_BUF, dtype=np.int64)

    def legal_actions(self) -> list[int]:
        n = _legal(self.st, self.perms, self.s_root, self.buf)
        return [int(x) for x in self.buf[:n]]

    def apply(self, a: int) -> None:
        _apply(self.st, np.int64(a), self.perms, self.s_root, self.seed, self.counts)

    def phase(self) -> str:
        return PHASE_NAMES[int(_phase(self.st))]

    def decode(self) -> dict:
        return decode(self.st, self.perms, self.s_root)

    def key(self) -> tuple:
        return tuple(int(x) for x in self.st)


def kernel_state(state) -> KernelState:
    """A :class:`KernelState` of an engine State in deal mode (the layout's ``encode``)."""
    st, perms, s_root, seed = encode(state)
    return KernelState(st, perms, s_root, seed)
