"""The two-player base ``plus2`` (solver.duo.info_greedy): greedy-plus with the partner's
public needs, and ``learned``, plus2's decisions with the weights fitted by
benchmarks/learn_duo_base.py (solver/duo/learned_weights.py).

* their action is legal (the engine's list) at every decision of many games, on the player's
  view, and it reads the view only: the same action on the full position's view after the
  partner's hand and the deck's unseen part are dealt again (the hidden-order test);
* with the weight of greedy-plus's own action alone, no exchange and no Nightmare change it
  *is* greedy-plus (the anchor of its weights);
* ``learned`` is, at every decision, :func:`plus2_with` with the stored weights over
  greedy-plus's action, and the fit's game kernel (solver.duo.plus2_games) plays, game by
  game, the playouts of each base with its weights;
* whole games in the kernel: each wins more often than greedy-plus (a loose check).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine.view import player_view

from solver.duo import info_greedy as IG
from solver.duo import info_state as info
from solver.duo.honest import duo_greedy_plus_action

from duo_kit import hidden_order_decisions, mixed_positions as _positions
from test_info_state import _redealt


@pytest.mark.parametrize("base", ["plus2", "learned"])
def test_plus2_is_legal_on_views_and_reads_only_the_view(base):
    rnd = random.Random(11)
    n = changed = swaps = differ = 0
    phases = set()
    for _seed, s in _positions(60, seed0=900, explore=0.4, rnd_seed=3):
        v = player_view(s)
        a = IG.base_at(info.encode(v), base)
        assert a in v.legal_actions(), (str(s), a)
        r = _redealt(s, rnd)
        changed += r.hands[1 - s.turn] != s.hands[1 - s.turn]
        assert IG.base_at(info.encode(player_view(r)), base) == a
        assert IG.base_at(info.encode(v), base) == a         # deterministic
        swaps += info.A_SWAP <= a < info.A_PROPHECY
        differ += a != duo_greedy_plus_action(v)
        phases.add(s.phase)
        n += 1
    assert n > 2000 and changed > 300
    assert {"play", "prophecy", "door", "nightmare", "draft"} <= phases
    assert swaps > 50 and differ > 100          # plus2 is not greedy-plus


def test_plus2_with_only_the_anchor_weight_is_greedy_plus():
    w = np.zeros(IG.P2_NF, dtype=np.int64)
    w[0] = 1
    t = IG.P2_TUNE.copy()
    t[IG.SW_MARGIN] = 1 << 20                   # no exchange pays that much
    t[IG.NM_USEFUL] = -1                        # the Nightmare's redraw rule never fires
    n = keys = 0
    for _seed, s in _positions(40, seed0=1300, explore=0.3, rnd_seed=5):
        v = player_view(s)
        S = info.encode(v)
        gp = IG.base_at(S, "greedy-plus")
        a = int(IG._plus2_with_at(S, np.int64(gp), w, t))
        if s.phase == "nightmare" and a != gp:
            keys += 1                           # plus2's Key order, by the team's needs
            assert info.A_NM_KEY <= a < info.A_NM_DOOR and info.A_NM_KEY <= gp < info.A_NM_DOOR
            continue
        assert a == gp == duo_greedy_plus_action(v), str(s)
        n += 1
    assert n > 1000


FITTED = {"learned": (IG.L_WEIGHTS, IG.L_TUNE), "learned60": (IG.L60_WEIGHTS, IG.L60_TUNE)}


@pytest.mark.parametrize("base", sorted(FITTED))
def test_learned_is_plus2_with_the_stored_weights_at_every_decision(base):
    n = differ = 0
    w, t = (x.copy() for x in FITTED[base])
    assert w[0] == IG.P2_WEIGHTS[0]                 # the anchor is held by the fit
    for _seed, s in _positions(30, seed0=2100, explore=0.4, rnd_seed=7):
        S = info.encode(player_view(s))
        a = IG.base_at(S, base)
        gp = IG.base_at(S, "greedy-plus")
        assert a == int(IG._plus2_with_at(S, np.int64(gp), w, t)), str(s)
        differ += a != IG.base_at(S, "plus2")
        n += 1
    assert n > 1000
    if not (np.array_equal(w, IG.P2_WEIGHTS) and np.array_equal(t, IG.P2_TUNE)):
        assert differ > 0                           # other weights, other decisions


@pytest.mark.parametrize("base", ["plus2", "learned", "learned60"])
def test_the_fit_kernel_plays_the_bases_playouts(base):
    from solver.duo.info_playouts import playout
    from solver.duo.plus2_games import weights_games
    w, t = {"plus2": (IG.P2_WEIGHTS, IG.P2_TUNE), **FITTED}[base]
    n = 300
    out = np.zeros(n, dtype=np.int64)
    total = weights_games(np.int64(n), np.uint64(77), w.copy(), t.copy(), out)
    S = np.zeros(info.NS, dtype=np.int64)
    for g in range(n):
        info.new_game(S)
        key = np.uint64(info.word(np.uint64(77), np.int64(g)))
        assert playout(S, key, np.int64(IG.BASES[base])) == out[g]
    assert total == out.sum() and 0 < (out == 8).sum() < n


@pytest.mark.parametrize("base", ["plus2", "learned", "learned60"])
def test_plus2_wins_more_kernel_games_than_greedy_plus(base):
    from solver.duo.info_playouts import game_batch
    gp = game_batch(4000, 21, "greedy-plus")
    p2 = game_batch(4000, 21, base)
    assert gp["failed"] == p2["failed"] == 0
    assert p2["wins"] > 1.5 * gp["wins"] and p2["doors"] > gp["doors"]



def test_duo_krollout2_hidden_order_no_decision_changes():
    """The rollout over plus2 decides from the view only: dealing the partner's hand and the
    deck's unseen part again changes none of its decisions."""
    from solver.api import make_policy
    pol = make_policy("duo-krollout2", n=8, screen=2)
    assert pol.base == "plus2"
    n, changed = hidden_order_decisions(pol, _positions(4, seed0=1500), random.Random(8), 2000)
    assert n > 40 and changed > 20


@pytest.mark.parametrize("name, base", [("duo-plus2", "plus2"), ("duo-learned-base", "learned")])
def test_duo_plus2_policy_plays_the_kernel_base(name, base):
    from solver.api import make_policy
    from solver.errors import PolicyError
    pol = make_policy(name)
    for _seed, s in _positions(2, seed0=1700):
        v = player_view(s)
        assert pol.act(v, 0) == IG.base_at(info.encode(v), base)
    from engine.game import Game
    with pytest.raises(PolicyError):
        pol.act(player_view(Game(1).new_initial_state(seed=0)), 0)
