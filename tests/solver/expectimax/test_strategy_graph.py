"""The optimal-strategy walk (solver/expectimax/strategy_graph.py, docs/EXPECTIMAX.md section 9), and
the census of decisions (solver/expectimax/census.py, run by benchmarks/census_decisions.py).

The walk follows, at each decision, one child the memo proves optimal, and every outcome
at chance nodes; evaluating the strategy it followed must give back the exact value (the
brute force's on small positions).  A walk that followed a wrong child, skipped an outcome
or mixed up probabilities would give a different number."""
import pytest

from benchmarks.bench_expectimax import late_position
from solver.expectimax.solver import Expectimax

from test_expectimax_agreement import _walk


def _exact(state, naive):
    return float(naive[""]) if state.is_chance_node() else float(max(naive.values()))


def test_strategy_value_is_the_brute_force_value():
    solver = Expectimax(16)
    checked = fractional = searched = 0
    for text, state, naive in _walk(909, 300, max_deck=6):
        exact = _exact(state, naive)
        solver.clear()
        g = solver.strategy_graph(state, bits=12)
        assert g["missing"] == 0 and not g["full"], (text, g)
        assert abs(g["value"] - exact) <= 1e-12, (text, g, exact)
        assert g["positions"] <= g["stored"], (text, g)
        assert sum(g["per_status"]) == g["positions"]
        checked += 1
        fractional += 0 < exact < 1
        searched += g["positions"] > 0
    assert checked == 300
    assert fractional >= 8 and searched >= 150, (fractional, searched)


@pytest.mark.parametrize("seed, n", [(63, 12), (63, 13)])
def test_strategy_graph_of_a_larger_position(seed, n):
    """The strategy reaches the exact value; it is a small part of what the search stored
    (the rest shows that no other action does better)."""
    solver = Expectimax(20)
    g = solver.strategy_graph(late_position(seed, n))
    assert g["missing"] == 0
    assert abs(g["value"] - g["exact"]) <= 1e-12
    assert 0 < g["positions"] < g["stored"]


def test_walk_stops_when_its_table_is_half_full():
    solver = Expectimax(20)
    g = solver.strategy_graph(late_position(63, 12), bits=4)
    assert g["full"] and g["positions"] <= 8


def test_walk_searches_again_what_a_small_table_lost():
    """With a 1,024-entry memo most exact entries are overwritten before the walk; it must
    search them again and still reach the exact value."""
    solver = Expectimax(10)
    g = solver.strategy_graph(late_position(63, 12))
    assert solver.replaced > 0 and g["searched_again"] > 0
    assert g["missing"] == 0
    assert abs(g["value"] - g["exact"]) <= 1e-12


def test_census_counts_the_door_that_is_better_let_go():
    """The census labels a Door decision's children right: in the example of section 9
    (open 2/3, limbo 1) the root counts as 'limbo better'; the kinds add up."""
    from solver.expectimax.census import census
    from engine import parse_position
    from test_expectimax_positions import complete
    text = complete("mode=solo phase=door drawn=DO hand=Ok row=- doors=DA,DA,DG,DG,DL,DL "
                    "deck=*", ["DO", "Ok", "Ok", "As", "Ak"])
    solver = Expectimax(12, prune=False)
    assert solver.value(parse_position(text)).lo == 1.0
    c = census(solver)
    assert c["skipped_not_exact"] == 0
    assert c["door_decisions"] == c["door_open_better"] + c["door_limbo_better"] + c["door_tie"]
    # the root alone: a memo holding only it and its two children's exact values
    import numpy as np
    from solver.expectimax import kernel
    from solver.expectimax.solver import encode
    st, *w = kernel.canonical(*[np.int64(x) for x in encode(parse_position(text))])
    only = Expectimax(12)
    rows = [w]
    ch = np.empty((24, 4), np.int64)
    for i in range(kernel.decision_children(st, *w, False, ch)):
        rows.append(kernel.canonical(*ch[i])[1:])
    for r in rows:
        found, lo, hi = kernel.memo_get(solver.keys, solver.vals, *r)
        assert found and lo == hi
        kernel.memo_store(only.keys, only.vals, only.stats, *r, lo, hi, 1)
    c = census(only)
    assert (c["door_decisions"], c["door_limbo_better"], c["door_open_better"]) == (1, 1, 0)
    assert c["nightmare_decisions"] == sum(c[k] for k in c if k.startswith("nightmare_")
                                           and k != "nightmare_decisions")
    big = Expectimax(18, prune=False)
    big.value(late_position(63, 12))
    c = census(big)
    assert c["door_decisions"] > 0 and c["nightmare_decisions"] > 0
    assert c["prophecy_with_nightmare"] == (c["prophecy_discard_nightmare_optimal"]
                                            + c["prophecy_discard_nightmare_worse"])
