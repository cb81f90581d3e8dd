"""Summarise the per-deal rows of ``onirim bound`` runs (docs/BOUND.md section 11).

    python -m benchmarks.bound_summary /path/bound.sqlite [--json] [--export DIR]

For every configuration stored in the file (table ``bound_rows``): the deals, the bound
(mean of the inner values) with its 95% interval and one-sided 95% upper limit, the deals not
finished and the searches cut short, CPU seconds, and with a policy prefix the policy's own
win rate on the same deals (Wilson 95%) and the paired gap ``bound - policy`` with its
interval.  ``--export DIR`` writes each configuration's rows (gzipped JSON lines) and the
summary (JSON) into DIR, named by a short hash of the configuration.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import sqlite3
import sys

from solver.stats import wilson

Z95 = 1.959963984540054


def _mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    return m, [m - Z95 * se, m + Z95 * se], m + 1.6448536269514722 * se


def summarise(rows, config) -> dict:
    from onirim.cmd_bound import summary
    rows = sorted(rows, key=lambda r: r["seed"])
    out = summary(rows, config)
    out["seeds"] = [rows[0]["seed"], rows[-1]["seed"]] if rows else None
    if config.get("policy") and rows:
        w = sum(1 for r in rows if r.get("policy_won"))
        out["policy_wilson95"] = list(wilson(w, len(rows)))
        if out["bound"] is not None:
            gap = [r["value"] - (1.0 if r.get("policy_won") else 0.0) for r in rows]
            m, ci, _ = _mean_ci(gap)
            out["gap"] = m
            out["gap_ci95"] = ci
    secs = sorted(r.get("seconds", 0.0) for r in rows)
    if secs:
        out["seconds_median"] = secs[len(secs) // 2]
        out["seconds_max"] = secs[-1]
    return out


def load(path):
    con = sqlite3.connect(path)
    groups: dict = {}
    for key, row in con.execute("SELECT key, row FROM bound_rows"):
        groups.setdefault(key, []).append(json.loads(row))
    con.close()
    return groups


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bound_summary", description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--export", default=None, metavar="DIR")
    a = ap.parse_args(argv)
    if not os.path.exists(a.db):
        print(f"bound_summary: {a.db}: no such file", file=sys.stderr)
        return 2
    outs = []
    for key, rows in load(a.db).items():
        config = json.loads(key)
        s = summarise(rows, config)
        s["config"] = config
        outs.append(s)
        if a.export:
            tag = hashlib.sha256(key.encode()).hexdigest()[:10]
            os.makedirs(a.export, exist_ok=True)
            with gzip.open(os.path.join(a.export, f"bound-rows-{tag}.jsonl.gz"), "wt") as f:
                for r in sorted(rows, key=lambda r: r["seed"]):
                    f.write(json.dumps(r, sort_keys=True) + "\n")
            with open(os.path.join(a.export, f"bound-summary-{tag}.json"), "w") as f:
                json.dump(s, f, indent=2, sort_keys=True)
    if a.json:
        print(json.dumps(outs, indent=2, sort_keys=True))
        return 0
    for s in outs:
        c = s["config"]
        head = (f"policy {c['policy']} {c['config']} until {c['switch']} unknown, then "
                if c["policy"] else "from the start: ")
        print(f"{head}relaxed, W {c['w']}, stop {c['stop']}, budget {c['budget_nodes']:,} "
              f"(expectimax {c['ex_budget']})")
        if s["bound"] is None:
            print(f"  {s['deals']} deals: bound unknown ({s['unfinished']} not finished)")
        else:
            print(f"  {s['deals']} deals (seeds {s['seeds'][0]}..{s['seeds'][1]}): bound "
                  f"{s['bound']:.4f} [{s['ci95'][0]:.4f}, {s['ci95'][1]:.4f}], one-sided "
                  f"upper {s['upper95']:.4f}; not finished {s['unfinished']}, searches cut "
                  f"short {s['inexact']}")
        if c["policy"]:
            lo, hi = s["policy_wilson95"]
            print(f"  policy alone: {s['policy_rate']:.4f} [{lo:.4f}, {hi:.4f}]"
                  + (f"; gap {s['gap']:.4f} [{s['gap_ci95'][0]:.4f}, {s['gap_ci95'][1]:.4f}]"
                     if "gap" in s else ""))
        print(f"  CPU {s['cpu_s']:.0f} s; per deal median {s.get('seconds_median', 0):.2f} s "
              f"wall, max {s.get('seconds_max', 0):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
