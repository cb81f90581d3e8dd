"""CPU per unit of work of two source trees, side by side (A B A B), with a digest of what
each tree computed: a speed change that also changes a result is reported as such.

Run as a script (it imports the tree on PYTHONPATH, as benchmarks/bench_playouts.py does)::

    PYTHONPATH=. python benchmarks/bench_trees.py run WORK       # one tree: one JSON line
    python benchmarks/bench_trees.py ab /tmp/before . WORK --pairs 4

``WORK`` is one of

``expectimax``  the solo expectimax (:class:`solver.expectimax.solver.Expectimax`, one thread,
                empty memo) solving ``--positions`` late positions of ``--cards`` unknown
                cards (:func:`benchmarks.positions.positions`) exactly: nodes, intervals, CPU
                seconds of the searches, thousands of nodes per CPU second;
``duo``         two-player rollout decisions (``--policy``, duo-krollout on the team base by
                default, as the open game plays it; ``duo-krollout2`` for the silent game) on
                ``--views`` fixed player views of positions at a decision in phase play
                (:func:`duo_views`; with the team base the views are open: both hands
                known), decision stream i: the actions, CPU ms per decision.

Compilation (or the cache load) and a warm-up come before the clocks.  ``ab`` runs ``run`` in
tree A and tree B alternately (separate processes, ``--pairs`` times each), then prints the
per-pair CPU ratios A/B and their median; exit status 1 if a digest differs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time


def expectimax_part(cards: int, count: int) -> dict:
    from benchmarks.positions import positions
    from solver.expectimax.solver import Expectimax
    solver = Expectimax(22, threads=1)
    solver.value(positions(11, 1)[0][1], budget_nodes=1000)       # compile / load
    rows = []
    cpu = 0.0
    for _seed, state in positions(cards, count):
        solver.clear()
        n0 = solver.nodes
        c0 = time.process_time()
        iv = solver.value(state, budget_nodes=3_000_000)
        cpu += time.process_time() - c0
        rows.append((str(iv), solver.nodes - n0))
    nodes = sum(n for _, n in rows)
    return {"positions": len(rows), "nodes": nodes, "cpu": round(cpu, 6),
            "knodes_per_cpu_s": round(nodes / cpu / 1e3, 1),
            "digest": hashlib.sha256(repr(rows).encode()).hexdigest()[:16]}


def duo_views(count: int, talk: str) -> list:
    """``count`` player views (``talk``: none or open) of two-player positions at a decision
    in phase play: every seventh decision of games from seeds 9000, 9001, ... played by the
    engine's greedy policy (this file reads its trees' engine, which both trees share)."""
    from engine.game import Game
    from engine.policy import greedy_action
    from engine.view import player_view
    out = []
    seed = 9000
    while len(out) < count:
        state = Game(2).new_initial_state(seed=seed)
        seed += 1
        step = 0
        while not state.is_terminal() and len(out) < count:
            if step % 7 == 3 and state.phase == "play":
                out.append(player_view(state, talk=talk))
            state.apply_action(greedy_action(state))
            step += 1
    return out


def duo_part(policy: str, views: int) -> dict:
    from solver.api import make_policy
    from solver.honest import decision_stream
    name, _, args = policy.partition(":")
    pol = make_policy(name, **dict(a.split("=", 1) for a in args.split(",") if a))
    # the team base reads both hands: the open game's views
    states = duo_views(views, "open" if "base=team" in policy else "none")
    pol.warm_up()
    acts = []
    c0 = time.process_time()
    for i, v in enumerate(states):
        acts.append(int(pol.act(v, decision_stream(1, i))))
    cpu = time.process_time() - c0
    return {"policy": policy, "views": len(acts), "cpu": round(cpu, 6),
            "ms_per_decision": round(cpu / len(acts) * 1e3, 3),
            "digest": hashlib.sha256(repr(acts).encode()).hexdigest()[:16]}


def cmd_run(args) -> dict:
    r = {"tree": os.environ.get("PYTHONPATH", ""), "work": args.work}
    if args.work == "expectimax":
        r.update(expectimax_part(args.cards, args.positions))
    else:
        r.update(duo_part(args.policy, args.views))
    return r


def _run_args(args) -> list[str]:
    return [args.work, "--cards", str(args.cards), "--positions", str(args.positions),
            "--policy", args.policy, "--views", str(args.views)]


def cmd_ab(args) -> int:
    rows = {"a": [], "b": []}
    for _ in range(args.pairs):
        for side, tree in (("a", args.a), ("b", args.b)):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "run"]
                                 + _run_args(args), env=env, cwd=os.path.abspath(tree),
                                 capture_output=True, text=True, check=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            rows[side].append(r)
            print(json.dumps(r), flush=True)
    from benchmarks.bench_playouts import cpu_ratios
    cpu_a, cpu_b = ([r["cpu"] for r in rows[side]] for side in ("a", "b"))
    ratios, median = cpu_ratios(cpu_a, cpu_b)
    same = len({r["digest"] for r in rows["a"] + rows["b"]}) == 1
    print(json.dumps({"work": args.work, "pairs": args.pairs, "cpu_a": cpu_a, "cpu_b": cpu_b,
                      "ratios_a_over_b": [None if x is None else round(x, 3) for x in ratios],
                      "median_a_over_b": None if median is None else round(median, 3),
                      "same_digest": same, "load": os.getloadavg()[0]}))
    return 0 if same else 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench_trees")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("run", "ab"):
        q = sub.add_parser(name)
        if name == "ab":
            q.add_argument("a")
            q.add_argument("b")
            q.add_argument("--pairs", type=int, default=4)
        q.add_argument("work", choices=("expectimax", "duo"))
        q.add_argument("--cards", type=int, default=14)
        q.add_argument("--positions", type=int, default=6)
        q.add_argument("--policy", default="duo-krollout:base=team")
        q.add_argument("--views", type=int, default=48)
    args = p.parse_args(argv)
    if args.cmd == "run":
        print(json.dumps(cmd_run(args)))
        return 0
    return cmd_ab(args)


if __name__ == "__main__":
    sys.exit(main())
