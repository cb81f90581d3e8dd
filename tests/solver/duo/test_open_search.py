"""The open-hands expectimax in numba (solver/duo/open_search.py and its kernel
solver/duo/open_kernel.py, docs/DUO_EXPECTIMAX.md section 7) against the Python search (solver/duo/open_hands.py) and the brute force of
tests/open_hands_kit.py:

* the same exact values as the Python search (and the same nodes: the same search) on the
  fixture positions both finish quickly, and the same per-action values of a ranking;
* exact agreement (1e-12) with the brute force (exact fractions over ``engine/``, the engine's
  own state equality as its memo key: no reduction, no bound, no pruning);
* every reduction alone, all of them, and none give the same exact values;
* its packed key separates and merges positions exactly as the Python search's key does;
* a memo of 16 rows (entries replaced all the time) gives the same exact values;
* under node budgets the bounds contain the exact value;
* the reveal's multisets and their probabilities are the Python search's;
* slow tier: the values of every fixture position of up to 9 unknown cards that the Python
  search's recorded runs (benchmarks/results/duo-expectimax-r2-b*.jsonl) solved.
"""
from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

from engine.notation import format_position
from solver.duo import open_hands as DX
from solver.duo import open_kernel as OK
from solver.duo import open_search as OS

from open_hands_kit import (brute_or_skip, fast_positions, open_lines, open_positions,
                            swapped)

# fixture positions (3 to 7 unknown cards) that both searches finish within 30,000 nodes
BOTH_FINISH = (0, 1, 2, 3, 6, 8, 10, 11, 12, 19)


def _exact(search, s, nodes=30_000):
    iv = search.value(s, budget_nodes=nodes)
    return iv.lo if iv.exact else None


def test_same_values_and_nodes_as_the_python_search():
    """The numba search with the Python search's reductions (DX.DEFAULT_FLAGS: not F_FREE
    and F_LAST, which only the numba search has) is the same search."""
    for s in open_positions(idx=BOTH_FINISH):
        py, nb = DX.DuoExpectimax(), OS.OpenSearch(flags=DX.DEFAULT_FLAGS)
        a, b = _exact(py, s), _exact(nb, s)
        assert a is not None and b is not None, format_position(s)
        assert abs(a - b) <= 1e-12, (format_position(s), a, b)
        assert py.nodes == nb.nodes, format_position(s)


def test_values_strictly_between_0_and_1_are_compared():
    vals = [_exact(OS.OpenSearch(), s) for s in open_positions(idx=BOTH_FINISH)]
    assert sum(0 < v < 1 for v in vals) >= 3, vals


def test_agrees_with_brute_force():
    checked = 0
    for s in fast_positions():
        ref = brute_or_skip(s, 20_000)
        if ref is None:
            continue
        iv = OS.OpenSearch().value(s)
        assert iv.exact and abs(iv.lo - float(ref)) <= 1e-12, (format_position(s), iv, ref)
        checked += 1
    assert checked == 7


def test_ranking_agrees_with_the_python_search():
    for s in open_positions(idx=(2, 6, 10)):
        a = DX.DuoExpectimax().rank(s, budget_nodes=200_000)
        b = OS.OpenSearch().rank(s, budget_nodes=200_000)
        va = {x.action: x.value for x in a.actions}
        vb = {x.action: x.value for x in b.actions}
        assert set(va) == set(vb)
        for k in va:
            assert va[k] is not None and vb[k] is not None
            assert abs(va[k] - vb[k]) <= 1e-12, (k, va[k], vb[k])
        assert a.best == b.best


FLAG_SETS = [0, DX.F_PRUNE, DX.F_DEAD, DX.F_SWAP, DX.F_PROPHECY_SORT, DX.F_REVEAL,
             OK.F_FREE, OK.F_LAST, DX.DEFAULT_FLAGS, OK.DEFAULT_FLAGS]


def _check_flags(ps, want, nodes=60_000):
    ref = [_exact(OS.OpenSearch(flags=0), s, nodes) for s in ps]
    assert sum(v is not None for v in ref) >= want
    for fl in FLAG_SETS[1:]:
        for s, v in zip(ps, ref):
            got = _exact(OS.OpenSearch(flags=fl), s, nodes)
            if v is not None:
                assert got is not None and abs(got - v) <= 1e-12, (fl, format_position(s))


def test_each_reduction_alone_gives_the_unreduced_values():
    _check_flags(fast_positions(), 7)


@pytest.mark.slow
def test_each_reduction_alone_gives_the_unreduced_values_larger():
    """Three positions of 4 to 6 unknown cards (values 19/72, 1/12, 1/6) that the unreduced
    search finishes within 1,000,000 nodes (617,218, 519,187 and 121,338)."""
    _check_flags(open_positions(idx=(6, 10, 12)), 3, 1_000_000)


def test_a_tiny_memo_gives_the_same_values():
    """16 rows: entries are replaced all the time; full keys keep every answer right."""
    for s in open_positions(idx=(2, 6, 9, 10, 19)):
        big = OS.OpenSearch()
        tiny = OS.OpenSearch(table_bits=4)
        a, b = _exact(big, s, 300_000), _exact(tiny, s, 300_000)
        assert a is not None and b is not None and abs(a - b) <= 1e-12
        assert tiny.counters()["replaced"] > 0


def _walk(rnd, n=400):
    """Engine positions met on random walks from fixture positions (both kinds of node)."""
    out = []
    for s in open_positions(max_unknown=9):
        s = DX.open_hands(s)
        for _ in range(n // 20):
            c = s.clone()
            for _ in range(rnd.randrange(0, 12)):
                if c.is_terminal():
                    break
                if c.is_chance_node():
                    outs = c.chance_outcomes_exact()
                    c.apply_action(rnd.choice(outs)[0])
                else:
                    c.apply_action(rnd.choice(c.legal_actions()))
            if not c.is_terminal():
                out.append(c)
    return out


@pytest.mark.parametrize("flags", [0, DX.DEFAULT_FLAGS])
def test_key_merges_exactly_what_the_python_key_merges(flags):
    """Two positions have equal packed keys if and only if the Python search's keys
    (state_key, the key docs/DUO_EXPECTIMAX.md section 2 argues for) are equal."""
    states = _walk(random.Random(5))
    # add each position with its players exchanged: the swap rule's pairs
    states += [swapped(s) for s in states[:200]]
    assert len(states) > 500
    by_py: dict = {}
    by_nb: dict = {}
    key = np.zeros(OK.KW, dtype=np.int64)
    for s in states:
        OK.make_key(OS.encode_open(s), np.int64(flags), key)
        kn = tuple(int(x) for x in key)
        kp = DX.state_key(s, flags)
        assert by_py.setdefault(kp, kn) == kn, format_position(s)
        assert by_nb.setdefault(kn, kp) == kp, format_position(s)
    assert len(by_py) < len(states)          # some positions did merge


def test_budget_bounds_contain_the_exact_value():
    tried = 0
    for s in open_positions(idx=(2, 6, 10, 9)):
        exact = _exact(OS.OpenSearch(), s, 2_000_000)
        if exact is None:
            continue
        for nb in (1, 7, 50, 400, 5000):
            iv = OS.OpenSearch().value(s, budget_nodes=nb)
            assert iv.lo - 1e-12 <= exact <= iv.hi + 1e-12, (nb, iv, exact)
        tried += 1
    assert tried >= 4


def test_reveal_outcomes_are_the_python_multisets():
    from math import comb, prod
    S = np.zeros(OK.NS, dtype=np.int64)
    counts = [0] * 17
    counts[0], counts[3], counts[12], counts[16] = 2, 1, 1, 3
    for t, n in enumerate(counts):
        S[OK.U + t] = n
    S[OK.UTOT] = sum(counts)
    for r in range(1, 6):
        code = np.zeros(400, dtype=np.int64)
        p = np.zeros(400)
        iw = np.zeros(OK.IW, dtype=np.int64)
        n = OK._reveal_outcomes(S, r, 0, code, p, iw)
        assert n == OK._multiset_count(S, r, iw)
        ms = list(DX._multisets(counts, r))
        assert n == len(ms)
        for i, m in enumerate(ms):
            types = [t for t, k in m for _ in range(k)]
            assert code[i] & 7 == r
            assert [(code[i] >> (3 + 5 * j)) & 31 for j in range(r)] == types
            want = prod(comb(counts[t], k) for t, k in m) / comb(sum(counts), r)
            assert p[i] == want


def _recorded():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    out = {}
    for name in ("duo-expectimax-r2-b10.jsonl", "duo-expectimax-r2-b60.jsonl"):
        with open(os.path.join(root, "benchmarks", "results", name)) as fh:
            for r in map(json.loads, fh):
                if r["exact"]:
                    out[r["index"]] = r["lo"]
    return out


@pytest.mark.slow
def test_every_recorded_python_value_up_to_9_unknown_cards():
    """Every fixture position of <= 9 unknown cards the Python search solved in its recorded
    runs (10 s and 60 s budgets): the numba search finds the same value."""
    rec = _recorded()
    lines = open_lines()
    done = 0
    for i, lo in sorted(rec.items()):
        u, _ = lines[i]
        if u > 9:
            continue
        s = open_positions(idx=(i,))[0]
        iv = OS.OpenSearch().value(s, budget_s=60)
        assert iv.exact and abs(iv.lo - lo) <= 1e-12, (i, iv, lo)
        done += 1
    assert done >= 20
