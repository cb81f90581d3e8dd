"""``onirim bound``: an upper bound on honest play by information relaxation (docs/BOUND.md).

For deals S .. S+N-1 (the deals of ``winrate``), the relaxed player of ``solver.bound`` -
who sees the deal and pays penalties set by ``W`` - plays each deal; the mean of its values
bounds the honest win probability from above.  Options as ``winrate``'s (``--deals``,
``--seed``, ``--db``, ``--jobs``, ``--cluster``, ``--json``) and the bound's own:

* ``--w zero|exact``: ``W`` above the stop (zero: no penalty; exact: the expectimax value,
  feasible only with few unknown cards);
* ``--stop C``: the relaxed player is paid the exact honest value ``V*`` of the first view
  whose next draw leaves at most C unknown cards (docs/BOUND.md section 10);
* ``--policy NAME --switch D``: an honest policy plays until its view has at most D unknown
  cards, the relaxed player from there: the mean then bounds only the honest players that
  play as the policy until then (the JSON says which quantity is bounded);
* ``--budget-nodes B``: inner nodes per deal; a deal not finished within it counts as 1
  with ``--w zero`` (every value is at most 1 then: sound) and makes the bound unknown with
  ``--w exact``.

One row per deal in the SQLite file (table ``bound_rows``, keyed by the configuration),
committed as it finishes; a rerun skips stored deals, so an interrupted run resumes.  The file
follows ``winrate``'s rules (``onirim.results_file``, ``solver.runs.db.BoundDB``): a file of
another program or a ``winrate`` results file is refused unchanged, a run whose deals are all
stored only reads, every argument is checked before the file is touched, and Ctrl-C or SIGTERM
stops the run with one line and status 130.
"""
from __future__ import annotations

import json
import math
import os
import shlex
import sys
import time

from onirim.cli import UsageError, policy_from_args

MAX_SEED = (1 << 64) - 1
MAX_POLICY_SEED = (1 << 63) - 1
MAX_DEALS = 10_000_000
Z95 = 1.959963984540054
Z95_ONE_SIDED = 1.6448536269514722


def add_arguments(p) -> None:
    p.add_argument("--deals", type=int, required=True, help="number of deals N (required)")
    p.add_argument("--seed", type=int, default=0, help="first seed S (deals S .. S+N-1)")
    p.add_argument("--db", default="onirim-bound.sqlite",
                   help="SQLite file for the per-deal rows (default ./onirim-bound.sqlite)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--cluster", default=None, metavar="local:N|ADDRESS",
                   help="run on a Dask cluster (needs the [cluster] extra)")
    p.add_argument("--json", action="store_true", help="print the JSON summary")
    p.add_argument("--w", choices=("zero", "exact"), default="zero",
                   help="W above the stop: zero (default) or exact (the expectimax value)")
    p.add_argument("--stop", type=int, default=None, metavar="C",
                   help="pay V* at the first view whose next draw leaves at most C unknown "
                        "cards (default: play to the end)")
    p.add_argument("--policy", default=None, metavar="NAME",
                   help="an honest policy plays until --switch (default none: the relaxed "
                        "player from the start, a bound on the honest optimum)")
    p.add_argument("--policy-arg", action="append", default=[], metavar="K=V",
                   help="a parameter of --policy (repeatable)")
    p.add_argument("--policy-seed", type=int, default=1, help="the policy's seed (default 1)")
    p.add_argument("--switch", type=int, default=None, metavar="D",
                   help="with --policy: the relaxed player takes over at the first decision "
                        "whose view has at most D unknown cards (required with --policy)")
    p.add_argument("--budget-nodes", type=int, default=2_000_000,
                   help="inner nodes per deal (default 2,000,000)")
    p.add_argument("--ex-budget", type=int, default=None,
                   help="expectimax nodes per deal for V* and W (default none; a search cut "
                        "short is paid its upper end, which keeps the bound valid)")


def _check(args):
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals: must be from 1 to {MAX_DEALS:,}, not {args.deals}")
    if not 0 <= args.seed <= MAX_SEED or args.seed + args.deals - 1 > MAX_SEED:
        raise UsageError(f"--seed: deals S .. S+N-1 must lie within 0 .. 2**64-1")
    if not 1 <= args.jobs <= 256:
        raise UsageError(f"--jobs: must be from 1 to 256, not {args.jobs}")
    if not str(args.db).strip():
        raise UsageError("--db: needs a file name")
    if args.stop is not None and not 0 <= args.stop <= 76:
        raise UsageError(f"--stop: must be from 0 to 76, not {args.stop}")
    if args.budget_nodes < 1:
        raise UsageError(f"--budget-nodes: must be at least 1, not {args.budget_nodes}")
    if args.ex_budget is not None and args.ex_budget < 1:
        raise UsageError(f"--ex-budget: must be at least 1, not {args.ex_budget}")
    if args.policy is None and (args.switch is not None or args.policy_arg):
        raise UsageError("--switch: needs --policy (the honest player before the switch)")
    if args.policy is not None and args.switch is None:
        raise UsageError("--switch: required with --policy (the unknown count at which the "
                         "relaxed player takes over)")
    if args.switch is not None and not 0 <= args.switch <= 76:
        raise UsageError(f"--switch: must be from 0 to 76, not {args.switch}")
    if args.policy is not None and not 0 <= args.policy_seed <= MAX_POLICY_SEED:
        raise UsageError(f"--policy-seed: {args.policy_seed} is not a whole number from 0 to "
                         "2^63-1")
    if args.cluster is not None:
        from solver.runs.cluster import parse_cluster, require_dask
        if args.jobs != 1:
            raise UsageError("--jobs: give either --jobs or --cluster, not both")
        parse_cluster(args.cluster)
        require_dask()


def _policy_config(args):
    if args.policy is None:
        return None
    pol = policy_from_args(args.policy, args.policy_arg)
    if 1 not in (pol.players or (1,)):
        raise UsageError(f"--policy: {args.policy!r} does not play solo")
    return pol.config


def _run_local(config, seeds, jobs, on_row):
    from solver.bound import run as bound_run
    if jobs == 1:
        bound_run.warm_up(config)
        for s in seeds:
            on_row(bound_run.bound_deal(config, s))
        return
    import multiprocessing as mp
    bound_run.warm_up(config, build=False)          # compile once; forked workers inherit the code
    ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = ctx.Pool(jobs, initializer=_init_worker, initargs=(config,))
    from solver.runs.runner import closing_pool
    with closing_pool(pool):
        for row in pool.imap_unordered(_one, [(config, s) for s in seeds]):
            on_row(row)


def _init_worker(config) -> None:
    from solver.bound import run as bound_run
    from solver.runs.runner import quiet_worker
    quiet_worker()
    bound_run.warm_up(config)


def _one(args):
    from solver.bound import run as bound_run
    return bound_run.bound_deal(*args)


def _run_cluster(spec, config, seeds, on_row, on_start=lambda: None):
    from solver.runs.cluster import ClusterRun
    from solver.bound import run as bound_run
    from distributed import as_completed
    with ClusterRun(spec) as cl:
        on_start()          # once the cluster is reached (a refused one leaves no new file)
        size = max(1, min(20, len(seeds) // max(1, 2 * cl.workers())))
        chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
        futs = cl.client.map(bound_run.bound_chunk, [config] * len(chunks), chunks, pure=False,
                             retries=3)
        for fut in as_completed(futs):
            for row in fut.result():
                on_row(row)


def summary(rows, config) -> dict:
    """The bound and its intervals from the per-deal rows."""
    n = len(rows)
    unfinished = sum(1 for r in rows if not r["finished"])
    valid = config["w"] == "zero" or unfinished == 0
    vals = [r["value"] if r["value"] is not None else float("nan") for r in rows]
    out = {"deals": n, "unfinished": unfinished, "w": config["w"], "stop": config["stop"],
           "policy": config["policy"], "switch": config["switch"],
           "bounds": ("the honest optimum (the best honest win probability) of the whole game"
                      if not config["policy"] else
                      f"the best honest player that plays {config['policy']} until its view "
                      f"has at most {config['switch']} unknown cards, then as it likes"),
           "W": _w_name(config)}
    if n and valid:
        mean = sum(vals) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) if n > 1 else 0.0
        se = sd / math.sqrt(n)
        out.update(bound=mean, ci95=[max(0.0, mean - Z95 * se), mean + Z95 * se],
                   upper95=mean + Z95_ONE_SIDED * se, sd=sd)
    else:
        out.update(bound=None, ci95=None, upper95=None)
    if config["policy"]:
        w = sum(1 for r in rows if r.get("policy_won"))
        out["policy_won"] = w
        out["policy_rate"] = w / n if n else None
    out["inexact"] = sum(r.get("inexact", 0) for r in rows)
    out["cpu_s"] = sum(r.get("cpu_s", 0.0) for r in rows)
    return out


def _w_name(config) -> str:
    above = "0" if config["w"] == "zero" else "V* (the exact expectimax value)"
    if config["stop"] is None:
        return f"W = {above} at every draw, to the end of the game"
    return (f"W = {above} above the stop; at the first view whose next draw leaves at most "
            f"{config['stop']} unknown cards, the relaxed player is paid V* of that view")


def resume_command(args) -> str:
    """The command line that resumes this run."""
    parts = ["onirim", "bound", "--deals", str(args.deals), "--seed", str(args.seed),
             "--db", args.db, "--w", args.w]
    for flag, value in (("--stop", args.stop), ("--policy", args.policy),
                        ("--switch", args.switch), ("--ex-budget", args.ex_budget)):
        if value is not None:
            parts += [flag, str(value)]
    for a in args.policy_arg:
        parts += ["--policy-arg", a]
    if args.policy is not None:
        parts += ["--policy-seed", str(args.policy_seed)]
    parts += ["--budget-nodes", str(args.budget_nodes)]
    if args.jobs != 1:
        parts += ["--jobs", str(args.jobs)]
    if args.cluster is not None:
        parts += ["--cluster", args.cluster]
    if args.json:
        parts.append("--json")
    return " ".join(shlex.quote(p) for p in parts)


def _open(args, key, seeds):
    """The results file (``onirim.results_file``'s rules), its stored rows of ``seeds`` and
    whether it is open for writing."""
    from onirim.results_file import must_write, open_for_write, open_readonly
    from solver.runs.db import BoundDB
    ro = open_readonly(args.db, BoundDB)
    have = {}
    if ro is not None:
        have = ro.rows(key, seeds)
        if len(have) == args.deals:
            return ro, have, False
        ro.close()
    db = open_for_write(args.db, BoundDB, must_write(args.deals - len(have), args.deals))
    return db, db.rows(key, seeds), True


def _clean(x):
    """Floats rounded to 12 decimals (no ``0.9999999999999999`` in the JSON)."""
    if isinstance(x, float):
        return round(x, 12) if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


def run(args) -> int:
    _check(args)
    from onirim.results_file import (interrupted_line, remove_new_file, say_new_file,
                                     sigterm_as_interrupt)
    from solver.bound import run as bound_run
    pconf = _policy_config(args)
    config = bound_run.make_config(args.w, args.stop, args.budget_nodes, args.ex_budget,
                                   args.policy, pconf, args.policy_seed, args.switch)
    key = bound_run.config_key(config)
    seeds = range(args.seed, args.seed + args.deals)
    if args.w == "exact" and args.stop is None and args.ex_budget is None:
        print("onirim bound: warning: --w exact without --stop or --ex-budget: the exact "
              "searches of W have no node limit, so one deal may take hours (--ex-budget E "
              "caps them per deal; Ctrl-C stops the run)", file=sys.stderr, flush=True)
    with sigterm_as_interrupt():
        try:
            db, have, writable = _open(args, key, seeds)
        except KeyboardInterrupt:
            print("onirim: interrupted", file=sys.stderr, flush=True)
            return 130
        todo = [s for s in seeds if s not in have]
        t0 = time.perf_counter()
        done = [0]
        show = not args.json and sys.stderr.isatty()

        def on_row(row):
            db.add(key, row)
            have[row["seed"]] = row
            done[0] += 1
            if show:
                print(f"\r{len(have)}/{args.deals} deals", end="", file=sys.stderr, flush=True)

        try:
            def start():
                say_new_file(db, args.db, quiet=args.json)
                if show:
                    print(f"{len(have)}/{args.deals} deals", end="", file=sys.stderr,
                          flush=True)

            if todo and args.cluster:
                _run_cluster(args.cluster, config, todo, on_row, start)
            elif todo:
                start()
                _run_local(config, todo, args.jobs, on_row)
        except KeyboardInterrupt:
            stored = len(have)
            db.close()
            print(("\n" if show else "") + interrupted_line(
                stored, args.deals, args.db, resume_command(args)), file=sys.stderr, flush=True)
            return 130
        except BaseException:
            db.close()
            if not done[0]:
                remove_new_file(db)
            raise
        db.close()
    rows = [have[s] for s in seeds]
    out = summary(rows, config)
    out.update(seed=args.seed, db=args.db, new_deals=done[0],
               wall_s=round(time.perf_counter() - t0, 6),
               loadavg=[round(x, 2) for x in os.getloadavg()])
    if args.json:
        print(json.dumps(_clean(out), sort_keys=True))
        return 0
    if show:
        print(file=sys.stderr)
    print(f"deals {args.seed} .. {args.seed + args.deals - 1}: {out['deals']} "
          f"({out['unfinished']} not finished)")
    print(f"bounds {out['bounds']}")
    print(f"W: {out['W']}")
    if out["bound"] is None:
        print("bound: unknown (deals not finished with --w exact)")
    else:
        print(f"bound {out['bound']:.4f}, ci95 [{out['ci95'][0]:.4f}, {out['ci95'][1]:.4f}], "
              f"one-sided 95% upper limit {out['upper95']:.4f}")
    if config["policy"]:
        print(f"{config['policy']} alone on the same deals: {out['policy_won']} wins "
              f"({out['policy_rate']:.4f})")
    return 0
