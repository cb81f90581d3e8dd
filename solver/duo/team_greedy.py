"""The open game's team base policy ``team``: ``duo-greedy-plus`` with each seat reading both
hands (issue 47, item 3).

In the open game (``--talk open``, ``docs/DUO.md``) both hands are face up, so the seat to move
may read its partner's own cards, the partner's row and Doors as well as its own.  This base is
:func:`solver.duo.info_greedy.greedy_plus` (the seat's own greedy-plus decision, which
:func:`solver.duo.info_greedy.base_action` passes to :func:`team_of`: this module does not
import that one) with these changes, each of which reads the partner's side:

* **the discard** (phase play, where greedy-plus discards): the card is the one of the lowest
  *team* discard rank, greedy's rank (:func:`solver.steps.discard_rank`) in which a shared card
  of a colour the partner still needs (D5: it holds no Door of it) counts as needed, so that
  the seat does not discard from the centre a card its partner could use;
* **the exchange** (D3, with that discard): one own card for one shared card, when the own
  card is worth more to the partner than the shared one (:func:`partner_use`: a colour the
  partner needs, more for a Key and for a card that continues the partner's open series).
  The seat keeps the use of both cards (it may play shared cards), the partner gains the one
  put in the centre;
* **the Nightmare's Key**: the Key discarded is the one of the lowest team rank, a Key of a
  colour the partner needs counting as needed.

Everything else (the play decision, the prophecy, the Nightmare's other options, the drawn
Door, the draft) is greedy-plus's.  Legal in the open game only: from a silent view the
partner's hand in a playout is a sampled one, and a base that reads it would act on a guess
as if it were seen.
:class:`solver.duo.rollout.DuoKRollout` refuses ``base=team`` on a view that hides partner
cards.  ``tests/solver/duo/test_team_greedy.py`` checks this kernel against a readable Python
version (:func:`solver.duo.team_reference.team_action_py`, plain Python over engine states,
kept out of this kernel file) at every decision of many games, and the legality of every
action.
"""
from __future__ import annotations

from numba import njit

from engine.rules import NO_CARD, SYMBOLS

from solver import board
from solver import steps
from solver.duo.info_state import (A_DISCARD, A_NM_KEY, A_SWAP, DR, H, LAST, NLOC, OWN_STEP,
                                   P_NIGHTMARE, P_PLAY, PH, PSTEP, SER, SH, SWAP_STRIDE, TURN,
                                   ZONE_STRIDE)

KEY_SYM = SYMBOLS - 1                  # a colour's Key is its last symbol (engine.cards)
NO_USE = 0


# ----------------------------------------------------------------------------- the partner
@njit(cache=True, inline="always")
def partner_use(S, q, c):
    """How much player ``q`` could use Location ``c`` if it were in the centre (0: not at all):
    0 if q holds a Door of c's colour (D5), else 1, plus 1 for a Key, plus 2 if c continues
    q's open series of that colour (same colour, another symbol than the row's last card)."""
    col = c // SYMBOLS
    if S[DR + PSTEP * q + col] != 0:
        return NO_USE
    v = 1
    if c % SYMBOLS == KEY_SYM:
        v += 1
    last = S[LAST + PSTEP * q]
    if (last != NO_CARD and last // SYMBOLS == col and S[SER + PSTEP * q] != 0
            and board.playable(last, c)):
        v += 2
    return v


@njit(cache=True, inline="always")
def _team_needed(S, p, col, shared_only):
    """The colour counts as needed in the team discard rank: p needs it, or the card is a
    shared one (``shared_only``) and p's partner needs it."""
    if S[DR + PSTEP * p + col] == 0:
        return 1
    if shared_only and S[DR + PSTEP * (1 - p) + col] == 0:
        return 1
    return 0


@njit(cache=True, inline="always")
def team_discard_rank(S, p, c, shared_only):
    """Greedy's discard rank of Location c for player p (lower = discarded first) with the
    team's "needed" (:func:`_team_needed`); ``shared_only``: c is held only in the centre."""
    col = c // SYMBOLS
    own = H + OWN_STEP * p
    last = S[LAST + PSTEP * p]
    s_col = -1 if last == NO_CARD else last // SYMBOLS      # the open series, as greedy's
    s_len = 0 if last == NO_CARD else S[SER + PSTEP * p]
    return steps.discard_rank_in(c, col, _team_needed(S, p, col, shared_only), s_col, s_len,
                                 steps.hand_count(S, own, SH, True, col))


@njit(cache=True, inline="always")
def _team_discard(S):
    """(zone, card) of the team discard: the lowest team rank over own and shared cards, a card
    held in both zones ranked and discarded as an own card."""
    p = S[TURN]
    own = H + OWN_STEP * p
    best = -1
    best_r = steps.NO_RANK
    for c in range(NLOC):
        if S[own + c] + S[SH + c] == 0:
            continue
        r = team_discard_rank(S, p, c, S[own + c] == 0)
        if r < best_r:
            best_r = r
            best = c
    return (0 if S[own + best] > 0 else 1), best


@njit(cache=True, inline="always")
def _team_swap(S, zone, c):
    """The exchange (own card, shared card) after discarding ``c`` from ``zone``: the pair with
    the largest gain partner_use(own) - partner_use(shared), if positive, ties by the smallest
    numbers; (-1, -1) for none."""
    p = S[TURN]
    q = 1 - p
    own = H + OWN_STEP * p
    best_a = -1
    best_b = -1
    best_g = 0
    for a in range(NLOC):
        na = S[own + a] - (1 if zone == 0 and a == c else 0)
        if na <= 0:
            continue
        ua = partner_use(S, q, a)
        if ua == NO_USE:
            continue
        for b in range(NLOC):
            nb = S[SH + b] - (1 if zone == 1 and b == c else 0)
            if nb <= 0 or b == a:
                continue
            g = ua - partner_use(S, q, b)
            if g > best_g:
                best_g = g
                best_a = a
                best_b = b
    return best_a, best_b


@njit(cache=True, inline="always")
def _team_play(S, a):
    """Phase play: greedy-plus's play ``a`` is kept; a discard becomes the team discard with
    its exchange (if any)."""
    if a < A_DISCARD:
        return a
    zone, c = _team_discard(S)
    ga, gb = _team_swap(S, zone, c)
    if ga < 0:
        return A_DISCARD + zone * ZONE_STRIDE + c
    return A_SWAP + (zone * ZONE_STRIDE + c) * SWAP_STRIDE + ga * NLOC + gb


@njit(cache=True, inline="always")
def _team_nightmare_key(S):
    """At a Nightmare where greedy-plus discards a Key: the held Key of the lowest team rank
    (a Key of a colour the partner needs counts as needed), from the own cards if held there."""
    p = S[TURN]
    own = H + OWN_STEP * p
    best = -1
    best_r = steps.NO_RANK
    for col in range(4):
        k = board.key_of(col)
        if S[own + k] + S[SH + k] == 0:
            continue
        r = team_discard_rank(S, p, k, True)
        if r < best_r:
            best_r = r
            best = col
    return A_NM_KEY + (0 if S[own + board.key_of(best)] > 0 else 1) * 4 + best


@njit(cache=True)
def team_of(S, a):
    """The team base's action at the decision state ``S`` (both hands known: ``HID`` = 0) from
    greedy-plus's action ``a`` there (:func:`solver.duo.info_greedy.base_action` passes it).
    An ordinary call, not inlined: ``base_action`` is inlined at every call site, and this
    body would be typed again at each, for a base that no default plays."""
    ph = S[PH]
    if ph == P_PLAY:
        return _team_play(S, a)
    if ph == P_NIGHTMARE and a >= A_NM_KEY and a < A_NM_KEY + 8:
        return _team_nightmare_key(S)
    return a


__all__ = ["team_of", "partner_use", "team_discard_rank"]
