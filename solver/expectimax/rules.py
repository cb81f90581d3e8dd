"""Expectimax kernel (2/6), rule steps on the packed words: the known prefix as a stack,
shuffles, limbo, refills, the automatic steps (``advance``), the decisions' steps (a play
to the row and a series that completes, a discard, the drawn Door's options, the
Nightmare's options), the children of a decision node, and the canonical form of a
position (docs/EXPECTIMAX.md sections 2, 2a).  Each step is written once here; the search
(``search``) and the bound (``bound``) call it.

What this file keeps is the packed words' plumbing: the known prefix as a stack (and its
free cards), the limbo and reveal fields, where ``advance`` stops at a chance node or a PICK.
The rule decisions are the shared steps of :mod:`solver.steps`, the same calls as the other
kernels': ``hand_full`` / ``draw_next`` (end of turn, lost, draw), ``refill_card`` /
``door_waits`` / ``redraw_card`` / ``reveal_card`` (where a drawn card goes), ``limbo_back``,
``discard_foresees``, ``foresee_reveals``, ``may_gain_door``, ``prophecy_count``,
``doors_win``; the board's steps are :mod:`solver.board`'s.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from engine.rules import (DOORS_TO_WIN, FIRST_DOOR, HAND_SIZE, NO_CARD, NUM_LOCATION_TYPES,
                          PROPHECY_SIZE)
from engine.rules import PH_DOOR as DOOR
from engine.rules import PH_FORESEE as FORESEE
from engine.rules import PH_LOST as LOST
from engine.rules import PH_NIGHTMARE as NIGHTMARE
from engine.rules import NIGHTMARE as NM_CARD
from engine.rules import PH_PICK as PICK
from engine.rules import PH_PLAY as PLAY
from engine.rules import PH_PROPHECY as PROPHECY
from engine.rules import PH_REDRAW as REDRAW
from engine.rules import PH_REFILL as REFILL
from engine.rules import PH_REVEAL as REVEAL
from engine.rules import PH_WON as WON
from solver import board
from solver import steps
from solver.board import key_of, playable
from .fields import (DOORS_AT, HAND_AT, ROW_AT, doors_add, doors_get, doors_total,
                         drawn_get, drawn_set, free_get, free_set, hand_add, hand_get,
                         hand_size, left_get, left_set, limbo_door_get, limbo_n_get, phase_get,
                         phase_set, plen, plen_set, row_last, slot_get, slot_set, unk_add,
                         unk_get, unk_total)


@nb.njit(cache=True)
def pop_top(w2, w3):
    """Remove the top known card; returns (card, w2, w3)."""
    n = plen(w2)
    c = slot_get(w2, w3, n - 1)
    w2, w3 = slot_set(w2, w3, n - 1, 0)
    f = free_get(w3)
    if f > 0:
        w3 = free_set(w3, f - 1)
    return c, plen_set(w2, n - 1), w3


@nb.njit(cache=True)
def remove_slot(w2, w3, j):
    """Take the known card in slot j out of the deck (the cards above move down one slot;
    a free card taken out leaves one free card fewer)."""
    n = plen(w2)
    for i in range(j, n - 1):
        w2, w3 = slot_set(w2, w3, i, slot_get(w2, w3, i + 1))
    w2, w3 = slot_set(w2, w3, n - 1, 0)
    f = free_get(w3)
    if j >= n - f:
        w3 = free_set(w3, f - 1)
    return plen_set(w2, n - 1), w3


@nb.njit(cache=True)
def push_bottom(w2, w3, c):
    """A card revealed from the unknown part joins the known prefix below the known cards."""
    n = plen(w2)
    for j in range(n, 0, -1):
        w2, w3 = slot_set(w2, w3, j, slot_get(w2, w3, j - 1))
    w2, w3 = slot_set(w2, w3, 0, c)
    return plen_set(w2, n + 1), w3


@nb.njit(cache=True)
def shuffle_all(w0, w1, w2, w3, with_limbo):
    """Chance-mode shuffle: every deck card (and the limbo) becomes unknown."""
    n = plen(w2)
    for j in range(n):
        w0, w1 = unk_add(w0, w1, slot_get(w2, w3, j), 1)
    w2 = w2 & 0x7FFF          # keep limbo and left, drop the prefix
    w3 = np.int64(0)
    if with_limbo:
        for k in range(4):
            w0, w1 = unk_add(w0, w1, FIRST_DOOR + k, limbo_door_get(w2, k))
        w0, w1 = unk_add(w0, w1, NM_CARD, limbo_n_get(w2))
        w2 = w2 & ~np.int64(0xFFF)
    return w0, w1, w2, w3


@nb.njit(cache=True)
def to_limbo(w2, c):
    if c == NM_CARD:
        return w2 + (np.int64(1) << 8)
    return w2 + (np.int64(1) << (2 * (c - FIRST_DOOR)))


@nb.njit(cache=True)
def refill_with(w1, w2, c):
    """A card drawn while refilling the hand, where :func:`solver.steps.refill_card` and
    :func:`solver.steps.door_waits` send it."""
    go = steps.refill_card(c)
    if go == steps.GO_DOOR:
        k = c - FIRST_DOOR
        if not steps.door_waits(False, hand_get(w1, key_of(k)), doors_get(w1, k)):
            go = steps.GO_LIMBO
    if go == steps.GO_HAND:
        return hand_add(w1, c, 1), w2
    if go == steps.GO_LIMBO:
        return w1, to_limbo(w2, c)
    if go == steps.GO_DOOR:
        return drawn_set(phase_set(w1, DOOR), c - FIRST_DOOR), w2
    return phase_set(w1, NIGHTMARE), w2


@nb.njit(cache=True)
def redrawn(w1, w2, c):
    """A card drawn during the nightmare redraw (or the setup):
    :func:`solver.steps.redraw_card` (Locations to the hand, Doors and N to limbo)."""
    if steps.redraw_card(c) == steps.GO_HAND:
        return hand_add(w1, c, 1), w2
    return w1, to_limbo(w2, c)


@nb.njit(cache=True)
def revealed(w2, c):
    """A card revealed by the nightmare: :func:`solver.steps.reveal_card` (Locations to the
    discard pile, which this model does not keep, the rest to limbo)."""
    w2 = left_set(w2, left_get(w2) - 1)
    if steps.reveal_card(c) == steps.GO_DISCARD:
        return w2
    return to_limbo(w2, c)


@nb.njit(cache=True)
def advance(w0, w1, w2, w3):
    """Play every automatic step.  Returns (status, w0..w3): status is the phase of the
    decision or chance node reached, or WON / LOST."""
    while True:
        if steps.doors_win(doors_total(w1)):
            return WON, w0, w1, w2, w3
        ph = phase_get(w1)
        if ph == REFILL:
            nxt = steps.draw_next(steps.hand_full(hand_size(w1)), plen(w2) + unk_total(w0, w1))
            if nxt == steps.NEXT_FULL:
                if steps.limbo_back(w2 & 0xFFF):      # the limbo's fields (Doors, Nightmares)
                    w0, w1, w2, w3 = shuffle_all(w0, w1, w2, w3, True)
                return PLAY, w0, phase_set(w1, PLAY), w2, w3
            if nxt == steps.NEXT_LOST:
                return LOST, w0, w1, w2, w3
            n = plen(w2)
            if n == 0:
                return REFILL, w0, w1, w2, w3
            f = free_get(w3)
            if f >= 2 and slot_get(w2, w3, n - 1) != slot_get(w2, w3, n - f) and \
                    (slot_get(w2, w3, n - 1) >= FIRST_DOOR or hand_size(w1) + f > HAND_SIZE):
                # the player picks which of the free cards comes next (deferred order);
                # not when they are all Locations and the hand takes them all (every
                # order ends in the same hand, with no decision on the way)
                return PICK, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w1, w2 = refill_with(w1, w2, c)
            continue
        if ph == REDRAW:
            nxt = steps.draw_next(steps.hand_full(hand_size(w1)), plen(w2) + unk_total(w0, w1))
            if nxt == steps.NEXT_FULL:
                w1 = phase_set(w1, REFILL)
                continue
            if nxt == steps.NEXT_LOST:
                return LOST, w0, w1, w2, w3
            if plen(w2) == 0:
                return REDRAW, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w1, w2 = redrawn(w1, w2, c)
            continue
        if ph == REVEAL:
            if left_get(w2) == 0:
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) == 0:
                return REVEAL, w0, w1, w2, w3
            c, w2, w3 = pop_top(w2, w3)
            w2 = revealed(w2, c)
            continue
        if ph == FORESEE:
            size = plen(w2) + unk_total(w0, w1)
            if not steps.foresee_reveals(size):
                w1 = phase_set(w1, REFILL)
                continue
            if plen(w2) < steps.prophecy_count(size):
                return FORESEE, w0, w1, w2, w3
            return PROPHECY, w0, phase_set(w1, PROPHECY), w2, w3
        return ph, w0, w1, w2, w3


@nb.njit(inline="always", cache=True)
def nightmare_option(w0, w1, w2, act):
    """Option act of a Nightmare (solver.board's numbering: 0..3 discard the Key of colour
    act, 4..7 put a Door of colour act - 4 from play into limbo, 8 reveal the top min(5,
    deck) cards, 9 discard the hand and redraw).  The board part is the layer's
    ``nightmare_board``; the limbo and the reveal's count are this kernel's.  Returns
    (legal, w1, w2) of the position after it (w0, w3 unchanged)."""
    ok, b1 = board.nightmare_board(w1, HAND_AT, DOORS_AT, act)
    if not ok:
        return False, w1, w2
    kind, col = board.nightmare_kind(act)
    if kind == board.OPT_KEY:
        return True, phase_set(b1, REFILL), w2
    if kind == board.OPT_DOOR:
        return True, phase_set(b1, REFILL), to_limbo(w2, FIRST_DOOR + col)
    if kind == board.OPT_REVEAL:
        return True, phase_set(b1, REVEAL), left_set(w2, steps.prophecy_count(plen(w2) + unk_total(w0, w1)))
    return True, phase_set(b1, REDRAW), w2


@nb.njit(inline="always", cache=True)
def series_door(w0, w1, w2, w3, col):
    """A series of colour col completes: the Door of that colour leaves the deck (its
    topmost copy in the known prefix, else one from the unknown part) and enters play, and unless it was the last Door the deck is shuffled.  No Door of
    that colour in the deck: nothing happens."""
    got = False
    n = plen(w2)
    for j in range(n - 1, -1, -1):
        if slot_get(w2, w3, j) == FIRST_DOOR + col:
            w2, w3 = remove_slot(w2, w3, j)
            got = True
            break
    if not got and unk_get(w0, w1, FIRST_DOOR + col) > 0:
        w0, w1 = unk_add(w0, w1, FIRST_DOOR + col, -1)
        got = True
    if got:
        w1, won = board.gain_door(w1, DOORS_AT, col)
        if not won:
            w0, w1, w2, w3 = shuffle_all(w0, w1, w2, w3, False)
    return w0, w1, w2, w3


@nb.njit(inline="always", cache=True)
def play_to_row(w0, w1, w2, w3, c):
    """Location c, already out of the hand (w1), joins the row (the board layer's
    ``play_row``); a series it completes brings its colour's Door (``series_door``)."""
    w1, done = board.play_row(w1, ROW_AT, c)
    if done >= 0 and steps.may_gain_door(False, doors_get(w1, done)):
        return series_door(w0, w1, w2, w3, done)
    return w0, w1, w2, w3


@nb.njit(inline="always", cache=True)
def discarded(w1, c):
    """Location c, already out of the hand (w1), is discarded: a Key starts a prophecy
    (:func:`solver.steps.discard_foresees`)."""
    if steps.discard_foresees(c):
        return phase_set(w1, FORESEE)
    return w1


@nb.njit(inline="always", cache=True)
def door_option(w1, w2, k, act):
    """The drawn Door of colour k (w1: phase and drawn colour already cleared): act 0
    opens it with a Key of its colour from the hand, act 1 puts it in limbo.
    Returns (w1, w2)."""
    if act == 0:
        return doors_add(hand_add(w1, key_of(k), -1), k, 1), w2
    return w1, to_limbo(w2, FIRST_DOOR + k)


@nb.njit(inline="always", cache=True)
def decision_children(ph, w0, w1, w2, w3, rev, ch):
    """The children of a decision node in phase (status) ph, written to the rows of ch
    (at most 24); returns their number.  One child per distinct action: at play each card
    type played (when legal) and discarded, at a prophecy each distinct discard (the kept
    cards become free), at PICK each distinct free type drawn next (or each multiset the
    hand takes), at a Door open or not, at a Nightmare each legal option.  rev: generate
    them in reverse order (the helper thread of lazy SMP)."""
    nc = 0
    if ph == PLAY:
        last = row_last(w1)
        b1 = phase_set(w1, REFILL)
        for ci in range(NUM_LOCATION_TYPES):
            c = 11 - ci if rev else ci
            if hand_get(w1, c) == 0:
                continue
            h1 = hand_add(b1, c, -1)
            for act in range(2):
                if act == 0:
                    if not playable(last, c):
                        continue
                    a0, a1, a2, a3 = play_to_row(w0, h1, w2, w3, c)
                else:
                    a0 = w0
                    a1 = discarded(h1, c)
                    a2 = w2
                    a3 = w3
                ch[nc, 0] = a0
                ch[nc, 1] = a1
                ch[nc, 2] = a2
                ch[nc, 3] = a3
                nc += 1
    elif ph == PICK and slot_get(w2, w3, plen(w2) - 1) < NUM_LOCATION_TYPES:
        # every free card is a Location and the hand takes r < f of them (advance
        # draws them all when they fit): the first r drawn go to the hand in any order,
        # then the refill stops, so one child per multiset of r free cards
        n = plen(w2)
        f = free_get(w3)
        r = HAND_SIZE - hand_size(w1)
        for mi in range(1 << f):
            mask = ((1 << f) - 1 - mi) if rev else mi
            cnt = 0
            ok = True
            for i in range(f):
                if (mask >> i) & 1:
                    cnt += 1
                    if i > 0 and ((mask >> (i - 1)) & 1) == 0 and \
                            slot_get(w2, w3, n - f + i) == slot_get(w2, w3, n - f + i - 1):
                        ok = False
            if cnt != r or not ok:
                continue
            a1 = w1
            a2 = w2
            a3 = w3
            for i in range(f - 1, -1, -1):
                if (mask >> i) & 1:
                    a1 = hand_add(a1, slot_get(w2, w3, n - f + i), 1)
                    a2, a3 = remove_slot(a2, a3, n - f + i)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = a3
            nc += 1
    elif ph == PROPHECY or ph == PICK:
        # one child per distinct type among the top m known cards (sorted, so equal
        # types are neighbours): at a prophecy the discarded one (the others stay as
        # free cards), at PICK the free card drawn next
        n = plen(w2)
        if ph == PROPHECY:
            m = steps.prophecy_count(n + unk_total(w0, w1))
            base3 = free_set(w3, 0)
        else:
            m = free_get(w3)
            base3 = w3
        prev = -1
        for jj in range(m):
            j = n - m + jj if rev else n - 1 - jj
            t = slot_get(w2, w3, j)
            if t == prev:
                continue
            prev = t
            a2, a3 = remove_slot(w2, base3, j)
            if ph == PROPHECY:
                a1 = phase_set(w1, REFILL)
                a3 = free_set(a3, m - 1)
            else:
                a1, a2 = refill_with(w1, a2, t)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = a3
            nc += 1
    elif ph == DOOR:
        k = drawn_get(w1)
        b1 = drawn_set(phase_set(w1, REFILL), 0)
        for ai in range(2):
            act = 1 - ai if rev else ai
            a1, a2 = door_option(b1, w2, k, act)
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = w3
            nc += 1
    else:
        for ai in range(10):
            ok, a1, a2 = nightmare_option(w0, w1, w2, 9 - ai if rev else ai)
            if not ok:
                continue
            ch[nc, 0] = w0
            ch[nc, 1] = a1
            ch[nc, 2] = a2
            ch[nc, 3] = w3
            nc += 1
    return nc


@nb.njit(cache=True)
def children_of(ph, w0, w1, w2, w3, rev, ch):
    """:func:`decision_children` behind a call, for the sites that follow one line rather
    than search (the certificate's deferred prophecy): inlined at its two sites there, this
    large function was about 35 s of compile (``python -m benchmarks.bench_compile
    expectimax``)."""
    return decision_children(ph, w0, w1, w2, w3, rev, ch)


@nb.njit(cache=True)
def sort_top(w2, w3, k):
    """Sort the top k known cards (slots n-k .. n-1) by type: the canonical order of a set of
    revealed cards that the player is about to reorder at will (prophecy)."""
    n = plen(w2)
    for i in range(n - k + 1, n):
        j = i
        while j > n - k and slot_get(w2, w3, j - 1) > slot_get(w2, w3, j):
            a = slot_get(w2, w3, j - 1)
            b = slot_get(w2, w3, j)
            w2, w3 = slot_set(w2, w3, j - 1, b)
            w2, w3 = slot_set(w2, w3, j, a)
            j -= 1
    return w2, w3


@nb.njit(cache=True)
def canonical(w0, w1, w2, w3):
    """advance() and the canonical order of cards about to be reordered at will."""
    status, w0, w1, w2, w3 = advance(w0, w1, w2, w3)
    if status == PROPHECY:
        # the revealed cards are reordered at will: their order is irrelevant, and so is
        # the number of free cards (all of them are among the revealed ones)
        w2, w3 = sort_top(w2, free_set(w3, 0), steps.prophecy_count(plen(w2) + unk_total(w0, w1)))
    elif status == FORESEE:
        # every known card lies among the cards being revealed (fewer than 5 are known)
        w2, w3 = sort_top(w2, free_set(w3, 0), plen(w2))
    return status, w0, w1, w2, w3


@nb.njit(cache=True)
def advance_words(w0, w1, w2, w3):
    return advance(w0, w1, w2, w3)


@nb.njit(cache=True)
def canonical_rows(cw):
    """canonical() of every row of an (n, 4) array of positions: an (n, 5) array of status
    and words (for checks over many positions at once, e.g. a reveal's outcomes)."""
    out = np.empty((cw.shape[0], 5), np.int64)
    for i in range(cw.shape[0]):
        st, a0, a1, a2, a3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
        out[i, 0] = st
        out[i, 1] = a0
        out[i, 2] = a1
        out[i, 3] = a2
        out[i, 4] = a3
    return out
