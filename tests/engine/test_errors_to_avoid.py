"""The four "Errors to avoid" of rules/guide-en-with-two-player.txt (section 08), each shown
impossible in the engine:

* "Place two symbols that are identical to each other on the pretext that the colors differ."
* "Win one door with each new Place of the same color after the first three."
* "Trigger a prophecy with a Key paid to a Gate or a Nightmare."
* "Solve the Cauchemars encountered during the preparation or the complete hand overhaul."
"""
from __future__ import annotations

import random

import pytest

from engine import Game, IllegalActionError
from engine import cards
from rulekit import codes, do, legal, make

LOCS = cards.CODES[:12]


def test_error1_same_symbol_never_playable_whatever_the_colours():
    """rules/guide-en-with-two-player.txt, Errors to avoid: "Place two symbols that are
    identical to each other on the pretext that the colors differ." Checked for every pair of
    Location types (last card, card in hand) with the same symbol, all colours."""
    checked = 0
    for last in LOCS:
        for cand in LOCS:
            if last[1] != cand[1]:
                continue
            filler = [x for x in ("Os", "As", "Gs", "Ls", "Om") if x != cand][:4]
            s = make(hand=[cand] + filler, row=[last], deck="Lm,Lm")
            assert f"play {cand}" not in legal(s)
            before = s.clone()
            with pytest.raises(IllegalActionError):
                s.apply_action(s.action_to_string(cards.INDEX[cand]))  # the integer's own string
            with pytest.raises(IllegalActionError):
                s.apply_action(cards.INDEX[cand])                       # play action integer
            assert s == before
            checked += 1
    assert checked == 4 * 12   # 12 types, each with 4 same-symbol types (all colours)


def test_error1_in_random_deals():
    """Same error, over whole deals: no row ever holds two adjacent cards with one symbol."""
    rnd = random.Random(0)
    for seed in range(30):
        s = Game(1).new_initial_state(seed=seed)
        while not s.is_terminal():
            s.apply_action(rnd.choice(s.legal_actions()))
            row = s.rows[0]
            assert all(cards.symbol(a) != cards.symbol(b) for a, b in zip(row, row[1:]))


@pytest.mark.parametrize("k", range(0, 9))
def test_error2_no_door_for_each_card_after_the_third(k):
    """rules/guide-en-with-two-player.txt, Errors to avoid: "Win one door with each new Place
    of the same color after the first three." A red row of k alternating cards, then one more
    red card: a Door comes only if that card is the 3rd, 6th, 9th ... of the colour."""
    row = ["Os", "Om"] * 5
    row = row[:k]
    nxt = "Om" if k % 2 else "Os"
    hand = [nxt, "Gs", "Gm", "Ls", "As"] if nxt == "Om" else [nxt, "Gm", "Am", "Ls", "As"]
    # fit the card counts (9 Os, 4 Om): only build legal multisets
    if row.count("Os") + hand.count("Os") > 9 or row.count("Om") + hand.count("Om") > 4:
        pytest.skip("not enough red cards for this row length")
    s = make(hand=hand, row=row, doors="DO" if k >= 3 else "-", deck="DO,Lm,Lm,Lm", seed=1)
    before = len(s.doors[0])
    do(s, f"play {nxt}")
    got = len(s.doors[0]) - before
    assert got == (1 if (k + 1) % 3 == 0 else 0)


def test_error2_each_series_is_a_fresh_count():
    """Same error, played live: red cards 4 and 5 give nothing, the 6th gives the second Door."""
    s = make(hand="Os,Om,Os,Om,Gs", row="Os,Om", deck="DO,DO,Lm,Lm,Ls,Ls,Ls", seed=2)
    do(s, "play Os")
    assert len(s.doors[0]) == 1
    counts = []
    for c in ("Om", "Os", "Om"):
        if f"play {c}" not in legal(s):
            pytest.fail(f"test setup: {c} not in hand {codes(s.hands[0])}")
        do(s, f"play {c}")
        counts.append(len(s.doors[0]))
    assert counts == [1, 1, 2]


def test_error3_no_prophecy_from_a_key_paid_for_a_door():
    """rules/guide-en-with-two-player.txt, Errors to avoid: "Trigger a prophecy with a Key paid
    to a Gate or a Nightmare." -- a Key paid for a Door."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="DA,Lm,Om,Lm,N,N")
    do(s, "discard Os", "door key")
    assert s.phase == "play"
    # three cards were missing (Os discarded, Ak paid): Lm and Om refill them, nothing else
    # left the deck
    assert codes(s.deck) == ["Lm", "N", "N"]


def test_error3_no_prophecy_from_a_key_paid_for_a_nightmare():
    """Errors to avoid: "Trigger a prophecy with a Key paid to a Gate or a Nightmare." -- a Key
    paid for a Nightmare (two-player too, with a shared Key)."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="N,Lm,Om,Lm,N,N")
    do(s, "discard Os", "nightmare key Ak")
    assert s.phase == "play" and codes(s.deck) == ["Lm", "N", "N"]
    d = make("duo", turn=0, hand0="Os,Am,Gs", hand1="Ls,Lm,Lk", shared="Ak,Om", row0="-",
             row1="-", deck="N,As,Gm,Gm,N")
    do(d, "discard Os", "nightmare key shared Ak")
    assert d.phase == "play" and codes(d.deck) == ["Gm", "N"]   # As own, Gm shared


def test_error3_prophecy_only_after_a_discarded_key_in_random_games():
    """Same error, over whole deals: the phase prophecy only ever follows a `discard <Key>`
    action (with or without a two-player exchange)."""
    rnd = random.Random(1)
    seen = 0
    for players in (1, 2):
        for seed in range(40):
            s = Game(players).new_initial_state(seed=seed)
            while not s.is_terminal():
                acts = s.legal_actions()
                keyish = [a for a in acts if s.action_to_string(a).startswith(
                    ("door key", "nightmare key"))]
                a = rnd.choice(keyish) if keyish and rnd.random() < 0.7 else rnd.choice(acts)
                text = s.action_to_string(a)
                s.apply_action(a)
                if s.phase == "prophecy":
                    words = text.split()
                    assert words[0] == "discard"
                    card = words[2] if words[1] == "shared" else words[1]
                    assert card.endswith("k"), text
                    seen += 1
    assert seen > 0


def test_error4_setup_nightmares_are_not_resolved():
    """Errors to avoid: "Solve the Cauchemars encountered during the preparation ..." -- over
    many deals (solo and two-player), the setup never asks for a Nightmare decision and no
    Nightmare is discarded: they are all back in the deck at the first turn."""
    for players in (1, 2):
        for seed in range(60):
            s = Game(players).new_initial_state(seed=seed)
            assert s.phase in ("play", "draft") and s.discard == [] and s.limbo == []
            assert s.deck.count(cards.NIGHTMARE) == 10
    s = Game(1).new_initial_state()           # chance mode, fed Nightmares
    for card in ("N", "N", "Os", "N", "Am", "Gs", "Ls", "N", "Lk"):
        assert s.phase == "setup"
        do(s, f"draw {card}")
    assert s.phase == "play" and s.unknown[cards.NIGHTMARE] == 10 and s.discard == []


def test_error4_redraw_nightmares_are_not_resolved():
    """Errors to avoid: "Solve the Cauchemars encountered during ... the complete hand
    overhaul." -- Nightmares met during a redraw go to limbo; no decision is asked."""
    s = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="N,N,Os,N,DA,Am,Gs,N,Ls,Lm,Lm,As")
    do(s, "discard Os", "nightmare redraw")
    assert s.phase == "play"
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Am", "Gs", "Ls", "Lm"])
    assert s.doors[0] == []
    # chance mode: a fed Nightmare during the redraw is set aside
    t = make(hand="Ak,Os,Gs,Gm,Ls", row="-", deck="N,*", discard="-")
    do(t, "discard Os", "nightmare redraw")
    assert t.phase == "redraw"
    for card in ("N", "DA", "Os", "N", "Os", "Am", "Gs", "Lm"):
        assert t.phase == "redraw"
        do(t, f"draw {card}")
    assert t.phase == "play" and t.limbo == []
    assert codes(t.discard).count("N") == 1      # only the Nightmare that was resolved
