"""The bound on the late positions of docs/REGRET.md (tests/fixtures/regret_positions.txt, exact
values in benchmarks/results/regret-exact-20261201.jsonl): on sampled deals, the numba inner
solver's mean is never below the stored exact value beyond sampling error (weak duality,
docs/BOUND.md section 5), for W = 0 to the end and for W = 0 with a stop paid V* (section
10).  And the stopped bound is a real improvement: below the clairvoyant one on average."""
from __future__ import annotations

import json
import math
import os

import pytest

from engine.notation import parse_position
from paths import ROOT
from solver.bound.deal import deal_seed, sampled_deal
from solver.bound.inner import KernelInner

EXACT = os.path.join(ROOT, "benchmarks", "results", "regret-exact-20261201.jsonl")
DEALS = 24


def _positions(count: int):
    """Positions with an exact value strictly inside (0.05, 0.95), at most 11 unknown cards
    and a cheap exact ranking (< 200,000 nodes), in file order."""
    out = []
    with open(EXACT) as f:
        for line in f:
            r = json.loads(line)
            if not r.get("exact") or r["unknown"] > 11 or r["nodes"] > 200_000:
                continue
            v = max(a["lo"] for a in r["actions"])
            if 0.05 < v < 0.95:
                out.append((parse_position(r["position"]), v))
            if len(out) == count:
                break
    return out


def _mean_se(xs):
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


@pytest.mark.slow
def test_the_bound_is_never_below_the_exact_value_beyond_sampling_error():
    positions = _positions(4)
    assert len(positions) == 4
    gap_stop = gap_clair = 0.0
    for p, v in positions:
        u = sum(p.unknown)
        clair = KernelInner("zero")
        stopped = KernelInner("zero", stop=u - 3, ex_bits=18)
        assert abs(stopped.value(p) - v) < 1e-9        # the kernel's V* is the stored one
        xs, cs = [], []
        for j in range(DEALS):
            deal = sampled_deal(p, deal_seed(67, j))
            r = stopped.solve(p, deal)
            assert r.finished and r.counters["inexact"] == 0
            xs.append(r.value)
            cs.append(clair.solve(p, deal).value)
        for vals in (xs, cs):
            m, se = _mean_se(vals)
            assert m >= v - 3 * se - 1e-12, (str(p), m, se, v)
        gap_stop += sum(xs) / DEALS - v
        gap_clair += sum(cs) / DEALS - v
    assert gap_stop < gap_clair, (gap_stop, gap_clair)
