"""Win rate against CPU seconds per decision for every solo honest policy with stored rows,
on the same deals (issue 29, "A frontier, not a point").

    python -m benchmarks.bench_frontier [--names a,b,...] [--min-deals 100] [--plot FILE.png]
    python -m benchmarks.bench_frontier --pair A,B [--json]
    python -m benchmarks.bench_frontier --cost latest     # ... with side-by-side costs

Reads the per-deal rows of ``python -m benchmarks.experiments`` (``benchmarks/results/rows/``:
deals from seed 0, policy seed 1, CPU time of the process over each deal, load average at its
end).  The *common* deals are the seeds every listed policy has (policies with fewer than
``--min-deals`` rows are left out of the common set and listed apart); each policy's win rate
is given on the common deals and on all its own deals, with Wilson 95% intervals, and its cost
as CPU milliseconds per decision (sum of CPU seconds / sum of decisions, over all its rows),
with the mean load under which it was measured (CPU time on a loaded machine is inflated by
shared caches and hyper-threads: compare costs measured under similar loads).  The frontier
marks the policies no other policy beats on both win rate (common deals) and cost.

``--pair A,B`` compares two rows on the deals both have: the deals won by A only and by B
only (the others say nothing about which is stronger), the sign test's z and its two-sided
exact binomial p-value under "either is as likely to win such a deal", and each one's CPU
milliseconds per decision on those deals.  This is how the default policy was chosen
(docs/POLICIES.md, "The default policy").

``--cost FILE`` (or ``latest``: the newest ``benchmarks/results/cost-*.json``) adds each
policy's CPU per decision relative to the reference of a side-by-side run of
``python -m benchmarks.bench_cost`` (every policy on the same deals in one process, order
alternated): costs of rows stored on different days are not comparable (the host's speed
moves by up to 1.5 times), those of one side-by-side run are.  The column ``x ref`` is that
ratio, ``sbs`` marks the frontier by it (win rate on the common deals against the ratio, among
the policies the cost run measured).
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from benchmarks.rows import by_seed, read
from solver.stats import wilson

# every solo honest experiment of benchmarks/experiments.py (a new one is in the table without
# an edit here; the table sorts them by cost)
def _solo_honest() -> tuple:
    from benchmarks.experiments import EXPERIMENTS
    return tuple(e.name for e in EXPERIMENTS.values()
                 if e.kind == "honest" and e.params.get("players", 1) == 1)


DEFAULT = _solo_honest()


def load(names):
    out = {}
    for n in names:
        try:
            rows = by_seed(read(n))
        except FileNotFoundError:
            continue
        out[n] = rows
    return out


def ms_per_decision(rows) -> float | None:
    """CPU milliseconds per decision over ``rows`` (sum of CPU seconds / sum of decisions)."""
    dec = sum(x["decisions"] for x in rows)
    return 1000 * sum(x["cpu_s"] for x in rows) / dec if dec else None


def table(data, min_deals):
    big = [n for n, r in data.items() if len(r) >= min_deals]
    common = set.intersection(*(set(data[n]) for n in big)) if big else set()
    rows = []
    for n, r in data.items():
        w_all = sum(bool(x["won"]) for x in r.values())
        c = [r[s] for s in common if s in r] if n in big else []
        w_c = sum(bool(x["won"]) for x in c)
        rows.append({
            "policy": n, "deals": len(r), "win_rate": w_all / len(r),
            "ci95": list(wilson(w_all, len(r))),
            "common_deals": len(c), "common_win_rate": w_c / len(c) if c else None,
            "common_ci95": list(wilson(w_c, len(c))) if c else None,
            "ms_per_decision": ms_per_decision(r.values()),
            "cpu_s_per_deal": sum(x["cpu_s"] for x in r.values()) / len(r),
            "mean_load": sum(x.get("load", 0) for x in r.values()) / len(r),
            "commits": sorted({x["run"].get("commit", "?") for x in r.values()}),
        })
    # the frontier on the common deals: no other policy as strong and cheaper
    for a in rows:
        a["frontier"] = a["common_win_rate"] is not None and not any(
            b is not a and b["common_win_rate"] is not None
            and b["common_win_rate"] >= a["common_win_rate"]
            and b["ms_per_decision"] <= a["ms_per_decision"]
            and (b["common_win_rate"], -b["ms_per_decision"])
            != (a["common_win_rate"], -a["ms_per_decision"]) for b in rows)
    rows.sort(key=lambda x: x["ms_per_decision"] or 0)
    return rows, sorted(common)


def load_cost(arg: str) -> dict:
    """The document of a ``bench_cost`` run: ``arg`` a path or ``latest``."""
    import glob
    import os
    if arg == "latest":
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
        files = sorted(glob.glob(os.path.join(here, "cost-*.json")))
        if not files:
            raise FileNotFoundError("no benchmarks/results/cost-*.json (python -m "
                                    "benchmarks.bench_cost)")
        arg = files[-1]
    with open(arg) as f:
        doc = json.load(f)
    doc["path"] = arg
    return doc


def add_cost(rows, doc) -> None:
    """Each row gains ``ratio_to_ref`` (None if the cost run did not measure it) and
    ``sbs_frontier``: no other measured policy at least as strong on the common deals and
    at most as costly by the ratio."""
    pol = doc["policies"]
    for r in rows:
        p = pol.get(r["policy"])
        r["ratio_to_ref"] = p["ratio_to_ref"] if p else None
    m = [r for r in rows if r["ratio_to_ref"] is not None and r["common_win_rate"] is not None]
    for a in rows:
        a["sbs_frontier"] = a in m and not any(
            b is not a and b["common_win_rate"] >= a["common_win_rate"]
            and b["ratio_to_ref"] <= a["ratio_to_ref"]
            and (b["common_win_rate"], -b["ratio_to_ref"])
            != (a["common_win_rate"], -a["ratio_to_ref"]) for b in m)


def pair(data, a, b) -> dict:
    """The paired comparison of rows ``a`` and ``b`` on their common deals."""
    ra, rb = data[a], data[b]
    common = sorted(set(ra) & set(rb))
    only_a = sum(bool(ra[s]["won"]) and not rb[s]["won"] for s in common)
    only_b = sum(bool(rb[s]["won"]) and not ra[s]["won"] for s in common)
    m = only_a + only_b
    z = (only_a - only_b) / math.sqrt(m) if m else 0.0
    k = min(only_a, only_b)      # exact two-sided binomial test at 1/2
    p = min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m) if m else 1.0

    def rate(r):
        w = sum(bool(r[s]["won"]) for s in common)
        return {"wins": w, "win_rate": w / len(common) if common else None,
                "ci95": list(wilson(w, len(common))) if common else None,
                "ms_per_decision": ms_per_decision([r[s] for s in common]),
                "mean_load": sum(r[s].get("load", 0) for s in common) / len(common)
                if common else None}

    return {"a": a, "b": b, "common_deals": len(common),
            "seeds": [common[0], common[-1]] if common else None,
            "won_by_a_only": only_a, "won_by_b_only": only_b, "sign_z": z, "p_two_sided": p,
            "rows": {a: rate(ra), b: rate(rb)}}


def _labels() -> dict[str, str]:
    """The experiments that are the default, the old default (bench_cost's reference) and
    ``strongest``: the same policy and arguments (tests/solver/honest/test_endgame.py)."""
    from benchmarks.bench_cost import DEFAULT_REF
    from benchmarks.experiments import EXPERIMENTS
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    from solver.policies.endgame import STRONGEST_ARGS
    out = {DEFAULT_REF: "the old default"}
    for name, e in EXPERIMENTS.items():
        if e.kind != "honest" or e.params.get("players", 1) != 1:
            continue
        if (e.params["policy"], e.params["config"]) == (DEFAULT_HONEST_POLICY,
                                                        dict(DEFAULT_HONEST_ARGS)):
            out[name] = "the default"
        elif e.params["policy"] == "endgame" and e.params["config"] == dict(STRONGEST_ARGS):
            out[name] = "`strongest`"
    return out


def markdown(rows) -> str:
    """The frontier table of docs/POLICIES.md: per policy its CPU ms per decision over its
    rows, the mean load, the win rate on the common deals and on all its deals, whether it is
    on the frontier, its side-by-side ratio to the old default and the frontier by that."""
    labels = _labels()

    def ms(x):
        return f"{x:.3f}" if x < 100 else f"{x:.1f}"

    def rate(x, ci):
        return f"{100 * x:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"

    n_common = max([r["common_deals"] or 0 for r in rows] + [0])
    out = [f"| policy | CPU ms / decision (its rows) | mean load | common deals ({n_common:,}): "
           "win rate [Wilson 95%] | all its deals | frontier | side by side, x old default "
           "| frontier by it |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = f"`{r['policy']}`" + (f" ({labels[r['policy']]})" if r["policy"] in labels
                                     else "")
        com = (rate(r["common_win_rate"], r["common_ci95"]) if r["common_deals"] else "-")
        alld = (f"the same {r['deals']:,}" if r["deals"] == r["common_deals"] else
                f"{rate(r['win_rate'], r['ci95'])} of {r['deals']:,}")
        ratio = "" if r.get("ratio_to_ref") is None else f"{r['ratio_to_ref']:.2f}"
        out.append(f"| {name} | {ms(r['ms_per_decision'])} | {r['mean_load']:.1f} | {com} | "
                   f"{alld} | {'yes' if r['frontier'] else ''} | {ratio} | "
                   f"{'yes' if r.get('sbs_frontier') else ''} |")
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--names", default=",".join(DEFAULT))
    p.add_argument("--min-deals", type=int, default=100)
    p.add_argument("--plot", default=None, metavar="FILE.png")
    p.add_argument("--pair", default=None, metavar="A,B",
                   help="compare two rows deal by deal instead (see the module's text)")
    p.add_argument("--cost", default=None, metavar="FILE|latest",
                   help="add the ratios of a side-by-side bench_cost run")
    p.add_argument("--json", action="store_true")
    p.add_argument("--markdown", action="store_true",
                   help="the table as docs/POLICIES.md prints it (markdown)")
    a = p.parse_args(argv)
    if a.pair is not None:
        names = [n for n in a.pair.split(",") if n]
        data = load(names)
        if len(names) != 2 or len(data) != 2:
            print(f"bench_frontier: error: --pair: two experiments with stored rows, not "
                  f"{a.pair!r}", file=sys.stderr)
            return 2
        r = pair(data, *names)
        if a.json:
            print(json.dumps(r))
            return 0
        lo, hi = r["seeds"] or (None, None)
        print(f"{r['common_deals']} common deals (seeds {lo}..{hi}), policy seed 1")
        for n in names:
            x = r["rows"][n]
            print(f"  {n:<26} {100 * x['win_rate']:5.2f}% [{100 * x['ci95'][0]:.2f}, "
                  f"{100 * x['ci95'][1]:.2f}]  {x['ms_per_decision']:.2f} ms/decision "
                  f"(mean load {x['mean_load']:.1f})")
        print(f"  won by {names[0]} only: {r['won_by_a_only']}, by {names[1]} only: "
              f"{r['won_by_b_only']}; sign test z = {r['sign_z']:.2f}, two-sided exact "
              f"p = {r['p_two_sided']:.2g}")
        return 0
    data = load([n for n in a.names.split(",") if n])
    rows, common = table(data, a.min_deals)
    cost = None
    if a.cost is not None:
        try:
            cost = load_cost(a.cost)
        except (OSError, ValueError, KeyError) as e:
            print(f"bench_frontier: error: --cost: {e}", file=sys.stderr)
            return 2
        add_cost(rows, cost)
    if a.markdown:
        print(markdown(rows))
    elif a.json:
        print(json.dumps({"common_deals": len(common), "rows": rows,
                          "cost": None if cost is None else {
                              k: cost.get(k) for k in ("path", "command", "commit", "ref",
                                                       "load_after_round")}}))
    else:
        lo, hi = (common[0], common[-1]) if common else (None, None)
        print(f"common deals: {len(common)} (seeds {lo}..{hi}), policy seed 1")
        w = max([20] + [len(r["policy"]) for r in rows])
        if cost is not None:
            print(f"side-by-side costs: {cost['path']} (reference {cost['ref']}, commit "
                  f"{cost['commit']}, load {cost['load_after_round']})")
        print(f"{'policy':<{w}} {'ms/dec':>8} {'load':>5} {'common':>22} {'all deals':>28}  "
              "frontier" + ("  x ref  sbs" if cost is not None else ""))
        for r in rows:
            com = ("-" if r["common_win_rate"] is None else
                   f"{100 * r['common_win_rate']:5.1f}% [{100 * r['common_ci95'][0]:4.1f}, "
                   f"{100 * r['common_ci95'][1]:4.1f}]")
            print(f"{r['policy']:<{w}} {r['ms_per_decision']:8.3f} {r['mean_load']:5.1f} "
                  f"{com:>22} {100 * r['win_rate']:5.1f}% [{100 * r['ci95'][0]:4.1f}, "
                  f"{100 * r['ci95'][1]:4.1f}] of {r['deals']:>5}  "
                  f"{'*' if r['frontier'] else ' ':8}"
                  + ("" if cost is None else
                     f"  {'-' if r['ratio_to_ref'] is None else format(r['ratio_to_ref'], '.2f'):>5}"
                     f"  {'*' if r['sbs_frontier'] else ''}"))
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for r in rows:
            if r["common_win_rate"] is None:
                continue
            x = r["ms_per_decision"] / 1000
            y = 100 * r["common_win_rate"]
            ax.errorbar([x], [y], yerr=[[y - 100 * r["common_ci95"][0]],
                                        [100 * r["common_ci95"][1] - y]],
                        fmt="o" if r["frontier"] else "x", capsize=3)
            ax.annotate(r["policy"], (x, y), textcoords="offset points", xytext=(4, -10),
                        fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("CPU seconds per decision")
        ax.set_ylabel(f"win rate, % of the {len(common)} common deals")
        ax.axhline(85, ls=":", c="grey")
        ax.axhline(90, ls=":", c="grey")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(a.plot, dpi=120)
        print(f"written {a.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
