"""``onirim winrate``: solve deals S .. S+N-1 and report the win rate (SPEC section 6).

Results go to SQLite, one row per deal, committed as each deal finishes; a rerun with the same
settings skips stored deals, so an interrupted run (Ctrl-C, kill -9) resumes where it stopped.
With a node budget (the default) every deal's result and node count are the same for any
``--jobs``; ``--budget-s`` adds a wall-clock limit per deal, which is not reproducible.
"""
from __future__ import annotations

import json
import os
import sys
import time

from onirim.cli import UsageError
from solver.budgets import check_nodes, check_seconds

MODES = ("clairvoyant",)
MAX_SEED = (1 << 64) - 1
MAX_DEALS = 100_000_000    # the seed list is built in memory
MAX_JOBS = 256


def add_arguments(p) -> None:
    p.add_argument("--mode", default="clairvoyant",
                   help="solver: clairvoyant (perfect information, the deal's seed is known)")
    p.add_argument("--deals", type=int, required=True, help="number of deals N")
    p.add_argument("--seed", type=int, default=0, help="first seed S (deals S .. S+N-1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--db", default="onirim-results.sqlite",
                   help="SQLite results file (default ./onirim-results.sqlite)")
    p.add_argument("--budget-nodes", type=int, default=None,
                   help="node budget per deal (default: the solver's default)")
    p.add_argument("--budget-s", type=float, default=None,
                   help="extra wall-clock budget per deal, seconds (not reproducible)")
    p.add_argument("--tt-mb", type=float, default=None,
                   help="transposition table size per worker, MB")
    p.add_argument("--json", action="store_true", help="print the SPEC JSON summary")


def check_args(args):
    if args.mode not in MODES:
        raise UsageError(f"unknown mode {args.mode!r} (choose from: {', '.join(MODES)})")
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals must be from 1 to {MAX_DEALS:,}, not {args.deals} "
                         "(run larger jobs in batches of seeds on one --db)")
    if args.seed < 0 or args.seed + args.deals - 1 > MAX_SEED:
        raise UsageError("seeds must lie in 0 .. 2**64-1")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be from 1 to {MAX_JOBS}, not {args.jobs}")
    check_nodes(args.budget_nodes, "--budget-nodes")
    check_seconds(args.budget_s, "--budget-s")
    if args.tt_mb is not None and not 0.01 <= args.tt_mb <= 65536:
        raise UsageError(f"--tt-mb must lie in 0.01 .. 65536, not {args.tt_mb}")


# ------------------------------------------------------------------------- worker side
_SOLVER = None
_KW = None


def _init_worker(tt_mb, kw, child=False):
    global _SOLVER, _KW
    if child and sys.platform.startswith("linux"):
        try:  # die with the parent (kill -9 of the main process leaves no orphan solving)
            import ctypes
            import signal
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
        except Exception:
            pass
    from solver.clairvoyant import ClairvoyantSolver
    _SOLVER = ClairvoyantSolver(tt_mb=tt_mb)
    _KW = kw


def _solve(seed):
    r = _SOLVER.solve_deal(seed, **_KW)
    return seed, r.result, r.nodes, r.seconds, r.line


def _open_db(path):
    from solver.db import DBError, ResultsDB
    if os.path.isdir(path):
        raise UsageError(f"--db {path!r} is a folder, not a file")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError(f"--db {path!r} is not writable")
    try:
        db = ResultsDB(path)
        with db.con:
            db.con.execute("CREATE TABLE IF NOT EXISTS _probe (x INTEGER)")
            db.con.execute("DROP TABLE _probe")
    except DBError as e:
        raise UsageError(str(e)) from None
    except Exception as e:  # sqlite3.Error on a read-only folder or file
        raise UsageError(f"cannot write database {path!r}: {e}") from None
    return db


def run(args) -> int:
    check_args(args)
    from solver import clairvoyant as CV
    from solver.stats import summarize
    from solver.db import settings_key

    budget = CV.DEFAULT_NODE_BUDGET if args.budget_nodes is None else args.budget_nodes
    tt_mb = CV.DEFAULT_TT_MB if args.tt_mb is None else args.tt_mb
    settings = {"budget_nodes": budget, "budget_s": args.budget_s, "tt_mb": tt_mb,
                "solver": CV.SOLVER_VERSION}
    skey = settings_key(settings)
    db = _open_db(args.db)
    seeds = list(range(args.seed, args.seed + args.deals))
    stored = db.done(args.mode, skey, seeds)
    todo = [s for s in seeds if s not in stored]
    # interleave the work (stride) so that every worker sees a similar mix of seeds
    if args.jobs > 1:
        todo = [s for k in range(args.jobs) for s in todo[k::args.jobs]]
    results = dict(stored)
    kw = {"node_budget": budget, "time_budget_s": args.budget_s}

    wins = sum(1 for r in results.values() if r[0] == "WIN")
    done_n = len(results)
    t0 = time.perf_counter()
    show = (not args.json) and sys.stderr.isatty()
    bar = None
    if show and todo:
        from tqdm import tqdm
        tqdm.monitor_interval = 0   # no monitor thread (the pool may fork)
        bar = tqdm(total=len(todo), unit="deal", file=sys.stderr, dynamic_ncols=True)

    def record(seed, result, nodes, seconds, line):
        nonlocal wins, done_n
        db.add(args.mode, skey, seed, result, nodes, seconds, line)
        results[seed] = (result, nodes, seconds)
        done_n += 1
        wins += result == "WIN"
        if bar is not None:
            dec = sum(1 for r in results.values() if r[0] != "UNKNOWN")
            bar.set_postfix_str(f"win {wins}/{dec}" + (f" = {wins / dec:.3f}" if dec else ""),
                                refresh=False)
            bar.update(1)

    try:
        if todo:
            if args.jobs == 1:
                _init_worker(tt_mb, kw)
                for s in todo:
                    record(*_solve(s))
            else:
                import multiprocessing as mp
                ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
                with ctx.Pool(args.jobs, initializer=_init_worker, initargs=(tt_mb, kw, True)) as pool:
                    for out in pool.imap_unordered(_solve, todo, chunksize=1):
                        record(*out)
    finally:
        if bar is not None:
            bar.close()
        db.close()
    wall = time.perf_counter() - t0

    w = sum(1 for s in seeds if results[s][0] == "WIN")
    lo = sum(1 for s in seeds if results[s][0] == "LOSS")
    un = sum(1 for s in seeds if results[s][0] == "UNKNOWN")
    summ = summarize(w, lo, un)
    out = {"mode": args.mode, "deals": args.deals, "wins": w, "losses": lo, "unknown": un,
           "win_rate": summ["win_rate"], "ci95": summ["ci95"],
           "ci95_with_unknown": summ["ci95_with_unknown"],
           "seconds": round(sum(results[s][2] for s in seeds), 6),
           "nodes": int(sum(results[s][1] for s in seeds))}
    if args.json:
        print(json.dumps(out))
        return 0
    secs = sorted(results[s][2] for s in seeds)
    med = secs[len(secs) // 2]
    print(f"mode {args.mode}: deals {args.seed}..{args.seed + args.deals - 1} "
          f"({args.deals} deals, {len(stored)} already stored in {args.db})")
    print(f"  wins {w}  losses {lo}  unknown {un}")
    print(f"  win rate {summ['win_rate']:.4f}  95% CI [{summ['ci95'][0]:.4f}, "
          f"{summ['ci95'][1]:.4f}]  with unknown [{summ['ci95_with_unknown'][0]:.4f}, "
          f"{summ['ci95_with_unknown'][1]:.4f}]")
    print(f"  nodes {out['nodes']}  solver seconds {out['seconds']:.2f} (median "
          f"{med * 1000:.1f} ms/deal)  wall {wall:.2f} s  budget {budget} nodes"
          + (f", {args.budget_s} s" if args.budget_s else ""))
    return 0
