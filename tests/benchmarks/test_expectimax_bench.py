"""Smoke test of the expectimax benchmark's position source (no timings asserted)."""
from benchmarks import bench_expectimax as B
from engine.notation import format_position, parse_position


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
    from solver.expectimax.solver import Expectimax
    seed, state = B.positions(6, 1)[0]
    iv, nodes, seconds = B.solve_timed(Expectimax(14), state, 30.0)
    assert iv.exact and nodes >= 1 and seconds >= 0


def test_an_interrupted_run_resumes_and_loses_nothing(tmp_path, monkeypatch):
    """The result file holds every finished position at once; --resume solves only the
    rest and finishes the file."""
    import json

    import pytest
    real = B.solve_timed
    calls = []

    def crash_after_one(solver, state, limit_s):
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(solver, state, limit_s)
    monkeypatch.setattr(B, "solve_timed", crash_after_one)
    monkeypatch.setattr(B, "time_cli", lambda *a, **k: [0.0])
    monkeypatch.setattr("benchmarks.harness.RESULTS_DIR", str(tmp_path))
    argv = ["--sizes", "6", "--per-size", "2", "--limit-s", "5", "--table-bits", "14"]
    with pytest.raises(KeyboardInterrupt):
        B.main(argv)
    (path,) = tmp_path.glob("expectimax-*.json")
    part = json.loads(path.read_text())
    assert part["complete"] is False and len(part["positions"]) == 1
    first = part["positions"][0]

    solved = []

    def count(solver, state, limit_s):
        solved.append(1)
        return real(solver, state, limit_s)
    monkeypatch.setattr(B, "solve_timed", count)
    assert B.main(argv + ["--resume", str(path)]) == 0
    done = json.loads(path.read_text())
    assert done["complete"] is True and len(solved) == 1
    assert len(done["positions"]) == 2 and done["positions"][0] == first
    assert done["size_vs_time"][0]["positions"] == 2
    # other options: refused with one line
    assert B.main(["--sizes", "8", "--resume", str(path)]) == 2


def test_late_sizes_answer_as_late_position_does():
    """``late_sizes(seed)[n]``, one game per seed for every n, is the deck size of
    ``late_position(seed, n)`` (a game per n), or NONE where that is None; and positions()
    built on it finds the positions a scan of late_position finds."""
    from benchmarks import positions as P
    for seed in range(120):
        sizes = P.late_sizes(seed)
        for n in (0, 2, 4, 5, 6, 8, 10, 12, 15, 20, 30, 76):
            s = P.late_position(seed, n)
            assert sizes[n] == (P.NONE if s is None else s.deck_size()), (seed, n)
    plain = []
    seed = 0
    while len(plain) < 3:
        s = P.late_position(seed, 10)
        if s is not None and s.deck_size() == 10 and P.open_at_root(s):
            plain.append((seed, format_position(s)))
        seed += 1
    assert [(k, format_position(s)) for k, s in P.positions(10, 3)] == plain
