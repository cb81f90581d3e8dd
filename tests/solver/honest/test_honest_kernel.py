"""The information-state kernel (solver.honest.kernel) against the engine, state by state.

* chance-mode games driven in both with the same chance outcomes and the same decisions
  (random legal ones and greedy ones): the full state after every step, the legal action set
  and the greedy action at every decision;
* the kernel's own playouts (its draws, its greedy, its game loop) replayed in the engine;
* encode() of the player's view at real deal-mode positions (known prophecy tops included);
* the draws follow the unknown counts.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Game
from engine import game
from engine.policy import greedy_action
from engine.view import player_view
from solver.honest import kernel as HK
import honest_kit
from engine.policy import greedy_plus_action


def test_differential_20000_steps():
    n = honest_kit.differential_run(20_000, seed=1)
    assert n["steps"] >= 20_000
    by = n["decisions_by_phase"]
    # every decision phase was exercised, with random and greedy choices
    assert by.get("prophecy", 0) > 50 and by.get("door", 0) > 50 and by.get("nightmare", 0) > 500
    assert n["chance"] > 10_000


def test_the_comparison_can_fail():
    st = Game(1).new_initial_state()
    S = HK.encode(st)
    assert HK.diff(S, st) == {}
    S[HK.H + 3] += 1
    assert "hand" in HK.diff(S, st)
    S = HK.encode(st)
    S[HK.ARR] = 16 if S[HK.ARR] != 16 else 0        # the card list no longer matches counts
    assert "unknown_list" in HK.diff(S, st)


def _replay(S0, state, key, base="greedy"):
    """Replay the kernel's playout from ``S0`` (= encode(state)) in the engine."""
    ref = greedy_action if base == "greedy" else greedy_plus_action
    r, steps, S_end = honest_kit.traced_playout(S0, key, base=base)
    st = state.clone()
    for a in steps:
        if st.is_chance_node():
            assert game.DRAW <= a < game.DRAW + 17 and st.unknown[a - game.DRAW] > 0
        else:
            assert a == ref(st), (st, a)
        st.apply_action(a)
    assert st.is_terminal() and int(st.won()) == r
    assert HK.diff(S_end, st) == {}
    return r, len(steps)


@pytest.mark.parametrize("base", ["greedy", "greedy-plus"])
def test_kernel_playouts_replay_in_the_engine(base):
    wins = 0
    steps = 0
    for g in range(150):
        st = Game(1).new_initial_state()       # chance mode, before the setup draws
        r, n = _replay(HK.encode(st), st, 1000 + g, base)
        wins += r
        steps += n
    assert steps > 10_000


def _deal_positions(n_games, seed0, rnd):
    for seed in range(seed0, seed0 + n_games):
        s = Game(1).new_initial_state(seed=seed)
        while not s.is_terminal():
            yield s
            acts = s.legal_actions()
            s.apply_action(greedy_action(s) if rnd.random() < 0.7 else rnd.choice(acts))


def test_encode_of_views_and_playouts_from_them():
    rnd = random.Random(4)
    n = 0
    tops = 0
    for i, s in enumerate(_deal_positions(40, 500, rnd)):
        v = player_view(s)
        S = HK.encode(v)
        assert HK.diff(S, v) == {}
        assert HK.legal_list(S) == v.legal_actions()
        assert HK.greedy_at(S) == greedy_action(v)
        assert HK.base_at(S, "greedy-plus") == greedy_plus_action(v)
        tops += len(v.deck) > 0
        if i % 25 == 0:
            _replay(S, v, i)
        n += 1
    assert n > 1000 and tops > 20


def test_draws_follow_the_unknown_counts():
    S0 = np.zeros(HK.NS, dtype=np.int64)
    HK.new_game(S0)
    m = 76_000
    seen = np.zeros(17, dtype=np.int64)
    for i in range(m):
        r, steps, _ = honest_kit.traced_playout(S0, i, max_steps=1)
        seen[steps[0] - game.DRAW] += 1
    expect = np.array(HK.COUNTS) * (m / 76)
    sd = np.sqrt(expect * (1 - np.array(HK.COUNTS) / 76))
    assert np.all(np.abs(seen - expect) < 5 * sd), (seen, expect)


@pytest.mark.parametrize("base,lo,hi", [("greedy", 0.095, 0.125), ("greedy-plus", 0.33, 0.38)])
def test_base_batch_win_rates(base, lo, hi):
    r = HK.playout_batch(20_000, key=3, base=base)
    assert r["failed"] == 0 and r["games"] == 20_000
    # greedy wins 11.0% of real deals (engine.policy), greedy-plus 35.7% (docs/HONEST.md);
    # 20,000 games: sd 0.22 and 0.34 points
    assert lo < r["wins"] / r["games"] < hi


def test_same_games_as_the_recorded_kernel():
    """The kernel plays exactly the games it played before the throughput work: the
    fingerprint (tests/fixtures/make_honest_kernel_fingerprint.py, run on main at 000c4b9)
    holds per-seed results, decision counts and hashes of the full step sequences of greedy and
    greedy-plus playouts, plus estimate_all, decide1, decide2 and policy_games outputs."""
    import json
    import os

    from tests.fixtures.make_honest_kernel_fingerprint import OUT, fingerprint

    with open(OUT) as f:
        want = json.load(f)
    got = json.loads(json.dumps(fingerprint()))
    for part in want:
        if isinstance(want[part], dict):
            for base in want[part]:
                w, g = want[part][base], got[part][base]
                if isinstance(w, list):
                    bad = [i for i in range(len(w)) if w[i] != g[i]]
                    assert not bad, f"{part}/{base}: first difference at entry {bad[0]}: " \
                                    f"{g[bad[0]]} != {w[bad[0]]} (recorded)"
                assert g == w, f"{part}/{base}"
        else:
            assert got[part] == want[part], part
    assert os.path.exists(OUT)


def test_the_fingerprint_can_fail():
    """A changed stream (one key off) changes the fingerprint's hashes."""
    from tests.fixtures.make_honest_kernel_fingerprint import _trace_row

    S0 = np.zeros(HK.NS, dtype=np.int64)
    HK.new_game(S0)
    rows = [_trace_row(S0, 5000 + g, "greedy") for g in range(5)]
    shifted = [_trace_row(S0, 5001 + g, "greedy") for g in range(5)]
    assert rows != shifted


def test_table_greedy_play_equals_the_readable_one():
    """The table-driven greedy play decision (_greedy_play) against the readable rule-by-rule
    one it replaced (_greedy_play_ref) on random play-phase states: any hand of up to 5
    Location cards (of the real multiplicities), any last card and series length, 0-2 Doors per
    colour."""
    rnd = random.Random(18)
    pool = [c for c in range(12) for _ in range(HK.COUNTS[c])]
    seen = {"play": 0, "discard": 0}
    for _ in range(20_000):
        S = HK.INITIAL.copy()
        S[HK.PH] = HK.P_PLAY
        for c in rnd.sample(pool, rnd.choice((1, 2, 3, 4, 5, 5, 5))):
            S[HK.H + c] += 1
            S[HK.HSIZE] += 1
        if rnd.random() < 0.9:
            S[HK.LAST] = rnd.randrange(12)
            S[HK.SER] = rnd.randint(0, 2)      # open series; 0: none (a series completed)
        for col in range(4):
            S[HK.DR + col] = rnd.choice((0, 0, 1, 2))
        a, b = HK._greedy_play(S), HK._greedy_play_ref(S)
        assert a == b, (HK.decode(S), a, b)
        seen["play" if a < HK.A_DISCARD else "discard"] += 1
    assert seen["play"] > 2000 and seen["discard"] > 2000
