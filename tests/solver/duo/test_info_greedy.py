"""The two-player base policies in numba (solver.duo.info_greedy) decide as the Python ones
(engine.policy.greedy_action, solver.duo.honest.duo_greedy_plus_action) at every decision of
many games, on the player's view and on the full position; and whole games in the kernel win
as often as the engine's greedy does (a loose statistical check)."""
from __future__ import annotations

import random

import numpy as np

from engine.game import Game
from engine.policy import greedy_action
from engine.view import player_view

from solver.duo import info_greedy as IG
from solver.duo import info_state as info
from solver.duo.honest import duo_greedy_plus_action

REFS = {"greedy": greedy_action, "greedy-plus": duo_greedy_plus_action}


def test_kernel_greedy_decides_as_the_python_greedy():
    rnd = random.Random(5)
    n = 0
    phases = set()
    for seed in range(120):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            v = player_view(s)
            S = info.encode(v)
            for name, ref in REFS.items():
                want = ref(v)
                assert IG.base_at(S, name) == want, (name, seed, str(s))
                assert ref(s) == want            # the Python policies read the view only
            phases.add(s.phase)
            n += 1
            acts = s.legal_actions()
            s.apply_action(greedy_action(s) if rnd.random() < 0.7 else rnd.choice(acts))
    assert n > 5000
    assert {"play", "prophecy", "door", "nightmare", "draft"} <= phases


def test_prophecy_with_victim_gives_greedys_order_for_every_discard():
    """For every revealed card, the action that discards it keeps the others in greedy's
    order (engine.policy._prophecy_value), and greedy's own action is one of them."""
    from engine.game import PROPHECY, _PERMS
    from engine.policy import _prophecy_value
    rnd = random.Random(2)
    seen = 0
    for seed in range(200):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            if s.phase == "prophecy":
                v = player_view(s)
                S = info.encode(v)
                k = min(5, s.deck_size())
                rev = list(v.deck[:k])
                hand = v.active_hand()
                for c in set(rev):
                    a = int(IG.prophecy_with_victim(S, np.int64(c)))
                    i, p = divmod(a - PROPHECY, 24)
                    assert rev[i] == c
                    others = [j for j in range(k) if j != i]
                    keep = [rev[others[q]] for q in _PERMS[k - 1][p]]
                    rest = list(rev)
                    rest.remove(c)
                    rest.sort(key=lambda x: _prophecy_value(v, hand, x), reverse=True)
                    assert keep == rest and a in v.legal_actions()
                seen += 1
            acts = s.legal_actions()
            s.apply_action(greedy_action(s) if rnd.random() < 0.5 else rnd.choice(acts))
    assert seen > 50


def test_kernel_games_win_about_as_often_as_the_engines_greedy():
    """Whole chance-mode games in the kernel: greedy-plus wins clearly more than greedy, and
    greedy's rate is near the engine's 3.65% of deals 0-1999 (a loose bound: 4,000 games)."""
    from solver.duo.info_playouts import game_batch
    g = game_batch(4000, 9, "greedy")
    gp = game_batch(4000, 9, "greedy-plus")
    assert g["failed"] == gp["failed"] == 0
    assert 0.015 < g["wins"] / 4000 < 0.065
    assert gp["wins"] > g["wins"] * 1.5
