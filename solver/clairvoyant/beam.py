"""Beam search over turns: the solver's fast way to *find* wins (it never proves a loss).

Level l holds at most W positions at the start of a turn (phase play).  Every position of the
level is expanded through every sequence of decisions of its turn (play or discard, prophecy,
Doors and Nightmares drawn while refilling) up to the start of the next turn; the resulting
positions are deduplicated by their exact packed key, scored by
:func:`solver.rules_core.eval_state`, and the W best form level l+1.  Positions that are lost,
or that a bound proves lost, are dropped.  A won position ends the search with its line.

Each beam position carries its own copy of the permutation of its last shuffle (80 bytes), so
positions with different shuffle histories coexist; before a position is expanded its
permutation is copied into the shared ``perms`` buffer at its slot.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from solver import board
from . import deal_kernel as deal
from . import deal_turn
from solver import rules_core as core
from .search import _features, _is_dead

_eval_nb = njit(cache=True, inline="always")(core.eval_state)

TA = 24            # max decisions in one turn (a longer turn is dropped: truncation)
TD = 40            # within-turn stack depth
MAXL = 128         # max turns
DEFAULT_WEIGHTS = np.array([60, 6, 8, 6, 5, 0, 0, 12, 4], dtype=np.int64)

BEAM_WIN, BEAM_EMPTY, BEAM_BUDGET = 1, 2, 3


@njit(cache=True, inline="always")
def _above(score, order, a, b):
    """Entry a belongs nearer the top of the min-heap than entry b: a lower score, or an
    equal score and a later order (the heap's single ordering rule)."""
    return score[a] < score[b] or (score[a] == score[b] and order[a] > order[b])


@njit(cache=True)
def _heap_down(heap, n, score, order, i):
    while True:
        l = 2 * i + 1
        if l >= n:
            return
        m = l
        r = l + 1
        if r < n and _above(score, order, heap[r], heap[l]):
            m = r
        a = heap[m]
        b = heap[i]
        if _above(score, order, a, b):
            heap[m] = b
            heap[i] = a
            i = m
        else:
            return


@njit(cache=True)
def _heap_up(heap, score, order, i):
    while i > 0:
        p = (i - 1) // 2
        a = heap[i]
        b = heap[p]
        if _above(score, order, a, b):
            heap[p] = a
            heap[i] = b
            i = p
        else:
            return


@njit(cache=True, inline="always")
def _win_line(b, level, k, tm, ti, lv_parent, lv_acts, lv_nacts, out_line):
    """Write the winning line into ``out_line``: the turns of the ancestors of beam entry
    ``b`` of ``level`` (followed back through ``lv_parent``), then the ``k + 1`` decisions
    of this turn (the stack ``tm``/``ti``).  Returns its length."""
    idx = b
    lv = level
    total = k + 1
    while lv > 0:
        total += lv_nacts[lv, idx]
        idx = lv_parent[lv, idx]
        lv -= 1
    pos = total
    for j in range(k, -1, -1):
        pos -= 1
        out_line[pos] = tm[j, ti[j] - 1]
    idx = b
    lv = level
    while lv > 0:
        m = lv_nacts[lv, idx]
        for j in range(m - 1, -1, -1):
            pos -= 1
            out_line[pos] = lv_acts[lv, idx, j]
        idx = lv_parent[lv, idx]
        lv -= 1
    return total


@njit(cache=True, inline="always")
def _seen(c, dkeys, dstamp, stamp, hmask):
    """True if the packed state ``c`` is already among this level's leaves (the hash table
    ``dkeys``, its slots of this level stamped ``stamp``); otherwise record it (unless its
    16 probes found no free slot) and return False."""
    h = (c[0] * np.int64(0x9E3779B97F4A7C1)) ^ (c[1] * np.int64(0x5851F42D4C957F2D)) \
        ^ (c[2] * np.int64(0x2545F4914F6CDD1D))
    h ^= h >> 29
    hi = h & hmask
    probes = 0
    while probes < 16:
        if dstamp[hi] != stamp:
            break
        if dkeys[hi, 0] == c[0] and dkeys[hi, 1] == c[1] and dkeys[hi, 2] == c[2]:
            return True
        hi = (hi + 1) & hmask
        probes += 1
    if probes < 16:
        dstamp[hi] = stamp
        dkeys[hi, 0] = c[0]
        dkeys[hi, 1] = c[1]
        dkeys[hi, 2] = c[2]
    return False


@njit(cache=True, inline="always")
def _next_level(hn, level, cur_st, cur_perm, nxt_st, nxt_perm, nxt_parent, nxt_acts,
                nxt_nacts, lv_parent, lv_acts, lv_nacts):
    """The ``hn`` entries kept for the next level become the current beam, in slot order,
    and their parents and turns are recorded for ``level + 1`` (the winning line's way
    back)."""
    for i in range(hn):
        for z in range(deal.NW):
            cur_st[i, z] = nxt_st[i, z]
        for z in range(deal.PERM_W):
            cur_perm[i, z] = nxt_perm[i, z]
        lv_parent[level + 1, i] = nxt_parent[i]
        m = nxt_nacts[i]
        lv_nacts[level + 1, i] = m
        for j in range(m):
            lv_acts[level + 1, i, j] = nxt_acts[i, j]


@njit(cache=True)
def _beam(root, root_perm, s_root, seed, W, node_limit, weights, bounds,
          cur_st, cur_perm, nxt_st, nxt_perm, nxt_score, nxt_order, nxt_parent, nxt_acts,
          nxt_nacts, lv_parent, lv_acts, lv_nacts, dkeys, dstamp, out_line, res, perms, counts):
    """res[0] = status, res[1] = nodes, res[2] = line length, res[3] = levels,
    res[5] = 1 if anything was cut (a level overflowed W, a turn exceeded TA/TD decisions):
    an empty beam that was never cut has enumerated every line, which proves a loss."""
    # perms: a (PERMS_ROWS, ROW_W) buffer (contents irrelevant: every slot is written before
    # it is read); counts: the kernel scratch ``wk``, its permutation cache emptied here
    # unless res[6] == 1 (the previous run used the same seed, so its cached shuffles hold)
    if res[6] == 0:
        counts[deal.WK_PC:] = -1
    hand = np.zeros(deal.NLOC, dtype=np.int64)
    deckc = np.zeros(deal.NT, dtype=np.int64)
    doors = np.zeros(4, dtype=np.int64)
    ldoors = np.zeros(4, dtype=np.int64)
    ts = np.zeros((TD + 1, deal.NW), dtype=np.int64)
    tm = np.zeros((TD, deal.MOVES_BUF), dtype=np.int64)
    tn = np.zeros(TD, dtype=np.int64)
    ti = np.zeros(TD, dtype=np.int64)
    heap = np.zeros(W, dtype=np.int64)
    c = np.zeros(deal.NW, dtype=np.int64)           # the child being made (no array views)
    mv = np.zeros(deal.MOVES_BUF, dtype=np.int64)
    # which permutation each slot of ``perms`` holds: (M word, shuffle count); the root's
    # slot 0 is never rewritten.  A beam entry whose (M, s) matches skips the copy.
    slot_m = np.full(deal.MAX_SLOTS, -1, dtype=np.int64)
    slot_m[0] = -2
    perms[0, :deal.PERM_W] = root_perm[:deal.PERM_W]
    deal._fill_sfx(perms, 0, (root[1] >> deal.N_SHIFT) & 127)
    hsize = dkeys.shape[0]
    hmask = hsize - 1
    nodes = 0
    cur_st[0, :] = root
    cur_perm[0, :] = root_perm[:deal.PERM_W]
    nb = 1
    order_ctr = 0
    for level in range(MAXL - 1):
        hn = 0
        stamp = level + 1 + res[4]
        for b in range(nb):
            slot = ((cur_st[b, 1] >> deal.S_SHIFT) & 255) - s_root
            if slot > 0 and slot_m[slot] != cur_st[b, 2]:
                n_perm = (cur_st[b, 1] >> deal.N_SHIFT) & 127
                for z in range(deal.PERM_W):
                    perms[slot, z] = cur_perm[b, z]
                deal._fill_sfx(perms, slot, n_perm)
                slot_m[slot] = cur_st[b, 2]
            ts[0, 0] = cur_st[b, 0]
            ts[0, 1] = cur_st[b, 1]
            ts[0, 2] = cur_st[b, 2]
            c[0] = ts[0, 0]
            c[1] = ts[0, 1]
            c[2] = ts[0, 2]
            tn[0] = deal_turn._legal(c, perms, s_root, mv)
            for z in range(tn[0]):
                tm[0, z] = mv[z]
            ti[0] = 0
            k = 0
            while True:
                if ti[k] >= tn[k]:
                    if k == 0:
                        break
                    k -= 1
                    continue
                a = tm[k, ti[k]]
                ti[k] += 1
                c[0] = ts[k, 0]
                c[1] = ts[k, 1]
                c[2] = ts[k, 2]
                s_before = (c[1] >> deal.S_SHIFT) & 255
                deal_turn._apply(c, a, perms, s_root, seed, counts)
                nodes += 1
                s_after = (c[1] >> deal.S_SHIFT) & 255
                if s_after != s_before:
                    # the move shuffled: slots s_before+1 .. s_after were rewritten
                    for z in range(s_before + 1 - s_root, s_after + 1 - s_root):
                        slot_m[z] = -1
                    slot_m[s_after - s_root] = c[2]
                ph = deal._phase(c)
                if ph == deal.PH_WON:
                    res[0] = BEAM_WIN
                    res[1] = nodes
                    res[2] = _win_line(b, level, k, tm, ti, lv_parent, lv_acts, lv_nacts,
                                       out_line)
                    res[3] = level
                    return
                if ph == deal.PH_LOST:
                    continue
                _features(c, perms, s_root, hand, deckc, doors, ldoors)
                if bounds and _is_dead(c, hand, deckc, doors, ldoors, bounds):
                    continue
                if ph != deal.PH_PLAY:
                    if k + 1 >= TD:
                        res[5] = 1
                        continue
                    k += 1
                    ts[k, 0] = c[0]
                    ts[k, 1] = c[1]
                    ts[k, 2] = c[2]
                    tn[k] = deal_turn._legal(c, perms, s_root, mv)
                    for z in range(tn[k]):
                        tm[k, z] = mv[z]
                    ti[k] = 0
                    continue
                # a leaf: the start of the next turn
                if k + 1 > TA:
                    res[5] = 1
                    continue
                if _seen(c, dkeys, dstamp, stamp, hmask):
                    continue
                ln = c[1] & 15
                sc = _eval_nb(hand, deckc, doors, ldoors, board.row_last(c[0], deal.ROW_AT),
                              board.row_series(c[0], deal.ROW_AT), ln, weights)
                grew = False
                if hn < W:
                    sl = hn
                    heap[hn] = sl
                    hn += 1
                    grew = True
                else:
                    res[5] = 1
                    sl = heap[0]
                    if sc <= nxt_score[sl]:
                        continue
                order_ctr += 1
                nxt_score[sl] = sc
                nxt_order[sl] = order_ctr
                nxt_st[sl, 0] = c[0]
                nxt_st[sl, 1] = c[1]
                nxt_st[sl, 2] = c[2]
                nslot = ((c[1] >> deal.S_SHIFT) & 255) - s_root
                for z in range(deal.PERM_W):
                    nxt_perm[sl, z] = perms[nslot, z]
                nxt_parent[sl] = b
                for j in range(k + 1):
                    nxt_acts[sl, j] = tm[j, ti[j] - 1]
                nxt_nacts[sl] = k + 1
                if grew:
                    _heap_up(heap, nxt_score, nxt_order, hn - 1)
                else:
                    _heap_down(heap, hn, nxt_score, nxt_order, 0)
            if nodes >= node_limit:
                res[0] = BEAM_BUDGET
                res[1] = nodes
                res[3] = level
                return
        if hn == 0:
            res[0] = BEAM_EMPTY
            res[1] = nodes
            res[3] = level
            return
        _next_level(hn, level, cur_st, cur_perm, nxt_st, nxt_perm, nxt_parent, nxt_acts,
                    nxt_nacts, lv_parent, lv_acts, lv_nacts)
        nb = hn
    res[0] = BEAM_EMPTY
    res[1] = nodes
    res[5] = 1


class Beam:
    """Buffers for beam searches of width up to ``W``."""

    def __init__(self, W: int):
        self.W = W
        self.cur_st = np.zeros((W, deal.NW), dtype=np.int64)
        self.cur_perm = np.zeros((W, deal.PERM_W), dtype=np.uint8)
        self.nxt_st = np.zeros((W, deal.NW), dtype=np.int64)
        self.nxt_perm = np.zeros((W, deal.PERM_W), dtype=np.uint8)
        self.nxt_score = np.zeros(W, dtype=np.int64)
        self.nxt_order = np.zeros(W, dtype=np.int64)
        self.nxt_parent = np.zeros(W, dtype=np.int64)
        self.nxt_acts = np.zeros((W, TA), dtype=np.int64)
        self.nxt_nacts = np.zeros(W, dtype=np.int64)
        self.lv_parent = np.zeros((MAXL, W), dtype=np.int32)
        self.lv_acts = np.zeros((MAXL, W, TA), dtype=np.int16)
        self.lv_nacts = np.zeros((MAXL, W), dtype=np.int16)
        hs = 1
        while hs < 16 * W:
            hs *= 2
        self.dkeys = np.zeros((hs, deal.NW), dtype=np.int64)
        self.dstamp = np.zeros(hs, dtype=np.int64)
        self.out_line = np.zeros(MAXL * TA, dtype=np.int64)
        self.res = np.zeros(8, dtype=np.int64)
        self.stamp_base = 0
        self.perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)
        self.wk = deal.new_wk()
        self._cseed = None

    def run(self, st, perms, s_root, seed, width, node_limit, weights=DEFAULT_WEIGHTS,
            bounds=core.ALL_BOUNDS):
        if width > self.W:
            raise ValueError("width larger than the buffers")
        self.res[:] = 0
        self.res[4] = self.stamp_base
        self.res[6] = 1 if self._cseed == int(seed) else 0
        self._cseed = int(seed)
        self.stamp_base += MAXL
        _beam(st, perms[0], np.int64(s_root), seed, np.int64(width), np.int64(node_limit),
              weights, np.int64(bounds), self.cur_st, self.cur_perm, self.nxt_st, self.nxt_perm,
              self.nxt_score, self.nxt_order, self.nxt_parent, self.nxt_acts, self.nxt_nacts,
              self.lv_parent, self.lv_acts, self.lv_nacts, self.dkeys, self.dstamp,
              self.out_line, self.res, self.perms, self.wk)
        status = int(self.res[0])
        line = [int(x) for x in self.out_line[:self.res[2]]] if status == BEAM_WIN else None
        self.truncated = bool(self.res[5])
        return status, int(self.res[1]), line
