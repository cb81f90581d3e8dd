"""``onirim best --threads 2`` against one thread (docs/EXPECTIMAX.md, "Threads").

Two measures, each side by side in one run (1, 2, 2, 1 threads per position and repeat, so
that a drift in the machine's load hits both alike):

* ``rate``: ``Expectimax(22, threads=t).value(state, budget_s=B)`` from an empty memo on a
  position that does not finish in B seconds: nodes expanded per second of wall time (all
  threads together; the threads share the memo, so some nodes are searched twice);
* ``exact``: ``Expectimax(22, threads=t).value(state)`` to the exact value on a position one
  thread solves in a few seconds: the wall time to the answer, the figure a user feels.

Per run: wall and process CPU time, nodes, the load average before the run.  The summary
gives, per measure, the median over positions and repeats of the ratio 2 threads / 1 thread
(rates) and 1 thread / 2 threads (times), with the load average seen.

    python -m benchmarks.bench_threads                   # 2 seeds, 2 repeats, B = 3 s
    python -m benchmarks.bench_threads --reps 1 --budget-s 2

The result file is rewritten after every run; ``--resume FILE`` continues an interrupted
run with the same options.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from benchmarks.harness import ResultFile, machine_info
from benchmarks.positions import late_position

RATE_CARDS = 20          # unknown deck cards of the rate positions (far from finishing)
EXACT_CARDS = 14         # ... and of the time-to-exact positions
SEEDS = (63, 130)


def run_one(state, threads: int, budget_s: float | None) -> dict:
    from solver.expectimax import Expectimax
    s = Expectimax(22, threads=threads)
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    iv = s.value(state, budget_s=budget_s)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"threads": threads, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
            "nodes": s.nodes, "nodes_per_wall_s": round(s.nodes / wall),
            "exact": iv.exact, "load1": round(load, 2)}


def summarize(rows: list) -> dict:
    out = {}
    for measure, key, better in (("rate", "nodes_per_wall_s", "2/1"),
                                 ("exact", "wall_s", "1/2")):
        ratios = []
        for r in rows:
            if r["measure"] != measure or r["threads"] != 2 or not r["nodes"]:
                continue         # no search at all (a position the bound decides): no pair
            ones = [o for o in rows if o["measure"] == measure and o["threads"] == 1
                    and o["name"] == r["name"] and o["rep"] == r["rep"]]
            if ones:
                a, b = r[key], ones[0][key]
                ratios.append(a / b if better == "2/1" else b / a)
        if ratios:
            out[measure] = {"ratio": better, "median": round(statistics.median(ratios), 3),
                            "min": round(min(ratios), 3), "max": round(max(ratios), 3),
                            "pairs": len(ratios)}
    loads = [r["load1"] for r in rows]
    out["load1"] = {"min": min(loads), "max": max(loads)} if loads else None
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_threads", description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=2, help="repeats per position (default 2)")
    ap.add_argument("--budget-s", type=float, default=3.0,
                    help="seconds per rate run (default 3)")
    ap.add_argument("--resume", metavar="FILE", default=None)
    ap.add_argument("--no-save", action="store_true", help="print only")
    args = ap.parse_args(argv)
    if args.reps < 1 or not args.budget_s > 0:
        print("bench_threads: error: --reps and --budget-s must be positive", file=sys.stderr)
        return 2
    from engine.notation import format_position
    from solver.expectimax import prepare_kernels
    prepare_kernels(say=lambda m: print(m, file=sys.stderr))
    options = {"reps": args.reps, "budget_s": args.budget_s, "seeds": list(SEEDS),
               "rate_cards": RATE_CARDS, "exact_cards": EXACT_CARDS}
    rf = ResultFile.open("bench_threads", "threads", "threads", options, args.resume,
                         save=not args.no_save)
    if rf is None:
        return 2
    done = {(r["measure"], r["name"], r["rep"], r["threads"]) for r in rf.rows}
    for rep in range(args.reps):
        for seed in SEEDS:
            for measure, cards, budget in (("rate", RATE_CARDS, args.budget_s),
                                           ("exact", EXACT_CARDS, None)):
                state = late_position(seed, cards)
                if state is None:
                    continue
                name = f"late-{seed}-{cards}"
                order = (1, 2) if rep % 2 == 0 else (2, 1)
                for t in order:
                    if (measure, name, rep, t) in done:
                        continue
                    row = {"measure": measure, "name": name, "rep": rep,
                           "position": format_position(state)}
                    row.update(run_one(state, t, budget))
                    rf.rows.append(row)
                    rf.save()
                    print(f"{measure:<5} {name:<12} rep {rep} threads {t}: "
                          f"{row['nodes']:>10,} nodes  wall {row['wall_s']:7.3f} s  "
                          f"cpu {row['cpu_s']:7.3f} s  {row['nodes_per_wall_s']:>9,}/s  "
                          f"load {row['load1']}", flush=True)
    summary = summarize(rf.rows)
    rf.finish(summary=summary)
    print(json.dumps({"summary": summary, "machine": machine_info()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
