"""greedy-keep-doors and seq-rollout (solver.honest.strong, solver.policies.keep_doors/seq):
the kernel's base policy against its engine reference at every decision, the sequential
rollout against the unscreened rollout, determinism and honesty."""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine.policy import greedy_action, greedy_plus_action
from engine.view import player_view
from solver.api import PolicyError, make_policy
from solver.honest import kernel as HK
from solver.honest import strong as ST
from solver.honest.play import decision_stream
from solver.policies.keep_doors import dead_key, keep_doors_action
from solver.policies.seq import key_of_stream
from honest_kit import decisions, permute_unseen, positions


def test_keep_doors_kernel_equals_its_engine_reference_at_every_decision():
    n = changed = dead = 0
    for _, _, s in positions(120, 500, share=0.7, policy=keep_doors_action):
        v = player_view(s)
        S = HK.encode(v)
        assert ST.base_at(S, "greedy-keep-doors") == keep_doors_action(v)
        assert ST.base_at(S, "greedy-plus") == greedy_plus_action(v)
        assert ST.base_at(S, "greedy") == greedy_action(v)
        for col in range(4):
            assert bool(ST.dead_key(S, np.int64(col))) == dead_key(v, col)
            dead += dead_key(v, col)
        changed += keep_doors_action(v) != greedy_plus_action(v)
        n += 1
    assert n > 3000 and changed > 20 and dead > 100, (n, changed, dead)


def test_keep_doors_discards_a_dead_key_where_greedy_plus_discards_another_card():
    from engine.notation import parse_position
    # both Observatory Doors in play: the Observatory Key opens nothing; greedy-plus discards
    # the unneeded Om, greedy-keep-doors the dead Ok (a prophecy)
    v = parse_position("mode=solo phase=play hand=Ok,Om,Gm,Lm,Am row=Os,Am doors=DO,DO "
                       "deck=* discard=- limbo=-")
    assert v.action_to_string(greedy_plus_action(v)) != "discard Ok"
    assert v.action_to_string(keep_doors_action(v)) == "discard Ok"
    assert make_policy("greedy-keep-doors").act(v, 0) == keep_doors_action(v)


def test_keep_doors_wins_more_than_greedy_plus_on_the_same_games():
    out_p = np.zeros(20000, dtype=np.int64)
    out_k = np.zeros(20000, dtype=np.int64)
    ST.base_games(20000, np.uint64(777), ST.GREEDY_PLUS, out_p)
    ST.base_games(20000, np.uint64(777), ST.KEEP_DOORS, out_k)
    d = out_k - out_p
    se = d.std() / np.sqrt(len(d))
    assert d.mean() > 2 * se, (out_p.mean(), out_k.mean(), se)


def test_base_playouts_match_the_rollout_kernel_for_the_old_bases():
    """playout_b is the loop of solver.honest.playouts.playout: same games for greedy and
    greedy-plus."""
    for base in ("greedy", "greedy-plus"):
        out = np.zeros(3000, dtype=np.int64)
        ST.base_games(3000, np.uint64(99), ST.BASES[base], out)
        ref = HK.policy_games(3000, key=99, n=0, base=base)
        assert (out == ref).all()


def test_without_drops_seq_is_the_unscreened_rollout():
    """zdrop=0: every action gets n playouts; the choice is decide1's without a screen."""
    k = 0
    for seed, i, s in positions(6, 40, share=0.6):
        if i % 2:
            continue
        S = HK.encode(player_view(s))
        key = np.uint64(key_of_stream(decision_stream(seed, i)))
        a = ST.decide_seq(S, 48, 16, 1.0, 0.0, key, ST.GREEDY_PLUS, 0.0, 2.0, 0, 0, 0)
        b = HK.decide1(S, 48, 1.0, key, 0, 6, HK.BASES["greedy-plus"])
        assert a == b
        k += 1
    assert k > 40


def test_drops_mostly_keep_the_full_choice_and_save_playouts():
    same = total = 0
    saved = []
    for seed, i, s in positions(60, 2000, share=0.5):
        if len(s.legal_actions()) < 3 or i % 3:
            continue
        v = player_view(s)
        S = HK.encode(v)
        key = np.uint64(key_of_stream(decision_stream(seed, i)))
        acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        nact = HK.legal(S, acts)
        g = ST.base_at(S, "greedy-keep-doors")
        bi = [int(x) for x in acts[:nact]].index(g)
        res = np.zeros((nact, 256), dtype=np.int8)
        used = np.zeros(1, dtype=np.int64)
        full = ST.seq_core(S, acts, nact, bi, 256, 32, 1.0, 0.0, key, ST.KEEP_DOORS, res, used,
                           0.0, 2.0, 0, 0, 0)
        assert used[0] == 256 * nact
        res2 = np.zeros((nact, 256), dtype=np.int8)
        drop = ST.seq_core(S, acts, nact, bi, 256, 32, 1.0, 2.0, key, ST.KEEP_DOORS, res2,
                           used, 0.0, 2.0, 0, 0, 0)
        saved.append(used[0] / (256 * nact))
        same += full == drop
        total += 1
        if total >= 60:
            break
    assert total >= 40
    assert same >= 0.8 * total, (same, total)
    assert np.mean(saved) < 0.95, np.mean(saved)    # measured 0.90 (more saved at larger n)


def test_seq_rollout_is_deterministic_legal_and_honest():
    p = make_policy("seq-rollout", n=64)
    rnd = random.Random(5)
    n = changed = 0
    for seed, i, s in positions(3, 300):
        st = decision_stream(seed, i)
        v = player_view(s)
        a = p.act(v, st)
        assert a in v.legal_actions()
        assert p.act(player_view(s), st) == a
        t = permute_unseen(s, rnd)
        assert p.act(player_view(t), st) == a
        changed += a != keep_doors_action(v)
        n += 1
    assert n > 50 and changed > 0


def test_a_huge_margin_keeps_the_base_action():
    p = make_policy("seq-rollout", n=32, z=1e9, zdrop=0.0)
    for k, (seed, i, s) in enumerate(positions(2, 60)):
        v = player_view(s)
        assert p.act(v, decision_stream(seed, i)) == keep_doors_action(v)


def test_seq_games_run_in_the_kernel():
    out = np.zeros(4, dtype=np.int64)
    pl = np.zeros(4, dtype=np.int64)
    ST.seq_games(4, np.uint64(3), 16, 8, 1.0, 2.0, ST.KEEP_DOORS, out, pl, 0.0, 2.0, 0, 0, 0)
    assert set(out) <= {0, 1} and (pl > 0).all()


@pytest.mark.parametrize("args,field", [({"base": "nope"}, "base"), ({"n": 0}, "n"),
                                        ({"zdrop": -1.0}, "zdrop"), ({"batch": 0}, "batch"),
                                        ({"stop": -0.1}, "stop"), ({"stop": 2.0}, "stop"),
                                        ({"zstop": -1.0}, "zstop"), ({"screen": -1}, "screen"),
                                        ({"keep": 0}, "keep")])
def test_bad_arguments_are_one_line(args, field):
    with pytest.raises(PolicyError, match=field):
        make_policy("seq-rollout", **args)


def _core(S, n, batch, zdrop, key, stop, zstop=2.0, bi=None, acts=None, screen=0, keep=0,
          z=1.0, horizon=0):
    if acts is None:
        acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        nact = HK.legal(S, acts)
    else:
        nact = len(acts)
    if bi is None:
        bi = [int(x) for x in acts[:nact]].index(ST.base_at(S, "greedy-keep-doors"))
    res = np.zeros((nact, n), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    r = ST.seq_core(S, acts, nact, bi, n, batch, z, zdrop, key, ST.KEEP_DOORS, res, used,
                    stop, zstop, screen, keep, horizon)
    return int(acts[r]), int(used[0])


def _against_full(full, cheap, min_legal, every, limit):
    """(same choice, decisions, mean share of playouts saved, decisions where ``cheap`` made
    more playouts) of the search ``cheap(S, key)`` against ``full(S, key)`` (each returns
    (action, playouts)) at every ``every``-th decision with ``min_legal`` actions or more of
    real games, up to ``limit`` decisions."""
    same = total = more = 0
    saved = []
    for seed, i, s in positions(60, 2500, share=0.5, policy=keep_doors_action):
        if len(s.legal_actions()) < min_legal or i % every:
            continue
        S = HK.encode(player_view(s))
        key = np.uint64(key_of_stream(decision_stream(seed, i)))
        (a0, u0), (a1, u1) = full(S, key), cheap(S, key)
        more += u1 > u0
        saved.append(1 - u1 / u0)
        same += a0 == a1
        total += 1
        if total >= limit:
            break
    return same, total, float(np.mean(saved)), more


def test_the_indifference_stop_keeps_the_choice_mostly_and_never_costs_more():
    """The stop ends the playouts early; against the same search without it (same key, so
    the same playouts up to the stop): never more playouts, the same choice at most decisions,
    and some playouts saved."""
    same, total, saved, more = _against_full(lambda S, key: _core(S, 512, 64, 2.0, key, 0.0),
                                             lambda S, key: _core(S, 512, 64, 2.0, key, 0.01),
                                             3, 3, 60)
    assert total >= 40 and more == 0
    assert same >= 0.8 * total, (same, total)
    assert saved > 0.02, saved


def test_the_indifference_stop_ends_at_the_first_round_between_equal_actions():
    """Two copies of the same action have equal playouts (a paired difference of zero, no
    spread): the stop ends after the first round, without it they run to the cap."""
    for seed, i, s in positions(5, 3000, policy=keep_doors_action):
        if len(s.legal_actions()) >= 2:
            break
    S = HK.encode(player_view(s))
    g = ST.base_at(S, "greedy-keep-doors")
    acts = np.array([g, g], dtype=np.int64)
    key = np.uint64(5)
    assert _core(S, 256, 32, 2.0, key, 0.01, bi=0, acts=acts) == (g, 2 * 32)
    assert _core(S, 256, 32, 2.0, key, 0.0, bi=0, acts=acts) == (g, 2 * 256)
    # an action of the position that differs from the base: a huge zstop never stops
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    nact = HK.legal(S, acts)
    other = [int(a) for a in acts[:nact] if a != g][0]
    two = np.array([g, other], dtype=np.int64)
    assert _core(S, 256, 32, 0.0, key, 0.01, zstop=1e9, bi=0, acts=two)[1] == 2 * 256


def test_the_screen_keeps_the_best_k_and_the_base_action_and_nothing_else():
    """Without the drop and the stop the playouts are counted exactly: every action gets the
    ``screen`` playouts, then ``keep`` of them (``keep`` + 1 if the base action was not among
    the best) the rest; the base action is never screened out (with an infinite margin it is
    played); a decision with ``keep`` + 1 actions or fewer is the search without a screen."""
    wide = narrow = 0
    for seed, i, s in positions(40, 2600, share=0.5, policy=keep_doors_action):
        nact = len(s.legal_actions())
        if nact <= 1:
            continue
        S = HK.encode(player_view(s))
        key = np.uint64(key_of_stream(decision_stream(seed, i)))
        a, used = _core(S, 64, 32, 0.0, key, 0.0, screen=8, keep=3, z=1e9)
        if nact > 4:
            wide += 1
            assert used in (nact * 8 + 3 * 56, nact * 8 + 4 * 56), (nact, used)
            assert a == ST.base_at(S, "greedy-keep-doors")
        else:
            narrow += 1
            assert (_core(S, 64, 32, 0.0, key, 0.0, screen=8, keep=3)
                    == _core(S, 64, 32, 0.0, key, 0.0))
        if wide >= 25 and narrow >= 10:
            break
    assert wide >= 25 and narrow >= 10, (wide, narrow)


def test_the_screen_saves_playouts_and_mostly_keeps_the_choice():
    """screen=16, keep=4 against the same search without it (n=256, the drop on): fewer
    playouts on wide decisions, and the same choice at most of them."""
    same, total, saved, _ = _against_full(
        lambda S, key: _core(S, 256, 32, 2.0, key, 0.0),
        lambda S, key: _core(S, 256, 32, 2.0, key, 0.0, screen=16, keep=4), 6, 2, 50)
    assert total >= 40
    assert same >= 0.75 * total, (same, total)
    assert saved > 0.1, saved


def test_the_screen_leaves_earlier_configs_and_their_hashes_as_they_were():
    """screen and keep came after rows of seq-rollout were stored: at their defaults they are
    not in the config, so its hash (which names a winrate run's results) is the old one."""
    from solver.api import config_hash
    old = {"n": 1024, "batch": 32, "z": 1.0, "zdrop": 2.0, "base": "greedy-keep-doors",
           "stop": 0.0, "zstop": 2.0}
    p = make_policy("seq-rollout")
    assert p.config == old and (p.screen, p.keep) == (0, 4)
    q = make_policy("seq-rollout", screen=16, keep=4)
    assert q.config == {**old, "screen": 16} and config_hash(q) != config_hash(p)


def test_a_screened_seq_rollout_is_honest():
    p = make_policy("seq-rollout", n=64, screen=8, keep=2)
    rnd = random.Random(6)
    n = 0
    for seed, i, s in positions(2, 310):
        st = decision_stream(seed, i)
        a = p.act(player_view(s), st)
        assert p.act(player_view(permute_unseen(s, rnd)), st) == a
        n += 1
    assert n > 30


def test_seq_act_among_all_actions_is_act_and_a_subset_is_respected():
    p = make_policy("seq-rollout", n=64, stop=0.01)
    k = 0
    for seed, i, s in positions(3, 4000, share=0.6, policy=keep_doors_action):
        v = player_view(s)
        acts = v.legal_actions()
        if len(acts) < 3:
            continue
        st = decision_stream(seed, i)
        assert p.act_among(v, st, acts) == p.act(v, st)
        sub = acts[1:]
        a = p.act_among(v, st, sub)
        assert a in sub and a == p.act_among(player_view(s), st, list(reversed(sub)))
        k += 1
    assert k > 20
    with pytest.raises(PolicyError, match="subset"):
        p.act_among(v, 0, [10_000])


def test_endgame_base_carries_its_own_arguments():
    from solver.policies.endgame import parse_base
    assert parse_base("seq-rollout") == ("seq-rollout", {})
    assert parse_base("seq-rollout:n=4096,stop=0.01") == ("seq-rollout",
                                                          {"n": "4096", "stop": "0.01"})
    sw = make_policy("endgame", base="seq-rollout:n=64,stop=0.01", unknown=6,
                     budget_nodes=2000)
    assert (sw.base.n, sw.base.stop, sw.base.name) == (64, 0.01, "seq-rollout")
    for bad in ("seq-rollout:n", "seq-rollout:n=1,n=2", "seq-rollout:nope=1",
                "endgame:base=greedy"):
        with pytest.raises(PolicyError):
            make_policy("endgame", base=bad)


def test_level2_estimates_are_level1_rollout_games_after_each_action():
    """estimate_all_l2's row i, playout j = the level-1 rollout's game after action i from
    stream word(key, j) (playouts.playout_l1), computed here one by one."""
    from solver.honest.state import word
    k = 0
    for seed, i, s in positions(2, 5000, policy=keep_doors_action):
        if len(s.legal_actions()) < 2 or i < 25 or i % 4:
            continue
        S = HK.encode(player_view(s))
        acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        res = np.zeros((HK.MAX_LEGAL, 6), dtype=np.int8)
        key = np.uint64(41 + i)
        m = ST.estimate_all_l2(S, 6, key, acts, res, 4, 1.0, 2, 2, ST.KEEP_DOORS)
        assert m == len(s.legal_actions())
        for a in range(m):
            for j in range(6):
                T = S.copy()
                HK.apply_action(T, acts[a])
                kj = np.uint64(word(key, np.int64(j)))
                assert res[a, j] == HK.playout_l1(T, kj, 4, 1.0, 2, 2, ST.KEEP_DOORS)
        k += 1
    assert k >= 3


def test_late_l2_plays_the_base_early_and_the_level2_leader_late():
    from solver.policies.late_l2 import _key
    p = make_policy("late-l2", base="greedy-keep-doors", unknown=12, n=6, inner=2)
    rnd = random.Random(4)
    late = early = 0
    for seed, i, s in positions(3, 6000, share=0.9, policy=keep_doors_action):
        v = player_view(s)
        if len(v.legal_actions()) < 2 or i % 2:
            continue
        st = decision_stream(seed, i)
        a = p.act(v, st)
        if sum(v.unknown) > 12:
            assert a == keep_doors_action(v)
            early += 1
            continue
        S = HK.encode(v)
        acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
        res = np.zeros((HK.MAX_LEGAL, 6), dtype=np.int8)
        m = ST.estimate_all_l2(S, 6, np.uint64(_key(st)), acts, res, 2, 1.0, 16, 6,
                               ST.KEEP_DOORS)
        assert a == int(acts[int(np.argmax(res[:m].sum(axis=1)))])
        t = permute_unseen(s, rnd)
        assert p.act(player_view(t), st) == a
        late += 1
    assert late >= 5 and early >= 20, (late, early)
    with pytest.raises(PolicyError):
        make_policy("late-l2", base="late-l2")


def test_early_n_caps_the_playouts_by_the_public_deck_size_and_stays_honest():
    """early_n: the policy with n=64, early_n=16 plays as n=16 while the deck holds at least
    early_deck cards and as n=64 below; the config of a policy without it is unchanged; and
    the schedule reads only public information (the unseen cards permuted, the same action)."""
    from solver.api import config_hash
    p = make_policy("seq-rollout", n=64, early_n=16, early_deck=40, stop=0.01)
    small = make_policy("seq-rollout", n=16, stop=0.01)
    large = make_policy("seq-rollout", n=64, stop=0.01)
    assert "early_n" in p.config and "early_n" not in large.config
    assert config_hash(p) != config_hash(large)
    rnd = random.Random(9)
    seen = {True: 0, False: 0}
    differ = 0
    for s, v, st in decisions(3, 320):
        early = v.deck_size() >= 40
        a = p.act(v, st)
        ref = (small if early else large).act(v, st)
        assert a == ref
        differ += small.act(v, st) != large.act(v, st)
        assert p.act(player_view(permute_unseen(s, rnd)), st) == a
        seen[early] += 1
    assert seen[True] > 5 and seen[False] > 5, seen
    assert differ > 0       # the two caps do differ somewhere: the check can fail
