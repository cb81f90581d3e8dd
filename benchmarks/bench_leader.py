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
  decision stream (``decision_stream(seed, decision)``, as ``benchmarks/bench_regret.py``);
* ``best-Ts`` (with ``--best T``; ``best-Nn`` with ``--best-nodes N``): what ``onirim best
  --json --budget-s T`` (``--budget-nodes N``) answers
  (``solver.api.rank``, a fresh solver per position, its kernels loaded before the clock):
  the proven best action, else its leader, ranked by the estimates it chose under that budget
  (``solver.honest.estimate.estimate_actions``: level 2 when it fits, else level 1); the row
  records which (``best-Ts-how``: ``exact``, ``level-1`` or ``level-2``), the playouts per
  action and the CPU seconds.  ``best-Ts-level-1`` (with ``--best-level-1``): the same with
  level 1 only (``onirim best`` before level 2), under the same budget.  A time budget: the
  answers depend on the machine's speed and load (recorded); a node budget: the same
  answers on every machine (its estimates are a fixed number of playouts).

The leader is modelled as the highest estimate among all actions (what ``best`` reports when
its bounds prove nothing worse); ties go to the first in the engine's order.  Regret of a
choice = exact value of the best action - exact value of the chosen one.  A position whose
ranking did not finish (``exact`` false in the file) is counted with its bounds: regret in
[max(0, max lo - hi_chosen), max hi - lo_chosen]; the table gives the mean over the exact
positions with a bootstrap 95% interval, and the mean over every position as an interval
(every open position at its lowest, then at its highest regret).

    python -m benchmarks.bench_leader [--playouts 16384] [--policy seq-rollout] [--out DIR]
                                      [--l2 P --l2-inner N1] [--no-base-leaders]
                                      [--best T [--best-level-1]] [--no-policy]

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


def estimate_rows_l2(view, n, stream, inner, base="greedy-keep-doors", prefixes=()):
    """{action id: wins} of ``n`` playouts after each action played by the level-1 rollout
    over ``base`` with ``inner`` playouts per action (common random numbers); with
    ``prefixes``, also {k: {action id: wins of the first k playouts}} (playout j uses stream
    word(key, j) whatever n is, so the first k are exactly the playouts of n = k)."""
    from solver.honest import kernel as HK
    from solver.honest import strong
    from solver.honest.rollout import _key
    S = HK.encode(view)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, n), dtype=np.int8)
    m = strong.estimate_all_l2(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                               np.int64(inner), np.float64(1.0), np.int64(16), np.int64(6),
                               np.int64(strong.BASES[base]))
    wins = {int(acts[i]): int(res[i].sum()) for i in range(m)}
    if not prefixes:
        return wins
    return wins, {k: {int(acts[i]): int(res[i, :k].sum()) for i in range(m)}
                  for k in prefixes}


def best_answer(view, budget_s=None, level1=False, budget_nodes=None):
    """(action id, how, playouts per action or None, CPU seconds) of ``onirim best --json
    --budget-s budget_s`` (or ``--budget-nodes budget_nodes``) on ``view``: the proven best,
    else the leader; ``how`` is "exact" or the estimator.  ``level1``: level-1 estimates only
    (the rule's thresholds set out of reach)."""
    from solver import api
    from solver.honest import estimate
    old = estimate.L2_MIN_S, estimate.L2_PLAYOUT_UNKNOWN
    if level1:
        estimate.L2_MIN_S, estimate.L2_PLAYOUT_UNKNOWN = float("inf"), -1
    try:
        c0 = time.process_time()
        r = api.rank(view, "expectimax", budget_s=budget_s, budget_nodes=budget_nodes)
        cpu = time.process_time() - c0
    finally:
        estimate.L2_MIN_S, estimate.L2_PLAYOUT_UNKNOWN = old
    name = r.best if r.best is not None else r.leader
    act = next(a.action_id for a in r.actions if a.action == name)
    est = r.extra.get("estimates")
    if r.best is not None or est is None:
        return act, "exact" if r.best is not None else "bounds", None, cpu
    return act, est["estimator"], est["playouts_per_action"], cpu


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


def _make(name, make_default_policy, make_policy):
    """``--policy``'s value: "default", ``experiment:NAME`` (the policy and arguments of that
    solo honest experiment of benchmarks/experiments.py, e.g. a rollout over the learned base)
    or a registered policy's name with its defaults."""
    if name == "default":
        return make_default_policy()
    if name.startswith("experiment:"):
        from benchmarks.experiments import EXPERIMENTS
        e = EXPERIMENTS.get(name.split(":", 1)[1])
        if e is None or e.kind != "honest" or e.params.get("players", 1) != 1:
            raise SystemExit(f"bench_leader: --policy {name}: not a solo honest experiment")
        return make_policy(e.params["policy"], **e.params["config"])
    return make_policy(name)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--playouts", type=int, default=16384)
    p.add_argument("--policy", action="append", default=None,
                   help="a registered policy to score (repeatable); \"default\": the default "
                        "honest policy with its arguments (solver.policies); "
                        "experiment:NAME: the policy and arguments of that experiment")
    p.add_argument("--out", default=".bench-results")
    p.add_argument("--l2", type=int, default=0, metavar="P",
                   help="also the leader of P level-2 playouts per action (0: not)")
    p.add_argument("--l2-inner", type=int, default=32, metavar="N1",
                   help="playouts per action of the level-1 rollout inside them")
    p.add_argument("--l2-prefix", type=int, action="append", default=[], metavar="K",
                   help="also the leader of the first K of the --l2 playouts (leader-l2-K; "
                        "repeatable): what P = K would give, from the same rows")
    p.add_argument("--limit", type=int, default=None, metavar="K",
                   help="only the first K positions (a smoke test; the tables use all)")
    p.add_argument("--no-base-leaders", action="store_true",
                   help="skip the greedy and greedy-keep-doors leaders")
    p.add_argument("--best", type=float, action="append", default=[], metavar="T",
                   help="also onirim best's answer under --budget-s T (repeatable)")
    p.add_argument("--best-nodes", type=int, action="append", default=[], metavar="N",
                   help="also onirim best's answer under --budget-nodes N (repeatable; "
                        "the same on every machine)")
    p.add_argument("--best-level-1", action="store_true",
                   help="with --best or --best-nodes: also its answer with level-1 "
                        "estimates only")
    p.add_argument("--no-policy", action="store_true", help="no --policy rows at all")
    a = p.parse_args(argv)
    prefixes = sorted(k for k in set(a.l2_prefix) if 0 < k < a.l2) if a.l2 else []
    from solver.api import make_default_policy, make_policy
    from solver.honest.play import decision_stream
    pols = ({} if a.no_policy      # "default": the default honest policy with its arguments
            else {name: _make(name, make_default_policy, make_policy)
                  for name in (a.policy or ["seq-rollout"])})
    bests = ([(f"best-{t:g}s", {"budget_s": t}, False) for t in a.best]
             + [(f"best-{n}n", {"budget_nodes": n}, False) for n in a.best_nodes])
    if a.best_level_1:
        bests += [(f"{lab}-level-1", kw, True) for lab, kw, _ in list(bests)]
    bases = () if a.no_base_leaders else (("leader-greedy", "greedy"),
                                          ("leader-keep-doors", "greedy-keep-doors"))
    for pol in pols.values():
        pol.warm_up()
    estimate_rows(parse_position(next(positions())["position"]), 2, 0, "greedy")
    if bests:
        from solver.expectimax.solver import prepare_kernels
        prepare_kernels()
    if a.l2:
        estimate_rows_l2(parse_position(next(positions())["position"]), 2, 0, 2)
    rows = []
    load0 = os.getloadavg()[0]
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
            wins = estimate_rows_l2(view, a.l2, stream, a.l2_inner, prefixes=prefixes)
            if prefixes:
                wins, pre = wins
                for k in prefixes:
                    act = leader(view, pre[k])
                    out[f"leader-l2-{k}"] = regret(r, act)
                    out[f"leader-l2-{k}-action"] = act
            act = leader(view, wins)
            cpu["leader-l2"] = cpu.get("leader-l2", 0.0) + time.process_time() - c0
            out["leader-l2"] = regret(r, act)
            out["leader-l2-action"] = act
        for label, kw, lv1 in bests:
            act, how, n, c = best_answer(view, level1=lv1, **kw)
            cpu[label] = cpu.get(label, 0.0) + c
            out[label] = regret(r, act)
            out[label + "-action"] = act
            out[label + "-how"] = how
            out[label + "-playouts"] = n
            out[label + "-cpu"] = c
        for name, pol in pols.items():
            c0 = time.process_time()
            act = pol.act(view, decision_stream(r["seed"], r["decision"]))
            cpu[name] = cpu.get(name, 0.0) + time.process_time() - c0
            out[name] = regret(r, act)
            out[name + "-action"] = act
        rows.append(out)
    methods = ([label for label, _ in bases] + (["leader-l2"] if a.l2 else [])
               + [f"leader-l2-{k}" for k in prefixes] + [b[0] for b in bests] + [*pols])
    res = {"command": "python -m benchmarks.bench_leader --playouts "
                      f"{a.playouts}" + "".join(f" --policy {n}" for n in pols)
                      + (f" --l2 {a.l2} --l2-inner {a.l2_inner}" if a.l2 else "")
                      + "".join(f" --l2-prefix {k}" for k in prefixes)
                      + "".join(f" --best {t:g}" for t in a.best)
                      + "".join(f" --best-nodes {n}" for n in a.best_nodes)
                      + (" --best-level-1" if a.best_level_1 else "")
                      + (" --no-policy" if a.no_policy else "")
                      + (" --no-base-leaders" if a.no_base_leaders else ""),
           "machine": machine_info(), "load_end": os.getloadavg()[0],
           "wall_s": time.time() - t0, "cpu_s": cpu, "playouts_per_action": a.playouts,
           "load_start": load0,
           "summary": {m: summary(rows, m) for m in methods}, "rows": rows}
    for label, _, _ in bests:
        hows = [r[label + "-how"] for r in rows]
        res["summary"][label]["how"] = {h: hows.count(h) for h in sorted(set(hows))}
        res["summary"][label]["cpu_s_per_position"] = cpu.get(label, 0.0) / max(len(rows), 1)
        l2n = [r[label + "-playouts"] for r in rows if r[label + "-how"] == "level-2"]
        if l2n:
            res["summary"][label]["level2_playouts_median"] = float(np.median(l2n))
    for m in methods:
        s = res["summary"][m]
        print(f"{m:<20} exact {s['exact_positions']}: mean regret {s['mean_regret']:.4f} "
              f"[{s['ci95_bootstrap'][0]:.4f}, {s['ci95_bootstrap'][1]:.4f}], zero regret "
              f"{s['zero_regret']}; all {s['all_positions']}: "
              f"[{s['mean_all_bounds'][0]:.4f}, {s['mean_all_bounds'][1]:.4f}]  "
              f"cpu {cpu.get(m, 0.0):.1f} s")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"leader-{time.strftime('%Y%m%d-%H%M%S')}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(res, f)
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
