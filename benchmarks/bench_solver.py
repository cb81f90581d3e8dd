"""Solver benchmarks: throughput, per-deal time distribution, kernel vs engine, table, workers.

    python -m benchmarks.bench_solver [--quick] [--deals N] [--seed S] [--no-write]

prints a table and writes JSON (with machine info) to benchmarks/results/.  A harness can call
:func:`run` directly::

    run(quick: bool) -> dict   # keys: clairvoyant_nodes_per_s, clairvoyant_deal_seconds
                               # {median, p90, p99, max}, kernel_vs_engine_playout_ratio,
                               # tt_ops_per_s, two_vs_one_worker_ratio, ... and "machine"

Timings are measured here and only here; tests never assert timings.  Rates and per-deal
times are CPU time of this process (time.process_time), which stays meaningful on a shared
machine; wall-clock figures are reported beside them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

from benchmarks.harness import ROOT
from engine import Game
from solver.clairvoyant import pysearch as PS
from solver import rules_core as core
from solver import tt
from solver.clairvoyant.solve import ClairvoyantSolver

RESULTS = os.path.join(ROOT, "benchmarks", "results")


def machine_info() -> dict:
    """The machine and versions, from the shared harness."""
    from benchmarks.harness import machine_info as _info
    return _info()


def pct(xs, q):
    xs = sorted(xs)
    if not xs:
        return 0.0
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


def bench_deals(seeds, tt_mb=64) -> dict:
    sv = ClairvoyantSolver(tt_mb=tt_mb)
    sv.solve_deal(0, budget_nodes=50_000)          # compile / load the cache
    secs, cpus, nodes, res = [], [], 0, {"WIN": 0, "LOSS": 0, "UNKNOWN": 0}
    kcpu = 0.0
    undecided = []
    t0 = time.perf_counter()
    for s in seeds:
        c0 = time.process_time()
        r = sv.solve_deal(s)
        cpus.append(time.process_time() - c0)
        secs.append(r.seconds)
        kcpu += r.kernel_cpu_seconds
        nodes += r.nodes
        res[r.result] += 1
        if r.result == "UNKNOWN":
            undecided.append({"seed": s, "nodes": r.nodes, "seconds": r.seconds})
    wall = time.perf_counter() - t0
    def dist(xs):
        return {"median": statistics.median(xs), "p90": pct(xs, 0.9), "p99": pct(xs, 0.99),
                "max": max(xs), "mean": sum(xs) / len(xs)}
    return {"deals": len(seeds), "results": res, "nodes": nodes, "wall_s": wall,
            "nodes_per_cpu_s": nodes / sum(cpus) if sum(cpus) else 0.0,
            "nodes_per_kernel_cpu_s": nodes / kcpu if kcpu else 0.0,
            "kernel_cpu_share": kcpu / sum(cpus) if sum(cpus) else 0.0,
            "nodes_per_wall_s": nodes / sum(secs) if sum(secs) else 0.0,
            "decided_fraction": (res["WIN"] + res["LOSS"]) / len(seeds),
            "deal_cpu_seconds": dist(cpus), "deal_wall_seconds": dist(secs),
            "undecided": undecided}


def bench_dfs(seeds, budget) -> dict:
    """The kernel DFS alone (no beam) on a fixed node budget: raw search speed."""
    sv = ClairvoyantSolver(tt_mb=64, beam_widths=())
    sv.solve_deal(0, budget_nodes=10_000)
    nodes = 0
    t0 = time.process_time()
    for s in seeds:
        nodes += sv.solve_deal(s, budget_nodes=budget).nodes
    dt = time.process_time() - t0
    return {"nodes": nodes, "cpu_seconds": dt, "nodes_per_s": nodes / dt}


def bench_beam(seeds, widths=(16, 64)) -> dict:
    """Beams alone (fixed widths, to the end of the deal): raw beam speed."""
    from solver.clairvoyant import deal_kernel as deal
    from solver.clairvoyant.beam import Beam
    bm = Beam(max(widths))
    encs = [deal.encode(Game(1).new_initial_state(s)) for s in seeds]
    st, perms, sr, sd = encs[0]
    bm.run(st, perms, sr, sd, 4, 1000)
    nodes = 0
    t0 = time.process_time()
    for st, perms, sr, sd in encs:
        for w in widths:
            nodes += bm.run(st, perms, sr, sd, w, 10_000_000)[1]
    dt = time.process_time() - t0
    return {"nodes": nodes, "cpu_seconds": dt, "nodes_per_s": nodes / dt, "widths": widths}


def late_positions(n, back=16):
    """Positions ``back`` actions before the end of winning lines of deals 1000, 1001, ..."""
    sv = ClairvoyantSolver(tt_mb=16)
    out = []
    seed = 1000
    while len(out) < n:
        s = Game(1).new_initial_state(seed)
        r = sv.solve_state(s)
        seed += 1
        if r.result != "WIN" or len(r.actions) <= back:
            continue
        for a in r.actions[: len(r.actions) - back]:
            s.apply_action(a)
        out.append(s)
    return out


def _kernel_dfs(s, budget, flags):
    """The kernel DFS alone (no beams, no line formatting): (result, nodes)."""
    from solver.clairvoyant import deal_kernel as deal
    from solver.clairvoyant import search as SR
    st, perms, s_root, seed = deal.encode(s)
    table = tt.make_table(1)
    srch = SR.Search(table)
    srch.reset(st, perms, s_root, seed, 1, flags)
    srch.run(budget)
    res = {SR.ST_WIN: "WIN", SR.ST_LOSS: "LOSS"}.get(srch.status, "UNKNOWN")
    return res, srch.nodes, srch


def bench_ratio(n_pos, py_budget) -> dict:
    """Same search (DFS, same order, same bounds, no table so node counts are equal) in the
    kernel and in pure Python over engine/: nodes per CPU second side by side, on positions
    16 actions before the end of winning lines.  Only the searches are timed (setup, line
    formatting and certificates are not)."""
    rows = []
    kn = kt = pn = pt = 0.0
    for s in late_positions(n_pos):
        t0 = time.process_time()
        res, _, nodes, _ = PS.dfs(s, budget_nodes=py_budget, use_tt=False)
        dt = time.process_time() - t0
        kres, knodes, srch = _kernel_dfs(s, py_budget, core.ALL_BOUNDS)
        assert (kres, knodes) == (res, nodes), "kernel and Python searches disagree"
        reps = 0
        kdt = 0.0
        while kdt < 0.2:
            from solver.clairvoyant import search as SR
            srch.reset(srch.S[0].copy(), srch.perms, int(srch.info[SR.I_SROOT]), srch.seed, 1,
                       core.ALL_BOUNDS)
            t1 = time.process_time()
            srch.run(py_budget)
            kdt += time.process_time() - t1
            reps += 1
        kdt /= reps
        rows.append({"result": res, "nodes": nodes, "python_s": dt, "kernel_s": kdt,
                     "ratio": (dt / kdt) if kdt else 0.0})
        pn += nodes
        pt += dt
        kn += nodes
        kt += kdt
    return {"positions": rows, "python_nodes_per_s": pn / pt if pt else 0.0,
            "kernel_nodes_per_s": kn / kt if kt else 0.0,
            "ratio": (kn / kt) / (pn / pt) if pt and kt and pn else 0.0}


def bench_tt(n=2_000_000) -> float:
    table = tt.make_table(64)
    tt._bench_ops(table, 1000, np.int64(1))
    t0 = time.process_time()
    tt._bench_ops(table, n, np.int64(2))
    return 2 * n / (time.process_time() - t0)


_WSOLVER = None


def _warm(_):
    """Load the compiled kernels and make this worker's solver (not timed)."""
    global _WSOLVER
    _WSOLVER = ClairvoyantSolver(tt_mb=32)
    _WSOLVER.solve_deal(0, budget_nodes=20_000)
    return os.getpid()


def _worker(seeds):
    for s in seeds:
        _WSOLVER.solve_deal(s)
    return len(seeds)


def bench_workers(seeds) -> dict:
    """Deals per wall second with 1 and with 2 worker processes (pools warmed first, so
    process start-up and cache loading are not timed)."""
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    out = {}
    for k in (1, 2):
        with ctx.Pool(k) as p:
            p.map(_warm, range(k), chunksize=1)
            t0 = time.perf_counter()
            p.map(_worker, [seeds[i::k] for i in range(k)], chunksize=1)
            out[k] = time.perf_counter() - t0
    return {"one_worker_s": out[1], "two_workers_s": out[2],
            "ratio": out[1] / out[2] if out[2] else 0.0}


def run(quick: bool = True, deals: int | None = None, seed: int = 0, write: bool = True,
        verbose: bool = True) -> dict:
    n = deals if deals is not None else (200 if quick else 2000)
    seeds = list(range(seed, seed + n))
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if verbose else (lambda *a: None)
    log(f"deals: {n} ...")
    deals_r = bench_deals(seeds)
    log("raw DFS ...")
    dfs_r = bench_dfs(list(range(1, 6 if quick else 21)), 1_000_000)
    log("raw beam ...")
    beam_r = bench_beam(list(range(3000, 3000 + (30 if quick else 150))))
    log("kernel vs engine ...")
    ratio_r = bench_ratio(4 if quick else 10, 5000 if quick else 20000)
    log("table ...")
    tt_ops = bench_tt(500_000 if quick else 2_000_000)
    log("workers ...")
    wk = bench_workers(list(range(5000, 5000 + (60 if quick else 400))))
    out = {
        "clairvoyant_nodes_per_s": deals_r["nodes_per_kernel_cpu_s"],
        "clairvoyant_deal_seconds": {k: deals_r["deal_cpu_seconds"][k]
                                     for k in ("median", "p90", "p99", "max")},
        "kernel_vs_engine_playout_ratio": ratio_r["ratio"],
        "tt_ops_per_s": tt_ops,
        "two_vs_one_worker_ratio": wk["ratio"],
        "dfs_nodes_per_s": dfs_r["nodes_per_s"],
        "beam_nodes_per_s": beam_r["nodes_per_s"],
        "deals": deals_r,
        "kernel_vs_engine": ratio_r,
        "workers": wk,
        "quick": quick,
        "machine": machine_info(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if verbose:
        print_table(out)
    if write:
        os.makedirs(RESULTS, exist_ok=True)
        path = os.path.join(RESULTS, f"bench_solver-{time.strftime('%Y%m%d-%H%M%S')}"
                                     f"{'-quick' if quick else ''}.json")
        with open(path, "w") as f:
            json.dump(out, f, indent=2)
        out["written_to"] = path
        log(f"wrote {path}")
    return out


def print_table(o) -> None:
    d = o["deals"]
    ds = o["clairvoyant_deal_seconds"]
    dw = d["deal_wall_seconds"]
    rows = [
        ("deals solved", f"{d['deals']}  (WIN {d['results']['WIN']}, LOSS "
                         f"{d['results']['LOSS']}, UNKNOWN {d['results']['UNKNOWN']})"),
        ("decided fraction", f"{d['decided_fraction']:.4f}   (target >= 0.999)"),
        ("per-deal CPU s", f"median {ds['median'] * 1e3:.1f} ms, p90 {ds['p90'] * 1e3:.1f} "
                           f"ms, p99 {ds['p99'] * 1e3:.1f} ms, max {ds['max'] * 1e3:.1f} ms"
                           "   (target median <= 50 ms)"),
        ("per-deal wall s", f"median {dw['median'] * 1e3:.1f} ms, p90 {dw['p90'] * 1e3:.1f} "
                            f"ms, p99 {dw['p99'] * 1e3:.1f} ms, max {dw['max'] * 1e3:.1f} ms"),
        ("solver nodes/s", f"{o['clairvoyant_nodes_per_s'] / 1e6:.2f} M per CPU second in the "
                           f"searches (beam + DFS; target >= 5 M); "
                           f"{d['nodes_per_cpu_s'] / 1e6:.2f} M per CPU second of whole solves"
                           f" (searches are {100 * d['kernel_cpu_share']:.0f}% of it; the rest "
                           "is engine setup and certificates)"),
        ("raw DFS nodes/s", f"{o['dfs_nodes_per_s'] / 1e6:.2f} M per CPU second"),
        ("raw beam nodes/s", f"{o['beam_nodes_per_s'] / 1e6:.2f} M per CPU second (W 16, 64)"),
        ("kernel / engine", f"{o['kernel_vs_engine_playout_ratio']:.0f} x  (same DFS, "
                            f"{o['kernel_vs_engine']['python_nodes_per_s']:.0f} vs "
                            f"{o['kernel_vs_engine']['kernel_nodes_per_s'] / 1e6:.2f} M nodes/s;"
                            " target >= 100 x)"),
        ("table ops/s", f"{o['tt_ops_per_s'] / 1e6:.1f} M  (64 MB)"),
        ("2 vs 1 workers", f"{o['two_vs_one_worker_ratio']:.2f} x"),
        ("machine", f"{o['machine']['cpu']}, {o['machine']['cores']} cores, load "
                    f"{o['machine']['loadavg']}"),
    ]
    w = max(len(a) for a, _ in rows)
    for a, b in rows:
        print(f"{a:<{w}}  {b}")
    if d["undecided"]:
        print("undecided deals:", ", ".join(f"{u['seed']} ({u['nodes']} nodes, "
                                           f"{u['seconds']:.1f} s)" for u in d["undecided"]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--deals", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-write", action="store_true")
    a = p.parse_args(argv)
    run(quick=a.quick, deals=a.deals, seed=a.seed, write=not a.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
