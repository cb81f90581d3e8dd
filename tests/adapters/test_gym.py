"""onirim.gym: OnirimSolo-v0 passes Gymnasium's environment check, is seeded by deal, plays
the greedy policy exactly like ``solver.honest.play.play_honest``, and shows no hidden card order.
"""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from engine import Game, IllegalActionError  # noqa: E402
from engine import game   # noqa: E402
from engine.view import known_top, player_view  # noqa: E402
from solver.api import make_policy  # noqa: E402
from solver.honest.play import play_honest  # noqa: E402
from onirim import gym as og  # noqa: E402
from rulekit import permute_unseen  # noqa: E402


def test_env_check_passes_without_warnings():
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make("OnirimSolo-v0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_greedy_through_the_env_matches_play_honest():
    env = gymnasium.make("OnirimSolo-v0")
    greedy = make_policy("greedy")
    wins = 0
    for seed in range(20):
        won, line = og.greedy_episode(env, seed)
        h = play_honest(greedy, seed)
        assert (won, line) == (h.won, h.actions), seed
        wins += won
    assert 0 < wins < 20          # both outcomes are exercised (seeds 3 and 7 are wins)


def test_reset_seed_is_the_deal_and_episodes_reproduce():
    env = og.OnirimSoloEnv()
    obs1, info1 = env.reset(seed=42)
    assert info1["deal"] == 42
    assert env.state == Game(1).new_initial_state(seed=42)
    rnd = random.Random(0)
    acts = []
    for _ in range(15):
        a = rnd.choice(np.flatnonzero(info1["action_mask"]).tolist())
        acts.append(a)
        obs1, r, done, trunc, info1 = env.step(a)
        if done:
            break
    obs2, info2 = env.reset(seed=42)
    for a in acts:
        obs2, r, done, trunc, info2 = env.step(a)
    assert np.array_equal(obs1["observation"], obs2["observation"])
    assert info1["position"] == info2["position"]
    _, info3 = env.reset(options={"deal": 42})
    assert info3["deal"] == 42


def test_action_layout_and_mask():
    assert og.NUM_ACTIONS == 156 and len(set(og.ENGINE_ACTION)) == 156
    for i, a in enumerate(og.ENGINE_ACTION):
        assert og.compact_action(a) == i
    with pytest.raises(IllegalActionError):
        og.compact_action(game.SWAP)
    env = og.OnirimSoloEnv()
    obs, info = env.reset(seed=5)
    rnd = random.Random(1)
    done = False
    while not done:
        legal = [og.ENGINE_ACTION[i] for i in np.flatnonzero(obs["action_mask"])]
        assert legal == env.state.legal_actions()
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        obs, r, done, _, info = env.step(og.compact_action(rnd.choice(legal)))
    assert r == (1.0 if env.state.won() else 0.0)


def test_win_gives_reward_one_and_ends():
    env = og.OnirimSoloEnv()
    won, line = og.greedy_episode(env, 3)
    assert won and env.state.won() and env.state.is_terminal()
    with pytest.raises(IllegalActionError):
        env.step(0)


def test_illegal_action_changes_nothing():
    env = og.OnirimSoloEnv()
    obs, info = env.reset(seed=1)
    before = env.state.clone()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, r, done, trunc, info2 = env.step(bad)
    assert info2["illegal_action"] and r == 0.0 and not done and not trunc
    assert env.state == before and env.state.history() == before.history()
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = og.OnirimSoloEnv(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(bad)


def test_observation_holds_no_hidden_order():
    """Permuting the deck cards the player does not know leaves the observation (and the
    position in info) unchanged; the known top cards of a prophecy are in it."""
    rnd = random.Random(3)
    env = og.OnirimSoloEnv()
    checked = known = 0
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            real = env.state
            env.state = permute_unseen(real, rnd)
            obs_p, info_p = env._obs_info()
            env.state = real
            assert np.array_equal(obs_p["observation"], obs["observation"])
            assert info_p["position"] == info["position"]
            checked += 1
            k = known_top(real)
            if k:
                known += 1
                lo, _ = og.OBS_FIELDS["known_top"]
                assert obs["observation"][lo + real.deck[0]] == 1
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            obs, r, done, _, info = env.step(rnd.choice(legal))
    assert checked > 100 and known > 0


def test_encoding_counts_every_card_once():
    env = og.OnirimSoloEnv()
    obs, info = env.reset(seed=9)
    rnd = random.Random(2)
    done = False
    while not done:
        x = obs["observation"]
        f = og.OBS_FIELDS
        v = player_view(env.state)
        total = (x[slice(*f["hand"])].sum() + x[slice(*f["row"])].sum()
                 + x[slice(*f["doors"])].sum() + x[slice(*f["discard"])].sum()
                 + x[slice(*f["limbo"])].sum() + x[slice(*f["deck_size"])].sum()
                 + x[slice(*f["drawn"])].sum())
        assert total == 76
        assert x[slice(*f["deck_size"])][0] == v.deck_size()
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        obs, r, done, _, info = env.step(rnd.choice(legal))


def test_ansi_render_is_the_view_and_bad_options_are_refused():
    from engine import GameConfigError
    env = og.OnirimSoloEnv(render_mode="ansi")
    obs, info = env.reset(seed=4)
    assert env.render() == info["position"] and "seed=" not in env.render()
    with pytest.raises(GameConfigError, match="render_mode"):
        og.OnirimSoloEnv(render_mode="human")
    with pytest.raises(GameConfigError, match="illegal"):
        og.OnirimSoloEnv(illegal="ignore")
    with pytest.raises(GameConfigError, match="deal"):
        env.reset(options={"deal": -5})
