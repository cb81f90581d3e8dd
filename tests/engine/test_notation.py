"""Position notation (docs/NOTATION.md section 2) and its JSON form: parsing, canonical output,
and the refusal of bad positions with a PositionError that names the field."""
from __future__ import annotations

import copy
import itertools
import json
import random

import pytest

from engine import (Game, IllegalActionError, PositionError, format_position, from_json,
                    parse_position, to_json)
from engine import cards
from rulekit import codes, do, position

SPEC_EXAMPLE = ("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os doors=DA deck=N,DL,* "
                "discard=Ak limbo=-")


def refused(text, field):
    with pytest.raises(PositionError) as e:
        parse_position(text)
    assert e.value.field == field, str(e.value)
    assert field in str(e.value)
    return str(e.value)


def test_spec_example_parses():
    """docs/NOTATION.md section 2: "Example: `mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os
    doors=DA deck=N,DL,* discard=Ak limbo=-`" """
    s = parse_position(SPEC_EXAMPLE)
    assert s.players == 1 and s.phase == "play"
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Os", "Am", "Gk", "Ls"])
    assert codes(s.rows[0]) == ["Am", "Os"] and codes(s.doors[0]) == ["DA"]
    assert codes(s.deck) == ["N", "DL"]
    assert codes(s.discard) == ["Ak"] and s.limbo == []
    # `*`: every card not listed lies below, in unknown order
    assert sum(s.unknown) == 76 - 5 - 2 - 1 - 2 - 1
    assert s.unknown[cards.INDEX["DA"]] == 1 and s.unknown[cards.INDEX["N"]] == 9
    assert s.unknown[cards.INDEX["Os"]] == 9 - 3
    assert format_position(s) == SPEC_EXAMPLE


def test_field_order_is_free_on_input():
    """docs/NOTATION.md section 2: "Field order is free on input; output order is the one
    below." """
    toks = SPEC_EXAMPLE.split()
    ref = parse_position(SPEC_EXAMPLE)
    rnd = random.Random(5)
    perms = [list(p) for p in itertools.islice(itertools.permutations(toks), 0, 200, 37)]
    for _ in range(20):
        p = toks[:]
        rnd.shuffle(p)
        perms.append(p)
    for p in perms:
        s = parse_position(" ".join(p))
        assert s == ref and format_position(s) == SPEC_EXAMPLE


def test_canonical_output_order_solo():
    """docs/NOTATION.md section 2 table order: mode, phase, drawn, hand, row, doors, deck,
    discard, limbo, seed, shuffles."""
    text = position(phase="nightmare", drawn="N", hand="Os,Am,Gk,Ls", row="-", deck="Lm,Gs",
                    seed=7, shuffles=3)
    s = parse_position(text)
    keys = [t.split("=")[0] for t in format_position(s).split()]
    assert keys == ["mode", "phase", "drawn", "hand", "row", "doors", "deck", "discard",
                    "limbo", "seed", "shuffles"]
    t = parse_position(SPEC_EXAMPLE)
    assert [x.split("=")[0] for x in format_position(t).split()] == [
        "mode", "phase", "hand", "row", "doors", "deck", "discard", "limbo"]


def test_canonical_output_order_duo():
    """docs/RULINGS.md / engine/notation.py: two-player fields in output order."""
    s = Game(2).new_initial_state(seed=1)
    keys = [t.split("=")[0] for t in format_position(s).split()]
    assert keys == ["mode", "phase", "turn", "hand0", "hand1", "shared", "row0", "row1",
                    "doors0", "doors1", "deck", "discard", "limbo", "seed", "shuffles"]
    assert list(to_json(s).keys()) == keys


def test_output_is_canonical_whatever_the_input_list_order():
    """Hands, doors, discard and limbo are sets: output lists them in card order; the row and
    the deck keep their order."""
    a = parse_position("mode=solo phase=play hand=Ls,Gk,Am,Os,Os row=Am,Os doors=DA "
                       "deck=DL,N,* discard=Ak limbo=-")
    out = format_position(a)
    assert "hand=Os,Os,Am,Gk,Ls" in out and "deck=DL,N,*" in out and "row=Am,Os" in out


def test_exact_deck_without_star():
    """docs/NOTATION.md section 2: "without `*` the deck is exactly the list, in that order"."""
    text = position(hand="Os,Am,Gk,Ls,Lm", row="-", deck="N,DL,Os")
    s = parse_position(text)
    assert codes(s.deck) == ["N", "DL", "Os"] and sum(s.unknown) == 0
    assert format_position(s) == text


# ---------------------------------------------------------------------------- refusals
def test_refuse_too_many_cards():
    """docs/NOTATION.md section 2: "All 76 cards must be accounted for exactly once"."""
    refused("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os doors=DA,DA,DA deck=* "
            "discard=- limbo=-", "doors")
    refused("mode=solo phase=play hand=Ak,Ak,Ak,Ak,Ls row=- doors=- deck=* discard=- "
            "limbo=-", "hand")
    refused("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=- doors=- deck=N,* "
            "discard=N,N,N,N,N,N,N,N,N,N limbo=-", "discard")


def test_refuse_missing_cards_without_star():
    """docs/NOTATION.md section 2: "All 76 cards must be accounted for exactly once (with `*`
    taking up the rest)"."""
    msg = refused("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os doors=DA deck=N,DL "
                  "discard=Ak limbo=-", "deck")
    assert "*" in msg


def test_refuse_unknown_codes():
    """docs/NOTATION.md section 2: an unknown code is refused."""
    refused(SPEC_EXAMPLE.replace("hand=Os,Os", "hand=Xs,Os"), "hand")
    refused(SPEC_EXAMPLE.replace("discard=Ak", "discard=ak"), "discard")
    refused(SPEC_EXAMPLE.replace("deck=N,DL,*", "deck=N,*,DL"), "deck")
    refused(SPEC_EXAMPLE.replace("doors=DA", "doors=DX"), "doors")
    refused(SPEC_EXAMPLE.replace("hand=Os,Os,Am,Gk,Ls", "hand="), "hand")


def test_refuse_six_cards_in_hand():
    """docs/NOTATION.md section 2: "(6 cards in hand ...)" is refused."""
    refused(SPEC_EXAMPLE.replace("hand=Os,Os,Am,Gk,Ls", "hand=Os,Os,Am,Gk,Ls,Lm"), "hand")


def test_refuse_non_location_in_hand_or_row():
    """docs/NOTATION.md section 2: the hand holds Locations; rows hold Locations."""
    refused(SPEC_EXAMPLE.replace("hand=Os,Os,Am,Gk,Ls", "hand=Os,Os,Am,Gk,N"), "hand")
    refused(SPEC_EXAMPLE.replace("row=Am,Os", "row=Am,DO"), "row")
    refused(SPEC_EXAMPLE.replace("doors=DA", "doors=Os"), "doors")


def test_refuse_row_breaking_the_play_rule():
    """Ruling B1: a row never holds two consecutive cards with one symbol."""
    refused(SPEC_EXAMPLE.replace("row=Am,Os", "row=Am,Om"), "row")


def test_refuse_play_with_four_cards():
    """docs/NOTATION.md section 2: "In phase `play` the hand holds 5 Locations"."""
    refused(SPEC_EXAMPLE.replace("hand=Os,Os,Am,Gk,Ls", "hand=Os,Os,Am,Gk"), "hand")


def test_refuse_limbo_in_phase_play():
    """docs/NOTATION.md section 2: "In phase `play` ... limbo is empty"."""
    refused(SPEC_EXAMPLE.replace("limbo=-", "limbo=N"), "limbo")


def test_refuse_door_phase_without_the_key():
    """docs/NOTATION.md section 2: "a Key in `phase=door` missing" is refused."""
    text = position(phase="door", drawn="DO", hand="Os,Am,Gk,Ls", row="-", deck="Lm")
    refused(text, "hand")
    ok = position(phase="door", drawn="DG", hand="Os,Am,Gk,Ls", row="-", deck="Lm")
    assert parse_position(ok).phase == "door"
    refused(position(phase="door", drawn="N", hand="Os,Am,Gk,Ls", row="-", deck="Lm"),
            "drawn")


def test_refuse_drawn_out_of_place():
    """docs/NOTATION.md section 2: "`drawn`: the Door or `N` just drawn, in phases `door` and
    `nightmare`"."""
    refused(SPEC_EXAMPLE.replace("phase=play", "phase=play drawn=N"), "drawn")
    refused(position(phase="nightmare", hand="Os,Am,Gk,Ls", row="-", deck="Lm"), "drawn")
    refused(position(phase="nightmare", drawn="DO", hand="Os,Am,Gk,Ls", row="-",
                     deck="Lm"), "drawn")


def test_refuse_prophecy_with_unrevealed_cards():
    """docs/NOTATION.md section 2: "in phase `prophecy` the revealed cards, the top min(5,
    deck), must be listed in `deck`"."""
    text = ("mode=solo phase=prophecy hand=Os,Os,Am,Ls row=Am,Os doors=DA deck=N,DL,Os,* "
            "discard=Ak limbo=-")
    refused(text, "deck")
    ok = ("mode=solo phase=prophecy hand=Os,Os,Am,Ls row=Am,Os doors=DA deck=N,DL,Os,Gs,Gs,* "
          "discard=Ak limbo=-")
    assert parse_position(ok).phase == "prophecy"
    # a short deck listed exactly is fine: its whole content is revealed
    short = position(phase="prophecy", hand="Os,Am,Gs,Ls", row="-", deck="N,Gm")
    assert parse_position(short).phase == "prophecy"
    refused(position(phase="prophecy", hand="Os,Am,Gs,Ls", row="-", deck="-"), "deck")


def test_refuse_unknown_field_duplicate_field_and_missing_field():
    """docs/NOTATION.md section 2 fields; a position that breaks the format names the field."""
    refused(SPEC_EXAMPLE + " colour=red", "colour")
    refused(SPEC_EXAMPLE + " limbo=-", "limbo")
    refused(SPEC_EXAMPLE + " hand=Os,Os,Am,Gk,Ls", "hand")
    refused(SPEC_EXAMPLE.replace(" limbo=-", ""), "limbo")
    refused(SPEC_EXAMPLE.replace("mode=solo ", ""), "mode")
    refused(SPEC_EXAMPLE.replace("mode=solo", "mode=trio"), "mode")
    refused(SPEC_EXAMPLE.replace("phase=play", "phase=dance"), "phase")
    refused(SPEC_EXAMPLE.replace("phase=play", "phase=draft"), "phase")   # duo only
    refused(SPEC_EXAMPLE + " turn=1", "turn")                               # duo only


def test_refuse_bad_seed():
    """docs/RULINGS.md: "A deal is a non-negative integer seed" (64-bit: engine.rng.MAX_SEED)."""
    for bad in ("-1", "x", "1.5", "18446744073709551616", "", "0x10"):
        refused(SPEC_EXAMPLE + f" seed={bad}", "seed")
    refused(SPEC_EXAMPLE + " shuffles=3", "shuffles")           # shuffles without a seed
    refused(SPEC_EXAMPLE + " seed=3 shuffles=-2", "shuffles")
    s = parse_position(SPEC_EXAMPLE + " seed=18446744073709551615 shuffles=4")
    assert s.seed == 2**64 - 1 and s.shuffles == 4


def test_refuse_won_and_lost_that_are_not():
    """rulings B7 and B8 in the notation: `won` needs all 8 Doors, 8 Doors must be `won`,
    `lost` needs an empty deck."""
    refused(SPEC_EXAMPLE.replace("phase=play", "phase=won"), "phase")
    refused(SPEC_EXAMPLE.replace("phase=play", "phase=lost"), "phase")
    refused(position(hand="Os,Am,Gk,Ls,Lm", row="-", doors="DO,DO,DA,DA,DG,DG,DL,DL",
                     deck="Lm"), "phase")


def test_refuse_duo_inconsistencies():
    """Two-player positions (docs/RULINGS.md D1-D5): 3 own cards each, 2 shared, one Door of
    each colour per player."""
    base = dict(turn=0, hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-",
                row1="-", deck="As,Gm")
    assert parse_position(position("duo", **base)).players == 2
    refused(position("duo", **{**base, "hand1": "Ls,Lm,Lk,Gm"}), "hand1")
    refused(position("duo", **{**base, "hand0": "Os,Am"}), "hand0")
    refused(position("duo", **{**base, "shared": "Gs,Om,Gm"}), "shared")
    refused(position("duo", **{**base, "doors0": "DO,DO"}), "doors0")
    refused(position("duo", **{**base, "turn": 2}), "turn")
    refused(position("duo", **base) + " hand=Os", "hand")


def test_refuse_a_draft_that_is_over():
    """The draft ends when each player holds 3 (rules/guide-en-with-two-player.txt: "Take
    turns picking cards until each player has 3 personal resources. The remaining 2 stay face
    up in the center"): phase draft with 3 cards each and 2 in the centre is impossible, and
    would leave a non-terminal state without a legal action (found by mutation fuzzing)."""
    base = dict(phase="draft", turn=0, hand0="Os,Am", hand1="Ls,Lm", shared="Gs,Om,Gk,Lk",
                row0="-", row1="-", deck="As,Gm")
    s = parse_position(position("duo", **base))
    assert s.legal_actions()
    over = {**base, "hand0": "Os,Am,Gk", "hand1": "Ls,Lm,Lk", "shared": "Gs,Om"}
    assert "3 or more" in refused(position("duo", **over), "shared")
    # one pick before the end is still a draft, and its last pick ends it
    s = parse_position(position("duo", **{**over, "turn": 1, "hand1": "Ls,Lm",
                                          "shared": "Gs,Om,Lk"}))
    do(s, "draft Lk")
    assert s.phase == "play" and len(s.shared) == 2


def test_json_round_trip_and_errors():
    """The JSON form mirrors the notation field for field."""
    s = parse_position(SPEC_EXAMPLE + " seed=9 shuffles=2")
    j = to_json(s)
    assert j["hand"] == ["Os", "Os", "Am", "Gk", "Ls"] and j["deck"] == ["N", "DL", "*"]
    assert j["seed"] == 9 and j["shuffles"] == 2
    assert from_json(j) == s and from_json(json.dumps(j)) == s
    with pytest.raises(PositionError) as e:
        from_json("{not json")
    assert e.value.field == "json"
    with pytest.raises(PositionError) as e:
        from_json({**j, "hand": "Os,Os"})
    assert e.value.field == "hand"
    with pytest.raises(PositionError) as e:
        from_json({**j, "seed": "9"})
    assert e.value.field == "seed"
    with pytest.raises(PositionError) as e:
        from_json([1, 2])
    assert e.value.field == "json"


def test_failed_parse_and_illegal_action_leave_things_unchanged():
    """engine/errors.py: "Every bad input raises a subclass of OnirimError, and leaves any state
    it was given unchanged." """
    s = Game(1).new_initial_state(seed=21)
    do(s, s.action_to_string(s.legal_actions()[0]))
    snap, hist, text = s.clone(), s.history(), format_position(s)
    j = to_json(s)
    j_copy = copy.deepcopy(j)
    with pytest.raises(PositionError):
        parse_position(text.replace("limbo=-", "limbo=-,Xx"))
    with pytest.raises(PositionError):
        from_json({**j, "deck": j["deck"][:-3]})
    assert j == j_copy
    for bad in ("play Zz", "nightmare reveal", "discard", "", "prophecy discard=N keep=-"):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    for bad in (-1, 10**6, 3.0, None, True):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    assert s == snap and s.history() == hist and format_position(s) == text


def test_parsed_position_continues_like_the_original():
    """docs/NOTATION.md section 2 `seed`, `shuffles`: a position parsed from the notation of a
    seeded game
    continues exactly like the game itself (clairvoyant mode)."""
    rnd = random.Random(3)
    a = Game(1).new_initial_state(seed=77)
    while not a.is_terminal():
        b = parse_position(format_position(a))
        acts = a.legal_actions()
        assert b.legal_actions() == acts
        x = rnd.choice(acts)
        a.apply_action(x)
        b.apply_action(x)
        assert a == b


def test_spec_action_strings():
    """docs/NOTATION.md section 4: every example action string is accepted, in the phase it
    belongs to:
    `play Os`, `discard Ak`, `prophecy discard=N keep=Os,Am,Gk,Lk`, `door key`, `door limbo`,
    `nightmare key Ak`, `nightmare door DO`, `nightmare reveal`, `nightmare redraw`."""
    s = parse_position(position(hand="Os,Ak,Gs,Gm,Ls", row="Am", deck="N,Os,Am,Gk,Lk,Ls"))
    assert s.action_to_string(s.string_to_action("play Os")) == "play Os"
    t = s.clone()
    do(t, "discard Ak")
    assert t.phase == "prophecy"
    a = t.string_to_action("prophecy discard=N keep=Os,Am,Gk,Lk")
    assert t.action_to_string(a) == "prophecy discard=N keep=Os,Am,Gk,Lk"
    do(t, "prophecy   discard=N  keep=Os,Am,Gk,Lk")        # white space is folded
    assert codes(t.deck) == ["Am", "Gk", "Lk", "Ls"]
    d = parse_position(position(phase="door", drawn="DA", hand="Ak,Os,Gs,Ls", row="-",
                                deck="Lm,Lm"))
    assert sorted(d.action_to_string(x) for x in d.legal_actions()) == ["door key",
                                                                          "door limbo"]
    n = parse_position(position(phase="nightmare", drawn="N", hand="Ak,Os,Gs,Ls", row="-",
                                doors="DO", deck="Lm,Lm,Ls,Ls,Ls,Ls"))
    assert sorted(n.action_to_string(x) for x in n.legal_actions()) == sorted([
        "nightmare key Ak", "nightmare door DO", "nightmare reveal", "nightmare redraw"])
    for text in ("nightmare key Ak", "nightmare door DO", "nightmare reveal",
                 "nightmare redraw"):
        n.clone().apply_action(text)


# ------------------------------------------------ issue 27, item 15: one spelling for hidden cards
def _duo_decisions(seeds, limit=200):
    import random as _random
    from engine.policy import random_action
    for seed in seeds:
        rnd = _random.Random(seed)
        s = Game(2).new_initial_state(seed)
        n = 0
        while not s.is_terminal() and n < limit:
            yield s
            s.apply_action(random_action(s, rnd))
            n += 1


def test_a_two_player_view_formats_and_parses_back():
    """The contract: a player's view writes each card it cannot see as `?` in its list (the
    partner's cards it does not know, after those it knows: `hand1=Ok,?,?`) and the unknown
    deck as `deck=*`; it parses back into that player's view (engine.view.player_view), and
    prints the same text again."""
    from engine.notation import parse_view
    from engine.view import known_cards, observation_text, player_view
    n = 0
    for s in _duo_decisions(range(12)):
        for p in (0, 1):
            text = observation_text(s, p)
            if "?" not in text:          # the partner's hand known (view=P): the tests of
                continue                 # tests/solver/duo/test_duo_honest.py
            known = [cards.CODES[c] for c in known_cards(s, 1 - p)]
            hidden = len(s.hands[1 - p]) - len(known)
            assert f"hand{1 - p}={','.join(known + ['?'] * hidden)} " in text
            assert "seed=" not in text
            v = parse_view(text)
            assert v == player_view(s, p)
            assert v.observation_string(p) == text
            n += 1
    assert n > 500


def test_parse_position_refuses_a_view_with_a_usable_error():
    """`parse_position` (a full position) refuses a view with one clear line, not "unknown
    card code '?'", and the error carries the view for a caller that answers views."""
    from engine.errors import PlayerViewError
    from engine.view import observation_text, player_view
    s = next(x for x in _duo_decisions([4]) if x.phase == "play")
    text = observation_text(s, s.turn)
    with pytest.raises(PlayerViewError) as e:
        parse_position(text)
    assert str(e.value) == (f"hand{1 - s.turn}: a two-player player's view (the partner's "
                            "cards written ?) is not a full position; two-player views are "
                            "not answered yet")
    assert e.value.view == player_view(s)
    with pytest.raises(PlayerViewError):
        from_json(json.dumps(to_json(s, view="player")))


@pytest.mark.parametrize("text, message", [
    ("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os doors=DA deck=*,N discard=Ak "
     "limbo=-", "deck: * must come last"),
    ("mode=solo phase=play hand=Os,?,Am,Gk,Ls row=Am,Os doors=DA deck=N,* discard=Ak limbo=-",
     "hand: ? (a card the viewer cannot see) is written only for the partner's hand"),
])
def test_star_and_question_mark_out_of_place(text, message):
    with pytest.raises(PositionError) as e:
        parse_position(text)
    assert str(e.value).startswith(message)


def test_a_view_hiding_both_hands_or_mixing_is_refused():
    from engine.notation import parse_view
    from engine.view import observation_text
    s = next(x for x in _duo_decisions([4]) if x.phase == "play" and x.turn == 0
             and "?" in observation_text(x, 0))
    text = observation_text(s, 0)
    own = text.split("hand0=")[1].split()[0]
    with pytest.raises(PositionError, match="both hands are hidden"):
        parse_view(text.replace(f"hand0={own}", "hand0=?,?,?"))
    with pytest.raises(PositionError, match="one \\? per card"):
        parse_view(text.replace(f"hand0={own}", "hand0=?," + own.split(",", 1)[1]))
