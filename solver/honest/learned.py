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
assert SYMBOLS == 3, "learned_play_w scores the three symbols of a colour one by one"


NO_SCORE = -(1 << 60)      # below every score: the best play and discard start here
NOT_HELD = -(1 << 62)      # the score of a card not in hand (or not playable): never the best


@njit(cache=True, inline="always")
def _better(sc, best_s, act, best_a):
    """The running maximum (first of equal scores) after action ``act`` of score ``sc``, as
    selects rather than a branch (the scores of a playout's decisions are not predictable)."""
    b = sc > best_s
    return (sc if b else best_s), (act if b else best_a)


@njit(cache=True, inline="always")
def learned_play_w(S, kd, W):
    """The play-phase action of the linear scorer with weights ``W`` at ``S``, given
    greedy-keep-doors' action ``kd`` there: the score of each action is sum(W[i] * f_i) over
    ``FEATURES``; the terms shared by a colour's cards are summed once per colour (``pc``,
    ``dc``), those of the card itself per card.  The best play and the best discard are kept
    apart (the first of equal scores, by card), and a discard is chosen only if it scores more
    than the best play: ties go to the legal order.

    Every card of every colour is scored, a card not in hand (or, for a play, not playable
    after the row's last card) at ``NOT_HELD``, and the maxima are taken with selects: the same
    action as skipping those cards (``NOT_HELD`` < ``NO_SCORE``: it never leads), without the
    mispredicted branches of a card-by-card skip (about 7% of a learned-base playout's CPU;
    benchmarks/bench_playouts.py)."""
    last = S[LAST]
    s_col = -1
    s_len = 0
    s_need = False
    lsym = -1
    if last != NO_CARD:
        lsym = last % SYMBOLS
        if S[SER] != 0:
            s_col = last // SYMBOLS
            s_len = S[SER]
            s_need = S[DR + s_col] < 2
    ntop = S[NTOP]
    late = (ntop + S[UTOT]) < LATE_DECK
    best_p = kd
    best_ps = np.int64(NO_SCORE)
    best_d = kd
    best_ds = np.int64(NO_SCORE)
    for col in range(NUM_LOCATION_TYPES // SYMBOLS):
        b = col * SYMBOLS
        h_sun = S[H + b + SUN]
        h_moon = S[H + b + MOON]
        h_key = S[H + b + KEY]
        cnt = h_sun + h_moon + h_key
        dr = S[DR + col]
        need = dr < 2
        useless = (not need) or 2 - dr - S[D + FIRST_DOOR + col] <= 0
        cont = s_len > 0 and col == s_col and need
        pc = (W[1] + W[2] * cont + W[3] * (cont and s_len == 2)
              + W[4] * (s_need and col != s_col) + W[5] * need + W[6] * (cnt - 1) * need
              + W[9] * useless + W[10] * late)
        dc = W[13] * need + W[14] * cont + W[15] * cnt + W[17] * useless
        # remain: copies of each card still in the deck (unknown, or known on top)
        r_sun = S[U + b + SUN]
        r_moon = S[U + b + MOON]
        r_key = S[U + b + KEY]
        for i in range(ntop):
            t = S[TOP + i]
            r_sun += t == b + SUN
            r_moon += t == b + MOON
            r_key += t == b + KEY
        c = b + SUN
        sc = pc + W[0] * (A_PLAY + c == kd)
        best_ps, best_p = _better(sc if h_sun > 0 and lsym != SUN else NOT_HELD,
                                  best_ps, A_PLAY + c, best_p)
        sd = dc + W[16] + W[19] * r_sun + W[0] * (A_DISCARD + c == kd)
        best_ds, best_d = _better(sd if h_sun > 0 else NOT_HELD, best_ds, A_DISCARD + c,
                                  best_d)
        c = b + MOON
        sc = pc + W[8] + W[0] * (A_PLAY + c == kd)
        best_ps, best_p = _better(sc if h_moon > 0 and lsym != MOON else NOT_HELD,
                                  best_ps, A_PLAY + c, best_p)
        sd = dc + W[19] * r_moon + W[0] * (A_DISCARD + c == kd)
        best_ds, best_d = _better(sd if h_moon > 0 else NOT_HELD, best_ds, A_DISCARD + c,
                                  best_d)
        c = b + KEY
        sc = pc + W[7] + W[0] * (A_PLAY + c == kd)
        best_ps, best_p = _better(sc if h_key > 0 and lsym != KEY else NOT_HELD,
                                  best_ps, A_PLAY + c, best_p)
        sd = (dc + W[11] + W[12] * useless + W[18] * late + W[19] * r_key
              + W[0] * (A_DISCARD + c == kd))
        best_ds, best_d = _better(sd if h_key > 0 else NOT_HELD, best_ds, A_DISCARD + c,
                                  best_d)
    return best_d if best_ds > best_ps else best_p


@njit(cache=True, inline="always")
def learned_play(S, kd):
    """:func:`learned_play_w` with the stored weights (``learned_weights.WEIGHTS``)."""
    return learned_play_w(S, kd, WEIGHTS)


@njit(cache=True)
def play_at(S, kd, W):
    """:func:`learned_play_w` behind a call (tests, the training script)."""
    return learned_play_w(S, kd, W)
