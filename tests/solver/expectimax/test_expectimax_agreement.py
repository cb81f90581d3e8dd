"""The numba expectimax agrees with an independent brute force on random small positions.

``STATS`` counts the positions on which every value agreed within ``TOLERANCE`` and the
largest difference seen (``python -m benchmarks.experiments run rule-verification`` stores
them)."""
import random
from collections import Counter

import pytest

from engine import parse_position
from solver.expectimax.solver import Expectimax, encode

import naive_expectimax as N

AGREEMENT_POSITIONS = 1000
TOLERANCE = 1e-12
STATS: Counter = Counter()
NAIVE_CAP = 3000


@pytest.fixture(scope="module")
def solvers():
    return Expectimax(18, prune=True, peek=True), Expectimax(18, prune=False)


def _walk(seed, count, max_deck=5):
    """Yield (text, state, naive) for `count` random positions the brute force can finish."""
    for text in N.random_positions(seed, 10 * count, max_deck):
        state = parse_position(text)
        try:
            if state.is_chance_node():
                naive = {"": N.value(state, NAIVE_CAP)}
            else:
                naive = N.action_values(state, NAIVE_CAP)
        except N.NodeCap:
            continue
        yield text, state, naive
        count -= 1
        if not count:
            return


def test_kernel_agrees_with_brute_force(solvers):
    pruned, plain = solvers
    compared = fractional = distinct = 0

    def close(got, want, *where):
        STATS["max_abs_error"] = max(STATS["max_abs_error"], abs(got - want))
        assert abs(got - want) <= TOLERANCE, where

    for text, state, naive in _walk(20261129, AGREEMENT_POSITIONS):
        if state.is_chance_node():
            want = float(naive[""])
            for solver in (pruned, plain):
                iv = solver.value(state)
                assert iv.exact, (text, iv, want)
                close(iv.lo, want, text, iv)
            fractional += 0 < want < 1
        else:
            for solver in (pruned, plain):
                ranking = solver.rank(state)
                got = {a.action: a for a in ranking.actions}
                assert set(got) == set(naive), text
                for action, want in naive.items():
                    a = got[action]
                    assert a.exact, (text, action)
                    close(a.value, float(want), text, action)
                # best first
                values = [a.value for a in ranking.actions]
                assert values == sorted(values, reverse=True)
            fractional += any(0 < v < 1 for v in naive.values())
            distinct += len(set(naive.values())) > 1
            # the value of the state is the best action's value
            iv = pruned.value(state)
            close(iv.lo, float(max(naive.values())), text)
        compared += 1
        STATS["agree"] += 1
    assert compared == AGREEMENT_POSITIONS
    # the sample is not all trivial: some values are fractions, many rankings matter
    assert fractional >= 30 and distinct >= 200, (fractional, distinct)
    print(f"{compared} positions agree, {fractional} with a fractional value, {distinct} "
          "where the actions differ in value")


def test_budgeted_values_are_sound_bounds():
    """With tiny node budgets every interval still contains the exact value."""
    rng = random.Random(7)
    checked = 0
    for text, state, naive in _walk(99, 120, max_deck=6):
        exact = float(max(naive.values())) if not state.is_chance_node() else float(naive[""])
        for prune in (True, False):
            solver = Expectimax(14, prune=prune, peek=prune)
            budget = rng.choice((1, 2, 5, 20, 100))
            iv = solver.value(state, budget_nodes=budget)
            assert iv.lo - 1e-12 <= exact <= iv.hi + 1e-12, (text, budget, iv, exact)
            # more budget on the same table never loses soundness, and ends exact
            iv2 = solver.value(state)
            assert iv2.exact and abs(iv2.lo - exact) <= 1e-12
        checked += 1
    assert checked == 120


def test_windows_give_sound_bounds():
    """Any (alpha, beta) window returns an interval holding the exact value, and the
    interval settles the window question (value <= alpha, >= beta, or exact)."""
    rng = random.Random(3)
    for text, state, naive in _walk(5, 150):
        exact = float(max(naive.values())) if not state.is_chance_node() else float(naive[""])
        solver = Expectimax(14, prune=True, peek=rng.random() < 0.5)
        a = rng.choice((-0.5, 0.0, 0.1, 0.3, 0.5, 0.9))
        b = a + rng.choice((0.01, 0.2, 0.5, 2.0))
        iv = solver._run(encode(state), None, a, b)
        assert iv.lo - 1e-12 <= exact <= iv.hi + 1e-12, (text, a, b, iv, exact)
        assert iv.exact or iv.hi <= a + 1e-12 or iv.lo >= b - 1e-12, (text, a, b, iv)


def test_replacement_keeps_results_exact():
    """A tiny memo table (entries overwritten all the time) still gives exact values."""
    for text, state, naive in _walk(11, 60, max_deck=6):
        exact = float(max(naive.values())) if not state.is_chance_node() else float(naive[""])
        solver = Expectimax(6)
        iv = solver.value(state)
        assert iv.exact and abs(iv.lo - exact) <= 1e-12, text
