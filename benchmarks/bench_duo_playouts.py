"""Two-player playouts per CPU second on one core, side by side with the solo kernel and
the engine.

    python -m benchmarks.bench_duo_playouts [--games N] [--repeat R] [--out FILE]
    python -m benchmarks.bench_duo_playouts --against REF [--games N] [--rounds K]

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

``--against REF`` measures the two-player kernel side by side with itself as it was at git
``REF``: the three modules (``info_state``, ``info_greedy``, ``info_playouts``) and the solo
``solver/honest/state.py`` whose steps they import, taken with ``git show`` into the
git-ignored ``.bench-results/`` and imported as modules of their own (numba-cached there).
The rounds alternate old and new on the same streams (so a change of load hits both), each
timing the CPU of ``--games`` whole games with greedy and with greedy-plus; a row is the
median rate over ``--rounds`` rounds.  The games' totals (wins, Doors) of the two versions
must be equal, round by round: a faster kernel that plays differently is reported as such and
exits 1.
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

    def batch(fn, base):
        """Whole games from the setup: ``fn`` is a kernel's batch entry point."""
        def run():
            key[0] += 1
            return fn(games, key[0], base)["games"]
        return run
    rows["duo kernel, greedy"] = _best(batch(IP.game_batch, "greedy"), repeat)
    rows["duo kernel, greedy-plus"] = _best(batch(IP.game_batch, "greedy-plus"), repeat)

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

    rows["solo kernel, greedy"] = _best(batch(HK.playout_batch, "greedy"), repeat)
    rows["solo kernel, greedy-plus"] = _best(batch(HK.playout_batch, "greedy-plus"), repeat)

    n_engine = max(20, games // 500)

    def engine():
        for s in range(n_engine):
            play_game(Game(2), 10_000 + s)
        return n_engine
    rows["engine, duo greedy (deal mode, Python)"] = _best(engine, 1)
    return rows


OUT_DIR = ".bench-results"
DUO_MODULES = ("info_state", "info_greedy", "info_playouts")


def load_duo_at(ref: str, out_dir: str = OUT_DIR):
    """The two-player kernel's modules as they were at git ``ref`` (with the solo state module
    of that commit, whose steps they import), as modules of their own: (info_playouts module,
    short sha)."""
    import importlib.util
    import subprocess
    import sys

    from benchmarks.harness import ROOT
    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    names = {f"solver.duo.{m}": f"duo_{m}_at_{sha}" for m in DUO_MODULES}
    names["solver.honest.state"] = f"honest_state_at_{sha}"
    os.makedirs(out_dir, exist_ok=True)
    for dotted, name in names.items():
        src = subprocess.run(["git", "show", f"{sha}:{dotted.replace('.', '/')}.py"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
        for d2, n2 in names.items():
            pkg, mod = d2.rsplit(".", 1)
            src = src.replace(f"from {d2} import", f"from {n2} import")
            src = src.replace(f"from {pkg} import {mod} as", f"import {n2} as")
        path = os.path.join(out_dir, name + ".py")
        old = open(path).read() if os.path.exists(path) else None
        if old != src:                  # rewritten only when it changed (keeps numba's cache)
            with open(path, "w") as fh:
                fh.write(src)
    # each is loaded from its file and registered before the next one, which imports it by
    # that name (dependencies first): no sys.path entry is needed
    mods = {}
    for dotted in ("solver.honest.state",) + tuple(f"solver.duo.{m}" for m in DUO_MODULES):
        name = names[dotted]
        spec = importlib.util.spec_from_file_location(name, os.path.join(out_dir, name + ".py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        mods[dotted] = mod
    return mods["solver.duo.info_playouts"], sha


def side_by_side(ref: str, games: int, rounds: int) -> dict:
    """Old (git ``ref``) and new two-player kernels, alternately on the same streams."""
    from solver.duo import info_playouts as NEW
    OLD, sha = load_duo_at(ref)
    for mod in (OLD, NEW):
        mod.game_batch(2, 1, "greedy")
        mod.game_batch(2, 1, "greedy-plus")
    rates = {}
    same = True
    totals = {}
    for r in range(rounds):
        for base in ("greedy", "greedy-plus"):
            got = {}
            order = (("old", OLD), ("new", NEW)) if r % 2 == 0 else (("new", NEW), ("old", OLD))
            for label, mod in order:
                c0 = time.process_time()
                res = mod.game_batch(games, 1000 + r, base)
                dt = time.process_time() - c0
                rates.setdefault((label, base), []).append(games / dt)
                got[label] = (res["wins"], res["doors"], res["failed"])
            same = same and got["old"] == got["new"]
            t = totals.setdefault(base, [0, 0, 0])
            for i in range(3):
                t[i] += got["new"][i]
    out = {"ref": sha, "games": games, "rounds": rounds, "same_games": same,
           "totals_new": {b: {"wins": t[0], "doors": t[1], "failed": t[2]}
                          for b, t in totals.items()}}
    for (label, base), xs in sorted(rates.items()):
        xs = sorted(xs)
        out[f"{label} {base}"] = round(xs[len(xs) // 2])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_duo_playouts",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200_000, help="games per timing")
    ap.add_argument("--repeat", type=int, default=3, help="timings per row (best kept)")
    ap.add_argument("--out", default=None, help="write the JSON here too")
    ap.add_argument("--against", default=None, metavar="REF",
                    help="side by side with the two-player kernel at git REF (see above)")
    ap.add_argument("--rounds", type=int, default=5, help="with --against: rounds (median)")
    a = ap.parse_args(argv)
    from benchmarks.harness import machine_info
    load0 = os.getloadavg()
    if a.against:
        res = side_by_side(a.against, a.games, a.rounds)
        res["load_before"] = [round(x, 2) for x in load0]
        res["load_after"] = [round(x, 2) for x in os.getloadavg()]
        res["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        for k, v in res.items():
            if k.startswith(("old ", "new ")):
                print(f"{k:<24} {v:>12,} games per CPU second (median of {a.rounds})")
        for b in ("greedy", "greedy-plus"):
            print(f"new/old {b:<16} {res[f'new {b}'] / res[f'old {b}']:.3f}")
        print(f"same games: {res['same_games']}  (totals {res['totals_new']}); load average "
              f"before {res['load_before']}, after {res['load_after']}")
        if a.out:
            with open(a.out, "w") as fh:
                json.dump(res, fh, indent=1)
                fh.write("\n")
        return 0 if res["same_games"] else 1
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
