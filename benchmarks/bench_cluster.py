"""Local backends of ``onirim winrate`` side by side: ``--jobs 1``, ``--jobs 2``,
``--cluster local:1`` and ``--cluster local:2`` on the same deals, each into a fresh database.

    python -m benchmarks.bench_cluster [--deals 2000] [--seed 0] [--mode honest|clairvoyant]
                                       [--deal-seconds 5] [--out FILE.json]

It reports each run's wall time, checks that all four store the same rows, and gives:

* the scaling ratio: the wall time of ``local:1`` over that of ``local:2``;
* the overhead per task against ``--jobs``: (``local:N`` wall - ``--jobs N`` wall) / tasks;
* on paper, the number of worker cores that would play 100,000 honest deals in one hour at
  ``--deal-seconds`` per deal (default 5 s, a search policy at 0.1 s per decision), with the
  measured overhead per task added.

Wall times on a shared machine measure the load as much as the code: the load average is
recorded with the machine.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

from benchmarks.harness import machine_info, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rows(db, mode):
    con = sqlite3.connect(db)
    if mode == "honest":
        q = "SELECT seed, won, doors, decisions, actions FROM honest ORDER BY seed"
    else:
        q = "SELECT seed, result, nodes, certificate FROM results ORDER BY seed"
    out = con.execute(q).fetchall()
    con.close()
    return out


def run(deals=2000, seed=0, mode="honest", deal_seconds=5.0) -> dict:
    from solver.runs.cluster import chunk_size
    base = ["winrate", "--mode", mode, "--deals", str(deals), "--seed", str(seed), "--json"]
    if mode == "honest":
        base[3:3] = ["--policy", "greedy"]
    env = dict(os.environ, PYTHONPATH=ROOT)
    variants = [("jobs 1", ["--jobs", "1"]), ("jobs 2", ["--jobs", "2"]),
                ("local:1", ["--cluster", "local:1"]), ("local:2", ["--cluster", "local:2"])]
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        ref = None
        for name, extra in variants:
            db = os.path.join(tmp, name.replace(" ", "").replace(":", "") + ".sqlite")
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, "-m", "onirim", *base, *extra, "--db", db],
                               env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if p.returncode != 0:
                raise SystemExit(f"{name}: exit {p.returncode}: {p.stderr.strip()}")
            out = json.loads(p.stdout)
            rows = _rows(db, mode)
            same = True if ref is None else rows == ref
            ref = rows if ref is None else ref
            res[name] = {"wall_s": round(wall, 3), "wins": out["wins"],
                         "deal_seconds_sum": out["seconds"], "identical_rows": same}
    workers = {"local:1": 1, "local:2": 2}
    for name, n in workers.items():
        tasks = math.ceil(deals / chunk_size(mode, deals, n))
        res[name]["tasks"] = tasks
        jobs = res[f"jobs {n}"]["wall_s"]
        res[name]["overhead_per_task_s"] = round((res[name]["wall_s"] - jobs) / tasks, 4)
    scaling = res["local:1"]["wall_s"] / res["local:2"]["wall_s"]
    per_task = max(0.0, res["local:2"]["overhead_per_task_s"])
    chunk = max(1, int(2.0 / deal_seconds)) if deal_seconds < 2 else 1
    core_s = 100_000 * deal_seconds + math.ceil(100_000 / chunk) * per_task
    return {"mode": mode, "deals": deals, "seed": seed, "runs": res,
            "scaling_local2_over_local1": round(scaling, 3),
            "paper_cluster": {"deals": 100_000, "deal_seconds": deal_seconds,
                              "overhead_per_task_s": per_task,
                              "cores_for_one_hour": math.ceil(core_s / 3600)},
            "machine": machine_info()}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_cluster")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mode", choices=("honest", "clairvoyant"), default="honest")
    ap.add_argument("--deal-seconds", type=float, default=5.0)
    ap.add_argument("--out", default=None, help="write the JSON here too")
    a = ap.parse_args(argv)
    r = run(a.deals, a.seed, a.mode, a.deal_seconds)
    rows = [(name, f"{v['wall_s']:.2f} s", v["wins"], v.get("tasks", "-"),
             v.get("overhead_per_task_s", "-"), v["identical_rows"])
            for name, v in r["runs"].items()]
    print(table(rows, ("backend", "wall", "wins", "tasks", "overhead/task (s)", "same rows")))
    print(f"scaling local:1 / local:2 wall: {r['scaling_local2_over_local1']}")
    pc = r["paper_cluster"]
    print(f"100,000 deals at {pc['deal_seconds']} s each in one hour: "
          f"{pc['cores_for_one_hour']} worker cores")
    m = r["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, load {m.get('loadavg')}, "
          f"Python {m['python']}, numba {m['numba']}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
