"""Settings of ``seq-rollout`` compared in whole games inside the kernel, on streams away from the
evaluation deals (a quick screen of settings before an experiment; no end-game switch).

    python -m benchmarks.bench_seq_kernel --games 1000 --key 0xC0FFEE1234 '{}' '{"screen": 16}'
        [--base learned-base] [--json]

Each SETTING is a JSON object over the defaults ``n=256, batch=64, zdrop=2, stop=0.01,
zstop=2, screen=0, keep=4``; every setting plays the same ``--games`` games
(:func:`solver.honest.strong.seq_games`, game g on stream word(key, g)), so they are paired.
Per setting: wins, playouts and CPU seconds per game (the kernel is compiled and loaded first,
on two tiny games), a sha256 of the outcomes, and against the first setting the games won by
it only and by the first only.  ``--json`` prints one JSON object per line.  A bad setting
exits 2 with one line.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

DEFAULTS = {"n": 256, "batch": 64, "zdrop": 2.0, "stop": 0.01, "zstop": 2.0, "screen": 0,
            "keep": 4, "horizon": 0}


def play(setting: dict, games: int, key: int, base: str) -> dict:
    """The games of one setting (module docstring)."""
    import numpy as np
    from solver.honest import strong as ST
    c = {**DEFAULTS, **setting}
    b = np.int64(ST.BASES[base])
    out = np.zeros(games, np.int64)
    pl = np.zeros(games, np.int64)

    def run(n_games, n, batch, screen, o, p):
        ST.seq_games(np.int64(n_games), np.uint64(key), np.int64(n), np.int64(batch), 1.0,
                     float(c["zdrop"]), b, o, p, float(c["stop"]), float(c["zstop"]),
                     np.int64(screen), np.int64(c["keep"]), np.int64(c["horizon"]))

    run(2, 8, 4, min(c["screen"], 2), np.zeros(2, np.int64), np.zeros(2, np.int64))
    t0 = time.process_time()
    run(games, c["n"], c["batch"], c["screen"], out, pl)
    cpu = time.process_time() - t0
    return {"setting": setting, "games": games, "key": hex(key), "base": base,
            "wins": int(out.sum()), "playouts_per_game": float(pl.mean()),
            "cpu_s_per_game": round(cpu / games, 6),
            "digest": hashlib.sha256(out.astype(np.int8).tobytes()).hexdigest()[:16],
            "outcomes": out}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_seq_kernel",
                                 description="seq-rollout settings in whole in-kernel games "
                                             "(module docstring).")
    ap.add_argument("settings", nargs="+", help="JSON objects over the defaults")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--key", default="0xC0FFEE1234", help="the streams' key (int, 0x...)")
    ap.add_argument("--base", default="learned-base")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from solver.honest.greedy import BASES
    try:
        key = int(a.key, 0)
        settings = []
        for s in a.settings:
            try:
                settings.append(json.loads(s))
            except json.JSONDecodeError:
                raise ValueError(f"setting {s!r} is not a JSON object") from None
        for s in settings:
            if not isinstance(s, dict) or set(s) - set(DEFAULTS):
                raise ValueError(f"setting {s!r}: keys must be among {', '.join(DEFAULTS)}")
        if a.base not in BASES:
            raise ValueError(f"--base {a.base!r} is not one of {', '.join(BASES)}")
        if not 1 <= a.games <= 10_000_000 or not 0 <= key < 1 << 64:
            raise ValueError("--games must be from 1 to 10000000 and --key a 64-bit number")
    except ValueError as e:
        print(f"bench_seq_kernel: {e}", file=sys.stderr)
        return 2
    first = None
    for s in settings:
        r = play(s, a.games, key, a.base)
        o = r.pop("outcomes")
        if first is None:
            first = o
        r["won_by_it_only"] = int(((o == 1) & (first == 0)).sum())
        r["won_by_the_first_only"] = int(((o == 0) & (first == 1)).sum())
        if a.json:
            print(json.dumps(r), flush=True)
        else:
            print(f"{json.dumps(s):40s} wins {r['wins']:6d} of {r['games']}  "
                  f"{r['playouts_per_game']:10.0f} playouts/game  "
                  f"{r['cpu_s_per_game']:.4f} s CPU/game  against the first "
                  f"{r['won_by_it_only']}/{r['won_by_the_first_only']}  {r['digest']}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
