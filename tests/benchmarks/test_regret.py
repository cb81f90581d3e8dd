"""The regret benchmark (benchmarks/bench_regret.py): its fixed positions, its regret
against a direct calculation, its statistics and its command line (docs/REGRET.md)."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from benchmarks import bench_regret as B
from engine.notation import format_position, parse_position
from solver.api import make_policy
from solver.honest.play import decision_stream

# Three fixture positions whose exact ranking is quick (well under a second), with
# actions of different values: (seed, decision index).
QUICK = [(5, 35), (12, 41), (15, 39)]


@pytest.fixture(scope="module")
def fixture_rows():
    return B.read_fixture(B.FIXTURE)


@pytest.fixture(scope="module")
def solver():
    from solver.expectimax.solver import Expectimax
    return Expectimax(table_bits=18)


def _quick(fixture_rows):
    by = {(s, i): (s, i, u, t) for s, i, u, t in fixture_rows}
    return [by[k] for k in QUICK]


def test_fixture_is_the_documented_selection(fixture_rows):
    assert len(fixture_rows) == 300
    seeds = [s for s, _, _, _ in fixture_rows]
    assert seeds == sorted(set(seeds))            # one position per deal, in deal order
    for s, i, u, text in fixture_rows:
        v = parse_position(text)
        assert 10 <= u <= 14 and B.unknown_cards(v) == u
        assert len(v.legal_actions()) >= 2
        assert format_position(v) == text
    # the first deals' picks are reproduced by the selection rule itself
    again = B.select_positions(3)
    assert [(s, i, u, format_position(v)) for s, i, u, v in again] == fixture_rows[:3]


def test_regret_equals_a_direct_calculation(fixture_rows, solver):
    """On 3 positions: the benchmark's regret (one ranking, cached row) against the
    values of every child searched one by one on a fresh solver without pruning."""
    from solver.expectimax.solver import Expectimax
    greedy = make_policy("greedy")
    seen_positive = 0
    for seed, i, u, text in _quick(fixture_rows):
        row = B.exact_row(solver, seed, i, text, None)
        assert row["exact"]
        row = json.loads(json.dumps(row))          # as read back from the cache file
        view = parse_position(text)
        a = greedy.act(view, decision_stream(seed, i))
        direct = {}
        for b in view.legal_actions():
            child = view.clone()
            child.apply_action(b)
            iv = Expectimax(table_bits=16, prune=False).value(child)
            assert iv.exact
            direct[b] = iv.lo
        want = max(direct.values()) - direct[a]
        got = B.regret_of(row, a)
        assert got == pytest.approx(want, abs=1e-12)
        assert B.contested(row) == (max(direct.values()) - min(direct.values()) > B.ZERO)
        seen_positive += want > B.ZERO
        with pytest.raises(ValueError):
            B.regret_of(row, 10_000)
    assert seen_positive >= 1        # at least one of them is a real greedy error


def test_summary_statistics():
    x = [0.0] * 90 + [0.1] * 10
    s = B.summarize(x, boot=2000)
    assert s["n"] == 100
    assert s["mean"] == pytest.approx(0.01)
    assert s["zero_share"] == pytest.approx(0.9)
    assert s["p95"] == pytest.approx(np.percentile(x, 95))
    assert s["max"] == pytest.approx(0.1)
    lo, hi = s["ci95_bootstrap"]
    assert lo < 0.01 < hi
    nlo, nhi = s["ci95_normal"]
    sd = np.std(x, ddof=1)
    assert nhi - nlo == pytest.approx(2 * 1.96 * sd / 10)
    assert B.summarize([])["n"] == 0
    assert B.summarize([0.0, 0.0])["ci95_bootstrap"] == [0.0, 0.0]


def test_run_caches_resumes_and_reports(tmp_path, fixture_rows, capsys):
    pos = tmp_path / "positions.txt"
    with open(pos, "w") as f:
        f.write("# two quick positions\n")
        for s, i, u, t in _quick(fixture_rows)[:2]:
            f.write(f"{s}\t{i}\t{u}\t{t}\n")
    out = tmp_path / "out"
    args = ["run", "--positions-file", str(pos), "--out", str(out), "--quiet",
            "--policy", "greedy", "--policy", "random", "--policy-arg", "x=1"]
    # an argument the policy does not take: one line, status 2
    with pytest.raises(SystemExit) as e:
        B.main(args)
    assert e.value.code == 2
    assert capsys.readouterr().err.startswith("onirim: error: --policy: ")
    args = args[:-2]
    assert B.main(args + ["--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["exact"] == 2 and res["positions"] == 2
    assert set(res["policies"]) == {"greedy", "random"}
    assert res["policies"]["greedy"]["all"]["n"] == 2
    assert "machine" in res and "command" in res
    cache = out / B.CACHE_NAME
    assert len(cache.read_text().splitlines()) == 2
    # a second run must be told to resume, and then solves nothing again
    with pytest.raises(SystemExit) as e:
        B.main(args)
    assert e.value.code == 2
    assert "--resume" in capsys.readouterr().err
    with open(cache, "a") as f:
        f.write('{"torn": ')                      # an interrupted write is ignored
    assert B.main(args + ["--resume", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["policies"]["greedy"]["all"] == res["policies"]["greedy"]["all"]
    assert len(cache.read_text().splitlines()) == 3
    with pytest.raises(SystemExit) as e:
        B.main(["run", "--policy-arg", "k=v"])
    assert e.value.code == 2
    assert capsys.readouterr().err.startswith("onirim: error: --policy-arg: ")


def test_regret_bounds_of_open_rows():
    row = {"position": "p", "actions": [{"id": 0, "lo": 0.5, "hi": 0.7},
                                        {"id": 1, "lo": 0.4, "hi": 0.4},
                                        {"id": 2, "lo": 0.6, "hi": 0.6}]}
    assert B.regret_bounds(row, 0) == (0.0, pytest.approx(0.1))
    assert B.regret_bounds(row, 1) == (pytest.approx(0.2), pytest.approx(0.3))
    assert B.regret_bounds(row, 2) == (0.0, pytest.approx(0.1))
    exact = {"position": "q", "actions": [{"id": 0, "lo": 0.5, "hi": 0.5},
                                          {"id": 1, "lo": 0.25, "hi": 0.25}]}
    assert B.regret_bounds(exact, 1) == (B.regret_of(exact, 1), B.regret_of(exact, 1))
    with pytest.raises(ValueError):
        B.regret_bounds(row, 7)


def test_paired_difference():
    ref = [0.1, 0.2, 0.0, 0.3]
    x = [0.0, 0.2, 0.1, 0.1]
    p = B.paired(ref, x, boot=500)
    assert p["mean_reduction"] == pytest.approx(0.05)
    assert p["better"] == 2 and p["worse"] == 1
    lo, hi = p["ci95_bootstrap"]
    assert lo <= 0.05 <= hi


def test_games_compares_policies_on_the_same_deals(tmp_path, capsys):
    out = tmp_path / "g"
    assert B.main(["games", "--deals", "3", "--seed", "3", "--policy", "greedy",
                   "--policy", "greedy", "--out", str(out)]) == 0
    (path,) = list(out.iterdir())
    res = json.loads(path.read_text())
    assert res["deals"] == [3, 5]
    g = res["policies"]["greedy#2"]
    assert 0 <= g["wins"] <= 3 and g["wins_only_greedy"] == 0
    assert g["wins"] == res["policies"]["greedy"]["wins"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        B.main(["games", "--deals", "1", "--out", str(out)])
    assert e.value.code == 2
    assert capsys.readouterr().err.startswith("onirim: error: --policy: ")
