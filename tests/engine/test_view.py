"""The player's view (engine.view) holds no hidden card order, and no registered policy can
read one: permuting the unknown part of the deck under a position changes neither the view nor
any decision, given the same random stream.

Also: a prophecy's kept cards stay known until drawn or shuffled away (``State.known_top``).
"""
from __future__ import annotations

import random

import pytest

from engine import Game
from engine.view import known_top, player_view
from solver.api import make_policy, policy_entries
from solver.honest.play import decision_stream, play_honest
from honest_kit import permute_unseen


def _positions(n_games, seed0=0, policy="greedy"):
    """Decision points along honest games, each with its deal-mode state."""
    g = make_policy(policy)
    for seed in range(seed0, seed0 + n_games):
        s = Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            yield seed, i, s.clone()
            s.apply_action(g.act(player_view(s), decision_stream(seed, i)))
            i += 1


def test_view_hides_the_order_and_the_seed():
    for seed, i, s in _positions(20):
        v = player_view(s)
        assert v.seed is None
        assert v.deck == s.deck[:known_top(s)]
        assert v.deck_size() == s.deck_size()
        assert v.legal_actions() == s.legal_actions()
        if i > 40:
            break


def test_permuting_the_unknown_deck_changes_no_view():
    rnd = random.Random(5)
    checked = 0
    for seed, i, s in _positions(30):
        t = permute_unseen(s, rnd)
        if t.deck != s.deck:
            checked += 1
        assert player_view(t) == player_view(s)
        assert player_view(t).history() == player_view(s).history()
    assert checked > 500


def _project_policy(entry) -> bool:
    """A policy the package registers, not one that a test module registered (such as
    tests/cli/test_winrate_honest.py's deliberately slow ``test-warm-up``, or the docs
    example of tests/project/test_policies_doc.py, which runs this check itself): the
    parametrization must not depend on which test modules were collected before this one."""
    return entry.factory.__module__.split(".")[0] in ("engine", "solver", "onirim")


SOLO_POLICIES = sorted(n for n, e in policy_entries().items()
                       if 1 in (getattr(e.factory, "players", None) or (1,))
                       and _project_policy(e))


@pytest.mark.parametrize("name", SOLO_POLICIES)
def test_no_policy_decision_depends_on_the_hidden_order(name):
    """Every registered policy that plays solo, at its default settings, on positions of real
    games (the two-player-only policies: tests/solver/duo/test_duo_honest.py)."""
    policy = make_policy(name)
    rnd = random.Random(11)
    n = 0
    for seed, i, s in _positions(6, seed0=100):
        if i % 3:
            continue
        stream = decision_stream(seed, i)
        a = policy.act(player_view(s), stream)
        for _ in range(2):
            assert policy.act(player_view(permute_unseen(s, rnd)), stream) == a
        n += 1
    assert n > 30


def test_the_view_would_catch_a_leak():
    """The check above can fail: a 'policy' that reads the real top card does change."""
    rnd = random.Random(3)
    changed = 0
    for seed, i, s in _positions(5):
        t = permute_unseen(s, rnd)
        if len(s.deck) > known_top(s) and s.deck[known_top(s)] != t.deck[known_top(t)]:
            changed += 1
    assert changed > 20


def test_a_prophecy_keeps_its_cards_known_until_drawn():
    found = 0
    for seed, i, s in _positions(40, policy="random"):
        if s.phase != "prophecy":
            continue
        k = min(5, s.deck_size())
        assert known_top(s) == k                      # the revealed cards are seen
        kept = s.clone()
        kept.apply_action(kept.legal_actions()[0])
        if kept.is_terminal():
            continue
        # after the prophecy the k-1 kept cards are known, minus those already drawn,
        # unless a shuffle happened since
        v = player_view(kept)
        assert len(v.deck) <= k - 1
        assert v.deck == kept.deck[:len(v.deck)]
        found += 1
    assert found > 10


def test_honest_games_replay():
    g = make_policy("greedy")
    a = play_honest(g, 7)
    b = play_honest(g, 7)
    assert a.actions == b.actions and a.won == b.won
    s = Game(1).new_initial_state(seed=7)
    for x in a.actions:
        s.apply_action(x)
    assert s.is_terminal() and s.won() == a.won
