"""benchmarks/bench_cost.py: the side-by-side cost run plays the same deals for every policy,
in alternated order, and its ratios are its own timings' ratios."""
from __future__ import annotations

import pytest

from benchmarks import bench_cost
from benchmarks import experiments


def test_same_deals_for_every_policy_and_ratios_from_the_timings():
    doc = bench_cost.measure(["greedy", "greedy-plus"], deals=3, rounds=2, first=7100,
                             ref="greedy-keep-doors")
    pol = doc["policies"]
    assert list(pol) == ["greedy-keep-doors", "greedy", "greedy-plus"]   # the ref first
    for name, p in pol.items():
        e = experiments.EXPERIMENTS[name]
        w = experiments._worker(e)
        rows = [experiments._play(e, w, s) for s in range(7100, 7106)]
        assert p["deals"] == 6
        assert p["decisions"] == sum(r["decisions"] for r in rows), name
        assert p["won"] == sum(bool(r["won"]) for r in rows), name
        assert len(p["ratio_pairs"]) == 2
        ref = pol["greedy-keep-doors"]["cpu_ms_per_decision"]
        assert p["ratio_to_ref"] == pytest.approx(p["cpu_ms_per_decision"] / ref, rel=1e-3)
    assert pol["greedy-keep-doors"]["ratio_pairs"] == [1.0, 1.0]
    assert len(doc["load_after_round"]) == 2 and doc["machine"]["cores"]
    assert doc["command"].startswith("python -m benchmarks.bench_cost")
    assert "greedy-plus" in bench_cost.table(doc)


@pytest.mark.parametrize("argv, msg", [
    (["--names", "nope"], "'nope' is not a solo honest experiment"),
    (["--names", "duo-greedy"], "'duo-greedy' is not a solo honest experiment"),
    (["--names", "greedy", "--deals", "0"], "--deals must be from 1"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, msg):
    assert bench_cost.main(argv + ["--no-save"]) == 2
    err = capsys.readouterr().err
    assert msg in err and len(err.strip().splitlines()) == 1
