"""The playouts' value function (solver/honest/value.py) and the playouts cut at a horizon:
the kernel's features against a readable reading of the engine's view, the exact zero, the
cut playout against the whole one, and the honesty of seq-rollout with a horizon."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine import game
from engine.policy import keep_doors_action
from engine.rules import FIRST_DOOR, NUM_LOCATION_TYPES, SYMBOLS
from engine.view import player_view
from honest_kit import decisions, permute_unseen, positions
from solver.api import make_policy
from solver.honest import kernel as HK
from solver.honest import playouts as PO
from solver.honest import strong as ST
from solver.honest import value as V

NIGHT = 16


def _is_key(c):
    return c < NUM_LOCATION_TYPES and c % SYMBOLS == SYMBOLS - 1


def readable_features(v):
    """The features of ``solver.honest.value.FEATURES`` from the engine's view, and whether
    every colour can still gain its Doors."""
    deck = list(v.deck)                      # the known top cards
    unknown = list(v.unknown)
    hand = list(v.hands[0])
    doors = [v.doors[0].count(FIRST_DOOR + c) for c in range(4)]
    size = len(deck) + sum(unknown)
    nm = unknown[NIGHT] + deck.count(NIGHT)
    keys_deck = sum(unknown[c * SYMBOLS + SYMBOLS - 1] for c in range(4))
    keys_deck += sum(1 for c in deck if _is_key(c))
    need = 8 - sum(doors)
    needs = [doors[c] < 2 for c in range(4)]
    alive = all(unknown[FIRST_DOOR + c] + list(v.limbo).count(FIRST_DOOR + c)
                + deck.count(FIRST_DOOR + c) >= 2 - doors[c] for c in range(4))
    row = v.rows[0]
    series = 0
    if row:
        length = game.series_length(row)
        if length < 3 and needs[row[-1] // SYMBOLS]:
            series = length
    d10 = size / 10.0
    f = [1.0, need, d10, nm, need * need / 8.0, need * d10, d10 * d10, nm * need / 8.0,
         sum(1 for c in hand if _is_key(c)), keys_deck, len(v.limbo), series,
         sum(1 for c in hand if c < NUM_LOCATION_TYPES and needs[c // SYMBOLS]),
         sum(1 for c in hand if _is_key(c) and needs[c // SYMBOLS]), len(hand)]
    return f, alive


def test_features_equal_the_readable_reading_of_the_view_at_every_decision():
    n = 0
    dead = 0
    f = np.zeros(V.NFV)
    W = np.array([0.1 * ((i % 5) - 2) for i in range(V.NFV)])
    for seed, i, s in positions(12, 500, share=0.7, policy=keep_doors_action):
        v = player_view(s)
        S = HK.encode(v)
        alive = V.features(S, f)
        ref, ref_alive = readable_features(v)
        assert alive == ref_alive, (seed, i)
        assert list(f) == pytest.approx(ref), (seed, i, list(f), ref)
        x = sum(w * r for w, r in zip(W, ref))
        want = int(1.0 / (1.0 + math.exp(-x)) * V.VSCALE + 0.5) if ref_alive and x >= -30 else 0
        assert V.value_w(S, W, f) == want
        n += 1
        dead += not alive
    assert n > 300 and dead > 0, (n, dead)


def test_the_stored_weights_give_values_in_range_that_fall_as_doors_are_missing():
    for seed, i, s in positions(3, 510, share=0.9, policy=keep_doors_action):
        val = V.value_at(HK.encode(player_view(s)), np.zeros(V.NFV))
        assert 0 <= val <= V.VSCALE
    # more Doors in play, the rest equal: a higher value (the fit is monotone in need here)
    s = next(st for _, _, st in positions(1, 520, policy=keep_doors_action)
             if st.phase == "play")
    S = HK.encode(player_view(s))
    lo = V.value_at(S, np.zeros(V.NFV))
    S2 = S.copy()
    S2[HK.DR] += 1
    S2[HK.NDOORS] += 1
    S2[HK.U + FIRST_DOOR] -= 1
    assert V.value_at(S2, np.zeros(V.NFV)) > lo


def test_a_playout_cut_at_its_horizon_is_the_whole_playout_up_to_there():
    for seed, i, s in positions(2, 530, share=0.8, policy=keep_doors_action):
        if i % 7:
            continue
        S0 = HK.encode(player_view(s))
        key = np.uint64(seed * 1000 + i)
        for base in (ST.KEEP_DOORS, ST.BASES["learned-base"]):
            full = np.zeros(400, dtype=np.int64)
            Sf = S0.copy()
            r = PO.playout(Sf, key, full, np.int64(base))
            Sz = S0.copy()
            t0 = np.zeros(400, dtype=np.int64)
            assert PO.playout_h(Sz, key, t0, np.int64(base), np.int64(0)) == r
            assert list(t0) == list(full) and list(Sz) == list(Sf)
            cut = np.zeros(400, dtype=np.int64)
            Sc = S0.copy()
            rc = PO.playout_h(Sc, key, cut, np.int64(base), np.int64(6))
            k = int(cut[0])
            assert list(cut[1:k + 1]) == list(full[1:k + 1])
            draws = sum(1 for x in cut[1:k + 1] if x >= HK.A_DRAW)
            if rc == PO.CUT:
                assert draws >= 6
                assert int(Sc[HK.PH]) < int(HK.P_SETUP)      # stopped at a decision
                assert k < int(full[0])
            else:
                assert rc == r and k == int(full[0])


def test_eval_with_horizon_zero_is_eval_times_the_scale():
    s = next(st for _, _, st in positions(1, 540, policy=keep_doors_action)
             if len(st.legal_actions()) > 3)
    S0 = HK.encode(player_view(s))
    a = HK.legal_list(S0)[1]
    S = np.empty_like(S0)
    r1 = np.zeros(64, dtype=np.int8)
    rh = np.zeros(64, dtype=np.int8)
    PO._eval1(S0, a, 0, 64, np.uint64(5), S, r1, np.int64(ST.KEEP_DOORS))
    PO._eval1h(S0, a, 0, 64, np.uint64(5), S, rh, np.int64(ST.KEEP_DOORS), np.int64(0))
    assert list(rh) == [V.VSCALE * x for x in r1]
    rc = np.zeros(64, dtype=np.int8)
    PO._eval1h(S0, a, 0, 64, np.uint64(5), S, rc, np.int64(ST.KEEP_DOORS), np.int64(4))
    assert set(rc.tolist()) - {0, V.VSCALE}        # some playouts were cut and estimated


def test_seq_rollout_with_a_horizon_is_deterministic_honest_and_leaves_old_configs():
    from solver.api import config_hash
    p = make_policy("seq-rollout", n=64, stop=0.01, horizon=12)
    q = make_policy("seq-rollout", n=64, stop=0.01)
    assert "horizon" in p.config and "horizon" not in q.config
    assert config_hash(p) != config_hash(q)
    rnd = random.Random(4)
    k = 0
    differ = 0
    for s, v, st in decisions(2, 550):
        a = p.act(v, st)
        assert a in v.legal_actions() and p.act(player_view(s), st) == a
        assert p.act(player_view(permute_unseen(s, rnd)), st) == a
        differ += a != q.act(v, st)
        k += 1
    assert k > 30 and differ > 0      # the horizon changes some action: the check can fail
