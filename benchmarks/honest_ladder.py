"""The honest ladder: win rate against compute per decision, one `onirim winrate --mode honest`
run per policy configuration, all on deals 0 .. N-1 (the same deals for every row).

    python -m benchmarks.honest_ladder run [--jobs 2] [--dir .bench-results/ladder]
    python -m benchmarks.honest_ladder summary [--dir ...] [--out benchmarks/results/honest-ladder.json]

The published ladder no longer comes from here: the paper and the README compute it from the
per-deal rows of ``python -m benchmarks.experiments run NAME`` (one process, one core, CPU
time per deal; ``papers/rowdata.py``), and the former ``paper`` command, which wrote a
hand-made copy of the paper's record, is gone.  This script remains a way to play the ladder
through ``onirim winrate`` (summaries only, wall time).

``run`` plays every row of ``LADDER`` with the command line (each row its own SQLite file in
``--dir``, so an interrupted run resumes where it stopped and loses nothing; a finished row
costs nothing to run again) and keeps each row's JSON summary beside it.  ``summary`` reads
those summaries, adds the machine, the commit and the exact command of each row, and writes
one result file.  ``papers.build`` takes the paper's ladder from that file.

Seconds per decision are wall time per decision as `winrate` measures it (compile time
excluded), on a machine that may be shared: the load average is recorded with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys

from benchmarks.harness import machine_info, write_json

# (label, policy, policy arguments, deals): the main family is `rollout` over greedy-plus,
# from 4 to 1024 playouts per action (256 times the compute), with its two base policies.
LADDER = (
    ("greedy", "greedy", {}, 10_000),
    ("greedy-plus", "greedy-plus", {}, 10_000),
    ("rollout n=4", "rollout", {"n": 4}, 2_000),
    ("rollout n=16", "rollout", {"n": 16}, 2_000),
    ("rollout n=64", "rollout", {}, 10_000),
    ("rollout n=256", "rollout", {"n": 256}, 2_000),
    ("rollout n=1024", "rollout", {"n": 1024}, 2_000),
)
DEFAULT_DIR = os.path.join(".bench-results", "ladder")


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in label).strip("-")


def command(policy: str, args: dict, deals: int, db: str, jobs: int) -> list[str]:
    cmd = ["onirim", "winrate", "--mode", "honest", "--policy", policy]
    for k, v in args.items():
        cmd += ["--policy-arg", f"{k}={v}"]
    return cmd + ["--deals", str(deals), "--seed", "0", "--db", db, "--jobs", str(jobs),
                  "--json"]


def run(directory: str, jobs: int, only: list[str] | None) -> None:
    os.makedirs(directory, exist_ok=True)
    for label, policy, args, deals in LADDER:
        if only and label not in only:
            continue
        slug = _slug(label)
        cmd = command(policy, args, deals, os.path.join(directory, slug + ".sqlite"), jobs)
        print("$", shlex.join(cmd), flush=True)
        out = subprocess.run([sys.executable, "-m", "onirim"] + cmd[1:], capture_output=True,
                             text=True)
        if out.returncode != 0:
            sys.stderr.write(out.stderr)
            raise SystemExit(out.returncode)
        summary = json.loads(out.stdout)
        summary["command"] = shlex.join(cmd)
        with open(os.path.join(directory, slug + ".json"), "w") as f:
            json.dump(summary, f, indent=2, sort_keys=True)
        print(f"  {summary['wins']}/{summary['deals']} = {summary['win_rate']:.4f}, "
              f"{summary['seconds_per_decision']:.5f} s/decision", flush=True)


def summary(directory: str, out: str) -> dict:
    rows = []
    for label, policy, args, deals in LADDER:
        path = os.path.join(directory, _slug(label) + ".json")
        if not os.path.exists(path):
            print(f"{label}: not run yet ({path})", file=sys.stderr)
            continue
        with open(path) as f:
            s = json.load(f)
        rows.append({"label": label, "policy": policy, "policy_config": s["policy_config"],
                     "policy_hash": s["policy_hash"], "deals": s["deals"], "seed_first": 0,
                     "wins": s["wins"], "win_rate": s["win_rate"], "ci95": s["ci95"],
                     "decisions": s["decisions"], "seconds": s["seconds"],
                     "seconds_per_decision": s["seconds_per_decision"],
                     "mean_doors": s["mean_doors"], "command": s.get("command")})
    data = {"name": "honest-ladder", "rows": rows, "machine": machine_info(),
            "note": "seconds are wall time per decision on a 2-core machine shared with "
                    "other jobs (load average at the end in machine.loadavg)"}
    folder, name = os.path.split(out)
    write_json(name, data, folder or ".")
    for r in rows:
        print(f"{r['label']:<16} {r['wins']:>6}/{r['deals']:<6} {r['win_rate']:.4f} "
              f"[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]  {r['seconds_per_decision']:.5f} s")
    return data


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.honest_ladder",
                                description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play every row (resumes)")
    r.add_argument("--dir", default=DEFAULT_DIR)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--only", action="append", help="a row label (repeatable)")
    s = sub.add_parser("summary", help="write the result file from the rows played")
    s.add_argument("--dir", default=DEFAULT_DIR)
    s.add_argument("--out", default=os.path.join("benchmarks", "results", "honest-ladder.json"))
    a = p.parse_args(argv)
    if a.cmd == "run":
        run(a.dir, a.jobs, a.only)
    else:
        summary(a.dir, a.out)


if __name__ == "__main__":
    main()
