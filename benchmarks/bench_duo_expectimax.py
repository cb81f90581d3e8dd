"""Reach of the open-hands two-player expectimax (docs/DUO_EXPECTIMAX.md, "Measured reach"),
and the numba search beside the Python one (section 6).

    python -m benchmarks.bench_duo_expectimax --budget-s 10
    python -m benchmarks.bench_duo_expectimax --budget-s 60 --max-unknown 10 --only-open-at 10
    python -m benchmarks.bench_duo_expectimax --kernel numba --budget-s 10 --max-unknown 9
    python -m benchmarks.bench_duo_expectimax --side-by-side --budget-s 2 --pairs 2

Each position of tests/fixtures/duo_open_positions.txt (cuts of clairvoyant win lines, the
deck order hidden) is searched by a fresh ``DuoExpectimax`` (``--kernel numba``: a fresh
``solver.duo.open_search.OpenSearch``) under the time budget; one JSON line per position
(unknown cards, exact or not, bounds, nodes, seconds of wall and of CPU) is appended and
fsynced to ``.bench-results/duo-expectimax{tag}-b{T}.jsonl`` (numba: ``-nb`` before ``-b``),
and a rerun skips the positions already there.  ``--only-open-at T0``: only the positions
that the T0 run left open.

A numba row adds ``profile``: the nodes of each phase (``pick``: a PICK of free cards) and the
children they made (docs/DUO_EXPECTIMAX.md section 7, "Where the nodes go").

``--side-by-side``: each position is searched by the Python and the numba search in turn,
``--pairs`` times (A B A B), each under the same time budget with a fresh solver; the nodes and
the CPU seconds of each search (time.process_time, the search only: the numba memo is made
before the clock) go to ``.bench-results/duo-open-sbs{tag}-b{T}.jsonl``, and the summary gives
each search's nodes per CPU second over all positions and the ratio.
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


def fixture_rows(path: str = FIXTURE) -> list[tuple[int, str]]:
    """(unknown cards, position text) of every line of the open-hands fixture."""
    rows = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            u, text = line.rstrip("\n").split("\t")
            rows.append((int(u), text))
    return rows


def _solver(kernel, table_bits=None):
    if kernel == "numba":
        from solver.duo.open_search import DEFAULT_TABLE_BITS, OpenSearch
        return OpenSearch(table_bits=table_bits or DEFAULT_TABLE_BITS)
    from solver.duo.open_hands import DuoExpectimax
    return DuoExpectimax()


def _timed(kernel, state, budget_s, table_bits=None, out=None):
    """One search of ``state`` by a fresh solver: (interval, nodes, wall s, CPU s); with
    ``out`` (a dict) and the numba search, the profile of its nodes goes there too."""
    d = _solver(kernel, table_bits)
    t0, c0 = time.perf_counter(), time.process_time()
    iv = d.value(state, budget_s=budget_s)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if out is not None and kernel == "numba":
        out["profile"] = profile(d.ctr)
    return iv, d.nodes, wall, cpu


def profile(ctr) -> dict:
    """Where the numba search's nodes went: by the phase of the node (a PICK of free cards,
    F_FREE, apart), the nodes expanded and the children they made."""
    from solver.duo import open_kernel as OK
    from solver.honest.state import PHASE_NAMES
    names = list(PHASE_NAMES) + ["pick"]
    return {names[k]: [int(ctr[OK.C_PH_NODES + k]), int(ctr[OK.C_PH_KIDS + k])]
            for k in range(OK.N_PH) if ctr[OK.C_PH_NODES + k]}


def _machine():
    import numba
    import numpy
    return {"machine": platform.processor() or platform.machine(),
            "python": platform.python_version(), "numba": numba.__version__,
            "numpy": numpy.__version__, "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "load": round(os.getloadavg()[0], 1)}


def side_by_side(a) -> dict:
    """The Python and the numba search on the same positions, A B A B (module doc)."""
    from engine.notation import parse_position
    from solver.duo.open_search import warm_up
    warm_up()
    path = os.path.join(".bench-results", f"duo-open-sbs{a.tag}-b{a.budget_s:g}.jsonl")
    done = _load(path)
    with open(path, "a") as fh:
        for i, (u, text) in enumerate(fixture_rows()):
            if i in done or u > a.max_unknown:
                continue
            s = parse_position(text)
            r = {"index": i, "unknown": u}
            for k in ("python", "numba"):
                r[k] = {"nodes": 0, "cpu_s": 0.0, "exact": None}
            for _ in range(a.pairs):
                for k in ("python", "numba"):
                    iv, n, _wall, cpu = _timed(k, s, a.budget_s)
                    r[k]["nodes"] += n
                    r[k]["cpu_s"] = round(r[k]["cpu_s"] + cpu, 4)
                    r[k]["exact"] = iv.exact
                    r[k]["value"] = [iv.lo, iv.hi]
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            print(json.dumps(r), flush=True)
            done[i] = r
    tot = {k: [sum(r[k]["nodes"] for r in done.values()),
               sum(r[k]["cpu_s"] for r in done.values())] for k in ("python", "numba")}
    rate = {k: round(n / c) if c else None for k, (n, c) in tot.items()}
    ratios = sorted((r["numba"]["nodes"] / r["numba"]["cpu_s"]) /
                    (r["python"]["nodes"] / r["python"]["cpu_s"]) for r in done.values()
                    if r["numba"]["cpu_s"] >= 0.01 and r["python"]["cpu_s"] >= 0.01)
    summary = {"budget_s": a.budget_s, "pairs": a.pairs, "positions": len(done),
               "nodes_per_cpu_s": rate,
               "ratio": round(rate["numba"] / rate["python"], 1) if rate["python"] else None,
               "per_position_ratio": {"n": len(ratios), "min": round(ratios[0], 1),
                                      "median": round(ratios[len(ratios) // 2], 1),
                                      "max": round(ratios[-1], 1)} if ratios else None,
               **_machine()}
    print(json.dumps(summary))
    return summary


def main(argv=None):
    from engine.notation import parse_position

    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=10.0)
    ap.add_argument("--max-unknown", type=int, default=99)
    ap.add_argument("--only-open-at", type=float, default=None)
    ap.add_argument("--kernel", choices=("python", "numba"), default="python",
                    help="the Python search (solver.duo.open_hands) or the numba one "
                         "(solver.duo.open_search)")
    ap.add_argument("--side-by-side", action="store_true",
                    help="both searches on the same positions, A B A B (nodes per CPU s)")
    ap.add_argument("--pairs", type=int, default=2, help="--side-by-side: rounds of A B")
    ap.add_argument("--table-bits", type=int, default=None,
                    help="--kernel numba: a memo of 2**B rows (default "
                         "solver.duo.open_search.DEFAULT_TABLE_BITS)")
    ap.add_argument("--only", default=None, help="only these fixture indices (comma list)")
    ap.add_argument("--tag", default="", help="a name part of the output file (a new series)")
    a = ap.parse_args(argv)
    os.makedirs(".bench-results", exist_ok=True)
    if a.side_by_side:
        return side_by_side(a)
    if a.kernel == "numba":
        from solver.duo.open_search import warm_up
        warm_up()
        a.tag += "-nb" if a.table_bits is None else f"-nb{a.table_bits}"
    rows = fixture_rows()
    path = _out(a.budget_s, a.tag)
    done = _load(path)
    skip_exact = None
    if a.only_open_at is not None:
        skip_exact = {i for i, r in _load(_out(a.only_open_at, a.tag)).items() if r["exact"]}
    with open(path, "a") as fh:
        for i, (u, text) in enumerate(rows):
            if i in done or u > a.max_unknown or (skip_exact is not None and i in skip_exact):
                continue
            if a.only is not None and i not in {int(x) for x in a.only.split(",")}:
                continue
            prof = {}
            iv, nodes, wall, cpu = _timed(a.kernel, parse_position(text), a.budget_s,
                                          a.table_bits, prof)
            r = {"index": i, "unknown": u, "exact": iv.exact, "lo": iv.lo, "hi": iv.hi,
                 "nodes": nodes, "seconds": round(wall, 3), "cpu_s": round(cpu, 3), **prof}
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            print(json.dumps(r), flush=True)
            done[i] = r
    by_u = {}
    for r in done.values():
        by_u.setdefault(r["unknown"], []).append(r["exact"])
    summary = {"budget_s": a.budget_s, "kernel": a.kernel,
               "by_unknown": {u: f"{sum(v)}/{len(v)} exact" for u, v in sorted(by_u.items())},
               **_machine()}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
