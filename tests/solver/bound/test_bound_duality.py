"""Weak and strong duality of the penalised inner problem (docs/BOUND.md section 5).

* strong duality: with W the exact honest value, the inner maximum is the position's value
  on every deal (to 1e-9), and with W slightly wrong it is not;
* weak duality for any W: the exact mean of the inner maximum over every deal of a small
  position is at least the exact honest value.
"""
from __future__ import annotations

import pytest
from bound_kit import PyExpectimax, late, near_the_end, small_positions

from solver.bound.deal import deal_seed, expect_over_deals, sampled_deal
from solver.bound.reference import InnerSolver
from solver.bound.values import ExactValue, NoiseValue, zero

DEALS = 12


class Perturbed:
    """The exact value plus a small fixed noise: a W that is almost, but not, V*."""

    def __init__(self, exact, scale=0.02):
        self.exact = exact
        self.noise = NoiseValue(scale, salt="perturbed")

    def __call__(self, view):
        return self.exact(view) + self.noise(view)


def test_strong_duality_with_the_plain_python_expectimax():
    for p in small_positions():
        W = ExactValue(PyExpectimax())
        v = W(p)
        assert 0.0 < v < 1.0
        for j in range(DEALS):
            r = InnerSolver(W).solve(p, sampled_deal(p, deal_seed(31, j)))
            assert r.value == pytest.approx(v, abs=1e-9)


@pytest.fixture(scope="module")
def kernel_exact():
    from solver.expectimax import Expectimax
    return ExactValue(Expectimax(table_bits=16))


def test_strong_duality_with_the_expectimax(kernel_exact):
    """Small positions of several phases: the inner maximum with W the kernel's exact value
    is the value on every sampled deal, including deals the relaxed player could win
    outright (the penalties take exactly the excess away)."""
    W = kernel_exact
    wins = inside = 0
    for p in small_positions() + near_the_end():
        v = W(p)
        inside += 0.0 < v < 1.0
        for j in range(6):
            deal = sampled_deal(p, deal_seed(37, j))
            r = InnerSolver(W).solve(p, deal)
            assert r.value == pytest.approx(v, abs=1e-9), (str(p), j)
            wins += InnerSolver(zero).solve(p, deal).value == 1.0
    assert wins > 0 and inside > 0


LATE = [(6, 4), (8, 5), (2, 5), (0, 6), (0, 7), (1, 7), (4, 7)]


@pytest.mark.slow
def test_strong_duality_with_the_expectimax_on_late_positions(kernel_exact):
    """Late positions of real games (4 to 7 unknown cards; 15-20 s of CPU)."""
    W = kernel_exact
    chance = 0
    for seed, n in LATE:
        p = late(seed, n)
        v = W(p)
        for j in range(DEALS):
            r = InnerSolver(W).solve(p, sampled_deal(p, deal_seed(37, j)))
            assert r.value == pytest.approx(v, abs=1e-9), (seed, n, j)
            chance += r.chance_nodes
    assert chance > 0


def test_the_kernel_and_the_plain_python_values_agree(kernel_exact):
    for p in small_positions():
        assert kernel_exact(p) == pytest.approx(PyExpectimax()(p), abs=1e-12)


def test_strong_duality_fails_for_a_slightly_wrong_w():
    """The equality is a real check: a W 2% off V* changes the inner maximum on some
    deal."""
    off = 0
    for p in small_positions():
        exact = ExactValue(PyExpectimax())
        v = exact(p)
        W = Perturbed(exact)
        for j in range(DEALS):
            r = InnerSolver(W).solve(p, sampled_deal(p, deal_seed(31, j)))
            off += abs(r.value - v) > 1e-6
    assert off > 0


@pytest.mark.parametrize("name", ["zero", "half", "noise", "perturbed"])
def test_any_w_bounds_the_exact_value_over_all_deals(name):
    """The exact mean over every deal (every unknown order, every shuffle met) of the inner
    maximum is at least V*, whatever W is."""
    for p in small_positions():
        exact = ExactValue(PyExpectimax())
        v = exact(p)
        W = {"zero": zero, "half": lambda view: 0.5, "noise": NoiseValue(salt="any"),
             "perturbed": Perturbed(exact, 0.3)}[name]
        mean, deals = expect_over_deals(p, lambda d: InnerSolver(W).solve(p, d).value,
                                        max_deals=5_000)
        assert mean >= v - 1e-12, (name, str(p), mean, v)
        if name in ("zero", "half"):      # constant W: no penalty, the clairvoyant rate
            clair, _ = expect_over_deals(p, lambda d: InnerSolver(zero).solve(p, d).value)
            assert mean == clair


def test_the_exact_mean_with_the_exact_w_is_the_value():
    for p in small_positions():
        W = ExactValue(PyExpectimax())
        mean, _ = expect_over_deals(p, lambda d: InnerSolver(W).solve(p, d).value)
        assert mean == pytest.approx(W(p), abs=1e-9)
