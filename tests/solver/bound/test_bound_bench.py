"""benchmarks/bench_bound runs and reports what it measured (no timing is asserted)."""
from __future__ import annotations

from benchmarks import bench_bound


def test_bench_bound_runs_without_saving(capsys):
    assert bench_bound.main(["--cards", "4", "--seeds", "6", "--deals", "2", "--w",
                             "zero,noise", "--no-save"]) == 0
    out = capsys.readouterr()
    assert "nodes median" in out.out
    assert out.err.count("seed 6 deal") == 4


def test_bench_bound_refuses_an_unknown_w(capsys):
    assert bench_bound.main(["--w", "nonsense", "--no-save"]) == 2
    assert "bench_bound: --w" in capsys.readouterr().err
