"""How far ``onirim best`` runs past ``--budget-s`` (docs/EXPECTIMAX.md, "Budgets").

For each position and budget, ``onirim best POSITION --budget-s B --no-progress`` runs in this
process (text output: the ranking, the estimates when undecided, the principal line; and
once more with ``--json``, which has no line).  The kernels are compiled or loaded first,
as ``onirim best`` does before its clock starts.  Per run it records:

* ``query_s``: the clocked part, which ``--budget-s`` covers (the ``seconds`` it prints);
* ``wall_s``: the whole command in this process (parsing, the 64 MiB memo allocated before
  the clock, the output);
* the overruns ``query_s - B`` and ``wall_s - B``, the nodes, whether the best action is
  proven, and the estimates' playouts per action.

    python -m benchmarks.bench_best_budget                       # budgets 1, 5, 10 s
    python -m benchmarks.bench_best_budget --budgets 1 --quick   # two positions, 1 s
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
import sys
import time

from benchmarks.harness import ResultFile, machine_info

README = ("mode=solo phase=play hand=Os,Am,Gk,Ls,Lk row=Am,Os doors=DO,DO,DA,DA,DG,DG,DL "
          "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,Om,Ok,Ok,Ok,As,As,As,As,As,As,As,"
          "As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,"
          "N,N,N,N,N,N,N limbo=-")


def positions(quick: bool) -> dict[str, str]:
    """name -> notation: the README example (8 unknown cards), two late positions of the
    expectimax benchmark (15 unknown), a mid-game view (greedy's deal 3, 30 deck cards)
    and a turn-1 view (deal 0)."""
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
    return out


def run_once(position: str, budget: float, json_out: bool) -> dict:
    from onirim.cli import main
    argv = ["best", position, "--budget-s", f"{budget:g}", "--no-progress"]
    if json_out:
        argv.append("--json")
    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        code = main(argv)
    wall = time.perf_counter() - t0
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
    return {"query_s": round(query, 4), "wall_s": round(wall, 4),
            "overrun_query_s": round(query - budget, 4), "overrun_wall_s": round(wall - budget, 4),
            "nodes": nodes, "best": best, "playouts_per_action": playouts}


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
            s.value(state, node_budget=nodes,
                    budget_s=None if mode == "no deadline" else 1000.0)
            rates[mode].append(round(s.nodes / (time.perf_counter() - t)))
    return {"clock_every": CLOCK_EVERY, "nodes_per_s": rates,
            "best": {k: max(v) for k, v in rates.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_best_budget", description=__doc__.split("\n")[0])
    ap.add_argument("--budgets", default="1,5,10", help="budgets in seconds (default 1,5,10)")
    ap.add_argument("--quick", action="store_true", help="two positions only")
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
    options = {"budgets": budgets, "quick": args.quick}
    rf = ResultFile.open("bench_best_budget", "best_budget", "best_budget", options,
                         args.resume, save=not args.no_save)
    if rf is None:
        return 2
    done = {(r["name"], r["budget_s"], r["json"]) for r in rf.rows}
    pos = positions(args.quick)
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
                      f"over {row['overrun_query_s']:+.3f} / {row['overrun_wall_s']:+.3f} s  "
                      f"best={row['best']}  playouts={row['playouts_per_action']}",
                      flush=True)
    rows = rf.rows
    summary = {"max_overrun_query_s": max(r["overrun_query_s"] for r in rows),
               "max_overrun_wall_s": max(r["overrun_wall_s"] for r in rows),
               "by_budget": {f"{b:g}": {
                   "max_overrun_query_s": max(r["overrun_query_s"] for r in rows
                                              if r["budget_s"] == b),
                   "max_overrun_wall_s": max(r["overrun_wall_s"] for r in rows
                                             if r["budget_s"] == b)} for b in budgets}}
    rf.finish(summary=summary)
    print(json.dumps({"summary": summary, "machine": machine_info()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
