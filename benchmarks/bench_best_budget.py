"""How far ``onirim best`` runs past ``--budget-s`` (docs/EXPECTIMAX.md, "Budgets").

For each position and budget, ``onirim best POSITION --budget-s B --no-progress`` runs in this
process (text output: the ranking, the estimates when undecided, the principal line; and
once more with ``--json``, which has no line).  The positions are solo (expectimax mode) and
two-player (open-hands mode).  The kernels are compiled or loaded first, as ``onirim best``
does before its clock starts.  Per run it records:

* ``query_s``: the clocked part, which ``--budget-s`` covers (the ``seconds`` it prints);
* ``wall_s``: the whole command in this process (parsing, the 64 MiB memo allocated before
  the clock, the output), and ``cpu_s``, the process's CPU time over it (all threads): on a
  loaded machine a wall time far above the CPU time is time the process waited to run;
* ``load1``: the load average when the run started;
* the overruns ``query_s - B`` and ``wall_s - B``, the nodes, whether the best action is
  proven, and the estimates' playouts per action.

Loading is measured apart (``--loading N``, default 2): N fresh processes per mode run
``python -m onirim best POSITION --budget-s 0.001 --json``; ``load_s`` is the process's wall
time less the ``seconds`` it printed: starting Python, the imports, loading the compiled
kernels from numba's cache and the warm-up before the clock (with a cold cache, compiling).

    python -m benchmarks.bench_best_budget                       # budgets 0.001 .. 1 s
    python -m benchmarks.bench_best_budget --budgets 1 --quick   # three positions, 1 s
    python -m benchmarks.bench_best_budget --clock-overhead      # the deadline's cost

``--clock-overhead``: what the kernel's looks at the clock cost.  ``Expectimax(22).value``
of the seed-63 position at 14 cards with 1.5 M nodes, alternately without a deadline (no
look at the clock) and with one far away (a look every ``CLOCK_EVERY`` nodes), 4 times
each; it prints the node rates (nothing is saved).

The result file is rewritten after every run; ``--resume FILE`` continues an interrupted
run with the same options, skipping the runs it holds.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time

from benchmarks.harness import ResultFile, machine_info

README = ("mode=solo phase=play hand=Os,Am,Gk,Ls,Lk row=Am,Os doors=DO,DO,DA,DA,DG,DG,DL "
          "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,Om,Ok,Ok,Ok,As,As,As,As,As,As,As,"
          "As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,"
          "N,N,N,N,N,N,N limbo=-")


def positions(quick: bool) -> dict[str, str]:
    """name -> notation.  Solo: the README example (8 unknown cards), two late positions of
    the expectimax benchmark (15 unknown), a mid-game view (greedy's deal 3, 30 deck cards)
    and a turn-1 view (deal 0).  Two-player (names ``duo-``): the open-hands fixture with 15
    unknown cards and the opening draft of deal 0."""
    from benchmarks.bench_expectimax import late_position
    from engine.game import Game
    from engine.notation import format_position
    from engine.policy import greedy_action
    from engine.view import player_view

    out = {"readme-8": README}
    if not quick:
        for seed in (63, 130):
            out[f"late-{seed}-15"] = format_position(late_position(seed, 15))
        s = Game(1).new_initial_state(3)
        while not (s.phase == "play" and s.deck_size() <= 30):
            s.apply_action(greedy_action(s))
        out["mid-3-30"] = format_position(player_view(s))
    out["turn1-0"] = format_position(player_view(Game(1).new_initial_state(seed=0)))
    if not quick:
        out["duo-open-15"] = duo_open_position()
    out["duo-draft-0"] = format_position(Game(2).new_initial_state(seed=0))
    return out


def duo_open_position() -> str:
    """The last position of tests/fixtures/duo_open_positions.txt (15 unknown cards)."""
    from benchmarks.harness import ROOT
    with open(os.path.join(ROOT, "tests", "fixtures", "duo_open_positions.txt")) as fh:
        rows = [x.rstrip("\n") for x in fh if x.strip() and not x.startswith("#")]
    return rows[-1].split("\t")[1]


def loading(position: str, reps: int) -> list[dict]:
    """``reps`` fresh processes of ``onirim best POSITION --budget-s 0.001 --json``: wall
    time, the query's ``seconds`` and their difference, the loading."""
    import subprocess
    from benchmarks.harness import ROOT
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "onirim", "best", position, "--budget-s",
                            "0.001", "--json"], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=ROOT))
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f"onirim best exited {p.returncode}: {p.stderr[-500:]}")
        q = json.loads(p.stdout)["seconds"]
        out.append({"wall_s": round(wall, 3), "query_s": round(q, 4),
                    "load_s": round(wall - q, 3)})
    return out


def run_once(position: str, budget: float, json_out: bool) -> dict:
    from onirim.cli import main
    argv = ["best", position, "--budget-s", f"{budget:g}", "--no-progress"]
    if json_out:
        argv.append("--json")
    buf = io.StringIO()
    t0, c0, load = time.perf_counter(), time.process_time(), os.getloadavg()[0]
    with contextlib.redirect_stdout(buf):
        code = main(argv)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    text = buf.getvalue()
    if code != 0:
        raise RuntimeError(f"onirim best exited {code}: {text[-500:]}")
    if json_out:
        d = json.loads(text)
        query, nodes, best = d["seconds"], d["nodes"], d["best"]
        playouts = (d.get("estimates") or {}).get("playouts_per_action")
    else:
        tail = text.split("nodes: ", 1)[1].split("\n", 1)[0]
        nodes = int(tail.split()[0])
        query = float(tail.split("seconds: ", 1)[1])
        verdict = text.split("best: ", 1)[1].split("\n", 1)[0]
        best = None if verdict.startswith("undecided") else verdict
        playouts = None
        if "estimates: " in text:
            playouts = int(text.split("estimates: ", 1)[1].split("(", 1)[1].split()[0])
    return {"query_s": round(query, 4), "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
            "load1": round(load, 2),
            "overrun_query_s": round(query - budget, 4), "overrun_wall_s": round(wall - budget, 4),
            "nodes": nodes, "best": best, "playouts_per_action": playouts}


def mode_of(row: dict) -> str:
    return "open-hands" if row["name"].startswith("duo-") else "expectimax"


def clock_overhead(reps: int = 4, nodes: int = 1_500_000) -> dict:
    from benchmarks.bench_expectimax import late_position
    from solver.expectimax.solver import Expectimax
    from solver.expectimax.kernel import CLOCK_EVERY
    state = late_position(63, 14)
    rates: dict[str, list] = {"no deadline": [], "deadline": []}
    for _ in range(reps):
        for mode in rates:
            s = Expectimax(22)
            t = time.perf_counter()
            s.value(state, budget_nodes=nodes,
                    budget_s=None if mode == "no deadline" else 1000.0)
            rates[mode].append(round(s.nodes / (time.perf_counter() - t)))
    return {"clock_every": CLOCK_EVERY, "nodes_per_s": rates,
            "best": {k: max(v) for k, v in rates.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_best_budget", description=__doc__.split("\n")[0])
    ap.add_argument("--budgets", default="0.001,0.01,0.1,1",
                    help="budgets in seconds (default 0.001,0.01,0.1,1)")
    ap.add_argument("--quick", action="store_true", help="three positions only")
    ap.add_argument("--loading", type=int, default=2, metavar="N",
                    help="fresh processes per mode measuring the loading (default 2; 0: none)")
    ap.add_argument("--resume", metavar="FILE", default=None)
    ap.add_argument("--no-save", action="store_true", help="print only")
    ap.add_argument("--clock-overhead", action="store_true",
                    help="measure the cost of the kernel's looks at the clock instead")
    args = ap.parse_args(argv)
    if args.clock_overhead:
        from solver.expectimax.solver import prepare_kernels
        prepare_kernels(say=lambda m: print(m, file=sys.stderr))
        print(json.dumps({"clock_overhead": clock_overhead(), "machine": machine_info()},
                         indent=1))
        return 0
    try:
        budgets = [float(b) for b in args.budgets.split(",")]
    except ValueError:
        print(f"bench_best_budget: --budgets: not numbers: {args.budgets!r}", file=sys.stderr)
        return 2
    from solver.expectimax.solver import prepare_kernels
    prep = prepare_kernels(say=lambda m: print(m, file=sys.stderr))
    pos = positions(args.quick)
    from onirim.cli import main as cli_main
    with contextlib.redirect_stdout(io.StringIO()):      # load the two-player kernels
        cli_main(["best", pos["duo-draft-0"], "--budget-nodes", "1", "--json"])
    options = {"budgets": budgets, "quick": args.quick, "loading": args.loading}
    rf = ResultFile.open("bench_best_budget", "best_budget", "best_budget", options,
                         args.resume, save=not args.no_save)
    if rf is None:
        return 2
    done = {(r["name"], r["budget_s"], r["json"]) for r in rf.rows}
    for budget in budgets:
        for name, text in pos.items():
            for json_out in (False, True):
                if (name, budget, json_out) in done:
                    continue
                row = {"name": name, "budget_s": budget, "json": json_out, "position": text}
                row.update(run_once(text, budget, json_out))
                rf.rows.append(row)
                rf.save(prepare_s=round(prep, 3))
                print(f"{name:<12} B={budget:>4g} {'json' if json_out else 'text'}  "
                      f"query {row['query_s']:7.3f} s  wall {row['wall_s']:7.3f} s  "
                      f"cpu {row['cpu_s']:6.3f} s  load {row['load1']:5.1f}  "
                      f"over {row['overrun_query_s']:+.3f} / {row['overrun_wall_s']:+.3f} s  "
                      f"best={row['best']}  playouts={row['playouts_per_action']}",
                      flush=True)
    load = rf.data.setdefault("loading", {})
    for mode, name in (("expectimax", "readme-8"), ("open-hands", "duo-draft-0")):
        if args.loading and mode not in load:
            load[mode] = loading(pos[name], args.loading)
            rf.save(prepare_s=round(prep, 3))
            print(f"loading {mode}: {[r['load_s'] for r in load[mode]]} s", flush=True)
    rows = rf.rows
    summary = {"max_overrun_query_s": max(r["overrun_query_s"] for r in rows),
               "max_overrun_wall_s": max(r["overrun_wall_s"] for r in rows),
               "by_mode_and_budget": {
                   f"{m} {b:g}": {
                       "max_overrun_query_s": max(r["overrun_query_s"] for r in rows
                                                  if r["budget_s"] == b and mode_of(r) == m),
                       "max_overrun_wall_s": max(r["overrun_wall_s"] for r in rows
                                                 if r["budget_s"] == b and mode_of(r) == m)}
                   for b in budgets for m in ("expectimax", "open-hands")
                   if any(r["budget_s"] == b and mode_of(r) == m for r in rows)},
               "loading": {m: {"max_load_s": max(r["load_s"] for r in v),
                               "runs": v} for m, v in load.items()}}
    rf.finish(summary=summary)
    print(json.dumps({"summary": summary, "machine": machine_info()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
