"""The two-player ladder: `onirim winrate --players 2`, clairvoyant and honest, on deals
0 .. N-1 (the same deals for every row); the honest rows share one SQLite file (rows are keyed
by player count and policy hash), and an interrupted run resumes where it stopped.

    python -m benchmarks.bench_duo_honest run [--jobs 2] [--only LABEL ...]
    python -m benchmarks.bench_duo_honest summary [--out benchmarks/results/duo-honest-ladder.json]

``run`` plays every row of ``LADDER`` with the command line and keeps each row's JSON
summary in ``.bench-results/``.  ``summary`` reads them, adds the machine, the
commit, the exact command of each row, and for the clairvoyant row the per-deal time
percentiles from the database, and writes one result file (``docs/DUO.md``, "Honest
two-player play").  Seconds are wall time per deal or decision as `winrate` measures them
(compile excluded), on a machine that may be shared: the load average is recorded.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sqlite3
import subprocess
import sys

from benchmarks.harness import machine_info, percentiles, write_json

# (label, mode, policy, policy arguments, deals, jobs, database, summary file)
# The honest rows on duo-honest-strict.sqlite use the view of the strict prophecy ruling
# (engine.view.prophecy_seer, commit 499f7a5); "duo-rollout, shared prophecy" is the same
# policy run before that ruling (commit 2f76ffa), when a prophecy's kept cards were in both
# players' views (its own database: the same policy hash, another view).
LADDER = (
    # the default budget (5,000,000 nodes) first, then 40,000,000 for the deals it left
    # UNKNOWN (a rerun with another budget solves only those): this row is the second run
    ("clairvoyant", "clairvoyant", None, {"--budget-nodes": 40_000_000}, 2_000, 1,
     "duo-cv.sqlite", "duo-cv-2000-retry.json"),
    ("greedy", "honest", "greedy", {}, 2_000, 1, "duo-honest-strict.sqlite",
     "duo-honest-strict-greedy.json"),
    ("duo-greedy-plus", "honest", "duo-greedy-plus", {}, 2_000, 1, "duo-honest-strict.sqlite",
     "duo-honest-strict-duo-greedy-plus.json"),
    ("duo-rollout", "honest", "duo-rollout", {}, 2_000, 2, "duo-honest-strict.sqlite",
     "duo-honest-strict-duo-rollout.json"),
    ("duo-rollout, shared prophecy", "honest", "duo-rollout", {}, 2_000, 2,
     "duo-honest.sqlite", "duo-honest-duo-rollout.json"),
)
DIR = ".bench-results"


def command(mode, policy, args, deals, jobs, db) -> list[str]:
    cmd = ["onirim", "winrate", "--mode", mode, "--players", "2"]
    if policy:
        cmd += ["--policy", policy]
        for k, v in args.items():
            cmd += ["--policy-arg", f"{k}={v}"]
    else:                          # clairvoyant: the arguments are flags
        for k, v in args.items():
            cmd += [k, str(v)]
    cmd += ["--deals", str(deals), "--seed", "0"]
    if jobs != 1:
        cmd += ["--jobs", str(jobs)]
    return cmd + ["--db", os.path.join(DIR, db), "--json"]


def run(only) -> None:
    os.makedirs(DIR, exist_ok=True)
    for label, mode, policy, args, deals, jobs, db, name in LADDER:
        if only and label not in only:
            continue
        cmd = command(mode, policy, args, deals, jobs, db)
        print("$", shlex.join(cmd), flush=True)
        out = subprocess.run([sys.executable, "-m", "onirim"] + cmd[1:], capture_output=True,
                             text=True)
        if out.returncode != 0:
            sys.stderr.write(out.stderr)
            raise SystemExit(out.returncode)
        s = json.loads(out.stdout)
        s["command"] = shlex.join(cmd)
        with open(os.path.join(DIR, name), "w") as f:
            json.dump(s, f, indent=2, sort_keys=True)
        print(f"  {s['wins']}/{s['deals']} [{s['ci95'][0]:.4f}, {s['ci95'][1]:.4f}]", flush=True)


def _deal_seconds(db, deals) -> dict:
    con = sqlite3.connect(db)
    secs = [r[0] for r in con.execute(
        "SELECT seconds FROM results WHERE mode='clairvoyant' AND players=2 AND key='' "
        "AND CAST(seed AS INTEGER) < ?", (deals,))]
    con.close()
    return percentiles(secs)


def _won(db, phash, deals) -> dict:
    con = sqlite3.connect(db)
    out = {int(seed): bool(won) for seed, won in con.execute(
        "SELECT seed, won FROM honest WHERE policy_hash=? AND players=2 "
        "AND CAST(seed AS INTEGER) < ?", (phash, deals))}
    con.close()
    return out


def _partial(db, policy, deals):
    """An honest run stopped before its end: the summary of the deals it stored (with
    --jobs 2 the even deals come first), marked ``complete: false``."""
    from solver.api import config_hash, make_policy
    from solver.stats import summarize
    if not os.path.exists(db):
        return None
    pol = make_policy(policy)
    phash = config_hash(pol)
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seed, won, doors, decisions, seconds FROM honest WHERE "
                       "policy_hash=? AND players=2 AND CAST(seed AS INTEGER) < ?",
                       (phash, deals)).fetchall()
    con.close()
    if not rows:
        return None
    w = sum(r[1] for r in rows)
    summ = summarize(w, len(rows) - w, 0)
    dec = sum(r[3] for r in rows)
    secs = sum(r[4] for r in rows)
    seeds = sorted(int(r[0]) for r in rows)
    return {"mode": "honest", "players": 2, "deals": len(rows), "wins": w,
            "losses": len(rows) - w, "win_rate": summ["win_rate"], "ci95": summ["ci95"],
            "seconds": secs, "decisions": dec, "seconds_per_decision": secs / dec,
            "mean_doors": sum(r[2] for r in rows) / len(rows), "policy": policy,
            "policy_config": pol.config, "policy_hash": phash, "complete": False,
            "seeds": {"even_below": 1 + max([x for x in seeds if x % 2 == 0] or [-1]),
                      "odd": [x for x in seeds if x % 2]}}


def paired(db, hash_a, hash_b, deals) -> dict:
    """Deal by deal (the same deals: common random numbers): won by both, by A only, by B
    only, by neither."""
    a, b = _won(db, hash_a, deals), _won(db, hash_b, deals)
    seeds = sorted(set(a) & set(b))
    return {"deals": len(seeds), "both": sum(a[s] and b[s] for s in seeds),
            "only_a": sum(a[s] and not b[s] for s in seeds),
            "only_b": sum(b[s] and not a[s] for s in seeds),
            "neither": sum(not a[s] and not b[s] for s in seeds)}


def summary(out: str) -> dict:
    rows = []
    for label, mode, policy, args, deals, jobs, db, name in LADDER:
        db = os.path.join(DIR, db)
        path = os.path.join(DIR, name)
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            s = _partial(db, policy, deals) if mode == "honest" else None
            if s is None:
                print(f"{label}: not run yet ({path})", file=sys.stderr)
                continue
        else:
            with open(path) as f:
                s = json.load(f)
        row = {"label": label, "players": 2, "seed_first": 0,
               "command": shlex.join(command(mode, policy, args, deals, jobs,
                                             os.path.basename(db))), **s}
        if mode == "clairvoyant" and os.path.exists(db):
            row["seconds_per_deal"] = _deal_seconds(db, deals)
        rows.append(row)
    by = {r["label"]: r for r in rows}
    if "clairvoyant" in by:
        by["clairvoyant"]["first_pass_command"] = shlex.join(command(
            "clairvoyant", None, {}, 2000, 1, "duo-cv.sqlite"))
    if "duo-rollout" in by and "duo-greedy-plus" in by:
        strict = os.path.join(DIR, "duo-honest-strict.sqlite")
        by["duo-rollout"]["paired_vs_duo_greedy_plus"] = paired(
            strict, by["duo-rollout"]["policy_hash"], by["duo-greedy-plus"]["policy_hash"],
            2000)
    if "duo-rollout, shared prophecy" in by and "duo-greedy-plus" in by:
        old = os.path.join(DIR, "duo-honest.sqlite")
        by["duo-rollout, shared prophecy"]["paired_vs_duo_greedy_plus"] = paired(
            old, by["duo-rollout, shared prophecy"]["policy_hash"],
            by["duo-greedy-plus"]["policy_hash"], 2000)
    data = {"name": "duo-honest-ladder", "rows": rows, "machine": machine_info(),
            "note": "seconds are wall time per deal (clairvoyant) or per decision (honest) on "
                    "a 2-core machine shared with other jobs (load average at the end in "
                    "machine.loadavg)"}
    folder, name = os.path.split(out)
    write_json(name, data, folder or ".")
    for r in rows:
        extra = (f"{r['seconds_per_decision'] * 1000:.3f} ms/decision"
                 if r.get("seconds_per_decision") else "")
        print(f"{r['label']:<30} {r['wins']:>5}/{r['deals']:<5} {r['win_rate']:.4f} "
              f"[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]  {extra}")
    return data


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_duo_honest")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--only", nargs="*", default=None)
    s = sub.add_parser("summary")
    s.add_argument("--out", default=os.path.join("benchmarks", "results",
                                                 "duo-honest-ladder.json"))
    a = ap.parse_args(argv)
    if a.cmd == "run":
        run(a.only)
    else:
        summary(a.out)


if __name__ == "__main__":
    main()
