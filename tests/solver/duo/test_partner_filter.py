"""The partner filter (solver/duo/partner_filter.py, duo-kcut-sparta):

* the partner's position at its last turn action, rebuilt from the view, is the engine's:
  its own cards then are the public part plus the true hidden cards less one of them (a
  draw into the own cards) or plus none, the shared cards then are one of the alternatives,
  both rows and Doors are the engine's; where both seats play plus2, plus2 at that position
  takes the action seen;
* eps = 1 deals exactly the plain hand; a lower eps deals a card plus2 would have played
  less often than the plain deal, and the same (view, key) the same hand;
* duo-kcut-sparta decides from the view only (the hidden-order test) and by (view, stream).
"""
from __future__ import annotations

import random

import numpy as np

from engine.actions import PROPHECY
from engine.game import Game
from engine.view import player_view

from solver.api import make_policy
from solver.duo import info_state as info
from solver.duo import partner_filter as PF
from solver.duo.info_greedy import base_at

from duo_kit import hidden_order_decisions, mixed_positions


def _counts(hand):
    out = [0] * info.NLOC
    for c in hand:
        out[c] += 1
    return out


def _plus2_games(games, seed0):
    """(view, the partner's state just before its last turn action) at every turn start of
    the mover where the filter applies, both seats played by plus2."""
    pol = make_policy("duo-plus2")
    for seed in range(seed0, seed0 + games):
        s = Game(2).new_initial_state(seed=seed)
        before = [None, None]
        while not s.is_terminal():
            v = player_view(s)
            if s.phase == "play" and before[1 - s.turn] is not None:
                yield v, s, before[1 - s.turn]
            a = pol.act(v, 0)
            if s.phase == "play":
                before[s.turn] = (s.clone(), a)
            s.apply_action(a)


def _then_options(F, v, s):
    """The partner's own-card counts and shared-card counts its position may have had, by
    the spec ``F`` and the true hidden cards of ``s``."""
    p = 1 - v.viewer
    pub = F[PF.POS + info.H + info.PSTEP * p:PF.POS + info.H + info.PSTEP * p + info.NLOC]
    hidden = _counts(s.hands[p])
    for c in v.hands[p]:
        hidden[c] -= 1
    base = [int(a) + b for a, b in zip(pub, hidden)]
    owns = [base]
    if F[PF.DRAW1]:
        owns = [[x - (c == d) for c, x in enumerate(base)] for d in range(info.NLOC)
                if hidden[d] > 0]
    shareds = [list(F[PF.SHO + i * info.NLOC:PF.SHO + (i + 1) * info.NLOC])
               for i in range(F[PF.NOPT])]
    return owns, shareds


def test_the_position_rebuilt_is_the_partners_and_plus2_took_its_action_there():
    on = agree = 0
    for v, s, (then, a) in _plus2_games(12, seed0=300):
        S = info.encode(v)
        F = PF.filter_spec(v, S, 0.0)
        if not F[PF.ON]:
            continue
        on += 1
        p = 1 - v.viewer
        assert F[PF.OBS] == a and then.turn == p
        owns, shareds = _then_options(F, v, s)
        assert _counts(then.hands[p]) in owns
        assert _counts(then.shared) in shareds
        T = info.encode(player_view(then))       # the partner's own view then: its rows, Doors
        P = F[PF.POS:PF.POS + info.NS]
        for q in (0, 1):
            for slot in (info.LAST, info.SER):
                assert P[slot + info.PSTEP * q] == T[slot + info.PSTEP * q]
            assert list(P[info.DR + info.PSTEP * q:info.DR + info.PSTEP * q + 4]) == \
                list(T[info.DR + info.PSTEP * q:info.DR + info.PSTEP * q + 4])
        # plus2 at the true position takes the action seen (both seats play plus2)
        W = P.copy()
        W[info.H + info.PSTEP * p:info.H + info.PSTEP * p + info.NLOC] = _counts(then.hands[p])
        W[info.SH:info.SH + info.NLOC] = _counts(then.shared)
        agree += base_at(W, "plus2") == a
    assert on > 150 and agree == on


def test_no_filter_where_the_partner_changed_hands_or_the_viewer_has_acted():
    n = 0
    for _seed, s in mixed_positions(6, seed0=40):
        v = player_view(s)
        F = PF.filter_spec(v, info.encode(v), 0.1)
        hist = v.history()
        if s.phase != "play" or not hist:
            assert not F[PF.ON]
            continue
        later = []
        for x in reversed(hist):
            if x < PROPHECY:
                break
            later.append(x)
        if any(x >= PF.DOOR_KEY and x not in PF._QUIET for x in later):
            assert not F[PF.ON]
            n += 1
    assert n > 0


def _filtered_positions():
    """Views with the filter on and a spec with eps = 0, from plus2's games."""
    for v, s, _then in _plus2_games(6, seed0=900):
        S = info.encode(v)
        F = PF.filter_spec(v, S, 0.0)
        if F[PF.ON]:
            yield v, s, S, F


def _deal(S0, key, F):
    S = S0.copy()
    tries = PF.deal_filtered(S, S0, np.uint64(key), F, np.int64(key))
    return S, tries


def test_eps_one_deals_the_plain_hand_and_a_key_the_same_hand_memo_or_not():
    m = 0
    for _v, _s, S0, F in _filtered_positions():
        F1 = F.copy()
        F1[PF.THRESH] = PF.threshold(1.0)
        for key in range(40):
            plain = S0.copy()
            info.deal_partner(plain, np.uint64(key))
            S1, tries = _deal(S0, key, F1)
            assert tries == 1 and np.array_equal(S1, plain)
            assert np.array_equal(_deal(S0, key, F)[0], _deal(S0, key, F)[0])
        # the memo of each playout's deal (one per key here) gives the same hands again
        M = np.concatenate([F, np.zeros(40, dtype=np.int64)])
        M[PF.THRESH] = PF.threshold(0.05)
        F2 = M[:PF.SIZE].copy()
        first = [_deal(S0, key, M) for key in range(40)]
        assert all(M[PF.SIZE:] > 0)
        for key in range(40):
            again, tries = _deal(S0, key, M)
            assert tries == 0 and np.array_equal(again, first[key][0])
            assert np.array_equal(again, _deal(S0, key, F2)[0])
        m += 1
        if m >= 10:
            break
    assert m == 10


def _plays_if_held(S0, F, c):
    """Whether plus2 at the partner's position then takes another action than the one seen
    whenever Location c was among its own cards then: checked on the plain deals of 400 keys,
    for every card drawn since (c held then at least 5 times) and every shared alternative."""
    p = 1 - int(S0[info.VIEWER])
    own = info.H + info.PSTEP * p
    seen = 0
    for key in range(400):
        S, _ = _deal(S0, key, PF.plain_spec())
        dealt = S[own:own + info.NLOC] - S0[own:own + info.NLOC]
        draws = [d for d in range(info.NLOC) if dealt[d] > 0] if F[PF.DRAW1] else [-1]
        for d in draws:
            W = F[PF.POS:PF.POS + info.NS].copy()
            W[own:own + info.NLOC] += dealt
            if d >= 0:
                W[own + d] -= 1
            if W[own + c] == 0:
                continue
            seen += 1
            for o in range(F[PF.NOPT]):
                W[info.SH:info.SH + info.NLOC] = F[PF.SHO + o * info.NLOC:
                                                   PF.SHO + (o + 1) * info.NLOC]
                if base_at(W, "plus2") == F[PF.OBS]:
                    return False
    return seen >= 5


def test_a_card_plus2_would_have_played_is_dealt_less_often():
    checked = 0
    for _v, _s, S0, F in _filtered_positions():
        p = 1 - int(S0[info.VIEWER])
        own = info.H + info.PSTEP * p
        cands = [c for c in range(info.NLOC) if S0[info.U + c] > 0 and _plays_if_held(S0, F, c)]
        if not cands:
            continue
        c = cands[0]
        plain = filtered = 0
        F2 = F.copy()
        F2[PF.THRESH] = PF.threshold(0.05)
        for key in range(600):
            S, _ = _deal(S0, key, PF.plain_spec())
            plain += S[own + c] > S0[own + c]
            S, _ = _deal(S0, key, F2)
            filtered += S[own + c] > S0[own + c]
        assert filtered < plain, (c, plain, filtered)
        checked += 1
        if checked >= 3:
            break
    assert checked == 3


def test_hidden_order_no_decision_changes():
    pol = make_policy("duo-kcut-sparta", n=8, screen=2, eps=0.05)
    positions = [(seed, s.clone()) for seed, s in mixed_positions(4, seed0=500)]
    n, changed = hidden_order_decisions(pol, positions, random.Random(4), 1000)
    on = sum(int(PF.filter_spec(v, info.encode(v), 0.05)[PF.ON])
             for v in (player_view(s) for _seed, s in positions[::3]))
    assert n > 40 and changed > 20 and on > 10


def test_a_decision_depends_on_the_view_and_stream_only():
    pol = make_policy("duo-kcut-sparta", n=16, screen=4, eps=0.05)
    plain = make_policy("duo-kcut", n=16, screen=4)
    same = make_policy("duo-kcut-sparta", n=16, screen=4, eps=1.0)
    n = differ = 0
    for i, (v, _s, _then) in enumerate(_plus2_games(3, seed0=700)):
        a = pol.act(v, i)
        assert a in v.legal_actions() and pol.act(v, i) == a
        assert same.act(v, i) == plain.act(v, i)          # eps = 1: the plain deal
        differ += a != plain.act(v, i)
        n += 1
    assert n > 20 and differ > 0


def test_bad_arguments_are_refused_and_the_filter_off_keeps_the_config():
    from solver.errors import PolicyError
    for args in ({"filter": 2}, {"eps": 1.5}, {"eps": -0.1}, {"eps": float("nan")},
                 {"filter": 1, "base": "team"}):
        try:
            make_policy("duo-krollout", **args)
        except PolicyError:
            continue
        raise AssertionError(f"{args} accepted")
    assert "filter" not in make_policy("duo-kcut").config
    assert make_policy("duo-kcut-sparta").config["filter"] == 1
