"""The OpenSpiel-style strings hold only what a player may know (docs/NOTATION.md, "The
player's view"): ``State.observation_string``, ``State.information_state_string`` and
``format_position(state, view="player")``.

Each test permutes what the player cannot see (the unknown part of the deck; in a two-player
game also the partner's own cards, swapped with deck cards) and checks that no string
changes, while the full position (``view="full"``, the default of ``format_position``) does.
"""
from __future__ import annotations

import random

import pytest

from engine import Game, cards, format_position, parse_position
from engine.errors import GameConfigError
from engine.policy import greedy_action
from engine.view import _minus, known_cards, known_top, player_view
from rulekit import permute_unseen


def _decisions(players, seeds, limit=60):
    """Deal-mode decision states along greedy games."""
    for seed in seeds:
        s = Game(players).new_initial_state(seed)
        i = 0
        while not s.is_terminal() and i < limit:
            yield s.clone()
            s.apply_action(greedy_action(s))
            i += 1
        yield s.clone()


def _strings(s, player=None):
    return (s.observation_string(player), s.information_state_string(player),
            format_position(s, view="player", player=player))


def test_solo_strings_ignore_the_hidden_deck_order():
    rnd = random.Random(1)
    changed = 0
    for s in _decisions(1, range(8)):
        t = permute_unseen(s, rnd)
        if t.deck != s.deck:
            changed += 1
            assert format_position(t) != format_position(s)     # the full deal differs
        assert _strings(t) == _strings(s)
    assert changed > 100


def test_solo_strings_hold_no_seed_and_no_hidden_card():
    for s in _decisions(1, range(3)):
        obs = s.observation_string()
        assert "seed=" not in obs and "shuffles=" not in obs
        assert "seed=" not in s.information_state_string()
        deck = obs.split("deck=")[1].split()[0]
        listed = [] if deck == "-" else [c for c in deck.split(",") if c != "*"]
        assert len(listed) == known_top(s)
        # the full view is still there on demand, and is the default of format_position
        assert "seed=" in format_position(s, view="full") == format_position(s)


def test_solo_observation_parses_back_into_the_player_view():
    """What `onirim play`'s `position` command prints: ready for `onirim best`."""
    for s in _decisions(1, (2, 34)):
        v = parse_position(s.observation_string())
        assert v == player_view(s)
        assert v.legal_actions() == s.legal_actions()


def test_prophecy_cards_are_in_the_view():
    for s in _decisions(1, (34,), limit=400):
        if s.phase == "prophecy":
            k = min(5, s.deck_size())
            obs = s.observation_string()
            shown = obs.split("deck=")[1].split()[0].split(",")
            assert shown[:k] == format_position(s).split("deck=")[1].split(",")[:k]
            return
    pytest.fail("seed 34 has a prophecy under the greedy policy")


def test_information_state_recalls_the_decisions():
    s = Game(1).new_initial_state(5)
    assert s.information_state_string().endswith(" history=-")
    a = greedy_action(s)
    s.apply_action(a)
    text = s.information_state_string()
    assert text.startswith(s.observation_string() + " history=")
    assert text.endswith(f"history={a}")


def _duo_permuted(state, rnd, viewer):
    """Swap the partner's own cards that ``viewer`` did not see it take with hidden deck
    cards of the same kind (Locations), and shuffle the hidden deck: what ``viewer`` cannot
    see changes, its knowledge does not."""
    s = permute_unseen(state, rnd)
    other = 1 - viewer
    k = known_top(state)
    known = known_cards(s, other)
    unseen = _minus(s.hands[other], known)
    for j, c in enumerate(list(unseen)):
        spots = [i for i in range(k, len(s.deck)) if s.deck[i] < 12 and s.deck[i] != c]
        if spots:
            i = rnd.choice(spots)
            unseen[j], s.deck[i] = s.deck[i], c
    s.hands[other] = sorted(known + unseen)
    return s


def test_duo_strings_hide_the_partner_hand_and_the_deck():
    rnd = random.Random(7)
    hands_changed = 0
    for s in _decisions(2, range(4), limit=40):
        for viewer in (0, 1):
            t = _duo_permuted(s, rnd, viewer)
            if t.hands[1 - viewer] != s.hands[1 - viewer]:
                hands_changed += 1
            assert _strings(t, viewer) == _strings(s, viewer)
            obs = s.observation_string(viewer)
            assert "seed=" not in obs
            own = obs.split(f"hand{viewer}=")[1].split()[0]
            other = obs.split(f"hand{1 - viewer}=")[1].split()[0]
            assert own == (",".join(format_position(s).split(f"hand{viewer}=")[1]
                                    .split()[0].split(",")))
            known = [cards.CODES[c] for c in known_cards(s, 1 - viewer)]
            hidden = len(s.hands[1 - viewer]) - len(known)
            assert other == (",".join(known + ["?"] * hidden) or "-")
    assert hands_changed > 20


def test_duo_default_player_is_the_one_to_move():
    s = Game(2).new_initial_state(3)
    assert s.observation_string() == s.observation_string(s.turn)
    assert s.observation_string(0) != s.observation_string(1) or not any(s.hands)


@pytest.mark.parametrize("bad", [2, -1, "0", True])
def test_bad_player(bad):
    s = Game(1).new_initial_state(0)
    with pytest.raises(GameConfigError):
        s.observation_string(bad)
    with pytest.raises(GameConfigError):
        Game(2).new_initial_state(0).information_state_string(bad if bad != 2 else 3)


def test_format_position_view_argument():
    s = Game(1).new_initial_state(0)
    with pytest.raises(ValueError):
        format_position(s, view="partner")
    with pytest.raises(ValueError):
        format_position(s, player=0)          # player= belongs to the player's view
    assert format_position(s, view="player") == s.observation_string()


def test_json_view():
    from engine import from_json, to_json
    s = Game(1).new_initial_state(4)
    obj = to_json(s, view="player")
    assert "seed" not in obj and obj["deck"] == ["*"]
    assert from_json(obj) == player_view(s)
    assert to_json(s) == to_json(s, view="full") and to_json(s)["seed"] == 4
    duo = to_json(Game(2).new_initial_state(4), view="player", player=1)
    assert set(duo["hand0"]) <= {"?"}
    with pytest.raises(ValueError):
        to_json(s, view="nope")
