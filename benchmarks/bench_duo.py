"""Two-player clairvoyant win rate, and the long differential run of the duo kernel.

    python -m benchmarks.bench_duo --deals 10000 --seed 0 [--node-budget 4000000]
                                   [--retry-budget 40000000]
    python -m benchmarks.bench_duo --diff-steps 100000 [--seed 0]

Win rate: solves deals seed .. seed+N-1 with :class:`solver.duo.search.DuoSolver` (every WIN
line is replayed in ``engine/`` before it counts).  One JSON line per deal is appended to
``.bench-results/duo-clairvoyant-<version>-b<budget>.jsonl`` and flushed to disk as soon as
the deal is solved; a rerun skips the deals already in the file, so an interrupted run resumes
and loses nothing.  The numba compile is done by a warm-up solve before any deal is timed.
The summary (wins, losses, unknown, Wilson 95% interval, median and p90 time per deal, wall
and process CPU (the machine may be shared), nodes, machine and versions) is printed as JSON and written beside the file.

Differential run: the conformance harness (``solver.conformance``, duo kernel) over ``--diff-steps`` random steps
(half uniform, half biased to plays), from deals seed, seed+1, ...; exit status 1 on the first
disagreement.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from benchmarks.harness import machine_info

OUT_DIR = ".bench-results"


def _load_done(path: str) -> dict:
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue   # a line cut by an interruption: that deal is redone
                done[rec["seed"]] = rec
    return done


def summarize(recs: list, extra: dict) -> dict:
    from solver.stats import summarize as wsum
    wins = sum(r["result"] == "WIN" for r in recs)
    losses = sum(r["result"] == "LOSS" for r in recs)
    unknown = sum(r["result"] == "UNKNOWN" for r in recs)
    secs = sorted(r["seconds"] for r in recs)
    cpus = sorted(r.get("cpu_seconds", r["seconds"]) for r in recs)
    nodes = sorted(r["nodes"] for r in recs)
    out = {"deals": len(recs), "wins": wins, "losses": losses, "unknown": unknown,
           "decided_share": (wins + losses) / len(recs) if recs else None}
    out.update(wsum(wins, losses, unknown))
    if wins + losses == 0:
        out["win_rate"] = None
    if recs:
        q = lambda xs, f: xs[min(len(xs) - 1, int(f * len(xs)))]   # noqa: E731
        out["deal_seconds"] = {"median": statistics.median(secs), "p90": q(secs, 0.9),
                               "p99": q(secs, 0.99), "max": secs[-1]}
        out["deal_cpu_seconds"] = {"median": statistics.median(cpus), "p90": q(cpus, 0.9),
                                   "p99": q(cpus, 0.99), "max": cpus[-1]}
        out["deal_nodes"] = {"median": statistics.median(nodes), "p90": q(nodes, 0.9),
                             "p99": q(nodes, 0.99), "max": nodes[-1], "total": sum(nodes)}
    out.update(extra)
    return out


def run_winrate(args) -> int:
    from engine import Game
    from solver.duo import search as DS
    os.makedirs(args.out_dir, exist_ok=True)
    tag = "-nolds" if args.no_lds else ""
    path = os.path.join(args.out_dir,
                        f"duo-clairvoyant-{DS.SOLVER_VERSION}{tag}-b{args.budget_nodes}.jsonl")
    done = _load_done(path)
    seeds = list(range(args.seed, args.seed + args.deals))
    todo = [s for s in seeds if s not in done]
    solver = DS.DuoSolver(tt_mb=args.tt_mb, lds_levels=() if args.no_lds else DS.LDS_LEVELS)
    t = time.perf_counter()
    solver.solve_state(Game(2).new_initial_state(10**9), budget_nodes=20_000)   # compile
    compile_s = time.perf_counter() - t
    try:
        from tqdm import tqdm
        bar = tqdm(total=len(seeds), initial=len(seeds) - len(todo), unit="deal",
                   file=sys.stderr, disable=args.quiet)
    except ImportError:   # pragma: no cover
        bar = None
    w = sum(done[s]["result"] == "WIN" for s in seeds if s in done)
    n = len(seeds) - len(todo)
    t0 = time.perf_counter()
    with open(path, "a") as f:
        for seed in todo:
            c0 = time.process_time()
            r = solver.solve_deal(seed, budget_nodes=args.budget_nodes)
            cpu = time.process_time() - c0
            rec = {"seed": seed, "result": r.result, "nodes": r.nodes,
                   "seconds": round(r.seconds, 6), "cpu_seconds": round(cpu, 6),
                   "kernel_cpu_seconds": round(r.kernel_cpu_seconds, 6),
                   "actions": r.actions, "version": DS.SOLVER_VERSION,
                   "node_budget": args.budget_nodes}
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
            done[seed] = rec
            n += 1
            w += r.result == "WIN"
            if bar is not None:
                bar.update(1)
                bar.set_postfix(win=f"{w / n:.4f}", last=r.result)
        # second pass: the deals still UNKNOWN, with the larger --retry-budget; the record
        # that replaces the first (later lines win) counts the nodes and time of both passes
        if args.retry_budget:
            for seed in seeds:
                old = done[seed]
                if old["result"] != "UNKNOWN" or old["node_budget"] >= args.retry_budget:
                    continue
                c0 = time.process_time()
                r = solver.solve_deal(seed, budget_nodes=args.retry_budget)
                cpu = time.process_time() - c0
                rec = {"seed": seed, "result": r.result, "nodes": old["nodes"] + r.nodes,
                       "seconds": round(old["seconds"] + r.seconds, 6),
                       "cpu_seconds": round(old["cpu_seconds"] + cpu, 6),
                       "kernel_cpu_seconds": round(old.get("kernel_cpu_seconds", 0)
                                                   + r.kernel_cpu_seconds, 6),
                       "actions": r.actions, "version": DS.SOLVER_VERSION,
                       "node_budget": args.retry_budget, "first_pass_budget":
                       old.get("first_pass_budget", old["node_budget"])}
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                f.flush()
                os.fsync(f.fileno())
                done[seed] = rec
    if bar is not None:
        bar.close()
    recs = [done[s] for s in seeds]
    summ = summarize(recs, {
        "mode": "clairvoyant", "players": 2, "seed": args.seed,
        "node_budget": args.budget_nodes, "solver_version": DS.SOLVER_VERSION,
        "lds": not args.no_lds, "retry_budget": args.retry_budget,
        "retried": sum("first_pass_budget" in r for r in recs),
        "results_file": path, "compile_seconds": round(compile_s, 2),
        "wall_seconds_this_run": round(time.perf_counter() - t0, 2),
        "command": "python -m benchmarks.bench_duo " + " ".join(sys.argv[1:]),
        "machine": machine_info()})
    with open(path[:-len(".jsonl")] + f"-summary-s{args.seed}-n{args.deals}.json", "w") as f:
        json.dump(summ, f, indent=1)
    print(json.dumps(summ))
    return 0


def run_replay(args) -> int:
    """Replay every stored WIN line of deals seed .. seed+N-1 in the engine, independently
    of the solver (action integers applied with ``apply_action``, which checks legality)."""
    from engine import Game
    from solver.duo import search as DS
    path = os.path.join(args.out_dir,
                        f"duo-clairvoyant-{DS.SOLVER_VERSION}-b{args.budget_nodes}.jsonl")
    done = _load_done(path)
    checked = bad = missing = 0
    for seed in range(args.seed, args.seed + args.deals):
        rec = done.get(seed)
        if rec is None:
            missing += 1
            continue
        if rec["result"] != "WIN":
            continue
        s = Game(2).new_initial_state(seed)
        try:
            for a in rec["actions"]:
                s.apply_action(a)
        except Exception:   # noqa: BLE001 - any failure is a bad certificate
            pass
        checked += 1
        bad += not s.won()
    print(json.dumps({"replayed_wins": checked, "failed": bad, "missing_deals": missing,
                      "file": path}))
    return 1 if bad else 0


def run_diff(args) -> int:
    """The duo kernel against the engine, state by state, through the package's one
    conformance harness (``solver.conformance``)."""
    from solver import conformance
    t0 = time.perf_counter()
    r = conformance.run(conformance.ADAPTERS["duo"](), args.diff_steps, seed=args.seed)
    if r.mismatch is not None:
        print(f"onirim: error: differential: {r.mismatch}", file=sys.stderr)
        return 1
    n1, n2, g1, g2 = r.steps, 0, r.games, 0
    print(json.dumps({"diff_steps": n1 + n2, "games": g1 + g2, "agree": True,
                      "seconds": round(time.perf_counter() - t0, 1),
                      "command": "python -m benchmarks.bench_duo " + " ".join(sys.argv[1:]),
                      "machine": machine_info()}))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_duo", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--node-budget", dest="budget_nodes", type=int, default=5_000_000)
    ap.add_argument("--retry-budget", type=int, default=0,
                    help="then solve the deals still UNKNOWN again with this node budget")
    ap.add_argument("--tt-mb", type=float, default=64)
    ap.add_argument("--out-dir", default=OUT_DIR)
    ap.add_argument("--diff-steps", type=int, default=0,
                    help="run the differential test for this many steps instead")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--replay", action="store_true",
                    help="replay the stored WIN lines in the engine instead of solving")
    ap.add_argument("--no-lds", action="store_true",
                    help="ablation: the complete DFS only, no limited-discrepancy runs")
    args = ap.parse_args(argv)
    for name in ("deals", "budget_nodes", "diff_steps", "retry_budget"):
        if getattr(args, name) < 0 or (name in ("deals", "budget_nodes")
                                       and getattr(args, name) == 0):
            flag = "node-budget" if name == "budget_nodes" else name.replace("_", "-")
            print(f"onirim: error: --{flag}: must be a positive integer",
                  file=sys.stderr)
            return 2
    if args.seed < 0 or not args.tt_mb > 0:
        print("onirim: error: --seed/--tt-mb: must be non-negative / positive", file=sys.stderr)
        return 2
    if args.diff_steps:
        return run_diff(args)
    if args.replay:
        return run_replay(args)
    return run_winrate(args)


if __name__ == "__main__":
    sys.exit(main())
