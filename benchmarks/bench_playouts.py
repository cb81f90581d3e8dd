"""Speed and bit-identity of the honest playouts: one source tree, or two trees side by side.

Run as a script (it imports the tree on PYTHONPATH, as benchmarks/before_after.py does), with
an old tree unpacked by ``git archive OLD | tar -x -C /tmp/before``::

    PYTHONPATH=. python benchmarks/bench_playouts.py run             # one tree: one JSON line
    PYTHONPATH=. python benchmarks/bench_playouts.py profile         # where a playout's time goes
    python benchmarks/bench_playouts.py ab /tmp/before . --pairs 4   # A B A B ..., ratios

``run``      (a) whole games of ``strong.base_games`` from the setup, ``--games`` of
             greedy-keep-doors and of learned-base (stream key 7): wins, a sha256 of the
             outcomes, CPU seconds; (b) the default honest policy's first ``--k`` decisions of
             deals ``--deals A B`` (7000 7020 by default; policy seed 1, as ``onirim
             winrate``): a sha256 of the actions and the CPU seconds spent in ``act``.
             Compilation (or the cache load) and warm-up come before the clocks.
``ab A B``   ``run`` alternately in tree A and tree B (separate processes, ``--pairs`` times
             each: A B A B ...; the machine is shared, one timing means little), then the
             per-pair CPU ratios A/B and their median.  Exit status 1 if a digest differs.
``profile``  ns per game, per decision and per draw of the keep-doors playouts, and the parts
             measured alone: the draws, ``base_action`` over recorded decision states, the
             state copy, ``advance``.
"""
from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import time


def _cpu(fn):
    c0 = time.process_time()
    r = fn()
    return r, time.process_time() - c0


def base_games_part(games: int) -> dict:
    import numpy as np
    from solver.honest import strong
    out = {}
    for name in ("greedy-keep-doors", "learned-base"):
        b = np.int64(strong.BASES[name])
        w = np.zeros(games, dtype=np.int64)
        strong.base_games(np.int64(10), np.uint64(7), b, w[:10])      # compile / load
        _, cpu = _cpu(lambda: strong.base_games(np.int64(games), np.uint64(7), b, w))
        out[name] = {"games": games, "wins": int(w.sum()),
                     "digest": hashlib.sha256(w.astype(np.int8).tobytes()).hexdigest()[:16],
                     "cpu": round(cpu, 6), "us_per_game": round(cpu / games * 1e6, 3)}
    return out


def decisions_part(a: int, b: int, k: int) -> dict:
    from engine.game import Game
    from engine.view import player_view
    from solver.api import make_default_policy
    from solver.honest import DEFAULT_POLICY_SEED, decision_stream
    pol = make_default_policy()
    pol.warm_up()
    h = hashlib.sha256()
    cpu = 0.0
    n = 0
    for seed in range(a, b):
        state = Game(1).new_initial_state(seed=seed)
        i = 0
        while not state.is_terminal() and i < k:
            view = player_view(state)
            s = decision_stream(DEFAULT_POLICY_SEED, i)
            c0 = time.process_time()
            act = pol.act(view, s)
            cpu += time.process_time() - c0
            h.update(f"{seed} {i} {act}\n".encode())
            state.apply_action(act)
            i += 1
            n += 1
    return {"deals": [a, b], "k": k, "decisions": n, "digest": h.hexdigest()[:16],
            "cpu": round(cpu, 6), "ms_per_decision": round(cpu / max(n, 1) * 1e3, 3)}


def cmd_run(args) -> dict:
    r = {"tree": os.environ.get("PYTHONPATH", ""), "base_games": base_games_part(args.games)}
    if args.k > 0:
        r["decisions"] = decisions_part(args.deals[0], args.deals[1], args.k)
    return r


def cpu_ratios(a: list[float], b: list[float]) -> tuple[list, float | None]:
    """Per-pair CPU ratios a/b (None for a pair whose b measured no CPU: a tiny run can take
    less than the clock's resolution) and the median of the others (None if none)."""
    ratios = [x / y if y > 0 else None for x, y in zip(a, b)]
    known = [x for x in ratios if x is not None]
    return ratios, (statistics.median(known) if known else None)


def cmd_ab(args) -> int:
    here = os.path.abspath(__file__)
    runs = {"A": [], "B": []}
    for p in range(args.pairs):
        for label, tree in (("A", args.a), ("B", args.b)):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            cmd = [sys.executable, here, "run", "--games", str(args.games), "--k", str(args.k),
                   "--deals", str(args.deals[0]), str(args.deals[1])]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            runs[label].append(r)
            print(json.dumps({"pair": p, "tree": label, **r}), flush=True)
    same = True
    summary = {}
    for part in ("greedy-keep-doors", "learned-base", "decisions"):
        def get(r):
            return r["decisions"] if part == "decisions" else r["base_games"][part]
        if part == "decisions" and args.k == 0:
            continue
        digests = {get(r)["digest"] for lab in runs for r in runs[lab]}
        same &= len(digests) == 1
        cpu_a, cpu_b = ([get(r)["cpu"] for r in runs[lab]] for lab in ("A", "B"))
        ratios, median = cpu_ratios(cpu_a, cpu_b)
        summary[part] = {"digests": sorted(digests), "cpu_A": cpu_a, "cpu_B": cpu_b,
                         "ratios_A_over_B": [None if x is None else round(x, 3) for x in ratios],
                         "median_ratio": None if median is None else round(median, 3)}
    print(json.dumps({"summary": summary, "identical": same}, indent=1))
    return 0 if same else 1


def cmd_profile(args) -> dict:
    """``benchmarks.bench_honest.breakdown`` over the base ``--base`` (its measurements, named
    as this script reports them)."""
    from benchmarks.bench_honest import breakdown
    from solver.honest import strong
    b = breakdown(args.games, base=strong.BASES[args.base])
    dec, dr = b["decisions_per_game"], b["draws_per_game"]
    return {"base": args.base, "games": args.games, "decisions_per_game": dec,
            "draws_per_game": dr, "ns_per_game": round(b["ns_per_game_cpu"]),
            "ns_per_draw_alone": round(b["ns_per_draw_cpu"], 1),
            "ns_per_base_action_alone": round(b["ns_per_greedy_decision_cpu"], 1),
            "ns_per_state_copy": round(b["ns_per_state_copy_cpu"], 1),
            "share_draws": round(b["ns_per_draw_cpu"] * dr / b["ns_per_game_cpu"], 3),
            "share_base_action": round(b["ns_per_greedy_decision_cpu"] * dec
                                       / b["ns_per_game_cpu"], 3)}


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "ab"):
        p = sub.add_parser(name)
        if name == "ab":
            p.add_argument("a")
            p.add_argument("b")
            p.add_argument("--pairs", type=int, default=4)
        p.add_argument("--games", type=int, default=100_000)
        p.add_argument("--k", type=int, default=20, help="decisions per deal (0: none)")
        p.add_argument("--deals", type=int, nargs=2, default=[7000, 7020])
    p = sub.add_parser("profile")
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--base", default="greedy-keep-doors")
    args = ap.parse_args(argv)
    if args.cmd == "ab":
        return cmd_ab(args)
    r = cmd_run(args) if args.cmd == "run" else cmd_profile(args)
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
