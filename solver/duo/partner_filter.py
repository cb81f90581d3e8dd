"""The partner's hand dealt consistently with its last turn (the silent game): a heuristic
filter on :func:`solver.duo.info_state.deal_partner`, as search in Hanabi samples the
partner's hand from the partner's public decisions (docs/DUO_LEVERS.md, "Partner hands
filtered by its last turn").

The partner's policy is taken to be the team's base ``plus2`` (the policy every playout plays
for both seats).  A dealt hand ``H`` is weighed by how well plus2 explains the partner's
*last turn action* (its play, discard or discard with exchange, public in ``view.history``):
weight 1 if plus2, in the partner's position at that decision, takes that action, ``eps``
otherwise.  Sampling: deal ``H`` as before; accept it with that weight; else deal again, up to
``cap`` deals, then fall back to the first (plain) deal.  ``eps`` = 1 accepts the first deal:
exactly the plain sampler.  The real partner plays the rollout, not plus2, so a hard filter
(``eps`` = 0) would reject its true hand where the two differ; ``eps`` comes from measuring how
often they do (``python -m benchmarks.partner_agreement``).

The partner's position at its last turn action, from public information only
(:func:`filter_spec`, Python, once per decision): it applies at the viewer's phase play, the
last turn action being the partner's (turns alternate, D8), and only if every decision after
it leaves hands, rows and Doors as they were (a prophecy, a Door to limbo, a Nightmare's
reveal); otherwise no filter.  With ``a`` the turn action, Location ``c`` from zone ``z``,
and (an exchange) own ``x`` given for shared ``y``:

* the partner's own cards then: the hand now, less ``y``, plus ``x``; from the own cards
  (``z`` = 0) plus ``c``, less the card drawn since (D4 refills the zone the card left), one of
  the dealt (hidden) cards chosen uniformly: the view cannot tell which;
* the shared cards then: now, less ``x``, plus ``y``; from the shared cards (``z`` = 1) the
  discarded ``c`` and ``y`` with an exchange, else ``c`` and one of the two shared cards now,
  chosen uniformly (the other is the refill: the view keeps no earlier shared cards);
* the partner's row then: without its last card after a play; a play that completed a series
  of a colour the partner holds a Door of is left unfiltered (the Door may be older: no
  record says);
* both players' Doors and the viewer's row: as now.

plus2's play decision reads nothing else (the own and shared cards, both rows, both players'
Doors: :func:`solver.duo.info_greedy.plus2_with`), so the rest of the array is the view's.
The spec reads ``view.history``, rows, Doors, shared and known partner cards only: permuting
the unknown cards changes nothing (the hidden-order test).

The words: deal ``t`` = 0 uses the plain deal's key itself; deal ``t`` > 0 the key
``word(key ^ SALT_FILTER, 4 t)``, and each deal's choices (the drawn card, the shared
alternative, the acceptance) ``word(key ^ SALT_FILTER, 4 t + 1 .. 3)``: one counter-based
stream, so the same (view, key) gives the same hand.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import cards
from engine.actions import DISCARD, DOOR_LIMBO, DOOR_KEY, NM_REVEAL, PROPHECY, SWAP
from engine.rules import NO_CARD

from solver import board
from solver.duo.info_greedy import BASES, base_action_call
from solver.duo.info_state import (H, HID, LAST, NLOC, NS, P_PLAY, PH, PSTEP, SER, SH,
                                   SWAP_STRIDE, TURN, VIEWER, ZONE_STRIDE, below, deal_partner,
                                   word)

SALT_FILTER = np.uint64(0xA54FF53A5F1D36F1)
# the spec's slots (one int64 array): a header, the partner's position then without its
# dealt cards (NS slots), the shared alternatives (2 x NLOC), a scratch position (NS), then
# (``memo`` slots, the playouts' number) playout j's kept deal plus one (0: not dealt yet):
# playout j deals the same hand after every candidate (common random numbers), so the deals
# are tried once per j, not once per candidate
ON, OBS, DRAW1, THRESH, CAP, NOPT, BASE = range(7)
HEAD = 8
POS = HEAD
SHO = POS + NS
WORK = SHO + 2 * NLOC
SIZE = WORK + NS
DEFAULT_CAP = 16
ONE = 1 << 32            # THRESH: accept a disagreeing hand if a word's top 32 bits < THRESH


def plain_spec(memo: int = 0) -> np.ndarray:
    """A spec that filters nothing (the plain deal), with ``memo`` playouts' slots."""
    return np.zeros(SIZE + memo, dtype=np.int64)


def threshold(eps: float) -> int:
    return min(ONE, int(round(float(eps) * ONE)))


def _turn_action(a: int):
    """(play, zone, card, exchange (own given, shared taken) or None) of turn action ``a``."""
    if a < DISCARD:
        z, c = divmod(a, ZONE_STRIDE)
        return True, z, c, None
    if a < SWAP:
        z, c = divmod(a - DISCARD, ZONE_STRIDE)
        return False, z, c, None
    zc, xy = divmod(a - SWAP, SWAP_STRIDE)
    z, c = divmod(zc, ZONE_STRIDE)
    return False, z, c, divmod(xy, NLOC)


# decisions after the turn action that leave hands, rows and Doors unchanged
_QUIET = (DOOR_LIMBO, NM_REVEAL)


def _last_turn(view):
    """The partner's last turn action, or None where the filter does not apply."""
    if view.phase != "play" or view.turn != view.viewer:
        return None
    hist = view.history()
    k = len(hist) - 1
    while k >= 0 and hist[k] >= PROPHECY:
        if not (hist[k] < DOOR_KEY or hist[k] in _QUIET):   # prophecy or a quiet one
            return None
        k -= 1
    return hist[k] if k >= 0 else None


def filter_spec(view, S, eps: float, base: str = "plus2", cap: int = DEFAULT_CAP,
                memo: int = 0):
    """The spec of the filter at the duo ``view`` (its array ``S``, :func:`encode`), or the
    plain spec where it does not apply (the module doc); ``memo``: the playouts' number."""
    F = plain_spec(memo)
    a = _last_turn(view)
    if a is None or S[HID] == 0:
        return F
    p = 1 - view.viewer
    play, z, c, ex = _turn_action(a)
    if z == 0 and S[HID] == 1:          # the one hidden card is the one drawn since: the hand
        return F                        # then is public, every deal explains the action alike
    known = list(view.hands[p])
    own = [0] * NLOC                              # the partner's public own cards then
    for t in known:
        own[t] += 1
    shared = list(view.shared)
    if ex is not None:
        x, y = ex
        if own[y] == 0 or x not in shared:
            return F
        own[y] -= 1
        own[x] += 1
        shared.remove(x)
        shared.append(y)
    if z == 0:
        own[c] += 1
        opts = [shared]
    elif ex is not None:
        opts = [[c, y]]
    else:
        opts = [[c, s] for s in sorted(set(view.shared))]
    P = F[POS:POS + NS]
    P[:] = S
    P[TURN] = p
    P[PH] = P_PLAY
    P[HID] = 0
    P[H + PSTEP * p:H + PSTEP * p + NLOC] = own
    if play:
        row = list(view.rows[p])
        if not row or row[-1] != c:
            return plain_spec(memo)
        before = row[:-1]
        if board.open_series(row) == 0 and any(cards.colour(d) == cards.colour(c)
                                               for d in view.doors[p]):
            return plain_spec(memo)
        P[LAST + PSTEP * p] = before[-1] if before else NO_CARD
        P[SER + PSTEP * p] = board.open_series(before)
    for i, o in enumerate(opts):
        for t in o:
            F[SHO + i * NLOC + t] += 1
    F[ON] = 1
    F[OBS] = a
    F[DRAW1] = 1 if z == 0 else 0
    F[THRESH] = threshold(eps)
    F[CAP] = cap
    F[NOPT] = len(opts)
    F[BASE] = BASES[base]
    return F


@njit(cache=True)
def _accepts(S, S0, F, fkey, t):
    """Whether deal ``t`` (in ``S``, dealt from ``S0``) is kept: plus2 at the partner's
    position then takes the action seen, or a word falls below the threshold."""
    p = 1 - S0[VIEWER]
    own = H + PSTEP * p
    W = F[WORK:WORK + NS]
    for i in range(NS):
        W[i] = F[POS + i]
    for c in range(NLOC):
        W[own + c] += S[own + c] - S0[own + c]
    if F[DRAW1] == 1:                     # the card drawn since: one of the dealt cards
        r = below(word(fkey, 4 * t + 1), S0[HID])
        for c in range(NLOC):
            got = S[own + c] - S0[own + c]
            if r < got:
                W[own + c] -= 1
                break
            r -= got
    o = below(word(fkey, 4 * t + 2), F[NOPT])
    for c in range(NLOC):
        W[SH + c] = F[SHO + o * NLOC + c]
    if base_action_call(W, F[BASE]) == F[OBS]:
        return True
    return np.int64(word(fkey, 4 * t + 3) >> np.uint64(32)) < F[THRESH]


@njit(cache=True)
def deal_filtered(S, S0, key, F, j):
    """:func:`solver.duo.info_state.deal_partner` of ``S`` (a copy of the view ``S0``) with
    stream ``key`` (playout ``j``'s), filtered by the spec ``F`` (the module doc); returns
    the deals tried (0: no filter)."""
    if F[ON] == 0:
        deal_partner(S, key)
        return 0
    fkey = key ^ SALT_FILTER
    m = SIZE + j
    if m < len(F) and F[m] > 0:          # playout j's deal, kept before
        t = F[m] - 1
        deal_partner(S, key if t == 0 or t == F[CAP] else word(fkey, 4 * t))
        return 0
    t = _tries(S, S0, key, F, fkey)
    if m < len(F):
        F[m] = t + 1
    return t + 1


@njit(cache=True)
def _tries(S, S0, key, F, fkey):
    """The deals of :func:`deal_filtered`: the one kept in ``S``, returns its number ``t``
    (``CAP``: none, the plain deal)."""
    deal_partner(S, key)
    for t in range(F[CAP]):
        if t > 0:
            for i in range(NS):
                S[i] = S0[i]
            deal_partner(S, word(fkey, 4 * t))
        if _accepts(S, S0, F, fkey, t):
            return t
    for i in range(NS):
        S[i] = S0[i]
    deal_partner(S, key)
    return F[CAP]
