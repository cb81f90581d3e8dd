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
timed.

``--against OTHER`` measures this tree and the tree at path ``OTHER`` interleaved, deal by deal:
one process per tree (each imports its own tree, from its root), the deals handed to them in
turn, in the order this, other on even steps and other, this on odd ones, so that a change of
the machine's load hits both alike (the shared machine's load moves within a run of
``bench_dfs``; two whole runs side by side differed by up to 20% on identical code).  Prints a
JSON line per round (other's CPU over this tree's, per count) and a summary; the node counts
of the two trees must be equal::

    python -m benchmarks.bench_dfs --against ../main --rounds 4  docs/SOLVER.md, "Borrowed views in the deal kernels", quotes it.  A tree without this
file (an older commit) can be measured with a copy of it run from that tree's root::

    cp benchmarks/bench_dfs.py /tmp/ && cd OLD && PYTHONPATH=. python /tmp/bench_dfs.py
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
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
    table, sr, encode, flags = _setup(players)
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


def _setup(players: int):
    """(table, search, encode, flags) of a player count, its kernels loaded (deal 0)."""
    if players == 1:
        table = TranspositionTable(64)
        sr, encode, flags = search.Search(table.table), deal.encode, DEFAULT_FLAGS
    else:
        table = duo_search.DuoTable(64)
        sr = duo_search.DuoSearch(table.table)
        encode, flags = duo_kernel.encode, duo_search.DEFAULT_FLAGS
    return table, sr, encode, flags


def _worker() -> int:
    """One tree's side of ``--against``: reads ``players seed limit`` lines, answers with the
    search's CPU seconds and nodes."""
    perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)
    made = {n: _setup(n) for n in (1, 2)}
    for n, (table, sr, encode, flags) in made.items():
        st, p, s_root, seed = encode(Game(n).new_initial_state(0), perms)
        sr.reset(st, p, s_root, seed, table.new_epoch(), flags)
        sr.run(1000)
    print("ready", flush=True)
    for line in sys.stdin:
        n, s, limit = map(int, line.split())
        table, sr, encode, flags = made[n]
        st, p, s_root, seed = encode(Game(n).new_initial_state(s), perms)
        sr.reset(st, p, s_root, seed, table.new_epoch(), flags)
        t = time.process_time()
        sr.run(limit)
        print(json.dumps({"cpu": time.process_time() - t, "nodes": int(sr.nodes)}), flush=True)
    return 0


def against(other: str, rounds: int) -> dict:
    """This tree and ``other`` interleaved deal by deal (module docstring)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"this": here, "other": os.path.abspath(other)}
    procs = {tag: subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                   cwd=root, env=dict(os.environ, PYTHONPATH="."),
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for tag, root in trees.items()}
    try:
        for proc in procs.values():
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("a worker did not start")
        jobs = [(n, s, RUNS[n][1]) for n in (1, 2) for s in RUNS[n][0]]
        total = {(t, n): [0.0, 0] for t in procs for n in (1, 2)}
        for r in range(rounds):
            cpu = {(t, n): 0.0 for t in procs for n in (1, 2)}
            for i, (n, s, limit) in enumerate(jobs):
                for t in (("this", "other") if (i + r) % 2 == 0 else ("other", "this")):
                    procs[t].stdin.write(f"{n} {s} {limit}\n")
                    procs[t].stdin.flush()
                    res = json.loads(procs[t].stdout.readline())
                    cpu[(t, n)] += res["cpu"]
                    total[(t, n)][0] += res["cpu"]
                    total[(t, n)][1] += res["nodes"]
            print(json.dumps({"round": r, "load": round(os.getloadavg()[0], 2),
                              **{f"speed_{n}p": round(cpu[("other", n)] / cpu[("this", n)], 3)
                                 for n in (1, 2)}}), flush=True)
    finally:
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()
    out = {"other": trees["other"], "rounds": rounds}
    for n in (1, 2):
        mine, theirs = total[("this", n)], total[("other", n)]
        out[f"{n}p"] = {"nodes": mine[1], "other_nodes": theirs[1], "cpu_s": round(mine[0], 2),
                        "other_cpu_s": round(theirs[0], 2),
                        "speed_over_other": round(theirs[0] / mine[0], 3)}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_dfs",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, choices=(1, 2), action="append",
                   help="player count (default: both)")
    p.add_argument("--against", metavar="TREE",
                   help="another source tree, measured interleaved with this one")
    p.add_argument("--rounds", type=int, default=4, help="rounds of --against")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        return _worker()
    if a.against:
        if not os.path.isdir(os.path.join(a.against, "solver")):
            print(f"bench_dfs: {a.against} is not a source tree (no solver/)", file=sys.stderr)
            return 2
        out = against(a.against, a.rounds)
        print(json.dumps(out))
        return 0 if all(out[f"{n}p"]["nodes"] == out[f"{n}p"]["other_nodes"] for n in (1, 2)) \
            else 1
    print(json.dumps([run(n) for n in a.players or (1, 2)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
