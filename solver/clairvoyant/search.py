"""Clairvoyant depth-first search over kernel states, with an explicit stack.

The game in deal mode has no chance: a position is won if some legal action leads to a won
position.  The search is a depth-first OR-search:

* frames live in arrays (``S`` states, ``moves``/``nmov``/``idx`` move lists), never on the
  machine stack, so a deep line cannot overflow it and a search can stop after any number of
  nodes and resume later (the Python driver uses this for time budgets);
* children are generated in the order of :func:`solver.rules_core.score_move`;
* a child is discarded without expansion if it is terminal-lost, if a bound proves it lost
  (:func:`solver.rules_core.dead_core`), or if the transposition table holds it as lost;
* a node all of whose children are lost is lost, and goes to the table;
* the first won child ends the search: the line is the current move of every frame.

A *node* is one application of an action (one child generated).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import COLOURS, NO_CARD, PROPHECY_SIZE

from solver import board
from . import deal_kernel as deal
from . import deal_turn
from solver import rules_core as core
from solver.tt import _probe, _store

MAXD = 1024   # > the most decisions a deal can have (<= ~60 turns x (1 play + 8 Doors) + 12 prophecies + 10 Nightmares)

_dead_nb = njit(cache=True, inline="always")(core.dead_core)
_score_nb = njit(cache=True, inline="always")(core.score_move)
_colour_counts_nb = njit(cache=True, inline="always")(core.colour_counts)

F_TT = 1 << 8          # flag bit: use the transposition table (low byte: bound bits)

ST_INIT, ST_RUN, ST_WIN, ST_LOSS = 0, 1, 2, 3
# info words
I_D, I_NODES, I_STATUS, I_EPOCH, I_FLAGS, I_SROOT, I_TTHITS, I_PRUNED = range(8)


@njit(cache=True, inline="always")
def _features(st, perms, s_root, hand, deckc, doors, ldoors):
    """Fill the feature arrays of rules_core from a packed state."""
    w0 = st[0]
    for c in range(12):
        hand[c] = board.hand_get(w0, deal.HAND_AT, c)
    for col in range(4):
        doors[col] = board.doors_get(w0, deal.DOOR_SHIFT, col)
        ldoors[col] = (w0 >> (deal.LDOOR_SHIFT + 2 * col)) & 3
    deal._deck_counts(st, perms, s_root, deckc)


@njit(cache=True, inline="always")
def _top5(st, perms, s_root, rev):
    ds = deal._deck_size(st)
    for j in range(PROPHECY_SIZE):
        if j < ds:
            rev[j] = deal._card_at(st, perms, s_root, j)
        else:
            rev[j] = -1


@njit(cache=True, inline="always")
def _is_dead(st, hand, deckc, doors, ldoors, bounds):
    w0 = st[0]
    ph = board.phase_get(w0, deal.PHASE_SHIFT)
    drawn = -1
    if ph == deal.PH_DOOR:
        drawn = board.drawn_get(w0, deal.DRAWN_SHIFT)
    hs = 0
    for c in range(12):
        hs += hand[c]
    return _dead_nb(hand, deckc, doors, ldoors, drawn, board.row_last(w0, deal.ROW_AT),
                    board.row_series(w0, deal.ROW_AT), NO_CARD, 0, hs, ph == deal.PH_PLAY, bounds)


@njit(cache=True, inline="always")
def _gen_ordered(st, perms, s_root, hand, deckc, doors, rev, out, scores):
    """Legal moves of ``st`` into ``out``, best first (score descending, then action
    ascending); ``out[128:]`` is used as scratch."""
    n = deal_turn._legal(st, perms, s_root, out)
    _top5(st, perms, s_root, rev)
    w0 = st[0]
    last = board.row_last(w0, deal.ROW_AT)
    ser = board.row_series(w0, deal.ROW_AT)
    ncol = rev[PROPHECY_SIZE:PROPHECY_SIZE + COLOURS]
    _colour_counts_nb(hand, ncol)
    for i in range(n):
        out[deal.CODES_AT + i] = out[i]
        scores[i] = _score_nb(out[i], hand, ncol, deckc, doors, last, ser, rev) * 256 + (255 - i)
    # keys are distinct, so any correct sort gives the same order: shell sort, descending
    gap = 1
    while gap * 3 + 1 < n:
        gap = gap * 3 + 1
    while gap >= 1:
        for i in range(gap, n):
            x = scores[i]
            j = i - gap
            while j >= 0 and scores[j] < x:
                scores[j + gap] = scores[j]
                j -= gap
            scores[j + gap] = x
        gap //= 3
    for i in range(n):
        out[i] = out[deal.CODES_AT + 255 - (scores[i] & 255)]
    return n


@njit(cache=True)
def _search(S, moves, nmov, idx, wstart, perms, seed, info, table, node_limit, wk):
    """Run the search until it ends or ``info[I_NODES]`` reaches ``node_limit``."""
    s_root = info[I_SROOT]
    flags = info[I_FLAGS]
    bounds = flags & 0xFF
    use_tt = (flags & F_TT) != 0
    epoch = info[I_EPOCH]
    counts = wk
    hand = np.zeros(12, dtype=np.int64)
    deckc = np.zeros(deal.NT, dtype=np.int64)
    doors = np.zeros(4, dtype=np.int64)
    ldoors = np.zeros(4, dtype=np.int64)
    rev = np.zeros(PROPHECY_SIZE + COLOURS, dtype=np.int64)   # the top cards, then cards per colour in hand
    scores = np.zeros(deal.MAX_MOVES, dtype=np.int64)
    c = np.zeros(deal.NW, dtype=np.int64)           # the child being made (no array views)
    kk = np.zeros(deal.NW, dtype=np.int64)          # a finished node's key, for the table
    mv = np.zeros(deal.MOVES_BUF, dtype=np.int64)
    nodes = info[I_NODES]
    d = info[I_D]
    if info[I_STATUS] == ST_INIT:
        ph = deal._phase(S[0])
        if ph == deal.PH_WON:
            info[I_STATUS] = ST_WIN
            info[I_D] = 0
            return
        if ph == deal.PH_LOST:
            info[I_STATUS] = ST_LOSS
            return
        _features(S[0], perms, s_root, hand, deckc, doors, ldoors)
        if bounds and _is_dead(S[0], hand, deckc, doors, ldoors, bounds):
            info[I_STATUS] = ST_LOSS
            return
        nmov[0] = _gen_ordered(S[0], perms, s_root, hand, deckc, doors, rev, moves[0], scores)
        idx[0] = 0
        wstart[0] = nodes
        d = 0
        info[I_STATUS] = ST_RUN
    if info[I_STATUS] != ST_RUN:
        return
    while True:
        if idx[d] >= nmov[d]:
            if use_tt:
                kk[0] = S[d, 0]
                kk[1] = S[d, 1]
                kk[2] = S[d, 2]
                _store(table, kk, epoch, nodes - wstart[d])
            if d == 0:
                info[I_STATUS] = ST_LOSS
                break
            d -= 1
            continue
        if nodes >= node_limit:
            break
        a = moves[d, idx[d]]
        idx[d] += 1
        c[0] = S[d, 0]
        c[1] = S[d, 1]
        c[2] = S[d, 2]
        deal_turn._apply(c, a, perms, s_root, seed, counts)
        nodes += 1
        ph = deal._phase(c)
        if ph == deal.PH_WON:
            d += 1
            info[I_STATUS] = ST_WIN
            break
        if ph == deal.PH_LOST:
            continue
        _features(c, perms, s_root, hand, deckc, doors, ldoors)
        if bounds and _is_dead(c, hand, deckc, doors, ldoors, bounds):
            info[I_PRUNED] += 1
            continue
        if use_tt and _probe(table, c, epoch):
            info[I_TTHITS] += 1
            continue
        d += 1
        S[d, 0] = c[0]
        S[d, 1] = c[1]
        S[d, 2] = c[2]
        nmov[d] = _gen_ordered(c, perms, s_root, hand, deckc, doors, rev, mv, scores)
        for z in range(nmov[d]):
            moves[d, z] = mv[z]
        idx[d] = 0
        wstart[d] = nodes
    info[I_D] = d
    info[I_NODES] = nodes


class Search:
    """The arrays of one search (reusable: :meth:`reset` starts a new one)."""

    def __init__(self, table):
        self.S = np.zeros((MAXD + 1, deal.NW), dtype=np.int64)
        self.moves = np.zeros((MAXD, deal.MOVES_BUF), dtype=np.int64)
        self.nmov = np.zeros(MAXD, dtype=np.int64)
        self.idx = np.zeros(MAXD, dtype=np.int64)
        self.wstart = np.zeros(MAXD, dtype=np.int64)
        self.info = np.zeros(8, dtype=np.int64)
        self.table = table
        self.perms = None
        self.seed = np.uint64(0)
        self.wk = deal.new_wk()

    def reset(self, st, perms, s_root, seed, epoch, flags):
        self.S[0, :] = st
        self.perms = perms
        self.seed = seed
        self.info[:] = 0
        self.info[I_EPOCH] = epoch
        self.info[I_FLAGS] = flags
        self.info[I_SROOT] = s_root
        self.wk[deal.WK_PC:] = -1

    def run(self, node_limit: int) -> None:
        _search(self.S, self.moves, self.nmov, self.idx, self.wstart, self.perms, self.seed,
                self.info, self.table, np.int64(node_limit), self.wk)

    @property
    def status(self) -> int:
        return int(self.info[I_STATUS])

    @property
    def nodes(self) -> int:
        return int(self.info[I_NODES])

    def line(self) -> list[int]:
        """The winning line (engine action numbers), after status == ST_WIN."""
        d = int(self.info[I_D])
        return [int(self.moves[i, self.idx[i] - 1]) for i in range(d)]
