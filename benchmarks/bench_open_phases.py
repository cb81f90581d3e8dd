"""Where the open game's switch policy spends its CPU: the rollout outside the end game against
the exact open-hands search inside it (issue 47: what a cheaper switch would free for playouts).

    python -m benchmarks.bench_open_phases --name duo-open-team [--deals 20]
        [--first 10000000] [--json] [--no-save]

The open-game experiment ``--name`` (a ``duo-open-switch`` configuration, benchmarks/
experiments.py) plays ``--deals`` whole deals from seed ``--first`` (policy seed 1, ``--talk
open``), through :func:`solver.honest.play.play_honest` as ``onirim winrate`` does.  Every
decision is timed alone (CPU time of this process around ``act``; the policy is warmed up
first, so no compile is counted) and filed under how the policy chose (``DuoOpenSwitch.last``:
``forced``, ``base`` = the rollout with more than ``unknown`` deck cards unknown, and in the
end game ``exact`` = proven best, ``bounds`` / ``base-open`` = nothing proven); the open-hands
search's own CPU (``DuoOpenSwitch.search``) is timed apart, so an end-game decision's CPU is
the search plus the base calls the switch makes there (ties, the bounds fallback).

Saved as ``benchmarks/results/open-phases-DATE.json`` unless ``--no-save``; ``--json`` prints
the document.  A name that is not an open-game ``duo-open-switch`` experiment exits 2 with one
line.
"""
from __future__ import annotations

import sys
import time


class _Timed:
    """The switch policy with every ``act`` timed and filed under how it chose, its search
    timed apart (module docstring)."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name
        self.hows: dict[str, dict] = {}
        self.search_s = 0.0
        self.searches = 0
        search = policy.search

        def timed_search(view):
            c0 = time.process_time()
            try:
                return search(view)
            finally:
                self.search_s += time.process_time() - c0
                self.searches += 1
        policy.search = timed_search

    def act(self, v, stream: int) -> int:
        c0 = time.process_time()
        a = self.policy.act(v, stream)
        h = self.hows.setdefault(self.policy.last, {"decisions": 0, "cpu_s": 0.0})
        h["decisions"] += 1
        h["cpu_s"] += time.process_time() - c0
        return a


def measure(name: str, deals: int = 20, first: int = 10_000_000) -> dict:
    from benchmarks import experiments
    from solver.api import make_policy
    from solver.honest.play import play_honest

    e = experiments.EXPERIMENTS[name]
    pol = make_policy(e.params["policy"], **e.params["config"])
    pol.warm_up()
    timed = _Timed(pol)
    won = 0
    for seed in range(first, first + deals):
        won += play_honest(timed, seed, players=2, policy_seed=1, talk="open").won
    total = sum(h["cpu_s"] for h in timed.hows.values())
    ndec = sum(h["decisions"] for h in timed.hows.values())

    def ms(x):
        return round(1000 * x / max(ndec, 1), 3)
    end = [k for k in timed.hows if k not in ("forced", "base")]
    end_s = sum(timed.hows[k]["cpu_s"] for k in end)
    commit, clean = experiments.git_state()
    return {"command": f"python -m benchmarks.bench_open_phases --name {name} --deals {deals} "
                       f"--first {first}",
            "commit": commit, "clean_tree": clean, "machine": experiments.machine(),
            "experiment": name, "config": e.params, "deals": deals, "first_seed": first,
            "won": won, "decisions": ndec, "cpu_ms_per_decision": ms(total),
            "by_how": {k: {"decisions": h["decisions"], "cpu_s": round(h["cpu_s"], 4),
                           "share": round(h["cpu_s"] / total, 4) if total else None,
                           "ms_each": round(1000 * h["cpu_s"] / h["decisions"], 3)}
                       for k, h in sorted(timed.hows.items(), key=lambda kv: -kv[1]["cpu_s"])},
            "searches": timed.searches, "search_cpu_s": round(timed.search_s, 4),
            "search_ms_each": round(1000 * timed.search_s / max(timed.searches, 1), 3),
            "ms_per_decision": {"rollout": ms(timed.hows.get("base", {}).get("cpu_s", 0.0)),
                                "search": ms(timed.search_s),
                                "base_in_end_game": ms(end_s - timed.search_s),
                                "forced": ms(timed.hows.get("forced", {}).get("cpu_s", 0.0))},
            "timing": "CPU time of this process (time.process_time) around each act and each "
                      "search; compile excluded (warmed up first); one core"}


def table(doc) -> str:
    m = doc["ms_per_decision"]
    lines = [f"{doc['experiment']}: {doc['deals']} deals from seed {doc['first_seed']}, "
             f"{doc['decisions']} decisions, {doc['cpu_ms_per_decision']:.2f} ms CPU each, "
             f"{doc['won']} won; load {doc['machine']['loadavg']}; commit {doc['commit']}",
             f"ms of CPU per decision (all decisions): rollout {m['rollout']:.2f}, exact search "
             f"{m['search']:.2f} ({doc['searches']} searches, {doc['search_ms_each']:.1f} ms "
             f"each), base calls in the end game {m['base_in_end_game']:.2f}, forced "
             f"{m['forced']:.2f}",
             f"{'how':10s} {'decisions':>9s} {'CPU s':>8s} {'share':>6s} {'ms each':>8s}"]
    for k, h in doc["by_how"].items():
        lines.append(f"{k:10s} {h['decisions']:9d} {h['cpu_s']:8.2f} {h['share']:6.3f} "
                     f"{h['ms_each']:8.2f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    from benchmarks.bench_phases import phase_main
    return phase_main(argv, "bench_open_phases",
                      "CPU of the open game's switch policy: rollout against exact search "
                      "(module docstring).", "an open-game duo-open-switch experiment", 20,
                      lambda e: (e.kind == "honest" and e.params.get("talk") == "open"
                                 and e.params.get("policy") == "duo-open-switch"),
                      lambda name, deals, first, log: measure(name, deals, first),
                      "open-phases", table)


if __name__ == "__main__":
    sys.exit(main())
