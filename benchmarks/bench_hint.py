"""How often the exact hint of ``onirim play`` settles, by cards left in the deck.

``onirim play``'s ``hint`` asks the exact search (``Expectimax.rank`` on the player's view,
``budget_s`` = ``onirim.cmd_play.EXACT_HINT_S``) once the deck holds at most
``EXACT_HINT_DECK`` cards, and uses its answer only when a move is proven best.  This
benchmark follows greedy games (one solver per game, as in a session, so the memo carries
over from hint to hint) and, at every decision with at most ``--max-deck`` cards left, records
whether a best move was proven, the seconds and the nodes.  Compile time is spent before the
first timed search and is not counted.

    PYTHONPATH=. python -m benchmarks.bench_hint --seeds 0,1,2,3,4,5,6,7,8,9          # a few minutes
    PYTHONPATH=. python -m benchmarks.bench_hint --quick

The result file (``benchmarks/results/hint-<time>.json``) is rewritten after every game, and
``--resume FILE`` continues an interrupted run with the same options.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.harness import ResultFile, machine_info, parse_seeds, table


def _game(seed: int, max_deck: int, limit_s: float) -> list[dict]:
    from engine import Game
    from engine.policy import greedy_action
    from engine.view import player_view
    from solver.expectimax.solver import Expectimax

    solver = Expectimax(table_bits=20)          # as onirim play's Hinter
    s = Game(1).new_initial_state(seed)
    rows = []
    warmed = False
    while not s.is_terminal():
        if s.deck_size() <= max_deck:
            view = player_view(s)
            if not warmed:
                solver.value(view, budget_nodes=1)      # compile / load: not timed
                warmed = True
            t0 = time.perf_counter()
            r = solver.rank(view, budget_s=limit_s)
            sec = time.perf_counter() - t0
            top = max(r.actions, key=lambda a: a.lo)
            proven = all(top.lo >= a.hi - 1e-15 for a in r.actions if a is not top)
            rows.append({"deck": s.deck_size(), "phase": s.phase, "actions": len(r.actions),
                         "proven": proven, "seconds": round(sec, 4), "nodes": r.nodes})
        s.apply_action(greedy_action(s))
    return rows


def main(argv=None) -> int:
    from onirim.cmd_play import EXACT_HINT_DECK, EXACT_HINT_S
    ap = argparse.ArgumentParser(prog="bench_hint", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0,1,2,3,4,5,6,7,8,9", help="deal seeds, e.g. 3,5,8")
    ap.add_argument("--max-deck", type=int, default=EXACT_HINT_DECK + 3)
    ap.add_argument("--limit-s", type=float, default=EXACT_HINT_S)
    ap.add_argument("--quick", action="store_true", help="seeds 0 and 1, deck <= 10")
    ap.add_argument("--resume", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    seeds = parse_seeds("0,1" if args.quick else args.seeds, "bench_hint")
    if seeds is None:
        return 2
    max_deck = 10 if args.quick else args.max_deck
    options = {"seeds": seeds, "max_deck": max_deck, "limit_s": args.limit_s}
    rf = ResultFile.open("bench_hint", "hint", "hint", options, args.resume)
    if rf is None:
        return 2
    rf.data["machine"] = machine_info()
    done = {r["seed"] for r in rf.rows}
    for seed in seeds:
        if seed in done:
            continue
        rf.rows.append({"seed": seed, "decisions": _game(seed, max_deck, args.limit_s)})
        rf.save()
        print(f"seed {seed}: {len(rf.rows[-1]['decisions'])} decisions", file=sys.stderr)
    by_deck: dict[int, list[dict]] = {}
    for r in rf.rows:
        for d in r["decisions"]:
            by_deck.setdefault(d["deck"], []).append(d)
    summary = []
    for deck in sorted(by_deck):
        ds = by_deck[deck]
        n_proven = sum(d["proven"] for d in ds)
        summary.append({"deck": deck, "decisions": len(ds), "proven": n_proven,
                        "median_s": round(statistics.median(d["seconds"] for d in ds), 3),
                        "max_s": max(d["seconds"] for d in ds)})
    rf.finish(summary=summary)
    print(table([(s["deck"], f"{s['proven']}/{s['decisions']}", s["median_s"], s["max_s"])
                 for s in summary], headers=("deck", "proven best", "median s", "max s")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
