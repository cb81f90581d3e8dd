"""Where an exact search's work goes: one optimal strategy against everything stored.

For each position (the benchmark's late-game positions, ``late_position(seed, cards)``) a
fresh ``Expectimax(threads)`` solves it exactly, and ``Expectimax.strategy_graph`` walks one
optimal strategy through the memo (solver/expectimax/strategy_graph.py): the distinct positions it
reaches are what a proof of the lower half of the answer (value >= v) needs at the least.
Everything else the search stored went to the upper half: showing that no other action does
better (docs/EXPECTIMAX.md, section 9).

    python -m benchmarks.bench_strategy_graph          # 15 cards, seeds 56,63,70,177
    python -m benchmarks.bench_strategy_graph --seeds 56,63,70,130,177,208,246 --table-bits 27
    python -m benchmarks.bench_strategy_graph --quick  # two small positions, seconds

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

DEFAULT_SEEDS = (56, 63, 70, 177)
STATUS = ("play", "prophecy", "door", "nightmare", "refill", "redraw", "reveal", "foresee",
          "won", "lost", "pick")


def measure(state, threads: int, bits: int, table_bits: int) -> dict:
    from solver.expectimax.solver import Expectimax
    # a fixed table: a growing one overwrites entries before it grows, and the walk needs
    # the exact entries of the whole strategy ("missing" counts the ones not found)
    solver = Expectimax(table_bits, threads=threads)
    t0 = time.perf_counter()
    iv = solver.value(state)
    t1 = time.perf_counter()
    g = solver.strategy_graph(state, bits=bits)     # value() again: a memo hit
    t2 = time.perf_counter()
    return {"value": iv.lo, "exact": iv.exact, "solve_s": round(t1 - t0, 2),
            "walk_s": round(t2 - t1, 2), "nodes": g["nodes"], "stored": g["stored"],
            "strategy_positions": g["positions"],
            "strategy_per_phase": dict(zip(STATUS, g["per_status"])),
            "strategy_value": g["value"], "missing": g["missing"],
            "searched_again": g["searched_again"], "full": g["full"],
            "table_bits": solver.table_bits,
            "stored_per_strategy_position": (round(g["stored"] / g["positions"], 1)
                                             if g["positions"] else None)}


def run(seeds=DEFAULT_SEEDS, cards=15, threads=2, bits=24, table_bits=26,
        verbose=False, out: ResultFile | None = None) -> dict:
    """The benchmark; ``out``: the result file, rewritten after every position (and
    holding the rows of an interrupted run when it resumes one)."""
    from solver.expectimax.solver import Expectimax
    Expectimax(16).strategy_graph(late_position(63, 12), bits=12)   # compile / load first
    out = out or ResultFile(None, {"positions": []})
    rows = out.run_seeds(seeds, cards, lambda st: measure(st, threads, bits, table_bits),
                         _report if verbose else None)
    return {"benchmark": "strategy_graph", "machine": machine_info(), "cards": cards,
            "threads": threads, "positions": rows}


def _report(row) -> None:
    print(f"seed {row['seed']}: value {row['value']:.6f} (strategy "
          f"{row['strategy_value']:.6f}, missing {row['missing']}, searched again "
          f"{row['searched_again']}); stored {row['stored']:,}, strategy "
          f"{row['strategy_positions']:,} ({row['stored_per_strategy_position']} stored "
          f"per strategy position); solve {row['solve_s']} s, walk {row['walk_s']} s",
          flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_seed_options(ap, DEFAULT_SEEDS)
    ap.add_argument("--walk-bits", type=int, default=24,
                    help="visited table of the walk: 2^bits rows of 56 bytes")
    ap.add_argument("--table-bits", type=int, default=26,
                    help="memo of the search: 2^bits rows of 64 bytes (26: 4 GiB)")
    ap.add_argument("--quick", action="store_true", help="two small positions")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds, "bench_strategy_graph")
    if seeds is None:
        return 2
    if not 8 <= a.walk_bits <= 30 or not 10 <= a.table_bits <= 32 or a.threads < 1:
        print("bench_strategy_graph: --walk-bits must be 8..30, --table-bits 10..32 and "
              "--threads positive",
              file=sys.stderr)
        return 2
    if a.quick:
        seeds, a.cards, a.table_bits = [63, 177], 13, 20
    out = ResultFile.open("bench_strategy_graph", "strategy_graph", "strategy-graph",
                          {"cards": a.cards, "threads": a.threads, "walk_bits": a.walk_bits,
                           "table_bits": a.table_bits}, a.resume, save=not a.no_save)
    if out is None:
        return 2
    res = run(seeds, a.cards, a.threads, a.walk_bits, a.table_bits, verbose=True, out=out)
    out.finish(**res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
