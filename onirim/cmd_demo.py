"""``onirim demo [--seed S]``: a short showcase.

For now it plays one seeded solo deal with the built-in greedy policy (``engine.policy``) and
prints every decision and the result.  The game itself is :func:`demo_game`, so the demo can
later run a small solver job instead and keep this as one of its parts.
"""
from __future__ import annotations

from engine.game import Game
from engine.policy import greedy_action, play_game

from .cmd_play import seed_arg

DEFAULT_SEED = 3


def add_arguments(parser):
    parser.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                        help=f"deal seed, 0 .. 2**64-1 (default {DEFAULT_SEED})")


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


def run(args) -> int:
    state, actions = demo_game(args.seed)
    print(f"Onirim demo: the greedy policy plays solo deal seed {args.seed}")
    for line in wrap_items([f"{i}. {a}" for i, a in enumerate(actions, 1)]):
        print("  " + line)
    doors = len(state.all_doors())
    result = "WON" if state.won() else "LOST"
    print(f"Result: {result}, {doors} of 8 Doors in play after {len(actions)} decisions, "
          f"{state.deck_size()} cards left in the deck.")
    print(f"Replay it yourself: onirim play --seed {args.seed}")
    return 0
