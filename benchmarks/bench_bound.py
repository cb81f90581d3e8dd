"""Cost of the penalised inner search (docs/BOUND.md section 9): the plain-Python reference
(``solver.bound.reference``) on late-game positions, per deal.

    python -m benchmarks.bench_bound --cards 7 --seeds 0,1,3,4 --deals 5 --w zero,noise,exact

For each late position (``benchmarks.positions.late_position(seed, cards)``) and each of
``--deals`` sampled deals (``solver.bound.deal.sampled_deal`` with ``deal_seed(stream, j)``),
and each ``W``, one row: the inner maximum, whether its line wins, its penalty, the distinct
states searched (``nodes``), the chance nodes among them, the CPU and wall seconds of the
search (``W``'s own evaluations included; the expectimax kernels are compiled or loaded
before any clock starts), and the load average.  Rows are saved after every position;
``--resume FILE`` goes on with an interrupted run.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from benchmarks.harness import ResultFile, add_seed_options, parse_seeds, percentiles, table

W_NAMES = ("zero", "noise", "exact")


def make_w(name: str):
    from solver.bound import values
    if name == "zero":
        return values.zero
    if name == "noise":
        return values.NoiseValue(salt="bench")
    from solver.expectimax import Expectimax
    return values.ExactValue(Expectimax())


def measure_position(state, deals: int, stream: int, ws: dict) -> dict:
    from solver.bound.deal import deal_seed, sampled_deal
    from solver.bound.reference import InnerSolver
    rows = []
    for j in range(deals):
        deal = sampled_deal(state, deal_seed(stream, j))
        for name, W in ws.items():
            c0, t0 = time.process_time(), time.perf_counter()
            r = InnerSolver(W).solve(state, deal)
            rows.append({"deal": j, "w": name, "value": r.value, "won": r.won,
                         "penalty": r.penalty, "nodes": r.nodes, "chance_nodes": r.chance_nodes,
                         "cpu_s": time.process_time() - c0,
                         "wall_s": time.perf_counter() - t0,
                         "loadavg": list(os.getloadavg())})
    return {"deals": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_bound", description=__doc__.split("\n\n")[0])
    add_seed_options(ap, [0, 1, 3, 4])
    ap.set_defaults(cards=7)
    ap.add_argument("--deals", type=int, default=5, help="sampled deals per position")
    ap.add_argument("--stream", type=int, default=1, help="the deals' 64-bit stream")
    ap.add_argument("--w", default="zero,noise", help=f"comma-separated, of {W_NAMES}")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds, "bench_bound")
    names = a.w.split(",")
    if seeds is None:
        return 2
    if any(n not in W_NAMES for n in names) or a.deals < 1:
        print(f"bench_bound: --w takes {','.join(W_NAMES)}; --deals at least 1",
              file=sys.stderr)
        return 2
    ws = {n: make_w(n) for n in names}
    if "exact" in ws:            # compile or load the kernels before any clock
        from engine.game import Game
        from benchmarks.positions import late_position
        warm = late_position(6, 4) or Game(1).new_initial_state()
        ws["exact"](warm)
        ws["exact"].memo.clear()
    options = {"cards": a.cards, "deals": a.deals, "stream": a.stream, "w": names}
    out = ResultFile.open("bench_bound", "bound-reference", "bound-reference", options,
                          a.resume, save=not a.no_save)
    if out is None:
        return 2

    def report(row):
        for d in row["deals"]:
            print(f"seed {row['seed']} deal {d['deal']} W={d['w']}: value {d['value']:.4f} "
                  f"nodes {d['nodes']} chance {d['chance_nodes']} cpu {d['cpu_s']:.2f}s",
                  file=sys.stderr)

    rows = out.run_seeds(seeds, a.cards, lambda s: measure_position(s, a.deals, a.stream, ws),
                         report)
    summary = {}
    for n in names:
        ds = [d for r in rows for d in r["deals"] if d["w"] == n]
        summary[n] = {"deals": len(ds), "nodes": percentiles([d["nodes"] for d in ds]),
                      "cpu_s": percentiles([d["cpu_s"] for d in ds]),
                      "mean_value": sum(d["value"] for d in ds) / max(1, len(ds))}
    out.finish(summary=summary)
    print(table([(n, s["deals"], s["nodes"]["median"], s["nodes"]["max"],
                  round(s["cpu_s"]["median"], 3), round(s["cpu_s"]["max"], 3),
                  round(s["mean_value"], 4)) for n, s in summary.items()],
                ("W", "deals", "nodes median", "nodes max", "cpu s median", "cpu s max",
                 "mean value")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
