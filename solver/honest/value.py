"""A value function of the honest kernel's information state: the learned base policy's chance
of winning from a decision, estimated by a logistic function of a few counts of the state
(docs/POLICIES.md, "A value function for the playouts' tails").

A playout with a horizon (``solver.honest.playouts.playout_h``) stops at its first decision
after ``horizon`` draws and returns :func:`value_at` of the state there instead of playing on:
the tail of a long playout, replaced by an estimate.  The estimate is

    p = 1 / (1 + exp(-sum_i w_i * f_i)),     value = round(VSCALE * p)

over the features ``FEATURES`` (:func:`features`), with the weights of
:mod:`solver.honest.value_weights` (written by ``python -m benchmarks.learn_value``).  One
fact is exact: a colour whose missing Doors are not all still to come (in the deck, on top,
or in limbo) can never be completed, and the value is then 0.

Values are whole numbers 0 .. ``VSCALE`` (a won playout is ``VSCALE``, a lost one 0), so a
rollout's rows stay small integers: the paired tests of :mod:`solver.honest.screening` are
unchanged by the scale, and only the indifference stop's margin, an absolute difference,
is multiplied by it.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.rules import FIRST_DOOR, NUM_LOCATION_TYPES, SYMBOLS

# absolute, not relative (see solver.honest.state)
from solver.honest.state import DR, H, HSIZE, L, LAST, LTOT, NDOORS, NTOP, SER, TOP, U, UTOT
from solver.honest.value_weights import VWEIGHTS

VSCALE = 100
COLOURS4 = NUM_LOCATION_TYPES // SYMBOLS
NIGHT = 16
FEATURES = (
    "one",           # 1
    "need",          # Doors still to gain (8 - Doors in play)
    "deck",          # cards in the deck (unknown and known top), / 10
    "nightmares",    # Nightmares in the deck
    "need2",         # need * need / 8
    "need_deck",     # need * deck / 10
    "deck2",         # deck * deck / 100
    "nm_need",       # nightmares * need / 8
    "keys_hand",     # Keys in hand
    "keys_deck",     # Keys in the deck
    "limbo",         # cards in limbo
    "series",        # the open series' length if its colour needs a Door, else 0
    "hand_need",     # cards in hand of colours that need a Door
    "keys_need",     # Keys in hand of colours that need a Door
    "hand",          # cards in hand
)
NFV = len(FEATURES)
assert len(VWEIGHTS) == NFV, "solver/honest/value_weights.py: one weight per feature"


@njit(cache=True, inline="always")
def deck_head(S, f):
    """Write ``FEATURES``' first eight (one .. nm_need: the Doors in play and the deck's size
    and Nightmares) into ``f`` and return the Keys in the deck.  They read only the deck
    model's slots and ``NDOORS``, the same for one and two players: the two-player value
    function (:mod:`solver.duo.value`) starts with them too."""
    ntop = S[NTOP]
    deck = ntop + S[UTOT]
    nm = S[U + NIGHT]
    keys_deck = 0
    for c in range(COLOURS4):
        keys_deck += S[U + c * SYMBOLS + SYMBOLS - 1]
    for i in range(ntop):
        t = S[TOP + i]
        nm += t == NIGHT
        if t < NUM_LOCATION_TYPES:
            keys_deck += t % SYMBOLS == SYMBOLS - 1
    need = 8 - S[NDOORS]
    d10 = deck / 10.0
    f[0] = 1.0
    f[1] = need
    f[2] = d10
    f[3] = nm
    f[4] = need * need / 8.0
    f[5] = need * d10
    f[6] = d10 * d10
    f[7] = nm * need / 8.0
    return keys_deck


@njit(cache=True)
def features(S, f):
    """Write the features of decision state ``S`` into ``f`` (``FEATURES``, floats); returns
    False if some colour can no longer gain its Doors (the value is then exactly 0).
    Allocates nothing: it runs once per cut playout."""
    keys_deck = deck_head(S, f)
    ntop = S[NTOP]
    keys_hand = 0
    keys_need = 0
    hand_need = 0
    alive = True
    for c in range(COLOURS4):
        b = c * SYMBOLS
        keys_hand += S[H + b + SYMBOLS - 1]
        missing = 2 - S[DR + c]
        to_come = S[U + FIRST_DOOR + c] + S[L + FIRST_DOOR + c]
        for i in range(ntop):          # its Doors among the known top cards (rarely any)
            to_come += S[TOP + i] == FIRST_DOOR + c
        if to_come < missing:
            alive = False
        if missing > 0:
            hand_need += S[H + b] + S[H + b + 1] + S[H + b + 2]
            keys_need += S[H + b + SYMBOLS - 1]
    series = 0
    last = S[LAST]
    if S[SER] != 0 and last < NUM_LOCATION_TYPES and S[DR + last // SYMBOLS] < 2:
        series = S[SER]
    f[8] = keys_hand
    f[9] = keys_deck
    f[10] = S[LTOT]
    f[11] = series
    f[12] = hand_need
    f[13] = keys_need
    f[14] = S[HSIZE]
    return alive


@njit(cache=True, inline="always")
def squash(W, f, nf, scale):
    """round(scale * p), p = 1 / (1 + exp(-sum_i W[i] f[i])) over the first ``nf`` features
    (0 below x = -30): the logistic of both value functions, solo and two-player."""
    x = 0.0
    for i in range(nf):
        x += W[i] * f[i]
    if x < -30.0:
        return 0
    p = 1.0 / (1.0 + math.exp(-x))
    return np.int64(p * scale + 0.5)


@njit(cache=True)
def value_w(S, W, f):
    """The value of decision state ``S`` under weights ``W``: 0 .. VSCALE (module docstring).
    ``f`` (NFV floats) is scratch space for the features, allocated once by the caller: the
    value is taken once per cut playout, in the rollouts' inner loop."""
    if not features(S, f):
        return 0
    return squash(W, f, NFV, VSCALE)


_W = np.array(VWEIGHTS, dtype=np.float64)


@njit(cache=True)
def value_at(S, f):
    """:func:`value_w` with the stored weights (``value_weights.VWEIGHTS``), ``f`` its
    scratch space."""
    return value_w(S, _W, f)
