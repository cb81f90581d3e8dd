"""A value function of the two-player kernel's state inside a playout (the partner's hand
dealt, both hands known): the Doors a playout's base policy ends with from there, estimated
by a logistic function of a few counts of the state (docs/DUO_BASES.md, "A value function for
the two-player playouts' tails").

A two-player playout with a horizon (:func:`solver.duo.info_playouts.playout_h`) stops at its
first decision after ``horizon`` draws and scores :func:`value_at` of the state there instead
of playing on.  The estimate is

    p = 1 / (1 + exp(-sum_i w_i * f_i)),     value = round(VMAX * p),  VMAX = 8 * DSCALE

over the features ``FEATURES`` (:func:`features`), with the weights of
:mod:`solver.duo.value_weights` for the playouts' base (written by
``python -m benchmarks.learn_duo_value``): ``p`` estimates the share of the 8 Doors in play
at the playout's end, so the value is the Doors reward (``reward=doors``) on a scale of
``DSCALE`` points a Door.  A cut rollout scores a finished playout ``DSCALE`` times its Doors,
so its rows stay small integers (at most 120: they fit the rollouts' ``int8`` tables, and the
paired tests of :mod:`solver.honest.screening` do not depend on the scale).

One fact is exact: a colour whose missing Doors (2 less both players' Doors of it) are more
than those still to come (in the deck, on its known top, in limbo, or the Door drawn and
waiting) can never be completed, the playout can no longer be won, and the value is then 0:
such a state is scored as a lost playout with no Doors (the Doors reward is a proxy for
winning; a deal that can no longer be won gets the worst score).  The fit leaves those states
out.

The features start with the solo value function's eight deck-and-Doors counts
(:func:`solver.honest.value.deck_head`: the same slots) and add the two seats' sides, each
read from the seat to move (``TURN``, "mover") and the other: the Locations and Keys in hand of
colours that seat still needs (D5: a seat holds at most one Door of a colour, so it needs the
colours it has no Door of), its open series if that seat needs the series' colour, the shared
cards of colours either seat needs, the colours both need, and the Door or Nightmare drawn and
waiting.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import FIRST_DOOR, NUM_LOCATION_TYPES, SYMBOLS

from solver.duo.info_greedy import BASES
from solver.duo.info_state import (DR, DRAWN, H, L, LAST, LTOT, NTOP, P_DOOR, P_NIGHTMARE, PH,
                                   PSTEP, SER, SH, TOP, TURN, U)
from solver.duo.value_weights import DUO_VWEIGHTS
from solver.honest.value import FEATURES as SOLO_FEATURES, deck_head, squash

DSCALE = 15                   # points of a row per Door: a won playout scores VMAX
VMAX = 8 * DSCALE             # 120 <= 127: rows fit int8
COLOURS4 = NUM_LOCATION_TYPES // SYMBOLS
KEY = SYMBOLS - 1             # a colour's Key is its last symbol (engine.cards)
FEATURES = SOLO_FEATURES[:8] + (
    "keys_deck",        # Keys in the deck
    "limbo",            # cards in limbo
    "need_mover",       # colours the seat to move has no Door of
    "hand_mover",       # Locations in the mover's hand of colours the mover needs
    "hand_other",       # the same for the other seat
    "keys_mover",       # Keys in the mover's hand of colours the mover needs
    "keys_other",       # the same for the other seat
    "series_mover",     # the mover's open series' length if the mover needs its colour
    "series_other",     # the same for the other seat
    "shared_need",      # shared cards of colours some seat needs
    "both_need",        # colours neither seat has a Door of
    "door_drawn",       # 1 at phase door (a drawn Door waits)
    "nm_drawn",         # 1 at phase nightmare
)
NFV = len(FEATURES)
for _name, _w in DUO_VWEIGHTS.items():
    assert len(_w) == NFV, f"solver/duo/value_weights.py: one weight per feature ({_name})"
FITTED = tuple(sorted(DUO_VWEIGHTS))     # the bases a horizon may be used over


def weights_table() -> np.ndarray:
    """The stored weights as a (bases, NFV) table, row = the base's number (zeros for a base
    without a fit)."""
    W = np.zeros((max(BASES.values()) + 1, NFV), dtype=np.float64)
    for name, w in DUO_VWEIGHTS.items():
        W[BASES[name]] = w
    return W


_W = weights_table()


@njit(cache=True, inline="always")
def _seat(S, p, col):
    """(Locations of colour ``col`` in seat p's hand, its Keys of it) if p needs the colour
    (no Door of it: D5), else (0, 0)."""
    if S[DR + PSTEP * p + col] != 0:
        return 0, 0
    r = H + PSTEP * p + col * SYMBOLS
    return S[r] + S[r + 1] + S[r + 2], S[r + KEY]


@njit(cache=True, inline="always")
def _series(S, p):
    """Seat p's open series' length if p needs the series' colour, else 0."""
    last = S[LAST + PSTEP * p]
    if S[SER + PSTEP * p] != 0 and last < NUM_LOCATION_TYPES and \
            S[DR + PSTEP * p + last // SYMBOLS] == 0:
        return S[SER + PSTEP * p]
    return 0


@njit(cache=True)
def features(S, f):
    """Write the features of the dealt two-player decision state ``S`` into ``f``
    (``FEATURES``, floats); returns False if some colour can no longer gain its Doors (the
    value is then exactly 0).  Allocates nothing: it runs once per cut playout."""
    keys_deck = deck_head(S, f)
    ntop = S[NTOP]
    p = S[TURN]
    q = 1 - p
    alive = True
    need_m = hand_m = hand_o = keys_m = keys_o = shared = both = 0
    for c in range(COLOURS4):
        dm = S[DR + PSTEP * p + c]
        do = S[DR + PSTEP * q + c]
        to_come = S[U + FIRST_DOOR + c] + S[L + FIRST_DOOR + c] + (S[DRAWN] == FIRST_DOOR + c)
        for i in range(ntop):          # its Doors among the known top cards (rarely any)
            to_come += S[TOP + i] == FIRST_DOOR + c
        if to_come < 2 - dm - do:
            alive = False
        hm, km = _seat(S, p, c)
        ho, ko = _seat(S, q, c)
        hand_m += hm
        keys_m += km
        hand_o += ho
        keys_o += ko
        need_m += dm == 0
        if dm == 0 or do == 0:
            b = SH + c * SYMBOLS
            shared += S[b] + S[b + 1] + S[b + 2]
        both += dm == 0 and do == 0
    f[8] = keys_deck
    f[9] = S[LTOT]
    f[10] = need_m
    f[11] = hand_m
    f[12] = hand_o
    f[13] = keys_m
    f[14] = keys_o
    f[15] = _series(S, p)
    f[16] = _series(S, q)
    f[17] = shared
    f[18] = both
    f[19] = S[PH] == P_DOOR
    f[20] = S[PH] == P_NIGHTMARE
    return alive


@njit(cache=True)
def value_w(S, W, f):
    """The value of the dealt decision state ``S`` under the weights ``W`` (NFV floats):
    0 .. VMAX (module docstring).  ``f`` (NFV floats) is the caller's scratch space."""
    if not features(S, f):
        return 0
    return squash(W, f, NFV, VMAX)


@njit(cache=True)
def value_at(S, base, f):
    """:func:`value_w` with the stored weights of base policy number ``base``."""
    return value_w(S, _W[base], f)
