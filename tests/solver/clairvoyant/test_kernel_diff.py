"""Differential test: the kernel and the engine agree state by state.

Random legal actions (chosen from the engine's list) are applied to both; after every step the
kernel state decoded back must equal the engine's (hand, last row card, series length, Doors,
limbo, the whole deck in order, phase, drawn card, shuffle count), the legal action sets must
be equal, and so must the terminal status.  benchmarks/diff_kernel.py runs the same loop for
10,000,000 steps with the same comparison (``disagreement``).  ``STATS`` counts the steps and
games compared (``python -m benchmarks.experiments run rule-verification`` stores them).
"""
import random
from collections import Counter

from benchmarks.diff_kernel import disagreement
from engine import Game, format_position, parse_position
from solver.clairvoyant import deal_kernel as deal
from solver.clairvoyant import deal_turn

STATS: Counter = Counter()


def compare(s, ks, where):
    bad = disagreement(s, ks)
    assert bad is None, (where, format_position(s), bad)
    return s.legal_actions()


def run_steps(steps, seed0, rnd, bias_keys=False):
    done = 0
    seed = seed0
    games = 0
    while done < steps:
        s = Game(1).new_initial_state(seed)
        ks = deal_turn.kernel_state(s)
        while True:
            la = compare(s, ks, (seed, done))
            if not la:
                break
            if bias_keys and rnd.random() < 0.5:
                # prefer plays (long games, series, Doors) over discards
                plays = [a for a in la if a < 24]
                a = rnd.choice(plays or la)
            else:
                a = rnd.choice(la)
            s.apply_action(a)
            ks.apply(a)
            done += 1
        seed += 1
        games += 1
    STATS["steps"] += done
    STATS["games"] += games
    return games


def test_diff_100k_steps():
    rnd = random.Random(20261129)
    games = run_steps(60_000, 0, rnd)
    games += run_steps(45_000, 10**6, rnd, bias_keys=True)
    assert games > 100


def test_diff_from_parsed_positions():
    """Roots taken mid-game and round-tripped through the notation (any decision phase,
    prophecy-ordered decks, limbo in phase door/nightmare)."""
    rnd = random.Random(7)
    phases = set()
    for seed in range(300):
        s = Game(1).new_initial_state(seed)
        for _ in range(rnd.randrange(1, 120)):
            if s.is_terminal():
                break
            s.apply_action(rnd.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        s = parse_position(format_position(s))
        phases.add(s.phase)
        ks = deal_turn.kernel_state(s)
        for _ in range(40):
            la = compare(s, ks, seed)
            if not la:
                break
            a = rnd.choice(la)
            s.apply_action(a)
            ks.apply(a)
            STATS["parsed_steps"] += 1
    assert phases >= {"play", "prophecy", "nightmare"}
