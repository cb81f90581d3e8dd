"""Fit the weights of the two-player base ``plus2`` (solver/duo/info_greedy.py: ``P2_WEIGHTS``
and ``P2_TUNE``) again by direct policy search, reproducibly: the cross-entropy method of
``benchmarks/learn_base.py`` on whole two-player games in the kernel.

    python -m benchmarks.learn_duo_base                # the stored fit's run (docs/DUO_BASES.md)
    python -m benchmarks.learn_duo_base --write        # ... and write solver/duo/learned_weights.py
    python -m benchmarks.learn_duo_base --iters 60 --name learned60 --write   # the base learned60

The vector searched is ``P2_WEIGHTS`` then ``P2_TUNE`` (23 integers); it starts at today's
plus2, the anchor ``gp`` (greedy-plus's own action) held at 100.  Every iteration draws
``--pop`` vectors around the mean (spread ``--sigma`` for the play weights, ``--tune-sigma``
for the exchange's and the Nightmare's numbers), plays each on the same ``--games`` kernel
games (:func:`solver.duo.plus2_games.weights_games`, both seats the candidate, game g of
iteration i on stream word(TRAIN_KEY + i, g): common random numbers across the population),
scores it by 100 x wins + Doors summed (the win rate plus 0.01 x mean Doors, the objective of
plus2's own search) and moves the mean to that of the ``--elite`` best.  The rounded mean is
then checked against plus2, paired, on ``--check-rounds`` x ``--check`` fresh games (streams
CHECK_KEY + round, used by no iteration).  The keys are kernel streams of their own, apart
from the engine's evaluation deals, the value function's fit and plus2's own keys.
Deterministic for given arguments (numpy's generator seeded by ``--seed``).  ``--write``
writes the fitted vector into ``--out`` (the base ``learned``'s weights).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from benchmarks.learn_base import cem, paired_z

TRAIN_KEY = 50_000_000
CHECK_KEY = 60_000_000
GP_WEIGHT = 100
WIN_DOORS = 8
DUO_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "solver", "duo")
# the bases these fits write (solver/duo/info_greedy.py, BASES) and their docs/DUO_BASES.md
# sections
NAMES = {"learned": "A fitted plus2: the base learned",
         "learned60": "A longer fit: the base learned60"}
HEADER = '''"""The weights of the two-player base ``{name}`` (solver/duo/info_greedy.py): plus2's
scorer and exchange (``P2_FEATURES``, ``P2_TUNE``'s order) with weights fitted by
``python -m benchmarks.learn_duo_base`` (docs/DUO_BASES.md,
"{section}").
Edit them only by rerunning it with ``--write``.  A plain constants module that the kernels
read: it is in ``solver.SHARED``, so an edit restamps the numba caches.
"""
'''


def start_vector() -> np.ndarray:
    """plus2's weights then its tune numbers: where the search starts."""
    from solver.duo.info_greedy import P2_TUNE, P2_WEIGHTS
    return np.concatenate([P2_WEIGHTS, P2_TUNE]).astype(np.int64)


def play(v, n, key, out) -> int:
    """Play ``n`` games on stream ``key`` with the vector ``v``; out[:n] = each game's Doors;
    returns the score 100 x wins + Doors summed."""
    from solver.duo.info_greedy import P2_NF
    from solver.duo.plus2_games import weights_games
    v = np.asarray(v, dtype=np.int64)
    doors = int(weights_games(np.int64(n), np.uint64(key), np.ascontiguousarray(v[:P2_NF]),
                              np.ascontiguousarray(v[P2_NF:]), out[:n]))
    return 100 * int(np.count_nonzero(out[:n] == WIN_DOORS)) + doors


def search(iters=30, pop=32, elite=8, games=40_000, sigma=5.0, tune_sigma=1.0, seed=1,
           log=print):
    """The cross-entropy search from plus2 (module doc); returns the vector as a tuple."""
    from solver.duo.info_greedy import P2_NF
    mu = start_vector().astype(float)
    sd = np.concatenate([np.full(P2_NF, sigma), np.full(mu.size - P2_NF, tune_sigma)])
    out = np.zeros(games, dtype=np.int64)
    v, _ = cem(mu, sd, [0], lambda w, key: play(w, games, key, out), iters, pop, elite,
               seed, TRAIN_KEY, log, "plus2 fit")
    return tuple(int(x) for x in v)


def check(v, n=50_000, rounds=3) -> list:
    """Per round r (stream CHECK_KEY + r, ``n`` games): the vector's and plus2's wins and
    Doors, and the paired z of the wins and of the objective."""
    rows = []
    a = np.zeros(n, dtype=np.int64)
    b = np.zeros(n, dtype=np.int64)
    base = start_vector()
    for r in range(rounds):
        key = CHECK_KEY + r
        play(v, n, key, a)
        play(base, n, key, b)
        wa, wb = a == WIN_DOORS, b == WIN_DOORS
        rows.append({"key": key, "games": n, "wins": int(wa.sum()), "plus2_wins": int(wb.sum()),
                     "doors": round(float(a.mean()), 4), "plus2_doors": round(float(b.mean()), 4),
                     "only": int((wa & ~wb).sum()), "plus2_only": int((wb & ~wa).sum()),
                     "z_wins": round(paired_z(wa, wb), 2),
                     "z_objective": round(paired_z(wa + 0.01 * a, wb + 0.01 * b), 2)})
    return rows


def weights_file(name: str) -> str:
    """The package's weights module of the base ``name``: solver/duo/NAME_weights.py."""
    return os.path.join(DUO_DIR, f"{name}_weights.py")


def write(v, command: str, path: str | None = None, name: str = "learned") -> str:
    """Write the vector ``v`` as the weights module of the base ``name`` at ``path`` (default:
    :func:`weights_file`); returns the path written."""
    from solver.duo.info_greedy import P2_NF
    path = path or weights_file(name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(HEADER.format(name=name, section=NAMES[name])
                + f"WEIGHTS = {tuple(v[:P2_NF])!r}\nTUNE = {tuple(v[P2_NF:])!r}\n"
                f"# {command}\n")
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learn_duo_base",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--pop", type=int, default=32)
    ap.add_argument("--elite", type=int, default=8)
    ap.add_argument("--games", type=int, default=40_000, help="games per candidate")
    ap.add_argument("--sigma", type=float, default=5.0, help="the play weights' first spread")
    ap.add_argument("--tune-sigma", type=float, default=1.0,
                    help="the exchange's and the Nightmare's numbers' first spread")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, default=50_000, help="games per check round")
    ap.add_argument("--check-rounds", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="write the fitted weights to --out")
    ap.add_argument("--name", default="learned", choices=sorted(NAMES),
                    help="the base whose weights --write writes (default: learned)")
    ap.add_argument("--out", default=None, metavar="PATH",
                    help="the weights module --write writes (default: the package's "
                         "solver/duo/NAME_weights.py, which the base NAME reads)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON too")
    a = ap.parse_args(argv)
    if min(a.iters, a.pop, a.games, a.check_rounds) < 1 or not 1 <= a.elite <= a.pop \
            or a.check < 2:
        print("learn_duo_base: --iters, --pop, --games, --check-rounds >= 1, --check >= 2, "
              "1 <= --elite <= --pop", file=sys.stderr)
        return 2
    from solver.duo.info_greedy import P2_FEATURES, P2_NF
    t0 = time.process_time()
    v = search(a.iters, a.pop, a.elite, a.games, a.sigma, a.tune_sigma, a.seed)
    cpu = time.process_time() - t0
    tune = ("margin", "part", "mine", "pser", "mser", "nm_useful")
    print("weights:", ", ".join(f"{n}={w}" for n, w in zip(P2_FEATURES, v[:P2_NF])))
    print("tune:", ", ".join(f"{n}={w}" for n, w in zip(tune, v[P2_NF:])))
    print(f"search CPU {cpu:.0f} s")
    rows = check(v, a.check, a.check_rounds)
    for r in rows:
        print(f"check key {r['key']}: fitted {r['wins']} ({r['wins'] / r['games']:.4f}, "
              f"{r['doors']:.3f} Doors), plus2 {r['plus2_wins']} "
              f"({r['plus2_wins'] / r['games']:.4f}, {r['plus2_doors']:.3f}) of {r['games']}; "
              f"only one won {r['only']} / {r['plus2_only']}; paired z wins {r['z_wins']}, "
              f"objective {r['z_objective']}")
    print(f"CPU {time.process_time() - t0:.0f} s")
    command = "python -m benchmarks.learn_duo_base " + " ".join(
        sys.argv[1:] if argv is None else argv)
    if a.write:
        print(f"wrote {write(v, command, a.out, a.name)}")
    if a.json:
        print(json.dumps({"command": command, "weights": list(v), "search_cpu": round(cpu),
                          "check": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
