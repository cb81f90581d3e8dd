"""``onirim winrate``: play or solve deals S .. S+N-1 and report the win rate (docs/WINRATE.md).

* ``--mode clairvoyant`` solves each deal with perfect information: the clairvoyant solver
  registered for the player count (``solver.api.deal_solver_entry``, ``solve_deal``).
* ``--mode honest --policy NAME [--policy-arg k=v ...]`` plays each deal with a registered
  policy that sees only the player's view (``solver.honest``).
* ``--players 2`` does either for the two-player cooperative game: the clairvoyant team is
  ``solver.duo.search.DuoSolver`` (version ``duo-cv1``), an honest policy plays both seats,
  each from its own view (``engine.view.player_view``).  Results are stored under the player
  count, so a solo row is never read as a two-player one or the reverse.

Results go to SQLite (``solver.runs.db``), one row per deal, committed as each deal finishes; a rerun
skips stored deals, so an interrupted run (Ctrl-C, kill -9) resumes where it stopped.  A decided
clairvoyant deal is reused by every later run whatever its table size, jobs or budget; an
UNKNOWN one only by a run with the same budget.  An honest game is reused by the same policy
configuration (its hash).  The deals are played by ``solver.runs.runner``; every deal's result is
the same for any ``--jobs`` (with a node budget; ``--budget-s`` is not reproducible).
``docs/WINRATE.md`` has the details.
"""
from __future__ import annotations

import itertools
import json
import math
import shlex
import signal
import sys
import threading
import time

from engine.errors import OnirimError
from onirim.cli import UsageError, policy_from_args
from solver.budgets import available_memory, check_nodes, check_seconds

MODES = ("clairvoyant", "honest")
MAX_SEED = (1 << 64) - 1
MAX_DEALS = 100_000_000
CHUNK = 10_000             # seeds looked up and handed out at once (the memory of a run)
MEDIAN_STEP = 1.01         # the median solve time is kept to within 1%
MAX_JOBS = 256
MAX_TT_MB = 65536
MEMORY_SHARE = 0.8         # the tables of all workers may take this share of the free memory
COMPILE_NOTICE_S = 2.0     # say "compiling" when warming the kernels takes longer than this


def _policy_names() -> str:
    try:
        from solver.api import policy_entries
        return ", ".join(policy_entries())
    except Exception as e:  # pragma: no cover - a broken policy module: say so in the help
        return f"(the registry could not be read: {e})"


def _default_policy_text() -> str:
    """The solo default policy and its arguments, as the help names them."""
    try:
        from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
        return " ".join([DEFAULT_HONEST_POLICY]
                        + [f"{k}={v}" for k, v in DEFAULT_HONEST_ARGS.items()])
    except Exception as e:  # pragma: no cover - a broken policy module: say so in the help
        return f"(the default could not be read: {e})"


def add_arguments(p) -> None:
    from solver.api import deal_solver_entry
    solo, duo = deal_solver_entry(1), deal_solver_entry(2)
    p.add_argument("--mode", choices=MODES, default="clairvoyant",
                   help="clairvoyant (perfect information: the deal's seed is known) or honest "
                        "(a policy plays with only what the player may know); default "
                        "clairvoyant")
    p.add_argument("--policy", default=None, metavar="NAME",
                   help="honest mode: the registered policy to play, one of "
                        f"{_policy_names()} (docs/POLICIES.md); default for solo deals "
                        f"{_default_policy_text()}, for two-player deals duo-kcut-switch: the "
                        "strongest measured at 10 ms of CPU per decision or less (with "
                        "--talk open: duo-open-switch)")
    p.add_argument("--policy-seed", type=int, default=None, metavar="P",
                   help="honest mode: the seed of the policy's random numbers, independent of "
                        "the deal (default 1; recorded in the JSON, so games replay)")
    p.add_argument("--policy-arg", action="append", default=[], metavar="K=V",
                   help="honest mode: a policy parameter (repeatable; default: the policy's "
                        "own defaults)")
    p.add_argument("--players", type=int, choices=(1, 2), default=1,
                   help="1 (solo) or 2 (the two-player cooperative game); default 1")
    p.add_argument("--talk", choices=("none", "open"), default=None,
                   help="honest two-player games: the mode the players chose before the "
                        "game (docs/DUO.md): none, the silent game (default: a player knows "
                        "of its partner's hand only the cards it saw it take), or open, hands "
                        "face up (the deck order stays unknown).  Part of the results key")
    p.add_argument("--deals", type=int, required=True,
                   help=f"number of deals N, 1 to {MAX_DEALS:,} (required)")
    p.add_argument("--seed", type=int, default=0,
                   help="first seed S (deals S .. S+N-1, all within 0 .. 2**64-1); default 0")
    p.add_argument("--jobs", type=int, default=1,
                   help=f"worker processes, 1 to {MAX_JOBS}; default 1")
    p.add_argument("--db", default="onirim-results.sqlite",
                   help="SQLite results file; default ./onirim-results.sqlite, created if "
                        "missing (stderr says so).  Read-only when every deal asked is "
                        "stored; otherwise the run writes to it")
    p.add_argument("--budget-nodes", type=int, default=None,
                   help="clairvoyant: node budget per deal (default "
                        f"{solo.budget_nodes:,} solo, {duo.budget_nodes:,} "
                        "two-player)")
    p.add_argument("--budget-s", type=float, default=None,
                   help="clairvoyant: extra wall-clock budget per deal, seconds "
                        "(default none; not reproducible)")
    p.add_argument("--tt-mb", type=float, default=None,
                   help="clairvoyant: transposition table size per worker, MB (default "
                        f"{solo.tt_mb:g} solo, {duo.tt_mb:g} two-player)")
    p.add_argument("--cluster", default=None, metavar="local:N|ADDRESS",
                   help="play on a Dask cluster: local:N starts N local worker processes, "
                        "ADDRESS connects to a scheduler (needs the [cluster] extra); default "
                        "none: local processes (--jobs)")
    p.add_argument("--chunk", type=int, default=None,
                   help="with --cluster: seeds per task, 1 to 100,000 (default: about 2 s of "
                        "work)")
    p.add_argument("--json", action="store_true",
                   help="print the JSON summary (docs/WINRATE.md) instead of the text")


def check_args(args):
    if args.mode not in MODES:
        raise UsageError(f"--mode: unknown mode {args.mode!r} (choose from: {', '.join(MODES)})")
    if getattr(args, "players", 1) not in (1, 2):
        raise UsageError(f"--players: must be 1 or 2, not {args.players}")
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals: must be from 1 to {MAX_DEALS:,}, not {args.deals} "
                         "(run larger jobs in batches of seeds on one --db)")
    if not 0 <= args.seed <= MAX_SEED:
        raise UsageError(f"--seed: must be from 0 to 2**64-1, not {args.seed}")
    if args.seed + args.deals - 1 > MAX_SEED:
        raise UsageError(f"--deals: the last deal S+N-1 = {args.seed + args.deals - 1} is past "
                         f"the last seed 2**64-1; from --seed {args.seed} at most "
                         f"{MAX_SEED - args.seed + 1} deals")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs: must be from 1 to {MAX_JOBS}, not {args.jobs}")
    if not str(args.db).strip():
        raise UsageError("--db: needs a file name (an empty path is not a database)")
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        from solver.runs.cluster import parse_cluster, require_dask
        if args.jobs != 1:
            raise UsageError("--jobs: give either --jobs or --cluster, not both")
        parse_cluster(cluster)
        require_dask()
    if getattr(args, "chunk", None) is not None:
        if cluster is None:
            raise UsageError("--chunk: applies to --cluster only")
        if not 1 <= args.chunk <= 100_000:
            raise UsageError(f"--chunk: must be from 1 to 100,000, not {args.chunk}")
    talk = getattr(args, "talk", None)
    if talk is not None and (args.mode != "honest" or getattr(args, "players", 1) != 2):
        raise UsageError(f"--talk {talk}: applies to honest two-player games only "
                         "(--mode honest --players 2)")
    if args.mode == "honest":
        args.policy_default = False
        if not args.policy:
            if getattr(args, "players", 1) == 2:
                from solver.api import default_policy_name
                default, preset = default_policy_name(2, talk or "none"), {}
            else:
                from solver.policies import DEFAULT_HONEST_ARGS as preset
                from solver.policies import DEFAULT_HONEST_POLICY as default
            args.policy, args.policy_default = default, True
            # the default's own arguments, then the user's (a user's key replaces a preset
            # one), so that the stored command and its resume line name them all
            given = {str(a).partition("=")[0].strip() for a in args.policy_arg or ()}
            args.policy_arg = [f"{k}={v}" for k, v in preset.items() if k not in given] \
                + list(args.policy_arg or ())
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
        raise UsageError(f"--tt-mb: must lie in 0.01 .. {MAX_TT_MB}, not {args.tt_mb}")


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


def _open_db(path, need: str | None = None):
    """``path`` open for writing (created if missing).  ``need``: why this run must write,
    said when the file cannot be written (``onirim.results_file``)."""
    from onirim.results_file import open_for_write
    from solver.runs.db import ResultsDB
    return open_for_write(path, ResultsDB, need)


def resume_command(args) -> str:
    """The command line that resumes this run."""
    parts = ["onirim", "winrate", "--mode", args.mode]
    if getattr(args, "players", 1) != 1:
        parts += ["--players", str(args.players)]
    if args.mode == "honest":
        parts += ["--policy", args.policy]
        for a in args.policy_arg:
            parts += ["--policy-arg", a]
        if getattr(args, "talk", None) is not None:
            parts += ["--talk", args.talk]
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
    """Says on stderr that the kernels are being compiled, before the wait when numba's cache
    tells that ``family`` is not compiled for this tree (``onirim.precompile.family_ready``),
    else when warming up takes longer than ``COMPILE_NOTICE_S``; with the family's measured
    compile time, and afterwards how long it took."""

    def __init__(self, quiet: bool = False, family: str = "clairvoyant"):
        self.quiet = quiet
        self.family = family
        self.said = False
        self.timer = None

    def _say(self, line: str | None = None):
        from onirim.precompile import FAMILIES
        self.said = True
        print(line or (f"onirim: compiling the numba kernels of the {self.family} family, once "
                       f"per install (about {FAMILIES[self.family][1]} s of CPU measured, "
                       "longer on a busy machine; 'python -m onirim.precompile' compiles "
                       "every family ahead) ..."), file=sys.stderr, flush=True)

    def __enter__(self):
        self.t0 = time.perf_counter()
        if not self.quiet:
            from onirim.precompile import compile_notice, family_ready
            ready = family_ready(self.family) if self.family != "honest" else None
            if ready is False:
                self._say(compile_notice(self.family))
            elif ready is None:      # cannot tell (or a policy that may compile nothing)
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
    any deal: by its ``players`` (the player counts it declares), else by letting it decide
    the first decision of the first deal (a solo policy refuses a two-player view)."""
    declared = policy.players
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


class _Tally:
    """Running totals of a run, deal by deal, in bounded memory (no per-deal list): counts,
    sums, a histogram of solve times for the median (``MEDIAN_STEP`` apart: the median is
    exact to within that ratio), and, for clairvoyant rows found stored, the budgets that
    produced them."""

    def __init__(self, mode: str):
        self.mode = mode
        self.n = self.stored = self.wins = self.losses = self.unknown = 0
        self.nodes = 0
        self.seconds = 0.0
        self.doors = self.decisions = 0
        # honest games' CPU time, over the games that have it (a game stored before
        # results files kept it has none): seconds, their decisions, and the games without
        self.cpu_seconds = 0.0
        self.cpu_decisions = self.cpu_missing = 0
        self.hist: dict = {}
        self.stored_budgets: dict = {}

    def _add(self, won, lost, seconds, nodes=0, doors=0, decisions=0) -> None:
        self.n += 1
        self.wins += won
        self.losses += lost
        self.unknown += not (won or lost)
        self.seconds += seconds
        self.nodes += int(nodes)
        self.doors += int(doors)
        self.decisions += int(decisions)
        b = math.floor(math.log(max(seconds, 1e-9)) / math.log(MEDIAN_STEP))
        self.hist[b] = self.hist.get(b, 0) + 1

    def add_clairvoyant(self, result, nodes, seconds, settings=None) -> None:
        """One deal's row; ``settings`` (the row's settings JSON) for a row found stored."""
        self._add(result == "WIN", result == "LOSS", seconds, nodes)
        if settings is not None:
            self.stored += 1
            b = _budget_text(settings)
            self.stored_budgets[b] = self.stored_budgets.get(b, 0) + 1

    def add_honest(self, r: dict, stored: bool = False) -> None:
        self._add(bool(r["won"]), not r["won"], r["seconds"], 0, r["doors"], r["decisions"])
        self.stored += stored
        if r.get("cpu_seconds") is None:
            self.cpu_missing += 1
        else:
            self.cpu_seconds += float(r["cpu_seconds"])
            self.cpu_decisions += int(r["decisions"])

    def median_seconds(self) -> float:
        """The upper median of the solve times, to within ``MEDIAN_STEP``."""
        need, seen = self.n // 2 + 1, 0
        for b in sorted(self.hist):
            seen += self.hist[b]
            if seen >= need:
                return MEDIAN_STEP ** (b + 0.5)
        return 0.0


def _budget_text(settings) -> str:
    """The budget in a stored row's settings (JSON text), as the report prints it."""
    try:
        d = json.loads(settings) if isinstance(settings, str) else dict(settings)
    except (ValueError, TypeError):
        d = {}
    if not isinstance(d, dict) or d.get("budget_nodes") is None:
        return "unrecorded"
    return f"{d['budget_nodes']} nodes" + (f", {d['budget_s']} s" if d.get("budget_s") else "")


def _count_stored(db, args, key, seeds, players) -> int:
    if args.mode == "clairvoyant":
        return db.count_done(args.mode, key, seeds, players)
    return db.count_honest(key, seeds, players)


def _open_for_run(args, key, seeds, players):
    """The results file for this run, how many of its deals are stored already, and whether
    it is open for writing.

    A file whose asked deals are all stored is opened read-only (``solver.runs.db.ResultsDB``,
    ``readonly``): nothing is written, so an archive or a read-only mount works.  Otherwise
    the run must write: the file is opened for writing, and a file that cannot be written is
    refused, saying that this run needs write access and why."""
    from onirim.results_file import must_write, open_readonly
    from solver.runs.db import ResultsDB
    stored = 0
    ro = open_readonly(args.db, ResultsDB, require_results=False)
    if ro is not None:
        if ro.version == 3 and ro.has_results and ro.honest_players:
            stored = _count_stored(ro, args, key, seeds, players)
            if stored == args.deals:
                return ro, stored, False
        ro.close()
    db = _open_db(args.db, must_write(args.deals - stored, args.deals))
    if stored == 0:
        stored = _count_stored(db, args, key, seeds, players)
    return db, stored, True


def _say_new_file(args, db) -> None:
    """A results file made by this run is announced once deals are about to be played (no
    silent ``./onirim-results.sqlite``); a run refused before that removes it again."""
    from onirim.results_file import say_new_file
    say_new_file(db, args.db, quiet=args.json)


def _remove_new_file(db) -> None:
    from onirim.results_file import remove_new_file
    remove_new_file(db)


def _work(args, db, seeds, players, key, tally):
    """The seeds still to play, lazily: ``CHUNK`` seeds at a time are looked up in the file,
    the stored ones are counted into ``tally`` and the others yielded.  At most one chunk of
    seeds is held at once, whatever ``--deals``."""
    for lo in range(seeds.start, seeds.stop, CHUNK):
        chunk = range(lo, min(lo + CHUNK, seeds.stop))
        if args.mode == "clairvoyant":
            stored = db.done(args.mode, key, chunk, players, with_settings=True)
            for r in stored.values():
                tally.add_clairvoyant(*r)
        else:
            stored = db.honest_done(key, chunk, players)
            for r in stored.values():
                tally.add_honest(r, stored=True)
        todo = [s for s in chunk if s not in stored]
        # interleave the work (stride) so that every worker sees a similar mix of seeds
        if args.jobs > 1:
            todo = [s for k in range(args.jobs) for s in todo[k::args.jobs]]
        yield from todo


def run(args) -> int:
    check_args(args)
    from solver.runs import runner

    seeds = range(args.seed, args.seed + args.deals)
    policy = None
    cluster = getattr(args, "cluster", None)
    ckind, ctarget = (None, None)
    if cluster is not None:
        from solver.runs.cluster import parse_cluster
        ckind, ctarget = parse_cluster(cluster)
    players = getattr(args, "players", 1)
    if args.mode == "clairvoyant":
        from solver.api import deal_solver_entry
        from solver.runs.db import unknown_key
        entry = deal_solver_entry(players)      # the registered clairvoyant solver
        budget = entry.budget_nodes if args.budget_nodes is None else args.budget_nodes
        tt_mb = entry.tt_mb if args.tt_mb is None else args.tt_mb
        if ckind != "address":
            check_memory(tt_mb, ctarget if ckind == "local" else args.jobs)
        job = runner.clairvoyant_job(budget, args.budget_s, tt_mb, players)
        # the solver version is part of the UNKNOWN key (solo "cv..", two-player "duo-cv1");
        # the player count is a column of the key of every row (solver.runs.db)
        settings = {"budget_nodes": budget, "budget_s": args.budget_s, "tt_mb": tt_mb,
                    "solver": entry.version}
        key = unknown_key(settings)
    else:
        from solver.api import config_hash
        policy = policy_from_args(args.policy, args.policy_arg)
        from solver.honest import DEFAULT_POLICY_SEED, seeded_hash
        pseed = DEFAULT_POLICY_SEED if args.policy_seed is None else args.policy_seed
        if not 0 <= pseed < 1 << 63:
            raise UsageError(f"--policy-seed: {pseed} is not a whole number from 0 to 2^63-1")
        args.policy_seed = pseed
        talk = talk_of(args)
        key = phash = seeded_hash(config_hash(policy, talk), pseed)
        _check_policy_players(policy, players, args.seed)
        job = runner.honest_job(policy.name, policy.config, players, pseed, talk)
    db, n_stored_before, writable = _open_for_run(args, key, seeds, players)
    tally = _Tally(args.mode)

    show = (not args.json) and sys.stderr.isatty()
    bar = None
    t0 = time.perf_counter()
    warm_s = 0.0
    old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
    try:
        if writable and args.mode == "honest":
            db.add_policy(phash, policy.name, policy.config
                          if talk_of(args) == "none" else {**policy.config,
                                                           "talk": talk_of(args)})
        work = _work(args, db, seeds, players, key, tally)
        first = next(work, None)        # looks chunks up until a deal is left to play
        if first is not None:
            # compile or load the kernels before any deal is timed; forked workers inherit them
            # the policy's own family (solver.registry.PolicyBase.family), else the honest
            # one, whose notice waits for a slow warm-up instead of asking numba's cache
            family = ((policy.family or "honest") if args.mode == "honest" else
                      "duo" if players == 2 else "clairvoyant")
            with _CompileNotice(quiet=ckind == "address", family=family) as notice:
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
                bar = tqdm(total=args.deals - n_stored_before, unit="deal", file=sys.stderr,
                           dynamic_ncols=True)

        def on_rows(rows):
            if args.mode == "clairvoyant":
                db.add_many(args.mode, settings, [(r["seed"], r["result"], r["nodes"],
                                                   r["seconds"], r["certificate"])
                                                  for r in rows], players)
                for r in rows:
                    tally.add_clairvoyant(r["result"], r["nodes"], r["seconds"])
            else:
                db.add_honest(phash, rows, players)
                for r in rows:
                    tally.add_honest(r)
            if bar is not None:
                dec = tally.n - tally.unknown
                bar.set_postfix_str(f"win {tally.wins}/{dec}"
                                    + (f" = {tally.wins / dec:.3f}" if dec else ""),
                                    refresh=False)
                bar.update(len(rows))

        if first is not None:
            todo = itertools.chain([first], work)
            if cluster is None:
                _say_new_file(args, db)
                runner.run_local(job, todo, args.jobs, on_rows)
            else:
                from solver.runs.cluster import ClusterRun
                with ClusterRun(cluster) as cl:
                    _say_new_file(args, db)
                    for batch in _batches(todo, CHUNK):
                        cl.run(job, batch, on_rows, chunk=args.chunk)
    except (OnirimError, UsageError):
        # refused before any deal was played: a file this run made goes again
        if tally.n == tally.stored:
            db.close()
            _remove_new_file(db)
        raise
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
            bar = None
        # count what the file holds (a chunk may be committed but not yet tallied)
        try:
            n = _count_stored(db, args, key, seeds, players)
        except Exception:
            n = tally.n
        from onirim.results_file import interrupted_line
        print(interrupted_line(n, args.deals, args.db, resume_command(args)), file=sys.stderr,
              flush=True)
        return 130
    finally:
        signal.signal(signal.SIGTERM, old_term)
        if bar is not None:
            bar.close()
        db.close()
    wall = time.perf_counter() - t0
    if args.mode == "clairvoyant":
        return _report_clairvoyant(args, tally, n_stored_before, wall, warm_s, budget)
    return _report_honest(args, tally, n_stored_before, wall, warm_s, policy, phash)


def talk_of(args) -> str:
    """The two-player game's mode of an honest run (``none``, the silent game, by default)."""
    return getattr(args, "talk", None) or "none"


def talk_text(talk: str) -> str:
    return "open game (hands face up)" if talk == "open" else "silent game"


def _batches(it, size):
    """``it`` in lists of at most ``size`` items, lazily."""
    batch = []
    for x in it:
        batch.append(x)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _summary(mode, deals, w, lo, un, players=1) -> dict:
    from solver.stats import summarize
    summ = summarize(w, lo, un)
    out = {"mode": mode, "deals": deals, "wins": w, "losses": lo, "unknown": un,
           "win_rate": summ["win_rate"], "ci95": summ["ci95"],
           "ci95_with_unknown": summ["ci95_with_unknown"]}
    if players != 1:        # the solo summary keeps exactly the documented keys (docs/WINRATE.md)
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


def _report_clairvoyant(args, t: _Tally, n_before, wall, warm_s, budget) -> int:
    out = _summary(args.mode, args.deals, t.wins, t.losses, t.unknown,
                   getattr(args, "players", 1))
    out["seconds"] = round(t.seconds, 6)
    out["nodes"] = int(t.nodes)
    if args.json:
        print(json.dumps(out))
        return 0
    pl = " (two-player)" if getattr(args, "players", 1) == 2 else ""
    print(f"mode {args.mode}{pl}: deals {args.seed}..{args.seed + args.deals - 1} "
          f"({args.deals} deals, {n_before} already stored in {args.db})")
    print(f"  wins {t.wins}  losses {t.losses}  unknown {t.unknown}")
    print(_rate_text(out))
    print(f"  nodes {out['nodes']}  solver seconds {out['seconds']:.2f} (median "
          f"{t.median_seconds() * 1000:.1f} ms/deal)  wall {wall:.2f} s "
          f"(kernels {warm_s:.1f} s)")
    # the budget of this run, and those that produced the rows found stored
    this = f"{budget} nodes" + (f", {args.budget_s} s" if args.budget_s else "")
    solved = t.n - t.stored
    if not t.stored:
        print(f"  budget {this}")
    else:
        old = "; ".join(f"{b} ({n})" for b, n in sorted(t.stored_budgets.items()))
        print(f"  budget {this} for the {solved} deal(s) solved now; the {t.stored} stored "
              f"deal(s) were solved at budget {old}")
    return 0


def _report_honest(args, t: _Tally, n_before, wall, warm_s, policy, phash) -> int:
    out = _summary(args.mode, args.deals, t.wins, t.n - t.wins, 0, getattr(args, "players", 1))
    secs, decisions = t.seconds, t.decisions
    out["seconds"] = round(secs, 6)
    out["nodes"] = None     # a policy counts no search nodes
    out["policy"] = policy.name
    out["policy_config"] = dict(policy.config)
    out["policy_hash"] = phash
    out["policy_seed"] = args.policy_seed
    out["policy_default"] = bool(getattr(args, "policy_default", False))
    if getattr(args, "players", 1) == 2:
        out["talk"] = talk_of(args)
    out["decisions"] = decisions
    out["seconds_per_decision"] = secs / decisions if decisions else None
    # CPU time of the process over each game (what the policies' costs are measured in);
    # games stored before results files kept it are left out of these two and counted
    out["cpu_seconds"] = round(t.cpu_seconds, 6)
    out["cpu_seconds_per_decision"] = (t.cpu_seconds / t.cpu_decisions if t.cpu_decisions
                                       else None)
    out["deals_without_cpu"] = t.cpu_missing
    out["mean_doors"] = t.doors / t.n
    if args.json:
        print(json.dumps(out))
        return 0
    cfg = ", ".join(f"{k}={v}" for k, v in sorted(policy.config.items()))
    pl = (f", two-player, {talk_text(talk_of(args))}" if getattr(args, "players", 1) == 2
          else "")
    dflt = ("" if not getattr(args, "policy_default", False) else
            " (the open game's default: duo-krollout with the open-hands end-game switch)"
            if talk_of(args) == "open" else
            " (the default: the strongest policy measured at 10 ms of CPU per decision or "
            "less)")
    print(f"mode honest{pl}, policy {policy.name}" + (f" ({cfg})" if cfg else "") + dflt
          + f" [{phash}]: deals {args.seed}..{args.seed + args.deals - 1} "
          f"({args.deals} deals, {n_before} already stored in {args.db})")
    print(f"  wins {t.wins}  losses {t.n - t.wins}  mean Doors {out['mean_doors']:.2f}")
    print(_rate_text(out))
    spd = out["seconds_per_decision"]
    print(f"  decisions {decisions}  policy seconds {secs:.2f} "
          f"({(spd or 0) * 1000:.3f} ms/decision)  wall {wall:.2f} s (warm-up {warm_s:.1f} s)")
    cpd = out["cpu_seconds_per_decision"]
    if cpd is not None:
        without = (f", {t.cpu_missing} stored deal(s) without CPU time left out"
                   if t.cpu_missing else "")
        print(f"  policy CPU seconds {t.cpu_seconds:.2f} ({cpd * 1000:.3f} ms of CPU per "
              f"decision{without})")
    return 0
