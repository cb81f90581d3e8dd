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


@njit(cache=True, inline="always")
def _colour_facts(S, col):
    """(need, useless, cnt) of colour ``col`` at ``S``."""
    dr = S[DR + col]
    need = dr < 2
    useless = (not need) or 2 - dr - S[D + FIRST_DOOR + col] <= 0
    cnt = S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]
    return need, useless, cnt


@njit(cache=True, inline="always")
def learned_play_w(S, kd, W):
    """The play-phase action of the linear scorer with weights ``W`` at ``S``, given
    greedy-keep-doors' action ``kd`` there: the score of each action is sum(W[i] * f_i) over
    ``FEATURES``; the terms shared by a colour's cards are summed once per colour (``pc``,
    ``dc``), those of the card itself per card.  The best play and the best discard are kept
    apart (the first of equal scores, by card), and a discard is chosen only if it scores more
    than the best play: ties go to the legal order."""
    last = S[LAST]
    s_col = -1
    s_len = 0
    s_need = False
    if last != NO_CARD and S[SER] != 0:
        s_col = last // SYMBOLS
        s_len = S[SER]
        s_need = S[DR + s_col] < 2
    lsym = last % SYMBOLS if last != NO_CARD else -1
    late = (S[NTOP] + S[UTOT]) < LATE_DECK
    best_p = kd
    best_ps = np.int64(-(1 << 60))
    best_d = kd
    best_ds = np.int64(-(1 << 60))
    for col in range(NUM_LOCATION_TYPES // SYMBOLS):
        need, useless, cnt = _colour_facts(S, col)
        if cnt == 0:
            continue
        cont = s_len > 0 and col == s_col and need
        pc = (W[1] + W[2] * cont + W[3] * (cont and s_len == 2)
              + W[4] * (s_need and col != s_col) + W[5] * need + W[6] * (cnt - 1) * need
              + W[9] * useless + W[10] * late)
        dc = W[13] * need + W[14] * cont + W[15] * cnt + W[17] * useless
        for sym in range(SYMBOLS):
            c = col * SYMBOLS + sym
            if S[H + c] == 0:
                continue
            if sym != lsym:                 # B.playable(last, c)
                sc = pc + W[7] * (sym == KEY) + W[8] * (sym == MOON) + W[0] * (A_PLAY + c == kd)
                if sc > best_ps:
                    best_ps = sc
                    best_p = A_PLAY + c
            remain = S[U + c]
            for i in range(S[NTOP]):
                if S[TOP + i] == c:
                    remain += 1
            sd = (dc + W[11] * (sym == KEY) + W[12] * (sym == KEY and useless)
                  + W[16] * (sym == SUN) + W[18] * (sym == KEY and late) + W[19] * remain
                  + W[0] * (A_DISCARD + c == kd))
            if sd > best_ds:
                best_ds = sd
                best_d = A_DISCARD + c
    return best_d if best_ds > best_ps else best_p


@njit(cache=True, inline="always")
def learned_play(S, kd):
    """:func:`learned_play_w` with the stored weights (``learned_weights.WEIGHTS``)."""
    return learned_play_w(S, kd, WEIGHTS)


@njit(cache=True)
def play_at(S, kd, W):
    """:func:`learned_play_w` behind a call (tests, the training script)."""
    return learned_play_w(S, kd, W)
