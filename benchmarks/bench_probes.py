"""Budgeted rankings with and without probes (docs/EXPECTIMAX.md, section 4a).

For each position (the benchmark's late-game positions, ``late_position(seed, cards)``),
``Expectimax(threads).rank(state, budget_s)`` runs twice in fresh solvers, once with the
probes and once without (``probes=False``), and the lower and upper bounds of every action
are recorded.  With ``--exact-s T`` the exact value of the position is also searched for
(up to T seconds; open values are reported as bounds).

    python -m benchmarks.bench_probes                 # seeds 63,130,177,208,246; 15 cards; 10 s
    python -m benchmarks.bench_probes --quick         # a few seconds

The result file is rewritten after every position; ``--resume FILE`` continues an
interrupted run (same options), skipping the seeds it holds.
"""
from __future__ import annotations

import argparse
import sys
import time

from benchmarks.harness import (ResultFile, add_seed_options, machine_info,
                                parse_seeds)
from benchmarks.positions import late_position

DEFAULT_SEEDS = (63, 130, 177, 208, 246)


def _ranking(state, budget_s, threads, probes):
    from solver.expectimax.solver import Expectimax
    solver = Expectimax(threads=threads)
    t0 = time.perf_counter()
    r = solver.rank(state, budget_s=budget_s, probes=probes)
    return {"seconds": round(time.perf_counter() - t0, 3), "nodes": r.nodes,
            "best": r.best, "best_lo": max(a.lo for a in r.actions),
            "actions": [{"action": a.action, "lo": a.lo, "hi": a.hi, "exact": a.exact}
                        for a in r.actions]}


def run(seeds=DEFAULT_SEEDS, cards=15, budget_s=10.0, threads=2, exact_s=None,
        verbose=False, out: ResultFile | None = None) -> dict:
    """The benchmark; ``out``: the result file, rewritten after every position (and
    holding the rows of an interrupted run when it resumes one)."""
    from solver.expectimax.solver import Expectimax
    Expectimax(16).rank(late_position(63, 12))      # compile (or load) the kernels first

    def measure(state):
        row = {"with_probes": _ranking(state, budget_s, threads, True),
               "without_probes": _ranking(state, budget_s, threads, False)}
        if exact_s:
            solver = Expectimax(threads=threads)
            iv = solver.value(state, budget_s=exact_s)
            row["exact"] = {"lo": iv.lo, "hi": iv.hi, "exact": iv.exact}
        return row
    out = out or ResultFile(None, {"positions": []})
    rows = out.run_seeds(seeds, cards, measure, _report if verbose else None)
    return {"benchmark": "probes", "machine": machine_info(), "cards": cards,
            "budget_s": budget_s, "threads": threads, "positions": rows}


def _report(row) -> None:
    w, wo = row["with_probes"], row["without_probes"]
    extra = ""
    if "exact" in row:
        e = row["exact"]
        extra = (f"  value {e['lo']:.4f}" if e["exact"]
                 else f"  value in [{e['lo']:.4f}, {e['hi']:.4f}]")
    print(f"seed {row['seed']}: best lower bound {w['best_lo']:.4f} ({w['best']}) with "
          f"probes, {wo['best_lo']:.4f} ({wo['best']}) without{extra}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_seed_options(ap, DEFAULT_SEEDS)
    ap.add_argument("--budget-s", type=float, default=10.0)
    ap.add_argument("--exact-s", type=float, default=None,
                    help="also search each position's exact value, up to this many seconds")
    ap.add_argument("--quick", action="store_true", help="two 12-card positions, 1 s each")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds, "bench_probes")
    if seeds is None:
        return 2
    if a.quick:
        seeds, a.cards, a.budget_s = seeds[:2], 12, 1.0
    out = ResultFile.open("bench_probes", "probes", "probes",
                          {"cards": a.cards, "budget_s": a.budget_s, "threads": a.threads,
                           "exact_s": a.exact_s}, a.resume, save=not a.no_save)
    if out is None:
        return 2
    res = run(seeds, a.cards, a.budget_s, a.threads, a.exact_s, verbose=True, out=out)
    out.finish(**res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
