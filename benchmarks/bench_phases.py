"""Where an honest policy's CPU goes: per decision phase, on deals away from the evaluation
deals (issue 29: which decisions a cheaper policy must make cheaper).

    python -m benchmarks.bench_phases --name endgame8-seq-n256-stop-learned [--deals 30]
        [--first 10000000] [--json] [--no-save]

The solo honest experiment ``--name`` (its policy and arguments, benchmarks/experiments.py)
plays ``--deals`` whole deals from seed ``--first`` through the engine, policy seed 1, as
``onirim winrate`` does.  Every decision is timed alone (CPU time of this process around
``act``; the policy is made and warmed up first, so no compile is counted) and filed under its
phase (``play``, ``prophecy``, ``nightmare``, ``door``; a decision with one legal action under
``forced``).  Per phase: decisions, mean legal actions, CPU seconds, share of the CPU, ms per
decision.  At a play-phase decision with more than one action it also records the rank of the
chosen action among the legal ones by the ``learned-base`` scorer
(:func:`solver.policies.learned.learned_base_action`'s scores; 0 = the scorer's own choice,
ties in legal order): how often the search departs from the base, and how far; and, by the
scorer's margin there (its best score less its second best, in weight units), how many of those
decisions and how much of the CPU lie at that margin or more, and how often the search departs
from the scorer there (``by_margin``): whether a large margin could let a policy skip the
search.

Saved as ``benchmarks/results/phases-DATE.json`` unless ``--no-save`` (with the machine, the
versions, the commit and the load); ``--json`` prints the document.  A bad name exits 2 with
one line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time


MARGINS = (0, 25, 50, 100, 150, 200, 300)


class _Timed:
    """``policy`` with every ``act`` timed alone and filed under its phase (module docstring);
    played by :func:`solver.honest.play.play_honest`, the project's honest game loop."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name
        self.phases: dict[str, dict] = {}
        self.ranks: dict[int, int] = {}
        self.margins: list[tuple[int, bool, float]] = []   # (margin, departs, CPU s)

    def act(self, v, stream: int) -> int:
        from engine.policy import keep_doors_action
        from solver.honest.learned_weights import WEIGHTS
        from solver.policies.learned import score
        acts = v.legal_actions()
        c0 = time.process_time()
        a = self.policy.act(v, stream)
        dt = time.process_time() - c0
        p = self.phases.setdefault(v.phase if len(acts) > 1 else "forced",
                                   {"decisions": 0, "legal": 0, "cpu_s": 0.0})
        p["decisions"] += 1
        p["legal"] += len(acts)
        p["cpu_s"] += dt
        if v.phase == "play" and len(acts) > 1:
            kd = keep_doors_action(v)
            sc = {x: score(v, x, kd, WEIGHTS) for x in acts}
            r = sorted(acts, key=lambda x: (-sc[x], acts.index(x))).index(a)
            self.ranks[r] = self.ranks.get(r, 0) + 1
            top = sorted(sc.values(), reverse=True)
            self.margins.append((top[0] - top[1], r != 0, dt))
        return a


def measure(name: str, deals: int = 30, first: int = 10_000_000, log=None) -> dict:
    """Play the deals and return the document (module docstring)."""
    from benchmarks import experiments
    from solver.api import make_policy
    from solver.honest.play import play_honest

    e = experiments.EXPERIMENTS[name]
    pol = make_policy(e.params["policy"], **e.params["config"])
    pol.warm_up()
    timed = _Timed(pol)
    won = 0
    for seed in range(first, first + deals):
        g = play_honest(timed, seed)
        won += g.won
        if log:
            log(f"deal {seed}: {g.decisions} decisions")
    phases, ranks = timed.phases, timed.ranks
    total = sum(p["cpu_s"] for p in phases.values())
    ndec = sum(p["decisions"] for p in phases.values())
    out = {k: {"decisions": p["decisions"],
               "legal_per_decision": round(p["legal"] / p["decisions"], 3),
               "cpu_s": round(p["cpu_s"], 4),
               "share": round(p["cpu_s"] / total, 4) if total else None,
               "ms_per_decision": round(1000 * p["cpu_s"] / p["decisions"], 4)}
           for k, p in sorted(phases.items(), key=lambda kv: -kv[1]["cpu_s"])}
    by_margin = []
    for m in MARGINS:
        at = [x for x in timed.margins if x[0] >= m]
        by_margin.append({"margin_at_least": m, "decisions": len(at),
                          "departs": sum(x[1] for x in at),
                          "cpu_share": round(sum(x[2] for x in at) / total, 4) if total else None})
    commit, clean = experiments.git_state()
    return {"command": f"python -m benchmarks.bench_phases --name {name} --deals {deals} "
                       f"--first {first}",
            "commit": commit, "clean_tree": clean, "machine": experiments.machine(),
            "experiment": name, "config": e.params, "deals": deals, "first_seed": first,
            "won": won, "decisions": ndec,
            "cpu_ms_per_decision": round(1000 * total / max(ndec, 1), 4),
            "phases": out,
            "play_rank_of_choice": {str(k): ranks[k] for k in sorted(ranks)},
            "by_margin": by_margin,
            "timing": "CPU time of this process (time.process_time) around each act; "
                      "compile excluded (warmed up first); one core"}


def table(doc) -> str:
    lines = [f"{doc['experiment']}: {doc['deals']} deals from seed {doc['first_seed']}, "
             f"{doc['decisions']} decisions, {doc['cpu_ms_per_decision']:.3f} ms CPU each, "
             f"{doc['won']} won; load {doc['machine']['loadavg']}; commit {doc['commit']}",
             f"{'phase':10s} {'decisions':>9s} {'legal':>7s} {'CPU s':>8s} {'share':>6s} "
             f"{'ms/dec':>8s}"]
    for k, p in doc["phases"].items():
        lines.append(f"{k:10s} {p['decisions']:9d} {p['legal_per_decision']:7.2f} "
                     f"{p['cpu_s']:8.2f} {p['share']:6.3f} {p['ms_per_decision']:8.2f}")
    lines.append("play: rank of the chosen action by the learned-base scorer: "
                 + ", ".join(f"{k}: {v}" for k, v in doc["play_rank_of_choice"].items()))
    lines.append("play, by the scorer's margin (best - second score): margin >= m: decisions, "
                 "search departs from the scorer, share of all CPU")
    for b in doc["by_margin"]:
        lines.append(f"  >= {b['margin_at_least']:4d}: {b['decisions']:6d} "
                     f"{b['departs']:6d} {b['cpu_share']:7.3f}")
    return "\n".join(lines)


def phase_main(argv, prog: str, description: str, what: str, deals: int, accepts, measure_fn,
               kind: str, table_fn) -> int:
    """The command line of the phase benchmarks (this one and ``bench_open_phases``):
    ``--name`` an experiment that ``accepts(experiment)``, ``--deals`` (default ``deals``),
    ``--first``, ``--json``, ``--no-save``; bad input exits 2 with one line naming ``what``
    the experiment must be.  ``measure_fn(name, deals, first, log)`` makes the document, saved
    as ``benchmarks/results/KIND-DATE.json`` and printed by ``table_fn`` (or as JSON)."""
    ap = argparse.ArgumentParser(prog=f"python -m benchmarks.{prog}", description=description)
    ap.add_argument("--name", required=True, help=what)
    ap.add_argument("--deals", type=int, default=deals, help=f"deals; default {deals}")
    ap.add_argument("--first", type=int, default=10_000_000,
                    help="first seed; default 10,000,000 (away from the evaluation deals)")
    ap.add_argument("--json", action="store_true", help="print the document as JSON")
    ap.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/")
    a = ap.parse_args(argv)
    from benchmarks.experiments import EXPERIMENTS
    e = EXPERIMENTS.get(a.name)
    if e is None or not accepts(e):
        print(f"{prog}: {a.name!r} is not {what} (python -m benchmarks.experiments list)",
              file=sys.stderr)
        return 2
    if not 1 <= a.deals <= 100_000 or a.first < 0:
        print(f"{prog}: --deals must be from 1 to 100000 and --first >= 0", file=sys.stderr)
        return 2
    doc = measure_fn(a.name, a.deals, a.first,
                     None if a.json else (lambda m: print(m, file=sys.stderr)))
    if not a.no_save:
        from benchmarks.harness import write_stamped
        doc["file"] = os.path.relpath(write_stamped(kind, doc))
    print(json.dumps(doc, indent=1) if a.json else table_fn(doc))
    return 0


def main(argv=None) -> int:
    return phase_main(argv, "bench_phases",
                      "CPU per decision phase of a solo honest experiment's policy (module "
                      "docstring).", "a solo honest experiment", 30,
                      lambda e: e.kind == "honest" and e.params.get("players", 1) == 1,
                      lambda name, deals, first, log: measure(name, deals, first, log=log),
                      "phases", table)


if __name__ == "__main__":
    sys.exit(main())
