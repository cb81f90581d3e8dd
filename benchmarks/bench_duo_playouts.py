"""Two-player playouts per CPU second on one core, side by side with the solo kernel and
the engine.

    python -m benchmarks.bench_duo_playouts [--games N] [--repeat R] [--out FILE]

Rows (each the best of ``--repeat`` timings, CPU time of this process, compile excluded):

* ``duo kernel, greedy`` / ``duo kernel, greedy-plus``: whole two-player games from the setup
  in :mod:`solver.duo.info_playouts` (``game_batch``), both seats by the base policy;
* ``duo kernel, from views``: the playouts of ``duo-krollout``: from a player's view at
  mid-game decisions, the partner's hand dealt from the unknown cards, then greedy-plus to
  the end (``estimate``, one action per view);
* ``solo kernel, greedy`` / ``greedy-plus``: whole solo games in :mod:`solver.honest.kernel`
  (``playout_batch``), the solo counterpart;
* ``engine, duo greedy``: whole two-player deal-mode games in ``engine/`` with
  ``engine.policy.greedy_action`` (pure Python).

The load average is recorded beside the figures: the machine is shared, and a busy core
lowers every row alike.
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def _best(fn, repeat):
    best = None
    for _ in range(repeat):
        c0 = time.process_time()
        games = fn()
        dt = time.process_time() - c0
        rate = games / dt if dt > 0 else float("inf")
        best = rate if best is None or rate > best else best
    return best


def _views(n_views=64, seed0=9000):
    from engine.game import Game
    from engine.policy import greedy_action
    from engine.view import player_view
    out = []
    seed = seed0
    while len(out) < n_views:
        s = Game(2).new_initial_state(seed=seed)
        seed += 1
        i = 0
        while not s.is_terminal():
            if i % 9 == 4 and s.phase == "play":
                out.append(player_view(s))
            s.apply_action(greedy_action(s))
            i += 1
    return out[:n_views]


def measure(games: int, repeat: int) -> dict:
    from engine.game import Game
    from engine.policy import play_game
    from solver.duo import info_playouts as IP
    from solver.duo.info_state import MAX_LEGAL, encode, legal
    from solver.honest import kernel as HK

    IP.compile_all()
    HK.compile_all()
    rows = {}
    key = [0]

    def duo(base):
        def run():
            key[0] += 1
            return IP.game_batch(games, key[0], base)["games"]
        return run
    rows["duo kernel, greedy"] = _best(duo("greedy"), repeat)
    rows["duo kernel, greedy-plus"] = _best(duo("greedy-plus"), repeat)

    views = [encode(v) for v in _views()]
    per = max(1, games // len(views))

    def from_views():
        acts = np.zeros(MAX_LEGAL, dtype=np.int64)
        done = 0
        for S in views:
            legal(S, acts)
            res = np.zeros((1, per), dtype=np.int8)
            key[0] += 1
            IP.estimate(S, np.int64(per), np.uint64(key[0]), acts, np.int64(1),
                        np.int64(IP.BASES["greedy-plus"]), np.int64(IP.DOORS), res)
            done += per
        return done
    rows["duo kernel, from views (greedy-plus)"] = _best(from_views, repeat)

    def solo(base):
        def run():
            key[0] += 1
            return HK.playout_batch(games, key[0], base)["games"]
        return run
    rows["solo kernel, greedy"] = _best(solo("greedy"), repeat)
    rows["solo kernel, greedy-plus"] = _best(solo("greedy-plus"), repeat)

    n_engine = max(20, games // 500)

    def engine():
        for s in range(n_engine):
            play_game(Game(2), 10_000 + s)
        return n_engine
    rows["engine, duo greedy (deal mode, Python)"] = _best(engine, 1)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_duo_playouts",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200_000, help="games per timing")
    ap.add_argument("--repeat", type=int, default=3, help="timings per row (best kept)")
    ap.add_argument("--out", default=None, help="write the JSON here too")
    a = ap.parse_args(argv)
    from benchmarks.harness import machine_info
    load0 = os.getloadavg()
    rows = measure(a.games, a.repeat)
    load1 = os.getloadavg()
    res = {"games_per_cpu_s": {k: round(v) for k, v in rows.items()},
           "games": a.games, "repeat": a.repeat, "machine": machine_info(),
           "load_before": [round(x, 2) for x in load0],
           "load_after": [round(x, 2) for x in load1],
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    for k, v in rows.items():
        print(f"{k:<42} {v:>12,.0f} games per CPU second")
    print(f"load average before {res['load_before']}, after {res['load_after']}")
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(res, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
