"""Benchmark of the honest-information expectimax (docs/EXPECTIMAX.md, section Figures).

Positions: late-game solo positions reached by playing a chance-mode game (no seed) with a
fixed greedy policy and seeded random draws, stopped at the first phase ``play`` whose deck
holds at most ``n`` cards, all unknown.  Only positions where all 8 Doors are still in the
game are kept (otherwise the value is 0 without search).

    python -m benchmarks.bench_expectimax            # full run, writes benchmarks/results/
    python -m benchmarks.bench_expectimax --quick    # a few seconds
    python -m benchmarks.bench_expectimax --resume benchmarks/results/expectimax-X.json

The result file is written after every position (``"complete": false`` until the end), so
an interrupted run keeps what it finished, and ``--resume`` (same options) solves only the
positions not in the file yet.  Each position is solved on an empty memo, so a resumed row
is measured as it would have been.

``run(quick)`` returns the result dict (for ``onirim bench``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from benchmarks.harness import ROOT
from engine.notation import format_position

# ------------------------------------------------------------------------------ positions
from benchmarks.positions import late_position, open_at_root, positions  # noqa: F401  (re-exported)


# ------------------------------------------------------------------------------ measuring
def solve_timed(solver, state, limit_s: float):
    """Solve with a time limit (one kernel call, which watches the clock itself), on an
    empty memo.  Returns (interval, nodes, seconds)."""
    solver.clear()
    t0 = time.perf_counter()
    n0 = solver.nodes
    iv = solver.value(state, budget_s=limit_s)
    return iv, solver.nodes - n0, time.perf_counter() - t0


def machine_info() -> dict:
    """The machine and versions, from the shared harness."""
    from benchmarks.harness import machine_info as _info
    return _info()


SMALL_POSITION = ("mode=solo phase=play hand=Os,Am,Gk,Lk,Ls row=Am,Os doors=DO,DO,DA,DA,DG,DG,DL "
                  "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,Om,Ok,Ok,Ok,As,As,As,As,As,As,"
                  "As,As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,"
                  "Lm,Lk,N,N,N,N,N,N,N limbo=-")


def time_cli(position: str = SMALL_POSITION, repeats: int = 2) -> list[float]:
    """Wall seconds of ``onirim best`` (a fresh process each time; the first run may fill
    numba's on-disk cache, later ones are warm)."""
    exe = os.path.join(os.path.dirname(sys.executable), "onirim")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "onirim"]
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd + ["best", position, "--json"], cwd=ROOT, capture_output=True,
                       check=True, timeout=300)
        out.append(time.perf_counter() - t0)
    return out


def side_by_side(rows, bits: int, sizes=(14, 15), rounds: int = 2) -> list[dict]:
    """One thread against two on the same positions, alternating, in one run (the machine
    is shared, so only ratios measured side by side mean much)."""
    from solver.expectimax.solver import Expectimax
    solvers = {1: Expectimax(bits, threads=1), 2: Expectimax(bits, threads=2)}
    out = []
    for r in rows:
        if r["unknown"] not in sizes or not r["exact"]:
            continue
        state = late_position(r["seed"], r["unknown"])
        times = {1: [], 2: []}
        for _ in range(rounds):
            for t in (1, 2):
                iv, nodes, dt = solve_timed(solvers[t], state, 600.0)
                assert iv.exact and iv.lo == r["lo"], (r["seed"], iv, r["lo"])
                times[t].append(dt)
        one, two = min(times[1]), min(times[2])
        out.append({"unknown": r["unknown"], "seed": r["seed"], "one_thread_s": round(one, 3),
                    "two_threads_s": round(two, 3), "speedup": round(one / two, 3)})
    return out


def run(quick: bool = False, limit_s: float = 60.0, per_size: int = 3,
        sizes=None, table_bits: int | None = None, verbose: bool = False,
        threads: int | None = None, compare_threads: bool = False,
        on_row=None, done_rows=()) -> dict:
    """The benchmark.  ``on_row(rows)`` is called after every position with the rows so
    far; ``done_rows``: rows of an interrupted run with the same options, reused instead
    of solving their positions again."""
    from solver.expectimax.solver import Expectimax, memory_cap_bits
    if sizes is None:
        sizes = [4, 6, 8, 10] if quick else [4, 6, 8, 10, 12, 14, 15, 16, 18, 20, 22, 24]
    if quick:
        limit_s = min(limit_s, 5.0)
        per_size = min(per_size, 2)
    # a fixed table, allocated once (its first touch is not timed; docs/EXPECTIMAX.md
    # section 8): 2**27 entries (8 GiB) where half the available memory holds it
    bits = table_bits or (20 if quick else memory_cap_bits(27))
    threads = threads or (1 if quick else 2)
    solver = Expectimax(bits, threads=threads)
    t_jit = time.perf_counter()
    solver.value(positions(6, 1)[0][1])      # compile or load the kernels
    jit_s = time.perf_counter() - t_jit
    rows = []
    done = {(r["unknown"], r["seed"]): r for r in done_rows}
    total_nodes = 0
    total_s = 0.0
    for n in sizes:
        if rows and not any(r["exact"] for r in rows if r["unknown"] == rows[-1]["unknown"]):
            break       # nothing at the previous size finished in time: stop growing
        for seed, state in positions(n, per_size):
            if (n, seed) in done:
                row = done[(n, seed)]
                rows.append(row)
                total_nodes += row["nodes"]
                total_s += row["seconds"]
                if verbose:
                    print(f"  n={n:>2} seed={seed:>5} from the resumed file", flush=True)
                continue
            iv, nodes, dt = solve_timed(solver, state, limit_s)
            total_nodes += nodes
            total_s += dt
            row = {"unknown": n, "seed": seed, "exact": iv.exact, "lo": iv.lo, "hi": iv.hi,
                   "nodes": nodes, "seconds": round(dt, 4),
                   "doors_in_play": len(state.doors[0]),
                   "position": format_position(state)}
            rows.append(row)
            if on_row is not None:
                on_row(rows)
            if verbose:
                print(f"  n={n:>2} seed={seed:>5} doors={row['doors_in_play']} "
                      f"{'exact' if iv.exact else 'open '} [{iv.lo:.6f}, {iv.hi:.6f}] "
                      f"{nodes:>10} nodes {dt:8.3f} s", flush=True)
    curve = []
    for n in sizes:
        rs = [r for r in rows if r["unknown"] == n]
        if not rs:
            continue
        curve.append({"unknown": n, "positions": len(rs),
                      "solved": sum(r["exact"] for r in rs),
                      "max_seconds": max(r["seconds"] for r in rs),
                      "median_seconds": sorted(r["seconds"] for r in rs)[len(rs) // 2],
                      "max_nodes": max(r["nodes"] for r in rs)})
    largest_60 = max([c["unknown"] for c in curve if c["solved"] == c["positions"]
                      and c["max_seconds"] <= limit_s], default=0)
    within_10 = all(c["max_seconds"] <= 10 and c["solved"] == c["positions"]
                    for c in curve if c["unknown"] <= 15)
    cli = time_cli() if not quick else time_cli(repeats=1)
    del solver
    pairs = side_by_side(rows, min(bits, 25)) if compare_threads else []
    return {"benchmark": "expectimax", "quick": quick, "machine": machine_info(),
            "table_bits": bits, "threads": threads, "limit_s": limit_s,
            "jit_or_load_s": round(jit_s, 3), "one_vs_two_threads": pairs,
            "expectimax_states_per_s": round(total_nodes / total_s) if total_s else 0,
            "size_vs_time": curve, "largest_solved_all_within_limit": largest_60,
            "all_up_to_15_within_10s": within_10, "cli_best_seconds": cli,
            "positions": rows}


def print_report(res: dict) -> None:
    m = res["machine"]
    print(f"expectimax benchmark on {m['cpu']} ({m['cores']} cores), python {m['python']}, "
          f"numba {m['numba']}, commit {m['commit'][:10]}")
    print(f"{'unknown':>7} {'pos':>4} {'exact':>5} {'median s':>9} {'max s':>9} "
          f"{'max nodes':>11}")
    for c in res["size_vs_time"]:
        print(f"{c['unknown']:>7} {c['positions']:>4} {c['solved']:>5} "
              f"{c['median_seconds']:>9.3f} {c['max_seconds']:>9.3f} {c['max_nodes']:>11}")
    print("size vs time (max seconds, log scale):")
    for c in res["size_vs_time"]:
        import math
        bar = "#" * max(1, int(8 * (math.log10(max(c["max_seconds"], 1e-3)) + 3)))
        print(f"  {c['unknown']:>3} | {bar} {c['max_seconds']:.3f}s")
    print(f"states/s: {res['expectimax_states_per_s']}  "
          f"largest size with every position exact within {res['limit_s']:g} s: "
          f"{res['largest_solved_all_within_limit']}  "
          f"all <= 15 unknown within 10 s: {res['all_up_to_15_within_10s']}")
    print(f"onirim best (small position, fresh process): "
          + ", ".join(f"{x:.2f}s" for x in res["cli_best_seconds"]))
    print(f"threads: {res['threads']}")
    for p in res.get("one_vs_two_threads", []):
        print(f"  n={p['unknown']} seed={p['seed']}: one thread {p['one_thread_s']:.2f} s, "
              f"two {p['two_threads_s']:.2f} s, x{p['speedup']:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--limit-s", type=float, default=60.0)
    ap.add_argument("--per-size", type=int, default=3)
    ap.add_argument("--sizes", type=str, default=None, help="comma-separated deck sizes")
    ap.add_argument("--table-bits", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None,
                    help="search threads sharing the memo (default 2; 1 with --quick)")
    ap.add_argument("--compare-threads", action="store_true",
                    help="also time one thread against two on the 14- and 15-card positions")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--resume", metavar="FILE", default=None,
                    help="the result file of an interrupted run (same options): solve only "
                         "the positions it does not hold yet, and finish it")
    a = ap.parse_args(argv)
    from benchmarks.harness import ResultFile
    try:
        sizes = [int(x) for x in a.sizes.split(",")] if a.sizes else None
    except ValueError:
        print("bench_expectimax: --sizes must be comma-separated integers", file=sys.stderr)
        return 2
    options = {"quick": a.quick, "limit_s": a.limit_s, "per_size": a.per_size,
               "sizes": sizes, "table_bits": a.table_bits, "threads": a.threads,
               "compare_threads": a.compare_threads}
    out = ResultFile.open("bench_expectimax", "expectimax", "expectimax", options,
                          a.resume, save=not a.no_save)
    if out is None:
        return 2
    res = run(a.quick, a.limit_s, a.per_size, sizes, a.table_bits, verbose=True,
              threads=a.threads, compare_threads=a.compare_threads,
              on_row=lambda rows: out.save(positions=rows), done_rows=list(out.rows))
    print_report(res)
    out.finish(**res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
