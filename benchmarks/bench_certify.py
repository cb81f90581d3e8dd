"""Engine certificates of exact expectimax values (solver/expectimax/certify.py).

For each position (the benchmark's late-game positions, ``late_position(seed, cards)``) a
fresh ``Expectimax(threads)`` solves it exactly, then ``Expectimax.certify`` replays the
strategy the kernel's values choose through the engine's own rules and sums its win
probability in exact fractions; it must equal the kernel's value (docs/EXPECTIMAX.md,
section 7).  Each finished position is written to the result file at once, so an
interrupted run keeps what it finished; ``--resume FILE`` skips the seeds already in FILE
and adds to it.

    python -m benchmarks.bench_certify                 # 15 cards, seeds 56,63,70
    python -m benchmarks.bench_certify --seeds 177 --table-bits 26
    python -m benchmarks.bench_certify --quick         # two small positions, seconds
"""
from __future__ import annotations

import argparse
import sys
import time

from benchmarks.harness import ResultFile, add_seed_options, parse_seeds

DEFAULT_SEEDS = (56, 63, 70)
PROG = "bench_certify"


def measure(state, threads: int, table_bits: int, verbose: bool) -> dict:
    from solver.expectimax.solver import Expectimax
    solver = Expectimax(table_bits, threads=threads)
    t0 = time.perf_counter()

    def progress(n):
        if verbose and n % 500_000 == 0:
            print(f"  {n:,} positions, {time.perf_counter() - t0:.0f} s", flush=True)
    r = solver.certify(state, progress=progress)
    v = r["certified"]
    return {"claimed": r["claimed"], "certified": float(v),
            "fraction": f"{v.numerator}/{v.denominator}", "agrees": r["agrees"],
            "ok": r["ok"], "unmatched": r["unmatched"], "max_gap": r["max_gap"],
            "replay_positions": r["positions"], "decisions": r["decisions"],
            "chance": r["chance"], "kernel_queries": r["queries"],
            "prophecies": r["prophecies"], "order_fallbacks": r["order_fallbacks"],
            "order_misses": r["order_misses"], "solve_s": round(r["solve_s"], 2),
            "replay_s": round(r["replay_s"], 2), "nodes": solver.nodes,
            "table_bits": solver.table_bits}


def _report(row) -> None:
    print(f"seed {row['seed']}: kernel {row['claimed']:.12g}, engine {row['fraction']} = "
          f"{row['certified']:.12g}: {'certified' if row['ok'] else 'DISAGREES'}; "
          f"{row['replay_positions']:,} positions replayed, {row['kernel_queries']:,} "
          f"kernel queries, {row['prophecies']:,} prophecies "
          f"({row['order_fallbacks']} fallbacks); solve {row['solve_s']} s, replay "
          f"{row['replay_s']} s", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_seed_options(ap, DEFAULT_SEEDS)
    ap.add_argument("--table-bits", type=int, default=26,
                    help="memo of the search: 2^bits rows of 64 bytes (26: 4 GiB)")
    ap.add_argument("--quick", action="store_true", help="two small positions")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds, PROG)
    if seeds is None:
        return 2
    if not 10 <= a.table_bits <= 32 or a.threads < 1 or not 1 <= a.cards <= 40:
        print(f"{PROG}: --table-bits must be 10..32, --threads positive and --cards 1..40",
              file=sys.stderr)
        return 2
    if a.quick:
        seeds, a.cards, a.table_bits = [63, 87], 12, 20
    out = ResultFile.open(PROG, "certify", "certify",
                          {"cards": a.cards, "threads": a.threads, "table_bits": a.table_bits},
                          a.resume, save=not a.no_save)
    if out is None:
        return 2
    for seed in seeds:
        if any(r["seed"] == seed for r in out.rows):
            print(f"seed {seed}: in {out.path} already")
    out.run_seeds(seeds, a.cards, lambda st: measure(st, a.threads, a.table_bits, True),
                  _report)
    out.finish()
    return 0 if all(r["ok"] for r in out.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
