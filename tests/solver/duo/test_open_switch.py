"""duo-open-switch (solver/duo/open_switch.py): on the open game's view it plays the open-hands
search's proven best action where the search proves one; its decisions do not depend on the
deck's order (the open game's hidden-order test: the deck only is redealt); it refuses a
silent view (partner cards unknown)."""
from __future__ import annotations

import random

import pytest

from duo_kit import redeal_unseen
from engine import Game
from engine.policy import greedy_action
from engine.view import player_view
from open_hands_kit import fast_positions, open_positions
from solver.api import PolicyError, make_policy
from solver.duo.open_search import OpenSearch
from solver.duo.open_switch import deck_unknown
from solver.honest.play import decision_stream
from solver.policies.endgame import proven_best_actions

BASE = "duo-krollout:n=8,screen=0"


def _switch(**kw):
    args = {"base": BASE, "unknown": 60, "budget_nodes": 200_000}
    args.update(kw)
    return make_policy("duo-open-switch", **args)


def _late_positions(n_games, max_unknown, seed0=300):
    """Decision points of two-player greedy games with at most ``max_unknown`` deck cards
    unknown to the open view of the player to move."""
    for seed in range(seed0, seed0 + n_games):
        s = Game(2).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            if deck_unknown(player_view(s, talk="open")) <= max_unknown:
                yield seed, i, s.clone()
            s.apply_action(greedy_action(s))
            i += 1


def test_plays_the_search_s_proven_best_on_fixture_positions():
    sw = _switch()
    proven = 0
    for s in fast_positions() + open_positions(max_unknown=6):
        if len(s.legal_actions()) < 2:
            continue
        ref = OpenSearch().rank(s, budget_nodes=2_000_000)
        best = proven_best_actions(ref.actions)
        a = sw.act(player_view(s, talk="open"), 7)
        if sw.last == "exact":          # the switch's own (smaller) search proved a best
            proven += 1
            assert best and a in {b.action_id for b in best}
        elif best:                       # not proven within its budget: not proven worse
            assert sw.last == "bounds"
    assert proven >= 4


def test_a_search_that_proves_nothing_plays_an_action_not_proven_worse():
    sw = _switch(budget_nodes=50)        # too small to prove most rankings
    seen = 0
    for seed, i, s in _late_positions(3, 10):
        v = player_view(s, talk="open")
        if len(v.legal_actions()) < 2:
            continue
        a = sw.act(v, decision_stream(seed, i))
        assert a in v.legal_actions()
        seen += sw.last in ("bounds", "exact")
    assert seen > 5


def test_no_decision_depends_on_the_deck_order():
    """The open game's hidden-order test: redeal the deck (the partner's hand is known)."""
    sw = _switch(unknown=8, budget_nodes=20_000)
    rnd = random.Random(9)
    searched = 0
    for seed, i, s in _late_positions(4, 8):
        stream = decision_stream(seed, i)
        a = sw.act(player_view(s, talk="open"), stream)
        searched += sw.last in ("exact", "bounds")
        for _ in range(2):
            t = redeal_unseen(s, rnd, "open")
            assert t.hands == s.hands
            assert sw.act(player_view(t, talk="open"), stream) == a
    assert searched > 10


def test_refuses_a_silent_view_and_skips_it_when_asked():
    s = Game(2).new_initial_state(seed=3)
    while player_view(s).hidden == 0 or len(s.legal_actions()) < 2:
        s.apply_action(greedy_action(s))
    v = player_view(s)                   # the silent game: partner cards unknown
    with pytest.raises(PolicyError, match="silent"):
        _switch().act(v, 0)
    sw = _switch(skip_silent=True)
    assert sw.act(v, 0) == make_policy("duo-krollout", n=8, screen=0).act(v, 0)
    assert sw.last == "silent"


def test_refuses_solo_views_and_bad_arguments():
    with pytest.raises(PolicyError):
        _switch().act(player_view(Game(1).new_initial_state(seed=0)), 0)
    with pytest.raises(PolicyError):
        _switch(fallback="coin")
    with pytest.raises(PolicyError):
        _switch(base="duo-open-switch")
