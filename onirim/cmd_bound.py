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
committed as it finishes; a rerun skips stored deals, so an interrupted run resumes.
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
import sys
import time

from onirim.cli import UsageError

MAX_SEED = (1 << 64) - 1
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


def _policy_config(args):
    if args.policy is None:
        return None
    from solver.api import make_policy, parse_policy_args
    from solver.errors import PolicyError
    try:
        pol = make_policy(args.policy, **parse_policy_args(args.policy_arg))
    except PolicyError as e:
        raise UsageError(f"--policy: {e}") from None
    if 1 not in (pol.players or (1,)):
        raise UsageError(f"--policy: {args.policy!r} does not play solo")
    return pol.config


class Store:
    """The rows of one configuration in the SQLite file, one per deal."""

    def __init__(self, path, key):
        self.path = path
        self.key = key
        self.new = not os.path.exists(path)
        try:
            self.con = sqlite3.connect(path)
            self.con.execute("CREATE TABLE IF NOT EXISTS bound_rows (key TEXT NOT NULL, seed "
                             "TEXT NOT NULL, row TEXT NOT NULL, PRIMARY KEY (key, seed))")
            self.con.commit()
        except sqlite3.DatabaseError as e:
            raise UsageError(f"--db: {path}: not a usable SQLite file ({e})") from None

    def rows(self, seeds) -> dict:
        out = {}
        cur = self.con.execute("SELECT seed, row FROM bound_rows WHERE key = ?", (self.key,))
        wanted = seeds
        for seed, row in cur:
            s = int(seed)
            if s in wanted:
                out[s] = json.loads(row)
        return out

    def add(self, row) -> None:
        self.con.execute("INSERT OR REPLACE INTO bound_rows VALUES (?, ?, ?)",
                         (self.key, str(row["seed"]), json.dumps(row, sort_keys=True)))
        self.con.commit()

    def close(self):
        self.con.close()


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
    with ctx.Pool(jobs, initializer=bound_run.warm_up, initargs=(config,)) as pool:
        for row in pool.imap_unordered(_one, [(config, s) for s in seeds]):
            on_row(row)


def _one(args):
    from solver.bound import run as bound_run
    return bound_run.bound_deal(*args)


def _run_cluster(spec, config, seeds, on_row):
    from solver.runs.cluster import ClusterRun
    from solver.bound import run as bound_run
    from distributed import as_completed
    with ClusterRun(spec) as cl:
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


def run(args) -> int:
    _check(args)
    from solver.bound import run as bound_run
    pconf = _policy_config(args)
    config = bound_run.make_config(args.w, args.stop, args.budget_nodes, args.ex_budget, args.policy,
                           pconf, args.policy_seed, args.switch)
    key = bound_run.config_key(config)
    seeds = range(args.seed, args.seed + args.deals)
    store = Store(args.db, key)
    if store.new:
        print(f"onirim bound: new results file {args.db}", file=sys.stderr)
    have = store.rows(seeds)
    todo = [s for s in seeds if s not in have]
    t0 = time.perf_counter()
    done = [0]

    def on_row(row):
        store.add(row)
        have[row["seed"]] = row
        done[0] += 1
        if not args.json and sys.stderr.isatty():
            print(f"\r{len(have)}/{args.deals} deals", end="", file=sys.stderr)

    try:
        if todo:
            if args.cluster:
                _run_cluster(args.cluster, config, todo, on_row)
            else:
                _run_local(config, todo, args.jobs, on_row)
    except KeyboardInterrupt:
        print(f"\nonirim bound: interrupted; {len(have)} of {args.deals} deals stored in "
              f"{args.db}; the same command resumes", file=sys.stderr)
        store.close()
        return 130
    store.close()
    rows = [have[s] for s in seeds]
    out = summary(rows, config)
    out.update(seed=args.seed, db=args.db, new_deals=done[0],
               wall_s=time.perf_counter() - t0, loadavg=list(os.getloadavg()))
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
        return 0
    if sys.stderr.isatty():
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
