"""The penalties have mean zero under an honest policy (docs/BOUND.md section 4): exactly over
every deal of small positions, and sampled with an interval on larger ones.  A player who
peeks at the next card makes their mean positive: the test can tell."""
from __future__ import annotations

import math
import os

import pytest
from bound_kit import PyExpectimax, greedy, small_positions

from engine.actions import DRAW
from engine.notation import parse_position
from paths import FIXTURES
from solver.bound.deal import deal_seed, expect_over_deals, sampled_deal
from solver.bound.reference import _after, penalty, policy_penalties, root
from solver.bound.values import ExactValue, NoiseValue


def greedy_value(view) -> float:
    """The exact win probability of greedy from ``view`` in the engine's chance mode."""
    if view.is_terminal():
        return 1.0 if view.won() else 0.0
    if view.is_chance_node():
        total = 0.0
        for a, p in view.chance_outcomes():
            child = view.clone()
            child.apply_action(a)
            total += p * greedy_value(child)
        return total
    child = view.clone()
    child.apply_action(greedy(view.clone()))
    return greedy_value(child)


def peeking_penalties(view, deal, W) -> float:
    """A dishonest player: at each decision it takes the action after which the deal's next
    draw (if one follows at once) pays the largest penalty.  Returns its sum of penalties."""
    node = root(view, deal)
    total = 0.0
    while not node.view.is_terminal():
        v = node.view
        if v.is_chance_node():
            total += penalty(v, node.hidden[0], W)
            node = _after(node, DRAW + node.hidden[0], deal)
            continue
        best = None
        for a in v.legal_actions():
            child = _after(node, a, deal)
            gain = (penalty(child.view, child.hidden[0], W)
                    if child.view.is_chance_node() else 0.0)
            if best is None or gain > best[0]:
                best = (gain, child)
        node = best[1]
    return total


@pytest.mark.parametrize("wname", ["noise", "exact"])
def test_greedy_pays_nothing_on_average_over_all_deals(wname):
    for p in small_positions():
        W = NoiseValue(salt="mean") if wname == "noise" else ExactValue(PyExpectimax())
        mean, deals = expect_over_deals(p, lambda d: policy_penalties(p, d, W, greedy).penalty)
        assert abs(mean) < 1e-12, (str(p), mean)
        # the deal law is the engine's chance mode: greedy's win rate over all deals is
        # its exact chance-mode win probability
        wins, _ = expect_over_deals(p, lambda d: float(policy_penalties(p, d, W, greedy).won))
        assert wins == pytest.approx(greedy_value(p), abs=1e-12)


def test_a_peeking_player_pays_on_average():
    """Its gain at each decision is at least what any fixed choice gets (mean zero), so its
    mean is never negative; positive where a decision comes before a draw (a position that
    only reveals cards gives it nothing to choose)."""
    W = NoiseValue(salt="mean")
    means = []
    for p in small_positions():
        mean, _ = expect_over_deals(p, lambda d: peeking_penalties(p, d, W))
        means.append(mean)
    assert min(means) > -1e-12 and max(means) > 1e-3, means


def _regret_positions(count: int):
    out = []
    with open(os.path.join(FIXTURES, "regret_positions.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if 10 <= int(cols[2]) <= 11:
                out.append(parse_position(cols[3]))
            if len(out) == count:
                break
    return out


def test_greedy_pays_nothing_on_average_on_sampled_deals():
    """Positions with 10-11 unknown cards (tests/fixtures/regret_positions.txt), 100 sampled
    deals each: the mean of greedy's penalty sum is within 4 standard errors of 0, while the
    peeking player's (30 deals each) is more than 4 standard errors above it."""
    W = NoiseValue(salt="sampled")
    honest, peek = [], []
    for p in _regret_positions(2):
        for j in range(100):
            d = sampled_deal(p, deal_seed(41, j))
            honest.append(policy_penalties(p, d, W, greedy).penalty)
            if j < 30:
                peek.append(peeking_penalties(p, d, W))

    def mean_se(xs):
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        return m, math.sqrt(var / len(xs))

    m, se = mean_se(honest)
    assert se > 0 and abs(m) < 4 * se, (m, se)
    mp, sep = mean_se(peek)
    assert mp > 4 * sep, (mp, sep)
