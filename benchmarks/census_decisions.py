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

import numba as nb
import numpy as np

from benchmarks.harness import machine_info, write_stamped
from benchmarks.positions import late_position
from solver.expectimax import kernel as K
from solver.expectimax.strategy_graph import TOL as EPS, known_bounds

FIELDS = ("door_decisions", "door_open_better", "door_limbo_better", "door_tie",
          "prophecy_with_nightmare", "prophecy_discard_nightmare_optimal",
          "prophecy_discard_nightmare_worse",
          "nightmare_decisions", "nightmare_best_key", "nightmare_best_door_finished_colour",
          "nightmare_best_door_open_colour", "nightmare_best_reveal", "nightmare_best_redraw",
          "nightmare_no_unique_best", "skipped_not_exact")


@nb.njit(cache=True)
def _census(keys, vals, cfg):
    out = np.zeros(15, np.int64)
    ch = np.empty((24, 4), np.int64)
    for r in range(keys.shape[0]):
        if keys[r, 0] == -1:
            continue
        st, w0, w1, w2, w3 = K.canonical(keys[r, 0], keys[r, 1], keys[r, 2], keys[r, 3])
        if st != K.DOOR and st != K.PROPHECY and st != K.NIGHTMARE:
            continue
        nc = K.decision_children(st, w0, w1, w2, w3, False, ch)
        v = np.empty(nc)            # exact values; -1 where a child has bounds only
        for i in range(nc):
            lo, hi = known_bounds(ch, i, keys, vals, cfg)
            v[i] = lo if hi - lo <= EPS else -1.0
        bad = False
        for i in range(nc):
            if v[i] < 0.0:
                bad = True
        if bad:
            out[14] += 1
            continue
        best = v.max()
        if st == K.DOOR:            # child 0 opens the Door, child 1 sends it to limbo
            out[0] += 1
            if v[0] > v[1] + EPS:
                out[1] += 1
            elif v[1] > v[0] + EPS:
                out[2] += 1
            else:
                out[3] += 1
        elif st == K.PROPHECY:      # children: distinct revealed types, from the top down
            n = K.plen(w2)
            m = min(5, n + K.unk_total(w0, w1))
            prev = -1
            i = 0
            for jj in range(m):
                t = K.slot_get(w2, w3, n - 1 - jj)
                if t == prev:
                    continue
                prev = t
                if t == 16:
                    out[4] += 1
                    if v[i] >= best - EPS:
                        out[5] += 1
                    else:
                        out[6] += 1
                i += 1
        else:                        # children: the legal options in the order 0..9
            out[7] += 1
            i = 0
            unique = -1
            for act in range(10):
                ok, a1, a2 = K.nightmare_option(w0, w1, w2, act)
                if not ok:
                    continue
                strict = True
                for j in range(nc):
                    if j != i and v[j] > v[i] - EPS:
                        strict = False
                if strict:
                    if act < 4:
                        unique = 8
                    elif act < 8:
                        unique = 9 if K.doors_get(w1, act - 4) == 2 else 10
                    else:
                        unique = 11 if act == 8 else 12
                i += 1
            out[unique if unique >= 0 else 13] += 1
    return out


def census(solver) -> dict:
    """The counts of FIELDS over the decisions stored in an Expectimax's memo (solve with
    ``prune=False`` first, or the children of many decisions hold bounds only and are
    counted as ``skipped_not_exact``)."""
    counts = _census(solver.keys, solver.vals, solver.settings)
    return dict(zip(FIELDS, (int(x) for x in counts)))


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
