"""onirim.openspiel: python_onirim passes OpenSpiel's own checks, plays the engine's game line
for line, and its observation and information-state strings hold only what a player may know.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from engine import Game, format_position  # noqa: E402
from engine import game as game_rules  # noqa: E402
from engine.cards import CODES  # noqa: E402
from engine.view import known_top, player_view  # noqa: E402
from onirim.openspiel import (MAX_GAME_LENGTH, OnirimState,  # noqa: E402
                              observation_string)
from rulekit import permute_unseen  # noqa: E402

CONFIGS = ["python_onirim", "python_onirim(seed=3)", "python_onirim(players=2)",
           "python_onirim(players=2,seed=5)"]


def test_load_and_declared_info():
    game = pyspiel.load_game("python_onirim")
    t = game.get_type()
    assert t.short_name == "python_onirim"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.utility == pyspiel.GameType.Utility.IDENTICAL
    assert (t.min_num_players, t.max_num_players) == (1, 2)
    assert game.num_distinct_actions() == game_rules.NUM_ACTIONS
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_game_length() == MAX_GAME_LENGTH
    assert game.num_players() == 1
    assert game.new_initial_state().is_chance_node()          # chance mode by default
    assert pyspiel.load_game("python_onirim(players=2)").num_players() == 2
    assert not pyspiel.load_game("python_onirim(seed=3)").new_initial_state().is_chance_node()


@pytest.mark.parametrize("bad", ["python_onirim(players=3)", "python_onirim(seed=-2)"])
def test_bad_parameters_are_refused(bad):
    with pytest.raises(Exception, match="players|seed"):
        pyspiel.load_game(bad)


@pytest.mark.parametrize("name", CONFIGS)
def test_random_sim_test_with_serialization(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True,
                            verbose=False)


def _random_line(state, rnd, steps=10_000):
    """Random legal moves (chance outcomes by their probabilities) until the end."""
    line = []
    while not state.is_terminal() and len(line) < steps:
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            a = rnd.choices(acts, probs)[0]
        else:
            a = rnd.choice(state.legal_actions())
        line.append(a)
        state.apply_action(a)
    return line


@pytest.mark.parametrize("name,players,seed", [("python_onirim", 1, None),
                                               ("python_onirim(seed=11)", 1, 11),
                                               ("python_onirim(players=2)", 2, None),
                                               ("python_onirim(players=2,seed=4)", 2, 4)])
def test_same_line_as_the_engine(name, players, seed):
    """A line played through the adapter is the engine's line, state by state."""
    rnd = random.Random(7)
    game = pyspiel.load_game(name)
    for _ in range(3):
        st = game.new_initial_state()
        eng = Game(players).new_initial_state(seed=seed)
        assert str(st) == format_position(eng)
        while not st.is_terminal():
            assert st.legal_actions() == eng.legal_actions()
            if st.is_chance_node():
                assert st.chance_outcomes() == eng.chance_outcomes()
                acts, probs = zip(*st.chance_outcomes())
                a = rnd.choices(acts, probs)[0]
            else:
                a = rnd.choice(st.legal_actions())
                assert st.action_to_string(st.current_player(), a) == eng.action_to_string(a)
            st.apply_action(a)
            eng.apply_action(a)
            assert str(st) == format_position(eng)
            assert st.current_player() == (eng.current_player() if eng.current_player() >= 0
                                           else st.current_player())
        assert eng.is_terminal() and st.returns() == eng.returns()
        assert st.history() == eng.history()
        assert len(st.history()) <= MAX_GAME_LENGTH


def test_serialization_round_trip_mid_game():
    rnd = random.Random(3)
    for name in CONFIGS:
        game = pyspiel.load_game(name)
        st = game.new_initial_state()
        _random_line(st, rnd, steps=60)
        text = pyspiel.serialize_game_and_state(game, st)
        game2, st2 = pyspiel.deserialize_game_and_state(text)
        assert str(st2) == str(st)
        assert st2.history() == st.history()
        c = st.clone()
        assert str(c) == str(st) and c.history() == st.history()


def test_solo_strings_hold_no_hidden_order():
    """Permuting the deck cards the player does not know changes neither string; changing a
    card the player knows (its hand) does."""
    rnd = random.Random(5)
    game = pyspiel.load_game("python_onirim(seed=0)")
    checked = prophecy_seen = 0
    for seed in range(6):
        eng = Game(1).new_initial_state(seed=seed)
        while not eng.is_terminal():
            st = OnirimState(game, eng.clone())
            other = OnirimState(game, permute_unseen(eng, rnd))
            if other.engine.deck != eng.deck:
                assert other.observation_string(0) == st.observation_string(0)
                assert other.information_state_string(0) == st.information_state_string(0)
                assert other.observation_tensor(0) == st.observation_tensor(0)
                checked += 1
            assert st.observation_string(0) == format_position(player_view(eng))
            assert "seed=" not in st.observation_string(0)
            if known_top(eng) >= 2 and len(set(eng.deck[:known_top(eng)])) > 1:
                prophecy_seen += 1
                moved = eng.clone()
                moved.deck[0], moved.deck[1] = moved.deck[1], moved.deck[0]
                if moved.deck[:2] != eng.deck[:2]:   # the known order is part of the view
                    assert (OnirimState(game, moved).observation_string(0)
                            != st.observation_string(0))
                    assert (OnirimState(game, moved).observation_tensor(0)
                            != st.observation_tensor(0))
            eng.apply_action(rnd.choice(eng.legal_actions()))
    assert checked > 100 and prophecy_seen > 0


def _permuted_duo(eng, player, seer, rnd):
    """The partner's hand and the deck cards ``player`` does not know, dealt anew (same sizes,
    same multiset)."""
    s = eng.clone()
    partner = 1 - player
    k = known_top(eng) if player == seer else 0
    pool = list(s.hands[partner]) + s.deck[k:]
    rnd.shuffle(pool)
    n = len(s.hands[partner])
    s.hands[partner] = sorted(pool[:n])
    s.deck[k:] = pool[n:]
    return s


def test_duo_strings_hide_the_partner_hand_and_the_deck():
    rnd = random.Random(9)
    game = pyspiel.load_game("python_onirim(players=2,seed=0)")
    checked = 0
    for seed in range(3):
        eng = Game(2).new_initial_state(seed=seed)
        st = OnirimState(game, eng)
        while not st.is_terminal():
            seer = st.engine.turn if st.engine.phase in ("prophecy", "foresee") else st.seer
            for player in (0, 1):
                other = OnirimState(game, _permuted_duo(st.engine, player, seer, rnd))
                other.seer = st.seer
                assert other.observation_string(player) == st.observation_string(player)
                assert (other.information_state_string(player)
                        == st.information_state_string(player))
                assert other.observation_tensor(player) == st.observation_tensor(player)
                checked += 1
            for player in (0, 1):     # own hand shown, the partner's as its size only
                fields = dict(f.split("=", 1) for f in st.observation_string(player).split())
                own = ",".join(CODES[c] for c in st.engine.hands[player]) or "-"
                assert fields[f"hand{player}"] == own
                assert fields[f"hand{1 - player}"] == (
                    ",".join(["?"] * len(st.engine.hands[1 - player])) or "-")
            st.apply_action(rnd.choice(st.legal_actions()))
    assert checked > 100


def test_observation_tensor_is_the_encoding_of_the_view():
    from onirim.encoding import DUO_FIELDS, DUO_SIZE, SOLO_SIZE, solo_vector
    game = pyspiel.load_game("python_onirim(seed=2)")
    st = game.new_initial_state()
    assert game.observation_tensor_shape() == [SOLO_SIZE]
    assert st.observation_tensor(0) == solo_vector(player_view(st.engine)).tolist()
    duo = pyspiel.load_game("python_onirim(players=2,seed=2)")
    assert duo.observation_tensor_shape() == [DUO_SIZE]
    st2 = duo.new_initial_state()
    rnd = random.Random(4)
    while not st2.is_terminal():
        for p in (0, 1):          # every card counted once: all zones + partner hand size
            t = np.array(st2.observation_tensor(p))
            parts = ("hand", "shared", "partner_hand_size", "row", "partner_row", "doors",
                     "partner_doors", "discard", "limbo", "deck_size", "drawn")
            assert sum(t[slice(*DUO_FIELDS[f])].sum() for f in parts) == 76
        st2.apply_action(rnd.choice(st2.legal_actions()))


def test_observation_string_helper_matches_the_state():
    eng = Game(1).new_initial_state(seed=2)
    st = OnirimState(pyspiel.load_game("python_onirim(seed=2)"), eng.clone())
    assert observation_string(eng, 0) == st.observation_string(0)


def test_mcts_bot_decides_from_the_view_reproducibly():
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("python_onirim")
    real = Game(1).new_initial_state(seed=1)

    def decide():
        rs = np.random.RandomState(12345)
        bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
        return bot.step(OnirimState(game, player_view(real)))

    a = decide()
    assert a in real.legal_actions()
    assert decide() == a


def test_mcts_bench_is_reproducible_and_resumes(tmp_path, monkeypatch):
    """benchmarks/bench_openspiel_mcts.py: one JSON line per deal; a rerun skips the deals
    already stored; a deal replayed gives the same game (decision streams seed the bot)."""
    from benchmarks import bench_openspiel_mcts as B
    monkeypatch.setattr(B, "OUT_DIR", str(tmp_path))
    B.run_row("greedy", 2, range(0, 1), None)
    lines = (tmp_path / "mcts-greedy-2.jsonl").read_text().splitlines()
    assert len(lines) == 1
    with open(tmp_path / "mcts-greedy-2.jsonl", "a") as f:
        f.write('{"seed": 9, "cut')                      # a line cut by a kill
    B.run_row("greedy", 2, range(0, 2), None)             # resumes: only deal 1 is played
    recs = B.load_done("mcts-greedy-2")
    assert sorted(recs) == [0, 1]
    again = B.play_mcts(1, "greedy", 2)
    for k in ("won", "doors", "decisions", "searched"):
        assert again[k] == recs[1][k]
    rows = B.summary()
    assert rows[0]["deals"] == 2 and rows[0]["seeds"] == "0-1"


def test_mcts_bot_takes_a_winning_move():
    """The search machinery works on python_onirim: with the last Door one play away (the
    third Library of a series takes DL from the deck), MCTS-Solver finds the win."""
    from open_spiel.python.algorithms import mcts

    from engine import parse_position
    pos = parse_position("mode=solo phase=play hand=Lk,Os,Os,As,Gs row=Ls,Lm "
                         "doors=DO,DO,DA,DA,DG,DG,DL deck=* discard=- limbo=-")
    game = pyspiel.load_game("python_onirim")
    win = pos.string_to_action("play Lk")
    for seed in range(3):
        rs = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
        assert bot.step(OnirimState(game, pos.clone())) == win
