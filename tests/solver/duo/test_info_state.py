"""The two-player information-state kernel (solver.duo.info_state) against engine/: the view
it encodes, the partner's hand it deals, the steps from dealt mid-game views, and the
hidden-order test (dealing the partner's hand and the deck again changes no kernel input).
The step-by-step walk from the setup is the conformance harness's (adapter ``duo-honest``,
tests/solver/test_conformance.py)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine import cards
from engine.game import Game
from engine.view import player_view

from duo_kit import mixed_positions, redeal_unseen
from solver import conformance as CF
from solver.duo import info_state as info


def _positions(games, seed0=0):
    return mixed_positions(games, seed0, rnd_seed=1)


def _redealt(state, rnd):
    return redeal_unseen(state, rnd)


def test_the_kernel_walks_with_the_engine_from_the_setup():
    res = CF.run(CF.DuoHonestAdapter(), 8000, seed=7)
    assert res.mismatch is None, str(res.mismatch)
    assert {"play", "prophecy", "door", "nightmare", "draft"} <= set(res.phases)
    assert res.chance > 0


def test_a_view_encodes_to_what_the_player_may_know():
    n = known = 0
    for _seed, s in _positions(15):
        v = player_view(s)
        S = info.encode(v)
        assert info.diff(S, v) == {}
        assert info.legal_list(S) == v.legal_actions()
        p = 1 - s.turn
        assert int(S[info.HID]) == v.hidden == len(s.hands[p]) - len(v.hands[p])
        assert int(info.deck_size(S)) == s.deck_size()
        # of the partner's hand the array holds the cards the view knows, and the others' number
        held = S[info.H + info.OWN_STEP * p:][:info.NLOC]
        assert [int(x) for x in held] == [v.hands[p].count(c) for c in range(info.NLOC)]
        n += 1
        known += bool(v.hands[p])
    assert n > 500 and known > 100


def test_one_kernel_plays_both_player_counts():
    """The turn is written once (solver/honest/state.py) for one and two players: this module
    re-exports the kernel's functions, not copies; the number of players is the array's slot
    NPL; the slots of both players and the shared ones do not overlap, and a solo array (NS
    slots) stops before player 1's."""
    from solver.honest import state as kernel
    for name in ("apply_chance", "legal", "draw_unknown", "deck_size", "is_chance",
                 "legal_list"):
        assert getattr(info, name) is getattr(kernel, name), name
    assert (info.advance, info.apply_action, info.drawn, info.step, info.chance_step) == \
        (kernel.advance_duo, kernel.apply_action_duo, kernel.drawn_duo, kernel.step_duo,
         kernel.chance_step_duo)
    assert info.INITIAL[info.NPL] == 2 and kernel.INITIAL[kernel.NPL] == 1
    widths = {"U": 17, "D": 17, "L": 17, "TOP": info.TOP_CAP, "ARR": cards.TOTAL_CARDS,
              "SH": info.NLOC}
    player = {"H": info.NLOC, "DR": 4, "LAST": 1, "SER": 1, "ROWLEN": 1, "HSIZE": 1}
    shared = ("U", "D", "L", "PH", "DRAWN", "LEFT", "NTOP", "UTOT", "NDOORS", "LTOT", "NPL",
              "TURN", "TOP", "SH", "SHS", "HID", "VIEWER", "ARR")
    used = set()
    for n, at in [(n, getattr(info, n)) for n in shared] + \
            [(n, getattr(info, n) + info.PSTEP * p) for n in player for p in range(2)]:
        slots = set(range(at, at + widths.get(n, player.get(n, 1))))
        assert not slots & used, n
        assert max(slots) < info.NS, n
        if at < info.PSTEP:
            assert max(slots) < kernel.NS, n
        used |= slots


def _dealt_engine_state(view, S):
    """The engine's chance-mode position of the dealt array: the view with the partner's
    dealt hand, the rest of the unknown cards as the deck's unknown part."""
    from engine.view import sample_position
    s = sample_position(view, random.Random(0))
    p = 1 - view.viewer
    hand = []
    for c in range(info.NLOC):
        hand += [c] * int(S[info.H + info.OWN_STEP * p + c])
    s.unknown = [int(x) for x in S[info.U:info.U + cards.NUM_TYPES]]
    s.hands[p] = hand
    return s


def test_the_dealt_partner_hand_comes_from_the_unknown_locations_and_steps_conform():
    rnd = random.Random(3)
    walked = 0
    for i, (_seed, s) in enumerate(_positions(20, seed0=100)):
        if i % 7:
            continue
        v = player_view(s)
        S = info.encode(v)
        info.deal_partner(S, np.uint64(rnd.getrandbits(64)))
        assert int(S[info.HID]) == 0
        p = 1 - v.viewer
        dealt = S[info.H + info.OWN_STEP * p:][:info.NLOC]
        assert int(dealt.sum()) == v.hidden + len(v.hands[p])
        for c in range(info.NLOC):
            assert v.hands[p].count(c) <= dealt[c] <= v.unknown[c] + v.hands[p].count(c)
        e = _dealt_engine_state(v, S)
        assert sum(e.unknown) + v.hidden == sum(v.unknown)
        # the dealt array steps as the engine does, random decisions and draws
        for _ in range(40):
            assert info.diff(S, e) == {}
            if e.is_terminal():
                break
            if e.is_chance_node():
                acts, probs = zip(*e.chance_outcomes())
                a = rnd.choices(acts, weights=probs)[0]
                e.apply_action(a)
                info.chance_step(S, np.int64(a - info.A_DRAW))
            else:
                assert info.legal_list(S) == e.legal_actions()
                a = rnd.choice(e.legal_actions())
                e.apply_action(a)
                info.step(S, np.int64(a))
            walked += 1
    assert walked > 1000


def test_deal_partner_is_uniform_over_the_unknown_locations():
    """One hidden card, drawn many times: each Location type comes up in proportion to its
    unknown count (and never a Door or a Nightmare)."""
    s = next(st for _sd, st in _positions(3) if st.phase == "play")
    v = player_view(s)
    base = info.encode(v)
    base[info.HID] = 1
    counts = np.zeros(cards.NUM_TYPES)
    N = 20000
    for k in range(N):
        S = base.copy()
        info.deal_partner(S, np.uint64(k * 7919 + 1))
        counts[:info.NLOC] += S[info.H + info.OWN_STEP * (1 - v.viewer):][:info.NLOC] \
            - base[info.H + info.OWN_STEP * (1 - v.viewer):][:info.NLOC]
    locs = np.array(v.unknown[:info.NLOC], dtype=float)
    expect = N * locs / locs.sum()
    assert counts[info.NLOC:].sum() == 0
    for c in range(info.NLOC):
        if expect[c] > 50:
            assert abs(counts[c] - expect[c]) < 5 * np.sqrt(expect[c])


def test_hidden_order_redealing_changes_no_kernel_input():
    """Deal the partner's hand and the deck's unseen part again: the view, and so the
    kernel's array (the only input of its policies), is unchanged; the redeal does change
    the partner's hand at many positions (a kernel that read it would be caught)."""
    rnd = random.Random(11)
    changed = n = 0
    for _seed, s in _positions(15, seed0=300):
        r = _redealt(s, rnd)
        changed += r.hands[1 - s.turn] != s.hands[1 - s.turn]
        assert np.array_equal(info.encode(player_view(r)), info.encode(player_view(s)))
        n += 1
    assert changed > 200 and n > 500


def test_encode_refuses_a_solo_or_deal_mode_state():
    with pytest.raises(ValueError):
        info.encode(player_view(Game(1).new_initial_state(seed=0)))
    with pytest.raises(ValueError):
        info.encode(Game(2).new_initial_state(seed=0))
