"""How often ismcts plays an exactly best move on small late positions, beside seq-rollout and
a random choice (docs/POLICIES.md, "Information-set search"):

    python -m benchmarks.bench_ismcts_late [--count 40] [--limit 8]

The positions are those of tests/solver/honest/test_ismcts.py: decisions of greedy-keep-doors
games from deal 100 on with at most ``limit`` unknown cards, 2+ actions, every action's exact
value known (expectimax) and not all equal.  Each policy acts with the game's decision stream.
"""
from __future__ import annotations

import argparse
import time


def _test_positions():
    """``_late_positions`` of tests/solver/honest/test_ismcts.py, loaded from its file (the
    test module imports only the package; nothing is put on ``sys.path``)."""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "solver",
                        "honest", "test_ismcts.py")
    spec = importlib.util.spec_from_file_location("bench_ismcts_late_positions", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod._late_positions


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--limit", type=int, default=8)
    args = ap.parse_args(argv)
    _late_positions = _test_positions()

    from solver.api import make_policy
    from solver.honest.play import decision_stream
    pos = _late_positions(args.limit, args.count)
    n = len(pos)
    chance = sum(len(best) / k for _, _, _, best, k in pos)
    print(f"{n} positions (at most {args.limit} unknown cards); a random choice: "
          f"{chance:.1f} expected best ({chance / n:.1%})")
    for name, kw in (("ismcts", {"iters": 2000}), ("ismcts", {"iters": 8000}),
                     ("seq-rollout", {"n": 1024, "batch": 64, "stop": 0.01}),
                     ("seq-rollout", {"n": 4096})):
        p = make_policy(name, **kw)
        p.warm_up()
        t = time.process_time()
        hits = sum(p.act(v, decision_stream(s, i)) in best for s, i, v, best, _ in pos)
        dt = time.process_time() - t
        print(f"{name} {kw}: {hits}/{n} best ({hits / n:.1%}), {1000 * dt / n:.1f} ms CPU "
              "per position")


if __name__ == "__main__":
    main()
