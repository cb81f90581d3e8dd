"""The kernel DFS and the pure-Python DFS over engine/ (solver.clairvoyant.pysearch) run the same search."""
import os

from engine import Game, parse_position
from solver.clairvoyant import pysearch as PS
from solver import rules_core as core
from solver.clairvoyant import search as S
from solver.clairvoyant.solve import ClairvoyantSolver, replay_line, actions_to_strings
from paths import FIXTURES



def positions():
    with open(os.path.join(FIXTURES, "solver_near_end.tsv")) as f:
        return [ln.split("\t")[0] for ln in f if ln.strip() and not ln.startswith("#")]


def test_same_results_and_nodes_without_table():
    sv = ClairvoyantSolver(tt_mb=4, beam_widths=())
    checked = 0
    for pos in positions()[::2]:
        s = parse_position(pos)
        k = sv.solve_state(s, budget_nodes=30_000, flags=core.ALL_BOUNDS)
        if k.result == "UNKNOWN":
            continue
        res, line, nodes, _ = PS.dfs(s, budget_nodes=30_000, use_tt=False)
        assert (res, nodes) == (k.result, k.nodes), pos
        if res == "WIN":
            assert line == k.actions
        checked += 1
    assert checked >= 15


def test_same_results_with_table():
    sv = ClairvoyantSolver(tt_mb=4, beam_widths=())
    for pos in positions()[1::3]:
        s = parse_position(pos)
        k = sv.solve_state(s, budget_nodes=200_000)
        res, line, nodes, _ = PS.dfs(s, budget_nodes=200_000)
        if "UNKNOWN" in (res, k.result):
            continue
        assert res == k.result, pos
        if res == "WIN":
            ok, msg = replay_line(s, actions_to_strings(s, line))
            assert ok, msg


def test_python_search_finds_a_certified_win_from_a_late_position():
    sv = ClairvoyantSolver(tt_mb=4)
    s = Game(1).new_initial_state(3)
    r = sv.solve_state(s)
    assert r.result == "WIN"
    late = s.clone()
    for a in r.actions[: len(r.actions) - 6]:
        late.apply_action(a)
    res, line, nodes, _ = PS.dfs(late, budget_nodes=50_000)
    assert res == "WIN"
    ok, msg = replay_line(late, actions_to_strings(late, line))
    assert ok, msg
