"""Information-set Monte Carlo tree search (UCT with chance nodes) over the player's view.

The tree is searched on the information state of :mod:`solver.honest.state`: the root is the
player's view, a decision node chooses an action, a chance node draws one unknown card by type
through the state's own generator (:func:`solver.honest.state.draw_unknown`, type ``t`` with
probability ``unknown[t] / total``: the player's probabilities, never a hidden order).  A node
is the information state reached by its path of edges from the root (an action, or a drawn
type), so the tree is a tree of the player's information sets; two paths to the same
information state are two nodes (no transpositions).  Every rule step is the state's
(``advance``, ``legal``, ``apply_action``, ``draw_unknown``, ``_drawn``); the leaves are valued
by :func:`solver.honest.playouts.playout` of a base policy (greedy-keep-doors by default).

One iteration, from the root view:

* *selection*: at a decision node, the candidates are the legal actions in the order "the base
  policy's action first, then the others in the kernel's legal order"; at the root every legal
  action is a candidate, below it only the first ``1 + floor(pw * sqrt(N))`` (progressive
  widening: ``N`` the node's visits), which keeps a prophecy's up to 120 outcomes from
  swallowing the iterations.  The first candidate with no node yet is taken; if all have one,
  UCB1: the highest ``wins / visits + c * sqrt(ln N / visits)``.  At a chance node one card is
  drawn (the draw follows the player's probabilities, so no UCB there) and the child of its
  type followed.
* *expansion*: the first edge with no node creates it; the descent then goes on through chance
  nodes (creating them) and stops at the next decision node or the end of the game: one new
  decision-level node per iteration.  When the node arrays are full, nothing more is created.
* *evaluation*: a playout of the base policy from there (1 won, 0 lost), or the game's result
  if it ended.
* *backup*: every node of the path gains a visit and the result.

The action played is the most visited root child (ties: more wins, then the candidate order,
the base action first).  With ``z`` > 0 the base action is kept unless the most visited
child's mean beats the base child's by more than ``z`` standard errors of the difference of
two independent means (a margin in the spirit of the rollout's z rule, not paired here).

Storage: numpy arrays (an explicit path, no recursion); the children are found through an
open-addressing table (linear probing) whose slots hold the full key ``(parent id, edge)``
(an edge is an action integer, or ``DRAW + type`` for a drawn card) and the child's id: a
lookup compares both parts of the key, never a hash alone.  The workspace is allocated once
per policy (:func:`workspace`) and cleared after each search by the slots it used.

Random numbers: iteration ``i`` uses the word ``k = word(key, i)``: its tree draws the stream
``mix64(k ^ SALT_TREE)``, its playout the stream ``k``.  Same state and key, same action.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

# absolute, not relative (see solver.honest.state)
from solver import steps
from solver.honest.greedy import BASES, _base_at
from solver.honest.playouts import MAX_DECISIONS, playout, to_decision
from solver.honest.state import (A_DRAW, MAX_LEGAL, NS, P_LOST, P_SETUP, P_WON, PH, _drawn,
                                 advance, apply_action, draw_unknown, legal, mix64, new_game,
                                 word)

SALT_TREE = np.uint64(0x3C6EF372FE94F82B)
SALT_DECISION = np.uint64(0x5851F42D4C957F2D)
_HMUL = steps.GAMMA          # the slot hash's multiplier: SplitMix64's increment
NODES_PER_ITER = 8          # node capacity per iteration (chance chains included)
MAX_PATH = 4096

# out-statistics of a search (stats array)
ST_NODES, ST_FULL, ST_ROOT_N, ST_CHOSEN_N = 0, 1, 2, 3


def workspace(iters: int):
    """The arrays of a search of up to ``iters`` iterations: node visits, wins and hash slot,
    the hash table (parent, edge, child; parent -1 = empty, size a power of two at least twice
    the node capacity), the path, the root's results per candidate and visit (int8,
    MAX_LEGAL x iters) and the search's statistics."""
    cap = int(iters) * NODES_PER_ITER + 64
    m = 1
    while m < 2 * cap:
        m <<= 1
    return (np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64),
            np.zeros(cap, dtype=np.int64),
            np.full(m, -1, dtype=np.int64), np.zeros(m, dtype=np.int64),
            np.zeros(m, dtype=np.int64), np.zeros(MAX_PATH, dtype=np.int64),
            np.zeros((MAX_LEGAL, int(iters)), dtype=np.int8), np.zeros(4, dtype=np.int64))


@njit(cache=True, inline="always")
def _slot(hp, he, mask, parent, edge):
    """The slot of key (parent, edge): where it is stored, or the empty slot where it goes."""
    h = mix64(np.uint64(parent) * _HMUL + np.uint64(edge)) & mask
    while True:
        i = np.int64(h)
        if hp[i] == -1 or (hp[i] == parent and he[i] == edge):
            return i
        h = (h + np.uint64(1)) & mask


@njit(cache=True, inline="always")
def _copy(dst, src):
    for i in range(NS):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _candidate(acts, nact, b, q):
    """Candidate ``q`` of a decision: the base action ``b`` first, then the legal actions in
    order without it."""
    if q == 0:
        return b
    k = 0
    for i in range(nact):
        if acts[i] != b:
            k += 1
            if k == q:
                return acts[i]
    return -1


@njit(cache=True)
def search(S0, iters, c, pw, z, prior, cp, key, base, nv, nw, nslot, hp, he, hv, path, res,
           stats):
    """The ISMCTS action at decision state ``S0`` (module docstring): ``iters`` iterations,
    UCB constant ``c``, widening ``pw``, root margin ``z``, base policy ``base``; the workspace
    arrays from :func:`workspace` (left clear).  stats = (nodes, 1 if the arrays filled,
    root visits, visits of the chosen child)."""
    acts0 = np.empty(MAX_LEGAL, dtype=np.int64)
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact0 = legal(S0, acts0)
    if nact0 == 1:
        return acts0[0]
    b0 = _base_at(S0, base)
    cap = nv.shape[0]
    mask = np.uint64(hp.shape[0] - 1)
    S = np.empty(NS, dtype=np.int64)
    notrace = np.empty(0, dtype=np.int64)
    nn = 1
    nv[0] = 0
    nw[0] = 0
    full = 0
    for it in range(iters):
        _copy(S, S0)
        ikey = word(key, it)
        dk = mix64(ikey ^ SALT_TREE)
        rq = -1
        rj = 0
        ctr = 0
        node = 0
        path[0] = 0
        plen = 1
        new = False
        r = 0
        while True:
            if plen >= MAX_PATH - 1:
                r = 1 if playout(S, ikey, notrace, base) > 0 else 0
                break
            advance(S)
            ph = S[PH]
            if ph == P_WON:
                r = 1
                break
            if ph == P_LOST:
                r = 0
                break
            if ph >= P_SETUP:
                t = draw_unknown(S, dk, ctr)
                ctr += 1
                _drawn(S, t)
                edge = A_DRAW + t
            else:
                if new:
                    r = 1 if playout(S, ikey, notrace, base) > 0 else 0
                    break
                nact = legal(S, acts)
                if nact == 1:
                    a = acts[0]
                elif node != 0 and prior > 0.0:
                    # PUCT below the root: prior ``prior`` on the base action, the rest
                    # shared by the others; an unvisited child is valued at its parent's mean
                    b = _base_at(S, base)
                    po = (1.0 - prior) / (nact - 1)
                    q0 = nw[node] / nv[node]
                    sn = math.sqrt(nv[node])
                    a = -1
                    best = -1e300
                    for i in range(nact):
                        ai = acts[i]
                        s = _slot(hp, he, mask, node, ai)
                        if hp[s] == -1:
                            qv = q0
                            ni = 0
                        else:
                            ch = hv[s]
                            qv = nw[ch] / nv[ch]
                            ni = nv[ch]
                        sc = qv + cp * (prior if ai == b else po) * sn / (1 + ni)
                        if sc > best or (sc == best and ai == b):
                            best = sc
                            a = ai
                else:
                    b = _base_at(S, base)
                    width = nact
                    if node != 0:
                        width = min(nact, 1 + np.int64(pw * math.sqrt(nv[node])))
                    lnn = math.log(max(nv[node], 1))
                    a = -1
                    qa = -1
                    na = 0
                    best = -1.0
                    for q in range(width):
                        aq = _candidate(acts, nact, b, q)
                        s = _slot(hp, he, mask, node, aq)
                        if hp[s] == -1:
                            a = aq
                            qa = q
                            na = 0
                            break
                        ch = hv[s]
                        sc = nw[ch] / nv[ch] + c * math.sqrt(lnn / nv[ch])
                        if sc > best:
                            best = sc
                            a = aq
                            qa = q
                            na = nv[ch]
                    if node == 0:
                        # the root's candidate qa gets its visit na's stream: visit j of
                        # every root action sees the same words (common random numbers)
                        rq = qa
                        rj = na
                        ikey = word(key, na)
                        dk = mix64(ikey ^ SALT_TREE)
                apply_action(S, a)
                edge = a
            s = _slot(hp, he, mask, node, edge)
            if hp[s] == -1:
                if nn >= cap:
                    full = 1
                    r = 1 if playout(S, ikey, notrace, base) > 0 else 0
                    break
                hp[s] = node
                he[s] = edge
                hv[s] = nn
                nv[nn] = 0
                nw[nn] = 0
                nslot[nn] = s
                nn += 1
                new = True
            node = hv[s]
            path[plen] = node
            plen += 1
        for i in range(plen):
            nv[path[i]] += 1
            nw[path[i]] += r
        if rq >= 0 and rj < res.shape[1]:
            res[rq, rj] = r
    # the most visited root child (ties: more wins, then the candidate order); with z > 0
    # the rollout's margin rule on the paired visits instead: the base action unless a rival
    # beats it by more than z standard errors of the paired difference (the largest wins)
    bestq = 0
    bv = -1
    bw = -1
    vis = np.zeros(nact0, dtype=np.int64)
    for q in range(nact0):
        aq = _candidate(acts0, nact0, b0, q)
        s = _slot(hp, he, mask, 0, aq)
        if hp[s] == -1:
            continue
        ch = hv[s]
        vis[q] = min(nv[ch], res.shape[1])
        if nv[ch] > bv or (nv[ch] == bv and nw[ch] > bw):
            bv = nv[ch]
            bw = nw[ch]
            bestq = q
    if z > 0.0:
        bestq = 0
        top = 0.0
        for q in range(1, nact0):
            n = min(vis[q], vis[0])
            if n < 2:
                continue
            sd = 0.0
            sq = 0.0
            for j in range(n):
                d = np.float64(res[q, j] - res[0, j])
                sd += d
                sq += d * d
            m = sd / n
            var = (sq / n - m * m) / (n - 1)
            if m > top and m > z * math.sqrt(max(var, 0.0)):
                top = m
                bestq = q
    choice = _candidate(acts0, nact0, b0, bestq)
    stats[ST_NODES] = nn
    stats[ST_FULL] = full
    stats[ST_ROOT_N] = nv[0]
    stats[ST_CHOSEN_N] = bv
    for i in range(1, nn):
        hp[nslot[i]] = -1
    return choice


@njit(cache=True)
def ismcts_games(n_games, key0, iters, c, pw, z, prior, cp, base, out, nv, nw, nslot, hp, he,
                 hv, path, res, stats):
    """Whole games from the setup played by :func:`search` inside the kernel (for tuning on
    keys of its own; the measured rows play through the engine): game g with stream
    word(key0, g), decision i with key word(mix64(key ^ SALT_DECISION), i).  out[g] = 1 if
    won."""
    S = np.empty(NS, dtype=np.int64)
    for g in range(n_games):
        new_game(S)
        key = word(key0, g)
        dkey = mix64(key ^ SALT_DECISION)
        ctr = 0
        steps = 0
        out[g] = 0
        while steps <= MAX_DECISIONS:
            r, ctr = to_decision(S, key, ctr)
            if r >= 0:
                out[g] = r
                break
            a = search(S, iters, c, pw, z, prior, cp, word(dkey, steps), base, nv, nw, nslot,
                       hp, he, hv, path, res, stats)
            apply_action(S, a)
            steps += 1


def games(n_games: int, key: int, iters: int, c: float = 0.5, pw: float = 1.0,
          z: float = 0.0, prior: float = 0.0, cp: float = 1.0,
          base: str = "greedy-keep-doors") -> np.ndarray:
    """Win (1) / loss (0) of ``n_games`` kernel games (see :func:`ismcts_games`)."""
    out = np.zeros(n_games, dtype=np.int64)
    ismcts_games(np.int64(n_games), np.uint64(key), np.int64(iters), np.float64(c),
                 np.float64(pw), np.float64(z), np.float64(prior), np.float64(cp),
                 np.int64(BASES[base]), out,
                 *workspace(iters))
    return out
