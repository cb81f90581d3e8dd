"""The end-game switch (solver/policies/endgame.py): the exact expectimax's proven best move when the
deck is small, the base policy's move otherwise; deterministic (docs/REGRET.md)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import Game
from engine.notation import parse_position
from engine.view import player_view
from solver.api import PolicyError, make_policy, policy_entries
from solver.policies.endgame import (DEFAULT_UNKNOWN, EndgameSwitch, not_proven_worse,
                            proven_best_actions, unknown_cards, with_endgame)
from solver.honest.play import decision_stream

_DISCARD = ("discard=Os,Os,Os,Os,Os,Os,Om,Ok,As,As,As,As,Am,Am,Am,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gm,"
            "Gk,Gk,Gk,Ls,Ls,Lm,Lm,Lk,Lk,N,N,N,N,N,N")
# Deal 5, decision 36, played by greedy (10 unknown cards, seven Doors in play, DL missing).
# Greedy plays Lm (value 0.69); playing Am wins with probability 0.91 (regret 0.22).
GREEDY_ERRS = ("mode=solo phase=play hand=As,Am,Gm,Ls,Lm "
               "row=As,Ak,As,Ok,Os,Ok,Os,Lm,Ls,Lk,Om,Os,Om,Gs,Gm,Gs "
               "doors=DO,DO,DA,DA,DG,DG,DL deck=* " + _DISCARD + " limbo=-")
# Deal 52, decision 46 (9 unknown): greedy moves a Door to limbo; redrawing the hand is
# better by 0.88.
GREEDY_ERRS_2 = ("mode=solo phase=nightmare drawn=N hand=Am,Gm,Lm "
                 "row=Gm,Gs,Gm,Gs,Gk,Gs,Om,Os,Om,Os,Ak,As,Am doors=DO,DO,DA,DA,DG,DG,DL "
                 "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Ok,Ok,As,As,As,As,As,As,As,Am,Am,"
                 "Ak,Ak,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lm,Lm,Lm,Lk,Lk,N,N,N,N,N,N limbo=-")
# Deal 48, decision 36 (10 unknown): the default node budget proves no best action here.
UNPROVEN = ("mode=solo phase=nightmare drawn=N hand=Gs,Gs,Gs,Lm "
            "row=Os,Ok,Om,As,Am,As,Lm,Ls,Lm,As,Am,As,Gm,Gs,Gm doors=DO,DO,DA,DA,DG,DG,DL "
            "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Ok,Ok,As,As,As,As,Ak,Ak,Gs,Gs,Gs,Gm,"
            "Gk,Gk,Gk,Ls,Ls,Ls,Ls,Ls,Lm,Lk,Lk,N,N,N,N,N,N,N limbo=-")


@pytest.fixture(scope="module")
def endgame():
    return make_policy("endgame")


@pytest.fixture(scope="module")
def greedy():
    return make_policy("greedy")


def _exact_values(view):
    from solver.expectimax.solver import Expectimax
    r = Expectimax(table_bits=18).rank(view)
    assert all(a.exact for a in r.actions)
    return {a.action_id: a.lo for a in r.actions}


def _small_views(seeds, limit):
    """Views of greedy games with 2+ actions and at most ``limit`` unknown cards."""
    g = make_policy("greedy")
    for seed in seeds:
        s = Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            v = player_view(s)
            if unknown_cards(v) <= limit and len(v.legal_actions()) >= 2:
                yield seed, i, v
            s.apply_action(g.act(v, decision_stream(seed, i)))
            i += 1


def test_registered_with_its_parameters(endgame):
    assert "endgame" in policy_entries()
    assert endgame.config == {"base": "greedy", "unknown": DEFAULT_UNKNOWN,
                              "budget_nodes": 100_000, "budget_s": 0.0,
                              "fallback": "base"}
    p = make_policy("endgame", base="random", unknown="8", budget_s="0.5")
    assert p.config["unknown"] == 8 and p.base.name == "random"
    for bad in ({"base": "nope"}, {"base": "endgame"}, {"unknown": "-1"},
                {"budget_nodes": "0"}, {"budget_s": "-1"}, {"depth": "3"},
                {"fallback": "nope"}):
        with pytest.raises(PolicyError):
            make_policy("endgame", **bad)


@pytest.mark.parametrize("text", [GREEDY_ERRS, GREEDY_ERRS_2])
def test_takes_the_proven_best_where_greedy_errs(text, endgame, greedy):
    view = parse_position(text)
    assert unknown_cards(view) <= DEFAULT_UNKNOWN
    vals = _exact_values(view)
    best = max(vals.values())
    g = greedy.act(view, 0)
    assert best - vals[g] > 0.05                     # greedy really errs here
    a = endgame.act(view, 0)
    assert endgame.last == "exact"
    assert vals[a] == pytest.approx(best, abs=1e-12)
    assert a != g


def test_falls_back_to_the_base_on_a_large_deck(greedy):
    sw = with_endgame(greedy)
    assert sw.name == "endgame+greedy" and sw.config["base"] == "greedy"
    sw.search = None                                  # a search would fail loudly
    n = 0
    for seed in range(3):
        s = Game(1).new_initial_state(seed=seed)
        for i in range(12):
            v = player_view(s)
            assert unknown_cards(v) > DEFAULT_UNKNOWN
            assert sw.act(v, decision_stream(seed, i)) == greedy.act(v, 0)
            assert sw.last in ("base", "forced")
            n += sw.last == "base"
            s.apply_action(greedy.act(v, 0))
    assert n > 20


def test_falls_back_when_the_budget_proves_nothing(endgame, greedy):
    view = parse_position(UNPROVEN)
    assert unknown_cards(view) <= DEFAULT_UNKNOWN
    proven = proven_best_actions(endgame.search(view).actions)
    a = endgame.act(view, 0)
    if proven:       # a faster kernel may settle it one day: then the switch must use it
        assert endgame.last == "exact" and a in {r.action_id for r in proven}
    else:            # measured: 100,000 nodes leave it open
        assert endgame.last == "base-open" and a == greedy.act(view, 0)
    # a tiny budget on the position the default budget settles: the base's move too
    view = parse_position(GREEDY_ERRS)
    tiny = EndgameSwitch(greedy, budget_nodes=1, warm=False)
    assert tiny.act(view, 0) == greedy.act(view, 0)
    assert tiny.last == "base-open"


def test_ties_keep_the_base_action():
    """At positions lost whatever the player does (every action exact at 0), the switch
    plays what the base plays, here a random policy with its stream."""
    rnd = make_policy("random")
    sw = with_endgame(rnd, unknown=12)
    checked = 0
    for seed, i, v in _small_views(range(10), 12):
        if len(v.legal_actions()) < 3:
            continue
        r = sw.search(v)
        if not all(a.exact and a.lo == 0.0 for a in r.actions):
            continue
        for k in range(4):
            stream = decision_stream(seed, 1000 + k)
            assert sw.act(v, stream) == rnd.act(v, stream)
            assert sw.last == "exact"
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_same_view_and_stream_same_action(greedy):
    """Two switches, the positions asked in opposite orders (the memo holds different
    things before each search): the same actions, searched or not."""
    views = list(_small_views((4, 5, 52), DEFAULT_UNKNOWN))[:8]
    assert len(views) == 8
    a = with_endgame(greedy)
    b = with_endgame(greedy)
    first = [a.act(v, decision_stream(s, i)) for s, i, v in views]
    second = [b.act(v, decision_stream(s, i)) for s, i, v in reversed(views)][::-1]
    assert first == second
    assert [a.act(v.clone(), decision_stream(s, i)) for s, i, v in views] == first


def test_proven_best_actions_rule():
    def row(i, lo, hi):
        return SimpleNamespace(action_id=i, lo=lo, hi=hi)
    assert [r.action_id for r in proven_best_actions([row(0, .5, .7), row(1, .6, .9)])] == []
    assert [r.action_id for r in proven_best_actions([row(0, .5, .6), row(1, .6, .6),
                                                     row(2, 0., .6)])] == [1]
    assert [r.action_id for r in proven_best_actions([row(0, .7, .7), row(1, .7, .7),
                                                     row(2, .1, .2)])] == [0, 1]
    assert proven_best_actions([row(0, .3, .3 + 1e-16), row(1, .3, .3)]) != []


def test_not_proven_worse_rule():
    def row(i, lo, hi):
        return SimpleNamespace(action_id=i, lo=lo, hi=hi)
    rows = [row(0, .5, .7), row(1, .6, .9), row(2, .1, .59), row(3, .2, .6)]
    assert [r.action_id for r in not_proven_worse(rows)] == [0, 1, 3]
    # exact ties are kept; a tie within rounding too
    assert len(not_proven_worse([row(0, .3, .3), row(1, .3, .3 + 1e-16)])) == 2
    assert not_proven_worse([]) == []


def test_pruning_never_drops_a_best_action():
    """Against the unpruned (exact) ranking: under small node budgets, every exactly best
    action survives the pruning, and the pruned switch plays an action the bounds allow."""
    greedy = make_policy("greedy")
    from solver.expectimax.solver import Expectimax
    ex = Expectimax(table_bits=18)
    checked = pruned = 0
    for seed, i, v in _small_views((5, 48, 52), 9):
        ex.clear()
        exact = {a.action_id: a.lo for a in ex.rank(v, probes=False).actions}
        best = {a for a, x in exact.items() if x >= max(exact.values()) - 1e-12}
        for nodes in (300, 3000):
            sw = EndgameSwitch(greedy, unknown=99, budget_nodes=nodes, warm=False,
                               fallback="pruned")
            r = sw.search(v)
            keep = {a.action_id for a in not_proven_worse(r.actions)}
            assert best <= keep
            a = sw.act(v, decision_stream(seed, i))
            assert a in keep
            pruned += len(keep) < len(r.actions)
            checked += 1
        if checked >= 16:
            break
    assert checked >= 10 and pruned > 0


def test_pruned_fallback_against_the_unpruned_choice():
    """At a position the budget leaves open: the pruned switch over rollout plays the
    rollout's restricted choice; where the unpruned choice and the base action survive
    the pruning, the two switches agree."""
    base = make_policy("rollout", n=32, screen=0)
    view = parse_position(UNPROVEN)
    plain = EndgameSwitch(base, budget_nodes=3000, warm=False)
    pr = EndgameSwitch(base, budget_nodes=3000, warm=False, fallback="pruned")
    r = pr.search(view)
    assert not proven_best_actions(r.actions)
    keep = {a.action_id for a in not_proven_worse(r.actions)}
    for k in range(6):
        st = decision_stream(48, 36 + 1000 * k)
        a, b = plain.act(view, st), pr.act(view, st)
        assert plain.last == "base-open" and pr.last in ("pruned", "base-open")
        assert b in keep
        assert b == base.act_among(view, st, keep)
        from engine.policy import greedy_plus_action
        if a in keep and greedy_plus_action(view) in keep:
            assert a == b


def test_pruned_switch_is_honest_and_deterministic():
    """The pruned switch over rollout (small budget, so that it often falls back): permuting
    the hidden deck under real positions changes no decision; a second switch agrees."""
    import random
    from honest_kit import permute_unseen
    rnd = random.Random(3)
    mk = lambda: make_policy("endgame", base="rollout", unknown=12, budget_nodes=3000,
                             fallback="pruned")
    p, q = mk(), mk()
    g = make_policy("greedy")
    kinds = set()
    n = 0
    for seed in (5, 48, 52, 7):
        s = Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            v = player_view(s)
            if unknown_cards(v) <= 12 and len(v.legal_actions()) >= 2:
                st = decision_stream(seed, i)
                a = p.act(v, st)
                kinds.add(p.last)
                t = permute_unseen(s, rnd)
                assert q.act(player_view(t), st) == a
                n += 1
            s.apply_action(g.act(v, decision_stream(seed, i)))
            i += 1
    assert n >= 10 and "pruned" in kinds, (n, kinds)


def test_the_default_is_the_policy_of_its_experiment():
    """The default honest policy (solver.policies.DEFAULT_HONEST_*) is the policy whose rows
    docs/POLICIES.md gives for it: endgame8-seq-n1024-h32-stop-learned's."""
    from benchmarks.experiments import EXPERIMENTS
    from solver.api import make_default_policy
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    e = EXPERIMENTS["endgame8-seq-n1024-h32-stop-learned"].params
    assert (DEFAULT_HONEST_POLICY, DEFAULT_HONEST_ARGS) == (e["policy"], e["config"])
    assert make_default_policy().config == make_policy(e["policy"], **e["config"]).config


def test_strongest_is_the_endgame_of_its_arguments():
    """``strongest`` is ``endgame`` with STRONGEST_ARGS as defaults (the policy of the
    experiment endgame12p-seq-n4096-h32-stop-learned): the same config, and the same action at
    every decision of a real game; a user's argument replaces one of them."""
    from benchmarks.experiments import EXPERIMENTS
    from solver.policies.endgame import STRONGEST_ARGS
    s_pol = make_policy("strongest")
    e_pol = make_policy("endgame", **STRONGEST_ARGS)
    assert s_pol.config == e_pol.config
    assert EXPERIMENTS["endgame12p-seq-n4096-h32-stop-learned"].params["config"] == STRONGEST_ARGS
    assert make_policy("strongest", unknown="8").config["unknown"] == 8
    with pytest.raises(PolicyError):
        make_policy("strongest", base="endgame")
    s = Game(1).new_initial_state(seed=3)
    i = 0
    while not s.is_terminal() and i < 60:
        v, st = player_view(s), decision_stream(3, i)
        a = s_pol.act(v, st)
        assert a == e_pol.act(v, st)
        s.apply_action(a)
        i += 1
    assert i >= 30
