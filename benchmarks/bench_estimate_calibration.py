"""Calibration of the estimates of ``onirim best`` (docs/EXPECTIMAX.md, "Estimates").

On late positions (the player's view at the first play phase with at most ``--cards`` deck
cards of greedy's deal ``seed``), for every legal action ``a``:

* the exact winning chance of "``a``, then greedy", by enumerating every chance outcome
  with the engine (``solver.honest.estimate.policy_value``);
* the estimate and its Wilson 95% interval from ``--playouts`` greedy playouts
  (``solver.honest.estimate.engine_estimates``, the engine fallback of ``onirim best``).

It reports how often the interval contains the exact value: over all intervals, and over
those whose exact value is strictly between 0 and 1 (a value of 0 or 1 is always inside).

    python -m benchmarks.bench_estimate_calibration                  # 300 intervals
    python -m benchmarks.bench_estimate_calibration --intervals 100 --playouts 100
    python -m benchmarks.bench_estimate_calibration --open-intervals 200   # 200 with 0<v<1

The result file is rewritten after every position; ``--resume FILE`` continues.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from benchmarks.harness import ResultFile, machine_info


def late_view(seed: int, cards: int):
    from engine.game import Game
    from engine.policy import greedy_action
    from engine.view import player_view
    s = Game(1).new_initial_state(seed)
    while not s.is_terminal() and not (s.phase == "play" and s.deck_size() <= cards):
        s.apply_action(greedy_action(s))
    return None if s.is_terminal() else player_view(s)


def measure(view, playouts: int, stream: int) -> dict:
    from solver.honest.estimate import engine_estimates, policy_value
    acts = view.legal_actions()
    t0 = time.perf_counter()
    exact = {}
    for a in acts:
        c = view.clone()
        c.apply_action(a)
        exact[a] = float(policy_value(c))
    t1 = time.perf_counter()
    est = engine_estimates(view, acts, None, stream, max_playouts=playouts)
    rows = []
    for a in acts:
        e = est.by_action[a]
        rows.append({"action": view.action_to_string(a), "exact": exact[a],
                     "estimate": e.estimate, "ci95": list(e.ci95),
                     "inside": e.ci95[0] <= exact[a] <= e.ci95[1]})
    return {"actions": rows, "exact_s": round(t1 - t0, 3),
            "estimate_s": round(time.perf_counter() - t1, 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_estimate_calibration",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--intervals", type=int, default=300)
    ap.add_argument("--open-intervals", type=int, default=0,
                    help="also go on until this many intervals have an exact value strictly "
                         "between 0 and 1 (the informative ones)")
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--cards", type=int, default=9)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--resume", metavar="FILE", default=None)
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args(argv)
    from engine.notation import format_position
    options = {"intervals": args.intervals, "open_intervals": args.open_intervals,
               "playouts": args.playouts, "cards": args.cards,
               "first_seed": args.first_seed}
    rf = ResultFile.open("bench_estimate_calibration", "estimate_calibration",
                         "estimate_calibration", options, args.resume, save=not args.no_save)
    if rf is None:
        return 2
    seed = max([r["seed"] + 1 for r in rf.rows] + [args.first_seed])
    def counts():
        acts = [a for r in rf.rows for a in r["actions"]]
        return len(acts), sum(1 for a in acts if 0 < a["exact"] < 1)

    while counts()[0] < args.intervals or counts()[1] < args.open_intervals:
        view = late_view(seed, args.cards)
        if view is not None:
            row = {"seed": seed, "position": format_position(view)}
            row.update(measure(view, args.playouts, seed))
            rf.rows.append(row)
            rf.save()
            inside = sum(a["inside"] for a in row["actions"])
            print(f"seed {seed}: {inside}/{len(row['actions'])} inside "
                  f"(exact {row['exact_s']:.1f} s, estimates {row['estimate_s']:.1f} s)",
                  flush=True)
        seed += 1
    acts = [a for r in rf.rows for a in r["actions"]]
    mid = [a for a in acts if 0 < a["exact"] < 1]
    summary = {"intervals": len(acts), "inside": sum(a["inside"] for a in acts),
               "rate": sum(a["inside"] for a in acts) / len(acts),
               "intervals_0_lt_v_lt_1": len(mid),
               "inside_0_lt_v_lt_1": sum(a["inside"] for a in mid),
               "rate_0_lt_v_lt_1": (sum(a["inside"] for a in mid) / len(mid)) if mid else None,
               "seeds": [r["seed"] for r in rf.rows]}
    rf.finish(summary=summary)
    print(json.dumps({"summary": {k: v for k, v in summary.items() if k != "seeds"},
                      "machine": machine_info()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
