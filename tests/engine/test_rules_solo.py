"""Rule verification, solo game: one named test per base ruling (docs/RULINGS.md, B1-B10) and per
rule clause of the rule texts in /work/shared/rules/.

Every test builds a position from the notation (docs/NOTATION.md) (tests/rulekit.py fills the
discard pile with the cards not listed elsewhere, so decks can be written exactly), applies
actions by their action strings and checks the result.  Each docstring cites the file and quotes
the sentence it
checks.  Expected values are derived from the rules (and, for shuffles, from the generator
contract of docs/RULINGS.md as documented in engine/rng.py), never read back from the engine.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine import Game, IllegalActionError
from engine import cards
from engine.rng import shuffle_counts
from rulekit import SPEC_COUNTS, after, codes, counts_of, deck_counts, do, legal, make


def shuffled(cards_codes, seed, index):
    """The deck (codes, top first) that shuffle number ``index`` of deal ``seed`` makes of these
    cards (docs/RULINGS.md)."""
    return codes(shuffle_counts(counts_of(cards_codes), seed, index))


# =============================================================================================
# Components (docs/NOTATION.md section 1)
# =============================================================================================
def test_card_table():
    """docs/NOTATION.md section 1 table, and rules/rulebook-en.txt: "The basic game contains 76
    cards:
    - 10 Dream cards: nightmare - 2 Observatory Door cards ... - 16 Observatory cards - 15
    Aquarium cards - 14 Garden cards - 13 Library cards"."""
    assert dict(zip(cards.CODES, cards.COUNTS)) == SPEC_COUNTS
    assert sum(SPEC_COUNTS.values()) == 76
    per_colour = {L: sum(SPEC_COUNTS[L + s] for s in "smk") for L in "OAGL"}
    assert per_colour == {"O": 16, "A": 15, "G": 14, "L": 13}
    for L in "OAGL":
        assert SPEC_COUNTS[L + "k"] == 3 and SPEC_COUNTS[L + "m"] == 4
        assert SPEC_COUNTS["D" + L] == 2
    assert SPEC_COUNTS["N"] == 10


def test_new_game_holds_all_76_cards():
    """rules/rulebook-en.txt: "Shuffle the 76 cards from the basic game ...: this is the deck
    that represents the labyrinth to be explored." """
    s = Game(1).new_initial_state(seed=3)
    total = len(s.hands[0]) + len(s.deck) + sum(s.unknown) + len(s.discard) + len(s.limbo)
    assert total == 76
    assert Counter(codes(s.hands[0] + s.deck)) == Counter(SPEC_COUNTS)


# =============================================================================================
# Ruling 1: play
# =============================================================================================
def test_r1_play_symbol_must_differ_from_last():
    """Ruling B1: "a Location may be played to the labyrinth row only if its symbol differs
    from the symbol of the last card in the row"; rules/rulebook-en.txt: "There is one golden
    rule: the card played may not have any symbol in common with the last card played." """
    s = make(hand="Os,Am,Gs,Gk,Ls", row="Om,As", deck="Lm,Lm,Lm")
    acts = legal(s)
    for sun in ("Os", "Gs", "Ls"):
        assert f"play {sun}" not in acts
        with pytest.raises(IllegalActionError):
            s.clone().apply_action(f"play {sun}")
    assert "play Am" in acts and "play Gk" in acts


def test_r1_key_after_key_is_refused():
    """rules/rulebook-zh.txt: "打出來的卡片上的符號不能和上一張的一樣。符號一共有三種：月亮、太陽和鑰匙。"
    (the symbol may not equal the previous one; the three symbols are Moon, Sun and Key)."""
    s = make(hand="Ok,Ak,Gk,Lk,Ls", row="Ls,Gk", deck="Lm")
    assert sorted(legal(s)) == sorted(["play Ls", "discard Ok", "discard Ak", "discard Gk",
                                       "discard Lk", "discard Ls"])


def test_r1_colour_is_irrelevant():
    """rules/guide-en-with-two-player.txt: "Its symbol must be different from the previous one,
    whatever the color. After a Red Sun, you can set a Red or Blue Moon, but not a Green Sun." """
    s = make(hand="Om,Am,Gs,Lk,Lk", row="Os", deck="Lm")
    acts = legal(s)
    assert "play Om" in acts       # red moon after the red sun
    assert "play Am" in acts       # blue moon
    assert "play Gs" not in acts   # green sun
    assert "play Lk" in acts
    do(s, "play Om")
    assert codes(s.rows[0]) == ["Os", "Om"]


def test_r1_first_card_is_free():
    """Ruling B1: "the first card is free"; rules/rulebook-en.txt: "Initiate (if it's the
    first round) or continue ... the row of cards ... by playing one Location card from your
    hand" """
    s = make(hand="Os,Am,Gk,Lk,Ls", row="-", deck="Lm")
    plays = [a for a in legal(s) if a.startswith("play")]
    assert sorted(plays) == sorted(["play Os", "play Am", "play Gk", "play Ls", "play Lk"])


def test_r1_played_card_extends_the_row_and_is_replaced():
    """rules/rulebook-en.txt: "by playing one Location card from your hand face up in front of
    you" and "It is a Location card. This card simply replaces the card just played or
    discarded this turn." """
    s = make(hand="Os,Am,Gk,Lk,Ls", row="Gm,Os", deck="Lm,As")
    do(s, "play Am")
    assert codes(s.rows[0]) == ["Gm", "Os", "Am"]
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Gk", "Lk", "Ls", "Lm"])
    assert codes(s.deck) == ["As"] and s.phase == "play"


def test_r1_any_card_may_be_discarded():
    """rules/rulebook-en.txt: "2. or Discard a Card: Choose a card from your hand and discard
    it onto the discard pile." """
    s = make(hand="Os,Am,Gk,Lk,Ls", row="Gk", deck="Lm,Lm,Lm,Lm,Ls,Ls")
    for c in ("Os", "Am", "Gk", "Lk", "Ls"):
        assert f"discard {c}" in legal(s)
    t = after(s, "discard Os")
    assert Counter(codes(t.discard)) - Counter(codes(s.discard)) == Counter(["Os"])


# =============================================================================================
# Ruling 2: series
# =============================================================================================
def test_r2_third_card_of_a_colour_completes_a_series():
    """Ruling B2: "The 3rd card of a series completes it"; rules/rulebook-en.txt: "If the
    card just played is the third in a row of the same color, you obtain a Door card of that
    color" """
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck="DO,Lm,Lm")
    do(s, "play Ok")
    assert codes(s.doors[0]) == ["DO"]


def test_r2_zh_example_third_green_gives_green_door():
    """rules/rulebook-zh.txt: "玩家剛打出的牌是第三張的綠牌，他可以從牌庫搜尋一張綠門卡。" (the card just
    played is the third green: the player may search the deck for a green Door)."""
    s = make(hand="Gs,Om,Am,Gk,Ls", row="Lm,Gs,Gm", deck="Lm,DG,Lm,DO")
    do(s, "play Gk")
    assert codes(s.doors[0]) == ["DG"]


def test_r2_interrupted_colour_starts_again():
    """rules/rulebook-zh.txt: "玩家剛打出一張棕牌，但序列中的棕牌被一張綠牌所中斷，在這種情況玩家無法搜尋棕門。"
    (the brown cards were interrupted by a green one: no brown Door)."""
    s = make(hand="Lk,Om,Am,Gk,Ls", row="Ls,Lm,Gs", deck="DL,Lm,Lm")
    do(s, "play Lk")
    assert codes(s.doors[0]) == []
    assert codes(s.hands[0]).count("Lk") == 0 and "DL" not in codes(s.hands[0])
    # the DL stayed in the deck and was drawn as the refill: no Lk in hand, so it went to limbo
    # and was shuffled back at the end of the turn.
    assert deck_counts(s)[cards.INDEX["DL"]] == 1


def test_r2_fourth_card_starts_a_new_series():
    """Ruling B2: "the next card of that colour starts a new series (count 1)";
    rules/rulebook-en.txt: "If a card is the fourth in a row of the same color, it counts as the
    first card of a new series of that same color."; rules/guide-en-with-two-player.txt: "The
    fourth card of this color starts a new group: it does not immediately give another door.
    Then it takes a fifth and a sixth, with the symbols always alternating." """
    s = make(hand="Os,Os,Om,Om,Gs", row="Os,Om,Ok", doors="DO",
             deck="Ls,Ls,Ls,Ls,Ls,DO")
    do(s, "play Om")                 # 4th red: count 1
    assert codes(s.doors[0]) == ["DO"]
    do(s, "play Os")                 # 5th red: count 2
    assert codes(s.doors[0]) == ["DO"]
    do(s, "play Om")                 # 6th red: count 3, the second DO
    assert codes(s.doors[0]) == ["DO", "DO"]


def test_r2_count_resets_whether_or_not_a_door_was_obtained():
    """Ruling B2: "The count resets after the 3rd card whether or not a Door was
    obtained." Played live: the 3rd red finds no red Door (both in play), a Nightmare then sends
    one to limbo, it is shuffled back, and only the 6th red card (3rd of the new series) takes
    it; the 4th and 5th do not."""
    s = make(hand="Os,Os,Om,Om,Gs", row="Os,Om", doors="DO,DO", deck="N,As,As,As,As,As")
    do(s, "play Os")                              # 3rd red, no DO in the deck
    assert codes(s.doors[0]) == ["DO", "DO"] and s.phase == "nightmare"
    do(s, "nightmare door DO")                    # DO -> limbo; As refills; limbo shuffled
    assert s.phase == "play" and deck_counts(s)[cards.INDEX["DO"]] == 1
    do(s, "play Om", "draw As")                   # 4th red = 1st of a new series
    assert codes(s.doors[0]) == ["DO"]
    do(s, "play Os", "draw As")                   # 5th red = 2nd
    assert codes(s.doors[0]) == ["DO"]
    do(s, "play Om")                              # 6th red = 3rd: the Door comes
    assert codes(s.doors[0]) == ["DO", "DO"]
    assert deck_counts(s)[cards.INDEX["DO"]] == 0


# =============================================================================================
# Ruling 3: door by series
# =============================================================================================
def test_r3_series_door_is_put_in_play_and_deck_shuffled():
    """Ruling B3: "completing a series takes a Door of that colour from the deck if one is
    there (mandatory), puts it in play, then shuffles the deck"; rules/rulebook-en.txt: "you may
    search this card in the deck, then place it on the table in front of you, and shuffle the
    deck." """
    deck = ["Gs", "As", "DO", "Ls", "Gm", "Am"]
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck=deck, seed=5, shuffles=3)
    do(s, "play Ok")
    assert codes(s.doors[0]) == ["DO"]
    expect = shuffled(["Gs", "As", "Ls", "Gm", "Am"], 5, 3)  # deck without the Door
    # the refill then takes the new top card
    assert codes(s.deck) == expect[1:]
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Am", "Gs", "Ls", expect[0]])
    assert s.shuffles == 4


def test_r3_series_door_is_mandatory():
    """Ruling B3: "takes a Door of that colour from the deck if one is there (mandatory)":
    there is no decision to decline it."""
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck="Gs,DO,Lm,Lm", seed=1)
    assert not any("door" in a for a in legal(s))
    do(s, "play Ok")
    assert codes(s.doors[0]) == ["DO"] and s.phase == "play"


def test_r3_no_door_in_deck_no_shuffle():
    """Ruling B3: "If none is in the deck, nothing happens and the deck is not shuffled."
    The shuffle counter stays and the deck order is untouched (only the refill takes the top)."""
    deck = ["Gs", "As", "Ls", "Gm", "Am", "Lm"]
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck=deck, seed=5, shuffles=3)
    # both red Doors are in the discard pile (rulekit puts the unlisted cards there)
    do(s, "play Ok")
    assert codes(s.doors[0]) == []
    assert s.shuffles == 3
    assert codes(s.deck) == deck[1:]
    assert "Gs" in codes(s.hands[0])


def test_r3_door_in_limbo_or_other_colour_is_not_taken():
    """Ruling B3: the Door is "a Door of that colour from the deck" -- only that colour."""
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck="Gs,DA,DG,DL,Lm", seed=1)
    do(s, "play Ok")
    assert codes(s.doors[0]) == []
    assert s.shuffles == 0


def test_r3_door_from_the_unknown_part_of_the_deck():
    """Ruling B3 in chance mode: the searched Door may lie in the unknown part; the deck is
    shuffled afterwards, so its whole order becomes unknown."""
    s = make(hand="Os,Ok,Am,Gs,Ls", row="Os,Om", deck="Gs,*", discard="-")
    do(s, "play Ok")
    assert codes(s.doors[0]) == ["DO"]
    assert deck_counts(s)[cards.INDEX["DO"]] == 1 and s.deck == []
    assert s.is_chance_node()


# =============================================================================================
# Ruling 4: prophecy
# =============================================================================================
def _all_prophecies(revealed):
    out = set()
    for i, x in enumerate(revealed):
        rest = revealed[:i] + revealed[i + 1:]
        for perm in itertools.permutations(rest):
            out.add(f"prophecy discard={x} keep={','.join(perm) or '-'}")
    return out


def test_r4_key_discard_reveals_five():
    """Ruling B4: "only a Key discarded in phase A triggers it ... Reveal the top min(5,
    deck) cards"; rules/rulebook-en.txt: "If the discarded card is a Key card, you trigger a
    Prophecy" and "Prophecy: look at the top 5 cards of the deck, discard one of them (this is
    mandatory), and put the 4 remaining cards back on top of the deck in the order of your
    choice." """
    deck = ["N", "Gs", "DA", "Os", "Lm", "Am", "Ls"]
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck=deck)
    do(s, "discard Ak")
    assert s.phase == "prophecy"
    acts = set(legal(s))
    assert acts == _all_prophecies(deck[:5])
    assert len(acts) == 5 * 24


def test_r4_prophecy_with_repeated_cards_lists_each_outcome_once():
    """Ruling B4 / section 4: a prophecy chooses the discarded card and the order of the
    others; identical cards give identical outcomes."""
    deck = ["N", "N", "Os", "Os", "Am", "Ls"]
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck=deck)
    do(s, "discard Ak")
    acts = legal(s)
    assert set(acts) == _all_prophecies(deck[:5])
    assert len(acts) == len(set(acts))


def test_r4_prophecy_discards_exactly_one_and_reorders():
    """Ruling B4: "discard exactly one of them ... and put the rest back on top in any
    order"; section 4: "`keep` is the new top of the deck, top first"."""
    deck = ["N", "Gs", "DA", "Os", "Lm", "Am", "Ls"]
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck=deck)
    before = Counter(codes(s.discard))
    do(s, "discard Ak", "prophecy discard=N keep=Lm,Os,DA,Gs")
    assert Counter(codes(s.discard)) - before == Counter(["Ak", "N"])
    # the refill draws the new top, Lm
    assert "Lm" in codes(s.hands[0])
    assert codes(s.deck) == ["Os", "DA", "Gs", "Am", "Ls"]
    assert s.phase == "play"


def test_r4_prophecy_may_discard_a_door_or_nightmare():
    """Ruling B4: "discard exactly one of them (any card, a Door or Nightmare too: a
    discarded Door makes the game unwinnable, which is legal)" """
    deck = ["N", "Gs", "DA", "Os", "Lm", "Am"]
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck=deck)
    do(s, "discard Ak")
    t = after(s, "prophecy discard=DA keep=N,Gs,Os,Lm")
    assert "DA" in codes(t.discard)
    assert not t.is_terminal()      # legal; the game goes on though it can no longer be won
    t = after(s, "prophecy discard=N keep=Gs,DA,Os,Lm")
    assert "N" in codes(t.discard)


def test_r4_any_order_may_be_chosen():
    """rules/rulebook-en.txt: "put the 4 remaining cards back on top of the deck in the order of
    your choice." Every one of the 24 orders is offered for each discarded card."""
    deck = ["N", "Gs", "DA", "Os", "Lm"]
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck=deck + ["Am"])
    do(s, "discard Ak")
    keeps = {a.split("keep=")[1] for a in legal(s) if "discard=N " in a}
    assert keeps == {",".join(p) for p in itertools.permutations(deck[1:])}


def test_r4_non_key_discard_has_no_prophecy():
    """rules/rulebook-en.txt: "If it is a Moon or Sun card, go to phase 2 "Complete your
    hand"." """
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="N,Gs,DA,Os,Lm,Am")
    for c in ("Os", "Gs", "Gm", "Ls"):
        t = after(s, f"discard {c}")
        assert t.phase != "prophecy"
        assert not any(a.startswith("prophecy") for a in legal(t))


def test_r4_key_played_to_the_row_has_no_prophecy():
    """Ruling B4: "never a Key played to the row"."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="Om", deck="Ls,Gs,DA,Os,Lm,Am")
    do(s, "play Ak")
    assert s.phase == "play" and codes(s.deck) == ["Gs", "DA", "Os", "Lm", "Am"]


def test_r4_key_paid_for_a_door_or_nightmare_has_no_prophecy():
    """Ruling B4: "never a Key paid for a Door or a Nightmare"; rules/guide-en-with-two-
    player.txt: "this Key does not trigger prophecy" and "A Key paid for a Cauchemar does not
    trigger prophecy." """
    s = make(hand="Ak,Gk,Os,Gs,Ls", row="-", deck="DA,N,Lm,Lm,Lm,Lm,Ls,Ls")
    do(s, "discard Os", "door key")
    assert s.phase == "nightmare"   # straight on with the refill: the Nightmare comes next
    do(s, "nightmare key Gk")
    assert s.phase == "play" and codes(s.doors[0]) == ["DA"]
    # the hand (Gs, Ls) takes three cards; nothing else left the deck
    assert codes(s.deck) == ["Lm", "Ls", "Ls"]


def test_r4_short_deck_reveals_all_and_is_not_a_loss():
    """Ruling B4: "Reveal the top min(5, deck) cards"; rules/rulebook-en.txt: "Note: if
    there are less than 5 cards remaining in the deck, reveal all those cards, discard one of
    them , and put the remaining cards back in the order of your choice." """
    for deck in (["Gs", "N", "Lm", "Os"], ["Gs", "N", "Lm"], ["Gs", "Lm"]):
        s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck=deck)
        do(s, "discard Ak")
        assert s.phase == "prophecy" and not s.is_terminal()
        assert set(legal(s)) == _all_prophecies(deck)
        do(s, f"prophecy discard=N keep={','.join(x for x in deck if x != 'N')}"
           if "N" in deck else f"prophecy discard=Gs keep={','.join(deck[1:])}")
        assert s.phase == "play"    # enough cards were left to refill: no loss


def test_r4_one_card_prophecy_then_the_refill_loses():
    """Ruling B4 with one card: it is revealed and must be discarded (the prophecy itself
    is not a loss); then ruling B8: "the moment a card must be drawn ... and the deck is
    empty" the game is lost."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="Lm")
    do(s, "discard Ak")
    assert s.phase == "prophecy" and legal(s) == ["prophecy discard=Lm keep=-"]
    do(s, "prophecy discard=Lm keep=-")
    assert s.phase == "lost"


def test_r4_empty_deck_prophecy_does_nothing():
    """Ruling B4: "if at least one is revealed, discard exactly one of them" -- with an
    empty deck nothing is revealed, nothing discarded; the refill then loses (ruling 8)."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="-")
    before = Counter(codes(s.discard))
    do(s, "discard Ak")
    assert s.phase == "lost"
    assert Counter(codes(s.discard)) - before == Counter(["Ak"])


# =============================================================================================
# Ruling 5: a Door drawn while refilling
# =============================================================================================
def test_r5_door_with_its_key_offers_the_choice():
    """Ruling B5: "the player may discard a Key of its colour from hand to put the Door in
    play (no prophecy); otherwise, or by choice, the Door goes to limbo"; rules/rulebook-en.txt:
    "It is a Door card. You may immediately discard from your hand a Key card of the same
    color." """
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="DA,Lm,Lm,Lm")
    do(s, "discard Os")
    assert s.phase == "door" and cards.CODES[s.drawn] == "DA"
    assert sorted(legal(s)) == ["door key", "door limbo"]


def test_r5_door_key_puts_the_door_in_play():
    """rules/rulebook-en.txt: "If you do, you obtain the Door card and place it in front of
    you." The Key goes to the discard pile and the refill continues."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="DA,Lm,Om,Lm")
    do(s, "discard Os", "door key")
    assert codes(s.doors[0]) == ["DA"]
    assert "Ak" in codes(s.discard) and "Ak" not in codes(s.hands[0])
    assert sorted(codes(s.hands[0])) == sorted(["Gs", "Gm", "Ls", "Lm", "Om"])
    assert s.phase == "play" and codes(s.deck) == ["Lm"]


def test_r5_door_limbo_by_choice_with_the_key():
    """rules/rulebook-en.txt: "If you do not have a Key of the same color or do not want to use
    the Key, place the Door card in the Limbo pile"; the guide's example: "She has a Blue Key
    in her hand, but prefers to keep it for a prophecy. She therefore puts the Door to limbs
    and picks again." """
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="DA,Lm,Om,Lm", seed=9, shuffles=4)
    do(s, "discard Os", "door limbo")
    assert codes(s.doors[0]) == [] and "Ak" in codes(s.hands[0])
    assert "Lm" in codes(s.hands[0])
    # end of turn: the limbo (DA) is shuffled into the deck (Om, Lm)
    assert s.limbo == [] and s.shuffles == 5
    assert codes(s.deck) == shuffled(["Om", "Lm", "DA"], 9, 4)


def test_r5_door_without_its_key_goes_to_limbo():
    """Ruling B5 "otherwise ... the Door goes to limbo": with no Key of its colour (a Key of
    another colour does not count) there is no decision."""
    s = make(hand="Gk,Ok,Os,Gm,Ls", row="-", deck="DA,Lm,Om,Lm", seed=9, shuffles=4)
    do(s, "discard Os")
    assert s.phase == "play"
    assert codes(s.doors[0]) == [] and s.shuffles == 5
    assert codes(s.deck) == shuffled(["Om", "Lm", "DA"], 9, 4)


# =============================================================================================
# Ruling 6: a Nightmare drawn while refilling
# =============================================================================================
def test_r6_nightmare_options_all_possible():
    """Ruling B6: "choose one that is possible: a. discard a Key from hand ... b. move one
    Door in play to limbo; c. reveal ... d. discard the whole hand"."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", doors="DO,DL", deck="N,Lm,Om,Lm")
    do(s, "discard Os")
    assert s.phase == "nightmare" and cards.CODES[s.drawn] == "N"
    assert sorted(legal(s)) == sorted(["nightmare key Ak", "nightmare key Gk",
                                       "nightmare door DO", "nightmare door DL",
                                       "nightmare reveal", "nightmare redraw"])


def test_r6_key_only_with_a_key_and_door_only_with_a_door():
    """rules/guide-en-with-two-player.txt: "You cannot choose to return a Door if you do not
    have any."; ruling B6 "choose one that is possible"."""
    s = make(hand="Os,Gm,Ls,Am,As", row="-", deck="N,Lm,Om,Lm")
    do(s, "discard Os")
    assert sorted(legal(s)) == ["nightmare redraw", "nightmare reveal"]
    for bad in ("nightmare key Ak", "nightmare door DO"):
        with pytest.raises(IllegalActionError):
            s.clone().apply_action(bad)


def test_r6a_discard_a_key():
    """Ruling B6a: "discard a Key from hand (no prophecy)"; rules/rulebook-en.txt:
    "Discard a Key card from your hand." then "Once the Nightmare card has been resolved,
    discard it." """
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N,Lm,Om,Lm,Ls")
    before = Counter(codes(s.discard))
    do(s, "discard Os", "nightmare key Gk")
    assert Counter(codes(s.discard)) - before == Counter(["Os", "Gk", "N"])
    # the refill continues: two cards are missing, Lm and Om come in, no prophecy
    assert sorted(codes(s.hands[0])) == sorted(["Ak", "Gm", "Ls", "Lm", "Om"])
    assert codes(s.deck) == ["Lm", "Ls"] and s.phase == "play"


def test_r6b_move_a_door_to_limbo():
    """Ruling B6b: "move one Door in play to limbo"; rules/rulebook-en.txt: "Place one of
    your gained Door cards in the Limbo pile." It is shuffled back at the end of the turn."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", doors="DO,DL", deck="N,Lm,Om,Lm", seed=2,
             shuffles=7)
    do(s, "discard Os", "nightmare door DL")
    assert codes(s.doors[0]) == ["DO"] and "N" in codes(s.discard)
    assert s.phase == "play" and s.shuffles == 8
    assert codes(s.deck) == shuffled(["Om", "Lm", "DL"], 2, 7)


def test_r6c_reveal_five():
    """Ruling B6c: "reveal the top min(5, deck) cards: Locations to the discard pile, Doors
    and Nightmares to limbo"; rules/rulebook-en.txt: "Reveal the top 5 cards from the deck:
    discard all those cards, except Door and/ or Dream cards, which are placed into the Limbo
    pile." """
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N,Os,DA,N,Gs,Am,Lm,As", seed=4,
             shuffles=2)
    before = Counter(codes(s.discard))
    do(s, "discard Os", "nightmare reveal")
    assert Counter(codes(s.discard)) - before == Counter(["Os", "N", "Os", "Gs", "Am"])
    assert "Lm" in codes(s.hands[0])                   # the refill goes on below them
    assert s.shuffles == 3                             # limbo (DA, N) shuffled back
    assert codes(s.deck) == shuffled(["As", "DA", "N"], 4, 2)


def test_r6c_reveal_with_a_short_deck():
    """Ruling B6c: "(possible with any deck size ...)": with 3 cards all 3 are revealed; the
    refill then finds the deck empty and the game is lost (ruling 8)."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N,Os,DA,N")
    assert "nightmare reveal" in legal(after(s, "discard Os"))
    before = Counter(codes(s.discard))
    do(s, "discard Os", "nightmare reveal")
    assert Counter(codes(s.discard)) - before == Counter(["Os", "N", "Os"])
    assert sorted(codes(s.limbo)) == ["DA", "N"]
    assert s.phase == "lost"


def test_r6c_reveal_with_an_empty_deck_does_nothing():
    """Ruling B6c: "with an empty deck it does nothing" (the refill that follows loses)."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N")
    do(s, "discard Os")
    assert "nightmare reveal" in legal(s)
    before = Counter(codes(s.discard))
    do(s, "nightmare reveal")
    assert Counter(codes(s.discard)) - before == Counter(["N"])
    assert s.limbo == [] and s.phase == "lost"


def test_r6d_redraw_sets_doors_and_nightmares_aside_unresolved():
    """Ruling B6d: "discard the whole hand, then draw until the hand holds 5 Locations,
    setting drawn Doors and Nightmares aside into limbo unresolved (no Keys may be used on those
    Doors)"; rules/rulebook-en.txt: "(the Dream cards are not resolved, and you cannot obtain a
    Door card by discarding a Key card)." """
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-",
             deck="N,Ak,DA,Os,N,Gs,Lm,Am,As,Gs", seed=11, shuffles=1)
    before = Counter(codes(s.discard))
    do(s, "discard Os", "nightmare redraw")
    assert Counter(codes(s.discard)) - before == Counter(["Os", "Ak", "Gk", "Gm", "Ls", "N"])
    assert sorted(codes(s.hands[0])) == sorted(["Ak", "Os", "Gs", "Lm", "Am"])
    assert codes(s.doors[0]) == []          # Ak was in hand, DA was still set aside
    assert s.phase == "play" and s.shuffles == 2
    assert codes(s.deck) == shuffled(["As", "Gs", "DA", "N"], 11, 1)


def test_r6d_redraw_from_a_short_deck_loses():
    """Ruling B8: "the moment a card must be drawn (refill or option 6d) and the deck is
    empty"."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N,Os,Gs,DA,Lm")
    do(s, "discard Os", "nightmare redraw")
    assert s.phase == "lost"
    assert sorted(codes(s.limbo)) == ["DA"]


def test_r6_nightmare_is_discarded_and_the_refill_continues():
    """Ruling B6: "Then the Nightmare goes to the discard pile and refilling continues.";
    rules/rulebook-en.txt: "Note: if you have less than 4 cards, you draw - and, if necessary,
    resolve - one card after the other." A second Nightmare met while refilling is resolved in
    turn (guide: "Another Nightmare pricked during this normal reconstitution must be solved in
    turn.")."""
    s = make(hand="Ak,Gk,Os,Gm,Ls", row="-", deck="N,N,Lm,Om,Ls")
    n_before = codes(s.discard).count("N")
    do(s, "discard Os", "nightmare key Ak")
    assert s.phase == "nightmare"           # the second N, drawn with 3 cards in hand
    do(s, "nightmare key Gk")
    assert sorted(codes(s.hands[0])) == sorted(["Gm", "Ls", "Lm", "Om", "Ls"])
    assert codes(s.discard).count("N") == n_before + 2      # both Nightmares discarded


# =============================================================================================
# Ruling 7: win
# =============================================================================================
SEVEN = "DO,DO,DA,DA,DG,DL,DL"


def test_r7_win_by_series_immediately_without_refill():
    """Ruling B7: "the moment all 8 Doors are in play, the game is won (no refill, no
    further step)"; rules/rulebook-en.txt: "You win if, at any point, all 8 Door cards are in
    play at the same time. The game ends immediately (you don't have to replenish your
    hand)." """
    s = make(hand="Gs,Os,Am,Gk,Ls", row="Gs,Gm", doors=SEVEN, deck="Lm,DG,Ls", seed=3,
             shuffles=6)
    do(s, "play Gs")
    assert s.phase == "won" and s.is_terminal() and s.returns() == [1.0]
    assert len(s.hands[0]) == 4               # no refill
    assert codes(s.deck) == ["Lm", "Ls"]      # no shuffle either
    assert s.shuffles == 6 and s.legal_actions() == []


def test_r7_win_by_key_on_a_drawn_door():
    """Ruling B7 with a Door obtained by a Key while refilling: the hand is not refilled."""
    s = make(hand="Gk,Os,Am,Gm,Ls", row="-", doors=SEVEN, deck="DG,Lm,Ls")
    do(s, "discard Os", "door key")
    assert s.phase == "won" and s.returns() == [1.0]
    assert len(s.hands[0]) == 3 and codes(s.deck) == ["Lm", "Ls"]


def test_r7_seven_doors_do_not_win():
    """Ruling B7: all 8 Doors are needed."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="Gm", doors="DO,DO,DA,DA,DL,DL",
             deck="Lm,DG,Ls,DG")
    do(s, "play Gs")
    assert not s.is_terminal() and s.returns() == [0.0]


# =============================================================================================
# Ruling 8: loss
# =============================================================================================
def test_r8_lost_when_the_refill_needs_a_card_from_an_empty_deck():
    """Ruling B8: "the moment a card must be drawn (refill or option 6d) and the deck is
    empty"; rules/rulebook-en.txt: "You lose if you must draw a card to fill you hand, and
    there is no card left in the deck." """
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="-")
    assert not s.is_terminal() and s.legal_actions()   # not before a draw is needed
    for a in legal(s):
        t = after(s, a)
        assert t.phase == "lost" and t.returns() == [0.0] and t.legal_actions() == []


def test_r8_the_last_card_can_still_be_drawn():
    """Ruling B8: the loss comes when a card must be drawn and none is left, not when the
    deck merely becomes empty."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="Lm")
    do(s, "play Gs")
    assert s.phase == "play" and s.deck_size() == 0 and not s.is_terminal()


def test_r8_discard_pile_is_not_reused_to_avoid_the_loss():
    """rules/guide-en-with-two-player.txt: "Never remix all the waste to artificially prolong
    the dream." (and ruling B10)."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="-")
    assert len(s.discard) == 71
    do(s, "discard Os")
    assert s.phase == "lost" and len(s.discard) == 72


# =============================================================================================
# Ruling 9: limbo
# =============================================================================================
def test_r9_limbo_shuffled_only_if_not_empty():
    """Ruling B9: "shuffled into the deck at the end of the turn, only if it holds any
    card"; rules/rulebook-en.txt: "If no cards were put in the Limbo this turn, skip this step:
    there is no phase 3 this turn." """
    deck = ["Lm", "Om", "DO", "As"]
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck=deck, seed=8, shuffles=10)
    do(s, "discard Os")
    assert s.shuffles == 10 and codes(s.deck) == deck[1:]
    do(s, "discard Lm")   # Om drawn, no limbo
    assert s.shuffles == 10 and codes(s.deck) == deck[2:]
    do(s, "discard Om")   # DO drawn, no Ok: limbo, shuffled back at the end of the turn
    assert s.shuffles == 11 and s.limbo == []
    # the DO went to limbo, As refilled the hand, then limbo {DO} was shuffled into an empty
    # deck: the deck is exactly [DO]
    assert codes(s.deck) == ["DO"] and "As" in codes(s.hands[0])


def test_r9_limbo_shuffle_uses_the_next_shuffle_index():
    """docs/RULINGS.md: "every later shuffle [is] drawn from a documented counter-based
    generator keyed by (seed, shuffle index)"; ruling B9 end-of-turn shuffle."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="N,Lm,DO,As,Ls,Gs,Lk,Am,Om", seed=12,
             shuffles=5)
    do(s, "discard Os", "nightmare reveal")    # Lm,As,Ls,Gs discarded, DO to limbo; Lk refills
    assert s.shuffles == 6 and s.limbo == []
    assert codes(s.deck) == shuffled(["Am", "Om", "DO"], 12, 5)
    # a turn that puts nothing in limbo: no shuffle at all
    t = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="N,Lm,Om,As,Ls,Gs,Lk,Am", seed=12,
             shuffles=5)
    do(t, "discard Os", "nightmare reveal")
    assert t.shuffles == 5 and codes(t.deck) == ["Am"]


def test_r9_setup_doors_and_nightmares_go_to_limbo_and_back():
    """Ruling B9: "At setup, Doors and Nightmares drawn for the opening hand go to limbo and
    are shuffled back before turn 1"; rules/rulebook-en.txt: "If you draw any Door or Dream
    cards, set them aside, and replace them with the top card of the deck, until you have 5
    Location cards in hand. Then, re-shuffle all cards set aside back into the deck."
    Replayed by hand from the generator for several seeds (docs/RULINGS.md: shuffle index 0 is
    the setup's shuffle)."""
    seen_aside = seen_clean = 0
    for seed in range(40):
        deck = codes(shuffle_counts([SPEC_COUNTS[c] for c in cards.CODES], seed, 0))
        hand, aside = [], []
        while len(hand) < 5:
            x = deck.pop(0)
            (hand if x[0] in "OAGL" and len(x) == 2 else aside).append(x)
        s = Game(1).new_initial_state(seed=seed)
        assert sorted(codes(s.hands[0])) == sorted(hand)
        assert s.phase == "play" and s.limbo == [] and s.discard == []
        if aside:
            seen_aside += 1
            assert s.shuffles == 2
            assert codes(s.deck) == shuffled(deck + aside, seed, 1)
        else:
            seen_clean += 1
            assert s.shuffles == 1 and codes(s.deck) == deck
    assert seen_aside and seen_clean


def test_r9_setup_nightmares_are_not_resolved_chance_mode():
    """rules/rulebook-en.txt (setup): "If you draw any Door or Dream cards, set them aside";
    the example: "He sets aside the Dream and the Door cards into the Limbo pile, and draws 2
    replacement cards" -- no Nightmare option, no Key on a Door during setup."""
    s = Game(1).new_initial_state()
    assert s.phase == "setup" and s.is_chance_node()
    aside = []
    for card in ("Os", "N", "Ak", "DA", "Om", "N", "Lk", "Gs"):
        assert s.is_chance_node() and s.phase == "setup"
        do(s, f"draw {card}")
        if card in ("N", "DA"):
            aside.append(card)
        if s.phase == "setup":
            assert sorted(codes(s.limbo)) == sorted(aside)   # set aside, nothing resolved
    assert s.phase == "play"
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Ak", "Om", "Lk", "Gs"])
    assert s.limbo == [] and s.doors[0] == [] and s.discard == []
    assert sum(s.unknown) == 71 and s.deck == []       # set-aside cards are back in the deck
    assert s.unknown[cards.INDEX["N"]] == 10 and s.unknown[cards.INDEX["DA"]] == 2


# =============================================================================================
# Ruling 10: discard pile
# =============================================================================================
def test_r10_discard_pile_never_returns():
    """Ruling B10: "Discard pile: never returns to play."; rules/guide-en-with-two-player.
    txt: "The waste remains outside the base stock." A limbo shuffle takes only the limbo."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="DO,Lm,Om", seed=6)
    disc = Counter(codes(s.discard))
    do(s, "discard Os")
    assert Counter(codes(s.discard)) == disc + Counter(["Os"])
    assert sorted(codes(s.deck)) == sorted(["Om", "DO"])
    # a deal played to its end: the discard pile only ever grows
    rng_state = Game(1).new_initial_state(seed=123)
    prev = Counter()
    while not rng_state.is_terminal():
        acts = rng_state.legal_actions()
        rng_state.apply_action(acts[len(rng_state.history()) * 7 % len(acts)])
        now = Counter(codes(rng_state.discard))
        assert not (prev - now)
        prev = now


# =============================================================================================
# Turn structure
# =============================================================================================
def test_turn_phases_play_then_refill_then_limbo():
    """rules/rulebook-en.txt: "A turn is divided into three phases: - Play or discard a card -
    Fill your hand - Shuffle the Limbo pile"; "You must replenish your hand to five cards, by
    drawing the top card from the deck." """
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="Lm,Om,As")
    do(s, "play Gs")
    assert s.phase == "play" and len(s.hands[0]) == 5 and codes(s.deck) == ["Om", "As"]


def test_hand_holds_only_locations():
    """rules/guide-en-with-two-player.txt: "Pick one card at a time until you find 5 Places in
    hand. A Place remains in the hand." Doors and Nightmares never enter the hand."""
    s = make(hand="Gs,Os,Am,Gk,Ls", row="-", deck="N,DO,Lm,Om,As,Ls")
    do(s, "discard Os", "nightmare reveal")
    for c in s.hands[0]:
        assert cards.is_location(c)


# =============================================================================================
# Worked examples of the rule texts
# =============================================================================================
def test_example_setup_of_the_rulebook():
    """rules/rulebook-en.txt: "Example: the player draws 5 cards: 3 Location cards, 1 Dream
    card, and 1 Door card. He sets aside the Dream and the Door cards into the Limbo pile, and
    draws 2 replacement cards: 1 Location card and another Door card. He sets the other Door
    card aside, and draws another replacement card: it's a Location card. He now has 5
    Location cards in hand; he shuffles the Limbo pile (i.e. the 3 cards set aside) into the
    deck." (chance mode: the draws are chosen)."""
    s = Game(1).new_initial_state()
    do(s, "draw Os", "draw N", "draw Am", "draw DA", "draw Gs")
    assert s.phase == "setup" and sorted(codes(s.limbo)) == ["DA", "N"]
    assert len(s.hands[0]) == 3
    do(s, "draw Ls", "draw DO")
    assert sorted(codes(s.limbo)) == sorted(["DA", "DO", "N"]) and len(s.hands[0]) == 4
    do(s, "draw Lm")
    assert s.phase == "play" and s.limbo == []
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Am", "Gs", "Ls", "Lm"])
    assert s.unknown[cards.INDEX["DA"]] == 2 and s.unknown[cards.INDEX["DO"]] == 2
    assert s.unknown[cards.INDEX["N"]] == 10 and sum(s.unknown) == 71


def test_example_game_of_the_guide():
    """rules/guide-en-with-two-player.txt, "An example of a game": "Alice laid Red Sun and then
    Red Moon. She now plays Red Key ... She is looking for a Red Door in the Stock and wins it.
    Her Key is on the way, not available in her hand. She picks to complete: a Blue Door
    appears. She has a Blue Key in her hand, but prefers to keep it for a prophecy. She
    therefore puts the Door to limbs and picks again. A Place arrives; she keeps this card,
    then repels the limbs at the end of the turn. Later, she picks up a Cauchemar. She chooses
    to undo her Blue Key: the Cauchemar and the Key go to waste, without prophecy. She picks up
    to replace the missing cards. She avoided rendering her Red Door, but lost a valuable
    tool." (chance mode: the draws are chosen)."""
    s = make(hand="Ok,Ak,Gs,Gm,Ls", row="Os,Om", deck="*", discard="-")
    do(s, "play Ok")
    assert codes(s.rows[0]) == ["Os", "Om", "Ok"] and codes(s.doors[0]) == ["DO"]
    assert "Ok" not in codes(s.hands[0])
    assert s.is_chance_node()                 # the deck was shuffled: the next card is chance
    do(s, "draw DA")
    assert s.phase == "door" and sorted(legal(s)) == ["door key", "door limbo"]
    do(s, "door limbo")
    assert codes(s.limbo) == ["DA"] and s.is_chance_node()
    do(s, "draw Lm")
    assert s.phase == "play" and s.limbo == [] and "Lm" in codes(s.hands[0])
    assert s.unknown[cards.INDEX["DA"]] == 2      # back in the deck
    do(s, "discard Gs", "draw N")
    assert s.phase == "nightmare"
    n_before = codes(s.discard).count("N")
    do(s, "nightmare key Ak")
    assert s.phase != "prophecy" and s.is_chance_node()
    assert "Ak" in codes(s.discard) and codes(s.discard).count("N") == n_before + 1
    do(s, "draw As", "draw Gm")
    assert s.phase == "play" and codes(s.doors[0]) == ["DO"]
    assert "Ak" not in codes(s.hands[0])


def test_nightmare_discarded_by_a_prophecy_is_not_resolved():
    """rules/guide-en-with-two-player.txt: "Defeating a Key triggers a prophecy: look at the
    first 5 cards of the Stock, necessarily discard one of them ... A such defeated Nightmare is
    not solved." """
    s = make(hand="Ak,Os,Gs,Gk,Ls", row="-", deck="N,Gs,As,Os,Lm,Am")
    do(s, "discard Ak", "prophecy discard=N keep=Gs,As,Os,Lm")
    assert s.phase == "play" and "N" in codes(s.discard)
    assert codes(s.deck) == ["As", "Os", "Lm", "Am"]


def test_door_sent_to_limbo_does_not_count():
    """rules/guide-en-with-two-player.txt: "Doors only seen and then handed over to the limbs do
    not count." With 7 Doors in play, the 8th drawn and put in limbo does not win."""
    s = make(hand="Gk,Os,Am,Gm,Ls", row="-", doors=SEVEN, deck="DG,Lm,Ls", seed=2)
    do(s, "discard Os", "door limbo")
    assert not s.is_terminal() and len(s.doors[0]) == 7 and s.phase == "play"
