"""Stronger honest play in the information-state kernel: the ``greedy-keep-doors`` base policy,
playouts under any base, and the sequential rollout decision ``decide_seq``.

This module adds kernels on the state of :mod:`solver.honest.state` and reuses its rule steps
(``advance``, ``apply_action``, ``legal``, the unknown-card generator), the base policies of
:mod:`solver.honest.greedy` and the playouts of :mod:`solver.honest.playouts`; it copies no
rule and no playout loop: every playout is :func:`solver.honest.playouts.playout` with the base
policy as an argument, every action's playouts :func:`solver.honest.playouts._eval1` (issue
26; ``playout_b``, ``estimate_all_base`` and ``base_of`` are kept as names for them).

Base policies (``BASES``, :mod:`solver.honest.greedy`): ``greedy`` (0), ``greedy-plus`` (1),
``greedy-keep-doors`` (2) and ``learned-base`` (3, :mod:`solver.honest.learned`).

``greedy-keep-doors`` (:func:`solver.honest.greedy.keep_doors`) is greedy-plus with one change, chosen by
measurement (docs/POLICIES.md, "Stronger honest play"): in the play phase, where greedy-plus
would discard, a *dead* Key is discarded instead: a Key of a colour that can gain no more
Door (both of its Doors in play, or every Door of it not in play already discarded by a
prophecy).  Such a Key can open nothing, and discarding a Key triggers a prophecy, which is
worth having; greedy keeps every Key to the last (its discard rank puts Keys after every other
card).  Keys that can still open a Door are kept exactly as greedy-plus keeps them.  The
readable reference on the engine's state is
:func:`engine.policy.keep_doors_action`; the differential test compares the two at
every decision of real games.

``decide_seq`` (sequential rollout): every legal action gets playouts of the base policy in
rounds of ``batch``, playout ``j`` of every action on the same chance stream (common random
numbers).  After each round, an action whose paired mean difference to the current leader (the
live action with the most wins) is below zero by more than ``zdrop`` standard errors is dropped
for the rest of the decision; the playouts stop when one action is left or each live action has
``n``.  The choice among the live actions is the rollout's z-margin rule
(:mod:`solver.honest.rollout`): the base policy's action unless a rival's paired mean difference
to it exceeds ``z`` standard errors (the largest such difference wins); if the base action was
dropped (or, in :func:`decide_seq_among`, is not allowed), the leader takes its place as the
reference.

Indifference stop (``stop`` > 0; 0, the default, is off): after a round, if no live rival's
paired mean difference to the reference could exceed ``stop`` (its mean plus ``zstop``
standard errors is below ``stop``), the playouts stop there and the choice is made as above.
A rival within ``stop`` of the reference is worth little even when it is better, and the
playouts that would tell are the most expensive ones (two near-equal actions run to the cap).
Chosen by measurement (docs/POLICIES.md, "Cheaper playouts"); a heuristic, like the drop.

Screen (``screen`` > 0; 0, the default, is off): when a decision has more than ``keep`` + 1
actions, the first round gives each ``screen`` playouts (instead of ``batch``), and only the
``keep`` actions with the most wins and the reference (the base action, or in
:func:`decide_seq_among` without it the leader) go on to the sequential rounds.  The first round
over every action is most of a wide decision's playouts (a prophecy has about 80 distinct
outcomes); the screen is the rollout policy's (:func:`solver.honest.screening.screen_top`).
A heuristic too: an action unlucky in its first ``screen`` playouts is gone.

The drop is a heuristic, not a proof: an
action ``zdrop`` standard errors behind may still be the best; the test compares the screened
choice with the full one (``tests/solver/honest/test_strong.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

# absolute, not relative (see solver.honest.state)
from solver.honest.greedy import (BASES, GREEDY, GREEDY_PLUS, KEEP_DOORS,  # noqa: F401
                                  _base_at, base_action, dead_key, doors_left,
                                  keep_doors)
from solver.honest.playouts import (MAX_DECISIONS, _eval1, _eval1h, _eval2,  # noqa: F401
                                    estimate_all, playout, to_decision)
from solver.honest.screening import (indifferent, leader, paired, row_of, screen_top, screens,
                                     select)
from solver.honest.state import (MAX_LEGAL, NS, apply_action, legal, mix64, new_game, word)
from solver.honest.value import VSCALE

SALT_DECISION = np.uint64(0x5851F42D4C957F2D)

# the names this module had for the shared kernels (callers and tests use them)
base_of = base_action
estimate_all_base = estimate_all
_eval = _eval1


def base_at(S, base: str) -> int:
    """The base policy ``base`` (a name of ``BASES``) at the decision state ``S``."""
    return int(_base_at(S, np.int64(BASES[base])))


@njit(cache=True)
def playout_b(S, key, base):
    """Play ``S`` to the end with base policy ``base`` and draws from stream ``key``:
    :func:`solver.honest.playouts.playout` without a trace.  1 won, 0 lost, -1 guard."""
    return playout(S, key, np.empty(0, dtype=np.int64), base)


@njit(cache=True)
def base_games(n, key0, base, out):
    """``n`` whole games from the setup played by ``base``; game g with stream
    word(key0, g); out[g] = 1 if won."""
    S = np.empty(NS, dtype=np.int64)
    notrace = np.empty(0, dtype=np.int64)
    for g in range(n):
        new_game(S)
        out[g] = 1 if playout(S, word(key0, g), notrace, base) > 0 else 0


@njit(cache=True)
def estimate_all_l2(S0, n, key, acts, res, n1, z1, screen1, keep1, base):
    """res[i, j] = playout j after action acts[i] played to the end by the level-1 rollout
    over ``base`` (``n1`` playouts per action, margin ``z1``, screen ``screen1``/``keep1``:
    :func:`solver.honest.playouts.playout_l1`), 1 won / 0 lost; returns the number of legal
    actions (written to ``acts``).  Playout j of every action uses the stream word(key, j).
    What ``onirim best``'s estimate would be under a rollout player (benchmarks/bench_leader.py)."""
    nact = legal(S0, acts)
    S = np.empty(NS, dtype=np.int64)
    for i in range(nact):
        _eval2(S0, acts[i], 0, n, key, S, res[i], n1, z1, screen1, keep1, base)
    return nact


# ----------------------------------------------------------------------------- sequential
@njit(cache=True)
def seq_core(S0, acts, nact, bi, n, batch, z, zdrop, key, base, res, used, stop, zstop,
             screen, keep, horizon):
    """The sequential rollout over the ``nact`` actions ``acts`` with base row ``bi`` (-1: no
    base row, the leader is the reference) (module docstring).  ``res`` (nact x n, int8)
    receives the playouts; used[0] = the playouts made in all.  ``stop`` > 0: the
    indifference stop with margin ``zstop``.  ``screen`` > 0 (and more than ``keep`` + 1
    actions): the first round has ``screen`` playouts per action, after which only the
    ``keep`` rows with the most wins and the reference live on (the screen).  ``horizon`` >
    0: playouts cut at that many draws, the rest estimated by the value function
    (:func:`solver.honest.playouts._eval1h`; rows 0 .. VSCALE, the stop's margin scaled to
    match).  Returns the chosen row."""
    S = np.empty(NS, dtype=np.int64)
    if horizon > 0:
        stop = stop * VSCALE
    alive = np.ones(nact, dtype=np.bool_)
    nalive = nact
    done = 0
    total = 0
    scr = screens(n, screen, keep, nact)
    while done < n and nalive > 1:
        j1 = min(n, done + max(batch, done // 4))
        if scr and done == 0:
            j1 = screen
        for i in range(nact):
            if alive[i]:
                if horizon > 0:
                    _eval1h(S0, acts[i], done, j1, key, S, res[i], base, horizon)
                else:
                    _eval1(S0, acts[i], done, j1, key, S, res[i], base)
                total += j1 - done
        done = j1
        if scr and done == screen:
            cand = np.empty(nact + 1, dtype=np.int64)
            ref = bi if bi >= 0 else leader(res, alive, nact, done)
            m = screen_top(res, nact, ref, done, keep, cand)
            alive[:] = False
            for q in range(m):
                alive[cand[q]] = True
            nalive = m
        if done >= n:
            continue
        if zdrop > 0.0:
            lead = leader(res, alive, nact, done)
            for i in range(nact):
                if alive[i] and i != lead:
                    m, se = paired(res, i, lead, done)
                    if m + zdrop * se < 0.0:
                        alive[i] = False
                        nalive -= 1
        if stop > 0.0 and nalive > 1:
            ref = bi if bi >= 0 and alive[bi] else leader(res, alive, nact, done)
            if indifferent(res, alive, nact, ref, done, stop, zstop):
                break
    used[0] = total
    if nalive == 1:
        for i in range(nact):
            if alive[i]:
                return i
    ref = bi if bi >= 0 and alive[bi] else leader(res, alive, nact, done)
    live = np.empty(nalive, dtype=np.int64)     # the rollout's z-margin rule over the live rows
    q = 0
    for i in range(nact):
        if alive[i]:
            live[q] = i
            q += 1
    return select(res, live, q, ref, done, z)


@njit(cache=True)
def decide_seq(S0, n, batch, z, zdrop, key, base, stop, zstop, screen, keep, horizon):
    """The sequential rollout action at decision state ``S0`` (module docstring)."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    bi = row_of(acts, nact, _base_at(S0, base), 0)
    res = np.zeros((nact, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    return acts[seq_core(S0, acts, nact, bi, n, batch, z, zdrop, key, base, res, used, stop,
                         zstop, screen, keep, horizon)]


@njit(cache=True)
def decide_seq_among(S0, allowed, nallowed, n, batch, z, zdrop, key, base, stop, zstop,
                     screen, keep, horizon):
    """The sequential rollout restricted to the legal actions ``allowed[:nallowed]`` (the
    end-game switch's pruned fallback): the same rounds, drops and choice over those actions
    only; the reference is the base action if allowed, else the leader."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    sub = np.empty(nallowed, dtype=np.int64)
    m = 0
    for i in range(nact):              # the kernel's order, as decide_seq
        for q in range(nallowed):
            if allowed[q] == acts[i]:
                sub[m] = acts[i]
                m += 1
                break
    if m == 1:
        return sub[0]
    bi = row_of(sub, m, _base_at(S0, base), -1)
    res = np.zeros((m, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    return sub[seq_core(S0, sub, m, bi, n, batch, z, zdrop, key, base, res, used, stop,
                        zstop, screen, keep, horizon)]


@njit(cache=True)
def seq_games(n_games, key0, n, batch, z, zdrop, base, out, playouts, stop, zstop, screen,
              keep, horizon):
    """Whole games from the setup played by the sequential rollout inside the kernel (for
    tuning; the measured runs play through the engine with ``onirim winrate``): game g with
    stream word(key0, g), decision i of it with stream word(mix64(key ^ SALT), i).
    out[g] = 1 if won; playouts[g] = the playouts it made."""
    S = np.empty(NS, dtype=np.int64)
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    res = np.zeros((MAX_LEGAL, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    for g in range(n_games):
        new_game(S)
        key = word(key0, g)
        dkey = mix64(key ^ SALT_DECISION)
        ctr = 0
        steps = 0
        out[g] = 0
        playouts[g] = 0
        while steps <= MAX_DECISIONS:
            r, ctr = to_decision(S, key, ctr)
            if r >= 0:
                out[g] = r
                break
            nact = legal(S, acts)
            a = acts[0]
            if nact > 1:
                bi = row_of(acts, nact, _base_at(S, base), 0)
                r = seq_core(S, acts, nact, bi, n, batch, z, zdrop, word(dkey, steps), base,
                             res, used, stop, zstop, screen, keep, horizon)
                a = acts[r]
                playouts[g] += used[0]
            apply_action(S, a)
            steps += 1
