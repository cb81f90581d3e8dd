"""All throughput figures in one run: one table, one JSON file (``onirim bench``).

    python -m benchmarks.bench_all [--quick] [--json] [--out DIR] [--sections a,b,...]
    python -m benchmarks.bench_all --render RESULT.json     # the table as Markdown

Sections (all by default):

``playouts``    complete solo games per second with a uniform random and with the greedy
                policy, in the pure-Python engine (:mod:`benchmarks.bench_engine`) and in the
                numba kernel (:mod:`solver.clairvoyant.playouts`), measured in alternating
                slices in this process, and their ratios; and greedy games in the
                information-state kernel (:mod:`solver.honest.kernel`, honest playouts: draws
                from the unknown counts) in a third slice of each greedy round;
``solver``      the clairvoyant solver, table operations and worker scaling
                (:func:`benchmarks.bench_solver.run`);
``expectimax``  expectimax states per second and time against the unknown-deck size
                (:func:`benchmarks.bench_expectimax.run`).

``solver`` and ``expectimax`` run in a child process each, under a time limit, so that a slow,
crashing or half-finished module costs its own figures and nothing else: every figure it should
have given is ``null`` in the JSON, with the reason under ``"errors"`` (keyed by the figure's
name), and the table prints the reason.  Timings are measured here and only here; no test
asserts one.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import math
import os
import subprocess
import sys
import tempfile
import time

from benchmarks import harness
from benchmarks.harness import ROOT

SECTIONS = ("playouts", "solver", "expectimax")
DEFAULT_OUT = ".bench-results"     # in the current folder; git-ignored

# The figures every result file holds (a number, or null with an entry under "errors").
PLAYOUT_KEYS = (
    "engine_random_playouts_per_s", "engine_greedy_playouts_per_s",
    "kernel_random_playouts_per_s", "kernel_greedy_playouts_per_s",
    "kernel_vs_engine_playout_ratio_random", "kernel_vs_engine_playout_ratio_greedy",
    "kernel_vs_engine_playout_ratio",
    "honest_greedy_playouts_per_s", "honest_vs_engine_playout_ratio",
)
SOLVER_KEYS = ("clairvoyant_nodes_per_s", "clairvoyant_deals_per_s", "clairvoyant_deal_seconds",
               "tt_ops_per_s", "two_vs_one_worker_ratio")
EXPECTIMAX_KEYS = ("expectimax_states_per_s", "expectimax_size_vs_time")
FIGURE_KEYS = PLAYOUT_KEYS + SOLVER_KEYS + EXPECTIMAX_KEYS
PERCENTILE_KEYS = ("median", "p90", "p99", "max")
SECTION_KEYS = {"playouts": PLAYOUT_KEYS, "solver": SOLVER_KEYS, "expectimax": EXPECTIMAX_KEYS}

# The modules behind the child sections (each has run(quick) -> dict).
CHILD_MODULES = {"solver": "benchmarks.bench_solver",
                 "expectimax": "benchmarks.bench_expectimax"}
# Wall-clock limits of the child sections, seconds (quick, full).
TIMEOUTS = {"solver": (150, 3600), "expectimax": (120, 1800)}
# Time given to each playout measurement, seconds (quick, full).
PLAYOUT_BUDGET = (1.0, 10.0)
# Deals of the solver's per-deal distribution in quick mode (the full run uses its default).
QUICK_SOLVER_DEALS = 50


def _log(*a) -> None:
    print(*a, file=sys.stderr, flush=True)


def _positive(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


def jsonable(x):
    """``x`` with tuples as lists, numpy scalars as Python numbers, NaN/inf as None and
    anything else that JSON cannot hold as its ``str``."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if hasattr(x, "dtype") and hasattr(x, "tolist"):   # numpy scalars and arrays
        try:
            return jsonable(x.tolist())
        except (TypeError, ValueError):
            pass
    return str(x)


# ============================================================================ playouts
def bench_playouts(quick: bool, budget_s: float | None = None, rounds: int | None = None) -> dict:
    """Engine and kernel playouts per second, random and greedy, side by side.

    Each policy is measured in ``rounds`` alternating slices (engine, kernel, engine, kernel,
    ...), so that a change in the machine's load during the run falls on both sides alike.  In
    each slice the engine plays the next seeds (0, 1, 2, ... over the whole run) until the slice
    ends; then the kernel plays the very seeds the engine just played (for the greedy policy
    the very same games, action for action), repeated until its own slice ends.  The numba
    code is compiled or loaded once before any timing.  The random policies draw from
    different generators (``random.Random(seed)`` in the engine, a counter-based stream in the
    kernel), so their games differ; both are uniform over the legal actions.
    """
    from benchmarks import bench_engine
    budget = budget_s if budget_s is not None else PLAYOUT_BUDGET[0 if quick else 1]
    rounds = rounds or (2 if quick else 5)
    out: dict = {"errors": {}, "playouts": {}}
    KP = None
    try:
        from solver.clairvoyant import playouts as KP
        t0 = time.perf_counter()
        KP.compile_all()
        out["kernel_compile_seconds"] = time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001 - recorded, the engine side still runs
        KP = None
        msg = f"numba kernel playouts unavailable: {type(e).__name__}: {e}"
        for pol in ("random", "greedy"):
            out[f"kernel_{pol}_playouts_per_s"] = None
            out["errors"][f"kernel_{pol}_playouts_per_s"] = msg
    HK = None
    try:
        from solver.honest import kernel as HK
        t0 = time.perf_counter()
        HK.compile_all()
        out["honest_compile_seconds"] = time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001 - recorded, the other figures still run
        HK = None
        out["honest_greedy_playouts_per_s"] = None
        out["errors"]["honest_greedy_playouts_per_s"] = \
            f"information-state kernel unavailable: {type(e).__name__}: {e}"
    hon = {"games": 0, "wins": 0, "seconds": 0.0, "cpu_seconds": 0.0, "rounds": 0}
    honest_error = None
    for pol in ("random", "greedy"):
        eng = {"games": 0, "steps": 0, "wins": 0, "seconds": 0.0}
        ker = {"games": 0, "steps": 0, "wins": 0, "seconds": 0.0, "distinct_seeds": 0}
        next_seed = 0
        kernel_error = None
        try:
            for _ in range(rounds):
                r = bench_engine.playouts(pol, range(next_seed, next_seed + 10**6),
                                          budget / rounds)
                for f in ("games", "steps", "wins", "seconds"):
                    eng[f] += r[f]
                batch = list(range(next_seed, next_seed + r["games"]))
                next_seed += r["games"]
                if pol == "greedy" and HK is not None and honest_error is None:
                    try:
                        _honest_slice(HK, hon, budget / rounds)
                    except Exception as e:  # noqa: BLE001
                        honest_error = f"honest playouts failed: {type(e).__name__}: {e}"
                if KP is None or kernel_error is not None:
                    continue
                try:
                    ker["distinct_seeds"] += len(batch)
                    rnd = {"first_seed": batch[0] if batch else None, "games": r["games"],
                           "engine_steps": r["steps"], "engine_wins": r["wins"],
                           "kernel_repeats": 0, "kernel_steps": 0, "kernel_wins": 0}
                    t0 = time.perf_counter()
                    while True:
                        k = KP.run_batch(batch, pol)
                        if k["failed"]:
                            raise RuntimeError(f"{k['failed']} kernel playouts failed")
                        for f in ("games", "steps", "wins"):
                            ker[f] += k[f]
                        rnd["kernel_repeats"] += 1
                        rnd["kernel_steps"] += k["steps"]
                        rnd["kernel_wins"] += k["wins"]
                        dt = time.perf_counter() - t0
                        if dt >= budget / rounds:
                            break
                    ker["seconds"] += dt
                    ker.setdefault("rounds", []).append(rnd)
                except Exception as e:  # noqa: BLE001
                    kernel_error = f"kernel {pol} playouts failed: {type(e).__name__}: {e}"
        except Exception as e:  # noqa: BLE001
            out[f"engine_{pol}_playouts_per_s"] = None
            out["errors"][f"engine_{pol}_playouts_per_s"] = \
                f"engine playouts failed: {type(e).__name__}: {e}"
        else:
            eng.update(policy=pol, first_seed=0, playouts_per_s=eng["games"] / eng["seconds"],
                       steps_per_s=eng["steps"] / eng["seconds"])
            out["playouts"][f"engine_{pol}"] = eng
            out[f"engine_{pol}_playouts_per_s"] = eng["playouts_per_s"]
            out[f"engine_{pol}_steps_per_s"] = eng["steps_per_s"]
        if kernel_error is not None:
            out[f"kernel_{pol}_playouts_per_s"] = None
            out["errors"][f"kernel_{pol}_playouts_per_s"] = kernel_error
        elif KP is not None and ker["seconds"] > 0:
            ker.update(policy=pol, playouts_per_s=ker["games"] / ker["seconds"],
                       steps_per_s=ker["steps"] / ker["seconds"])
            out["playouts"][f"kernel_{pol}"] = ker
            out[f"kernel_{pol}_playouts_per_s"] = ker["playouts_per_s"]
            out[f"kernel_{pol}_steps_per_s"] = ker["steps_per_s"]
        elif KP is not None:
            out[f"kernel_{pol}_playouts_per_s"] = None
            out["errors"][f"kernel_{pol}_playouts_per_s"] = "the engine side gave no seeds"
    for pol in ("random", "greedy"):
        k, e = out.get(f"kernel_{pol}_playouts_per_s"), out.get(f"engine_{pol}_playouts_per_s")
        key = f"kernel_vs_engine_playout_ratio_{pol}"
        if _positive(k) and _positive(e):
            out[key] = k / e
        else:
            out[key] = None
            out["errors"][key] = "needs both the engine and the kernel figure"
    if HK is not None:
        if honest_error is None and hon["seconds"] > 0:
            hon.update(policy="greedy", playouts_per_s=hon["games"] / hon["seconds"],
                       playouts_per_cpu_s=hon["games"] / hon["cpu_seconds"]
                       if hon["cpu_seconds"] > 0 else None)
            out["playouts"]["honest_greedy"] = hon
            out["honest_greedy_playouts_per_s"] = hon["playouts_per_s"]
        else:
            out["honest_greedy_playouts_per_s"] = None
            out["errors"]["honest_greedy_playouts_per_s"] = \
                honest_error or "the greedy rounds did not run"
    h, e = out.get("honest_greedy_playouts_per_s"), out.get("engine_greedy_playouts_per_s")
    if _positive(h) and _positive(e):
        out["honest_vs_engine_playout_ratio"] = h / e
    else:
        out["honest_vs_engine_playout_ratio"] = None
        out["errors"]["honest_vs_engine_playout_ratio"] = \
            "needs both the engine greedy and the honest figure"
    # the headline ratio: the greedy one, where both sides play the very same games
    out["kernel_vs_engine_playout_ratio"] = out["kernel_vs_engine_playout_ratio_greedy"]
    if out["kernel_vs_engine_playout_ratio"] is None:
        out["errors"]["kernel_vs_engine_playout_ratio"] = \
            out["errors"]["kernel_vs_engine_playout_ratio_greedy"]
    return out


HONEST_CHUNK = 5_000      # honest games per call inside a slice (about 10 ms)


def _honest_slice(HK, hon: dict, seconds: float) -> None:
    """One slice of honest greedy playouts (solver.honest.kernel.playout_batch): chance-mode
    games from the setup, stream key 1 + the slice number, chunks of HONEST_CHUNK games until
    ``seconds`` of wall time have passed.  Not the engine's deals: an honest playout draws
    from the unknown counts, so there is no seeded deck to share."""
    key = 1 + hon["rounds"]
    t0 = time.perf_counter()
    c0 = time.process_time()
    g = 0
    while True:
        r = HK.playout_batch(HONEST_CHUNK, key=key * 1_000_003 + g)
        if r["failed"]:
            raise RuntimeError(f"{r['failed']} honest playouts failed")
        hon["games"] += r["games"]
        hon["wins"] += r["wins"]
        g += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            break
    hon["seconds"] += dt
    hon["cpu_seconds"] += time.process_time() - c0
    hon["rounds"] += 1


# ============================================================================ child sections
def _call_run(mod, quick: bool) -> dict:
    """``mod.run(quick)`` with the keyword arguments it accepts: no file of its own, quiet,
    and (quick) fewer solver deals."""
    fn = getattr(mod, "run", None)
    if fn is None:
        raise AttributeError(f"{mod.__name__} has no run(quick)")
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    kw = {}
    if "write" in params:
        kw["write"] = False
    if "verbose" in params:
        kw["verbose"] = False
    if quick and "deals" in params and mod.__name__.endswith("bench_solver"):
        kw["deals"] = QUICK_SOLVER_DEALS
    if "quick" in params:
        kw["quick"] = quick
        return fn(**kw)
    return fn(quick, **kw)


def _record_solver_deals(mod):
    """Record each deal's time during ``bench_solver.bench_deals`` (for the figure), without
    changing what it measures: while ``bench_deals`` runs, its solver class is replaced by a
    subclass that notes the seconds of every plain ``solve_deal(seed)`` call (the warm-up call
    with a node budget is not noted).  Returns (list, undo)."""
    times: list = []
    base = getattr(mod, "ClairvoyantSolver", None)
    deals_fn = getattr(mod, "bench_deals", None)
    if not isinstance(base, type) or not hasattr(base, "solve_deal") or not callable(deals_fn):
        return times, lambda: None

    class Recording(base):
        def solve_deal(self, seed, **kw):
            c0 = time.process_time()
            r = super().solve_deal(seed, **kw)
            cpu = time.process_time() - c0
            if not kw:
                times.append({"seed": int(seed), "seconds": float(getattr(r, "seconds", 0.0)),
                              "cpu_seconds": cpu, "nodes": int(getattr(r, "nodes", 0)),
                              "result": str(getattr(r, "result", ""))})
            return r

    def recording_bench_deals(*a, **kw):
        times.clear()
        mod.ClairvoyantSolver = Recording
        try:
            return deals_fn(*a, **kw)
        finally:
            mod.ClairvoyantSolver = base

    mod.bench_deals = recording_bench_deals

    def undo():
        mod.bench_deals = deals_fn
        mod.ClairvoyantSolver = base
    return times, undo


def _child(section: str, quick: bool, path: str) -> None:
    """Run one section in this (child) process and write its raw result to ``path``."""
    name = CHILD_MODULES[section]
    out: dict = {}
    try:
        mod = importlib.import_module(name)
        times = None

        def undo():
            return None
        if section == "solver":
            times, undo = _record_solver_deals(mod)
        try:
            res = _call_run(mod, quick)
        finally:
            undo()
        if not isinstance(res, dict):
            raise TypeError(f"{name}.run returned {type(res).__name__}, not a dict")
        out["result"] = res
        if times:
            out["per_deal"] = times
    except BaseException as e:  # noqa: BLE001 - reported to the parent
        out["error"] = f"{name}: {type(e).__name__}: {e}"
    with open(path, "w") as f:
        json.dump(jsonable(out), f)


def _kill_group(proc) -> None:
    """Kill a child started in its own session, and any worker it forked."""
    import signal
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    proc.communicate()


def run_child(section: str, quick: bool, timeout: float | None = None) -> dict:
    """Run a section in a child Python; returns {"result": ...} or {"error": ...}."""
    timeout = timeout if timeout is not None else TIMEOUTS[section][0 if quick else 1]
    fd, path = tempfile.mkstemp(prefix=f"onirim-bench-{section}-", suffix=".json")
    os.close(fd)
    code = ("from benchmarks.bench_all import _child; "
            "_child(%r, %r, %r)" % (section, quick, path))
    try:
        # ``-c`` puts the working folder first on the child's path: ROOT holds benchmarks/
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return {"error": f"{section} section timed out after {timeout:.0f} s"}
        except BaseException:            # Ctrl-C: do not leave the child running
            _kill_group(proc)
            raise
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            tail = (err or "").strip().splitlines()[-1:] or [""]
            return {"error": f"{section} section exited with status {proc.returncode} "
                             f"and no result ({tail[0][:200]})"}
        return data
    finally:
        try:
            os.remove(path)
        except OSError:
            pass


def _number(d: dict, *names):
    for n in names:
        v = d.get(n)
        if _positive(v):
            return float(v)
    return None


def _failed_section(keys, error: str) -> dict:
    """Every figure of a section that failed as a whole: null, with the section's error."""
    return {**{k: None for k in keys}, "errors": {k: error for k in keys}}


def solver_figures(raw: dict) -> dict:
    """The solver section's figures from ``bench_solver.run``'s dict (and per-deal times)."""
    if "error" in raw:
        return _failed_section(SOLVER_KEYS, raw["error"])
    out: dict = {"errors": {}}
    res = raw.get("result", {})
    src = "benchmarks.bench_solver.run"
    for k in ("clairvoyant_nodes_per_s", "tt_ops_per_s", "two_vs_one_worker_ratio"):
        out[k] = _number(res, k)
        if out[k] is None:
            out["errors"][k] = f"{src} gave no positive {k!r}"
    ds = res.get("clairvoyant_deal_seconds")
    if isinstance(ds, dict) and all(_positive(ds.get(p)) or ds.get(p) == 0
                                    for p in PERCENTILE_KEYS):
        out["clairvoyant_deal_seconds"] = {p: float(ds[p]) for p in PERCENTILE_KEYS}
    elif raw.get("per_deal"):
        out["clairvoyant_deal_seconds"] = harness.percentiles(
            [d["seconds"] for d in raw["per_deal"]])
    else:
        out["clairvoyant_deal_seconds"] = None
        out["errors"]["clairvoyant_deal_seconds"] = \
            f"{src} gave no clairvoyant_deal_seconds {{median, p90, p99, max}}"
    deals = res.get("deals") if isinstance(res.get("deals"), dict) else {}
    dps = _number(res, "clairvoyant_deals_per_s")
    if dps is None and _positive(deals.get("deals")) and _positive(deals.get("wall_s")):
        dps = deals["deals"] / deals["wall_s"]
    if dps is None and raw.get("per_deal"):
        tot = sum(d["seconds"] for d in raw["per_deal"])
        dps = len(raw["per_deal"]) / tot if tot > 0 else None
    out["clairvoyant_deals_per_s"] = dps
    if dps is None:
        out["errors"]["clairvoyant_deals_per_s"] = f"{src} gave no deal count and wall time"
    if deals:
        out["clairvoyant_deals"] = deals      # bench_solver's details (counts, both clocks)
    # which clock the per-deal percentiles were taken on (bench_solver gives both)
    ds = out.get("clairvoyant_deal_seconds")
    if isinstance(ds, dict):
        for clock, key in (("cpu", "deal_cpu_seconds"), ("wall", "deal_wall_seconds"),
                           ("wall", "deal_seconds")):
            ref = deals.get(key)
            if isinstance(ref, dict) and all(ref.get(p) == ds[p] for p in PERCENTILE_KEYS):
                out["clairvoyant_deal_seconds_clock"] = clock
                break
    # bench_solver's own "kernel_vs_engine_playout_ratio" compares a DFS search in the kernel
    # with the same search in Python; it is kept under a name that says so.
    if _positive(res.get("kernel_vs_engine_playout_ratio")):
        out["clairvoyant_kernel_vs_python_search_ratio"] = \
            float(res["kernel_vs_engine_playout_ratio"])
    for theirs, ours in (("dfs_nodes_per_s", "clairvoyant_dfs_nodes_per_s"),
                         ("beam_nodes_per_s", "clairvoyant_beam_nodes_per_s")):
        if _positive(res.get(theirs)):
            out[ours] = float(res[theirs])
    if isinstance(res.get("workers"), dict):
        out["workers"] = res["workers"]
    if raw.get("per_deal"):
        out["clairvoyant_per_deal"] = compact_per_deal(raw["per_deal"])
    return out


def compact_per_deal(rows: list) -> dict:
    """Per-deal times as {"seed_first", "seed_last", "seconds": [...], "cpu_seconds": [...]}:
    wall and CPU seconds of deal seed_first + i at index i (a "seeds" list is added when the
    seeds are not consecutive)."""
    seeds = [int(r["seed"]) for r in rows]
    out = {"seed_first": seeds[0], "seed_last": seeds[-1],
           "seconds": [round(float(r["seconds"]), 6) for r in rows]}
    if all("cpu_seconds" in r for r in rows):
        out["cpu_seconds"] = [round(float(r["cpu_seconds"]), 6) for r in rows]
    if seeds != list(range(seeds[0], seeds[0] + len(seeds))):
        out["seeds"] = seeds
    return out


def _size_time_list(res: dict):
    """The size-versus-time list of ``bench_expectimax.run``: [{"size", "seconds", ...}]."""
    cand = None
    for k in ("expectimax_size_vs_time", "size_vs_time", "expectimax_size_vs_seconds",
              "sizes"):
        if isinstance(res.get(k), list):
            cand = res[k]
            break
    if cand is None:
        for k, v in res.items():
            if "size" in k and isinstance(v, list):
                cand = v
                break
    if cand is None:
        return None
    rows = []
    for item in cand:
        if isinstance(item, dict):
            size = next((item[k] for k in ("size", "unknown", "deck_size", "unknown_size",
                                           "n_unknown") if k in item), None)
            if size is None:
                size = next((v for k, v in item.items() if "size" in k or "unknown" in k), None)
            secs = next((item[k] for k in ("seconds", "median_seconds", "seconds_median",
                                           "median_s", "time", "time_s", "secs")
                         if k in item), None)
            if secs is None:
                secs = next((v for k, v in item.items()
                             if ("second" in k or k.endswith("_s")) and not k.endswith("per_s")
                             and isinstance(v, (int, float))), None)
            row = dict(item)
            row["size"], row["seconds"] = size, secs
        elif isinstance(item, (list, tuple)) and len(item) >= 2:
            row = {"size": item[0], "seconds": item[1]}
        else:
            continue
        if isinstance(row["size"], (int, float)) and isinstance(row["seconds"], (int, float)):
            rows.append(row)
    return rows or None


def expectimax_figures(raw: dict) -> dict:
    if "error" in raw:
        return _failed_section(EXPECTIMAX_KEYS, raw["error"])
    out: dict = {"errors": {}}
    res = raw.get("result", {})
    src = "benchmarks.bench_expectimax.run"
    out["expectimax_states_per_s"] = _number(res, "expectimax_states_per_s", "states_per_s")
    if out["expectimax_states_per_s"] is None:
        out["errors"]["expectimax_states_per_s"] = \
            f"{src} gave no positive 'expectimax_states_per_s'"
    rows = _size_time_list(res)
    out["expectimax_size_vs_time"] = rows
    if _positive(res.get("limit_s")):
        out["expectimax_limit_s"] = float(res["limit_s"])
    if rows is None:
        out["errors"]["expectimax_size_vs_time"] = \
            f"{src} gave no size-versus-time list (entries with a size and seconds)"
    return out


# ============================================================================ the whole run
def _skipped(section: str) -> dict:
    out: dict = {"errors": {}}
    for k in SECTION_KEYS[section]:
        out[k] = None
        out["errors"][k] = f"section {section!r} not run (--sections)"
    return out


def default_runners() -> dict:
    """section -> function(quick) -> dict of figures (with an "errors" dict)."""
    return {"playouts": lambda quick: bench_playouts(quick),
            "solver": lambda quick: solver_figures(run_child("solver", quick)),
            "expectimax": lambda quick: expectimax_figures(run_child("expectimax", quick))}


def run(quick: bool = False, sections=SECTIONS, runners: dict | None = None,
        verbose: bool = True) -> dict:
    """Run the sections; returns the result dict (not yet written)."""
    runners = {**default_runners(), **(runners or {})}
    t0 = time.perf_counter()
    result: dict = {"quick": bool(quick), "machine": harness.machine_info(), "errors": {},
                    "sections": list(sections)}
    try:
        result["machine"]["loadavg_start"] = list(os.getloadavg())
    except (OSError, AttributeError):
        pass
    for section in SECTIONS:
        ts = time.perf_counter()
        if section not in sections:
            part = _skipped(section)
        else:
            if verbose:
                _log(f"bench: {section} ...")
            try:
                part = runners[section](quick)
            except Exception as e:  # noqa: BLE001 - a section never stops the others
                part = {"errors": {k: f"{section} section failed: {type(e).__name__}: {e}"
                                   for k in SECTION_KEYS[section]}}
        errors = part.pop("errors", {}) or {}
        for k in SECTION_KEYS[section]:
            part.setdefault(k, None)
            if part[k] is None and k not in errors:
                errors[k] = f"{section} section gave no value"
        result.update(part)
        result["errors"].update(errors)
        result.setdefault("section_seconds", {})[section] = time.perf_counter() - ts
    result["seconds"] = time.perf_counter() - t0
    try:
        result["machine"]["loadavg_end"] = list(os.getloadavg())
    except (OSError, AttributeError):
        pass
    return jsonable(result)


def check_result(result: dict) -> list[str]:
    """Problems with a result dict's schema (empty when it is valid)."""
    bad = []
    for k in ("quick", "seconds", "machine", "errors") + FIGURE_KEYS:
        if k not in result:
            bad.append(f"missing key {k!r}")
    errors = result.get("errors", {})
    if not isinstance(errors, dict):
        bad.append("errors is not a dict")
        errors = {}
    for k in FIGURE_KEYS:
        v = result.get(k)
        if v is None:
            if k in result and not errors.get(k):
                bad.append(f"{k} is null without an error recorded")
            continue
        if k == "clairvoyant_deal_seconds":
            if not isinstance(v, dict) or set(PERCENTILE_KEYS) - set(v):
                bad.append(f"{k} needs {PERCENTILE_KEYS}")
            elif not all(isinstance(v[p], (int, float)) and v[p] >= 0 for p in PERCENTILE_KEYS):
                bad.append(f"{k} has a negative or non-numeric percentile")
            elif not v["median"] <= v["p90"] <= v["p99"] <= v["max"]:
                bad.append(f"{k} percentiles are not in order")
        elif k == "expectimax_size_vs_time":
            if not isinstance(v, list) or not all(
                    isinstance(r, dict) and isinstance(r.get("size"), (int, float))
                    and isinstance(r.get("seconds"), (int, float)) and r["seconds"] >= 0
                    for r in v):
                bad.append(f"{k} must be a list of {{size, seconds}}")
        elif not _positive(v):
            bad.append(f"{k} = {v!r} is not a positive number")
    m = result.get("machine", {})
    for k in ("cpu", "cores", "python", "numba", "commit"):
        if k not in m:
            bad.append(f"machine lacks {k!r}")
    if not _positive(result.get("seconds")):
        bad.append("seconds is not positive")
    return bad


# ============================================================================ output
def _fmt(v, unit: str = "") -> str:
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        a = abs(v)
        if a >= 1e6:
            s = f"{v / 1e6:.2f} M"
        elif a >= 1e4:
            s = f"{v / 1e3:.1f} k"
        elif a >= 100:
            s = f"{v:.0f}"
        elif a >= 1:
            s = f"{v:.2f}"
        else:
            s = f"{v:.3g}"
        return f"{s}{unit}" if unit else s
    return str(v)


def _ms(v) -> str:
    """Seconds as ms below 1 s, as s above."""
    if v is None:
        return "null"
    return f"{v * 1e3:.1f} ms" if v < 1 else f"{v:.2f} s"


def table_rows(r: dict) -> list[tuple]:
    """(figure, value, note) rows of the table."""
    e = r.get("errors", {})

    def note(k, extra=""):
        if r.get(k) is not None or k not in e:
            return extra
        return ("n/a: " if " not run " in e[k] else "ERROR: ") + e[k]

    rows = []
    for pol in ("random", "greedy"):
        for side in ("engine", "kernel"):
            k = f"{side}_{pol}_playouts_per_s"
            steps = r.get(f"{side}_{pol}_steps_per_s")
            extra = f"{_fmt(steps)} decisions/s" if steps else ""
            rows.append((f"{side} playouts/s, {pol}", _fmt(r.get(k)), note(k, extra)))
        k = f"kernel_vs_engine_playout_ratio_{pol}"
        rows.append((f"kernel / engine, {pol}", _fmt(r.get(k), " x"), note(k)))
    k = "honest_greedy_playouts_per_s"
    hg = (r.get("playouts") or {}).get("honest_greedy") or {}
    extra = "information-state kernel, draws from the unknown counts"
    if hg.get("playouts_per_cpu_s"):
        extra += f"; {_fmt(hg['playouts_per_cpu_s'])}/s of CPU"
    rows.append(("honest playouts/s, greedy", _fmt(r.get(k)), note(k, extra)))
    k = "honest_vs_engine_playout_ratio"
    rows.append(("honest kernel / engine, greedy", _fmt(r.get(k), " x"), note(k)))
    if r.get("kernel_compile_seconds") is not None:
        rows.append(("kernel compile or load", f"{r['kernel_compile_seconds']:.2f} s",
                     "numba, before the kernel timings (not counted in them)"))
    if r.get("honest_compile_seconds") is not None:
        rows.append(("honest kernel compile or load", f"{r['honest_compile_seconds']:.2f} s",
                     "numba, before the timings (not counted in them)"))
    k = "kernel_vs_engine_playout_ratio"
    rows.append(("kernel / engine (headline)", _fmt(r.get(k), " x"),
                 note(k, "= the greedy ratio: identical games on both sides")))
    k = "clairvoyant_nodes_per_s"
    rows.append(("clairvoyant nodes/s", _fmt(r.get(k)), note(k)))
    k = "clairvoyant_deals_per_s"
    cd = r.get("clairvoyant_deals") or {}
    extra = ""
    if cd.get("deals"):
        extra = f"{cd['deals']} deals"
        if isinstance(cd.get("results"), dict):
            extra += " (" + ", ".join(f"{a} {b}" for a, b in cd["results"].items()) + ")"
    rows.append(("clairvoyant deals/s", _fmt(r.get(k)), note(k, extra)))
    k = "clairvoyant_deal_seconds"
    ds = r.get(k)
    if isinstance(ds, dict):
        val = ", ".join(f"{p} {_ms(ds.get(p))}" for p in PERCENTILE_KEYS)
    else:
        val = "null"
    clock = {"cpu": " (CPU)", "wall": " (wall)"}.get(r.get("clairvoyant_deal_seconds_clock"), "")
    rows.append((f"seconds per deal{clock}", val, note(k)))
    if r.get("clairvoyant_kernel_vs_python_search_ratio"):
        rows.append(("solver DFS kernel / Python", _fmt(
            r["clairvoyant_kernel_vs_python_search_ratio"], " x"), "same search, nodes/s"))
    for k, label in (("clairvoyant_dfs_nodes_per_s", "solver raw DFS nodes/s"),
                     ("clairvoyant_beam_nodes_per_s", "solver raw beam nodes/s")):
        if r.get(k):
            rows.append((label, _fmt(r[k]), "fixed budgets, one core"))
    k = "tt_ops_per_s"
    rows.append(("table ops/s", _fmt(r.get(k)), note(k)))
    k = "two_vs_one_worker_ratio"
    rows.append(("2 vs 1 workers", _fmt(r.get(k), " x"),
                 note(k, "time with 1 worker / time with 2, same seeds")))
    k = "expectimax_states_per_s"
    rows.append(("expectimax states/s", _fmt(r.get(k)), note(k)))
    k = "expectimax_size_vs_time"
    sv = r.get(k)
    if isinstance(sv, list) and sv:
        for row in sorted(sv, key=lambda x: x["size"]):
            extra = []
            if isinstance(row.get("max_seconds"), (int, float)):
                extra.append(f"max {_ms(row['max_seconds'])}")
            if isinstance(row.get("positions"), int) and isinstance(row.get("solved"), int):
                extra.append(f"{row['solved']}/{row['positions']} positions exact")
            rows.append((f"  expectimax, {row['size']} unknown", _ms(row["seconds"]),
                         ", ".join(extra)))
    else:
        rows.append(("expectimax size vs time", "null", note(k)))
    return rows


TABLE_WIDTH = 80           # the text table fits a terminal of this width (--json is whole)
VALUE_WIDTH = 18           # a longer value goes on its own line, below its figure


def format_table(r: dict, width: int = TABLE_WIDTH) -> str:
    """The table for a terminal: no line longer than ``width``.  Long notes wrap inside the
    note column (or, when the columns leave it too little room, on indented lines below);
    a value longer than ``VALUE_WIDTH`` takes a line of its own.  Words are never cut."""
    import textwrap
    m = r.get("machine", {})
    head = (f"onirim bench ({'quick' if r.get('quick') else 'full'}), "
            f"{_fmt(r.get('seconds'))} s; {m.get('cpu')}, {m.get('cores')} cores, "
            f"python {m.get('python')}, numba {m.get('numba')}, commit {m.get('commit')}")
    out = textwrap.wrap(head, width, subsequent_indent="  ", break_long_words=False,
                        break_on_hyphens=False) or [head]
    rows = [tuple(str(c) for c in row) for row in table_rows(r)]
    fw = max([len("figure")] + [len(a) for a, _, _ in rows])
    fw = min(fw, width // 2)
    vw = max([len("value")] + [len(b) for _, b, _ in rows if len(b) <= VALUE_WIDTH])
    note_col = fw + 2 + vw + 2
    room = width - note_col
    below = room < 24                  # too narrow a note column: notes go below
    out.append("  ".join(("figure".ljust(fw), "value".ljust(vw), "" if below else "note"))
               .rstrip())
    out.append("  ".join(("-" * fw, "-" * vw, "" if below else "-" * room)).rstrip())

    def wrap(text, w, indent):
        return textwrap.wrap(text, max(w, 20), subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False)

    for a, b, c in rows:
        fig = a if len(a) <= fw else a[:fw - 3] + "..."
        if len(b) > vw:                # the value alone, then the note below
            out.append(fig)
            out.extend("    " + x for x in wrap(b, width - 4, ""))
            if c:
                out.extend("    " + x for x in wrap(c, width - 4, ""))
            continue
        if below or not c:
            out.append(f"{fig.ljust(fw)}  {b}".rstrip())
            if c:
                out.extend("    " + x for x in wrap(c, width - 4, ""))
            continue
        lines = wrap(c, room, "")
        out.append(f"{fig.ljust(fw)}  {b.ljust(vw)}  {lines[0]}".rstrip())
        out.extend(" " * note_col + x for x in lines[1:])
    return "\n".join(line.rstrip() for line in out)


def markdown_table(r: dict) -> str:
    """The table as Markdown (for docs/PERFORMANCE.md)."""
    def cell(x):
        return str(x).replace("|", "\\|")
    lines = ["| figure | value | note |", "|---|---|---|"]
    lines += [f"| {cell(a)} | {cell(b)} | {cell(c)} |" for a, b, c in table_rows(r)]
    return "\n".join(lines)


def result_name(quick: bool) -> str:
    return "bench-quick.json" if quick else "bench-full.json"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="onirim throughput benchmarks")
    p.add_argument("--quick", action="store_true", help="short run (about a minute)")
    p.add_argument("--json", action="store_true", help="print the JSON instead of the table")
    p.add_argument("--out", default=None,
                   help=f"directory for results (default {DEFAULT_OUT}, git-ignored)")
    p.add_argument("--sections", default=",".join(SECTIONS))
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--render", metavar="JSON", default=None,
                   help="print the Markdown table of an existing result file and stop")
    a = p.parse_args(argv)
    if a.render:
        with open(a.render) as f:
            print(markdown_table(json.load(f)))
        return 0
    sections = [s for s in a.sections.split(",") if s]
    for s in sections:
        if s not in SECTIONS:
            p.error(f"unknown section {s!r} (choose from {', '.join(SECTIONS)})")
    return finish(run(quick=a.quick, sections=sections), a.out, a.json, not a.no_plots)


def finish(result: dict, out_dir, as_json: bool, plots: bool = True) -> int:
    """Write the JSON (and the figures), print the table or the JSON."""
    out_dir = out_dir or DEFAULT_OUT
    if plots:
        try:
            from benchmarks import plots as plots_mod
            result["plots"] = plots_mod.plot_all(result, out_dir)
        except Exception as e:  # noqa: BLE001 - figures are an optional extra
            result["plots"] = {"files": [], "note": f"plots failed: {type(e).__name__}: {e}"}
    path = harness.write_json(result_name(bool(result.get("quick"))), result, out_dir)
    if as_json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(format_table(result))
        note = (result.get("plots") or {}).get("note")
        files = (result.get("plots") or {}).get("files") or []
        if files:                # one a line: paths are long, the table fits 80 columns
            print("figures:")
            for f in files:
                print(f"  {f}")
        if note:
            print(f"figures: {note}")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
