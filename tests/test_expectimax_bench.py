"""Smoke test of the expectimax benchmark's position source (no timings asserted)."""
import os
import sys

from engine.notation import format_position, parse_position

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "benchmarks"))
import bench_expectimax as B  # noqa: E402


def test_benchmark_positions_are_valid_and_open():
    found = B.positions(8, 2)
    assert len(found) == 2
    for seed, state in found:
        text = format_position(state)
        again = parse_position(text)
        assert again.deck_size() == 8 and not again.deck and again.phase == "play"
        assert B.open_at_root(state)
        # reproducible from its seed
        assert format_position(B.late_position(seed, 8)) == text


def test_solve_timed_reports_exact_small():
    from solver.expectimax import Expectimax
    seed, state = B.positions(6, 1)[0]
    iv, nodes, seconds = B.solve_timed(Expectimax(14), state, 30.0)
    assert iv.exact and nodes >= 1 and seconds >= 0
