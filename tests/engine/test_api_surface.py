"""The OpenSpiel-style surface of ``engine`` that researchers call directly: Game settings,
``current_player``, ``num_distinct_actions``, terminal states, ``observation_string`` and the
JSON helpers.  A coverage run of the suite (``make coverage``, README "Tests") showed that
these were never called by a test."""
from __future__ import annotations

import json
import random

import pytest

from engine import (CHANCE, TERMINAL, Game, GameConfigError, IllegalActionError,
                    PositionError, format_position, parse_position)
from engine.notation import to_json_string
from rulekit import position, random_playout


@pytest.mark.parametrize("players", [0, 3, -1, "1", 1.0, None, True])
def test_game_refuses_other_player_counts(players):
    with pytest.raises(GameConfigError):
        Game(players)


def test_game_takes_any_integer_type():
    import numpy as np
    assert Game(np.int64(2)).players == 2 and type(Game(np.int64(2)).players) is int


def _playout(players, seed):
    """Every state of a random chance-mode game, the final one last."""
    return random_playout(Game(players).new_initial_state(), random.Random(seed))


@pytest.mark.parametrize("players", [1, 2])
def test_current_player_and_action_ids(players):
    """current_player is CHANCE at chance nodes, TERMINAL at the end and the active player
    (``turn``) at decisions; every legal action id is below num_distinct_actions."""
    game = Game(players)
    assert game.num_players() == players
    n = game.num_distinct_actions()
    seen = {"chance": 0, "decision": 0, "players": set()}
    for seed in range(8):
        for s in _playout(players, seed):
            p = s.current_player()
            if s.is_terminal():
                assert p == TERMINAL and s.legal_actions() == [] and s.chance_outcomes() == []
            elif s.is_chance_node():
                assert p == CHANCE
                assert all(0 <= a < n for a, _ in s.chance_outcomes())
                seen["chance"] += 1
            else:
                assert p == s.turn and 0 <= p < players
                assert s.legal_actions() and all(0 <= a < n for a in s.legal_actions())
                seen["decision"] += 1
                seen["players"].add(p)
    assert seen["chance"] and seen["decision"] and seen["players"] == set(range(players))


def test_a_finished_game_refuses_every_action_and_stays_unchanged():
    for s in _playout(1, 3):
        pass
    assert s.is_terminal()
    before = format_position(s)
    hist = s.history()
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(0)
    with pytest.raises(IllegalActionError, match="game is over"):
        s.string_to_action("discard Os")
    assert format_position(s) == before and s.history() == hist


def test_observation_string_repr_and_json_string():
    text = position("solo", hand="Os,Os,Am,Gk,Ls", row="Am,Os", doors="DA", deck="N,DL,*",
                    discard="Ak")
    s = parse_position(text)
    assert s.observation_string() == format_position(s) == str(s)
    assert repr(s) == f"State({format_position(s)})"
    obj = json.loads(to_json_string(s))
    assert obj["mode"] == "solo" and obj["hand"] == ["Os", "Os", "Am", "Gk", "Ls"]


def test_duo_position_errors_name_the_field():
    """Two-player checks of docs/NOTATION.md section 2 that no other test reaches: a draft out
    of turn, and a drawn Door of a colour the active player already holds."""
    draft = position("duo", phase="draft", turn=0, hand0="Os", hand1="-",
                     shared="Gs,Om,Gk,Lk,Ls,Lm,As", row0="-", row1="-", deck="As,Gm")
    with pytest.raises(PositionError) as e:
        parse_position(draft)
    assert e.value.field == "turn" and "alternately" in str(e.value)
    door = position("duo", phase="door", drawn="DO", turn=0, hand0="Ok,Os", hand1="Ls,Lm,Lk",
                    shared="Gs,Om", row0="-", row1="-", doors0="DO", deck="As,Gm")
    with pytest.raises(PositionError) as e:
        parse_position(door)
    assert e.value.field == "drawn" and "already has" in str(e.value)
