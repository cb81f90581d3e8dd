"""The open game's team base (solver/duo/team_greedy.py; its readable version
solver/duo/team_reference.py) and duo-krollout over it:

* the kernel's ``team`` decides as the readable Python version (``team_action_py``) at every
  decision of many games, on the open view and on the full position, and its action is legal;
  its changes to greedy-plus do occur (a base equal to greedy-plus would pass the first check);
* whole games in the kernel: the team base wins more than greedy-plus (a loose check);
* the open game's hidden-order test: dealing the deck again (the partner's hand is known)
  changes no decision of duo-krollout over the team base, and a decision is a function of
  (view, stream);
* the silent game never uses it: duo-krollout with base=team refuses a view that hides
  partner cards, and the silent game's default policy does not play it; the open game's
  default (solver.api.default_policy_name(2, "open")) does.
"""
from __future__ import annotations

import random

import pytest

from engine.game import Game
from engine.policy import greedy_action
from engine.view import player_view

from duo_kit import mixed_positions, redeal_unseen
from solver.api import default_policy_name, make_policy
from solver.duo import info_greedy as IG
from solver.duo import info_state as info
from solver.duo.honest import duo_greedy_plus_action
from solver.duo.team_reference import team_action_py
from solver.errors import PolicyError


def _open_positions(games, seed0=0):
    return mixed_positions(games, seed0, rnd_seed=3)


def test_kernel_team_decides_as_the_python_team_base():
    n = differs = swaps = 0
    phases = set()
    for seed, s in _open_positions(80, seed0=300):
        v = player_view(s, talk="open")
        want = team_action_py(v)
        assert want in v.legal_actions()
        assert team_action_py(s) == want          # the open view holds all it reads
        assert IG.base_at(info.encode(v), "team") == want, (seed, str(s))
        differs += want != duo_greedy_plus_action(v)
        swaps += want >= info.A_SWAP and s.phase == "play"
        phases.add(s.phase)
        n += 1
    assert n > 3000
    assert {"play", "prophecy", "door", "nightmare", "draft"} <= phases
    assert differs > 100 and swaps > 20


def test_kernel_team_games_win_more_than_greedy_plus():
    from solver.duo.info_playouts import game_batch
    gp = game_batch(4000, 11, "greedy-plus")
    tm = game_batch(4000, 11, "team")
    assert tm["failed"] == gp["failed"] == 0
    assert tm["wins"] > gp["wins"] * 1.3 and tm["doors"] > gp["doors"]


def _team_rollout():
    return make_policy("duo-krollout", n=8, screen=2, base="team")


def test_open_hidden_order_no_decision_changes_and_determinism():
    pol = _team_rollout()
    rnd = random.Random(6)
    changed = n = 0
    for i, (_seed, s) in enumerate(_open_positions(4, seed0=520)):
        if len(s.legal_actions()) == 1 or i % 3:
            continue
        r = redeal_unseen(s, rnd, "open")
        assert r.hands == s.hands
        changed += r.deck != s.deck
        a = pol.act(player_view(s, talk="open"), 2000 + i)
        assert a in s.legal_actions()
        assert pol.act(player_view(r, talk="open"), 2000 + i) == a
        assert pol.act(player_view(s, talk="open"), 2000 + i) == a
        n += 1
    assert n > 40 and changed > 30


def test_the_silent_game_never_plays_the_team_base():
    pol = _team_rollout()
    s = Game(2).new_initial_state(seed=3)
    while s.phase == "draft" or len(s.legal_actions()) == 1:
        s.apply_action(greedy_action(s))
    s.apply_action(greedy_action(s))             # a draw: the partner's hand is not all seen
    while len(s.legal_actions()) == 1:
        s.apply_action(greedy_action(s))
    silent = player_view(s)
    assert silent.hidden > 0
    with pytest.raises(PolicyError, match="silent game"):
        pol.act(silent, 1)
    assert pol.act(player_view(s, talk="open"), 1) in s.legal_actions()
    assert make_policy(default_policy_name(2, "none")).base not in IG.OPEN_ONLY


def test_the_open_game_s_default_plays_its_rollout_base():
    """The open game's default is the end-game switch over the rollout OPEN_BASE names (today
    over learned, the fitted plus2: docs/DUO_BASES.md), with that base's arguments."""
    from solver.duo.rollout import OPEN_BASE
    from solver.policies.endgame import parse_base
    name, args = parse_base(OPEN_BASE)
    pol = make_policy(default_policy_name(2, "open"))
    assert pol.name == "duo-open-switch" and pol.base.name == name == "duo-krollout"
    for k, v in args.items():
        assert str(getattr(pol.base, k)) == v
