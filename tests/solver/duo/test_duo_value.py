"""The two-player playouts' value function (solver/duo/value.py) and duo-krollout's horizon:

* the kernel's features equal a readable reading of the open view (both hands known: the
  state of a playout) at every decision of many games, dead colours included;
* the value is exactly 0 where a colour can no longer gain its Doors, and in range elsewhere;
* ``_eval`` with horizon 0 gives the rows of the playouts played to the end (the old rows);
  a playout cut at its horizon is the whole game stepped decision by decision up to the first
  decision after ``horizon`` draws, and its row is the value there (fails if the cut is
  ignored);
* duo-krollout with a horizon: deterministic, the open game's hidden-order test (the value
  reads only the playout's dealt state), some decisions differ from horizon 0, horizon 0
  leaves the config (and the stored rows' hash) as it was, and bad arguments are refused.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine import game
from engine.rules import FIRST_DOOR, NUM_LOCATION_TYPES, SYMBOLS
from engine.view import player_view

from duo_kit import hidden_order_decisions, mixed_positions, redeal_unseen
from solver.api import config_hash, make_policy
from solver.duo import info_greedy as IG
from solver.duo import info_playouts as IP
from solver.duo import info_state as info
from solver.duo import partner_filter
from solver.duo import value as DV
from solver.errors import PolicyError

NIGHT = 16


def _is_key(c):
    return c < NUM_LOCATION_TYPES and c % SYMBOLS == SYMBOLS - 1


def _series(row, needs):
    if not row:
        return 0
    length = game.series_length(row)
    return length if length < 3 and needs[row[-1] // SYMBOLS] else 0


def readable_features(v):
    """``solver.duo.value.FEATURES`` from an open two-player view, and whether every colour
    can still gain its Doors."""
    deck = list(v.deck)
    unknown = list(v.unknown)
    size = len(deck) + sum(unknown)
    nm = unknown[NIGHT] + deck.count(NIGHT)
    keys_deck = sum(unknown[c * SYMBOLS + SYMBOLS - 1] for c in range(4))
    keys_deck += sum(1 for c in deck if _is_key(c))
    p, q = v.turn, 1 - v.turn
    doors = [[v.doors[s].count(FIRST_DOOR + c) for c in range(4)] for s in range(2)]
    need = 8 - sum(map(sum, doors))
    needs = [[doors[s][c] == 0 for c in range(4)] for s in range(2)]
    alive = all(unknown[FIRST_DOOR + c] + list(v.limbo).count(FIRST_DOOR + c)
                + deck.count(FIRST_DOOR + c) + (v.drawn == FIRST_DOOR + c)
                >= 2 - doors[0][c] - doors[1][c] for c in range(4))

    def hand(s, keys):
        return sum(1 for c in v.hands[s] if c < NUM_LOCATION_TYPES and needs[s][c // SYMBOLS]
                   and (not keys or _is_key(c)))
    d10 = size / 10.0
    f = [1.0, need, d10, nm, need * need / 8.0, need * d10, d10 * d10, nm * need / 8.0,
         keys_deck, len(v.limbo), sum(needs[p]), hand(p, False), hand(q, False),
         hand(p, True), hand(q, True), _series(v.rows[p], needs[p]),
         _series(v.rows[q], needs[q]),
         sum(1 for c in v.shared if needs[p][c // SYMBOLS] or needs[q][c // SYMBOLS]),
         sum(1 for c in range(4) if needs[0][c] and needs[1][c]),
         v.phase == "door", v.phase == "nightmare"]
    return f, alive


def _open_views(games, seed0):
    for seed, s in mixed_positions(games, seed0, rnd_seed=8):
        yield seed, s, player_view(s, talk="open")


def test_features_equal_the_readable_reading_of_the_open_view():
    f = np.zeros(DV.NFV)
    W = np.array([0.05 * ((i % 7) - 3) for i in range(DV.NFV)])
    n = dead = drawn = 0
    for seed, s, v in _open_views(14, 900):
        S = info.encode(v)
        assert int(S[info.HID]) == 0
        alive = DV.features(S, f)
        ref, ref_alive = readable_features(v)
        assert alive == ref_alive, (seed, s.phase)
        assert list(f) == pytest.approx([float(x) for x in ref]), (seed, list(f), ref)
        x = sum(w * r for w, r in zip(W, ref))
        want = int(1.0 / (1.0 + math.exp(-x)) * DV.VMAX + 0.5) if ref_alive and x >= -30 else 0
        assert DV.value_w(S, W, f) == want
        n += 1
        dead += not alive
        drawn += v.phase in ("door", "nightmare")
    assert n > 400 and dead > 0 and drawn > 5, (n, dead, drawn)


def _a_play_state(seed=910):
    for _seed, s, v in _open_views(1, seed):
        if s.phase == "play" and s.deck_size() > 30:
            return s, v
    raise AssertionError("no play decision")


def test_the_value_is_zero_where_a_colour_is_dead_and_in_range_elsewhere():
    assert {"team", "plus2"} <= set(DV.FITTED)
    f = np.zeros(DV.NFV)
    s, v = _a_play_state()
    S = info.encode(v)
    for base in DV.FITTED:
        b = IG.BASES[base]
        val = DV.value_at(S, b, f)
        assert 0 < val < DV.VMAX
        # one Door more in play (the rest equal): worth more
        S2 = S.copy()
        col = next(c for c in range(4) if S[info.DR + c] == 0 and S[info.U + FIRST_DOOR + c])
        S2[info.DR + col] += 1
        S2[info.NDOORS] += 1
        S2[info.U + FIRST_DOOR + col] -= 1
        S2[info.UTOT] -= 1
        assert DV.value_at(S2, b, f) > val
        # both Doors of a colour nobody holds gone to the discard pile: a dead colour, 0
        S3 = S.copy()
        col = next(c for c in range(4) if S[info.DR + c] == 0 and S[info.DR + info.PSTEP + c] == 0
                   and S[info.U + FIRST_DOOR + c] == 2)
        S3[info.U + FIRST_DOOR + col] = 0
        S3[info.D + FIRST_DOOR + col] = 2
        S3[info.UTOT] -= 2
        assert not DV.features(S3, f)
        assert DV.value_at(S3, b, f) == 0
        # one of them drawn and waiting (phase door) keeps it alive
        S3[info.DRAWN] = FIRST_DOOR + col
        S3[info.D + FIRST_DOOR + col] = 1
        S3[info.PH] = info.P_DOOR
        assert DV.features(S3, f) is False     # 1 to come, 2 missing: still dead
        S3[info.U + FIRST_DOOR + col] = 1
        assert DV.features(S3, f) is True


def _eval_rows(S0, a, n, key, base, horizon):
    row = np.zeros(n, dtype=np.int8)
    IP._eval(S0, np.int64(a), 0, n, np.uint64(key), np.empty(info.NS, dtype=np.int64), row,
             np.int64(base), np.int64(IP.DOORS), np.int64(horizon), np.zeros(DV.NFV),
             partner_filter.plain_spec())
    return row


def _word(key, j):
    """Word j of stream ``key``, as the kernel's uint64 (numba returns a Python int)."""
    return np.uint64(info.word(np.uint64(key), np.int64(j)))


def _silent_decisions(games, seed0):
    for seed, s in mixed_positions(games, seed0, rnd_seed=9):
        if len(s.legal_actions()) > 2:
            yield seed, s


def test_horizon_zero_rows_are_the_whole_playouts():
    k = 0
    for seed, s in _silent_decisions(2, 920):
        k += 1
        if k % 5:
            continue
        S0 = info.encode(player_view(s))
        a = s.legal_actions()[1]
        base = IG.BASES["plus2"]
        got = _eval_rows(S0, a, 24, seed * 77 + k, base, 0)
        key = np.uint64(seed * 77 + k)
        for j in range(24):
            S = S0.copy()
            info.deal_partner(S, _word(key ^ IP.SALT_DEAL, j))
            info.apply_action(S, np.int64(a))
            r = IP.playout(S, _word(key, j), np.int64(base))
            assert got[j] == max(r, 0)
    assert k > 20


def _stepped_cut(S, key, base, horizon):
    """The whole game from ``S`` stepped decision by decision (to_decision + the base): the
    state at the first decision after ``horizon`` draws, or the end's Doors."""
    ctr = np.int64(0)
    while True:
        r, ctr = IP.to_decision(S, key, ctr)
        if r >= 0:
            return int(r)
        if ctr >= horizon:
            return IP.CUT
        info.apply_action(S, np.int64(IG.base_action_call(S, np.int64(base))))


def test_a_cut_playout_is_the_whole_game_up_to_its_horizon_and_is_valued_there():
    f = np.zeros(DV.NFV)
    cut = fin = 0
    k = 0
    for seed, s in _silent_decisions(2, 930):
        k += 1
        if k % 4:
            continue
        S0 = info.encode(player_view(s, talk="open"))
        a = s.legal_actions()[0]
        base = IG.BASES["team"]
        key = np.uint64(seed * 31 + k)
        for horizon in (3, 10):
            rows = _eval_rows(S0, a, 8, int(key), base, horizon)
            for j in range(8):
                Sp = S0.copy()
                info.deal_partner(Sp, _word(key ^ IP.SALT_DEAL, j))  # HID 0
                info.apply_action(Sp, np.int64(a))
                Sw = Sp.copy()
                r = IP.playout_h(Sp, _word(key, j), np.int64(base),
                                 np.int64(horizon))
                want = _stepped_cut(Sw, _word(key, j), base, horizon)
                assert r == want
                if r == IP.CUT:
                    assert list(Sp) == list(Sw)
                    assert rows[j] == DV.value_at(Sp, base, f)
                    cut += 1
                else:
                    assert rows[j] == DV.DSCALE * r
                    fin += 1
    # the cut happens (a kernel that ignored the horizon would finish every playout), and
    # its values are not all whole Doors
    assert cut > 50 and fin > 0


def _open_rollout(horizon, **kw):
    return make_policy("duo-krollout", n=16, screen=4, base="team", horizon=horizon, **kw)


def _open_decisions(games, seed0, rnd_seed, every):
    """(i, state, open view) at every ``every``-th position (by index ``i``) of
    ``mixed_positions`` that has more than one legal action."""
    for i, (_seed, s) in enumerate(mixed_positions(games, seed0, rnd_seed=rnd_seed)):
        if len(s.legal_actions()) > 1 and i % every == 0:
            yield i, s, player_view(s, talk="open")


def test_krollout_with_a_horizon_is_deterministic_honest_and_changes_decisions():
    pol = _open_rollout(6)
    flat = _open_rollout(0)
    rnd = random.Random(11)
    n = changed = differ = 0
    for i, s, v in _open_decisions(4, 940, 10, 3):
        a = pol.act(v, 3000 + i)
        assert a in s.legal_actions() and pol.act(v, 3000 + i) == a
        r = redeal_unseen(s, rnd, "open")
        changed += r.deck != s.deck
        assert pol.act(player_view(r, talk="open"), 3000 + i) == a
        differ += a != flat.act(v, 3000 + i)
        n += 1
    assert n > 40 and changed > 30 and differ > 0


def test_horizon_zero_keeps_the_config_and_bad_arguments_are_refused():
    old = make_policy("duo-krollout", base="team")
    assert "horizon" not in old.config
    assert config_hash(make_policy("duo-krollout", base="team", horizon=0)) == config_hash(old)
    cut = make_policy("duo-krollout", base="team", horizon=12)
    assert cut.config["horizon"] == 12 and config_hash(cut) != config_hash(old)
    assert make_policy("duo-krollout2", horizon=8).horizon == 8
    with pytest.raises(PolicyError, match="reward=doors"):
        make_policy("duo-krollout", base="team", horizon=8, reward="win")
    unfitted = [b for b in IG.BASES if b not in DV.FITTED]
    for b in unfitted:
        with pytest.raises(PolicyError, match="no value function"):
            make_policy("duo-krollout", base=b, horizon=8)
    with pytest.raises(PolicyError):
        make_policy("duo-krollout", base="team", horizon=-1)
    sw = make_policy("duo-open-switch", base="duo-krollout:base=team,horizon=12")
    assert sw.base.horizon == 12


def test_win_from_plays_the_late_game_by_win_and_the_rest_as_before():
    """``win_from=D``: at a decision with at most D deck cards the search is the same policy's
    with ``reward=win`` and no horizon (the same action and the same estimates), above D the
    policy's own; at 0 it stays out of the configuration; a negative D is refused."""
    late = _open_rollout(6, win_from=20)
    own = _open_rollout(6)
    win = make_policy("duo-krollout", n=16, screen=4, base="team", reward="win")
    assert "win_from" not in own.config and config_hash(own) == config_hash(
        _open_rollout(6, win_from=0))
    assert late.config["win_from"] == 20 and config_hash(late) != config_hash(own)
    below = above = differ = 0
    for i, s, v in _open_decisions(6, 990, 13, 2):
        found = late.search(v, 6000 + i)
        twin = (win if s.deck_size() <= 20 else own).search(v, 6000 + i)
        assert found.action == twin.action == late.act(v, 6000 + i)
        assert found.rows == twin.rows
        if s.deck_size() <= 20:
            below += 1
            differ += found.action != own.act(v, 6000 + i)
        else:
            above += 1
    assert below > 20 and above > 20 and differ > 0
    with pytest.raises(PolicyError):
        _open_rollout(6, win_from=-1)
    sw = make_policy("duo-silent-switch", base="duo-kcut:win_from=16")
    assert sw.base.win_from == 16


def _prophecies(games, seed0, rnd_seed):
    """(seed, state) at the prophecy decisions with more than one legal action of
    ``mixed_positions``."""
    return [(seed, s.clone())
            for seed, s in mixed_positions(games, seed0, explore=0.5, rnd_seed=rnd_seed)
            if s.phase == "prophecy" and len(s.legal_actions()) > 1]


def test_orders_all_tries_every_prophecy_outcome_and_the_rest_as_before():
    """``orders=all``: at a prophecy every legal action (one per distinct outcome) is a
    candidate with playouts, where ``orders=base`` tries one order per discarded card; every
    other decision is the same search (the same action and the same estimates); at base it
    stays out of the configuration; an unknown value is refused.  ``pro_n=N`` gives a
    prophecy's candidates N playouts (the screen N/8) and changes nothing elsewhere.  In the
    silent game it passes the hidden-order test at prophecies."""
    every = _open_rollout(6, orders="all")
    own = _open_rollout(6)
    assert "orders" not in own.config and config_hash(own) == config_hash(
        _open_rollout(6, orders="base"))
    assert every.config["orders"] == "all" and config_hash(every) != config_hash(own)
    props = _prophecies(30, 1200, 21)
    wider = 0
    for i, (_seed, s) in enumerate(props[:12]):
        v = player_view(s, talk="open")
        found, base = every.search(v, 7000 + i), own.search(v, 7000 + i)
        assert found.action == every.act(v, 7000 + i) and found.action in s.legal_actions()
        assert set(found.rows) == set(s.legal_actions()) >= set(base.rows)
        wider += len(found.rows) > len(base.rows)
    assert len(props) >= 12 and wider > 6
    others = [(i, v, every.search(v, 7100 + i))        # every non-prophecy decision
              for i, s, v in _open_decisions(3, 1300, 22, 3) if s.phase != "prophecy"]
    for i, v, found in others:
        twin = own.search(v, 7100 + i)
        assert found.action == twin.action and found.rows == twin.rows
    assert len(others) > 20
    more = _open_rollout(6, orders="all", pro_n=64)          # more playouts at a prophecy
    assert "pro_n" not in every.config and config_hash(more) != config_hash(every)
    for i, (_seed, s) in enumerate(props[:4]):
        v = player_view(s, talk="open")
        found = more.search(v, 7000 + i, estimates=False)
        assert max(found.cut_counts.values()) == 64 and min(found.cut_counts.values()) >= 8
    for i, v, found in others[:10]:
        assert more.search(v, 7100 + i).rows == found.rows
    with pytest.raises(PolicyError):
        _open_rollout(6, orders="some")
    with pytest.raises(PolicyError):
        _open_rollout(6, pro_n=-1)
    for name in ("duo-krollout2", "duo-kcut"):                # the same arguments there
        pol = make_policy(name, orders="all", pro_n=64)
        assert (pol.orders, pol.pro_n) == ("all", 64) and "pro_n" not in make_policy(name).config
    sw = make_policy("duo-open-switch", base="duo-krollout:base=team,horizon=12,orders=all")
    assert sw.base.orders == "all"
    silent = make_policy("duo-krollout2", n=16, screen=4, horizon=6, orders="all")
    n, changed = hidden_order_decisions(silent, props, random.Random(23), 7200, every=1)
    assert n >= 12 and changed > 6


def test_the_silent_rollout_with_a_horizon_passes_the_hidden_order_test():
    """duo-krollout2 (plus2) with a horizon on silent views: the partner's unseen cards and
    the deck dealt again change no decision (the value reads only the playout's dealt state),
    while the redeal does change the partner's hand."""
    pol = make_policy("duo-krollout2", n=16, screen=4, horizon=6)
    n, changed = hidden_order_decisions(pol, mixed_positions(4, 960, rnd_seed=11),
                                        random.Random(12), 4000)
    assert n > 40 and changed > 20


def test_a_cut_rollouts_estimates_are_its_uncut_twins_and_its_decision_is_the_cut_one():
    """With a horizon the search decides on cut playouts, but a cut playout has no result, so
    ``onirim best``'s estimates come from playouts to the end on the same streams: exactly the
    estimates of the same policy without a horizon and without the screen (every candidate's
    n playouts), while the decision is ``act``'s."""
    cut = make_policy("duo-krollout2", n=16, screen=4, horizon=6)
    flat = make_policy("duo-krollout2", n=16, screen=0)
    n = 0
    for i, (_seed, s) in enumerate(mixed_positions(4, 980, rnd_seed=12)):
        if len(s.legal_actions()) == 1 or i % 4:
            continue
        v = player_view(s)
        found, twin = cut.search(v, 5000 + i), flat.search(v, 5000 + i)
        assert found.action == cut.act(v, 5000 + i)
        assert found.rows == twin.rows
        if twin.rows:
            assert found.playouts > twin.playouts
            n += 1
    assert n > 10


def test_duo_kcut_is_the_registered_cut_rollout():
    """duo-kcut, the base of the silent game's default (duo-kcut-switch), is duo-krollout2
    with the arguments of the experiment whose rows back it (duo-k2-h24-384): the two
    configurations agree."""
    from benchmarks.experiments import EXPERIMENTS
    e = EXPERIMENTS["duo-k2-h24-384"]
    assert e.params["policy"] == "duo-krollout2"
    args = e.params["config"]
    assert set(args) == {"n", "screen", "horizon"}
    ref = make_policy("duo-krollout2", **args)
    default = make_policy("duo-kcut")
    keys = ("n", "z", "screen", "keep", "base", "reward", "swaps", "horizon")
    assert {k: getattr(default, k) for k in keys} == {k: getattr(ref, k) for k in keys}


def test_the_papers_name_the_experiments_of_both_defaults():
    """The README's headline labels the rows of papers.rowdata's DUO_DEFAULT and OPEN_DEFAULT
    as the defaults: they must be the configurations the defaults play."""
    from benchmarks.experiments import EXPERIMENTS
    from papers.rowdata import DUO_DEFAULT, OPEN_DEFAULT
    from solver.duo.rollout import DEFAULT_DUO_POLICY, DEFAULT_OPEN_POLICY, OPEN_BASE
    e = EXPERIMENTS[DUO_DEFAULT]
    assert e.params.get("talk", "none") == "none"
    played = make_policy(e.params["policy"], **e.params["config"])
    assert make_policy(DEFAULT_DUO_POLICY).config == played.config
    e = EXPERIMENTS[OPEN_DEFAULT]
    assert e.params["talk"] == "open" and e.params["policy"] == DEFAULT_OPEN_POLICY
    default = make_policy(DEFAULT_OPEN_POLICY)
    ref = make_policy(DEFAULT_OPEN_POLICY, **e.params["config"])
    assert default.config == ref.config and e.params["config"]["base"] == OPEN_BASE
