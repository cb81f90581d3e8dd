"""Probes (docs/EXPECTIMAX.md section 4a): a search that follows one child per decision.

A probe's interval must hold the exact value (its lower bound is the value of one strategy,
or less under a budget), its memo entries must never change an exact value later, and under
a budget the ranking's lower bounds must gain from it."""
import pytest

from benchmarks.bench_expectimax import late_position
from engine import parse_position
from solver.expectimax.solver import Expectimax

from test_expectimax_agreement import _walk


def _exact(state, naive):
    return float(naive[""]) if state.is_chance_node() else float(max(naive.values()))


def test_probe_bounds_hold_the_brute_force_value():
    solver = Expectimax(16)
    checked = useful = optimal = winnable = 0
    for text, state, naive in _walk(4242, 300, max_deck=6):
        exact = _exact(state, naive)
        solver.clear()
        iv = solver.probe(state)
        assert iv.lo <= exact + 1e-12 and iv.hi >= exact - 1e-12, (text, iv, exact)
        checked += 1
        if exact > 0:
            winnable += 1
            useful += iv.lo > 0
            optimal += abs(iv.lo - exact) <= 1e-12
    assert checked == 300
    # the heuristic strategy is not empty: most positions that can be won get a positive
    # lower bound, many the exact value (and not all of them: it is a heuristic)
    print(f"{checked} positions, {winnable} winnable; probe lower bound > 0 on {useful}, "
          f"exact on {optimal}")
    assert useful >= 100 and optimal >= 50


def test_probes_under_node_budgets_stay_sound():
    checked = 0
    for text, state, naive in _walk(77, 60, max_deck=6):
        exact = _exact(state, naive)
        for budget in (1, 3, 10, 40):
            solver = Expectimax(14)
            iv = solver.probe(state, budget_nodes=budget)
            assert iv.lo <= exact + 1e-12 and iv.hi >= exact - 1e-12, (text, budget)
            assert solver.nodes <= budget
            # the search that follows starts from the probe's entries and stays exact
            iv2 = solver.value(state)
            assert iv2.exact and abs(iv2.lo - exact) <= 1e-12, (text, budget)
        checked += 1
    assert checked == 60


@pytest.mark.parametrize("threads", [1, 2])
def test_probe_entries_leave_exact_values_bit_for_bit(threads):
    """Probes store lower bounds; an exact search afterwards gives the same bits as one in a
    fresh table (a probe's lower bound never exceeds the exact value as computed)."""
    for seed, n in ((63, 12), (56, 11), (36, 12)):
        state = late_position(seed, n)
        fresh = Expectimax(20, threads=threads).rank(state)
        solver = Expectimax(20, threads=threads)
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            solver.probe(child)
        solver.probe(state)
        after = solver.rank(state)
        assert [(a.action, a.lo, a.hi) for a in after.actions] == \
               [(a.action, a.lo, a.hi) for a in fresh.actions]


def test_budgeted_ranking_gains_lower_bounds_from_probes():
    """Same node budget, one thread (deterministic): with probes first, every open action's
    lower bound is at least as high as the plain rounds give, and the best one is higher."""
    state = late_position(63, 15)
    with_probes = Expectimax(22).rank(state, budget_nodes=1_000_000)
    plain = Expectimax(22).rank(state, budget_nodes=1_000_000, probes=False)
    lo_with = {a.action: a.lo for a in with_probes.actions}
    lo_plain = {a.action: a.lo for a in plain.actions}
    assert not all(a.exact for a in with_probes.actions)      # the budget leaves them open
    assert max(lo_with.values()) > max(lo_plain.values())
    assert sum(lo_with.values()) > sum(lo_plain.values())


def test_probe_follows_the_key_to_the_door():
    """H5 (docs section 6) after `discard As`: the refill draws DL (the probe must choose to
    open it with the Key: won; to limbo it is lost) or N (every option loses): 1/2."""
    from test_expectimax_positions import H5
    state = parse_position(H5)
    kids = {state.action_to_string(a): a for a in state.legal_actions()}
    child = state.clone()
    child.apply_action(kids["discard As"])
    iv = Expectimax(12).probe(child)
    assert iv.lo == 0.5
