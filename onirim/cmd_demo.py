"""``onirim demo``: the main job on a small default.

By default it runs a clairvoyant win-rate job over ``--deals`` deals (100, seeds 0..99),
stored in ``--db`` (``./onirim-demo.sqlite``, so a rerun resumes and is instant), prints the
summary, then prints the certified winning line of the first deal (replayed in ``engine/``) and,
for comparison, how the built-in greedy policy does on the same deals.

``--policy-game`` instead plays one seeded deal with the greedy policy and prints every decision
(:func:`demo_game`).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from engine.game import Game
from engine.policy import greedy_action, play_game

from .cli import UsageError
from .cmd_play import seed_arg

DEFAULT_SEED = 3
DEFAULT_DEALS = 100
DEFAULT_DB = "onirim-demo.sqlite"


def add_arguments(parser):
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="first deal seed (default 0; with --policy-game, default "
                             f"{DEFAULT_SEED})")
    parser.add_argument("--deals", type=int, default=None,
                        help=f"deals to solve (default {DEFAULT_DEALS}; not with --policy-game)")
    parser.add_argument("--db", default=None,
                        help=f"SQLite results file (default ./{DEFAULT_DB}; not with "
                             "--policy-game)")
    parser.add_argument("--policy-game", action="store_true",
                        help="play one deal (--seed) with the greedy policy instead")


def demo_game(seed: int):
    """Play solo deal ``seed`` with the greedy policy: ``(final_state, action_strings)``."""
    return play_game(Game(1), seed, greedy_action)


def wrap_items(items, width=94):
    """Join items with ``; `` into lines of at most ``width`` characters, never splitting one."""
    lines, cur = [], ""
    for it in items:
        if cur and len(cur) + 2 + len(it) > width:
            lines.append(cur + ";")
            cur = it
        else:
            cur = f"{cur}; {it}" if cur else it
    if cur:
        lines.append(cur)
    return lines


def _policy_game(seed: int) -> int:
    state, actions = demo_game(seed)
    print(f"Onirim demo: the greedy policy plays solo deal seed {seed}")
    for line in wrap_items([f"{i}. {a}" for i, a in enumerate(actions, 1)]):
        print("  " + line)
    doors = len(state.all_doors())
    result = "WON" if state.won() else "LOST"
    print(f"Result: {result}, {doors} of 8 Doors in play after {len(actions)} decisions, "
          f"{state.deck_size()} cards left in the deck.")
    print(f"Replay it yourself: onirim play --seed {seed}")
    return 0


def run(args) -> int:
    if args.policy_game:
        for flag, value in (("--deals", args.deals), ("--db", args.db)):
            if value is not None:
                raise UsageError(f"{flag}: --policy-game plays one deal and stores nothing; "
                                 f"{flag} is for the win-rate demo")
        return _policy_game(DEFAULT_SEED if args.seed is None else args.seed)
    seed = 0 if args.seed is None else args.seed
    deals = DEFAULT_DEALS if args.deals is None else args.deals
    db_path = DEFAULT_DB if args.db is None else args.db
    from . import cmd_winrate
    from solver.runs.db import DBError, ResultsDB
    from solver.expectimax.memo_file import path_problem

    ns = argparse.Namespace(mode="clairvoyant", deals=deals, seed=seed, jobs=1,
                            db=db_path, budget_nodes=None, budget_s=None, tt_mb=None,
                            json=False, policy=None, policy_arg=[])
    # bad --deals, --seed or --db: one line, before any output
    cmd_winrate.check_args(ns)
    problem = path_problem(db_path)
    if problem is not None:
        raise UsageError(f"--db: {problem}")
    if os.path.isfile(db_path) and os.path.getsize(db_path) > 0:
        try:
            ResultsDB(db_path, readonly=True, require_results=False).close()
        except DBError as e:
            raise UsageError(f"--db: {e}") from None
    print(f"Onirim demo: clairvoyant win rate of solo deals {seed}..{seed + deals - 1}")
    print(f"  (the same as: onirim winrate --mode clairvoyant --deals {deals} "
          f"--seed {seed} --db {db_path})")
    # winrate compiles or loads the kernels before its progress bar starts, and says on
    # stderr when that takes long (the first run after an install compiles them)
    sys.stdout.flush()
    rc = cmd_winrate.run(ns)
    if rc:
        return rc
    import json
    db = ResultsDB(db_path, readonly=True)
    try:
        wins = [r for r in db.rows() if r["seed"] == seed and r["mode"] == "clairvoyant"
                and r["result"] == "WIN"]
    finally:
        db.close()
    if wins:
        line = json.loads(wins[0]["certificate"])
        state = Game(1).new_initial_state(seed)
        for a in line:
            state.apply_action(state.string_to_action(a))
        print(f"\nCertified winning line of deal {seed} ({len(line)} decisions, replayed in "
              f"engine/: {'won' if state.won() else 'NOT WON'}):")
        for text in wrap_items([f"{i}. {a}" for i, a in enumerate(line, 1)]):
            print("  " + text)
    t0 = time.perf_counter()
    wins = sum(demo_game(s)[0].won() for s in range(seed, seed + deals))
    print(f"\nFor comparison, the greedy policy (no look-ahead) wins {wins} of the same "
          f"{deals} deals ({time.perf_counter() - t0:.1f} s).")
    return 0
