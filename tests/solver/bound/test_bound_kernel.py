"""The numba inner solver (solver/bound/kernel.py) against the plain-Python reference, the
clairvoyant solver and the exact honest value (docs/BOUND.md sections 5, 8 and 10).

* W = 0: the kernel's inner maximum is the reference's, deal by deal, and the clairvoyant
  solver's result; with and without the cuts;
* strong duality in the kernel: with W the exact expectimax value, the inner maximum is the
  position's value on every sampled deal; with W slightly off it is not;
* the stop rule: stopping at once gives V*; with W exact any stop count keeps the value V*;
  with W = 0 the stopped bound lies between V* (on average) and the clairvoyant result.
"""
from __future__ import annotations

import math

import pytest
from bound_kit import late, near_the_end, small_positions

from engine.game import Game
from solver.bound.deal import deal_of_state, deal_seed, deal_state, sampled_deal
from solver.bound.inner import KernelInner
from solver.bound.reference import InnerSolver
from solver.bound.values import zero

LATE = [(6, 4), (8, 5), (2, 5), (0, 6), (0, 7), (1, 7), (4, 7)]


def _positions():
    return small_positions() + near_the_end() + [late(s, n) for s, n in LATE]


@pytest.fixture(scope="module")
def exact_kernel():
    return KernelInner("exact", ex_bits=18)


def test_w_zero_is_the_reference_deal_by_deal_with_and_without_cuts():
    cut, full = KernelInner("zero"), KernelInner("zero", cuts=False)
    wins = losses = 0
    for p in _positions():
        for j in range(5):
            deal = sampled_deal(p, deal_seed(41, j))
            ref = InnerSolver(zero).solve(p, deal).value
            a = cut.solve(p, deal)
            b = full.solve(p, deal)
            assert a.finished and b.finished
            assert a.value == ref == b.value, (str(p), j)
            wins += ref == 1.0
            losses += ref == 0.0
    assert wins >= 5 and losses >= 5, (wins, losses)


def test_the_cuts_fire_and_save_nodes():
    cut, full = KernelInner("zero"), KernelInner("zero", cuts=False)
    saved = fired = 0
    for p in _positions():
        deal = sampled_deal(p, deal_seed(43, 0))
        a = cut.solve(p, deal)
        b = full.solve(p, deal)
        fired += a.counters["cut_win"] + a.counters["cut_hopeless"]
        saved += b.counters["nodes"] - a.counters["nodes"]
        assert a.counters["nodes"] <= b.counters["nodes"]
    assert fired > 0 and saved > 0


def test_w_zero_is_the_clairvoyant_result_on_whole_deals():
    """From the start of real deals (the view after the setup, its deal the seed's): the
    kernel with W = 0 and the cuts, against solver.clairvoyant.solve_state."""
    from solver.clairvoyant import solve_state
    ki = KernelInner("zero", limit=300_000, memo_bits=20)
    done = 0
    for seed in (0, 2, 3, 4, 6):
        s = Game(1).new_initial_state(seed)
        view, deal = deal_of_state(s)
        r = ki.solve(view, deal)
        if not r.finished:
            continue
        done += 1
        want = solve_state(deal_state(view, deal)).result
        assert (r.value == 1.0) == (want == "WIN"), seed
    assert done == 5


def test_w_zero_is_the_clairvoyant_result_on_late_positions():
    from solver.clairvoyant import solve_state
    ki = KernelInner("zero")
    wins = losses = 0
    for p in _positions():
        for j in range(4):
            deal = sampled_deal(p, deal_seed(11, j))
            r = ki.solve(p, deal)
            want = solve_state(deal_state(p, deal)).result
            assert (r.value == 1.0) == (want == "WIN"), (str(p), j)
            wins += r.value == 1.0
            losses += r.value == 0.0
    assert wins >= 5 and losses >= 5


def test_strong_duality_in_the_kernel(exact_kernel):
    """W = the exact expectimax value: the inner maximum is V* on every deal, including
    deals the relaxed player could win outright."""
    inside = outright = 0
    for p in _positions():
        v = exact_kernel.value(p)
        inside += 0.0 < v < 1.0
        for j in range(6):
            deal = sampled_deal(p, deal_seed(37, j))
            r = exact_kernel.solve(p, deal)
            assert r.finished and r.counters["inexact"] == 0
            assert r.value == pytest.approx(v, abs=1e-9), (str(p), j)
            if 0.0 < v < 1.0:
                outright += KernelInner("zero").solve(p, deal).value == 1.0
    assert inside >= 2 and outright >= 3, (inside, outright)


def test_the_kernel_and_the_reference_agree_with_w_exact(exact_kernel):
    from solver.bound.values import ExactValue
    W = ExactValue(lambda view: exact_kernel.value(view))
    for p in small_positions() + near_the_end():
        for j in range(3):
            deal = sampled_deal(p, deal_seed(47, j))
            assert exact_kernel.solve(p, deal).value == pytest.approx(
                InnerSolver(W).solve(p, deal).value, abs=1e-9)


def test_strong_duality_fails_for_a_slightly_wrong_w():
    noisy = KernelInner("noisy", noise=0.02, ex_bits=16)
    off = 0
    for p in small_positions() + near_the_end():
        v = noisy.value(p)
        for j in range(6):
            r = noisy.solve(p, sampled_deal(p, deal_seed(37, j)))
            off += abs(r.value - v) > 1e-6
    assert off > 0


def test_stopping_at_once_gives_the_exact_value(exact_kernel):
    for p in _positions():
        ki = KernelInner("zero", stop=sum(p.unknown), ex_bits=16)
        deal = sampled_deal(p, deal_seed(53, 0))
        r = ki.solve(p, deal)
        assert r.counters["stops"] + r.counters["cut_hopeless"] == 1 or r.counters["nodes"] == 0
        assert r.value == pytest.approx(exact_kernel.value(p), abs=1e-12)


def test_with_w_exact_any_stop_keeps_strong_duality(exact_kernel):
    for p in _positions():
        v = exact_kernel.value(p)
        for stop in (1, 3):
            ki = KernelInner("exact", stop=stop, ex_bits=16)
            for j in range(3):
                r = ki.solve(p, sampled_deal(p, deal_seed(59, j)))
                assert r.value == pytest.approx(v, abs=1e-9), (str(p), stop, j)


def test_the_stopped_bound_lies_between_the_value_and_the_clairvoyant():
    """W = 0 with a stop: per deal at most 1; averaged over deals at least V* (weak
    duality, within sampling error), and at most the clairvoyant mean (every deal's value is
    the exact value of a view the clairvoyant reaches, section 10)."""
    deals = 40
    for seed, n in [(0, 7), (1, 7), (4, 7), (0, 6)]:
        p = late(seed, n)
        stopped = KernelInner("zero", stop=3, ex_bits=16)
        clair = KernelInner("zero")
        v = stopped.value(p)
        xs, cs = [], []
        for j in range(deals):
            deal = sampled_deal(p, deal_seed(61, j))
            xs.append(stopped.solve(p, deal).value)
            cs.append(clair.solve(p, deal).value)
        mean = sum(xs) / deals
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (deals - 1))
        assert all(0.0 <= x <= 1.0 for x in xs)
        assert mean >= v - 3 * sd / math.sqrt(deals) - 1e-12, (seed, n, mean, v)
        assert mean <= sum(cs) / deals + 3 * sd / math.sqrt(deals) + 1e-12
