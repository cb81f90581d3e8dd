"""Whole solo games played inside the numba kernel, for the engine-versus-kernel comparison.

The state and the move functions are those of :mod:`solver.clairvoyant.deal_kernel` (``_legal`` and ``_apply``
on the bit-packed deal-mode state); this module adds three things on top:

* ``_deal``: the setup of a seeded deal in the kernel (shuffle index 0 of all 76 cards, draw
  until 5 Locations are in hand with Doors and Nightmares set aside, then the limbo shuffle),
  so that a playout never leaves numba;
* a uniform random policy driven by a counter-based generator: the ``i``-th decision of the
  game with seed ``s`` uses ``mix64(key(s) + (i + 1) * GAMMA)``, so a random playout is a pure
  function of (seed, stream) and needs no generator state;
* ``_greedy``: the greedy policy of :mod:`engine.policy` (``greedy_action``), solo part, on
  the packed state: greedy's shared decisions (:mod:`solver.steps`, those of the
  information-state greedies) on the hand, Doors and revealed cards read off the state;
  ``tests/solver/clairvoyant/test_kernel_playouts.py`` checks that it takes exactly the engine's actions.

The greedy policy reads only what the engine's reads: the hand, the last card of the row and
the length of its series, the Doors in play, the deck *size* and, in phase ``prophecy``, the
revealed cards.

Python entry points: :func:`playout` (one game, with its action sequence; for tests) and
:func:`run_batch` (many games, counts only; for the benchmark).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from solver.clairvoyant import deal_kernel as deal
from solver.clairvoyant import deal_turn

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}

# Card types, rule sizes, phase numbers (engine.rules), action numbers (engine.game) and the
# kernel's layout (solver.clairvoyant.deal_kernel), imported as module-level names so that numba freezes them.
from engine.game import DISCARD as A_DISCARD  # noqa: E402
from engine.game import DOOR_KEY as A_DOOR_KEY  # noqa: E402
from engine.game import NM_DOOR as A_NM_DOOR  # noqa: E402
from engine.game import NM_KEY as A_NM_KEY  # noqa: E402
from engine.game import NM_REDRAW as A_NM_REDRAW  # noqa: E402
from engine.game import NM_REVEAL as A_NM_REVEAL  # noqa: E402
from engine.game import PLAY as A_PLAY  # noqa: E402
from engine.rules import DEAL_LOST as PH_LOST  # noqa: E402
from engine.rules import DEAL_WON as PH_WON  # noqa: E402
from engine.rules import HAND_SIZE, PH_DOOR, PH_NIGHTMARE, PH_PLAY  # noqa: E402
from engine.rules import COLOURS, PH_PROPHECY, PROPHECY_SIZE  # noqa: E402
from engine.rules import NO_CARD as EMPTY  # noqa: E402
from engine.rules import NUM_LOCATION_TYPES as NLOC  # noqa: E402
from solver import board   # noqa: E402
from solver import steps as turn_steps  # noqa: E402
from solver.clairvoyant.deal_kernel import (COUNTS, DOOR_SHIFT, HAND_AT, LAST_SHIFT, MAX_MOVES,  # noqa: E402
                           MAX_SLOTS, N_SHIFT, PHASE_SHIFT, ROW_AT, S_SHIFT, WK_PC)
S_ROOT = 1            # a deal's root is the position after the setup shuffle (shuffle 0)
MAX_STEPS = 4096      # a solo game takes a few hundred decisions at most; a guard, not a rule

_SALT = np.uint64(0xD1B54A32D192ED03)


# ----------------------------------------------------------------------------- generator
# the shared mixer (solver.steps.mix64 / word)
@njit(cache=True)
def _rng_key(seed, stream):
    return turn_steps.word(turn_steps.mix64(seed ^ _SALT), stream)


@njit(cache=True)
def _rng_below(key, i, n):
    """The i-th draw of stream ``key``, reduced to 0 .. n-1 (bias <= n / 2**64)."""
    r = turn_steps.word(key, i)
    return np.int64(r % np.uint64(n))


# ----------------------------------------------------------------------------- setup
@njit(cache=True)
def _deal(seed, st, perms, wk):
    """Set ``st`` to the first decision of deal ``seed`` (engine ``new_initial_state``)."""
    for i in range(WK_PC, wk.shape[0]):   # the kernel's permutation cache is per deal
        wk[i] = -1
    n = deal._shuffle_into(COUNTS, seed, np.int64(0), perms[0])
    deal._fill_sfx(perms, 0, n)
    st[0] = (np.int64(EMPTY) << LAST_SHIFT) | (np.int64(PH_PLAY) << PHASE_SHIFT)
    st[1] = (np.int64(1) << S_SHIFT) | (np.int64(n) << N_SHIFT)
    st[2] = deal._pack_m(COUNTS)
    while not turn_steps.hand_full(deal._hand_size(st[0])):   # the setup (a 76-card deck: never lost)
        deal._redraw_card(st, deal._pop(st, perms, S_ROOT))
    deal_turn._end_turn(st, perms, S_ROOT, seed, wk)   # limbo shuffle (if any), phase play


# ----------------------------------------------------------------------------- greedy
# greedy's decisions are the shared ones (solver.steps, its section of greedy's decisions:
# play_choice, greedy_prophecy, nightmare_key/nightmare_fallback, as the information-state
# greedies call them); what stays here is how the deal kernel's hand, Doors and revealed cards
# are read: unpacked from the state word into one array (the hand's counts at 0, the Doors in
# play at HD) and the revealed cards into another.
HD = NLOC             # where the Doors in play follow the hand's counts in _greedy's array


@njit(cache=True)
def _greedy(st, perms, s_root):
    """The action of engine.policy.greedy_action at the (solo, deal-mode) kernel state."""
    w0 = st[0]
    ph = (w0 >> PHASE_SHIFT) & 7
    S = np.zeros(NLOC + COLOURS, dtype=np.int64)
    for c in range(NLOC):
        S[c] = board.hand_get(w0, HAND_AT, c)
    for col in range(COLOURS):
        S[HD + col] = board.doors_get(w0, DOOR_SHIFT, col)
    last = board.row_last(w0, ROW_AT)
    if last == EMPTY:
        s_col = -1
        s_len = 0
        ls1 = 0
    else:
        s_col = last // 3
        s_len = board.row_series(w0, ROW_AT)      # 0: the series just completed (no open series)
        ls1 = last % 3 + 1

    if ph == PH_PLAY:
        play, c = turn_steps.play_choice(S, 0, 0, False, HD, False, s_col, s_len, ls1)
        return (A_PLAY if play else A_DISCARD) + c

    if ph == PH_PROPHECY:
        k = turn_steps.prophecy_count(deal._deck_size(st))
        rev = np.empty(PROPHECY_SIZE, dtype=np.int64)
        for j in range(k):
            rev[j] = deal._card_at(st, perms, s_root, j)
        doors = (S[HD], S[HD + 1], S[HD + 2], S[HD + 3])
        keys = (S[board.key_of(0)] > 0, S[board.key_of(1)] > 0, S[board.key_of(2)] > 0,
                S[board.key_of(3)] > 0)
        cnts = (turn_steps.hand_count(S, 0, 0, False, 0), turn_steps.hand_count(S, 0, 0, False, 1),
                turn_steps.hand_count(S, 0, 0, False, 2), turn_steps.hand_count(S, 0, 0, False, 3))
        return turn_steps.greedy_prophecy(rev, 0, k, doors, keys, cnts, s_col, s_len)

    if ph == PH_DOOR:
        return A_DOOR_KEY                         # always use the Key

    if ph == PH_NIGHTMARE:
        col = turn_steps.nightmare_key(S, 0, 0, False, HD, False, s_col, s_len)
        if col >= 0:
            return A_NM_KEY + col
        return turn_steps.nightmare_fallback(S, 0, 0, False, HD, False, deal._deck_size(st), A_NM_REVEAL,
                                    A_NM_REDRAW, A_NM_DOOR)
    return -1


# ----------------------------------------------------------------------------- playouts
@njit(cache=True, inline="always")   # inlined into _batch: one compilation, not two
def _play(seed, policy, stream, st, perms, wk, moves, trace):
    """Play deal ``seed`` to the end; returns the number of decisions (-1: the guard hit,
    -2: the policy had no action).  The actions go to ``trace`` as far as it reaches."""
    _deal(seed, st, perms, wk)
    key = _rng_key(seed, stream)
    steps = 0
    while True:
        ph = (st[0] >> PHASE_SHIFT) & 7
        if ph == PH_WON or ph == PH_LOST:
            return steps
        if steps >= MAX_STEPS or ((st[1] >> S_SHIFT) & 255) - S_ROOT >= MAX_SLOTS - 1:
            return -1
        if policy == GREEDY:
            a = _greedy(st, perms, S_ROOT)
            if a < 0:
                return -2
        else:
            n = deal_turn._legal(st, perms, S_ROOT, moves)
            if n <= 0:
                return -2
            a = moves[_rng_below(key, steps, n)]
        if steps < trace.shape[0]:
            trace[steps] = a
        deal_turn._apply(st, np.int64(a), perms, S_ROOT, seed, wk)
        steps += 1


@njit(cache=True)
def _batch(seeds, policy, stream, st, perms, wk, moves, trace, out):
    """Play every seed; out = (games, decisions, wins, failures)."""
    games = 0
    steps = 0
    wins = 0
    bad = 0
    for s in seeds:
        n = _play(s, policy, stream, st, perms, wk, moves, trace)
        if n < 0:
            bad += 1
            continue
        games += 1
        steps += n
        if ((st[0] >> PHASE_SHIFT) & 7) == PH_WON:
            wins += 1
    out[0] = games
    out[1] = steps
    out[2] = wins
    out[3] = bad


class Buffers:
    """The arrays a playout works in (allocated once, reused for every game)."""

    def __init__(self):
        self.st = np.zeros(deal.NW, dtype=np.int64)
        self.perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)
        self.wk = deal.new_wk()
        # the kernel's move generator may use the buffer beyond the moves as scratch
        # (solver.clairvoyant.deal_kernel.MOVES_BUF); take a generous size so that no layout change overflows it
        self.moves = np.zeros(max(1024, 2 * getattr(deal, "MOVES_BUF", MAX_MOVES)), dtype=np.int64)
        self.trace = np.zeros(MAX_STEPS, dtype=np.int64)
        self.out = np.zeros(4, dtype=np.int64)


_BUF: Buffers | None = None


def _buffers() -> Buffers:
    global _BUF
    if _BUF is None:
        _BUF = Buffers()
    return _BUF


def _policy(policy) -> int:
    if policy in POLICIES:
        return POLICIES[policy]
    if policy in (RANDOM, GREEDY):
        return int(policy)
    raise ValueError(f"unknown policy {policy!r} (random or greedy)")


def playout(seed: int, policy="greedy", stream: int = 0) -> tuple[list[int], str]:
    """Play deal ``seed`` in the kernel: (engine action numbers, final phase 'won'/'lost')."""
    b = _buffers()
    _batch(np.array([seed], dtype=np.uint64), _policy(policy), np.int64(stream), b.st, b.perms,
           b.wk, b.moves, b.trace, b.out)
    if b.out[3]:
        raise RuntimeError(f"kernel playout of seed {seed} failed")
    n = int(b.out[1])
    return [int(a) for a in b.trace[:n]], deal.PHASE_NAMES[int((b.st[0] >> PHASE_SHIFT) & 7)]


def initial_state(seed: int) -> dict:
    """The kernel's first decision of deal ``seed``, decoded (compare with kernel.engine_view)."""
    b = _buffers()
    _deal(np.uint64(seed), b.st, b.perms, b.wk)
    return deal.decode(b.st, b.perms, S_ROOT)


def greedy_at(state) -> int:
    """The kernel greedy policy's action at a solo engine State in deal mode (via
    ``solver.clairvoyant.deal_kernel.encode``); for tests against ``engine.policy.greedy_action``."""
    st, perms, s_root, _ = deal.encode(state)
    return int(_greedy(st, perms, np.int64(s_root)))


def run_batch(seeds, policy="greedy", stream: int = 0) -> dict:
    """Play every seed of ``seeds``; returns games, decisions, wins and failed games."""
    b = _buffers()
    arr = np.asarray(list(seeds), dtype=np.uint64)
    _batch(arr, _policy(policy), np.int64(stream), b.st, b.perms, b.wk, b.moves, b.trace, b.out)
    games, steps, wins, bad = (int(x) for x in b.out)
    return {"games": games, "steps": steps, "wins": wins, "failed": bad}


def compile_all() -> None:
    """Compile (or load) every kernel used by the playouts, on one short game each."""
    run_batch([0], "random")
    run_batch([0], "greedy")
