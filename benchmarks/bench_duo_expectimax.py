"""Reach of the open-hands two-player expectimax (docs/DUO_EXPECTIMAX.md, "Measured reach").

    python -m benchmarks.bench_duo_expectimax --budget-s 10
    python -m benchmarks.bench_duo_expectimax --budget-s 60 --max-unknown 10 --only-open-at 10

Each position of tests/fixtures/duo_open_positions.txt (cuts of clairvoyant win lines, the
deck order hidden) is searched by a fresh ``DuoExpectimax`` under the time budget; one JSON
line per position (unknown cards, exact or not, bounds, nodes, seconds) is appended and
fsynced to ``.bench-results/duo-expectimax-b{T}.jsonl``, and a rerun skips the positions
already there.  ``--only-open-at T0``: only the positions that the T0 run left open.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "tests", "fixtures", "duo_open_positions.txt")


def _out(t, tag=""):
    return os.path.join(".bench-results", f"duo-expectimax{tag}-b{t:g}.jsonl")


def _load(path):
    if not os.path.exists(path):
        return {}
    with open(path) as fh:
        return {r["index"]: r for r in map(json.loads, fh) if r}


def main(argv=None):
    import numpy
    import numba

    from engine.notation import parse_position
    from solver.duo.open_hands import DuoExpectimax

    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=10.0)
    ap.add_argument("--max-unknown", type=int, default=99)
    ap.add_argument("--only-open-at", type=float, default=None)
    ap.add_argument("--tag", default="", help="a name part of the output file (a new series)")
    a = ap.parse_args(argv)
    os.makedirs(".bench-results", exist_ok=True)
    rows = []
    with open(FIXTURE) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            u, text = line.rstrip("\n").split("\t")
            rows.append((int(u), text))
    path = _out(a.budget_s, a.tag)
    done = _load(path)
    skip_exact = None
    if a.only_open_at is not None:
        skip_exact = {i for i, r in _load(_out(a.only_open_at, a.tag)).items() if r["exact"]}
    with open(path, "a") as fh:
        for i, (u, text) in enumerate(rows):
            if i in done or u > a.max_unknown or (skip_exact is not None and i in skip_exact):
                continue
            d = DuoExpectimax()
            t0 = time.perf_counter()
            iv = d.value(parse_position(text), budget_s=a.budget_s)
            r = {"index": i, "unknown": u, "exact": iv.exact, "lo": iv.lo, "hi": iv.hi,
                 "nodes": d.nodes, "seconds": round(time.perf_counter() - t0, 3)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            print(json.dumps(r), flush=True)
            done[i] = r
    by_u = {}
    for r in done.values():
        by_u.setdefault(r["unknown"], []).append(r["exact"])
    summary = {"budget_s": a.budget_s, "by_unknown": {u: f"{sum(v)}/{len(v)} exact"
                                                      for u, v in sorted(by_u.items())},
               "machine": platform.processor() or platform.machine(),
               "python": platform.python_version(), "numba": numba.__version__,
               "numpy": numpy.__version__, "date": time.strftime("%Y-%m-%d", time.gmtime())}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
