"""The ``learned-base-2`` base policy of the honest kernel: ``learned-base``'s play-phase scorer
with weights of its own, and learned linear scorers of the *prophecy* and of the *Nightmare*
decisions as well (docs/POLICIES.md, "A second learned base: the other phases").  The Door
phase stays greedy-keep-doors' (a Door drawn with its Key in hand is always opened).

Every legal action of the phase is scored by sum(W[i] * f_i) over integer features of the
player's view (``FEATURES``, in the order of ``learned2_weights.OTHER``: the prophecy's, then
the Nightmare's), and the highest score is played; ties go to the first in the legal order
(ascending action numbers).  The first feature of each phase, ``kd``, is 1 for
greedy-keep-doors' own action: with its weight alone the phase plays as greedy-keep-doors.
Terms (those of :mod:`solver.honest.learned`): ``need`` (fewer than 2 Doors of the colour in
play), ``useless`` (no Door needed, or none obtainable), ``cnt`` (the colour's cards in hand),
``late`` (fewer than ``LATE_DECK`` cards in the deck), the open series ``s_col`` of a needed
colour and the last card's symbol.

The prophecy.  Action (discard revealed card i, put the others back in order p) scores
``kd`` plus the discarded card's ``x_*`` features plus, for each kept card at depth q (0 =
the new top), (KEPT_MAX - q) times its ``v_*`` features: a card of higher value is wanted
nearer the top (with a linear value the best order sorts the kept cards by value).

The Nightmare.  Each option has its own features: discard a Key (``k_*``), move a Door in
play to limbo (``d_*``), reveal the top five (``r_*``), discard the hand (``h_*``).

Scores are integers, so the kernel and the readable reference on the engine's view
(:func:`solver.policies.learned2.learned2_action`) decide alike at every state
(tests/solver/honest/test_learned2.py).  Nothing here allocates: it runs inside the playout
loop through ``solver.honest.greedy.base_action``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import (DOORS_PER_COLOUR, FIRST_DOOR, NO_CARD, NUM_LOCATION_TYPES, NUM_TYPES,
                          SYMBOLS)

# absolute, not relative (see solver.honest.state)
from solver import board
from solver import steps
from solver.honest.learned import LATE_DECK, NF as NF_PLAY, learned_play_w
from solver.honest.learned2_weights import OTHER, PLAY
from solver.honest.state import (A_NM_DOOR, A_NM_KEY, A_NM_REDRAW, A_NM_REVEAL, A_PROPHECY,
                                 D, DR, H, LAST, NIGHT, NTOP, P_NIGHTMARE, P_PLAY, P_PROPHECY,
                                 PH, SER, TOP, UTOT)

PROPHECY_FEATURES = (
    "kd",            # the action is greedy-keep-doors' action
    "v_night",       # kept: a Nightmare
    "v_door_key",    # kept: a Door whose Key is in hand
    "v_door",        # kept: a Door whose Key is not in hand
    "v_extend",      # kept: a Location that may extend the open series of a needed colour
    "v_need",        # kept: a Location of a needed colour
    "v_cnt",         # kept: need * min(cnt, 3)
    "v_key",         # kept: a Key of a colour not useless
    "v_useless",     # kept: a Location of a useless colour
    "v_moon",        # kept: a Moon
    "x_night",       # discarded: a Nightmare
    "x_door",        # discarded: a Door
    "x_key",         # discarded: a Key
    "x_useless",     # discarded: a Location of a useless colour
    "x_cnt",         # discarded: need * min(cnt, 3)
    "x_series",      # discarded: a Location of the open series' colour, needed
    "x_sun",         # discarded: a Sun
)
NIGHTMARE_FEATURES = (
    "kd",            # the action is greedy-keep-doors' action
    "k_key",         # discard a Key
    "k_useless",     # ... of a useless colour
    "k_cnt",         # ... need * (cnt - 1): the colour's other cards in hand
    "k_series",      # ... of the open series' colour, needed
    "k_left",        # ... its colour's obtainable Doors (2 - in play - discarded, at least 0)
    "d_door",        # move a Door in play to limbo
    "d_full",        # ... of a colour with both Doors in play
    "d_key",         # ... whose Key is in hand
    "d_late",        # ... the deck late
    "r_reveal",      # reveal the top five
    "r_deck8",       # ... deck size // 8
    "r_late",        # ... the deck late
    "h_redraw",      # discard the hand
    "h_needed",      # ... its cards of colours not useless
    "h_keys",        # ... its Keys of colours not useless
    "h_deck8",       # ... deck size // 8
    "h_extend",      # ... it holds a card that may extend the open series of a needed colour
    "h_late",        # ... the deck late
)
FEATURES = PROPHECY_FEATURES + NIGHTMARE_FEATURES
NPF = len(PROPHECY_FEATURES)
NF = len(FEATURES)
assert len(OTHER) == NF, "solver/honest/learned2_weights.py: one weight per feature"
assert len(PLAY) == NF_PLAY, "solver/honest/learned2_weights.py: one play weight per feature"
SUN, MOON, KEY = 0, 1, SYMBOLS - 1
NCOL = NUM_LOCATION_TYPES // SYMBOLS
CNT_CAP = 3


@njit(cache=True, inline="always")
def _facts(S, col):
    """(need, useless, cnt, obtainable) of colour ``col`` at ``S``."""
    dr = S[DR + col]
    need = steps.door_needed(dr)
    obt = DOORS_PER_COLOUR - dr - S[D + FIRST_DOOR + col]
    useless = (not need) or obt <= 0
    cnt = S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]
    return need, useless, cnt, max(obt, 0)


@njit(cache=True, inline="always")
def _open(S):
    """(s_col, lsym): the colour of the open series of a needed colour (-1: none) and the last
    card's symbol (-1: an empty row)."""
    last = S[LAST]
    if last == NO_CARD:
        return -1, -1
    s_col = -1
    if S[SER] != 0 and steps.door_needed(S[DR + last // SYMBOLS]):
        s_col = last // SYMBOLS
    return s_col, last % SYMBOLS


@njit(cache=True, inline="always")
def _kept_value(S, c, W, s_col, lsym):
    """sum of W[v_*] * f over the kept card ``c``'s features."""
    if c == NIGHT:
        return W[1]
    if c >= FIRST_DOOR:
        return W[2] if S[H + board.key_of(c - FIRST_DOOR)] > 0 else W[3]
    col = c // SYMBOLS
    sym = c % SYMBOLS
    need, useless, cnt, _ = _facts(S, col)
    return (W[4] * (col == s_col and sym != lsym) + W[5] * need
            + W[6] * (min(cnt, CNT_CAP) * need) + W[7] * (sym == KEY and not useless)
            + W[8] * useless + W[9] * (sym == MOON))


@njit(cache=True, inline="always")
def _victim_value(S, c, W, s_col):
    """sum of W[x_*] * f over the discarded card ``c``'s features."""
    if c == NIGHT:
        return W[10]
    if c >= FIRST_DOOR:
        return W[11]
    col = c // SYMBOLS
    sym = c % SYMBOLS
    need, useless, cnt, _ = _facts(S, col)
    return (W[12] * (sym == KEY) + W[13] * useless + W[14] * (min(cnt, CNT_CAP) * need)
            + W[15] * (col == s_col) + W[16] * (sym == SUN))


# FACT[j] = j!: the order number of a permutation (its rank in the lexicographic order in
# which solver.steps.PERMS lists them) from its Lehmer code
FACT = np.array([1, 1, 2, 6, 24, 120], dtype=np.int64)
assert FACT.shape[0] > steps.KEPT_MAX and int(steps.NPERM[steps.KEPT_MAX]) == int(FACT[steps.KEPT_MAX])


@njit(cache=True, inline="always")
def _order_score(vv, k, kd, i, p):
    """The kept cards' part of the score of (discard i, order p): sum (KEPT_MAX - q) v."""
    s = 0
    for q in range(k - 1):
        s += (steps.KEPT_MAX - q) * vv[steps.kept_index(k - 1, p, q, i)]
    return s


@njit(cache=True)
def prophecy_w(S, kd, W):
    """The prophecy action of the scorer with weights ``W`` (``PROPHECY_FEATURES``) at ``S``,
    given greedy-keep-doors' action ``kd``: of every (discarded card, order), the first in
    ascending action number of the highest score (equal outcomes score alike: the first is
    the one the legal list keeps).

    Not by scoring all of them (up to 120): for a discarded card i, the depth weights
    KEPT_MAX - q fall strictly, so the orders of the highest kept score are exactly those
    that sort the kept cards by value, best first, and the first of them (the lowest order
    number: ``PERMS`` lists orders lexicographically) keeps equal values in revealed order.
    Of these k candidates the first of the highest score is A; ``kd`` alone has the bonus
    W[0], so (W[0] >= 0) the answer is ``kd`` if its score is higher, the smaller of the two
    if equal, else A.  With W[0] < 0 every action is scored (:func:`_prophecy_all`).
    tests/solver/honest/test_learned2.py checks it against the reference, which scores every
    legal action."""
    s_col, lsym = _open(S)
    k = steps.prophecy_count(S[NTOP] + S[UTOT])
    m = k - 1
    v0 = v1 = v2 = v3 = v4 = 0
    x0 = x1 = x2 = x3 = x4 = 0
    for j in range(k):
        c = S[TOP + j]
        v = _kept_value(S, c, W, s_col, lsym)
        x = _victim_value(S, c, W, s_col)
        if j == 0:
            v0, x0 = v, x
        elif j == 1:
            v1, x1 = v, x
        elif j == 2:
            v2, x2 = v, x
        elif j == 3:
            v3, x3 = v, x
        else:
            v4, x4 = v, x
    vv = (v0, v1, v2, v3, v4)
    xx = (x0, x1, x2, x3, x4)
    if W[0] < 0:
        return _prophecy_all(S, vv, xx, k, kd, W[0])
    best = -1
    best_s = np.int64(-(1 << 60))
    for i in range(k):
        used = 0
        p = 0
        s = xx[i]
        for q in range(m):
            br = -1
            bv = 0
            for r in range(m):
                if (used >> r) & 1:
                    continue
                v = vv[r if r < i else r + 1]
                if br < 0 or v > bv:
                    br = r
                    bv = v
            smaller = 0
            for r in range(br):
                if not (used >> r) & 1:
                    smaller += 1
            p += smaller * FACT[m - 1 - q]
            used |= 1 << br
            s += (steps.KEPT_MAX - q) * bv
        if s > best_s:
            best_s = s
            best = steps.prophecy_action(i, p)
    ikd, pkd = steps.prophecy_split(kd - A_PROPHECY)
    s_kd = xx[ikd] + _order_score(vv, k, kd, ikd, pkd) + W[0]
    if s_kd > best_s or (s_kd == best_s and kd < best):
        return kd
    return best


@njit(cache=True, inline="always")
def _outcome(S, k, i, p):
    """The outcome of (discard i, order p) as one number: the discarded card, then the kept
    cards from the top."""
    code = S[TOP + i]
    for q in range(k - 1):
        code = code * NUM_TYPES + S[TOP + steps.kept_index(k - 1, p, q, i)]
    return code


@njit(cache=True)
def _prophecy_all(S, vv, xx, k, kd, w0):
    """:func:`prophecy_w` by scoring every (discarded card, order) in ascending action
    number (any ``kd`` weight ``w0``); an action of ``kd``'s outcome other than ``kd`` is not
    in the legal list (which keeps the first of equal outcomes), and is skipped: with
    ``w0`` < 0 it would outscore ``kd``."""
    m = k - 1
    ikd, pkd = steps.prophecy_split(kd - A_PROPHECY)
    kd_code = _outcome(S, k, ikd, pkd)
    best = kd
    best_s = np.int64(-(1 << 60))
    for i in range(k):
        for p in range(steps.NPERM[m]):
            a = steps.prophecy_action(i, p)
            if a != kd and _outcome(S, k, i, p) == kd_code:
                continue
            s = xx[i] + _order_score(vv, k, kd, i, p) + w0 * (a == kd)
            if s > best_s:
                best_s = s
                best = a
    return best


@njit(cache=True)
def nightmare_w(S, kd, W):
    """The Nightmare action of the scorer with weights ``W`` (``FEATURES``: the Nightmare's
    from ``NPF`` on) at ``S``, given greedy-keep-doors' action ``kd``: the legal options in
    the engine's order, the first of the highest score."""
    s_col, lsym = _open(S)
    size = S[NTOP] + S[UTOT]
    late = size < LATE_DECK
    d8 = size // 8
    needed = 0
    keys = 0
    extend = False
    for c in range(NUM_LOCATION_TYPES):
        n = S[H + c]
        if n == 0:
            continue
        col = c // SYMBOLS
        _, useless, _, _ = _facts(S, col)
        if not useless:
            needed += n
            if c % SYMBOLS == KEY:
                keys += n
        if col == s_col and c % SYMBOLS != lsym:
            extend = True
    o = NPF
    best = kd
    best_s = np.int64(-(1 << 60))
    for opt in range(board.NM_OPTIONS):
        kind, col = board.nightmare_kind(opt)
        if kind == board.OPT_KEY:
            if S[H + board.key_of(col)] == 0:
                continue
            need, useless, cnt, obt = _facts(S, col)
            s = (W[o + 1] + W[o + 2] * useless + W[o + 3] * ((cnt - 1) * need)
                 + W[o + 4] * (col == s_col) + W[o + 5] * obt)
            a = A_NM_KEY + col
        elif kind == board.OPT_DOOR:
            if S[DR + col] == 0:
                continue
            s = (W[o + 6] + W[o + 7] * (S[DR + col] >= DOORS_PER_COLOUR)
                 + W[o + 8] * (S[H + board.key_of(col)] > 0) + W[o + 9] * late)
            a = A_NM_DOOR + col
        elif kind == board.OPT_REVEAL:
            s = W[o + 10] + W[o + 11] * d8 + W[o + 12] * late
            a = A_NM_REVEAL
        else:
            s = (W[o + 13] + W[o + 14] * needed + W[o + 15] * keys + W[o + 16] * d8
                 + W[o + 17] * extend + W[o + 18] * late)
            a = A_NM_REDRAW
        s += W[o] * (a == kd)
        if s > best_s:
            best_s = s
            best = a
    return best


@njit(cache=True, inline="always")
def learned2_w(S, kd, WP, WO):
    """learned-base-2's action at ``S`` given greedy-keep-doors' action ``kd``, with play
    weights ``WP`` (``solver.honest.learned.FEATURES``) and the others ``WO`` (``FEATURES``)."""
    ph = S[PH]
    if ph == P_PLAY:
        return learned_play_w(S, kd, WP)
    if ph == P_PROPHECY:
        return prophecy_w(S, kd, WO)
    if ph == P_NIGHTMARE:
        return nightmare_w(S, kd, WO)
    return kd


@njit(cache=True, inline="always")
def learned2(S, kd):
    """:func:`learned2_w` with the stored weights (``learned2_weights``)."""
    return learned2_w(S, kd, PLAY, OTHER)


@njit(cache=True)
def learned2_at(S, kd, WP, WO):
    """:func:`learned2_w` behind a call (tests, the training script)."""
    return learned2_w(S, kd, WP, WO)
