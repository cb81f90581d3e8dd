"""``onirim winrate``: play or solve deals S .. S+N-1 and report the win rate (SPEC section 6).

* ``--mode clairvoyant`` solves each deal with perfect information (``solver.clairvoyant``).
* ``--mode honest --policy NAME [--policy-arg k=v ...]`` plays each deal with a registered
  policy that sees only the player's view (``solver.honest``).
* ``--players 2`` does either for the two-player cooperative game: the clairvoyant team is
  ``solver.duo_search.DuoSolver`` (version ``duo-cv1``), an honest policy plays both seats,
  each from its own view (``engine.view.player_view``).  Results are stored under the player
  count, so a solo row is never read as a two-player one or the reverse.

Results go to SQLite (``solver.db``), one row per deal, committed as each deal finishes; a rerun
skips stored deals, so an interrupted run (Ctrl-C, kill -9) resumes where it stopped.  A decided
clairvoyant deal is reused by every later run whatever its table size, jobs or budget; an
UNKNOWN one only by a run with the same budget.  An honest game is reused by the same policy
configuration (its hash).  The deals are played by ``solver.runner``; every deal's result is
the same for any ``--jobs`` (with a node budget; ``--budget-s`` is not reproducible).
``docs/WINRATE.md`` has the details.
"""
from __future__ import annotations

import json
import shlex
import signal
import sys
import threading
import time

from onirim.cli import UsageError
from solver.budgets import available_memory, check_nodes, check_seconds

MODES = ("clairvoyant", "honest")
MAX_SEED = (1 << 64) - 1
MAX_DEALS = 100_000_000    # the seed list is built in memory
MAX_JOBS = 256
MAX_TT_MB = 65536
MEMORY_SHARE = 0.8         # the tables of all workers may take this share of the free memory
COMPILE_NOTICE_S = 2.0     # say "compiling" when warming the kernels takes longer than this
COMPILE_ESTIMATE = "about 75 s of CPU time, longer on a busy machine"


def add_arguments(p) -> None:
    p.add_argument("--mode", default="clairvoyant",
                   help="clairvoyant (perfect information: the deal's seed is known) or honest "
                        "(a policy plays with only what the player may know)")
    p.add_argument("--policy", default=None, help="honest mode: the registered policy to play")
    p.add_argument("--policy-seed", type=int, default=None, metavar="P",
                   help="honest mode: the seed of the policy's random numbers, independent of "
                        "the deal (default 1; recorded in the JSON, so games replay)")
    p.add_argument("--policy-arg", action="append", default=[], metavar="K=V",
                   help="honest mode: a policy parameter (repeatable)")
    p.add_argument("--players", type=int, default=1,
                   help="1 (solo, the default) or 2 (the two-player cooperative game)")
    p.add_argument("--deals", type=int, required=True, help="number of deals N")
    p.add_argument("--seed", type=int, default=0, help="first seed S (deals S .. S+N-1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--db", default="onirim-results.sqlite",
                   help="SQLite results file (default ./onirim-results.sqlite)")
    p.add_argument("--budget-nodes", type=int, default=None,
                   help="clairvoyant: node budget per deal (default: the solver's default)")
    p.add_argument("--budget-s", type=float, default=None,
                   help="clairvoyant: extra wall-clock budget per deal, seconds "
                        "(not reproducible)")
    p.add_argument("--tt-mb", type=float, default=None,
                   help="clairvoyant: transposition table size per worker, MB")
    p.add_argument("--cluster", default=None, metavar="local:N|ADDRESS",
                   help="play on a Dask cluster: local:N starts N local worker processes, "
                        "ADDRESS connects to a scheduler (needs the [cluster] extra)")
    p.add_argument("--chunk", type=int, default=None,
                   help="with --cluster: seeds per task (default: about 2 s of work)")
    p.add_argument("--json", action="store_true", help="print the SPEC JSON summary")


def check_args(args):
    if args.mode not in MODES:
        raise UsageError(f"--mode: unknown mode {args.mode!r} (choose from: {', '.join(MODES)})")
    if getattr(args, "players", 1) not in (1, 2):
        raise UsageError(f"--players must be 1 or 2, not {args.players}")
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals must be from 1 to {MAX_DEALS:,}, not {args.deals} "
                         "(run larger jobs in batches of seeds on one --db)")
    if args.seed < 0 or args.seed + args.deals - 1 > MAX_SEED:
        raise UsageError("--seed: seeds must lie in 0 .. 2**64-1")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be from 1 to {MAX_JOBS}, not {args.jobs}")
    if not str(args.db).strip():
        raise UsageError("--db: needs a file name (an empty path is not a database)")
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        from solver.cluster import parse_cluster, require_dask
        if args.jobs != 1:
            raise UsageError("--jobs: give either --jobs or --cluster, not both")
        parse_cluster(cluster)
        require_dask()
    if getattr(args, "chunk", None) is not None:
        if cluster is None:
            raise UsageError("--chunk: applies to --cluster only")
        if not 1 <= args.chunk <= 100_000:
            raise UsageError(f"--chunk must be from 1 to 100,000, not {args.chunk}")
    if args.mode == "honest":
        if not args.policy:
            raise UsageError("--policy: --mode honest needs a policy (for example "
                             "--policy greedy)")
        for flag, value in (("--budget-nodes", args.budget_nodes),
                            ("--budget-s", args.budget_s), ("--tt-mb", args.tt_mb)):
            if value is not None:
                raise UsageError(f"{flag}: applies to --mode clairvoyant only")
        return
    if args.policy is not None or args.policy_arg:
        raise UsageError("--policy: applies to --mode honest only")
    check_nodes(args.budget_nodes, "--budget-nodes")
    check_seconds(args.budget_s, "--budget-s")
    if args.tt_mb is not None and not 0.01 <= args.tt_mb <= MAX_TT_MB:
        raise UsageError(f"--tt-mb must lie in 0.01 .. {MAX_TT_MB}, not {args.tt_mb}")


def check_memory(tt_mb: float, jobs: int, avail: int | None = None) -> None:
    """Refuse tables that do not fit in the memory available now (one line, exit 2),
    instead of a numpy allocation traceback in every worker."""
    avail = available_memory() if avail is None else avail
    if avail is None:
        return
    need = tt_mb * jobs * 1024 * 1024
    if need > MEMORY_SHARE * avail:
        raise UsageError(
            f"--tt-mb: {tt_mb:g} MB per worker x {jobs} worker(s) = {need / 2**20:,.0f} MB "
            f"does not fit in the {avail / 2**20:,.0f} MB of memory available "
            f"(at most {MEMORY_SHARE:.0%} of it may be used)")


def _open_db(path):
    from solver.db import DBError, ResultsDB
    from solver.memo_file import path_problem
    problem = path_problem(path)
    if problem is not None:
        raise UsageError(f"--db: {problem}")
    try:
        db = ResultsDB(path)
        with db.con:
            db.con.execute("CREATE TABLE IF NOT EXISTS _probe (x INTEGER)")
            db.con.execute("DROP TABLE _probe")
    except DBError as e:
        raise UsageError(f"--db: {e}") from None
    except Exception as e:  # sqlite3.Error on a read-only folder or file
        raise UsageError(f"--db: cannot write database {path!r}: {e}") from None
    return db


def resume_command(args) -> str:
    """The command line that resumes this run."""
    parts = ["onirim", "winrate", "--mode", args.mode]
    if getattr(args, "players", 1) != 1:
        parts += ["--players", str(args.players)]
    if args.mode == "honest":
        parts += ["--policy", args.policy]
        for a in args.policy_arg:
            parts += ["--policy-arg", a]
    parts += ["--deals", str(args.deals), "--seed", str(args.seed)]
    if args.jobs != 1:
        parts += ["--jobs", str(args.jobs)]
    if getattr(args, "cluster", None) is not None:
        parts += ["--cluster", args.cluster]
        if args.chunk is not None:
            parts += ["--chunk", str(args.chunk)]
    parts += ["--db", args.db]
    for flag, value in (("--budget-nodes", args.budget_nodes), ("--budget-s", args.budget_s),
                        ("--tt-mb", args.tt_mb)):
        if value is not None:
            parts += [flag, repr(value) if isinstance(value, float) else str(value)]
    if args.json:
        parts.append("--json")
    return " ".join(shlex.quote(p) for p in parts)


class _CompileNotice:
    """Says on stderr that the kernels are being compiled when warming them up takes longer
    than ``COMPILE_NOTICE_S`` (a cold numba cache), and how long it took."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.said = False
        self.timer = None

    def _say(self):
        self.said = True
        print(f"onirim: compiling the numba kernels, once per install ({COMPILE_ESTIMATE}; "
              "later runs load them from the cache in about a second) ...",
              file=sys.stderr, flush=True)

    def __enter__(self):
        self.t0 = time.perf_counter()
        if not self.quiet:
            self.timer = threading.Timer(COMPILE_NOTICE_S, self._say)
            self.timer.daemon = True
            self.timer.start()
        return self

    def __exit__(self, *exc):
        if self.timer is not None:
            self.timer.cancel()
        self.seconds = time.perf_counter() - self.t0
        if self.said and exc[0] is None:
            print(f"onirim: kernels ready ({self.seconds:.0f} s)", file=sys.stderr, flush=True)
        return False


def _check_policy_players(policy, players: int, seed: int) -> None:
    """Refuse (one line, exit 2) a policy that cannot play ``players``-player games, before
    any deal: by its ``PLAYERS`` (the player counts it declares), else by letting it decide
    the first decision of the first deal (a solo policy refuses a two-player view)."""
    declared = getattr(policy, "PLAYERS", None)
    if declared is not None:
        if players not in declared:
            raise UsageError(f"--policy: {policy.name} plays "
                             f"{' and '.join(map(str, declared))}-player games only, not "
                             f"--players {players}")
        return
    if players == 1:
        return
    from engine.game import Game
    from engine.view import player_view
    from solver.honest import DEFAULT_POLICY_SEED, decision_stream
    try:
        view = player_view(Game(players).new_initial_state(seed))
        a = policy.act(view, decision_stream(DEFAULT_POLICY_SEED, 0))
        if a not in view.legal_actions():
            raise ValueError(f"it chose the illegal action {a!r}")
    except Exception as e:
        raise UsageError(f"--policy: {policy.name} cannot play {players}-player games "
                         f"({e})") from None


def _sigterm_as_interrupt(signum, frame):
    raise KeyboardInterrupt


def run(args) -> int:
    check_args(args)
    from solver import runner

    seeds = range(args.seed, args.seed + args.deals)
    policy = None
    cluster = getattr(args, "cluster", None)
    ckind, ctarget = (None, None)
    if cluster is not None:
        from solver.cluster import parse_cluster
        ckind, ctarget = parse_cluster(cluster)
    players = getattr(args, "players", 1)
    if args.mode == "clairvoyant":
        if players == 2:
            from solver import duo_search as CV
        else:
            from solver import clairvoyant as CV
        from solver.db import unknown_key
        budget = CV.DEFAULT_NODE_BUDGET if args.budget_nodes is None else args.budget_nodes
        tt_mb = CV.DEFAULT_TT_MB if args.tt_mb is None else args.tt_mb
        if ckind != "address":
            check_memory(tt_mb, ctarget if ckind == "local" else args.jobs)
        job = runner.clairvoyant_job(budget, args.budget_s, tt_mb, players)
        # the solver version is part of the UNKNOWN key (solo "cv..", two-player "duo-cv1");
        # the player count is a column of the key of every row (solver.db)
        settings = {"budget_nodes": budget, "budget_s": args.budget_s, "tt_mb": tt_mb,
                    "solver": CV.SOLVER_VERSION}
    else:
        from solver.api import config_hash, make_policy, parse_policy_args
        try:
            policy = make_policy(args.policy, **parse_policy_args(args.policy_arg))
        except Exception as e:   # PolicyError, or a policy that refuses its arguments
            raise UsageError(f"--policy: {e}") from None
        from solver.honest import DEFAULT_POLICY_SEED, seeded_hash
        pseed = DEFAULT_POLICY_SEED if args.policy_seed is None else args.policy_seed
        if not 0 <= pseed < 1 << 63:
            raise UsageError(f"--policy-seed: {pseed} is not a whole number from 0 to 2^63-1")
        args.policy_seed = pseed
        phash = seeded_hash(config_hash(policy), pseed)
        _check_policy_players(policy, players, args.seed)
        job = runner.honest_job(policy.name, policy.config, players, pseed)
    db = _open_db(args.db)
    if args.mode == "clairvoyant":
        ukey = unknown_key(settings)
        stored = db.done(args.mode, ukey, seeds, players)
    else:
        db.add_policy(phash, policy.name, policy.config)
        stored = db.honest_done(phash, seeds, players)
    n_stored_before = len(stored)
    todo = [s for s in seeds if s not in stored]
    # interleave the work (stride) so that every worker sees a similar mix of seeds
    if args.jobs > 1:
        todo = [s for k in range(args.jobs) for s in todo[k::args.jobs]]
    results = dict(stored)

    show = (not args.json) and sys.stderr.isatty()
    bar = None
    t0 = time.perf_counter()
    warm_s = 0.0
    old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
    try:
        if todo:
            # compile or load the kernels before any deal is timed; forked workers inherit them
            with _CompileNotice(quiet=ckind == "address") as notice:
                try:
                    if ckind == "address":
                        pass    # remote workers warm up on their first task
                    elif args.jobs == 1 and ckind is None:
                        runner.get_worker(job)
                    else:       # forked workers inherit the code, local ones load the cache
                        runner.warm_kernels(job)
                except MemoryError:
                    raise UsageError(f"--tt-mb: no memory for a {job.get('tt_mb')} MB table")
            warm_s = notice.seconds
            if show:
                from tqdm import tqdm
                tqdm.monitor_interval = 0   # no monitor thread (the pool may fork)
                bar = tqdm(total=len(todo), unit="deal", file=sys.stderr, dynamic_ncols=True)

        def on_rows(rows):
            if args.mode == "clairvoyant":
                db.add_many(args.mode, settings, [(r["seed"], r["result"], r["nodes"],
                                                   r["seconds"], r["certificate"])
                                                  for r in rows], players)
                for r in rows:
                    results[r["seed"]] = (r["result"], r["nodes"], r["seconds"])
            else:
                db.add_honest(phash, rows, players)
                for r in rows:
                    results[r["seed"]] = {k: r[k] for k in ("won", "doors", "decisions",
                                                            "seconds")}
            if bar is not None:
                wins, dec = _running(results, args.mode)
                bar.set_postfix_str(f"win {wins}/{dec}" + (f" = {wins / dec:.3f}" if dec
                                                           else ""), refresh=False)
                bar.update(len(rows))

        if cluster is None:
            runner.run_local(job, todo, args.jobs, on_rows)
        elif todo:
            from solver.cluster import ClusterRun
            with ClusterRun(cluster) as cl:
                cl.run(job, todo, on_rows, chunk=args.chunk)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
            bar = None
        # count what the file holds (a chunk may be committed but not yet in ``results``)
        try:
            n = len(db.done(args.mode, ukey, seeds, players) if args.mode == "clairvoyant"
                    else db.honest_done(phash, seeds, players))
        except Exception:
            n = len(results)
        print(f"onirim: interrupted: {n} of {args.deals} deals are stored in {args.db}; "
              f"resume with: {resume_command(args)}", file=sys.stderr, flush=True)
        return 130
    finally:
        signal.signal(signal.SIGTERM, old_term)
        if bar is not None:
            bar.close()
        db.close()
    wall = time.perf_counter() - t0
    if args.mode == "clairvoyant":
        return _report_clairvoyant(args, seeds, results, n_stored_before, wall, warm_s, budget)
    return _report_honest(args, seeds, results, n_stored_before, wall, warm_s, policy, phash)


def _running(results, mode):
    if mode == "clairvoyant":
        wins = sum(1 for r in results.values() if r[0] == "WIN")
        dec = sum(1 for r in results.values() if r[0] != "UNKNOWN")
    else:
        wins = sum(1 for r in results.values() if r["won"])
        dec = len(results)
    return wins, dec


def _summary(mode, deals, w, lo, un, players=1) -> dict:
    from solver.stats import summarize
    summ = summarize(w, lo, un)
    out = {"mode": mode, "deals": deals, "wins": w, "losses": lo, "unknown": un,
           "win_rate": summ["win_rate"], "ci95": summ["ci95"],
           "ci95_with_unknown": summ["ci95_with_unknown"]}
    if players != 1:        # the solo summary keeps exactly the keys of SPEC section 6
        out = {"mode": mode, "players": players, **{k: v for k, v in out.items()
                                                    if k != "mode"}}
    return out


def _rate_text(out) -> str:
    if out["win_rate"] is None:
        return (f"  win rate: none (no deal decided: all {out['unknown']} unknown); "
                f"with unknown [{out['ci95_with_unknown'][0]:.4f}, "
                f"{out['ci95_with_unknown'][1]:.4f}]")
    return (f"  win rate {out['win_rate']:.4f}  95% CI [{out['ci95'][0]:.4f}, "
            f"{out['ci95'][1]:.4f}]  with unknown [{out['ci95_with_unknown'][0]:.4f}, "
            f"{out['ci95_with_unknown'][1]:.4f}]")


def _report_clairvoyant(args, seeds, results, n_before, wall, warm_s, budget) -> int:
    res = [results[s] for s in seeds]
    w = sum(1 for r in res if r[0] == "WIN")
    lo = sum(1 for r in res if r[0] == "LOSS")
    un = sum(1 for r in res if r[0] == "UNKNOWN")
    out = _summary(args.mode, args.deals, w, lo, un, getattr(args, "players", 1))
    out["seconds"] = round(sum(r[2] for r in res), 6)
    out["nodes"] = int(sum(r[1] for r in res))
    if args.json:
        print(json.dumps(out))
        return 0
    secs = sorted(r[2] for r in res)
    med = secs[len(secs) // 2]
    pl = " (two-player)" if getattr(args, "players", 1) == 2 else ""
    print(f"mode {args.mode}{pl}: deals {args.seed}..{args.seed + args.deals - 1} "
          f"({args.deals} deals, {n_before} already stored in {args.db})")
    print(f"  wins {w}  losses {lo}  unknown {un}")
    print(_rate_text(out))
    print(f"  nodes {out['nodes']}  solver seconds {out['seconds']:.2f} (median "
          f"{med * 1000:.1f} ms/deal)  wall {wall:.2f} s (kernels {warm_s:.1f} s)  "
          f"budget {budget} nodes" + (f", {args.budget_s} s" if args.budget_s else ""))
    return 0


def _report_honest(args, seeds, results, n_before, wall, warm_s, policy, phash) -> int:
    res = [results[s] for s in seeds]
    w = sum(1 for r in res if r["won"])
    out = _summary(args.mode, args.deals, w, len(res) - w, 0, getattr(args, "players", 1))
    secs = sum(r["seconds"] for r in res)
    decisions = sum(r["decisions"] for r in res)
    out["seconds"] = round(secs, 6)
    out["nodes"] = None     # a policy counts no search nodes
    out["policy"] = policy.name
    out["policy_config"] = dict(policy.config)
    out["policy_hash"] = phash
    out["policy_seed"] = args.policy_seed
    out["decisions"] = decisions
    out["seconds_per_decision"] = secs / decisions if decisions else None
    out["mean_doors"] = sum(r["doors"] for r in res) / len(res)
    if args.json:
        print(json.dumps(out))
        return 0
    cfg = ", ".join(f"{k}={v}" for k, v in sorted(policy.config.items()))
    pl = ", two-player" if getattr(args, "players", 1) == 2 else ""
    print(f"mode honest{pl}, policy {policy.name}" + (f" ({cfg})" if cfg else "")
          + f" [{phash}]: deals {args.seed}..{args.seed + args.deals - 1} "
          f"({args.deals} deals, {n_before} already stored in {args.db})")
    print(f"  wins {w}  losses {len(res) - w}  mean Doors {out['mean_doors']:.2f}")
    print(_rate_text(out))
    spd = out["seconds_per_decision"]
    print(f"  decisions {decisions}  policy seconds {secs:.2f} "
          f"({(spd or 0) * 1000:.3f} ms/decision)  wall {wall:.2f} s (warm-up {warm_s:.1f} s)")
    return 0
