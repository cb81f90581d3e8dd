"""The ``learned-base`` base policy of the honest kernel: greedy-keep-doors everywhere but the
play phase, where every legal action (play card c, discard card c) is scored by a linear
function of integer features of the player's view, and the highest score is played
(docs/POLICIES.md, "A learned base policy").

The features of an action on Location ``c`` (colour ``col``, symbol ``sym``) are listed in
``FEATURES``, in the order of the weights (:mod:`solver.honest.learned_weights`, written by
``python -m benchmarks.learn_base``).  The first, ``kd``, is 1 for greedy-keep-doors' own
action: with its weight alone (the others 0) the policy *is* greedy-keep-doors, which is where
the search of the weights starts.  Terms used below:

* ``need``: the colour has fewer than 2 Doors in play;
* ``obtainable``: its Doors neither in play nor discarded (2 - in play - discarded);
* ``useless``: the colour needs no Door, or none is obtainable;
* ``open``: the row ends in an open series (1 or 2 cards) of colour ``s_col``;
* ``cnt``: the cards of ``col`` in hand (``c`` included);
* ``late``: fewer than ``LATE_DECK`` cards left in the deck;
* ``remain``: copies of ``c`` still in the deck (unknown, or known on top).

Ties go to the first action in the order plays (by card), then discards (by card): the legal
order.  Scores are integers, so the kernel and the readable reference on the engine's view
(:func:`solver.policies.learned.learned_base_action`) decide alike at every state
(tests/solver/honest/test_learned.py).  The kernel allocates nothing: it runs inside the
playout loop (``solver.honest.playouts.playout``, compiled without reference counting) through
``solver.honest.greedy.base_action``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import FIRST_DOOR, NO_CARD, NUM_LOCATION_TYPES, SYMBOLS

# absolute, not relative (see solver.honest.state)
from solver import board as B
from solver.honest.learned_weights import WEIGHTS
from solver.honest.state import (A_DISCARD, A_PLAY, D, DR, H, LAST, NTOP, SER, TOP, U,
                                 UTOT)

FEATURES = (
    "kd",            # the action is greedy-keep-doors' action
    "play",          # play (1) rather than discard (0)
    "p_cont",        # play: extends the open series of a needed colour
    "p_complete",    # play: ... and completes it (a Door)
    "p_break",       # play: another colour after an open series of a needed colour
    "p_need",        # play: the card's colour needs a Door
    "p_follow",      # play: need * (cnt - 1), the colour's other cards in hand
    "p_key",         # play: a Key
    "p_moon",        # play: a Moon
    "p_useless",     # play: a useless colour
    "p_late",        # play: the deck is late
    "d_key",         # discard: a Key
    "d_dead_key",    # discard: a Key of a useless colour
    "d_need",        # discard: the colour needs a Door
    "d_series",      # discard: the colour of the open series, needed
    "d_cnt",         # discard: cnt
    "d_sun",         # discard: a Sun
    "d_useless",     # discard: a useless colour
    "d_key_late",    # discard: a Key, the deck late
    "d_remain",      # discard: remain (copies of c still in the deck)
)
NF = len(FEATURES)
LATE_DECK = 20
assert len(WEIGHTS) == NF, "solver/honest/learned_weights.py: one weight per feature"
SUN, MOON, KEY = 0, 1, SYMBOLS - 1


@njit(cache=True, inline="always")
def _colour_facts(S, col):
    """(need, useless, cnt) of colour ``col`` at ``S``."""
    need = S[DR + col] < 2
    obtainable = 2 - S[DR + col] - S[D + FIRST_DOOR + col]
    useless = (not need) or obtainable <= 0
    cnt = S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]
    return need, useless, cnt


@njit(cache=True, inline="always")
def _score(S, W, c, play, kd, late, s_col, s_len, s_need):
    """The linear score of playing (``play``) or discarding Location ``c``."""
    col = c // SYMBOLS
    sym = c % SYMBOLS
    need, useless, cnt = _colour_facts(S, col)
    s = W[0] * kd
    if play:
        cont = s_len > 0 and col == s_col and need
        s += W[1]
        s += W[2] * cont
        s += W[3] * (cont and s_len == 2)
        s += W[4] * (s_need and col != s_col)
        s += W[5] * need
        s += W[6] * (cnt - 1) * need
        s += W[7] * (sym == KEY)
        s += W[8] * (sym == MOON)
        s += W[9] * useless
        s += W[10] * late
    else:
        remain = S[U + c]
        for i in range(S[NTOP]):
            if S[TOP + i] == c:
                remain += 1
        s += W[11] * (sym == KEY)
        s += W[12] * (sym == KEY and useless)
        s += W[13] * need
        s += W[14] * (s_len > 0 and col == s_col and need)
        s += W[15] * cnt
        s += W[16] * (sym == SUN)
        s += W[17] * useless
        s += W[18] * (sym == KEY and late)
        s += W[19] * remain
    return s


@njit(cache=True, inline="always")
def learned_play_w(S, kd, W):
    """The play-phase action of the linear scorer with weights ``W`` at ``S``, given
    greedy-keep-doors' action ``kd`` there."""
    last = S[LAST]
    s_col = -1
    s_len = 0
    s_need = False
    if last != NO_CARD and S[SER] != 0:
        s_col = last // SYMBOLS
        s_len = S[SER]
        s_need = S[DR + s_col] < 2
    late = (S[NTOP] + S[UTOT]) < LATE_DECK
    best = kd
    best_s = np.int64(-(1 << 60))
    for play in (True, False):
        base = A_PLAY if play else A_DISCARD
        for c in range(NUM_LOCATION_TYPES):
            if S[H + c] > 0 and (not play or B.playable(last, c)):
                a = base + c
                sc = _score(S, W, c, play, a == kd, late, s_col, s_len, s_need)
                if sc > best_s:
                    best_s = sc
                    best = a
    return best


@njit(cache=True, inline="always")
def learned_play(S, kd):
    """:func:`learned_play_w` with the stored weights (``learned_weights.WEIGHTS``)."""
    return learned_play_w(S, kd, WEIGHTS)


@njit(cache=True)
def play_at(S, kd, W):
    """:func:`learned_play_w` behind a call (tests, the training script)."""
    return learned_play_w(S, kd, W)
