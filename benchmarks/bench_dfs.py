"""Speed of the plain clairvoyant depth-first searches (no beam, no driver): the solo search
(:mod:`solver.clairvoyant.search` over the deal kernel) and the two-player one
(:mod:`solver.duo.search` over the duo kernel),
solo deals 1000-1019 at 2,000,000 nodes each, two-player deals 1000-1009 at 1,000,000 each,
the search's default bounds and a 64 MB table.  Prints one JSON list: per player count the
nodes, a digest of (deal, status, nodes, line), the search's CPU seconds and M nodes per CPU
second.  Compare two trees side by side (A B A B), each run from its own root::

    python -m benchmarks.bench_dfs            # both counts
    python -m benchmarks.bench_dfs --players 2

The first search of each count (deal 0, 1,000 nodes) loads or compiles the kernels and is not
timed.  docs/SOLVER.md, "Borrowed views in the deal kernels", quotes it.  A tree without this
file (an older commit) can be measured with a copy of it run from that tree's root::

    cp benchmarks/bench_dfs.py /tmp/ && cd OLD && PYTHONPATH=. python /tmp/bench_dfs.py
"""
from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

from engine.game import Game
from solver.clairvoyant import deal_kernel as deal
from solver.clairvoyant import search
from solver.clairvoyant.solve import DEFAULT_FLAGS
from solver.duo import kernel as duo_kernel
from solver.duo import search as duo_search
from solver.tt import TranspositionTable

RUNS = {1: (range(1000, 1020), 2_000_000), 2: (range(1000, 1010), 1_000_000)}


def run(players: int) -> dict:
    """The plain search on the count's deals; see the module docstring."""
    seeds, limit = RUNS[players]
    if players == 1:
        table = TranspositionTable(64)
        sr, encode, flags = search.Search(table.table), deal.encode, DEFAULT_FLAGS
    else:
        table = duo_search.DuoTable(64)
        sr = duo_search.DuoSearch(table.table)
        encode, flags = duo_kernel.encode, duo_search.DEFAULT_FLAGS
    perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)
    st, p, s_root, seed = encode(Game(players).new_initial_state(0), perms)
    sr.reset(st, p, s_root, seed, table.new_epoch(), flags)
    sr.run(1000)
    h = hashlib.sha256()
    nodes = 0
    cpu = 0.0
    for s in seeds:
        st, p, s_root, seed = encode(Game(players).new_initial_state(s), perms)
        sr.reset(st, p, s_root, seed, table.new_epoch(), flags)
        t = time.process_time()
        sr.run(limit)
        cpu += time.process_time() - t
        line = sr.line() if sr.status == search.ST_WIN else []
        nodes += sr.nodes
        h.update(f"{s} {sr.status} {sr.nodes} {line}\n".encode())
    return {"players": players, "nodes": nodes, "digest": h.hexdigest()[:16],
            "cpu_s": round(cpu, 2), "mnodes_per_cpu_s": round(nodes / cpu / 1e6, 3)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_dfs",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, choices=(1, 2), action="append",
                   help="player count (default: both)")
    a = p.parse_args(argv)
    print(json.dumps([run(n) for n in a.players or (1, 2)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
