"""The benchmark harness (benchmarks/bench_all.py, onirim bench): schema and robustness.

No timing is asserted.  The solver and expectimax sections are stubbed (their real runs take a
minute; ``onirim bench --quick`` in ``make test`` runs them for real); the playout section runs
for real on a tiny time budget.
"""
from __future__ import annotations

import json
import os
import sys
import types

import pytest

from benchmarks import bench_all as B
from onirim import cli

FAKE_SOLVER = {
    "clairvoyant_nodes_per_s": 1.5e6,
    "clairvoyant_deal_seconds": {"median": 0.03, "p90": 0.08, "p99": 0.2, "max": 0.4},
    "kernel_vs_engine_playout_ratio": 70.0,     # bench_solver's DFS ratio, renamed by us
    "tt_ops_per_s": 6e6,
    "two_vs_one_worker_ratio": 1.8,
    "dfs_nodes_per_s": 1.4e6,
    "deals": {"deals": 4, "wall_s": 0.2, "results": {"WIN": 3, "LOSS": 1, "UNKNOWN": 0}},
}
FAKE_PER_DEAL = [{"seed": s, "seconds": 0.01 * (s + 1), "nodes": 100, "result": "WIN"}
                 for s in range(4)]
FAKE_EXPECTIMAX = {   # the shape of benchmarks/bench_expectimax.run's result
    "expectimax_states_per_s": 2.5e5,
    "size_vs_time": [{"unknown": 6, "positions": 2, "solved": 2, "max_seconds": 0.02,
                      "median_seconds": 0.01, "max_nodes": 100},
                     {"unknown": 9, "positions": 2, "solved": 1, "max_seconds": 5.0,
                      "median_seconds": 0.4, "max_nodes": 5000}]}


def _runners(playouts=True, solver=None, expectimax=None):
    r = {"solver": lambda quick: B.solver_figures(
             solver if solver is not None else {"result": FAKE_SOLVER, "per_deal": FAKE_PER_DEAL}),
         "expectimax": lambda quick: B.expectimax_figures(
             expectimax if expectimax is not None else {"result": FAKE_EXPECTIMAX})}
    if playouts:
        r["playouts"] = lambda quick: B.bench_playouts(quick, budget_s=0.05)
    return r


@pytest.fixture(scope="module")
def quick_result():
    """One quick run: real playouts (tiny budget), stubbed solver, failing expectimax."""
    return B.run(quick=True, runners=_runners(
        expectimax={"error": "benchmarks.bench_expectimax: ModuleNotFoundError: none"}),
        verbose=False)


def test_quick_result_has_every_key_and_a_valid_schema(quick_result):
    r = quick_result
    assert B.check_result(r) == []
    for k in ("quick", "seconds", "machine", "errors") + B.FIGURE_KEYS:
        assert k in r, k
    assert r["quick"] is True
    for k in B.PLAYOUT_KEYS:      # the real playouts ran: numbers, not nulls
        assert isinstance(r[k], float) and r[k] > 0, (k, r[k], r["errors"].get(k))
    assert r["kernel_vs_engine_playout_ratio"] == r["kernel_vs_engine_playout_ratio_greedy"]
    assert r["kernel_vs_engine_playout_ratio_random"] == pytest.approx(
        r["kernel_random_playouts_per_s"] / r["engine_random_playouts_per_s"])
    assert r["clairvoyant_deal_seconds"] == FAKE_SOLVER["clairvoyant_deal_seconds"]
    assert r["clairvoyant_deals_per_s"] == pytest.approx(4 / 0.2)
    assert r["clairvoyant_kernel_vs_python_search_ratio"] == 70.0
    assert r["clairvoyant_per_deal"] == {"seed_first": 0, "seed_last": 3,
                                         "seconds": [0.01, 0.02, 0.03, 0.04]}
    for k in ("cpu", "cores", "python", "numba", "commit"):
        assert k in r["machine"]
    json.dumps(r, allow_nan=False)            # plain JSON, no NaN


def test_failed_section_gives_nulls_with_errors(quick_result):
    r = quick_result
    for k in B.EXPECTIMAX_KEYS:
        assert r[k] is None
        assert "ModuleNotFoundError" in r["errors"][k]
    table = B.format_table(r)
    assert "ERROR: benchmarks.bench_expectimax" in table
    assert "kernel / engine, greedy" in table


def test_greedy_playouts_are_the_same_games_on_both_sides(quick_result):
    """In every round the kernel replays the engine's seeds: the same decisions and wins."""
    p = quick_result["playouts"]
    eng, ker = p["engine_greedy"], p["kernel_greedy"]
    assert ker["distinct_seeds"] == eng["games"] > 0
    assert sum(r["games"] for r in ker["rounds"]) == eng["games"]
    for r in ker["rounds"]:
        assert r["kernel_repeats"] >= 1
        assert r["kernel_steps"] == r["kernel_repeats"] * r["engine_steps"]
        assert r["kernel_wins"] == r["kernel_repeats"] * r["engine_wins"]
    assert ker["games"] == sum(r["kernel_repeats"] * r["games"] for r in ker["rounds"])


def test_honest_playouts_run_beside_the_engine(quick_result):
    """The information-state kernel's greedy playouts: one slice in each greedy round, whole
    chunks of games, a win rate near greedy's, and the ratio to the engine's greedy figure."""
    r = quick_result
    hg = r["playouts"]["honest_greedy"]
    assert hg["rounds"] == 2 and hg["games"] % B.HONEST_CHUNK == 0 and hg["games"] > 0
    assert 0.0 < hg["wins"] / hg["games"] < 0.3
    assert r["honest_greedy_playouts_per_s"] == pytest.approx(hg["games"] / hg["seconds"])
    assert r["honest_vs_engine_playout_ratio"] == pytest.approx(
        r["honest_greedy_playouts_per_s"] / r["engine_greedy_playouts_per_s"])
    table = B.format_table(r)
    assert "honest playouts/s, greedy" in table and "honest kernel / engine" in table


def test_honest_kernel_failure_costs_only_its_figures(monkeypatch):
    from solver.honest import kernel as HK

    def broken():
        raise RuntimeError("no kernel today")
    monkeypatch.setattr(HK, "compile_all", broken)
    out = B.bench_playouts(True, budget_s=0.02)
    for k in ("honest_greedy_playouts_per_s", "honest_vs_engine_playout_ratio"):
        assert out[k] is None and k in out["errors"], k
    assert "no kernel today" in out["errors"]["honest_greedy_playouts_per_s"]
    assert out["engine_greedy_playouts_per_s"] > 0 and out["kernel_greedy_playouts_per_s"] > 0


def test_check_result_catches_bad_files(quick_result):
    r = json.loads(json.dumps(quick_result))
    r["tt_ops_per_s"] = None
    r["errors"].pop("tt_ops_per_s", None)
    r["clairvoyant_nodes_per_s"] = -3.0
    r["clairvoyant_deal_seconds"] = {"median": 2.0, "p90": 1.0, "p99": 3.0, "max": 4.0}
    del r["two_vs_one_worker_ratio"]
    r["expectimax_size_vs_time"] = [{"size": 3}]
    problems = "\n".join(B.check_result(r))
    for k in ("tt_ops_per_s", "clairvoyant_nodes_per_s", "clairvoyant_deal_seconds",
              "two_vs_one_worker_ratio", "expectimax_size_vs_time"):
        assert k in problems, (k, problems)


def test_partial_solver_output_is_recorded_not_fatal():
    out = B.solver_figures({"result": {"clairvoyant_nodes_per_s": 1e6, "tt_ops_per_s": 0}})
    assert out["clairvoyant_nodes_per_s"] == 1e6
    for k in ("tt_ops_per_s", "two_vs_one_worker_ratio", "clairvoyant_deal_seconds",
              "clairvoyant_deals_per_s"):
        assert out[k] is None and k in out["errors"], k
    # percentiles computed from per-deal times when the module gives none
    out = B.solver_figures({"result": {}, "per_deal": FAKE_PER_DEAL})
    assert out["clairvoyant_deal_seconds"]["max"] == pytest.approx(0.04)
    assert out["clairvoyant_deals_per_s"] == pytest.approx(4 / 0.1)


def test_a_crashing_section_does_not_stop_the_others():
    def boom(quick):
        raise RuntimeError("kernel API changed")
    r = B.run(quick=True, sections=("solver", "expectimax"), verbose=False,
              runners={"solver": boom, "expectimax": _runners()["expectimax"]})
    assert B.check_result(r) == []
    assert r["clairvoyant_nodes_per_s"] is None
    assert "kernel API changed" in r["errors"]["clairvoyant_nodes_per_s"]
    assert "not run" in r["errors"]["kernel_vs_engine_playout_ratio"]
    assert r["expectimax_states_per_s"] == 2.5e5
    assert [row["size"] for row in r["expectimax_size_vs_time"]] == [6, 9]


@pytest.mark.parametrize("given, sizes", [
    ({"expectimax_size_vs_time": [{"size": 4, "seconds": 0.1}]}, [4]),
    ({"size_vs_time": [[5, 0.2], [7, 1.5]]}, [5, 7]),
    ({"by_size": [{"unknown_size": 3, "time_s": 0.01}]}, [3]),
    ({"size_vs_time": [{"nothing": 1}]}, None),
    ({}, None),
])
def test_size_versus_time_forms(given, sizes):
    rows = B._size_time_list(given)
    assert (None if rows is None else [r["size"] for r in rows]) == sizes


def test_size_versus_time_takes_the_median_and_keeps_the_rest():
    rows = B._size_time_list(FAKE_EXPECTIMAX)
    assert [(r["size"], r["seconds"], r["max_seconds"], r["solved"]) for r in rows] == \
        [(6, 0.01, 0.02, 2), (9, 0.4, 5.0, 1)]
    table = B.format_table({"expectimax_size_vs_time": rows, "errors": {}})
    assert "1/2 positions exact" in table and "max 5.00 s" in table


def test_child_section_runs_a_module_and_reports_its_failure(tmp_path, monkeypatch):
    fake = types.ModuleType("benchmarks.bench_expectimax")
    seen = {}

    def run(quick, verbose=True):
        seen["args"] = (quick, verbose)
        return dict(FAKE_EXPECTIMAX)
    fake.run = run
    monkeypatch.setitem(sys.modules, "benchmarks.bench_expectimax", fake)
    path = tmp_path / "out.json"
    B._child("expectimax", True, str(path))
    data = json.loads(path.read_text())
    assert seen["args"] == (True, False)
    assert data["result"]["expectimax_states_per_s"] == 2.5e5

    fake.run = lambda quick: 42
    B._child("expectimax", False, str(path))
    assert "not a dict" in json.loads(path.read_text())["error"]


def test_finish_writes_json_and_figures(quick_result, tmp_path, capsys):
    r = json.loads(json.dumps(quick_result))
    r["expectimax_size_vs_time"] = B._size_time_list(FAKE_EXPECTIMAX)
    r["clairvoyant_per_deal"] = B.compact_per_deal(FAKE_PER_DEAL)
    assert B.finish(r, str(tmp_path), as_json=False) == 0
    out = capsys.readouterr().out
    assert "wrote" in out and "clairvoyant nodes/s" in out
    data = json.loads((tmp_path / "bench-quick.json").read_text())
    assert B.check_result(data) == []
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib" in data["plots"]["note"]
    else:
        names = sorted(os.path.basename(f) for f in data["plots"]["files"])
        assert names == ["bench-deal-seconds-quick.png", "bench-expectimax-size-quick.png"]
        for n in names:
            assert (tmp_path / n).read_bytes()[:4] == b"\x89PNG"


def test_plots_skip_missing_data_with_a_note(tmp_path):
    pytest.importorskip("matplotlib")
    from benchmarks import plots
    res = plots.plot_all({"quick": False, "machine": {}}, str(tmp_path))
    assert res["files"] == [] and "skipped" in res["note"]


def test_cli_bench_playouts_only(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(B, "PLAYOUT_BUDGET", (0.05, 0.05))
    code = cli.main(["bench", "--quick", "--json", "--sections", "playouts",
                     "--out", str(tmp_path / "res"), "--no-plots"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    written = json.loads((tmp_path / "res" / "bench-quick.json").read_text())
    assert printed == written
    assert B.check_result(written) == []
    assert written["sections"] == ["playouts"]
    assert written["clairvoyant_nodes_per_s"] is None
    assert "not run" in written["errors"]["clairvoyant_nodes_per_s"]


@pytest.mark.parametrize("argv, words", [
    (["bench", "--sections", "playouts,warp"], "unknown section 'warp'"),
    (["bench", "--sections", ","], "at least one section"),
    (["bench", "--quick", "--bogus"], "--bogus: unknown option"),
])
def test_cli_bench_bad_input(argv, words, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err


def test_cli_bench_out_must_be_a_directory(tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert cli.main(["bench", "--quick", "--out", str(f)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not a directory" in err


def test_markdown_table_lists_every_figure(quick_result):
    md = B.markdown_table(quick_result)
    lines = md.splitlines()
    assert lines[0] == "| figure | value | note |"
    assert lines[1] == "|---|---|---|"
    assert all(line.startswith("| ") and line.endswith(" |") for line in lines[2:])
    for label in ("kernel / engine, random", "honest playouts/s, greedy", "clairvoyant nodes/s",
                  "table ops/s",
                  "2 vs 1 workers", "expectimax states/s"):
        assert any(label in line for line in lines), label


def test_run_child_time_limit_kills_and_reports(monkeypatch):
    """A child that overruns its limit is killed; its figures become null with the reason."""
    code_seen = {}
    real_popen = B.subprocess.Popen

    def slow_popen(cmd, **kw):
        code_seen["cmd"] = cmd
        return real_popen([cmd[0], "-c", "import time; time.sleep(30)"], **kw)
    monkeypatch.setattr(B.subprocess, "Popen", slow_popen)
    raw = B.run_child("expectimax", True, timeout=0.5)
    assert set(raw) == {"error"} and "expectimax section timed out after" in raw["error"]
    assert "_child('expectimax', True" in code_seen["cmd"][2]
    out = B.expectimax_figures(raw)
    assert out["expectimax_states_per_s"] is None
    assert "timed out" in out["errors"]["expectimax_states_per_s"]


def test_deal_seconds_clock_is_recognised():
    ds = {"median": 0.01, "p90": 0.02, "p99": 0.03, "max": 0.04}
    wall = {"median": 0.02, "p90": 0.03, "p99": 0.04, "max": 0.05}
    res = dict(FAKE_SOLVER, clairvoyant_deal_seconds=ds,
               deals=dict(FAKE_SOLVER["deals"], deal_cpu_seconds=dict(ds, mean=0.01),
                          deal_wall_seconds=wall))
    out = B.solver_figures({"result": res})
    assert out["clairvoyant_deal_seconds_clock"] == "cpu"
    res["clairvoyant_deal_seconds"] = wall
    assert B.solver_figures({"result": res})["clairvoyant_deal_seconds_clock"] == "wall"
    res["clairvoyant_deal_seconds"] = {"median": 1, "p90": 2, "p99": 3, "max": 4}
    assert "clairvoyant_deal_seconds_clock" not in B.solver_figures({"result": res})


def test_result_file_keeps_every_finished_row_and_resumes(tmp_path, monkeypatch, capsys):
    """benchmarks.harness.ResultFile: a row is on disk as soon as it is measured; a run
    interrupted mid-way resumes from the file, measuring only the seeds it lacks; other
    options, or another benchmark's file, are refused with one line."""
    from benchmarks import harness as H
    monkeypatch.setattr(H, "RESULTS_DIR", str(tmp_path))
    seen = []

    def measure(state):
        if len(seen) == 2:
            raise KeyboardInterrupt
        seen.append(1)
        return {"unknown": sum(state.unknown)}
    out = H.ResultFile.open("prog", "demo", "demo", {"cards": 8})
    with pytest.raises(KeyboardInterrupt):
        out.run_seeds([1, 2, 3, 4, 5, 6], 8, measure)
    (path,) = tmp_path.glob("demo-*.json")
    kept = json.loads(path.read_text())
    assert kept["complete"] is False and len(kept["positions"]) == 2
    assert all(r["unknown"] <= 8 and r["position"] for r in kept["positions"])

    seen.clear()
    again = H.ResultFile.open("prog", "demo", "demo", {"cards": 8}, resume=str(path))
    done_before = [r["seed"] for r in again.rows]
    again.run_seeds([1, 2, 3, 4, 5, 6], 8, lambda st: (seen.append(1), {"unknown": 0})[1])
    again.save(complete=True)
    final = json.loads(path.read_text())
    seeds = [r["seed"] for r in final["positions"]]
    assert final["complete"] is True and seeds[:2] == done_before
    assert len(seeds) == len(set(seeds)) == 2 + len(seen)
    capsys.readouterr()
    assert H.ResultFile.open("prog", "demo", "demo", {"cards": 9}, resume=str(path)) is None
    assert H.ResultFile.open("prog", "other", "o", {"cards": 8}, resume=str(path)) is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(e.startswith("prog: --resume") for e in err)


def test_cli_bench_writes_to_the_ignored_folder_by_default(tmp_path, monkeypatch, capsys):
    """Without --out, `onirim bench` writes to .bench-results/ in the current folder, which
    git ignores: a run does not write into the repository unless asked to."""
    monkeypatch.setattr(B, "PLAYOUT_BUDGET", (0.05, 0.05))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["bench", "--quick", "--sections", "playouts", "--no-plots"]) == 0
    assert ".bench-results" in capsys.readouterr().out
    assert B.check_result(json.loads(
        (tmp_path / ".bench-results" / "bench-quick.json").read_text())) == []
    with open(os.path.join(B.ROOT, ".gitignore")) as f:      # B.ROOT: the source tree
        assert ".bench-results/" in f.read().split()


def test_out_in_a_missing_folder_is_refused_like_db_and_tree(tmp_path):
    """--out, --db, --tree and --memo alike: the folder that holds the output must exist."""
    import subprocess
    import sys
    missing = tmp_path / "nope" / "out"
    r = subprocess.run([sys.executable, "-m", "onirim", "bench", "--quick", "--out",
                        str(missing)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "does not exist" in r.stderr
    assert not missing.parent.exists()


def test_cache_callbacks_reports_both_processes(capsys):
    """benchmarks.cache_callbacks (cited by docs/DUO.md) runs and reports the cache counts of
    two fresh processes; the first one, with an empty cache, must miss.  ``cached`` is what
    the second process shows (served from the cache: hits and no miss), and on the numba
    version docs/DUO.md names it is what the doc says: recompiled in each process, no hit."""
    import re
    import numba
    from benchmarks import cache_callbacks
    from paths import ROOT
    assert cache_callbacks.main(["--json"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    first, second = res["processes"]
    assert first["misses"] > 0 and first["hits"] == 0
    assert res["cached"] is (second["hits"] > 0 and second["misses"] == 0)
    with open(os.path.join(ROOT, "docs", "DUO.md")) as f:
        doc = " ".join(f.read().split())
    claim = re.search(r"shows `run` recompiled in each process, two cache misses and no hit "
                      r"in the second \(numba ([0-9.]+)\)", doc)
    assert claim, "docs/DUO.md no longer states what cache_callbacks shows"
    assert res["numba"] == numba.__version__
    if claim.group(1) == numba.__version__:
        assert res["cached"] is False and second == dict(second, hits=0, misses=2)


@pytest.mark.slow
def test_onirim_bench_quick_writes_valid_json_with_every_key(tmp_path):
    """The real quick benchmark, as a user runs it (``onirim bench --quick``): it must run
    and write valid JSON with every headline key.  No timing is asserted.  (``make test``
    ran this as a step before pytest, alone on one core; as a test it runs beside the
    others.)"""
    import subprocess
    from paths import ROOT
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "onirim", "bench", "--quick", "--out",
                        str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=1800)
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "bench-quick.json") as f:
        d = json.load(f)
    missing = [k for k in ("kernel_vs_engine_playout_ratio", "clairvoyant_nodes_per_s",
                           "clairvoyant_deal_seconds", "expectimax_states_per_s",
                           "tt_ops_per_s", "two_vs_one_worker_ratio", "machine")
               if k not in d]
    assert not missing, missing
