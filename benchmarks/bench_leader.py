"""Does ``onirim best``'s leader agree with the exact best action more often under the new
estimator?  On the late positions of docs/REGRET.md whose every action has a known exact value
(or bounds), compare the action each method picks:

* ``leader-greedy``: the highest estimate of greedy play after the action (``onirim best``'s
  estimate before issue 29), ``--playouts`` playouts per action;
* ``leader-keep-doors``: the highest estimate of greedy-keep-doors play after the action
  (``solver.honest.estimate.POLICY``, today's), the same playouts and the same chance streams;
* ``leader-l2`` (with ``--l2 P``): the highest estimate of *rollout* play after the action:
  ``P`` playouts per action, each played to the end by the level-1 rollout over
  greedy-keep-doors with ``--l2-inner`` playouts per action (``rollout``'s margin and screen
  defaults; ``solver.honest.strong.estimate_all_l2``), the same chance streams;
* any ``--policy NAME`` (default ``seq-rollout``): its own action at the position's view and
  decision stream (``decision_stream(seed, decision)``, as ``benchmarks/bench_regret.py``).

The leader is modelled as the highest estimate among all actions (what ``best`` reports when
its bounds prove nothing worse); ties go to the first in the engine's order.  Regret of a
choice = exact value of the best action - exact value of the chosen one.  A position whose
ranking did not finish (``exact`` false in the file) is counted with its bounds: regret in
[max(0, max lo - hi_chosen), max hi - lo_chosen]; the table gives the mean over the exact
positions with a bootstrap 95% interval, and the mean over every position as an interval
(every open position at its lowest, then at its highest regret).

    python -m benchmarks.bench_leader [--playouts 16384] [--policy seq-rollout] [--out DIR]
                                      [--l2 P --l2-inner N1] [--no-base-leaders]

Positions: benchmarks/results/regret-exact-20261201.jsonl (300, 254 exact) and
regret-holdout-exact-20261201.jsonl (127, 90 exact).  Writes ``leader-<time>.json`` to
``--out`` (default .bench-results/) with one row per position.
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from benchmarks.harness import machine_info
from engine import rng
from engine.notation import parse_position

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ("regret-exact-20261201.jsonl", "regret-holdout-exact-20261201.jsonl")
ZERO = 1e-12
_STREAM = 29          # the estimates' stream of position i: rng.stream_key(_STREAM, i)


def positions():
    for f in FILES:
        with open(os.path.join(HERE, "results", f), encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    r = json.loads(line)
                    r["file"] = f
                    yield r


def estimate_rows(view, n, stream, base):
    """{action id: wins} of ``n`` playouts of ``base`` after each action (common random
    numbers; the key of solver.honest.estimate.action_estimates)."""
    from solver.honest import kernel as HK
    from solver.honest import strong
    from solver.honest.rollout import _key
    S = HK.encode(view)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, n), dtype=np.int8)
    m = strong.estimate_all_base(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                                 np.int64(strong.BASES[base]))
    return {int(acts[i]): int(res[i].sum()) for i in range(m)}


def estimate_rows_l2(view, n, stream, inner, base="greedy-keep-doors"):
    """{action id: wins} of ``n`` playouts after each action played by the level-1 rollout
    over ``base`` with ``inner`` playouts per action (common random numbers)."""
    from solver.honest import kernel as HK
    from solver.honest import strong
    from solver.honest.rollout import _key
    S = HK.encode(view)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, n), dtype=np.int8)
    m = strong.estimate_all_l2(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                               np.int64(inner), np.float64(1.0), np.int64(16), np.int64(6),
                               np.int64(strong.BASES[base]))
    return {int(acts[i]): int(res[i].sum()) for i in range(m)}


def leader(view, wins):
    best, bw = None, -1
    for a in view.legal_actions():          # ties: the first in the engine's order
        if wins[a] > bw:
            best, bw = a, wins[a]
    return best


def regret(row, a):
    """(low, high) regret of action id ``a`` from the row's bounds (equal when exact)."""
    acts = {x["id"]: x for x in row["actions"]}
    c = acts[a]
    lo = max(0.0, max(x["lo"] for x in row["actions"]) - c["hi"])
    hi = max(x["hi"] for x in row["actions"]) - c["lo"]
    lo = 0.0 if lo <= ZERO else lo
    hi = 0.0 if hi <= ZERO else hi
    return lo, hi


def summary(rows, method, boot=2000, seed=0):
    ex = np.array([r[method][0] for r in rows if r["exact"]])
    rng_ = np.random.default_rng(seed)
    means = [rng_.choice(ex, len(ex)).mean() for _ in range(boot)]
    return {"exact_positions": int(len(ex)), "mean_regret": float(ex.mean()),
            "ci95_bootstrap": [float(np.percentile(means, 2.5)),
                               float(np.percentile(means, 97.5))],
            "zero_regret": int((ex <= ZERO).sum()),
            "all_positions": len(rows),
            "mean_all_bounds": [float(np.mean([r[method][0] for r in rows])),
                                float(np.mean([r[method][1] for r in rows]))]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--playouts", type=int, default=16384)
    p.add_argument("--policy", action="append", default=None)
    p.add_argument("--out", default=".bench-results")
    p.add_argument("--l2", type=int, default=0, metavar="P",
                   help="also the leader of P level-2 playouts per action (0: not)")
    p.add_argument("--l2-inner", type=int, default=32, metavar="N1",
                   help="playouts per action of the level-1 rollout inside them")
    p.add_argument("--limit", type=int, default=None, metavar="K",
                   help="only the first K positions (a smoke test; the tables use all)")
    p.add_argument("--no-base-leaders", action="store_true",
                   help="skip the greedy and greedy-keep-doors leaders")
    a = p.parse_args(argv)
    from solver.api import make_policy
    from solver.honest.play import decision_stream
    pols = {name: make_policy(name) for name in (a.policy or ["seq-rollout"])}
    bases = () if a.no_base_leaders else (("leader-greedy", "greedy"),
                                          ("leader-keep-doors", "greedy-keep-doors"))
    for pol in pols.values():
        pol.warm_up()
    estimate_rows(parse_position(next(positions())["position"]), 2, 0, "greedy")
    if a.l2:
        estimate_rows_l2(parse_position(next(positions())["position"]), 2, 0, 2)
    rows = []
    t0 = time.time()
    cpu = {}
    for i, r in enumerate(positions()):
        if a.limit is not None and i >= a.limit:
            break
        view = parse_position(r["position"])
        out = {"file": r["file"], "seed": r["seed"], "decision": r["decision"],
               "exact": bool(r["exact"]), "unknown": r.get("unknown")}
        stream = rng.stream_key(_STREAM, i)
        for label, base in bases:
            c0 = time.process_time()
            act = leader(view, estimate_rows(view, a.playouts, stream, base))
            cpu[label] = cpu.get(label, 0.0) + time.process_time() - c0
            out[label] = regret(r, act)
            out[label + "-action"] = act
        if a.l2:
            c0 = time.process_time()
            act = leader(view, estimate_rows_l2(view, a.l2, stream, a.l2_inner))
            cpu["leader-l2"] = cpu.get("leader-l2", 0.0) + time.process_time() - c0
            out["leader-l2"] = regret(r, act)
            out["leader-l2-action"] = act
        for name, pol in pols.items():
            c0 = time.process_time()
            act = pol.act(view, decision_stream(r["seed"], r["decision"]))
            cpu[name] = cpu.get(name, 0.0) + time.process_time() - c0
            out[name] = regret(r, act)
            out[name + "-action"] = act
        rows.append(out)
    methods = [label for label, _ in bases] + (["leader-l2"] if a.l2 else []) + [*pols]
    res = {"command": "python -m benchmarks.bench_leader --playouts "
                      f"{a.playouts} " + " ".join(f"--policy {n}" for n in pols)
                      + (f" --l2 {a.l2} --l2-inner {a.l2_inner}" if a.l2 else "")
                      + (" --no-base-leaders" if a.no_base_leaders else ""),
           "machine": machine_info(), "load_end": os.getloadavg()[0],
           "wall_s": time.time() - t0, "cpu_s": cpu, "playouts_per_action": a.playouts,
           "summary": {m: summary(rows, m) for m in methods}, "rows": rows}
    for m in methods:
        s = res["summary"][m]
        print(f"{m:<20} exact {s['exact_positions']}: mean regret {s['mean_regret']:.4f} "
              f"[{s['ci95_bootstrap'][0]:.4f}, {s['ci95_bootstrap'][1]:.4f}], zero regret "
              f"{s['zero_regret']}; all {s['all_positions']}: "
              f"[{s['mean_all_bounds'][0]:.4f}, {s['mean_all_bounds'][1]:.4f}]  "
              f"cpu {cpu[m]:.1f} s")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"leader-{time.strftime('%Y%m%d-%H%M%S')}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(res, f)
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
