"""Learn the weights of the ``learned-base`` play-phase scorer (solver/honest/learned.py) by
direct policy search: the cross-entropy method on the integer weights, maximising the base's
own win rate over whole in-kernel games with common random numbers.

    python -m benchmarks.learn_base                 # the stored weights' run (docs/POLICIES.md)
    python -m benchmarks.learn_base --write         # ... and write solver/honest/learned_weights.py
    python -m benchmarks.learn_base --base 2 --write    # learned-base-2 (solver/honest/learned2.py)

Every iteration draws ``--pop`` weight vectors from a normal distribution (the first weight,
``kd``, greedy-keep-doors' own action, is held at 100: it sets the scale, and the search starts
at greedy-keep-doors: the others at 0), plays each on the same ``--games`` in-kernel games
(streams word(TRAIN_KEY + iteration, g): in-kernel chance streams, disjoint from the engine's
evaluation deals 0-9,999 of ``onirim winrate``), and moves the mean to that of the ``--elite``
best.  At the end the mean is rounded and checked against greedy-keep-doors on ``--check``
fresh games (stream key CHECK_KEY, used by no iteration), paired; the weights are written only
with ``--write``.  Deterministic for given arguments (numpy's generator seeded by ``--seed``).

``--base 2`` fits ``learned-base-2`` (docs/POLICIES.md, "A second learned base: the other
phases") in two stages: first the prophecy's and the Nightmare's weights
(``solver.honest.learned2.FEATURES``, their two ``kd`` held at 100, the others starting at 0:
greedy-keep-doors there) with the play weights fixed at learned-base's, for ``--iters``
iterations on streams TRAIN_KEY2 + iteration; then all of them jointly for ``--joint-iters``
(streams TRAIN_KEY2 + JOINT_OFFSET + iteration; the play weights' spread starts at
``--joint-sigma``).  The check is against learned-base, paired, on fresh streams (CHECK_KEY2),
and ``--write`` writes solver/honest/learned2_weights.py.
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
TRAIN_KEY2 = 30_000_000
JOINT_OFFSET = 100_000
CHECK_KEY2 = 40_000_000
KD_WEIGHT = 100
WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "solver", "honest", "learned_weights.py")
WEIGHTS2_FILE = os.path.join(os.path.dirname(WEIGHTS_FILE), "learned2_weights.py")


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
    return wa, wb, paired_z(a, b)


def paired_z(a, b) -> float:
    """The paired z of the per-game outcomes ``a`` against ``b`` (same games): the mean
    difference over its standard error (0 if every difference is the same)."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    se = d.std() / math.sqrt(d.size) if d.size > 1 else 0.0
    return float(d.mean() / se) if se > 0 else 0.0


def write(W, path=WEIGHTS_FILE) -> None:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = text[:text.index("WEIGHTS = ")]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + f"WEIGHTS = {tuple(W)!r}\n")


def _games2(WP, WO, n, key, out):
    from solver.honest.learned_games import weights_games2
    return int(weights_games2(np.int64(n), np.uint64(key), np.asarray(WP, dtype=np.int64),
                              np.asarray(WO, dtype=np.int64), out[:n]))


def cem(mu, sd, fixed, score, iters, pop, elite, seed, key0, log, tag):
    """The cross-entropy method on the vector ``mu`` (spread ``sd``; the indices ``fixed``
    held), ``score(vector, key)`` its score (the wins, or any integer: higher is better) on the
    iteration's stream ``key0 + iteration``; also benchmarks/learn_duo_base.py's."""
    rng = np.random.default_rng(seed)
    mu = np.asarray(mu, dtype=float).copy()
    sd = np.asarray(sd, dtype=float).copy()
    sd[fixed] = 0.0
    hist = []
    for it in range(iters):
        key = key0 + it
        cand = np.rint(mu + sd * rng.standard_normal((pop, mu.size))).astype(np.int64)
        cand[0] = np.rint(mu).astype(np.int64)        # the current mean is always scored
        cand[:, fixed] = np.rint(mu[fixed]).astype(np.int64)
        wins = np.array([score(w, key) for w in cand])
        order = np.argsort(-wins, kind="stable")[:elite]
        el = cand[order].astype(float)
        mu = el.mean(axis=0)
        sd = 0.7 * el.std(axis=0) + 0.3 * sd + 1.0
        sd[fixed] = 0.0
        row = {"iter": it, "mean": int(wins[0]), "best": int(wins[order[0]]),
               "elite": float(wins[order].mean())}
        hist.append(row)
        log(f"{tag} iter {it:3d}: mean's {wins[0]}  best {wins[order[0]]}  "
            f"elite {wins[order].mean():.0f}  sd {sd[sd > 0].mean():.1f}")
    return np.rint(mu).astype(np.int64), hist


def search2(iters=40, joint_iters=35, pop=32, elite=8, games=24_000, sigma0=15.0,
            joint_sigma=6.0, seed=1, log=print):
    """learned-base-2's two-stage search (module docstring); returns (PLAY, OTHER) as tuples
    of ints."""
    from solver.honest.learned import NF as NFP
    from solver.honest.learned2 import NF, NPF
    from solver.honest.learned_weights import WEIGHTS
    out = np.zeros(games, dtype=np.int8)
    wp = np.array(WEIGHTS, dtype=np.int64)
    mu = np.zeros(NF)
    mu[0] = mu[NPF] = KD_WEIGHT

    def other(w, key):
        return _games2(wp, w, games, key, out)
    wo, _ = cem(mu, np.full(NF, sigma0), [0, NPF], other, iters, pop, elite, seed,
                TRAIN_KEY2, log, "other")
    if joint_iters > 0:
        def joint(w, key):
            return _games2(w[:NFP], w[NFP:], games, key, out)
        mu = np.concatenate([wp, wo]).astype(float)
        sd = np.concatenate([np.full(NFP, joint_sigma), np.full(NF, joint_sigma)])
        w, _ = cem(mu, sd, [0, NFP, NFP + NPF], joint, joint_iters, pop, elite, seed + 1,
                   TRAIN_KEY2 + JOINT_OFFSET, log, "joint")
        wp, wo = w[:NFP], w[NFP:]
    return tuple(int(x) for x in wp), tuple(int(x) for x in wo)


def check2(WP, WO, n=200_000, key=CHECK_KEY2):
    """(wins of learned-base-2 with (WP, WO), wins of learned-base, paired z) on n fresh
    in-kernel games."""
    from solver.honest.learned_weights import WEIGHTS
    a = np.zeros(n, dtype=np.int8)
    b = np.zeros(n, dtype=np.int8)
    wa, wb = _games2(WP, WO, n, key, a), _games(WEIGHTS, n, key, b)
    return wa, wb, paired_z(a, b)


def write2(WP, WO, path=WEIGHTS2_FILE) -> None:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = text[:text.index("PLAY = ")]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + f"PLAY = {tuple(WP)!r}\nOTHER = {tuple(WO)!r}\n")


def main2(a) -> int:
    from solver.honest.learned import FEATURES as FP
    from solver.honest.learned2 import FEATURES
    t0 = time.process_time()
    WP, WO = search2(a.iters, a.joint_iters, a.pop, a.elite, a.games, a.sigma, a.joint_sigma,
                     a.seed)
    print("play weights:", ", ".join(f"{n}={w}" for n, w in zip(FP, WP)))
    print("other weights:", ", ".join(f"{n}={w}" for n, w in zip(FEATURES, WO)))
    print(f"search CPU {time.process_time() - t0:.0f} s")
    if a.check:
        wa, wb, z = check2(WP, WO, a.check)
        print(f"check on {a.check} fresh games (key {CHECK_KEY2}): learned-base-2 "
              f"{wa / a.check:.4f}, learned-base {wb / a.check:.4f}, paired z {z:.1f}")
    print(f"CPU {time.process_time() - t0:.0f} s")
    if a.write:
        out = WEIGHTS2_FILE if a.out == WEIGHTS_FILE else a.out
        write2(WP, WO, out)
        print(f"wrote {out}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=int, choices=(1, 2), default=1,
                    help="1: learned-base (the play phase); 2: learned-base-2 (the prophecy "
                         "and the Nightmare too; defaults below in brackets)")
    ap.add_argument("--iters", type=int, default=None, help="60 [40]")
    ap.add_argument("--joint-iters", type=int, default=35, help="base 2: [35]")
    ap.add_argument("--pop", type=int, default=None, help="40 [32]")
    ap.add_argument("--elite", type=int, default=None, help="10 [8]")
    ap.add_argument("--games", type=int, default=None, help="30,000 [24,000]")
    ap.add_argument("--sigma", type=float, default=None, help="25 [15]")
    ap.add_argument("--joint-sigma", type=float, default=6.0, help="base 2: [6]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, default=None,
                    help="fresh games of the final check: 500,000 [200,000]")
    ap.add_argument("--write", action="store_true",
                    help="write solver/honest/learned_weights.py [learned2_weights.py]")
    ap.add_argument("--out", default=WEIGHTS_FILE, metavar="PATH",
                    help="the weights module --write rewrites (default: the package's "
                         "solver/honest/learned_weights.py [learned2_weights.py], which the "
                         "learned-base policies read)")
    a = ap.parse_args(argv)
    one = a.base == 1
    for name, d1, d2 in (("iters", 60, 40), ("pop", 40, 32), ("elite", 10, 8),
                         ("games", 30_000, 24_000), ("sigma", 25.0, 15.0),
                         ("check", 500_000, 200_000)):
        if getattr(a, name) is None:
            setattr(a, name, d1 if one else d2)
    if not one:
        return main2(a)
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
