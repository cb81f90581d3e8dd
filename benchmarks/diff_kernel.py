"""Long differential run: kernel vs engine on random legal actions, state by state.

    python -m benchmarks.diff_kernel [--steps 10000000] [--seed 0] [--jobs 1]

Same checks as tests/solver/clairvoyant/test_kernel_diff.py (decoded kernel state == engine state, same legal
action sets, same terminal status), over many more steps.  Each job plays its own deals
(seed + job * 10**9 + k); half of the actions prefer plays over discards to reach long games.
Exit status 1 on the first disagreement, with the position and the action history.
"""
from __future__ import annotations

import argparse
import random
import sys
import time


def disagreement(s, ks) -> dict | None:
    """None when the kernel state ``ks`` agrees with the engine state ``s`` (the decoded state:
    hand, row, series, Doors, limbo, the whole deck in order, phase, drawn card, shuffle count;
    the legal action sets; the terminal status), else what differs.  The one comparison of
    this run and of tests/solver/clairvoyant/test_kernel_diff.py."""
    from solver.clairvoyant import deal_kernel as deal
    ev, kv = deal.engine_view(s), ks.decode()
    if s.phase == "won":   # the engine removed the last Door from the deck without shuffling
        ev["deck"] = kv["deck"] = None
    if ev != kv:
        return {"engine": ev, "kernel": kv}
    la, kla = s.legal_actions(), sorted(ks.legal_actions())
    if kla != la:
        return {"engine_legal": la, "kernel_legal": kla}
    if (ks.phase() in ("won", "lost")) != s.is_terminal():
        return {"engine_terminal": s.is_terminal(), "kernel_phase": ks.phase()}
    return None


def check_steps(args):
    steps, seed0 = args
    from engine import Game, format_position
    from solver.clairvoyant import deal_turn
    rnd = random.Random(seed0)
    done = games = 0
    seed = seed0
    t0 = time.time()
    last = t0
    while done < steps:
        s = Game(1).new_initial_state(seed)
        ks = deal_turn.kernel_state(s)
        hist = []
        bias = rnd.random() < 0.5
        while True:
            bad = disagreement(s, ks)
            if bad is not None:
                return {"ok": False, "seed": seed, "history": hist,
                        "position": format_position(s), **bad}
            la = s.legal_actions()
            if not la:
                break
            if bias:
                plays = [a for a in la if a < 24]
                a = rnd.choice(plays) if plays and rnd.random() < 0.7 else rnd.choice(la)
            else:
                a = rnd.choice(la)
            s.apply_action(a)
            ks.apply(a)
            hist.append(a)
            done += 1
        seed += 1
        games += 1
        if seed0 % 10**9 == 0 and time.time() - last > 30:
            last = time.time()
            print(f"  job 0: {done} steps, {games} games, {done / (last - t0):.0f} steps/s",
                  file=sys.stderr, flush=True)
    return {"ok": True, "steps": done, "games": games}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=10_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args(argv)
    per = [a.steps // a.jobs + (1 if k < a.steps % a.jobs else 0) for k in range(a.jobs)]
    work = [(per[k], a.seed + k * 10**9) for k in range(a.jobs)]
    t0 = time.time()
    if a.jobs == 1:
        results = [check_steps(work[0])]
    else:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(a.jobs) as pool:
            results = pool.map(check_steps, work)
    dt = time.time() - t0
    bad = [r for r in results if not r["ok"]]
    if bad:
        print("DISAGREEMENT:", bad[0])
        return 1
    steps = sum(r["steps"] for r in results)
    games = sum(r["games"] for r in results)
    print(f"kernel == engine on {steps} steps ({games} games) in {dt:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
