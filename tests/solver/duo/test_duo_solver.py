"""The two-player clairvoyant solver: certificates, and every pruning rule against the search
without it on small listed decks (tests/fixtures/duo_small_positions.txt)."""
from __future__ import annotations

import os

import numpy as np
import pytest

from engine import Game, parse_position
from engine.errors import OnirimError
from solver.duo import search as DS
from solver.clairvoyant.solve import CertificateError, replay_line
from paths import FIXTURES

FIXTURE = os.path.join(FIXTURES, "duo_small_positions.txt")


def positions():
    with open(FIXTURE) as f:
        return [parse_position(x.strip()) for x in f if x.strip() and not x.startswith("#")]


@pytest.fixture(scope="module")
def solver():
    return DS.DuoSolver(tt_mb=8)


@pytest.fixture(scope="module")
def reference():
    """Neither the bounds nor the limited-discrepancy runs: the complete DFS with its table
    of exact keys only."""
    return DS.DuoSolver(tt_mb=8, flags=DS.F_TT, lds_levels=())


@pytest.fixture(scope="module")
def reference_results(reference):
    out = []
    for s in positions():
        r = reference.solve_state(s, budget_nodes=2_000_000)
        assert r.result in ("WIN", "LOSS")
        out.append(r.result)
    return out


def test_fixture_has_wins_and_losses(reference_results):
    assert len(reference_results) >= 40
    assert reference_results.count("WIN") >= 10 and reference_results.count("LOSS") >= 10


def test_deals_win_and_their_lines_replay_in_the_engine(solver):
    for seed in range(6):
        r = solver.solve_deal(seed, budget_nodes=3_000_000)
        assert r.result == "WIN", seed
        ok, msg = replay_line(Game(2).new_initial_state(seed), r.line)
        assert ok, (seed, msg)
        assert len(r.line) == len(r.actions) > 0


@pytest.mark.parametrize("bounds", [DS.DB_DOORS, DS.DB_PLAYS, DS.DB_SUPPLY, DS.ALL_BOUNDS])
def test_each_bound_agrees_with_the_unpruned_search(bounds, reference_results):
    """DB1-DB3 (docs/DUO.md) alone and together never turn a won position into a loss (and
    the proved losses stay losses): same result as the search without them, position by
    position."""
    pruned = DS.DuoSolver(tt_mb=8, flags=bounds | DS.F_TT, lds_levels=())
    cut = 0
    for s, want in zip(positions(), reference_results):
        r = pruned.solve_state(s, budget_nodes=2_000_000)
        assert r.result == want, (str(s), bounds)
        cut += r.pruned
    assert cut > 0   # the bound did prune something here


def test_default_solver_agrees_with_the_unpruned_search(solver, reference_results):
    """Bounds, table and limited-discrepancy runs together (the benchmark's configuration)."""
    for s, want in zip(positions(), reference_results):
        r = solver.solve_state(s, budget_nodes=2_000_000)
        assert r.result == want, str(s)
        if r.result == "WIN":
            assert replay_line(s, r.line)[0]


def test_table_agrees_with_no_table(reference_results):
    """The transposition table (losses under full keys) against no table at all, where the
    search without it finishes in its budget."""
    bare = DS.DuoSolver(tt_mb=8, flags=0, lds_levels=())
    decided = 0
    for s, want in zip(positions(), reference_results):
        r = bare.solve_state(s, budget_nodes=300_000)
        if r.result != "UNKNOWN":
            decided += 1
            assert r.result == want, str(s)
    assert decided >= 30


def test_dead_bound_on_a_discarded_door():
    """DB1: a Door in the discard pile can never come back, so the position is lost."""
    z = np.zeros
    doors = np.array([2, 2, 2, 1])
    deckc = z(17, dtype=np.int64)
    assert DS.dead_duo(z(12, dtype=np.int64), deckc, doors, z(4, dtype=np.int64), -1,
                       15, 0, 15, 0, 5, True, DS.DB_DOORS)
    deckc[15] = 1
    assert not DS.dead_duo(z(12, dtype=np.int64), deckc, doors, z(4, dtype=np.int64), -1,
                           15, 0, 15, 0, 5, True, DS.DB_DOORS)


def test_budget_gives_unknown_never_a_guess(solver):
    r = solver.solve_deal(5, budget_nodes=50)
    assert r.result == "UNKNOWN" and r.line == []


def test_a_line_that_does_not_win_is_refused(monkeypatch):
    """The certificate check can fail: a WIN whose line is cut short raises."""
    sv = DS.DuoSolver(tt_mb=8)
    real = DS.DuoSearch.line
    monkeypatch.setattr(DS.DuoSearch, "line", lambda self: real(self)[:-1])
    with pytest.raises(CertificateError):
        sv.solve_deal(0, budget_nodes=1_000_000)


def test_solo_positions_are_refused():
    with pytest.raises(OnirimError):
        DS.solve_duo_state(Game(1).new_initial_state(1))


def test_bench_duo_resumes_and_refuses_bad_input(tmp_path, capsys):
    """benchmarks.bench_duo: one line per deal, a rerun skips the deals done, bad input is
    one line and exit status 2."""
    import json
    from benchmarks import bench_duo
    args = ["--deals", "3", "--seed", "0", "--out-dir", str(tmp_path), "--quiet",
            "--node-budget", "2000000"]
    assert bench_duo.main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["deals"] == 3 and first["wins"] + first["losses"] + first["unknown"] == 3
    files = [p for p in tmp_path.iterdir() if p.suffix == ".jsonl"]
    assert len(files) == 1 and len(files[0].read_text().splitlines()) == 3
    args[1] = "4"
    assert bench_duo.main(args) == 0
    capsys.readouterr()
    lines = files[0].read_text().splitlines()
    assert [json.loads(x)["seed"] for x in lines] == [0, 1, 2, 3]   # only deal 3 was added
    assert bench_duo.main(["--deals", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("onirim: error: --deals:") and err.count("\n") == 1


def test_bench_duo_retries_unknown_deals_with_a_larger_budget(tmp_path, capsys):
    import json
    from benchmarks import bench_duo
    base = ["--deals", "2", "--seed", "0", "--out-dir", str(tmp_path), "--quiet",
            "--node-budget", "500"]
    assert bench_duo.main(base) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["unknown"] >= 1 and first["retried"] == 0
    assert bench_duo.main(base + ["--retry-budget", "2000000"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["unknown"] == 0 and second["retried"] == first["unknown"]
    assert second["deal_nodes"]["total"] > first["deal_nodes"]["total"]
    # the stored lines replay to wins in the engine, apart from the solver
    assert bench_duo.main(base + ["--replay"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep == {"replayed_wins": 2, "failed": 0, "missing_deals": 0,
                   "file": rep["file"]}
