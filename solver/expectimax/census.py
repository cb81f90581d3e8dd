"""The census of exact decisions: over every stored decision of a solved memo, which action
is strictly best (``benchmarks/census_decisions.py`` runs it; docs/EXPECTIMAX.md, 9).

A kernel over the memo table, so it lives beside the kernel it reads and is covered by the
package's numba cache stamp (``solver/__init__.py``).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from solver.expectimax import kernel
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
        st, w0, w1, w2, w3 = kernel.canonical(keys[r, 0], keys[r, 1], keys[r, 2], keys[r, 3])
        if st != kernel.DOOR and st != kernel.PROPHECY and st != kernel.NIGHTMARE:
            continue
        nc = kernel.decision_children(st, w0, w1, w2, w3, False, ch)
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
        if st == kernel.DOOR:            # child 0 opens the Door, child 1 sends it to limbo
            out[0] += 1
            if v[0] > v[1] + EPS:
                out[1] += 1
            elif v[1] > v[0] + EPS:
                out[2] += 1
            else:
                out[3] += 1
        elif st == kernel.PROPHECY:      # children: distinct revealed types, from the top down
            n = kernel.plen(w2)
            m = min(5, n + kernel.unk_total(w0, w1))
            prev = -1
            i = 0
            for jj in range(m):
                t = kernel.slot_get(w2, w3, n - 1 - jj)
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
                ok, a1, a2 = kernel.nightmare_option(w0, w1, w2, act)
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
                        unique = 9 if kernel.doors_get(w1, act - 4) == 2 else 10
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
