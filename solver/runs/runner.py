"""Play chunks of deals for ``onirim winrate``: the unit of work of every backend.

A *job* is a plain dict, ``{"mode": "clairvoyant", "budget_nodes": B, "budget_s": T,
"tt_mb": M}`` or ``{"mode": "honest", "policy": NAME, "config": {...}}``; a two-player job has
``"players": 2`` as well (a solo job has no such key, so solo jobs are unchanged), and is
played by the two-player solver (``solver.duo.search.DuoSolver``) or the two-player game.
:func:`play_chunk` ``(job, seeds)`` plays the deals ``seeds`` and returns one row (a dict)
per deal.  It is idempotent: a row depends only on the job's mode, its policy configuration
(or, for a clairvoyant deal decided within its node budget, nothing else at all) and the
seed, never on the process, the chunking, the order or a retry.  Only the caller stores
rows.  So any backend that can call ``play_chunk`` on a worker and bring the rows back (a
process pool here, a cluster later) gives the same results.

Each process builds its worker (a solver with its table, or the policy) once per job and warms
it up before its first deal: the numba kernels are compiled or loaded from the cache then, so
compile time never enters a deal's ``seconds``.

:func:`run_local` is the local backend: in this process (``jobs=1``) or in a pool of forked
processes, one seed per task, each row handed to ``on_rows`` as soon as it arrives.
"""
from __future__ import annotations

import contextlib
import json
import signal
import sys
import time

from engine.game import Game


@contextlib.contextmanager
def closing_pool(pool):
    """Run work on a ``multiprocessing`` pool: closed and joined when the work is done; on any
    exception, Ctrl-C included, terminated (no worker goes on with a deal) and joined."""
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()

MODES = ("clairvoyant", "honest")
WARM_SEED = 0            # the deal solved (and thrown away) to warm the clairvoyant kernels
WARM_NODES = 200_000     # its node budget (deal 0 needs about 10,000)
WARM_TAIL = 6            # ... then the position this many decisions before the end of its line

_WORKERS: dict = {}      # job key -> worker, per process
WARM_UPS = 0             # workers built and warmed up in this process (a cluster reports it)


def job_key(job: dict) -> str:
    return json.dumps(job, sort_keys=True, separators=(",", ":"))


def _with_players(job: dict, players: int) -> dict:
    if players not in (1, 2):
        raise ValueError(f"players must be 1 or 2, not {players!r}")
    if players == 2:
        job["players"] = 2
    return job


def job_players(job: dict) -> int:
    return int(job.get("players", 1))


def clairvoyant_job(budget_nodes, budget_s, tt_mb, players: int = 1) -> dict:
    return _with_players({"mode": "clairvoyant", "budget_nodes": budget_nodes,
                          "budget_s": budget_s, "tt_mb": tt_mb}, players)


def honest_job(policy, config: dict, players: int = 1, policy_seed: int | None = None,
               talk: str = "none") -> dict:
    """An honest job; ``talk``: the two-player game's mode, in the job only for the open game
    (a silent job is the job every earlier run had)."""
    from solver.honest import DEFAULT_POLICY_SEED
    seed = DEFAULT_POLICY_SEED if policy_seed is None else int(policy_seed)
    job = _with_players({"mode": "honest", "policy": policy, "config": dict(config),
                         "policy_seed": seed}, players)
    if talk != "none":
        if players != 2:
            raise ValueError(f"talk {talk!r}: a two-player mode")
        job["talk"] = talk
    return job


def job_talk(job: dict) -> str:
    return job.get("talk", "none")


def clock_problem(config) -> str | None:
    """Why a policy configuration may not play stored games, or None.

    A stored game must depend only on the configuration and the seeds (docs/POLICIES.md,
    "Stored games never depend on the clock"): a time budget (``budget_s`` above 0, at any
    depth of the configuration, a base's ``NAME:k=v`` text included) makes a move depend on
    the machine's speed and load, so ``winrate`` and ``bound`` refuse it; ``best`` and
    ``play``'s hint may use one, they store nothing."""
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "budget_s" and _positive(v):
                    return f"budget_s={v}"
                found = walk(v)
                if found:
                    return found
        elif isinstance(x, (list, tuple)):
            for v in x:
                found = walk(v)
                if found:
                    return found
        elif isinstance(x, str) and "budget_s" in x:
            for pair in x.replace(":", ",").split(","):
                k, _, v = pair.partition("=")
                if k.strip() == "budget_s" and _positive(v.strip()):
                    return f"budget_s={v.strip()}"
        return None
    found = walk(config)
    if found is None:
        return None
    return (f"{found}: a time budget makes a stored game depend on the machine's speed; "
            "stored games take node budgets only (budget_s=0)")


def _positive(v) -> bool:
    try:
        return float(v) != 0.0
    except (TypeError, ValueError):
        return True


# ----------------------------------------------------------------------------- workers
class ClairvoyantWorker:
    """One clairvoyant solver (one transposition table) reused for every deal: the solver
    registered for the job's player count (``solver.api.deal_solver_entry``: solo
    ``ClairvoyantSolver``, two-player ``DuoSolver``), each row from ``solver.api.solve_deal``.
    WIN lines are replayed in ``engine/`` by the solver before they are returned."""

    def __init__(self, job: dict):
        from solver.api import deal_solver_entry
        self.job = job
        self.players = job_players(job)
        self.solver = deal_solver_entry(self.players).factory(tt_mb=job["tt_mb"])

    def warm_up(self) -> None:
        (warm_duo if self.players == 2 else warm_clairvoyant)(self.solver)

    def play(self, seed: int) -> dict:
        from solver.api import solve_deal
        return solve_deal(self.solver, seed, self.players, self.job["budget_nodes"],
                          self.job["budget_s"], self.job["tt_mb"])


class HonestWorker:
    """One policy, made once, playing deals under honest information."""

    def __init__(self, job: dict):
        from solver.api import make_policy
        problem = clock_problem(job["config"])
        if problem is not None:
            raise ValueError(f"policy {job['policy']}: {problem}")
        self.job = job
        self.policy = make_policy(job["policy"], **job["config"])

    def warm_up(self) -> None:
        self.policy.warm_up()

    def play(self, seed: int) -> dict:
        from solver.honest.play import play_honest
        players = job_players(self.job)
        g = play_honest(self.policy, seed, players=players,
                        policy_seed=self.job["policy_seed"], talk=job_talk(self.job))
        row = {"seed": seed, "won": bool(g.won), "doors": int(g.doors),
               "decisions": int(g.decisions), "seconds": float(g.seconds),
               "cpu_seconds": float(g.cpu_seconds), "policy_seed": int(g.policy_seed),
               "actions": action_strings(seed, g.actions, players)}
        if players == 2:
            row["talk"] = job_talk(self.job)
        return row


def action_strings(seed: int, actions, players: int = 1) -> list[str]:
    """The engine action numbers of a game of deal ``seed`` as action strings."""
    s = Game(players).new_initial_state(seed)
    out = []
    for a in actions:
        out.append(s.action_to_string(a))
        s.apply_action(a)
    return out


def warm_clairvoyant(solver) -> None:
    """Run every kernel a clairvoyant solve uses once (compiled, or loaded from numba's
    cache): a whole deal (DFS and beams) and a position near its end (the DFS's own win and
    its line)."""
    r = solver.solve_deal(WARM_SEED, budget_nodes=WARM_NODES)
    if r.result == "WIN" and len(r.line) > WARM_TAIL:
        s = Game(1).new_initial_state(WARM_SEED)
        for text in r.line[:-WARM_TAIL]:
            s.apply_action(s.string_to_action(text))
        solver.solve_state(s, budget_nodes=WARM_NODES)


def warm_duo(solver) -> None:
    """Run the two-player kernels once (compiled, or loaded from numba's cache): a whole
    deal, then a position near the end of its line."""
    r = solver.solve_deal(WARM_SEED, budget_nodes=WARM_NODES)
    if r.result == "WIN" and len(r.line) > WARM_TAIL:
        s = Game(2).new_initial_state(WARM_SEED)
        for text in r.line[:-WARM_TAIL]:
            s.apply_action(s.string_to_action(text))
        solver.solve_state(s, budget_nodes=WARM_NODES)


def make_worker(job: dict):
    if job["mode"] == "clairvoyant":
        return ClairvoyantWorker(job)
    if job["mode"] == "honest":
        return HonestWorker(job)
    raise ValueError(f"unknown mode {job['mode']!r}")


def get_worker(job: dict):
    """This process's worker for ``job``, made and warmed up on first use."""
    global WARM_UPS
    k = job_key(job)
    w = _WORKERS.get(k)
    if w is None:
        w = make_worker(job)
        w.warm_up()
        _WORKERS[k] = w
        WARM_UPS += 1
    return w


def play_chunk(job: dict, seeds) -> list[dict]:
    """Play the deals ``seeds`` of ``job``: one row per deal, in the order of ``seeds``."""
    w = get_worker(job)
    return [w.play(int(s)) for s in seeds]


def warm_kernels(job: dict) -> float:
    """Compile (or load) the kernels ``job`` uses, in this process, without keeping a big
    table; returns the seconds it took.  Forked workers inherit the compiled code."""
    t0 = time.perf_counter()
    if job["mode"] == "clairvoyant":
        from solver.api import deal_solver_entry
        players = job_players(job)
        solver = deal_solver_entry(players).factory(tt_mb=1)
        (warm_duo if players == 2 else warm_clairvoyant)(solver)
    else:
        HonestWorker(job).warm_up()
    return time.perf_counter() - t0


# ----------------------------------------------------------------------------- local backend
def quiet_worker() -> None:
    """Signals in a pool worker: Ctrl-C goes to the whole process group, and only the parent
    reacts (it stops the pool and says what is stored), so no worker prints a traceback;
    the worker dies with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:  # die with the parent (kill -9 of the main process leaves no orphan solving)
            import ctypes
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
        except Exception:
            pass


def _init_pool_worker(job: dict) -> None:
    quiet_worker()
    get_worker(job)


def _play_one(args):
    job, seed = args
    return play_chunk(job, [seed])


AHEAD_PER_JOB = 4        # run_local: seeds handed to the pool ahead of the rows, per worker


def run_local(job: dict, seeds, jobs: int, on_rows) -> None:
    """Play ``seeds`` with ``jobs`` processes; ``on_rows(rows)`` gets each deal's row as it
    finishes (in this process, so the caller can commit it at once).

    ``seeds`` is any iterable, and it is consumed lazily, in this thread: at most
    ``jobs * AHEAD_PER_JOB`` seeds are taken ahead of the rows that came back, so a run of
    any size starts at once and holds only the seeds in flight (the caller's iterable may
    itself read the database between seeds: it never runs in another thread)."""
    it = iter(seeds)
    if jobs == 1:
        for s in it:
            on_rows(play_chunk(job, [s]))
        return
    first = next(it, None)
    if first is None:
        return
    import itertools
    import multiprocessing as mp
    import queue
    ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = ctx.Pool(jobs, initializer=_init_pool_worker, initargs=(job,))
    done: queue.SimpleQueue = queue.SimpleQueue()
    ahead = jobs * AHEAD_PER_JOB
    in_flight = 0

    def collect() -> None:
        nonlocal in_flight
        while True:
            try:
                rows = done.get(timeout=0.2)
                break
            except queue.Empty:
                continue
        in_flight -= 1
        if isinstance(rows, BaseException):
            raise rows
        on_rows(rows)

    with closing_pool(pool):
        for s in itertools.chain([first], it):
            while in_flight >= ahead:
                collect()
            pool.apply_async(_play_one, ((job, s),), callback=done.put,
                             error_callback=done.put)
            in_flight += 1
        while in_flight:
            collect()
