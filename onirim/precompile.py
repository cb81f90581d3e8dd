"""Compile every numba kernel of the package into numba's on-disk cache, in parallel.

numba compiles a kernel the first time it is called and keeps the machine code on disk
(``cache=True``); every later process loads it in about a second.  A fresh install, or an
edit of a kernel file (which changes the cache stamp, see ``solver/__init__.py``), therefore
makes the first run of each kernel family pay one to two minutes of compiling, one family
after another, on one core.  This command pays it up front, one family per process, on up
to ``--jobs`` cores at once::

    python -m onirim.precompile            # every family, 2 processes
    python -m onirim.precompile --jobs 1 --json

Each family runs a tiny piece of real work through the package's public entry points, so
that the same functions with the same argument types are compiled as in real runs: the
very warm-ups the commands run themselves (``winrate``'s clairvoyant and two-player
warm-ups, ``best``'s ``prepare_kernels`` and its playout estimates, the ``rollout`` policy
that ``onirim play``'s hint uses, the benchmark's playout kernels).  It answers nothing and
checks nothing: correctness is the test suite's job.  ``make install``, ``make demo``,
``make test`` and ``make test-fast`` run this first (with warm caches it only loads, a few
seconds).

Before it starts it says how long a first compile takes (:func:`estimate_wall`, from the
families' measured compile times); then one line per family as it finishes.
:func:`family_ready` tells a command whether a family is in numba's cache, so that a command
that must still compile says so before the wait (:func:`compile_notice`), with that family's
measured time.
Exit status 0 when every family compiled, 1 when one failed (its last error line is shown),
2 on bad arguments.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def _conformance(kernel: str) -> None:
    """A few steps of the conformance harness: the kernel's own step and legal-list entry
    points, which the searches do not call from Python."""
    from solver import conformance
    conformance.run(conformance.ADAPTERS[kernel](), 200)


def _clairvoyant() -> None:
    from solver.runs import runner
    from solver.clairvoyant import ClairvoyantSolver, solve_deal
    solve_deal(0)
    # winrate's own warm-up (a deal, then a position near its end), with and without the
    # time budget (--budget-s): the kernels take the deadline as an argument
    runner.warm_clairvoyant(ClairvoyantSolver(tt_mb=1))
    ClairvoyantSolver(tt_mb=1).solve_deal(1, budget_nodes=2000, budget_s=5.0)
    _conformance("kernel")
    # the benchmark's table probe (onirim bench: benchmarks.bench_solver.bench_tt)
    import numpy as np
    from solver import tt
    tt._bench_ops(tt.make_table(1), 10, np.int64(1))


def _duo() -> None:
    from solver.runs import runner
    from solver.duo.search import DuoSolver, solve_duo_deal
    solve_duo_deal(3)
    runner.warm_duo(DuoSolver(tt_mb=1))           # winrate --players 2's warm-up
    DuoSolver(tt_mb=1).solve_deal(1, budget_nodes=2000, budget_s=5.0)
    _conformance("duo")


def _expectimax() -> None:
    from engine.notation import parse_position
    from solver.expectimax import solver as emx_solver
    # best's own warm-up, but its estimates' playouts are the honest family's
    # (player_view_of_deal(0) there, the same kernels and types): compiled there, so that
    # the two families need not wait for each other nor compile them twice at once
    emx_solver.prepare_kernels(estimates=False)
    state = parse_position(emx_solver._WARM_POSITION)
    ex = emx_solver.Expectimax(12)
    ex.strategy_graph(state, bits=8)
    from solver.expectimax.census import census
    census(ex)                           # the census of decisions (test_strategy_graph.py)
    ex.certify(state)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "warm.memo")
        ex.save_memo(path)
        emx_solver.Expectimax(12).load_memo(path)
    _conformance("expectimax")
    # the bound at a root as benchmarks.positions.open_at_root calls it (the package does
    # not import the benchmarks), and the bound's rules on their own, as its tests call them
    # (test_expectimax_speedups.py)
    import numpy as np
    from solver.expectimax import kernel as kernel_mod
    from solver.expectimax.encode import encode
    words = [np.int64(x) for x in encode(state)]
    status, *w = kernel_mod.advance_words(*words)
    kernel_mod.can_still_win(*w)
    lo, hi = kernel_mod.sms_range(3, 2, 1)
    kernel_mod.min_junk(lo, hi, 3, 0)
    status, *w = kernel_mod.canonical(*words)
    kernel_mod._can_still_win(*w, False)


def player_view_of_deal(seed: int, players: int = 1):
    from engine.game import Game
    from engine.view import player_view
    return player_view(Game(players).new_initial_state(seed=seed))


def _honest() -> None:
    from solver.honest import kernel as HK
    from solver.api import make_policy
    from solver.honest.play import play_honest
    HK.compile_all()
    HK.policy_games(1, n=2)
    play_honest(make_policy("rollout", n=4), 0)
    play_honest(make_policy("seq-rollout", n=4), 0)        # solver.honest.strong (issue 29)
    from solver.honest.estimate import prepare
    prepare(player_view_of_deal(0))      # onirim best's estimates, level 1 and level 2
    from engine.game import Game
    from engine.view import player_view
    state = Game(1).new_initial_state(seed=3)
    view = player_view(state, 0)
    make_policy("rollout", level=2, n=2, inner_n=2).act(view, 5)
    # each policy's own warm-up, as winrate and the play hint call it (rollout's compiles
    # the per-action estimates of act_among, which the end-game switch calls)
    # (ismcts: solver.honest.ismcts.search, about 12 s of compile CPU on its own)
    for name in ("rollout", "seq-rollout", "greedy-keep-doors", "ismcts"):
        make_policy(name).warm_up()
    # onirim play's hint: the default rollout policy on a seeded game's view, with a
    # decision stream of the play command (any 64-bit value)
    from solver.honest.play import decision_stream
    make_policy("rollout").act(view, decision_stream(3, 0))
    _conformance("honest")
    _honest_games()


def _honest_games() -> None:
    """The honest kernels that play whole games inside the kernel (the tuning loops and the
    tests that compare them with the engine's policies) and the small entry points that
    tests call on their own, with the argument types of their callers: before, each of these
    compiled inside the test run (seen as new cache files written during ``make test`` in a
    fresh clone; strong.seq_games' test took 63 s there, at load 5)."""
    import numpy as np
    from solver.honest import kernel as HK
    from solver.honest import state as HS
    from solver.honest import strong as ST
    from solver.honest.learned_games import weights_games
    from solver.honest.learned_weights import WEIGHTS
    n = np.int64(2)
    for dtype in (np.int8, np.int64):          # learn_base's rows, test_strong's rows
        ST.base_games(n, np.uint64(1), np.int64(ST.KEEP_DOORS), np.zeros(2, dtype=dtype))
    weights_games(n, np.uint64(1), np.array(WEIGHTS, dtype=np.int64), np.zeros(2, np.int8))
    ST.seq_games(n, np.uint64(3), np.int64(16), np.int64(8), 1.0, 2.0,
                 np.int64(ST.KEEP_DOORS), np.zeros(2, np.int64), np.zeros(2, np.int64),
                 0.0, 2.0, np.int64(0), np.int64(0), np.int64(0))
    S = HK.encode(player_view_of_deal(0))
    ST.dead_key(S, np.int64(0))
    HS.word(np.uint64(1), np.int64(0))
    # entry points that the tests call on their own (test_learned.py, test_ismcts.py)
    from solver.honest import ismcts as IS
    from solver.honest.learned import play_at
    play_at(S, np.int64(0), np.array(WEIGHTS, dtype=np.int64))
    IS._slot(np.full(8, -1, dtype=np.int64), np.zeros(8, dtype=np.int64), np.uint64(7), 0, 5)
    # learned-base-2's training kernel and its scorer behind a call (test_learned2.py)
    from solver.honest.learned2 import learned2_at
    from solver.honest.learned2_weights import OTHER, PLAY
    from solver.honest.learned_games import weights_games2
    WP, WO = np.array(PLAY, dtype=np.int64), np.array(OTHER, dtype=np.int64)
    weights_games2(n, np.uint64(1), WP, WO, np.zeros(2, np.int8))
    learned2_at(S, np.int64(0), WP, WO)


def _duo_honest() -> None:
    from solver.duo import info_playouts as IP
    from solver.api import make_policy
    IP.compile_all()
    make_policy("duo-krollout", n=4).warm_up()      # winrate's warm-up of the policy
    from solver.duo import view_rank
    view_rank.warm_up()                             # onirim best on a two-player view
    from solver.duo import open_search
    open_search.warm_up()                           # onirim best on an open-hands position
    _conformance("duo-honest")
    # the fit of plus2's weights (benchmarks/learn_duo_base.py): its training kernel, with the
    # argument types of its callers; two tests in two processes (test_learn_duo_base,
    # test_plus2) each compiled it, about 20 s of CPU apiece, at the same time
    import numpy as np
    from solver.duo.info_greedy import P2_TUNE, P2_WEIGHTS
    from solver.duo.plus2_games import weights_games
    weights_games(np.int64(1), np.uint64(1), np.ascontiguousarray(P2_WEIGHTS, dtype=np.int64),
                  np.ascontiguousarray(P2_TUNE, dtype=np.int64), np.zeros(1, dtype=np.int64))
    # plus2 under other weights (test_plus2.py's anchor check; two of its tests compiled it
    # in two processes at once)
    from solver.duo import info_greedy as IG
    from solver.duo.info_state import encode
    S = encode(player_view_of_deal(1, players=2))
    IG._plus2_with_at(S, np.int64(IG.base_at(S, "greedy-plus")),
                      np.ascontiguousarray(P2_WEIGHTS, dtype=np.int64), P2_TUNE.copy())


def _playouts() -> None:
    # the deal-mode playouts only: the benchmark's honest playouts are the honest family's
    # (compiling them here too paid for them twice, in two processes at once)
    from solver.clairvoyant import playouts as KP
    KP.compile_all()


def _bound() -> None:
    from solver.bound import run as bound_run
    bound_run.warm_up(bound_run.make_config("zero", None, 1000))      # onirim bound's own warm-up


# name -> (work, compile seconds of CPU measured on the development machine, two families at
# once into an empty cache: `bash .ci/run` in a fresh clone of b84d2ec on 2026-12-07, machine
# otherwise idle, 202 s of wall for all seven, each family's "s of CPU" as precompile printed
# it, rounded up (duo-honest from 192 s to 129 s once base_action was inlined only into the
# playouts' step, solver.duo.info_greedy.base_action_call); expectimax's census of decisions
# (about 8 s, seen as a test's compile) and duo-honest's plus2 under other weights moved here
# from the tests since; the schedule starts the longest first
FAMILIES = {
    "expectimax": (_expectimax, 79),
    "clairvoyant": (_clairvoyant, 31),
    "duo": (_duo, 27),
    "playouts": (_playouts, 28),
    "honest": (_honest, 86),
    "duo-honest": (_duo_honest, 129),
    "bound": (_bound, 14),
}


def _one(name: str) -> int:
    t = time.process_time()
    FAMILIES[name][0]()
    print(json.dumps({"family": name, "cpu_s": round(time.process_time() - t, 1)}))
    return 0


# family -> the families that must be in the cache before it starts: they compile kernels it
# calls too, which it then loads instead of compiling them a second time at the same moment
# in another process.  Measured with ``python -m benchmarks.bench_compile NAME`` (numba's
# compile events, per function): the bound's inner search is the expectimax search (35 s);
# the deal-mode playouts step with the clairvoyant kernel's ``_apply``.  (``onirim best``'s
# estimates are the honest family's playouts, about 90 s of compile that the expectimax
# family paid again when the two ran side by side: the expectimax family now leaves them to
# the honest family, see ``_expectimax``.)
AFTER = {"bound": ("expectimax",), "playouts": ("clairvoyant",)}


def schedule(names, jobs: int) -> list[str]:
    """The order of preference in which the families start: the longest first (a family
    still waits for the families of :data:`AFTER` that are in ``names``)."""
    return sorted(names, key=lambda n: -FAMILIES[n][1])


def _ready(name: str, names, done) -> bool:
    return all(d in done or d not in names for d in AFTER.get(name, ()))


def estimate_wall(names, jobs: int) -> float:
    """Seconds a cold compile of ``names`` takes with ``jobs`` processes on a free machine:
    the measured compile times of the families, laid out as :func:`run` schedules them (the
    first family of the preference order whose prerequisites are done starts as soon as a
    process is free)."""
    names = list(names)
    todo = schedule(names, jobs)
    running: list[tuple[float, str]] = []        # (finish time, family)
    done: set[str] = set()
    t = 0.0
    while todo or running:
        while len(running) < max(1, jobs):
            nxt = next((n for n in todo if _ready(n, names, done)), None)
            if nxt is None:
                break
            todo.remove(nxt)
            running.append((t + FAMILIES[nxt][1], nxt))
        running.sort()
        t, name = running.pop(0)
        done.add(name)
    return t


# one cached function per family whose presence in numba's cache (with the current stamp)
# says that the family was compiled for this tree; (module, attribute)
_PROBES = {
    "expectimax": ("solver.expectimax.kernel", "solve"),
    "clairvoyant": ("solver.clairvoyant.search", "_search"),
    "duo": ("solver.duo.search", "_search"),
    "playouts": ("solver.clairvoyant.playouts", "_batch"),
    "honest": ("solver.honest.kernel", "estimate_all"),
    "duo-honest": ("solver.duo.info_playouts", "decide"),
    "bound": ("solver.bound.kernel", "inner"),
}


def family_ready(name: str) -> bool | None:
    """True if numba's cache holds the family ``name`` compiled for this source tree (a
    first use then only loads it), False if it must be compiled, None if that cannot be
    told (numba internals changed)."""
    import importlib
    try:
        mod, attr = _PROBES[name]
        fn = getattr(importlib.import_module(mod), attr)
        return bool(fn._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals: any change means "cannot tell"
        return None


def compile_notice(name: str) -> str | None:
    """The line a command prints on stderr before it compiles family ``name``, or None when
    the family is in the cache (or that cannot be told)."""
    if family_ready(name) is not False:
        return None
    return (f"onirim: compiling the numba kernels of the {name} family before the first use "
            f"(once per install; about {FAMILIES[name][1]} s of CPU measured, longer on a busy "
            "machine; 'python -m onirim.precompile' compiles every family ahead, in parallel) "
            "...")


def run(names: list[str], jobs: int, say=print) -> dict:
    """Compile ``names`` in child processes, at most ``jobs`` at a time, longest first, each
    after its prerequisites (:data:`AFTER`).
    Returns {"families": {name: {"ok", "wall_s", "cpu_s", "error"}}, "wall_s", "jobs"}
    (``cpu_s``: the child's own CPU time, from the line it prints)."""
    todo = schedule(names, jobs)
    running: dict[str, tuple[subprocess.Popen, float]] = {}
    done: dict[str, dict] = {}
    t0 = time.perf_counter()
    while todo or running:
        while todo and len(running) < jobs:
            name = next((n for n in todo if _ready(n, names, done)), None)
            if name is None:
                break
            todo.remove(name)
            p = subprocess.Popen([sys.executable, "-m", "onirim.precompile", "--family", name],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            running[name] = (p, time.perf_counter())
        for name, (p, t) in list(running.items()):
            if p.poll() is None:
                continue
            out, err = p.communicate()
            lines = [x for x in err.strip().splitlines() if x.strip()]
            rec = {"ok": p.returncode == 0, "wall_s": round(time.perf_counter() - t, 1),
                   "cpu_s": (json.loads(out.strip().splitlines()[-1])["cpu_s"]
                             if p.returncode == 0 else None),
                   "error": None if p.returncode == 0 else (lines[-1] if lines else
                                                             f"exit status {p.returncode}")}
            done[name] = rec
            del running[name]
            if say is not None:
                what = (f"ok ({rec['wall_s']} s, {rec['cpu_s']} s of CPU)" if rec["ok"]
                        else f"FAILED: {rec['error']} ({rec['wall_s']} s)")
                say(f"precompile: {name} {what}")
        time.sleep(0.05)
    return {"families": done, "wall_s": round(time.perf_counter() - t0, 1), "jobs": jobs}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m onirim.precompile",
                                description="Compile every numba kernel family into numba's "
                                            "cache, one family per process.")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="processes at once (default: 2, or 1 on a single core)")
    p.add_argument("--only", action="append", choices=list(FAMILIES), default=None,
                   help="compile only this family (repeatable)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--family", choices=list(FAMILIES), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.family:
        return _one(a.family)
    if a.jobs < 1:
        p.error(f"--jobs must be at least 1, not {a.jobs}")
    names = a.only or list(FAMILIES)
    if not a.json:
        cold = [n for n in names if family_ready(n) is False]
        if cold:
            print(f"precompile: compiling {len(cold)} numba kernel families, {a.jobs} at a time "
                  f"({', '.join(schedule(cold, a.jobs))}): about "
                  f"{estimate_wall(cold, a.jobs) / 60:.0f} min on a free "
                  f"{max(2, a.jobs)}-core machine (measured), longer on a busy one; once per "
                  "install, afterwards every command only loads them", flush=True)
        else:
            print(f"precompile: loading {len(names)} kernel families from numba's cache "
                  "(already compiled)", flush=True)
    res = run(names, a.jobs,
              say=None if a.json else (lambda m: print(m, flush=True)))
    # a family that compiled without error must now be in the cache: its probe (the
    # function family_ready reads) was compiled by the family's warm-up, else the first use
    # of a command would compile again
    missing = [n for n, r in res["families"].items() if r["ok"] and family_ready(n) is False]
    res["not_cached"] = missing
    if a.json:
        print(json.dumps(res))
    else:
        for n in missing:
            print(f"precompile: {n} FAILED: compiled, but {'.'.join(_PROBES[n])} is not in "
                  "numba's cache (the family's warm-up does not call it)")
        print(f"precompile: {len(res['families'])} families in {res['wall_s']} s "
              f"with {a.jobs} processes")
    return 0 if all(r["ok"] for r in res["families"].values()) and not missing else 1


if __name__ == "__main__":
    raise SystemExit(main())
