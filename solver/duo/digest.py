"""Behaviour digests of the two-player information-state kernel and of the solo honest kernel,
for refactors that must change nothing (a slot layout, a shared step, a faster loop).

    python -m solver.duo.digest [--games N] [--deals D] [--views V] [--only NAME ...]

Each digest is a BLAKE2b hash of what the kernel *does*, read
through the modules' slot names, so that moving a slot changes no digest and changing a step
changes (almost surely) every one:

* ``duo-games`` / ``duo-games-plus``: ``N`` whole two-player games in the kernel (greedy,
  greedy-plus), game g on stream ``word(1, g)``; per game its result and its end state
  (phase, rows, unknown, discard and limbo counts, known top, both hands, shared cards, Doors);
* ``solo-games`` / ``solo-games-plus``: the same for the solo honest kernel;
* ``duo-greedy``: every decision of deals 0..D-1 played by the engine (greedy, 30% random
  actions), the kernel's greedy and greedy-plus actions on the player's view, each checked
  against the Python policy (``engine.policy.greedy_action``,
  ``solver.duo.honest.duo_greedy_plus_action``); a disagreement is an error;
* ``duo-decide``: the duo-krollout decision (n=128, screen 16, stream = the view's index) at
  ``V`` views of those games.

Prints one line per digest (name, count, hex) and, with ``--json``, a dict.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import numpy as np

from engine import rng


class _Digest:
    """A running BLAKE2b digest of int64 values."""

    def __init__(self):
        self.h = hashlib.blake2b(digest_size=8)

    def add(self, *xs) -> None:
        self.h.update(np.asarray([int(x) for x in xs], dtype=np.int64).tobytes())

    def hex(self) -> str:
        return self.h.hexdigest()


def _duo_end(info, S) -> list:
    fields = [S[info.PH], S[info.UTOT], S[info.NTOP], S[info.LTOT], S[info.NDOORS], S[info.TURN], S[info.SHS]]
    for p in range(2):
        r = info.PSTEP * p           # player p's slots
        fields += [S[info.LAST + r], S[info.SER + r], S[info.ROWLEN + r], S[info.HSIZE + r]]
        fields += list(S[info.H + r:info.H + r + info.NLOC])
        fields += list(S[info.DR + r:info.DR + r + 4])
    fields += list(S[info.U:info.U + 17]) + list(S[info.D:info.D + 17]) + list(S[info.L:info.L + 17])
    fields += list(S[info.SH:info.SH + info.NLOC]) + list(S[info.TOP:info.TOP + S[info.NTOP]])
    return fields


def _solo_end(HS, S) -> list:
    fields = [S[HS.PH], S[HS.UTOT], S[HS.NTOP], S[HS.LTOT], S[HS.NDOORS], S[HS.LAST],
              S[HS.SER], S[HS.ROWLEN], S[HS.HSIZE]]
    fields += list(S[HS.H:HS.H + 12]) + list(S[HS.DR:HS.DR + 4])
    fields += list(S[HS.U:HS.U + 17]) + list(S[HS.D:HS.D + 17]) + list(S[HS.L:HS.L + 17])
    fields += list(S[HS.TOP:HS.TOP + S[HS.NTOP]])
    return fields


def duo_games(games: int, base: str) -> tuple[int, int]:
    from solver.duo import info_playouts as IP
    from solver.duo import info_state as info
    S = np.zeros(info.NS, dtype=np.int64)
    b = np.int64(IP.BASES[base])
    h = _Digest()
    for g in range(games):
        info.new_game(S)
        r = IP.playout(S, np.uint64(info.word(np.uint64(1), np.int64(g))), b)
        h.add(r, *_duo_end(info, S))
    return games, h


def solo_games(games: int, base: str) -> tuple[int, int]:
    from solver.honest import kernel as HK
    from solver.honest import state as HS
    S = np.zeros(HS.NS, dtype=np.int64)
    notrace = np.empty(0, dtype=np.int64)
    b = np.int64(HK.BASES[base])
    h = _Digest()
    for g in range(games):
        HS.new_game(S)
        r = HK.playout(S, np.uint64(HS.word(np.uint64(1), np.int64(g))), notrace, b)
        h.add(r, *_solo_end(HS, S))
    return games, h


def _views(deals: int):
    """(view, engine state) at every decision of deals 0..deals-1 (greedy, 30% random)."""
    from engine.game import Game
    from engine.policy import greedy_action
    from engine.view import player_view
    rnd = random.Random(3)
    for seed in range(deals):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            yield player_view(s), s
            acts = s.legal_actions()
            s.apply_action(greedy_action(s) if rnd.random() > 0.3 else rnd.choice(acts))


def duo_greedy(deals: int) -> tuple[int, int]:
    from engine.policy import greedy_action
    from solver.duo import info_greedy as IG
    from solver.duo import info_state as info
    from solver.duo.honest import duo_greedy_plus_action
    h = _Digest()
    n = 0
    for v, _s in _views(deals):
        S = info.encode(v)
        a = IG.base_at(S, "greedy")
        b = IG.base_at(S, "greedy-plus")
        if a != greedy_action(v) or b != duo_greedy_plus_action(v):
            raise SystemExit(f"duo-greedy: kernel and Python policies differ at {v}")
        h.add(a, b)
        n += 1
    return n, h


def duo_decide(views: int, deals: int) -> tuple[int, int]:
    from solver.duo import info_playouts as IP
    from solver.duo import info_state as info
    every = 7
    h = _Digest()
    n = 0
    stats = np.zeros(2, dtype=np.int64)
    for i, (v, _s) in enumerate(_views(deals)):
        if i % every:
            continue
        if len(v.legal_actions()) < 2:
            continue
        S = info.encode(v)
        a = IP.decide(S, np.int64(128), np.float64(1.0), np.uint64(rng.mix64(n + 1)),
                      np.int64(16), np.int64(4), np.int64(IP.BASES["greedy-plus"]),
                      np.int64(IP.DOORS), np.int64(IP.SWAPS["all"]), stats, np.int64(0))
        h.add(a)
        n += 1
        if n >= views:
            break
    h.add(stats[0], stats[1])
    return n, h


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.duo.digest",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--views", type=int, default=400)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    jobs = {
        "duo-games": lambda: duo_games(a.games, "greedy"),
        "duo-games-plus": lambda: duo_games(a.games, "greedy-plus"),
        "solo-games": lambda: solo_games(a.games, "greedy"),
        "solo-games-plus": lambda: solo_games(a.games, "greedy-plus"),
        "duo-greedy": lambda: duo_greedy(a.deals),
        "duo-decide": lambda: duo_decide(a.views, 60),
    }
    out = {}
    for name, fn in jobs.items():
        if a.only and name not in a.only:
            continue
        t0 = time.process_time()
        n, h = fn()
        out[name] = {"count": n, "digest": h.hex()}
        print(f"{name:<16} {n:>8} {h.hex()}  ({time.process_time() - t0:.1f} s CPU)",
              flush=True)
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
