"""Rule verification, two-player cooperative game: one named test per clause of the two-player
rules (rules/rulebook-zh.txt, second part; rules/guide-en-with-two-player.txt, section "End of
tour and two-way mode") and per two-player ruling D1-D8 of ``engine.DUO_RULINGS``
(docs/RULINGS.md).  Docstrings quote the sentence checked.
"""
from __future__ import annotations

from collections import Counter

import pytest

from engine import DUO_RULINGS, Game, IllegalActionError
from engine import cards
from engine.rng import shuffle_counts
from rulekit import SPEC_COUNTS, after, codes, counts_of, deck_counts, do, legal, make


def duo(**kw):
    kw.setdefault("turn", 0)
    return make("duo", **kw)


def shuffled(cards_codes, seed, index):
    return codes(shuffle_counts(counts_of(cards_codes), seed, index))


def test_duo_rulings_are_documented_and_tested():
    """docs/RULINGS.md: "where they are silent, decide, document the ruling beside these, and
    test it."  Each ruling D1-D8 of ``engine.DUO_RULINGS`` is stated in docs/RULINGS.md, and
    is checked by a test of this file that names it (``ruling Dn`` in its docstring) and
    plays the engine: a ruling whose last test goes fails here."""
    import inspect
    import re
    import sys
    from paths import ROOT
    rulings = re.findall(r"^(D[0-9]+) ", DUO_RULINGS, re.M)
    assert rulings == [f"D{i}" for i in range(1, 9)]
    with open(f"{ROOT}/docs/RULINGS.md") as f:
        doc = f.read()
    me = test_duo_rulings_are_documented_and_tested
    tests = {name: fn for name, fn in vars(sys.modules[__name__]).items()
             if name.startswith("test_") and callable(fn) and fn is not me}
    engine_call = re.compile(r"\b(Game|duo|make|do|after|legal)\(")
    for r in rulings:
        assert f"**{r} " in doc, f"{r} is not stated in docs/RULINGS.md"
        citing = [n for n, fn in tests.items() if re.search(rf"\b{r}\b", fn.__doc__ or "")]
        assert any(engine_call.search(inspect.getsource(tests[n])) for n in citing), \
            f"no test of this file checks ruling {r} on the engine"


# =============================================================================================
# Setup and draft (D1)
# =============================================================================================
def test_duo_setup_lays_out_8_locations():
    """rules/rulebook-zh.txt: "將牌庫的76張牌洗牌，並翻出8張牌庫頂的牌。將門和夢境卡放進邊境堆，重新抽牌，直到有8張
    迷宮牌為止。" (shuffle, turn up the top 8, put Doors and Dream cards in limbo, draw again
    until there are 8 Locations) and "將邊境堆洗回牌庫" (shuffle the limbo back); the guide: "lay out
    8 face-up Locations, replacing Doors and Nightmares without resolving them, then shuffle
    those set-aside cards back in." Replayed from the generator (docs/RULINGS.md)."""
    seen_aside = 0
    for seed in range(25):
        deck = codes(shuffle_counts([SPEC_COUNTS[c] for c in cards.CODES], seed, 0))
        centre, aside = [], []
        while len(centre) < 8:
            x = deck.pop(0)
            (centre if x[0] in "OAGL" else aside).append(x)
        s = Game(2).new_initial_state(seed=seed)
        assert s.phase == "draft" and s.turn == 0
        assert sorted(codes(s.shared)) == sorted(centre)
        assert s.hands == [[], []] and s.limbo == [] and s.discard == []
        if aside:
            seen_aside += 1
            assert s.shuffles == 2 and codes(s.deck) == shuffled(deck + aside, seed, 1)
        else:
            assert s.shuffles == 1 and codes(s.deck) == deck
    assert seen_aside


def test_duo_draft_alternates_3_3_then_2_shared():
    """rules/rulebook-zh.txt: "每位玩家從8張被翻開的卡中拿取一張，直到每位玩家有3張手牌。這3張牌稱為個人資源，剩下的
    牌保持翻開的狀態，且稱為共用資源。" (each player in turn takes one of the 8 face-up cards until each
    has 3: the personal resources; the rest stay face up: the shared resources); the guide:
    "Take turns picking cards until each player has 3 personal resources. The remaining 2 stay
    face up in the center as shared resources." Ruling D1: 0 first, 0 plays first."""
    s = Game(2).new_initial_state(seed=4)
    centre = Counter(codes(s.shared))
    picks = {0: [], 1: []}
    for i in range(6):
        assert s.phase == "draft" and s.turn == i % 2
        a = legal(s)
        assert all(x.startswith("draft ") for x in a)
        assert sorted({x.split()[1] for x in a}) == sorted(set(codes(s.shared)))
        choice = a[(i * 5) % len(a)]
        picks[i % 2].append(choice.split()[1])
        do(s, choice)
    assert s.phase == "play" and s.turn == 0
    assert sorted(codes(s.hands[0])) == sorted(picks[0])
    assert sorted(codes(s.hands[1])) == sorted(picks[1])
    assert len(s.shared) == 2
    assert Counter(codes(s.hands[0] + s.hands[1] + s.shared)) == centre


def test_duo_draft_only_from_the_centre():
    """rules/rulebook-zh.txt: "每位玩家從8張被翻開的卡中拿取一張" -- a card that is not face up in the
    centre cannot be taken."""
    s = Game(2).new_initial_state(seed=4)
    missing = [c for c in cards.CODES[:12] if cards.INDEX[c] not in s.shared]
    with pytest.raises(IllegalActionError):
        s.clone().apply_action(f"draft {missing[0]}")


# =============================================================================================
# Playing (D2): personal or shared card, own row only
# =============================================================================================
def test_duo_play_or_discard_own_or_shared_card():
    """rules/rulebook-zh.txt: "當玩家決定出牌或是棄牌時，他可以選擇一張個人資源的牌或是共用資源的牌。" (when playing or
    discarding, the player may choose a personal card or a shared card); the guide: "Each
    builds its own path, with a map of its 3 personal resources or 2 shared." """
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="As,As,Gm,Gm")
    acts = legal(s)
    for c in ("Os", "Am", "Gk"):
        assert f"play {c}" in acts and f"discard {c}" in acts
    for c in ("Gs", "Om"):
        assert f"play shared {c}" in acts and f"discard shared {c}" in acts
    for c in ("Ls", "Lm", "Lk"):      # the other player's cards are not usable
        assert f"play {c}" not in acts and f"discard {c}" not in acts
    t = after(s, "play shared Gs")
    assert codes(t.rows[0]) == ["Gs"] and codes(t.rows[1]) == []
    assert sorted(codes(t.shared)) == sorted(["As", "Om"])


def test_duo_each_plays_in_its_own_row_only():
    """rules/rulebook-zh.txt: "每位玩家建築自己的迷宮牌列...出一張牌到其他玩家的迷宮牌列是不允許的。" (each player builds
    its own row; playing to the other player's row is not allowed); the guide: "Never play in
    the other's path." The symbol rule looks at the player's own row."""
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Gm", row0="Om", row1="Os",
            deck="As,As,Gm,Gm")
    acts = legal(s)
    assert "play Am" not in acts          # moon after own Om; row1 ends with a Sun: irrelevant
    assert "play Os" in acts
    do(s, "play Os")
    assert codes(s.rows[0]) == ["Om", "Os"] and codes(s.rows[1]) == ["Os"]
    assert s.turn == 1
    do(s, "play Lm")                      # player 1 continues its own row
    assert codes(s.rows[1]) == ["Os", "Lm"] and codes(s.rows[0]) == ["Om", "Os"]


def test_duo_series_counts_in_own_row():
    """rules/rulebook-zh.txt: "如果你打出來的是同一列中第三張相同顏色的卡，你得到一張那種顏色的門卡" with each player's
    own row (D2): red cards in the other row do not help."""
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Gm", row0="Am,Os", row1="Os,Om",
            deck="As,As,Gm,DO", seed=3)
    do(s, "play shared Gm")
    assert s.doors == [[], []]


# =============================================================================================
# Exchange on discard (D3)
# =============================================================================================
def test_duo_exchange_on_discard():
    """rules/rulebook-zh.txt: "除了棄牌之外，行動中的玩家也可以馬上將他個人資源的一張牌和共用資源交換。" (besides the discard,
    the active player may immediately exchange one personal card with a shared one); the
    guide: "During a defeat action, the active player can also exchange one of his personal
    resources with a shared resource." """
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="As,As,Gm,Gm")
    acts = legal(s)
    assert "discard Os swap Am/Gs" in acts and "discard shared Om swap Gk/Gs" in acts
    assert not any(a.startswith("play") and "swap" in a for a in acts)   # not on a play
    do(s, "discard Os swap Am/Gs")
    assert sorted(codes(s.hands[0])) == sorted(["Gk", "Gs", "As"])  # As refills own cards
    assert sorted(codes(s.shared)) == sorted(["Om", "Am"])
    assert "Os" in codes(s.discard) and s.turn == 1


def test_duo_exchange_is_optional_and_single():
    """rules/rulebook-zh.txt: "也可以" (may also): a plain discard stays legal, and one action
    exchanges at most one pair."""
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="As,As,Gm,Gm")
    do(s, "discard Os")
    assert sorted(codes(s.hands[0])) == sorted(["Am", "Gk", "As"])
    assert sorted(codes(s.shared)) == sorted(["Gs", "Om"])
    for a in legal(duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-",
                       row1="-", deck="As,As,Gm,Gm")):
        assert a.count("swap") <= 1 and a.count("/") <= 1


def test_duo_exchange_then_key_prophecy():
    """Ruling D3 with a Key: the discarded Key still triggers its prophecy (rules/rulebook-zh.txt:
    "如果棄掉的是鑰匙卡，則進行先預言")."""
    s = duo(hand0="Ok,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="As,N,Gm,Gm,Ls,Ls")
    do(s, "discard Ok swap Am/Gs")
    assert s.phase == "prophecy"
    assert sorted(codes(s.hands[0])) == sorted(["Gk", "Gs"])
    assert sorted(codes(s.shared)) == sorted(["Om", "Am"])
    do(s, "prophecy discard=N keep=Gm,As,Gm,Ls")
    assert sorted(codes(s.hands[0])) == sorted(["Gk", "Gs", "Gm"])


# =============================================================================================
# Refill (D4)
# =============================================================================================
def test_duo_refill_the_zone_that_was_used():
    """rules/guide-en-with-two-player.txt: "Always rebuild the resource used: three personal and
    two shared." """
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="As,Ak,Gm,Gm")
    t = after(s, "play shared Gs")
    assert sorted(codes(t.shared)) == sorted(["Om", "As"]) and len(t.hands[0]) == 3
    t = after(s, "play Os")
    assert sorted(codes(t.hands[0])) == sorted(["Am", "Gk", "As"]) and len(t.shared) == 2


def test_duo_refill_personal_first_then_shared():
    """Ruling D4: "Refill: own cards up to 3 first, then shared up to 2"; rules/rulebook-zh.txt:
    "他先抽3張個人資源，再抽2張共用資源" (first the 3 personal, then the 2 shared)."""
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="N,As,Ak,Gm,Gm")
    do(s, "play shared Gs")               # shared 1 card; N drawn
    assert s.phase == "nightmare"
    do(s, "nightmare key Gk")             # own 2 cards
    assert sorted(codes(s.hands[0])) == sorted(["Os", "Am", "As"])   # first draw: own
    assert sorted(codes(s.shared)) == sorted(["Om", "Ak"])           # second: shared
    assert codes(s.deck) == ["Gm", "Gm"]


def test_duo_nightmare_redraw_takes_the_active_players_five():
    """rules/rulebook-zh.txt: "如果玩家決定棄掉所有手牌時...他必須棄掉他的個人資源(手牌)和共用資源(在桌上的牌)。當他補充
    手牌時，他先抽3張個人資源，再抽2張共用資源，如果其中有任何夢境和門卡的話，將它們放進邊境堆再抽牌直到都為迷宮卡為止。";
    the guide: "a Cauchemar who asks to undo everything removes these 5 cards, not the 3 of the
    other player. First redone the 3 personal cards, then the 2 communes." """
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            deck="N,As,DA,Ak,N,Gm,Gs,Lm,Ok,Am", seed=2, shuffles=3)
    do(s, "discard Os")
    assert s.phase == "nightmare"
    before = Counter(codes(s.discard))
    do(s, "nightmare redraw")
    assert Counter(codes(s.discard)) - before == Counter(["Am", "Gk", "Gs", "Om", "N"])
    assert sorted(codes(s.hands[1])) == sorted(["Ls", "Lm", "Lk"])   # untouched
    assert sorted(codes(s.hands[0])) == sorted(["As", "Ak", "Gm"])   # first three Locations
    assert sorted(codes(s.shared)) == sorted(["Gs", "Lm"])           # then two shared
    assert s.doors == [[], []]                                       # DA not keyed (Ak held)
    assert s.turn == 1 and s.shuffles == 4
    assert codes(s.deck) == shuffled(["Ok", "Am", "DA", "N"], 2, 3)


# =============================================================================================
# Doors belong to a player (D5, D6)
# =============================================================================================
def test_duo_each_player_needs_its_own_door_of_each_colour():
    """rules/guide-en-with-two-player.txt: "Each player must win his own Door of each color.";
    ruling D5: a completed series of a colour the player already has takes nothing from the deck
    (no shuffle)."""
    deck = ["As", "DO", "Gm", "Gm"]
    s = duo(hand0="Os,Am,Gk", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="Om,Os", row1="-",
            doors0="DO", deck=deck, seed=6, shuffles=2)
    do(s, "play shared Om")               # third red of player 0, who has a red Door already
    assert codes(s.doors[0]) == ["DO"] and s.doors[1] == []
    assert s.shuffles == 2 and codes(s.deck) == deck[1:]


def test_duo_series_door_goes_to_the_active_player():
    """Ruling D5: "A Door obtained by a series or a Key goes to the active player"."""
    s = duo(turn=1, hand0="Os,Am,Gk", hand1="Ls,Lm,Ok", shared="Gs,Om", row0="-",
            row1="Om,Os", doors0="DO", deck="As,DO,Gm,Gm", seed=6, shuffles=2)
    do(s, "play Ok")
    assert codes(s.doors[1]) == ["DO"] and codes(s.doors[0]) == ["DO"]
    assert s.shuffles == 3


def test_duo_drawn_door_of_a_colour_already_held_goes_to_limbo():
    """Ruling D5: "a drawn Door cannot be keyed (it goes to limbo)" when the active player has
    that colour already."""
    s = duo(hand0="Os,Am,Ok", hand1="Ls,Lm,Lk", shared="Gs,Om", row0="-", row1="-",
            doors0="DO", deck="DO,As,Gm,Gm", seed=6, shuffles=2)
    do(s, "discard Os")
    assert s.phase == "play" and s.turn == 1
    assert codes(s.doors[0]) == ["DO"] and "Ok" in codes(s.hands[0])
    assert s.shuffles == 3 and deck_counts(s)[cards.INDEX["DO"]] == 1


def test_duo_door_key_from_own_or_shared_card():
    """rules/rulebook-zh.txt: "一張門卡：你可以馬上棄一張和門一樣的鑰匙牌" with D2 (the active hand is
    own + shared): a shared Key may pay for the Door."""
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Lk", shared="Ak,Om", row0="-", row1="-",
            deck="DA,As,Gm,Gm")
    do(s, "discard Os")
    assert s.phase == "door" and sorted(legal(s)) == ["door key shared", "door limbo"]
    do(s, "door key shared")
    assert codes(s.doors[0]) == ["DA"] and s.phase == "play" and s.turn == 1
    assert sorted(codes(s.shared)) == sorted(["Om", "Gm"])   # own (As) first, then shared


def test_duo_nightmare_door_only_own_doors():
    """Ruling D6: "Nightmare option "move one Door in play to limbo" takes one of the active
    player's Doors."; rules/rulebook-zh.txt: "將一張你獲得的門卡放進邊境堆" (one of *your* Doors)."""
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Lk", shared="Ak,Om", row0="-", row1="-",
            doors0="DG", doors1="DO,DA", deck="N,As,Gm,Gm")
    do(s, "discard Os")
    assert s.phase == "nightmare"
    acts = legal(s)
    assert "nightmare door DG" in acts
    assert "nightmare door DO" not in acts and "nightmare door DA" not in acts
    assert "nightmare key shared Ak" in acts
    s2 = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Lk", shared="As,Om", row0="-", row1="-",
             doors1="DO,DA", deck="N,As,Gm,Gm")
    do(s2, "discard Os")
    assert sorted(legal(s2)) == ["nightmare redraw", "nightmare reveal"]


# =============================================================================================
# End of the game (D7) and turns (D8)
# =============================================================================================
def test_duo_win_when_each_player_has_four_doors():
    """rules/rulebook-zh.txt: "2人遊戲：每位玩家必須擁有每種顏色的門各一張，也就是4張門同時在場上，則遊戲馬上結束(行動中的家
    不用補牌)。" (each player must have one Door of each colour; the game ends at once, the active
    player does not refill); the guide: "the two players must each have a red, blue, green and
    brown door." """
    s = duo(turn=1, hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Ls,Om", row0="-",
            row1="Ls,Lm", doors0="DO,DA,DG,DL", doors1="DO,DA,DG", deck="As,DL,Gm,Gm")
    do(s, "play shared Ls")
    assert s.phase == "won" and s.returns() == [1.0, 1.0]
    assert len(s.shared) == 1 and codes(s.deck) == ["As", "Gm", "Gm"]


def test_duo_seven_doors_do_not_win():
    """Ruling D7: the win needs all 8 Doors, four per player."""
    s = duo(turn=1, hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-",
            row1="Gs,Gm", doors0="DO,DA,DG", doors1="DO,DA,DL", deck="As,Gm,Lk,DG", seed=1)
    do(s, "play shared Gs")
    assert codes(s.doors[1]) == ["DO", "DA", "DG", "DL"]   # player 1 has its four
    assert not s.is_terminal() and s.turn == 0             # player 0 still lacks DL


def test_duo_loss_as_solo():
    """rules/rulebook-zh.txt: "失敗 如果你需要抽牌補充手牌，但牌庫沒有剩餘任何牌時。" (lost when a card must
    be drawn and the deck is empty); the guide: "Stock necessary impossible = common defeat." """
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-", row1="-",
            deck="-")
    assert not s.is_terminal()
    do(s, "play Os")
    assert s.phase == "lost" and s.returns() == [0.0, 0.0]


def test_duo_turns_alternate():
    """rules/guide-en-with-two-player.txt: "Play alternatively."; ruling D8: "Turns alternate 0,
    1, 0, ..." """
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-", row1="-",
            deck="As,Gm,Lk,As,Ls,Gm")
    seq = []
    for _ in range(4):
        seq.append(s.turn)
        a = [x for x in legal(s) if x.startswith("discard") and "swap" not in x
             and not x.endswith("k")][0]
        do(s, a)
    assert seq == [0, 1, 0, 1] and s.turn == 0


def test_duo_player_with_four_doors_keeps_playing():
    """rules/guide-en-with-two-player.txt: "The one who already has the four continues to play to
    help the other."; ruling D8."""
    s = duo(turn=1, hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-", row1="-",
            doors0="DO,DA,DG,DL", deck="As,Gm,Lk,As")
    do(s, "discard Ls")
    assert s.turn == 0 and s.phase == "play" and s.legal_actions()
    do(s, "play Os")
    assert codes(s.rows[0]) == ["Os"] and s.turn == 1


def test_duo_limbo_shuffled_at_end_of_turn():
    """rules/guide-en-with-two-player.txt: "When the hand is complete again, repels all the limbs
    in the Stock. Do not repel them before to avoid an empty Stock" -- the same end-of-turn
    limbo shuffle as solo (ruling B9)."""
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-", row1="-",
            deck="DG,As,Gm,Lk", seed=1, shuffles=9)
    do(s, "discard Os")
    assert s.limbo == [] and s.shuffles == 10
    assert codes(s.deck) == shuffled(["Gm", "Lk", "DG"], 1, 9)


def test_duo_illegal_actions_refused():
    """Ruling D2: the waiting player's cards cannot be used; an illegal action leaves the state
    unchanged."""
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Ak", shared="Gs,Om", row0="-", row1="-",
            deck="As,Gm")
    before = s.clone()
    for bad in ("play Ls", "discard Ak", "play shared Os", "draft Os", "door key"):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
        assert s == before


def test_duo_shared_key_discard_triggers_prophecy():
    """rules/rulebook-zh.txt: "如果棄掉的是鑰匙卡，則進行先預言，然後再進入2)抽牌。" (a discarded Key triggers a
    prophecy, then the refill) with ruling D2 (a shared card may be discarded): a shared Key
    discarded is a Key discarded in phase A."""
    s = duo(hand0="Os,Am,Gs", hand1="Ls,Lm,Lk", shared="Ak,Om", row0="-", row1="-",
            deck="N,As,Gm,Gm,Ls,Ls")
    do(s, "discard shared Ak")
    assert s.phase == "prophecy"
    do(s, "prophecy discard=N keep=Gm,As,Gm,Ls")
    assert sorted(codes(s.shared)) == sorted(["Om", "Gm"]) and s.turn == 1
