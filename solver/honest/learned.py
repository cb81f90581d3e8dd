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

from engine.cards import COUNTS
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

# The kernel compares packed keys: key(a) = (score(a) << KEY_BITS) + KEY_LOW - a for action a
# (0 <= a <= A_DISCARD + 11 < 2 ** KEY_BITS).  Keys order the actions by score, then by legal
# order (plays 0..11 before discards 24..35, each by card), so the largest key is the first of
# the highest scores in legal order, and a discard is the largest only if it scores strictly
# more than every play: one maximum over all the actions decides as the two running maxima of
# the readable order (:func:`_play_by_selects`).  Scores stay far below 2 ** 50 in magnitude
# (small integer weights times features of a few units), so keys do not overflow.
KEY_BITS = 6
KEY_LOW = (1 << KEY_BITS) - 1
assert A_DISCARD + NUM_LOCATION_TYPES - 1 <= KEY_LOW and A_PLAY == 0
MASKED = -(1 << 62)        # the key of a card not in hand: below every key
NOT_PLAYABLE = -(1 << 58)  # a play's symbol offset when it may not follow the last card
# The known top cards, packed: TOP_BITS bits per Location type c at bit TOP_BITS * c hold its
# copies among the top cards (at most 9 < 2 ** TOP_BITS).
TOP_BITS = 5
assert max(COUNTS[:NUM_LOCATION_TYPES]) < (1 << TOP_BITS)
assert TOP_BITS * NUM_LOCATION_TYPES <= 63
_LAST_SYM = np.array([c % SYMBOLS for c in range(NUM_LOCATION_TYPES)]
                     + [-1] * (NO_CARD + 1 - NUM_LOCATION_TYPES), dtype=np.int64)
_LAST_COL = np.array([c // SYMBOLS for c in range(NUM_LOCATION_TYPES)]
                     + [0] * (NO_CARD + 1 - NUM_LOCATION_TYPES), dtype=np.int64)
# the card of a play or discard action (0 for the other numbers below A_DISCARD + 12)
_ACT_CARD = np.array([a - A_DISCARD if a >= A_DISCARD else (a if a < NUM_LOCATION_TYPES else 0)
                      for a in range(A_DISCARD + NUM_LOCATION_TYPES)], dtype=np.int64)
_ACT_COL = _ACT_CARD // SYMBOLS
_ACT_SYM = _ACT_CARD % SYMBOLS
assert NUM_LOCATION_TYPES // SYMBOLS == 4, "learned_play_w scores the four colours one by one"


@njit(cache=True, inline="always")
def _better(sc, best_s, act, best_a):
    """The running maximum (first of equal scores) after action ``act`` of score ``sc``, as
    selects rather than a branch (the scores of a playout's decisions are not predictable)."""
    b = sc > best_s
    return (sc if b else best_s), (act if b else best_a)


@njit(cache=True, inline="always")
def _pick(c, a, b):
    """``a if c else b`` as arithmetic: a select that LLVM does not turn into a switch (a chain
    of ``if``/``else`` on one symbol became jumps, mispredicted at every decision)."""
    return b ^ ((a ^ b) & -np.int64(c))


@njit(cache=True, inline="always")
def _colour_keys(S, col, e_in, e_out, d_in, s_col, W):
    """The key parts of colour ``col``: (pk, dk, kx) -- the play key of its card of symbol
    ``s`` is ``pk + ps[s]``, its discard key ``dk + ds[s] + W[19] * remain`` (the Key's
    ``+ kx``, its weight as a useless colour's Key) in key units (:func:`learned_play_w`)."""
    b = col * SYMBOLS
    cnt = (S[np.uint64(H + b + SUN)] + S[np.uint64(H + b + MOON)]
           + S[np.uint64(H + b + KEY)])
    dr = S[np.uint64(DR + col)]
    need = dr < 2
    # useless: needs no Door (dr >= 2) or none obtainable (dr + discarded >= 2); the first
    # implies the second
    useless = dr + S[np.uint64(D + FIRST_DOOR + col)] >= 2
    is_s = col == s_col
    pc = ((e_in if is_s else e_out) + ((W[5] - W[6] + W[6] * cnt) if need else 0)
          + (W[9] if useless else 0))
    dc = ((W[13] if need else 0) + (d_in if is_s else 0) + W[15] * cnt
          + (W[17] if useless else 0))
    return (pc << KEY_BITS) - b, (dc << KEY_BITS) - b, ((W[12] << KEY_BITS) if useless else 0)


@njit(cache=True, inline="always")
def _remain(S, c, T):
    """Copies of Location ``c`` still in the deck: unknown, or known on top (packed in T)."""
    return S[np.uint64(U + c)] + ((T >> (TOP_BITS * c)) & ((1 << TOP_BITS) - 1))


@njit(cache=True, inline="always")
def _colour_best(S, col, T, e_in, e_out, d_in, s_col, ps0, ps1, ps2, ds0, ds1, ds2, w19, W):
    """The largest key among the six actions on colour ``col``'s cards (MASKED if none held)."""
    b = col * SYMBOLS
    pk, dk, kx = _colour_keys(S, col, e_in, e_out, d_in, s_col, W)
    k0 = max(pk + ps0, dk + ds0 + w19 * _remain(S, b + SUN, T))
    k1 = max(pk + ps1, dk + ds1 + w19 * _remain(S, b + MOON, T))
    k2 = max(pk + ps2, dk + ds2 + kx + w19 * _remain(S, b + KEY, T))
    k0 = k0 if S[H + b + SUN] > 0 else MASKED
    k1 = k1 if S[H + b + MOON] > 0 else MASKED
    k2 = k2 if S[H + b + KEY] > 0 else MASKED
    return max(max(k0, k1), k2)


@njit(cache=True)
def learned_play_w(S, kd, W):
    """The play-phase action of the linear scorer with weights ``W`` at ``S``, given
    greedy-keep-doors' action ``kd`` there (a legal action): the score of each action is
    sum(W[i] * f_i) over ``FEATURES``; the highest score is played, the first of equal scores
    in the legal order (plays by card, then discards by card: a discard only if it scores
    more than the best play).

    How (docs/HONEST.md, "Throughput"): every action's score is packed with its number into
    one key (``KEY_BITS``), so one maximum decides.  The terms shared by a colour's cards are
    summed once per colour (:func:`_colour_keys`), those shared by all colours once per call,
    and those of a symbol (its weight, a play's symbol after the last card) once per call as
    the key offsets ``ps``/``ds``.  Every card of every colour is scored, a card not in hand
    keyed ``MASKED``, without branches (the colours are unrolled; the hand is not predictable
    from one playout decision to the next).  ``kd``'s bonus W[0] is added to its key alone,
    computed apart from the others: with W[0] >= 0 the maximum over the others and kd's boosted
    key is the maximum of all (W[0] < 0, never in the stored or trained weights, takes
    :func:`_play_by_selects`).  The known top cards, usually none, count in ``remain`` through
    one packed word ``T`` (``TOP_BITS``).  The same action as :func:`_play_by_selects` at every
    state (tests/solver/honest/test_learned.py).

    Called, not inlined by numba: inlined, numba typed this unrolled body again at each of its
    call sites (the playout loop, the training kernel, ``greedy._base_at``), which doubled the
    honest family's cold compile (314 s of CPU against 154 s called, ``python -m
    benchmarks.bench_compile honest``); the call costs learned-base playouts about 2.4%
    (docs/HONEST.md, "Throughput")."""
    if W[0] < 0:
        return _play_by_selects(S, kd, W)
    ntop = S[NTOP]
    T = np.int64(0)
    for i in range(ntop):
        t = S[TOP + i]
        T += np.int64(t < NUM_LOCATION_TYPES) << (TOP_BITS * min(t, NUM_LOCATION_TYPES - 1))
    last = S[LAST]
    ser = S[SER]
    lsym = _LAST_SYM[last]       # -1 for an empty row
    lcol = _LAST_COL[last]
    s_open = (ser != 0) & (lsym >= 0)     # an open series (never in an empty row)
    s_col = lcol if s_open else -1
    s_need = s_open & (S[np.uint64(DR + lcol)] < 2)
    late = ntop + S[UTOT] < LATE_DECK
    # the play terms shared by all colours, and by the series' colour (e_in) or the others
    base_p = W[1] + W[10] * late
    e_in = base_p + s_need * (W[2] + W[3] * (ser == 2))
    e_out = base_p + W[4] * s_need
    d_in = W[14] * s_need
    # per symbol: its weights as key offsets, with the action's low bits (KEY_LOW - a)
    # (a symbol that may not follow the last card: NOT_PLAYABLE, below every legal key)
    ps0 = (KEY_LOW - A_PLAY - SUN) if lsym != SUN else NOT_PLAYABLE
    ps1 = ((W[8] << KEY_BITS) + KEY_LOW - A_PLAY - MOON) if lsym != MOON else NOT_PLAYABLE
    ps2 = ((W[7] << KEY_BITS) + KEY_LOW - A_PLAY - KEY) if lsym != KEY else NOT_PLAYABLE
    ds0 = (W[16] << KEY_BITS) + (KEY_LOW - A_DISCARD - SUN)
    ds1 = KEY_LOW - A_DISCARD - MOON
    ds2 = ((W[11] + W[18] * late) << KEY_BITS) + (KEY_LOW - A_DISCARD - KEY)
    w19 = W[19] << KEY_BITS
    b0 = _colour_best(S, 0, T, e_in, e_out, d_in, s_col, ps0, ps1, ps2, ds0, ds1, ds2, w19, W)
    b1 = _colour_best(S, 1, T, e_in, e_out, d_in, s_col, ps0, ps1, ps2, ds0, ds1, ds2, w19, W)
    b2 = _colour_best(S, 2, T, e_in, e_out, d_in, s_col, ps0, ps1, ps2, ds0, ds1, ds2, w19, W)
    b3 = _colour_best(S, 3, T, e_in, e_out, d_in, s_col, ps0, ps1, ps2, ds0, ds1, ds2, w19, W)
    # kd's key, from the same terms, plus its bonus
    ka = np.uint64(kd)
    c = _ACT_CARD[ka]
    s = _ACT_SYM[ka]
    pk, dk, kx = _colour_keys(S, _ACT_COL[ka], e_in, e_out, d_in, s_col, W)
    kp = pk + _pick(s == KEY, ps2, _pick(s == MOON, ps1, ps0))
    kq = dk + _pick(s == KEY, ds2 + kx, _pick(s == MOON, ds1, ds0)) + w19 * _remain(S, c, T)
    kk = _pick(kd >= A_DISCARD, kq, kp) + (W[0] << KEY_BITS)
    best = max(max(max(b0, b1), max(b2, b3)), kk)
    return KEY_LOW - (best & KEY_LOW)


@njit(cache=True)
def _play_by_selects(S, kd, W):
    """:func:`learned_play_w` as it was written first (and still the reference of the test):
    each action's score in turn, kd's bonus in every score, the best play and the best discard
    as two running maxima by selects, the top cards counted per colour.  Any weights (also
    W[0] < 0)."""
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


@njit(cache=True)
def play_by_selects_at(S, kd, W):
    """:func:`_play_by_selects` behind a call (tests)."""
    return _play_by_selects(S, kd, W)
