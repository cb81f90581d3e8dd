"""The reference inner solver (solver/bound/reference.py) against the engine: the walker
follows the deal-mode engine, W = 0 is the clairvoyant result deal by deal, and one-card
penalties with the closure add up to one penalty per turn (docs/BOUND.md sections 2, 3, 5)."""
from __future__ import annotations

import random

import pytest
from bound_kit import late, near_the_end, small_positions

from engine.actions import DRAW
from engine.game import Game
from engine.view import player_view
from solver.bound.deal import (Deal, SeedShuffles, TableShuffles, Unfixed, deal_of_state,
                               deal_seed, deal_state, sampled_deal)
from solver.bound.reference import (InnerSolver, _after, penalty, policy_penalties,
                                    replay_in_deal_mode, root)
from solver.bound.values import DecisionClosure, NoiseValue, zero

LATE = [(6, 4), (2, 5), (8, 5), (0, 6), (0, 7)]


def _positions():
    return [late(seed, n) for seed, n in LATE]


def test_a_sampled_deal_is_a_deal_mode_state_and_back():
    for p in _positions():
        d = sampled_deal(p, deal_seed(7, 3))
        s = deal_state(p, d)
        view, d2 = deal_of_state(s)
        assert view == p
        assert d2 == d


def test_walker_follows_the_deal_mode_engine():
    """Random action sequences on seeded deals: at every decision the walker's view is
    engine.view.player_view of the deal-mode state, and both end the same way."""
    rnd = random.Random(5)
    games = 0
    for p in _positions() + small_positions() + near_the_end() + [Game(1).new_initial_state(11)]:
        if p.seed is not None:
            p, deal = deal_of_state(p)
        for j in range(12 if p.deck_size() < 20 else 2):
            deal = sampled_deal(p, deal_seed(3, j))
            s = deal_state(p, deal)
            node = root(p, deal)
            while not node.view.is_terminal():
                if node.view.is_chance_node():
                    node = _after(node, DRAW + node.hidden[0], deal)
                    continue
                assert player_view(s)._key() == node.view._key()
                assert s.legal_actions() == node.view.legal_actions()
                a = rnd.choice(node.view.legal_actions())
                s.apply_action(a)
                node = _after(node, a, deal)
            assert s.is_terminal() and s.phase == node.view.phase
            games += 1
    assert games >= 40


def _w_zero_against(solve) -> tuple[int, int]:
    """W = 0 against a clairvoyant solver ``solve(deal-mode state) -> "WIN" | "LOSS"``, deal
    by deal; every winning line replays to a win in the deal-mode engine."""
    wins = losses = 0
    for p in _positions() + small_positions() + near_the_end():
        for j in range(4):
            deal = sampled_deal(p, deal_seed(11, j))
            r = InnerSolver(zero).solve(p, deal)
            s = deal_state(p, deal)
            result = solve(s)
            assert result in ("WIN", "LOSS")
            assert r.value == (1.0 if result == "WIN" else 0.0), (str(s), result)
            assert r.penalty == 0.0 and r.won == (r.value == 1.0)
            if r.won:
                wins += 1
                assert replay_in_deal_mode(s, r.actions).won()
            else:
                losses += 1
    return wins, losses


def test_w_zero_is_the_clairvoyant_result_deal_by_deal():
    from solver.clairvoyant import solve_state
    wins, losses = _w_zero_against(lambda s: solve_state(s).result)
    # both outcomes met, so the comparison can fail either way
    assert wins >= 5 and losses >= 5, (wins, losses)


def test_w_zero_is_the_plain_python_clairvoyant_result_deal_by_deal():
    """The same against the clairvoyant DFS in plain Python (solver.clairvoyant.pysearch)."""
    from solver.clairvoyant.pysearch import dfs
    wins, losses = _w_zero_against(lambda s: dfs(s)[0])
    assert wins >= 5 and losses >= 5, (wins, losses)


def test_a_shuffle_takes_the_deals_order():
    """With a table of shuffles, a search that meets a shuffle asks for it (Unfixed); once
    the table fixes it, the cards still unknown after the shuffle lie in the table's order."""
    p = late(0, 7)            # no Key in hand: a Door drawn first goes to limbo, and the
    cards = [t for t, n in enumerate(p.unknown) for _ in range(n)]     # turn ends in a shuffle
    order = tuple(sorted(cards, key=lambda t: (t < 12, t)))            # Doors first
    with pytest.raises(Unfixed) as e:
        InnerSolver(zero).solve(p, Deal(order, TableShuffles()))
    assert e.value.k == 0
    shuffled = tuple(sorted((t for t, n in enumerate(e.value.counts) for _ in range(n)),
                            reverse=True))
    deal = Deal(order, TableShuffles().fixed(0, e.value.counts, shuffled))
    stack, after = [root(p, deal)], None
    while stack and after is None:            # depth first, to the first node past it
        node = stack.pop()
        if node.k == 1:
            after = node
        elif not node.view.is_terminal():
            v = node.view
            acts = [DRAW + node.hidden[0]] if v.is_chance_node() else v.legal_actions()
            for a in acts:
                try:
                    stack.append(_after(node, a, deal))
                except Unfixed:       # a shuffle of other cards at index 0: not fixed
                    pass
    assert after is not None and after.hidden == shuffled
    assert after.view.deck == [] and list(after.view.unknown) == list(e.value.counts)


def test_one_card_penalties_with_the_closure_add_up_to_one_per_turn():
    """Between two decisions, the one-card penalties of the closure of W sum to W at the
    next decision minus the closure at the view after the first decision (section 3)."""
    W = NoiseValue(salt="turns")
    Wbar = DecisionClosure(W)
    checked = 0
    for p in _positions():
        for j in range(6):
            deal = sampled_deal(p, deal_seed(17, j))
            node = root(p, deal)
            start = None
            acc = 0.0
            from engine.policy import greedy_action
            while not node.view.is_terminal():
                v = node.view
                if v.is_chance_node():
                    if start is None:
                        start = Wbar(v)
                    acc += penalty(v, node.hidden[0], Wbar)
                    node = _after(node, DRAW + node.hidden[0], deal)
                    continue
                if start is not None:
                    assert acc == pytest.approx(W(v) - start, abs=1e-12)
                    checked += 1
                start, acc = None, 0.0
                node = _after(node, greedy_action(v.clone()), deal)
    assert checked >= 10


def test_policy_penalties_follow_the_inner_solvers_line():
    """The penalties a policy pays along the inner solver's own line add up to the
    solver's penalty, and its outcome is the line's."""
    W = NoiseValue(salt="line")
    for p in _positions()[:3]:
        deal = sampled_deal(p, deal_seed(23, 0))
        r = InnerSolver(W).solve(p, deal)
        decisions = iter(a for a in r.actions if a < DRAW)
        run = policy_penalties(p, deal, W, lambda view: next(decisions))
        assert run.won == r.won
        assert run.penalty == pytest.approx(r.penalty, abs=1e-12)
        assert r.value == pytest.approx((1.0 if r.won else 0.0) - r.penalty, abs=1e-12)


def test_seed_shuffles_are_the_engines():
    s = Game(1).new_initial_state(42)
    view, deal = deal_of_state(s)
    assert isinstance(deal.shuffles, SeedShuffles)
    assert deal.shuffles.first == s.shuffles
