"""The CPU cost of honest policies measured side by side in one run (issue 29's frontier).

    python -m benchmarks.bench_cost --names endgame8-seq-n1024-stop,seq-n1024-stop [--deals 10]
        [--rounds 4] [--first 7000] [--ref endgame8-seq-n1024-stop] [--json] [--no-save]

Why: the rows of ``python -m benchmarks.experiments`` store each deal's CPU time, but
experiments run on different days, and the CPU time of the same code on the same deals moves
with the shared host by much more than the load average shows (the default's first 100 deals,
the same decisions: 6.73 ms of CPU per decision at 09:31 UTC on 2026-12-04, load 1.8; 10.17 ms
at 15:09 UTC, load 1.0).  Costs taken from different runs are therefore compared here in one
process, interleaved: every policy of ``--names`` (experiment names: their policy and
arguments, see ``benchmarks/experiments.py``) plays the same ``--deals`` deals per round, for
``--rounds`` rounds, each round on deals of its own (from seed ``--first``, away from the
evaluation deals 0-9,999 of the experiments' rows), in the order of ``--names`` in even
rounds and reversed in odd ones, so that a drift of the machine during the run falls on every
policy alike.  Every policy is made and warmed up (compiled) before the first timed deal:
compile time is never counted.

Output, per policy: CPU milliseconds per decision over all its rounds, its ratio to ``--ref``
(``endgame8-seq-n1024-stop``, the default policy until 2026-12-04, unless told: the
stored ratios are to it), and the ratio round by round (the pairs: the
spread of these says how far to trust the ratio), with the machine, the versions, the commit
and the load average at each round's end.  Saved as ``benchmarks/results/cost-DATE.json``
unless ``--no-save``; ``--json`` prints the same document.  Bad names exit 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

DEFAULT_REF = "endgame8-seq-n1024-stop"


def _geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def measure(names, deals=10, rounds=4, first=7000, ref=DEFAULT_REF, log=None):
    """The side-by-side run; returns the result document (see the module docstring)."""
    from benchmarks import experiments
    if ref not in names:
        names = [ref] + list(names)
    workers = {}
    for n in names:
        if log:
            log(f"making and warming up {n}")
        workers[n] = experiments._worker(experiments.EXPERIMENTS[n])
    per = {n: {"cpu_s": 0.0, "wall_s": 0.0, "decisions": 0, "won": 0, "deals": 0,
               "rounds": []} for n in names}
    loads = []
    for r in range(rounds):
        seeds = range(first + r * deals, first + (r + 1) * deals)
        order = names if r % 2 == 0 else list(reversed(names))
        for n in order:
            e, w = experiments.EXPERIMENTS[n], workers[n]
            c0, t0 = time.process_time(), time.perf_counter()
            dec = won = 0
            for s in seeds:
                row = experiments._play(e, w, s)
                dec += row["decisions"]
                won += bool(row["won"])
            cpu, wall = time.process_time() - c0, time.perf_counter() - t0
            p = per[n]
            p["cpu_s"] += cpu
            p["wall_s"] += wall
            p["decisions"] += dec
            p["won"] += won
            p["deals"] += len(seeds)
            p["rounds"].append({"cpu_ms_per_decision": 1000 * cpu / max(dec, 1),
                                "decisions": dec, "won": won})
            if log:
                log(f"round {r + 1}/{rounds} {n}: {1000 * cpu / max(dec, 1):.3f} ms/decision "
                    f"({dec} decisions, {won}/{len(seeds)} won)")
        loads.append(experiments._load())
    ref_rounds = [x["cpu_ms_per_decision"] for x in per[ref]["rounds"]]
    out = {}
    for n in names:
        p = per[n]
        ms = 1000 * p["cpu_s"] / max(p["decisions"], 1)
        pairs = [x["cpu_ms_per_decision"] / a for x, a in zip(p["rounds"], ref_rounds) if a > 0]
        out[n] = {"cpu_ms_per_decision": round(ms, 4),
                  "wall_ms_per_decision": round(1000 * p["wall_s"] / max(p["decisions"], 1), 4),
                  "decisions": p["decisions"], "deals": p["deals"], "won": p["won"],
                  "ratio_to_ref": None, "ratio_pairs": [round(x, 4) for x in pairs],
                  "ratio_geomean": round(_geomean(pairs), 4) if pairs else None}
    ref_ms = out[ref]["cpu_ms_per_decision"]
    for n in names:
        out[n]["ratio_to_ref"] = round(out[n]["cpu_ms_per_decision"] / ref_ms, 4) if ref_ms else None
    commit, clean = experiments.git_state()
    argv = ["python", "-m", "benchmarks.bench_cost", "--names", ",".join(names),
            "--deals", str(deals), "--rounds", str(rounds), "--first", str(first),
            "--ref", ref]
    return {"command": " ".join(argv), "commit": commit, "clean_tree": clean,
            "machine": experiments.machine(), "ref": ref, "deals_per_round": deals, "rounds": rounds,
            "first_seed": first, "load_after_round": loads,
            "configs": {n: experiments.EXPERIMENTS[n].params for n in names},
            "timing": "CPU time of this process (time.process_time) over each policy's deals "
                      "of a round; compile excluded (every policy warmed up first); one core",
            "policies": out}


def table(doc) -> str:
    lines = [f"side by side, {doc['rounds']} rounds of {doc['deals_per_round']} deals from seed "
             f"{doc['first_seed']}; reference {doc['ref']}; load after each round "
             f"{doc['load_after_round']}; commit {doc['commit']}",
             f"{'policy':40s} {'CPU ms/dec':>10s} {'ratio':>7s}  pairs (round by round)  won"]
    for n, p in sorted(doc["policies"].items(), key=lambda kv: kv[1]["cpu_ms_per_decision"]):
        pairs = " ".join(f"{x:.2f}" for x in p["ratio_pairs"])
        lines.append(f"{n:40s} {p['cpu_ms_per_decision']:10.3f} {p['ratio_to_ref']:7.3f}  "
                     f"{pairs}  {p['won']}/{p['deals']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_cost",
                                 description="CPU per decision of honest policies, side by "
                                             "side in one run (module docstring).")
    ap.add_argument("--names", required=True,
                    help="comma-separated experiment names (solo honest policies)")
    ap.add_argument("--ref", default=DEFAULT_REF, help=f"the reference; default {DEFAULT_REF}")
    ap.add_argument("--deals", type=int, default=10, help="deals per round; default 10")
    ap.add_argument("--rounds", type=int, default=4, help="rounds; default 4")
    ap.add_argument("--first", type=int, default=7000, help="first seed; default 7000")
    ap.add_argument("--json", action="store_true", help="print the document as JSON")
    ap.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/")
    a = ap.parse_args(argv)
    from benchmarks.experiments import EXPERIMENTS
    names = [n for n in a.names.split(",") if n]
    bad = [n for n in names + [a.ref] if n not in EXPERIMENTS
           or EXPERIMENTS[n].kind != "honest" or EXPERIMENTS[n].params.get("players", 1) != 1]
    if bad:
        print(f"bench_cost: {bad[0]!r} is not a solo honest experiment "
              f"(python -m benchmarks.experiments list)", file=sys.stderr)
        return 2
    for k in ("deals", "rounds"):
        if not 1 <= getattr(a, k) <= 10_000:
            print(f"bench_cost: --{k} must be from 1 to 10,000", file=sys.stderr)
            return 2
    if not 0 <= a.first < 2**63:
        print("bench_cost: --first must be from 0 to 2**63-1", file=sys.stderr)
        return 2
    doc = measure(names, a.deals, a.rounds, a.first, a.ref,
                  log=None if a.json else (lambda m: print(m, file=sys.stderr, flush=True)))
    if not a.no_save:
        from benchmarks.harness import write_stamped
        doc["saved"] = write_stamped("cost", doc)
    print(json.dumps(doc, indent=1) if a.json else table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
