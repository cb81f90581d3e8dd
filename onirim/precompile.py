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
that the same functions with the same argument types are compiled as in real runs.  It
answers nothing and checks nothing: correctness is the test suite's job.  ``make test``
and ``make test-fast`` run this first (with warm caches it only loads, a few seconds).
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
    from solver.clairvoyant.solve import solve_deal
    solve_deal(0)
    _conformance("kernel")


def _duo() -> None:
    from solver.duo.search import solve_duo_deal
    solve_duo_deal(3)
    _conformance("duo")


def _expectimax() -> None:
    from engine.notation import parse_position
    from solver.expectimax import solver as E
    E.prepare_kernels()
    state = parse_position(E._WARM_POSITION)
    ex = E.Expectimax(12)
    ex.strategy_graph(state, bits=8)
    ex.certify(state)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "warm.memo")
        ex.save_memo(path)
        E.Expectimax(12).load_memo(path)
    _conformance("expectimax")


def _honest() -> None:
    from solver.honest import kernel as HK
    from solver.api import make_policy
    from solver.honest.play import play_honest
    HK.compile_all()
    HK.policy_games(1, n=2)
    play_honest(make_policy("rollout", n=4), 0)
    from engine.game import Game
    from engine.view import player_view
    state = Game(1).new_initial_state(seed=3)
    view = player_view(state, 0)
    make_policy("rollout", level=2, n=2, inner_n=2).act(view, 5)
    _conformance("honest")


def _playouts() -> None:
    from solver.clairvoyant import playouts as KP
    KP.compile_all()


# name -> (work, compile seconds measured on the development machine with two families at
# once (2026-12-01, cold cache): the schedule starts the longest first)
FAMILIES = {
    "expectimax": (_expectimax, 150),
    "clairvoyant": (_clairvoyant, 115),
    "duo": (_duo, 100),
    "playouts": (_playouts, 90),
    "honest": (_honest, 45),
}


def _one(name: str) -> int:
    t = time.process_time()
    FAMILIES[name][0]()
    print(json.dumps({"family": name, "cpu_s": round(time.process_time() - t, 1)}))
    return 0


def run(names: list[str], jobs: int, say=print) -> dict:
    """Compile ``names`` in child processes, at most ``jobs`` at a time, longest first.
    Returns {"families": {name: {"ok", "wall_s", "cpu_s", "error"}}, "wall_s", "jobs"}
    (``cpu_s``: the child's own CPU time, from the line it prints)."""
    todo = sorted(names, key=lambda n: -FAMILIES[n][1])
    running: dict[str, tuple[subprocess.Popen, float]] = {}
    done: dict[str, dict] = {}
    t0 = time.perf_counter()
    while todo or running:
        while todo and len(running) < jobs:
            name = todo.pop(0)
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
    res = run(a.only or list(FAMILIES), a.jobs,
              say=None if a.json else (lambda m: print(m, flush=True)))
    if a.json:
        print(json.dumps(res))
    else:
        print(f"precompile: {len(res['families'])} families in {res['wall_s']} s "
              f"with {a.jobs} processes")
    return 0 if all(r["ok"] for r in res["families"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
