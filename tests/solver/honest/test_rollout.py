"""The rollout policy (solver.honest.rollout): determinism, honesty, the z-margin, screening, and that
it leaves greedy where greedy is clearly wrong; action_estimates against engine playouts."""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Game
from engine import game
from engine.notation import parse_position
from engine.policy import greedy_action
from engine.view import player_view
from solver.honest import kernel as HK
from solver.api import PolicyError, make_policy
from solver.honest.play import decision_stream
from engine.policy import greedy_plus_action
from solver.honest.rollout import _key, action_estimates
from solver.stats import wilson
from honest_kit import permute_unseen, positions

# Greedy discards a useless Gs; playing the useless Am instead ends the row on a Moon, so that
# an Observatory Sun (the colour still needed) can start a series next turn.
JUNK_PLAY = ("mode=solo phase=play hand=As,As,As,Am,Gs "
             "row=Om,Os,Ok,As,Ak,Am,Gs,Gm,Gk,Om,Lk,Lm,Ls doors=DO,DA,DA,DG,DG,DL,DL deck=* "
             "discard=Os,Os,Os,Ok,Ok,As,Ak,Gs,Gs,Gk,Ls,Ls,Ls,Lm,Lk,N,N,N limbo=-")
# Greedy reveals the top 5; a hand of four cards of which only two are of needed colours and
# no Key is better thrown away.
REDRAW = ("mode=solo phase=nightmare drawn=N hand=Os,Os,Gs,Gs "
          "row=Om,Os,Om,Gs,Gk,Gm,As,Am,As doors=DO,DA,DA,DG deck=* "
          "discard=Os,Os,Os,Ok,As,As,Am,Ak,Ls,Ls,Ls,Ls,Lm,N,N limbo=-")


@pytest.mark.parametrize("pos,better", [(JUNK_PLAY, "play Am"), (REDRAW, "nightmare redraw")])
def test_rollout_leaves_greedy_where_greedy_is_clearly_wrong(pos, better):
    v = parse_position(pos)
    g = greedy_action(v)
    p = make_policy("rollout", n=128, base="greedy")
    a = p.act(v, 12345)
    assert a != g and v.action_to_string(a) == better
    # independent playouts (another stream) confirm the choice is better than greedy's
    est = {x[0]: x for x in action_estimates(v, 2000, stream=999)}
    assert est[a][2] > est[g][3]


@pytest.mark.parametrize("base,ref", [("greedy", greedy_action),
                                      ("greedy-plus", greedy_plus_action)])
def test_a_huge_margin_keeps_the_base_action(base, ref):
    p = make_policy("rollout", n=32, z=1e9, base=base)
    for k, (_, i, s) in enumerate(positions(3, 40)):
        v = player_view(s)
        assert p.act(v, decision_stream(40, i)) == ref(v)
        if k > 120:
            break


def test_same_view_same_stream_same_action_and_legal():
    p = make_policy("rollout", n=24)
    changed = 0
    for seed, i, s in positions(2, 7):
        v = player_view(s)
        st = decision_stream(seed, i)
        a = p.act(v, st)
        assert a in v.legal_actions()
        assert p.act(player_view(s), st) == a
        changed += a != greedy_action(v)
    assert changed > 0


def test_permuting_the_hidden_deck_changes_no_decision():
    p = make_policy("rollout", n=16)
    rnd = random.Random(2)
    n = 0
    for seed, i, s in positions(3, 300):
        if i % 2:
            continue
        st = decision_stream(seed, i)
        a = p.act(player_view(s), st)
        t = permute_unseen(s, rnd)
        assert p.act(player_view(t), st) == a
        n += 1
    assert n > 30


def test_screening_mostly_keeps_the_unscreened_choice():
    """Prophecies: the screened choice (16 playouts each, keep 6) against all actions at n."""
    same = 0
    total = 0
    for seed, i, s in positions(400, 1000, share=0.5):
        if s.phase != "prophecy" or len(s.legal_actions()) < 10:
            continue
        S = HK.encode(player_view(s))
        key = np.uint64(_key(decision_stream(seed, i)))
        a = HK.decide1(S, 96, 1.0, key, 16, 6, 0)
        b = HK.decide1(S, 96, 1.0, key, 0, 6, 0)
        same += a == b
        total += 1
        if total >= 40:
            break
    assert total >= 20
    assert same >= 0.8 * total, (same, total)


@pytest.mark.slow   # about 1 s, but compiling the level-2 kernel takes 30+ s on a fresh cache
def test_level_two_runs_and_is_deterministic():
    p = make_policy("rollout", level=2, n=2, inner_n=2)
    v = parse_position(REDRAW)
    a = p.act(v, 5)
    assert a in v.legal_actions() and p.act(v, 5) == a


def test_single_action_costs_nothing():
    s = Game(1).new_initial_state(seed=3)
    # a Door drawn without its Key never waits; build a nightmare with one choice instead:
    v = parse_position("mode=solo phase=door drawn=DO hand=Os,Os,Ok,As row=- doors=- deck=* "
                       "discard=- limbo=-")
    assert len(v.legal_actions()) == 2
    p = make_policy("rollout", n=8)
    assert p.act(v, 1) in v.legal_actions()
    assert s.legal_actions()


def test_estimates_agree_with_engine_playouts():
    v = parse_position(JUNK_PLAY)
    est = {a: (m, lo, hi) for a, m, lo, hi in action_estimates(v, 3000, stream=4)}
    assert sorted(est) == v.legal_actions()
    for a, (m, lo, hi) in est.items():
        assert 0 <= lo <= m <= hi <= 1
    # the engine in chance mode, greedy after "play Am", its own random draws
    rnd = random.Random(8)
    a = v.string_to_action("play Am")
    wins = 0
    n = 300
    for _ in range(n):
        s = v.clone()
        s.apply_action(a)
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rnd.choices(acts, weights=probs)[0])
            else:
                s.apply_action(greedy_action(s))
        wins += s.won()
    lo, hi = wilson(wins, n)
    assert lo - 0.03 <= est[a][0] <= hi + 0.03, (wins / n, est[a])


@pytest.mark.parametrize("args", [{"n": 0}, {"z": -1.0}, {"level": 3}, {"keep": 0},
                                  {"n": "many"}, {"base": "clever"}])
def test_bad_arguments(args):
    with pytest.raises(PolicyError):
        make_policy("rollout", **args)


def test_draw_actions_are_engine_draws():
    assert HK.A_DRAW == game.DRAW


def test_act_among_all_actions_is_the_unscreened_choice():
    """``act_among`` with every action allowed equals ``act`` without the screen; with the
    base action and that choice both allowed, any restriction keeps the choice; a
    restricted choice is always allowed."""
    p = make_policy("rollout", n=32, screen=0)
    rnd = random.Random(5)
    n = moved = 0
    for seed, i, s in positions(3, 60):
        v = player_view(s)
        acts = v.legal_actions()
        if len(acts) < 3:
            continue
        st = decision_stream(seed, i)
        a = p.act(v, st)
        assert p.act_among(v, st, acts) == a
        base = greedy_plus_action(v)
        sub = {x for x in acts if rnd.random() < 0.5} | {a, base}
        assert p.act_among(v, st, sub) == a
        drop = set(acts) - {base}
        c = p.act_among(v, st, drop)
        assert c in drop
        moved += c != a
        n += 1
        if n >= 40:
            break
    assert n >= 20 and moved > 0
    with pytest.raises(PolicyError):
        p.act_among(v, st, [])


@pytest.mark.slow   # compiles the level-2 kernel on a fresh cache
def test_act_among_at_level_two():
    """Level 2: the level-2 action if allowed, else an allowed action (deterministic)."""
    p = make_policy("rollout", level=2, n=2, inner_n=2)
    v = parse_position(REDRAW)
    acts = v.legal_actions()
    a = p.act(v, 5)
    assert p.act_among(v, 5, acts) == a
    rest = set(acts) - {a}
    b = p.act_among(v, 5, rest)
    assert b in rest and p.act_among(v, 5, rest) == b
