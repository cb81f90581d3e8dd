"""The information-state playout kernel: honest solo Onirim in numba, chance mode.

The kernel's state is what a solo player may know (the information state), held in one flat
``int64`` array (layout below): the hand as counts per Location type, the last card of the row
and its open series, the Doors in play per colour, the *unknown* deck as counts per card type,
the known top cards of the deck (top first: cards a prophecy revealed), the limbo and discard
pile as counts, the phase, the drawn Door or Nightmare, and the cards still to reveal.  It is a
model of :mod:`engine.game` in chance mode: every step is the engine's step, and whenever the
engine would stop at a chance node the kernel stops too, in the same phase.

Board rules.  The rule steps on the board are those of the packed board layer
(:mod:`solver.board`), called at the value level on the array's slots: ``B.playable`` (which
Location may follow the row's last card), ``B.series_step`` (a played Location's new series and
the colour whose series it completes), ``B.nightmare_kind`` (what each Nightmare option is),
``B.key_of`` / ``B.is_key``; a Door wins with the layer's rule (every Door in play,
``DOORS_TO_WIN``).  The row's fields have the layer's meaning: ``LAST`` is ``NO_CARD`` (15) for
an empty row, ``SER`` is the open series, 1 or 2, and 0 when there is none (an empty row, or
the last card completed a series of 3).  :func:`decode` gives them back in engine terms.  This
kernel keeps its own deck model (counts plus a list of the unknown cards, the known top) and
its Door-from-deck, limbo and discard steps.

Draws.  A card taken from the unknown part of the deck is of type ``t`` with probability
``unknown[t] / total``.  The kernel keeps the unknown cards both as counts (``U``) and as a
list of their types (``ARR``, ``total`` entries in no meaningful order; encode() lays it out
sorted by type, so equal views give equal arrays).  Draw ``i`` of a playout with key ``k``
takes the word ``r = mix64(k + (i + 1) * GAMMA)`` of :mod:`engine.rng` (SplitMix64), picks the
list entry ``x = ((r >> 32) * total) >> 32`` (bias below total / 2**32 < 2e-8) and removes it by
moving the last entry into its place: one random index per draw, no scan over the types and no
shuffle (after a shuffle the deck is simply all unknown).  A playout is a pure function of
(state, key): no generator objects, and playout ``j`` of every action of a rollout sees the same
words (common random numbers).  The list order depends on the history of the state, never on
the hidden order of a real deck (the kernel has none).

Base policies: ``greedy`` (engine.policy.greedy_action) and ``greedy-plus``
(solver.honest.rollout.greedy_plus_action); both are checked against their Python references at every
decision of the differential run.  The greedy play decision reads per-colour tables
(``PLAY_BEST``, ``LOWEST``); the readable rule-by-rule version is kept as ``_greedy_play_ref``
and tested against it.

Speed: :func:`playout` allocates nothing and is compiled without numba's reference counting
(``_nrt=False``), so the helpers inlined into its loop pay no atomic count updates on the
state array; docs/HONEST.md ("Throughput") measures each such change.  None of them changes a
decision: tests/solver/honest/test_honest_kernel.py compares the kernel with a fingerprint recorded before.

Actions are the engine's action integers (``engine.game`` layout, solo zone 0).

Python entry points: :func:`encode` (an engine chance-mode ``State``, e.g. a
:func:`engine.view.player_view`, to a kernel array), :func:`decode` and :func:`engine_fields`
(both sides as comparable dicts), :func:`diff` (the fields where they differ), and thin
wrappers ``advance``, ``apply_chance``, ``apply_action``, ``legal``, ``greedy`` for the
differential tests.  :func:`playout_batch` plays whole base-policy games from the setup;
``decide1``/``decide2`` are the rollout decisions of :mod:`solver.honest.rollout`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import cards as C
from engine import game as G
from engine.rules import DEAL_PHASE_NAMES, DOORS_TO_WIN, NO_CARD, SERIES_LENGTH
from engine.rules import INFO_PHASE_NAMES as PHASE_NAMES

# absolute, not relative: benchmarks/bench_honest.py imports copies of this file (another
# commit's, or with one change undone) as modules of their own, outside the package
from solver import board as B

# ----------------------------------------------------------------------------- layout
H = 0            # 12: hand counts per Location type
U = 12           # 17: unknown deck counts per type
D = 29           # 17: discard pile counts
L = 46           # 17: limbo counts (only Doors and Nightmares ever go there)
DR = 63          # 4: Doors in play per colour
LAST = 67        # last card of the row, NO_CARD (15) if the row is empty
SER = 68         # open series (solver.board): 1 or 2, 0 if none (empty row or completed)
ROWLEN = 69      # number of cards in the row
PH = 70          # phase (P_* below)
DRAWN = 71       # the Door or Nightmare awaiting a decision, else -1
LEFT = 72        # cards still to reveal (nightmare reveal)
NTOP = 73        # number of known top cards
UTOT = 74        # sum of the unknown counts
HSIZE = 75       # cards in hand
NDOORS = 76      # Doors in play
LTOT = 77        # cards in limbo
TOP = 80         # known top cards, top first (up to 76)
ARR = 160        # the unknown cards as a list of types (UTOT of them, any order)
NS = 240         # array length

PHASE_CODE = {name: i for i, name in enumerate(PHASE_NAMES)}
P_PLAY, P_PROPHECY, P_DOOR, P_NIGHTMARE = (PHASE_CODE[n] for n in DEAL_PHASE_NAMES[:4])
P_SETUP, P_REFILL, P_REDRAW, P_REVEAL, P_FORESEE = (
    PHASE_CODE[n] for n in ("setup", "refill", "redraw", "reveal", "foresee"))
P_WON, P_LOST = PHASE_CODE["won"], PHASE_CODE["lost"]

NIGHT = C.NIGHTMARE
COUNTS = np.array(C.COUNTS, dtype=np.int64)
A_PLAY, A_DISCARD, A_PROPHECY = G.PLAY, G.DISCARD, G.PROPHECY
A_DOOR_KEY, A_DOOR_LIMBO = G.DOOR_KEY, G.DOOR_LIMBO
A_NM_KEY, A_NM_DOOR, A_NM_REVEAL, A_NM_REDRAW = G.NM_KEY, G.NM_DOOR, G.NM_REVEAL, G.NM_REDRAW
A_DRAW = G.DRAW
MAX_LEGAL = 128

# PERMS[m, p, q]: the q-th entry of the p-th permutation (lexicographic) of range(m), m <= 4
NPERM = np.array([1, 1, 2, 6, 24], dtype=np.int64)
PERMS = np.zeros((5, 24, 4), dtype=np.int64)
for _m in range(5):
    for _p, _perm in enumerate(G._PERMS[_m]):
        for _q, _x in enumerate(_perm):
            PERMS[_m, _p, _q] = _x

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SYM_PREF = np.array([1, 0, 2], dtype=np.int64)   # Sun, Moon, Key: lower = played first


# ----------------------------------------------------------------------------- generator
@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def word(key, i):
    """engine.rng.word: the i-th 64-bit word of stream ``key``."""
    return mix64(key + (np.uint64(i) + np.uint64(1)) * GAMMA)


@njit(cache=True, inline="always")
def draw_unknown(S, key, i):
    """Draw ``i`` of stream ``key``: take a uniformly chosen unknown card out of the deck's
    unknown part and return its type (type t comes with probability unknown[t] / total)."""
    r = word(key, i)
    n = S[UTOT]
    x = np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    t = S[ARR + x]
    S[ARR + x] = S[ARR + n - 1]
    S[UTOT] = n - 1
    S[U + t] -= 1
    return t


@njit(cache=True, inline="always")
def _remove_unknown(S, t):
    """Take one card of type ``t`` out of the unknown part (its count must be positive)."""
    n = S[UTOT]
    for x in range(n):
        if S[ARR + x] == t:
            S[ARR + x] = S[ARR + n - 1]
            break
    S[UTOT] = n - 1
    S[U + t] -= 1


@njit(cache=True, inline="always")
def _add_unknown(S, t):
    S[ARR + S[UTOT]] = t
    S[UTOT] += 1
    S[U + t] += 1


# ----------------------------------------------------------------------------- state
def _initial_state() -> np.ndarray:
    """The array of a fresh chance-mode game before the setup draws (see new_game)."""
    S = np.zeros(NS, dtype=np.int64)
    n = 0
    for t in range(17):
        S[U + t] = COUNTS[t]
        for _ in range(COUNTS[t]):
            S[ARR + n] = t
            n += 1
    S[UTOT] = 76
    S[LAST] = NO_CARD
    S[DRAWN] = -1
    S[PH] = P_SETUP
    return S


INITIAL = _initial_state()


@njit(cache=True)
def new_game(S):
    """``S`` = a fresh chance-mode game before the setup draws (engine new_initial_state()):
    one copy of the template ``INITIAL`` (every field zero but the unknown counts and list,
    UTOT = 76, LAST = NO_CARD, DRAWN = -1, phase setup)."""
    for i in range(NS):
        S[i] = INITIAL[i]


@njit(cache=True, inline="always")
def deck_size(S):
    return S[NTOP] + S[UTOT]


@njit(cache=True, inline="always")
def _pop_top(S):
    c = S[TOP]
    n = S[NTOP]
    for i in range(n - 1):
        S[TOP + i] = S[TOP + i + 1]
    S[NTOP] = n - 1
    return c


@njit(cache=True, inline="always")
def _shuffle(S, with_limbo):
    """The deck (and the limbo) becomes unknown: counts only."""
    for i in range(S[NTOP]):
        _add_unknown(S, S[TOP + i])
    S[NTOP] = 0
    if with_limbo:
        for t in range(12, 17):
            for _ in range(S[L + t]):
                _add_unknown(S, t)
            S[L + t] = 0
        S[LTOT] = 0


@njit(cache=True, inline="always")
def _gain_door(S, col):
    """A Door of colour ``col`` goes into play; True if that wins (the rule of
    :func:`solver.board.gain_door`: every Door in play, DOORS_TO_WIN)."""
    S[DR + col] += 1
    S[NDOORS] += 1
    if S[NDOORS] == DOORS_TO_WIN:
        S[PH] = P_WON
        return True
    return False


@njit(cache=True, inline="always")
def _to_limbo(S, c):
    S[L + c] += 1
    S[LTOT] += 1


@njit(cache=True, inline="always")
def _refill_with(S, c):
    if c < 12:
        S[H + c] += 1
        S[HSIZE] += 1
    elif c < 16:
        if S[H + B.key_of(c - 12)] > 0:
            S[PH] = P_DOOR
            S[DRAWN] = c
        else:
            _to_limbo(S, c)
    else:
        S[PH] = P_NIGHTMARE
        S[DRAWN] = c


@njit(cache=True, inline="always")
def _place_redrawn(S, c):
    if c < 12:
        S[H + c] += 1
        S[HSIZE] += 1
    else:
        _to_limbo(S, c)


@njit(cache=True, inline="always")
def _revealed(S, c):
    S[LEFT] -= 1
    if c < 12:
        S[D + c] += 1
    else:
        _to_limbo(S, c)


@njit(cache=True, inline="always")
def advance(S):
    """engine State._advance: every automatic step until a decision, a chance node or the end."""
    while True:
        ph = S[PH]
        if ph == P_SETUP or ph == P_REDRAW:
            if S[HSIZE] >= 5:
                if ph == P_SETUP:
                    if S[LTOT] > 0:
                        _shuffle(S, True)
                    S[PH] = P_PLAY
                    return
                S[PH] = P_REFILL
                continue
            if S[NTOP] + S[UTOT] == 0:
                S[PH] = P_LOST
                return
            if S[NTOP] == 0:
                return
            _place_redrawn(S, _pop_top(S))
            continue
        if ph == P_REFILL:
            if S[HSIZE] >= 5:
                if S[LTOT] > 0:            # end of turn: limbo shuffled back
                    _shuffle(S, True)
                S[PH] = P_PLAY
                return
            if S[NTOP] + S[UTOT] == 0:
                S[PH] = P_LOST
                return
            if S[NTOP] == 0:
                return
            _refill_with(S, _pop_top(S))
            if S[PH] != P_REFILL:
                return
            continue
        if ph == P_REVEAL:
            if S[LEFT] == 0:
                S[PH] = P_REFILL
                continue
            if S[NTOP] == 0:
                return
            _revealed(S, _pop_top(S))
            continue
        if ph == P_FORESEE:
            k = min(5, S[NTOP] + S[UTOT])
            if k == 0:
                S[PH] = P_REFILL
                continue
            if S[NTOP] < k:
                return
            S[PH] = P_PROPHECY
            return
        return


@njit(cache=True)
def is_chance(S):
    return S[PH] >= P_SETUP and S[PH] <= P_FORESEE


@njit(cache=True, inline="always")
def apply_chance(S, t):
    """engine State._apply_chance: the next unknown card is of type ``t`` (no advance)."""
    _remove_unknown(S, t)
    _drawn(S, t)


@njit(cache=True, inline="always")
def _drawn(S, t):
    """What happens to a card of type ``t`` just taken from the unknown part."""
    ph = S[PH]
    if ph == P_SETUP or ph == P_REDRAW:
        _place_redrawn(S, t)
    elif ph == P_REFILL:
        _refill_with(S, t)
    elif ph == P_REVEAL:
        _revealed(S, t)
    elif ph == P_FORESEE:
        S[TOP + S[NTOP]] = t
        S[NTOP] += 1


@njit(cache=True, inline="always")
def _take_door_from_deck(S, col):
    d = 12 + col
    n = S[NTOP]
    for i in range(n):
        if S[TOP + i] == d:
            for j in range(i, n - 1):
                S[TOP + j] = S[TOP + j + 1]
            S[NTOP] = n - 1
            return True
    if S[U + d] > 0:
        _remove_unknown(S, d)
        return True
    return False


@njit(cache=True, inline="always")
def apply_action(S, a):
    """engine State._apply_decision (solo) for a legal action ``a`` (no advance)."""
    ph = S[PH]
    if ph == P_PLAY:
        if a < A_DISCARD:
            c = a - A_PLAY
            S[H + c] -= 1
            S[HSIZE] -= 1
            ser, done = B.series_step(S[LAST], S[SER], c)
            S[SER] = ser
            S[LAST] = c
            S[ROWLEN] += 1
            S[PH] = P_REFILL
            if done >= 0:
                col = done
                if _take_door_from_deck(S, col):
                    if _gain_door(S, col):
                        return
                    _shuffle(S, False)
        else:
            c = a - A_DISCARD
            S[H + c] -= 1
            S[HSIZE] -= 1
            S[D + c] += 1
            S[PH] = P_FORESEE if B.is_key(c) else P_REFILL
    elif ph == P_PROPHECY:
        r = a - A_PROPHECY
        i = r // 24
        p = r % 24
        k = min(5, S[NTOP] + S[UTOT])
        m = k - 1
        rev0 = S[TOP]
        rev1 = S[TOP + 1]
        rev2 = S[TOP + 2]
        rev3 = S[TOP + 3]
        rev4 = S[TOP + 4]
        victim = S[TOP + i]
        S[D + victim] += 1
        for q in range(m):
            j = PERMS[m, p, q]
            if j >= i:
                j += 1
            if j == 0:
                c = rev0
            elif j == 1:
                c = rev1
            elif j == 2:
                c = rev2
            elif j == 3:
                c = rev3
            else:
                c = rev4
            S[TOP + q] = c
        # the cards below the revealed ones move up one place
        n = S[NTOP]
        for j in range(k, n):
            S[TOP + j - 1] = S[TOP + j]
        S[NTOP] = n - 1
        S[PH] = P_REFILL
    elif ph == P_DOOR:
        door = S[DRAWN]
        S[DRAWN] = -1
        S[PH] = P_REFILL
        if a == A_DOOR_LIMBO:
            _to_limbo(S, door)
        else:
            col = door - 12
            k = B.key_of(col)
            S[H + k] -= 1
            S[HSIZE] -= 1
            S[D + k] += 1
            _gain_door(S, col)
    elif ph == P_NIGHTMARE:
        S[D + S[DRAWN]] += 1
        S[DRAWN] = -1
        S[PH] = P_REFILL
        kind, col = B.nightmare_kind(B.nightmare_option_of(a))
        if kind == B.OPT_KEY:
            k = B.key_of(col)
            S[H + k] -= 1
            S[HSIZE] -= 1
            S[D + k] += 1
        elif kind == B.OPT_DOOR:
            S[DR + col] -= 1
            S[NDOORS] -= 1
            _to_limbo(S, 12 + col)
        elif kind == B.OPT_REVEAL:
            S[LEFT] = min(5, S[NTOP] + S[UTOT])
            S[PH] = P_REVEAL
        else:
            for c in range(12):
                S[D + c] += S[H + c]
                S[H + c] = 0
            S[HSIZE] = 0
            S[PH] = P_REDRAW


# ----------------------------------------------------------------------------- legal actions
@njit(cache=True)
def legal(S, out):
    """The legal actions (engine integers, ascending) into ``out``; returns how many."""
    ph = S[PH]
    n = 0
    if ph == P_PLAY:
        last = S[LAST]
        for c in range(12):
            if S[H + c] > 0:
                if B.playable(last, c):
                    out[n] = A_PLAY + c
                    n += 1
        for c in range(12):
            if S[H + c] > 0:
                out[n] = A_DISCARD + c
                n += 1
    elif ph == P_PROPHECY:
        k = min(5, S[NTOP] + S[UTOT])
        m = k - 1
        codes = np.empty(120, dtype=np.int64)
        nc = 0
        for i in range(k):
            for p in range(NPERM[m]):
                code = S[TOP + i]
                for q in range(m):
                    j = PERMS[m, p, q]
                    if j >= i:
                        j += 1
                    code = code * 17 + S[TOP + j]
                seen = False
                for x in range(nc):
                    if codes[x] == code:
                        seen = True
                        break
                if not seen:
                    codes[nc] = code
                    nc += 1
                    out[n] = A_PROPHECY + i * 24 + p
                    n += 1
    elif ph == P_DOOR:
        out[0] = A_DOOR_KEY       # a Door waits for a decision only when its Key is in hand
        out[1] = A_DOOR_LIMBO
        n = 2
    elif ph == P_NIGHTMARE:
        for o in range(B.NM_OPTIONS):            # in the engine's order
            kind, col = B.nightmare_kind(o)
            if kind == B.OPT_KEY and S[H + B.key_of(col)] == 0:
                continue                          # a Key needs one in hand
            if kind == B.OPT_DOOR and S[DR + col] == 0:
                continue                          # a Door needs one in play
            out[n] = B.nightmare_action_of(o)
            n += 1
    return n


# ----------------------------------------------------------------------------- greedy
@njit(cache=True, inline="always")
def _cnt(S, col):
    return S[H + col * 3] + S[H + col * 3 + 1] + S[H + col * 3 + 2]


@njit(cache=True, inline="always")
def _discard_rank(S, s_col, s_len, c, extra):
    """engine.policy._discard_rank as one integer (lower = discarded first); ``extra`` cards of
    colour ``c`` are counted as in hand too (the prophecy ranks c within hand + [c])."""
    col = c // 3
    needed = 1 if S[DR + col] < 2 else 0
    key = 1 if B.is_key(c) else 0
    ins = 1 if (col == s_col and s_len != 0 and needed == 1) else 0
    sym = 0 if c % 3 == 0 else 1
    return ((((key * 2 + needed) * 2 + ins) * 8 + _cnt(S, col) + extra) * 2 + sym) * 16 + c


@njit(cache=True, inline="always")
def _play_rank(S, c):
    """engine.policy._play_choice's key: a follow-up in hand, non-Key, Moon > Sun > Key."""
    col = c // 3
    follow = 0
    for x in range(col * 3, col * 3 + 3):
        if x % 3 != c % 3 and S[H + x] > 0:
            follow = 1
    key = 1 if B.is_key(c) else 0
    return (((1 - follow) * 2 + key) * 3 + _SYM_PREF[c % 3]) * 16 + c


@njit(cache=True)
def _prophecy_value(S, s_col, s_len, c):
    """engine.policy._prophecy_value (a pair) as one integer: higher = nearer the top."""
    if c == NIGHT:
        return -10 * 16
    if c >= 12:
        col = c - 12
        if S[DR + col] < 2 and S[H + B.key_of(col)] > 0:
            return 10 * 16
        return -5 * 16
    col = c // 3
    if S[DR + col] >= 2:
        return -1 * 16 - c
    bonus = 5 if (col == s_col and s_len != 0) else 0
    return (bonus + min(_cnt(S, col), 3)) * 16 - c


@njit(cache=True)
def _greedy_play_ref(S):
    """The readable greedy play decision (engine.policy._play_choice / _discard_rank, rule by
    rule); :func:`_greedy_play` is the same decision from tables, checked against this one."""
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        lsym = -1
    else:
        s_col = last // 3
        s_len = S[SER]
        lsym = last % 3
    cnt = (_cnt(S, 0), _cnt(S, 1), _cnt(S, 2), _cnt(S, 3))
    need = (S[DR] < 2, S[DR + 1] < 2, S[DR + 2] < 2, S[DR + 3] < 2)
    active_needed = s_col >= 0 and need[s_col]
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        best = -1
        best_r = 1 << 40
        for c in range(s_col * 3, s_col * 3 + 3):
            if S[H + c] > 0 and c % 3 != lsym:
                r = _play_rank(S, c)
                if r < best_r:
                    best_r = r
                    best = c
        if best >= 0:
            return A_PLAY + best
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == 2):
        top = 0
        for col in range(4):
            n = cnt[col]
            if need[col] and n >= 2 and n > top:
                for c in range(col * 3, col * 3 + 3):
                    if S[H + c] > 0 and c % 3 != lsym:
                        top = n
                        break
        if top > 0:
            best = -1
            best_r = 1 << 40
            for col in range(4):
                if need[col] and cnt[col] == top:
                    for c in range(col * 3, col * 3 + 3):
                        if S[H + c] > 0 and c % 3 != lsym:
                            r = _play_rank(S, c)
                            if r < best_r:
                                best_r = r
                                best = c
            return A_PLAY + best
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best = -1
    best_r = 1 << 40
    for c in range(12):
        if S[H + c] > 0:
            col = c // 3
            nd = 1 if need[col] else 0
            key = 1 if B.is_key(c) else 0
            ins = 1 if (col == s_col and s_len != 0 and nd == 1) else 0
            sym = 0 if c % 3 == 0 else 1
            r = ((((key * 2 + nd) * 2 + ins) * 8 + cnt[col]) * 2 + sym) * 16 + c
            if r < best_r:
                best_r = r
                best = c
    return A_DISCARD + best


# Greedy play from tables.  Within one colour the greedy ranks depend only on which of its
# three cards are held (a 3-bit mask: bit 0 Sun, 1 Moon, 2 Key) and the last card's symbol:
# PLAY_BEST[mask, lsym + 1] = (class * 16 + offset) of the colour's playable card with the
# lowest _play_rank (class = the rank without the card number; adding colour * 3 gives the
# full rank, whose last term is the card number), or NO_PLAY if no card of it may be played.
# For discards the lowest-ranked card of a colour is always its lowest held offset (Sun < Moon
# < Key: the Key term outweighs the symbol term), LOWEST[mask].
NO_PLAY = 1 << 40


def _play_tables():
    best = np.full((8, 4), NO_PLAY, dtype=np.int64)
    lowest = np.full(8, -1, dtype=np.int64)
    for mask in range(8):
        held = [off for off in range(3) if mask >> off & 1]
        if held:
            lowest[mask] = held[0]
        for ls in range(-1, 3):
            for off in held:
                if off == ls:
                    continue
                follow = 1 if any(x != off for x in held) else 0
                key = 1 if off == 2 else 0
                r = (((1 - follow) * 2 + key) * 3 + int(_SYM_PREF[off])) * 16 + off
                if r < best[mask, ls + 1]:
                    best[mask, ls + 1] = r
    return best, lowest


PLAY_BEST, LOWEST = _play_tables()


@njit(cache=True, inline="always")
def _mask(S, col):
    b = H + col * 3
    return (1 if S[b] > 0 else 0) | (2 if S[b + 1] > 0 else 0) | (4 if S[b + 2] > 0 else 0)


@njit(cache=True, inline="always")
def _greedy_play(S):
    """engine.policy's play decision (rules 1-4) from the tables above; the same action as
    :func:`_greedy_play_ref` at every state (tests/solver/honest/test_honest_kernel.py)."""
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // 3
        s_len = S[SER]
        ls1 = last % 3 + 1
    m0 = _mask(S, 0)
    m1 = _mask(S, 1)
    m2 = _mask(S, 2)
    m3 = _mask(S, 3)
    active_needed = s_col >= 0 and S[DR + s_col] < 2
    # rule 1: continue the open series of a needed colour
    if active_needed and s_len != 0:
        pb = PLAY_BEST[_mask(S, s_col), ls1]
        if pb < NO_PLAY:
            return A_PLAY + s_col * 3 + (pb & 15)
    # rule 3: start a series in the best-held needed colour (unless rule 2 holds)
    if not (active_needed and s_len == 2):
        top = 0
        best_r = NO_PLAY
        for col in range(4):
            if S[DR + col] < 2:
                n = _cnt(S, col)
                if n >= 2 and n >= top:
                    m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
                    pb = PLAY_BEST[m, ls1]
                    if pb < NO_PLAY:
                        r = pb + col * 3
                        if n > top or r < best_r:
                            top = n
                            best_r = r
        if top > 0:
            return A_PLAY + (best_r & 15)
    # rules 2 and 4: discard the least useful card (engine.policy._discard_rank)
    best_r = NO_PLAY
    for col in range(4):
        m = m0 if col == 0 else (m1 if col == 1 else (m2 if col == 2 else m3))
        if m != 0:
            off = LOWEST[m]
            nd = 1 if S[DR + col] < 2 else 0
            key = 1 if off == 2 else 0
            ins = 1 if (col == s_col and s_len != 0 and nd == 1) else 0
            sym = 0 if off == 0 else 1
            r = ((((key * 2 + nd) * 2 + ins) * 8 + _cnt(S, col)) * 2 + sym) * 16 + col * 3 + off
            if r < best_r:
                best_r = r
    return A_DISCARD + (best_r & 15)


@njit(cache=True)
def _greedy_prophecy(S):
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
    else:
        s_col = last // 3
        s_len = S[SER]
    k = min(5, S[NTOP] + S[UTOT])
    victim = -1
    for j in range(k):
        if S[TOP + j] == NIGHT:
            victim = NIGHT
    if victim < 0:
        best_r = 1 << 40
        for j in range(k):
            c = S[TOP + j]
            if c < 12:
                r = _discard_rank(S, s_col, s_len, c, 1)
                if r < best_r:
                    best_r = r
                    victim = c
    if victim < 0:                            # only Doors revealed
        best_r = 1 << 40
        for j in range(k):
            r = _prophecy_value(S, s_col, s_len, S[TOP + j])
            if r < best_r:
                best_r = r
                victim = S[TOP + j]
    # the rest, best first; a stable sort (ties keep the revealed order), as Python's
    rest0 = 0
    rest1 = 0
    rest2 = 0
    rest3 = 0
    v0 = 0
    v1 = 0
    v2 = 0
    v3 = 0
    m = 0
    removed = False
    for j in range(k):
        c = S[TOP + j]
        if not removed and c == victim:
            removed = True
            continue
        v = _prophecy_value(S, s_col, s_len, c)
        # insert (c, v) after every entry of value >= v
        if m >= 1 and v0 < v:
            rest3, rest2, rest1, rest0 = rest2, rest1, rest0, c
            v3, v2, v1, v0 = v2, v1, v0, v
        elif m >= 2 and v1 < v:
            rest3, rest2, rest1 = rest2, rest1, c
            v3, v2, v1 = v2, v1, v
        elif m >= 3 and v2 < v:
            rest3, rest2 = rest2, c
            v3, v2 = v2, v
        else:
            if m == 0:
                rest0 = c
                v0 = v
            elif m == 1:
                rest1 = c
                v1 = v
            elif m == 2:
                rest2 = c
                v2 = v
            else:
                rest3 = c
                v3 = v
        m += 1
    # the smallest action number with that outcome (the one the legal list keeps)
    for i in range(k):
        if S[TOP + i] != victim:
            continue
        for p in range(NPERM[m]):
            same = True
            for q in range(m):
                j = PERMS[m, p, q]
                if j >= i:
                    j += 1
                if q == 0:
                    want = rest0
                elif q == 1:
                    want = rest1
                elif q == 2:
                    want = rest2
                else:
                    want = rest3
                if S[TOP + j] != want:
                    same = False
                    break
            if same:
                return A_PROPHECY + i * 24 + p
    return -1                                 # unreachable for a legal state


@njit(cache=True, inline="always")
def _greedy_nightmare(S):
    last = S[LAST]
    if last == NO_CARD:
        s_col = -1
        s_len = 0
    else:
        s_col = last // 3
        s_len = S[SER]
    best = -1
    best_r = 1 << 40
    for col in range(4):
        c = B.key_of(col)
        if S[H + c] > 0:
            r = _discard_rank(S, s_col, s_len, c, 0)
            if r < best_r:
                best_r = r
                best = col
    if best >= 0:
        return A_NM_KEY + best
    size = S[NTOP] + S[UTOT]
    if size >= 10:
        return A_NM_REVEAL
    any_needed = False
    for c in range(12):
        if S[H + c] > 0 and S[DR + c // 3] < 2:
            any_needed = True
    if not any_needed:
        return A_NM_REDRAW
    if size >= 6:
        for col in range(4):
            if S[DR + col] > 0:
                return A_NM_DOOR + col
    return A_NM_REVEAL


@njit(cache=True, inline="always")
def greedy(S):
    """engine.policy.greedy_action (solo) at the decision state ``S``."""
    ph = S[PH]
    if ph == P_PLAY:
        return _greedy_play(S)
    if ph == P_PROPHECY:
        return _greedy_prophecy(S)
    if ph == P_DOOR:
        return A_DOOR_KEY
    if ph == P_NIGHTMARE:
        return _greedy_nightmare(S)
    return -1


@njit(cache=True, inline="always")
def greedy_plus(S):
    """solver.honest.rollout.greedy_plus_action: greedy with two changes.

    1. Nightmare: where greedy would reveal the top 5, discard the hand instead.
    2. Play: where greedy would discard a non-Key card that may be played (its symbol differs
       from the last card's) while the row has no open series of a needed colour, play it."""
    a = greedy(S)
    ph = S[PH]
    if ph == P_NIGHTMARE:
        if a == A_NM_REVEAL:
            return A_NM_REDRAW
        return a
    if ph == P_PLAY and a >= A_DISCARD:
        c = a - A_DISCARD
        last = S[LAST]
        if not B.is_key(c) and B.playable(last, c):
            if not (S[SER] != 0 and S[DR + last // 3] < 2):
                return A_PLAY + c
    return a


GREEDY, GREEDY_PLUS = 0, 1
BASES = {"greedy": GREEDY, "greedy-plus": GREEDY_PLUS}


@njit(cache=True, inline="always")
def base_action(S, base):
    if base == GREEDY_PLUS:
        return greedy_plus(S)
    return greedy(S)


# ----------------------------------------------------------------------------- playouts
MAX_DECISIONS = 2000   # a guard: a solo game has far fewer decisions


@njit(cache=True, _nrt=False)
def playout(S, key, trace, base):
    """Play ``S`` to the end with the base policy's decisions (``base``: GREEDY or
    GREEDY_PLUS) and draws from stream ``key``.

    Returns 1 (won), 0 (lost) or -1 (the guard hit: never in a legal game).  If ``trace`` is
    not empty, trace[0] = how many steps follow in trace[1:]: decisions as engine action
    integers, draws as DRAW + type (as far as the trace reaches)."""
    ctr = 0
    steps = 0
    nt = trace.shape[0]
    while True:
        advance(S)
        ph = S[PH]
        if ph == P_WON:
            return 1
        if ph == P_LOST:
            return 0
        if ph >= P_SETUP:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            _drawn(S, t)
            if nt > 0 and trace[0] + 1 < nt:
                trace[0] += 1
                trace[trace[0]] = A_DRAW + t
            continue
        a = base_action(S, base)
        if nt > 0 and trace[0] + 1 < nt:
            trace[0] += 1
            trace[trace[0]] = a
        apply_action(S, a)
        steps += 1
        if steps > MAX_DECISIONS:
            return -1


@njit(cache=True)
def _playout_batch(n, key0, S, out, base):
    """``n`` greedy games from the setup; game g uses stream word(key0, g).
    out = (games, wins, decisions-free count of failures)."""
    wins = 0
    bad = 0
    notrace = np.empty(0, dtype=np.int64)
    for g in range(n):
        new_game(S)
        r = playout(S, word(key0, g), notrace, base)
        if r < 0:
            bad += 1
        else:
            wins += r
    out[0] = n
    out[1] = wins
    out[2] = bad


def playout_batch(n: int, key: int = 0, base: str = "greedy") -> dict:
    """Play ``n`` whole base-policy games from the setup in the kernel: games, wins,
    failures."""
    S = np.zeros(NS, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    _playout_batch(np.int64(n), np.uint64(key), S, out, np.int64(BASES[base]))
    return {"games": int(out[0]), "wins": int(out[1]), "failed": int(out[2])}


# ----------------------------------------------------------------------------- rollouts
# One-step rollout policy improvement over the greedy base policy, and a level-2 version whose
# playouts are played by the level-1 policy.  Playout j of every candidate action uses the
# chance stream word(key, j): common random numbers across the actions.
SALT_DECISION = np.uint64(0x5851F42D4C957F2D)


@njit(cache=True, inline="always")
def _copy(dst, src):
    for i in range(NS):
        dst[i] = src[i]


@njit(cache=True)
def _eval1(S0, a, j0, j1, key, S, row, base):
    """row[j] = 1 if greedy play after action ``a`` from ``S0`` wins with stream j, for j in
    [j0, j1)."""
    notrace = np.empty(0, dtype=np.int64)
    for j in range(j0, j1):
        _copy(S, S0)
        apply_action(S, a)
        row[j] = 1 if playout(S, word(key, j), notrace, base) > 0 else 0


@njit(cache=True)
def _select(res, cand, m, base, n, z):
    """The row of ``res[:, :n]`` to play: the base row unless a candidate's paired mean
    difference to it exceeds ``z`` standard errors (the largest such difference wins)."""
    best = base
    best_d = 0.0
    for q in range(m):
        i = cand[q]
        if i == base:
            continue
        s = 0
        s2 = 0
        for j in range(n):
            d = np.int64(res[i, j]) - np.int64(res[base, j])
            s += d
            s2 += d * d
        mean = s / n
        var = 0.0
        if n > 1:
            var = (s2 - s * s / n) / (n - 1)
            if var < 0.0:
                var = 0.0
        se = np.sqrt(var / n)
        if mean > z * se and mean > best_d:
            best = i
            best_d = mean
    return best


@njit(cache=True)
def _screen(res, nact, base, n_s, keep, cand):
    """Candidates after the screen: the ``keep`` rows with the most wins in the first ``n_s``
    playouts (ties: lower row), plus the base row.  Returns how many (into ``cand``)."""
    m = 0
    taken = np.zeros(nact, dtype=np.bool_)
    for _ in range(min(keep, nact)):
        bi = -1
        bs = -1
        for i in range(nact):
            if taken[i]:
                continue
            s = 0
            for j in range(n_s):
                s += res[i, j]
            if s > bs:
                bs = s
                bi = i
        taken[bi] = True
        cand[m] = bi
        m += 1
    if not taken[base]:
        cand[m] = base
        m += 1
    return m


@njit(cache=True)
def decide1(S0, n, z, key, screen, keep, base):
    """The level-1 rollout action at decision state ``S0`` (see solver.honest.rollout)."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    g = base_action(S0, base)
    bi = 0
    for i in range(nact):
        if acts[i] == g:
            bi = i
    res = np.zeros((nact, n), dtype=np.int8)
    S = np.empty(NS, dtype=np.int64)
    cand = np.empty(nact + 1, dtype=np.int64)
    if screen > 0 and screen < n and nact > keep + 1:
        for i in range(nact):
            _eval1(S0, acts[i], 0, screen, key, S, res[i], base)
        m = _screen(res, nact, bi, screen, keep, cand)
        for q in range(m):
            _eval1(S0, acts[cand[q]], screen, n, key, S, res[cand[q]], base)
    else:
        m = nact
        for i in range(nact):
            cand[i] = i
            _eval1(S0, acts[i], 0, n, key, S, res[i], base)
    return acts[_select(res, cand, m, bi, n, z)]


@njit(cache=True)
def playout_l1(S, key, n1, z1, screen1, keep1, base):
    """Play ``S`` to the end with the level-1 rollout policy; draws from stream ``key``, the
    decision i's own stream is word(key ^ SALT_DECISION, i).  Returns 1 (won) or 0."""
    ctr = 0
    steps = 0
    dkey = mix64(key ^ SALT_DECISION)
    while True:
        advance(S)
        ph = S[PH]
        if ph == P_WON:
            return 1
        if ph == P_LOST:
            return 0
        if ph >= P_SETUP:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            _drawn(S, t)
            continue
        a = decide1(S, n1, z1, word(dkey, steps), screen1, keep1, base)
        apply_action(S, a)
        steps += 1
        if steps > MAX_DECISIONS:
            return 0


@njit(cache=True)
def _eval2(S0, a, j0, j1, key, S, row, n1, z1, screen1, keep1, base):
    for j in range(j0, j1):
        _copy(S, S0)
        apply_action(S, a)
        row[j] = playout_l1(S, word(key, j), n1, z1, screen1, keep1, base)


@njit(cache=True)
def decide2(S0, n, z, key, screen, keep, n1, z1, screen1, keep1, base):
    """The level-2 rollout action: as decide1, with level-1 rollout playouts."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    g = decide1(S0, n1, z1, mix64(key ^ SALT_DECISION), screen1, keep1, base)
    bi = 0
    for i in range(nact):
        if acts[i] == g:
            bi = i
    res = np.zeros((nact, n), dtype=np.int8)
    S = np.empty(NS, dtype=np.int64)
    cand = np.empty(nact + 1, dtype=np.int64)
    if screen > 0 and screen < n and nact > keep + 1:
        for i in range(nact):
            _eval2(S0, acts[i], 0, screen, key, S, res[i], n1, z1, screen1, keep1, base)
        m = _screen(res, nact, bi, screen, keep, cand)
        for q in range(m):
            _eval2(S0, acts[cand[q]], screen, n, key, S, res[cand[q]], n1, z1, screen1, keep1,
                   base)
    else:
        m = nact
        for i in range(nact):
            cand[i] = i
            _eval2(S0, acts[i], 0, n, key, S, res[i], n1, z1, screen1, keep1, base)
    return acts[_select(res, cand, m, bi, n, z)]


@njit(cache=True)
def estimate_all(S0, n, key, acts, res, base):
    """res[i, j] = greedy playout j after action acts[i] (wins 1 / losses 0); returns the
    number of legal actions (written to ``acts``)."""
    nact = legal(S0, acts)
    S = np.empty(NS, dtype=np.int64)
    for i in range(nact):
        _eval1(S0, acts[i], 0, n, key, S, res[i], base)
    return nact


@njit(cache=True)
def _policy_games(n_games, key0, n1, z1, screen1, keep1, out, base):
    """Whole games from the setup played by the level-1 rollout policy (n1 = 0: greedy),
    game g with stream word(key0, g).  out[g] = 1 if won."""
    S = np.empty(NS, dtype=np.int64)
    notrace = np.empty(0, dtype=np.int64)
    for g in range(n_games):
        new_game(S)
        if n1 == 0:
            out[g] = 1 if playout(S, word(key0, g), notrace, base) > 0 else 0
        else:
            out[g] = playout_l1(S, word(key0, g), n1, z1, screen1, keep1, base)


def policy_games(n_games: int, key: int = 0, n: int = 0, z: float = 1.0, screen: int = 16,
                 keep: int = 6, base: str = "greedy") -> np.ndarray:
    """Win (1) / loss (0) of ``n_games`` chance-mode games from the setup played inside the
    kernel by the level-1 rollout policy with ``n`` playouts per action (0: greedy)."""
    out = np.zeros(n_games, dtype=np.int64)
    _policy_games(np.int64(n_games), np.uint64(key), np.int64(n), np.float64(z),
                  np.int64(screen), np.int64(keep), out, np.int64(BASES[base]))
    return out


# ----------------------------------------------------------------------------- Python side
def encode(state) -> np.ndarray:
    """The kernel array of a solo chance-mode engine ``State`` (e.g. a player_view)."""
    if state.players != 1:
        raise ValueError("the honest kernel plays solo games only")
    if state.seed is not None:
        raise ValueError("encode needs a chance-mode state (engine.view.player_view)")
    if len(state.deck) > NS - TOP:
        raise ValueError("too many known deck cards")
    S = np.zeros(NS, dtype=np.int64)
    for c in state.hands[0]:
        S[H + c] += 1
    n = 0
    for t in range(17):
        S[U + t] = state.unknown[t]
        for _ in range(state.unknown[t]):
            S[ARR + n] = t
            n += 1
    for c in state.discard:
        S[D + c] += 1
    for c in state.limbo:
        S[L + c] += 1
    for d in state.doors[0]:
        S[DR + C.colour(d)] += 1
    row = state.rows[0]
    S[LAST] = row[-1] if row else NO_CARD
    S[SER] = B.open_series(row)
    S[ROWLEN] = len(row)
    S[PH] = PHASE_CODE[state.phase]
    S[DRAWN] = -1 if state.drawn is None else state.drawn
    S[LEFT] = state.left
    S[NTOP] = len(state.deck)
    for i, c in enumerate(state.deck):
        S[TOP + i] = c
    S[UTOT] = sum(state.unknown)
    S[HSIZE] = len(state.hands[0])
    S[NDOORS] = len(state.doors[0])
    S[LTOT] = len(state.limbo)
    return S


def _counts(cards, n=17):
    out = [0] * n
    for c in cards:
        out[c] += 1
    return out


def _engine_series(S) -> int:
    """The row's series in engine terms (engine.game.series_length: 1..3, 0 for an empty
    row) from the kernel's open series (0 also once a series of 3 completes)."""
    if S[LAST] == NO_CARD:
        return 0
    return S[SER] if S[SER] != 0 else SERIES_LENGTH


def decode(S) -> dict:
    """The kernel state as a dict of comparable fields (see :func:`engine_fields`)."""
    S = [int(x) for x in S]
    return {
        "phase": PHASE_NAMES[S[PH]],
        "hand": S[H:H + 12],
        "unknown": S[U:U + 17],
        "unknown_list": _counts(S[ARR:ARR + S[UTOT]]),
        "discard": S[D:D + 17],
        "limbo": S[L:L + 17],
        "doors": S[DR:DR + 4],
        "last": None if S[LAST] == NO_CARD else S[LAST], "series": _engine_series(S),
        "rowlen": S[ROWLEN],
        "drawn": S[DRAWN], "left": S[LEFT],
        "top": S[TOP:TOP + S[NTOP]],
        "totals": (S[UTOT], S[HSIZE], S[NDOORS], S[LTOT]),
    }


def engine_fields(state) -> dict:
    """The same fields computed from a solo chance-mode engine ``State``."""
    row = state.rows[0]
    return {
        "phase": state.phase,
        "hand": _counts(state.hands[0], 12),
        "unknown": list(state.unknown),
        "unknown_list": list(state.unknown),
        "discard": _counts(state.discard),
        "limbo": _counts(state.limbo),
        "doors": [state.doors[0].count(12 + col) for col in range(4)],
        "last": row[-1] if row else None, "series": G.series_length(row), "rowlen": len(row),
        "drawn": -1 if state.drawn is None else state.drawn, "left": state.left,
        "top": list(state.deck),
        "totals": (sum(state.unknown), len(state.hands[0]), len(state.doors[0]),
                   len(state.limbo)),
    }


def diff(S, state) -> dict:
    """Fields where the kernel array ``S`` and the engine ``state`` differ: {field: (k, e)}."""
    a = decode(S)
    b = engine_fields(state)
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


def traced_playout(S, key: int, max_steps: int = 4096, base: str = "greedy"):
    """Play a copy of ``S`` to the end (greedy, stream ``key``): (result, steps) where the
    steps are engine action integers (draws as DRAW + type)."""
    S = np.array(S, dtype=np.int64)
    trace = np.zeros(max_steps + 1, dtype=np.int64)
    r = playout(S, np.uint64(key), trace, np.int64(BASES[base]))
    return int(r), [int(x) for x in trace[1:1 + trace[0]]], S


def legal_list(S) -> list[int]:
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = legal(S, out)
    return [int(x) for x in out[:n]]


def greedy_at(S) -> int:
    return int(greedy(S))


@njit(cache=True)
def _base_at(S, base):
    return base_action(S, base)


def base_at(S, base: str) -> int:
    """The base policy's action at the decision state ``S``."""
    return int(_base_at(S, np.int64(BASES[base])))


def compile_all() -> None:
    """Compile (or load from the cache) the kernel's entry points."""
    playout_batch(2, 1)
    playout_batch(2, 1, "greedy-plus")
    S = np.zeros(NS, dtype=np.int64)
    new_game(S)
    advance(S)
    apply_chance(S, 0)
    legal_list(S)
    greedy(S)
    is_chance(S)


def differential_run(steps: int, seed: int = 0, greedy_share: float = 0.5) -> dict:
    """Play chance-mode games in the engine and the kernel side by side, with the same chance
    outcomes and the same decisions, and compare them after every step.

    Chance outcomes follow the engine's probabilities (``random.Random(seed)``).  Each game
    draws its own share of greedy decisions (0, ``greedy_share`` or 1); the others are uniform
    random legal actions.  At every decision the kernel's legal list and greedy action must
    equal the engine's.  Returns the counts; raises AssertionError at the first difference.
    """
    import random

    from engine.policy import greedy_plus_action

    rnd = random.Random(seed)
    S = np.zeros(NS, dtype=np.int64)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    game = G.Game(1)
    n = {"steps": 0, "decisions": 0, "chance": 0, "games": 0, "wins": 0}
    phases: dict = {}
    while n["steps"] < steps:
        share = rnd.choice((0.0, greedy_share, 1.0))
        st = game.new_initial_state()
        new_game(S)
        advance(S)
        n["games"] += 1
        while True:
            d = diff(S, st)
            assert not d, f"step {n['steps']}: kernel and engine differ: {d} at {st}"
            if st.is_terminal():
                n["wins"] += st.won()
                break
            if st.is_chance_node():
                acts, probs = zip(*st.chance_outcomes())
                a = rnd.choices(acts, weights=probs)[0]
                st.apply_action(a)
                apply_chance(S, a - G.DRAW)
                advance(S)
                n["chance"] += 1
            else:
                legal_e = st.legal_actions()
                k = legal(S, out)
                legal_k = [int(x) for x in out[:k]]
                assert legal_k == legal_e, f"legal actions differ at {st}: {legal_k} {legal_e}"
                g = int(greedy(S))
                ge = __import__("engine.policy", fromlist=["greedy_action"]).greedy_action(st)
                assert g == ge, f"greedy differs at {st}: kernel {g}, engine {ge}"
                gp = base_at(S, "greedy-plus")
                gpe = greedy_plus_action(st)
                assert gp == gpe, f"greedy-plus differs at {st}: kernel {gp}, reference {gpe}"
                if rnd.random() < share:
                    a = g if rnd.random() < 0.5 else gp
                else:
                    a = rnd.choice(legal_e)
                phases[st.phase] = phases.get(st.phase, 0) + 1
                st.apply_action(a)
                apply_action(S, a)
                advance(S)
                n["decisions"] += 1
            n["steps"] += 1
    n["decisions_by_phase"] = phases
    return n
