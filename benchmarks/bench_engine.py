"""Pure-Python engine throughput: complete solo playouts per second, random and greedy.

The numba side of the comparison (the same playouts in the kernel) is
``solver.clairvoyant.playouts``; ``benchmarks.bench_all`` (``onirim bench``) measures the two
side by side in one run and reports their ratios.
"""
from __future__ import annotations

import random
import time

from engine import Game
from engine.policy import greedy_action, random_action


def playouts(policy: str, seeds, deadline_s: float) -> dict:
    """Play seeded solo games with ``policy`` until the seeds or the time run out."""
    game = Game(1)
    games = steps = wins = 0
    t0 = time.perf_counter()
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            a = greedy_action(state) if policy == "greedy" else random_action(state, rng)
            state.apply_action(a)
            steps += 1
        games += 1
        wins += state.won()
        if time.perf_counter() - t0 > deadline_s:
            break
    dt = time.perf_counter() - t0
    return {"policy": policy, "games": games, "steps": steps, "wins": wins,
            "seconds": dt, "playouts_per_s": games / dt, "steps_per_s": steps / dt}


def run(quick: bool = False) -> dict:
    budget = 1.0 if quick else 10.0
    seeds = range(100_000)
    return {"engine_random": playouts("random", seeds, budget),
            "engine_greedy": playouts("greedy", seeds, budget)}


if __name__ == "__main__":
    import json
    print(json.dumps(run(quick=True), indent=2))
