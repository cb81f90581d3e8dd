"""Is one action always at least as good?  A census of exact decisions (docs/EXPECTIMAX.md, 9).

A dominance rule ("always open a drawn Door with the Key", "a prophecy that shows a
Nightmare discards it", "a Nightmare never costs a Door of a finished colour") would let the
search skip actions.  Such a rule is sound only if it never loses value.  This census solves
a position exactly with pruning off (every child of every stored decision is then exact),
and counts, over all stored decisions of three kinds, which action is strictly best:

* Door drawn with its Key in hand: open it, or let it go to limbo;
* prophecy that reveals a Nightmare: is discarding it optimal;
* Nightmare: which option is the unique best (a Key, a Door of a colour with both Doors in
  play, a Door of a colour that misses one, the reveal, the redraw), or no unique best.

    python -m benchmarks.census_decisions            # seed 63, 14 unknown cards (seconds)
    python -m benchmarks.census_decisions --seed 177 --cards 15 --table-bits 26
"""
from __future__ import annotations

import argparse
import sys
import time

from benchmarks.harness import machine_info, write_stamped
from benchmarks.positions import late_position
from solver.expectimax.census import census


def run(seed=63, cards=14, table_bits=24, verbose=False) -> dict:
    from engine.notation import format_position
    from solver.expectimax.solver import Expectimax
    state = late_position(seed, cards)
    solver = Expectimax(table_bits, prune=False)    # every child searched to the end
    t0 = time.perf_counter()
    iv = solver.value(state)
    t1 = time.perf_counter()
    counts = census(solver)
    res = {"benchmark": "census_decisions", "machine": machine_info(), "seed": seed,
           "cards": cards, "position": format_position(state), "value": iv.lo,
           "exact": iv.exact, "stored": solver.stored, "replaced": solver.replaced,
           "solve_s": round(t1 - t0, 2), "census_s": round(time.perf_counter() - t1, 2),
           "counts": counts}
    if verbose:
        print(f"seed {seed}, {cards} cards: value {iv.lo:.6f}, {solver.stored:,} positions "
              f"stored ({solver.replaced:,} replaced)")
        for k, x in res["counts"].items():
            print(f"  {k:40s} {x:>10,}")
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=63)
    ap.add_argument("--cards", type=int, default=14, help="unknown cards in the deck")
    ap.add_argument("--table-bits", type=int, default=24)
    ap.add_argument("--no-save", action="store_true")
    a = ap.parse_args(argv)
    if not 10 <= a.table_bits <= 32 or late_position(a.seed, a.cards) is None:
        print("census_decisions: --table-bits must be 10..32 and the seed must give a "
              "position", file=sys.stderr)
        return 2
    res = run(a.seed, a.cards, a.table_bits, verbose=True)
    if not a.no_save:
        print("wrote", write_stamped("census", res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
