"""Learn the weights of the ``learned-base`` play-phase scorer (solver/honest/learned.py) by
direct policy search: the cross-entropy method on the integer weights, maximising the base's
own win rate over whole in-kernel games with common random numbers.

    python -m benchmarks.learn_base                 # the stored weights' run (docs/POLICIES.md)
    python -m benchmarks.learn_base --write         # ... and write solver/honest/learned_weights.py

Every iteration draws ``--pop`` weight vectors from a normal distribution (the first weight,
``kd``, greedy-keep-doors' own action, is held at 100: it sets the scale, and the search starts
at greedy-keep-doors: the others at 0), plays each on the same ``--games`` in-kernel games
(streams word(TRAIN_KEY + iteration, g): in-kernel chance streams, disjoint from the engine's
evaluation deals 0-9,999 of ``onirim winrate``), and moves the mean to that of the ``--elite``
best.  At the end the mean is rounded and checked against greedy-keep-doors on ``--check``
fresh games (stream key CHECK_KEY, used by no iteration), paired; the weights are written only
with ``--write``.  Deterministic for given arguments (numpy's generator seeded by ``--seed``).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

TRAIN_KEY = 10_000_000
CHECK_KEY = 20_000_000
KD_WEIGHT = 100
WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "solver", "honest", "learned_weights.py")


def _games(W, n, key, out):
    from solver.honest.learned_games import weights_games
    return int(weights_games(np.int64(n), np.uint64(key), np.asarray(W, dtype=np.int64),
                             out[:n]))


def search(iters=60, pop=40, elite=10, games=30_000, sigma0=25.0, seed=1, log=print):
    """The cross-entropy search; returns (weights as a tuple of ints, history rows)."""
    from solver.honest.learned import NF
    rng = np.random.default_rng(seed)
    mu = np.zeros(NF)
    mu[0] = KD_WEIGHT
    sd = np.full(NF, sigma0)
    sd[0] = 0.0
    out = np.zeros(games, dtype=np.int8)
    hist = []
    for it in range(iters):
        key = TRAIN_KEY + it
        cand = np.rint(mu + sd * rng.standard_normal((pop, NF))).astype(np.int64)
        cand[0] = np.rint(mu).astype(np.int64)        # the current mean is always scored
        cand[:, 0] = KD_WEIGHT
        wins = np.array([_games(w, games, key, out) for w in cand])
        order = np.argsort(-wins, kind="stable")[:elite]
        el = cand[order].astype(float)
        mu = el.mean(axis=0)
        sd = 0.7 * el.std(axis=0) + 0.3 * sd + 1.0
        sd[0] = 0.0
        row = {"iter": it, "mean_rate": wins[0] / games, "best_rate": wins[order[0]] / games,
               "elite_rate": wins[order].mean() / games}
        hist.append(row)
        log(f"iter {it:3d}: mean's {row['mean_rate']:.4f}  best {row['best_rate']:.4f}  "
            f"elite {row['elite_rate']:.4f}  sd {sd[1:].mean():.1f}")
    return tuple(int(x) for x in np.rint(mu)), hist


def check(W, n=500_000, key=CHECK_KEY):
    """(wins of W, wins of greedy-keep-doors, paired z) on n fresh in-kernel games."""
    from solver.honest.learned import NF
    a = np.zeros(n, dtype=np.int8)
    b = np.zeros(n, dtype=np.int8)
    kd = (KD_WEIGHT,) + (0,) * (NF - 1)
    wa, wb = _games(W, n, key, a), _games(kd, n, key, b)
    d = a.astype(float) - b
    se = d.std() / math.sqrt(n) if n > 1 else 0.0
    return wa, wb, (d.mean() / se if se > 0 else 0.0)


def write(W, path=WEIGHTS_FILE) -> None:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = text[:text.index("WEIGHTS = ")]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + f"WEIGHTS = {tuple(W)!r}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iters", type=int, default=60)
    ap.add_argument("--pop", type=int, default=40)
    ap.add_argument("--elite", type=int, default=10)
    ap.add_argument("--games", type=int, default=30_000)
    ap.add_argument("--sigma", type=float, default=25.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, default=500_000, help="fresh games of the final check")
    ap.add_argument("--write", action="store_true", help="write solver/honest/learned_weights.py")
    ap.add_argument("--out", default=WEIGHTS_FILE, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    from solver.honest.learned import FEATURES
    t0 = time.process_time()
    W, _ = search(a.iters, a.pop, a.elite, a.games, a.sigma, a.seed)
    print("weights:", ", ".join(f"{n}={w}" for n, w in zip(FEATURES, W)))
    if a.check:
        wa, wb, z = check(W, a.check)
        print(f"check on {a.check} fresh games (key {CHECK_KEY}): learned {wa / a.check:.4f}, "
              f"greedy-keep-doors {wb / a.check:.4f}, paired z {z:.1f}")
    print(f"CPU {time.process_time() - t0:.0f} s")
    if a.write:
        write(W, a.out)
        print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
