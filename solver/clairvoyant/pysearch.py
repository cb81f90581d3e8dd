"""The clairvoyant DFS of :mod:`solver.clairvoyant.search`, in plain Python over ``engine/`` states.

Same algorithm, same move order and the same bounds (the very same source functions of
:mod:`solver.rules_core`, uncompiled); the transposition table is a Python set of full engine
position keys.  It exists to check the kernel search (tests: same results, and with the table
off the same node counts) and to measure the kernel's speed-up on the same search
(benchmarks/bench_solver.py).
"""
from __future__ import annotations

import time

from engine import cards
from engine.game import series_length
from engine.rules import NO_CARD, PROPHECY_SIZE

from solver import rules_core as core


def features(s):
    hand = [0] * 12
    for c in s.hands[0]:
        hand[c] += 1
    deckc = [0] * 17
    for c in s.deck:
        deckc[c] += 1
    doors = [0] * 4
    for d in s.doors[0]:
        doors[d - 12] += 1
    ldoors = [0] * 4
    for d in s.limbo:
        if d != cards.NIGHTMARE:
            ldoors[d - 12] += 1
    row = s.rows[0]
    last = row[-1] if row else 15
    ser = series_length(row) if row else 0
    if ser == 3:
        ser = 0
    rev = list(s.deck[:PROPHECY_SIZE]) + [-1] * (PROPHECY_SIZE - min(PROPHECY_SIZE, len(s.deck)))
    return hand, deckc, doors, ldoors, last, ser, rev


def pos_key(s):
    """What determines the future of a deal-mode position (the kernel's key, unpacked)."""
    row = s.rows[0]
    ser = series_length(row) % 3 if row else 0
    return (tuple(s.hands[0]), row[-1] if row else None, ser, tuple(s.doors[0]),
            tuple(s.limbo), tuple(s.deck), s.phase, s.drawn, s.shuffles)


def is_dead(s, bounds, f=None):
    hand, deckc, doors, ldoors, last, ser, _ = f or features(s)
    drawn = s.drawn - 12 if s.phase == "door" else -1
    return core.dead_core(hand, deckc, doors, ldoors, drawn, last, ser, NO_CARD, 0,
                       len(s.hands[0]), s.phase == "play", bounds)


def ordered_moves(s, f=None):
    hand, deckc, doors, _, last, ser, rev = f or features(s)
    ncol = [0] * 4
    core.colour_counts(hand, ncol)
    acts = s.legal_actions()
    return sorted(acts, key=lambda a: (-core.score_move(a, hand, ncol, deckc, doors, last, ser,
                                                     rev), a))


def dfs(state, budget_nodes=10**9, bounds=core.ALL_BOUNDS, use_tt=True, budget_s=None):
    """Returns (result, line of action numbers, nodes, seconds)."""
    t0 = time.perf_counter()
    if state.won():
        return "WIN", [], 0, 0.0
    if state.phase == "lost":
        return "LOSS", [], 0, 0.0
    f = features(state)
    if bounds and is_dead(state, bounds, f):
        return "LOSS", [], 0, time.perf_counter() - t0
    lost = set()
    stack = [[state, ordered_moves(state, f), 0]]
    nodes = 0
    while stack:
        top = stack[-1]
        s, moves, i = top
        if i >= len(moves):
            if use_tt:
                lost.add(pos_key(s))
            stack.pop()
            continue
        if nodes >= budget_nodes or (budget_s is not None and nodes % 1024 == 0
                                    and time.perf_counter() - t0 > budget_s):
            return "UNKNOWN", [], nodes, time.perf_counter() - t0
        top[2] = i + 1
        c = s.clone()
        c.apply_action(moves[i])
        nodes += 1
        if c.won():
            line = [fr[1][fr[2] - 1] for fr in stack]
            return "WIN", line, nodes, time.perf_counter() - t0
        if c.phase == "lost":
            continue
        f = features(c)
        if bounds and is_dead(c, bounds, f):
            continue
        if use_tt and pos_key(c) in lost:
            continue
        stack.append([c, ordered_moves(c, f), 0])
    return "LOSS", [], nodes, time.perf_counter() - t0
