"""Two-player honest play: the duo view (engine.view.player_view) holds exactly what the
active player may know, and no two-player policy reads the partner's hand or the deck order:
dealing the partner's hand and the unknown deck cards differently changes neither the view nor
any decision, given the same stream.  Also the duo rollout's playouts and candidates."""
from __future__ import annotations

import random

import pytest

from engine import Game
from engine import cards
from engine import game
from engine.errors import GameConfigError
from engine.policy import greedy_action
from engine.notation import parse_view
from engine.view import (_minus, known_cards, known_top, observation_text, player_view,
                         prophecy_seer, sample_position)
from duo_kit import redeal_unseen
from solver.api import PolicyError, make_policy
from solver.duo.honest import candidates, duo_greedy_plus_action, playout, playout_checked
from solver.honest.play import decision_stream, play_honest

DUO_POLICIES = [("greedy", {}), ("duo-greedy-plus", {}),
                ("duo-rollout", {"n": 2, "screen": 0}),
                ("duo-silent-switch", {"base": "duo-krollout:n=8,screen=0", "unknown": 8,
                                       "worlds": 16, "budget_nodes": 20_000})]


def _positions(n_games, seed0=0, every=1, explore=0.0):
    """Decision points along two-player greedy games (deal-mode states); with ``explore``,
    that share of the actions is random (more prophecies and exchanges)."""
    rnd = random.Random(seed0)
    for seed in range(seed0, seed0 + n_games):
        s = Game(2).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            if i % every == 0:
                yield seed, i, s.clone()
            a = greedy_action(s)
            if rnd.random() < explore:
                a = rnd.choice(s.legal_actions())
            s.apply_action(a)
            i += 1


def _redealt(state, rnd):
    return redeal_unseen(state, rnd)


def test_the_duo_view_holds_what_the_player_may_know():
    n = 0
    for seed, i, s in _positions(12, explore=0.1):
        v = player_view(s)
        me, partner = s.turn, 1 - s.turn
        k = known_top(s) if prophecy_seer(s) == me else 0   # a partner's prophecy: unseen
        assert v.viewer == me and v.seed is None
        known = known_cards(s, partner)
        assert v.hands[me] == s.hands[me] and v.hands[partner] == known
        assert v.hidden == len(s.hands[partner]) - len(known)
        assert v.shared == s.shared and v.rows == s.rows and v.doors == s.doors
        assert v.discard == s.discard and v.limbo == s.limbo and v.drawn == s.drawn
        assert v.deck == s.deck[:k]
        unknown = [0] * cards.NUM_TYPES
        for c in s.deck[k:] + _minus(s.hands[partner], known):
            unknown[c] += 1
        assert v.unknown == unknown     # the deck's unseen part + the partner's unknown cards
        assert v.deck_size() == s.deck_size()
        assert v.legal_actions() == s.legal_actions()
        assert all(a < 10000 for a in v.history())  # no draws
        assert v.clone() == v and type(v.clone()) is type(v)
        n += 1
    assert n > 400


def test_the_prophecy_seer_is_the_player_who_made_the_latest_prophecy():
    """Tracked along games (with random Key discards, so prophecies are many): the known top
    cards are in the view of the player who made the prophecy, and in no other."""
    rnd = random.Random(8)
    hidden = shown = 0
    for seed in range(60):
        s = Game(2).new_initial_state(seed=seed)
        seer = None
        while not s.is_terminal():
            if s.phase == "prophecy":
                seer = s.turn
            if known_top(s) > 0:
                assert prophecy_seer(s) == seer
                for p in (0, 1):
                    obs = s.observation_string(p)
                    deck = obs.split("deck=")[1].split()[0]
                    if p == seer:
                        assert deck.split(",")[:known_top(s)] != ["*"]
                    else:
                        assert deck == "*"
                if seer == s.turn:
                    shown += 1
                    assert player_view(s).deck == s.deck[:known_top(s)]
                else:
                    hidden += 1
                    assert player_view(s).deck == []
            a = greedy_action(s)
            keys = [x for x in s.legal_actions()
                    if game.DISCARD <= x < game.SWAP and cards.is_key((x - game.DISCARD) % 12)]
            if keys and rnd.random() < 0.3:
                a = rnd.choice(keys)
            s.apply_action(a)
    assert hidden > 100 and shown > 100


def test_a_duo_view_is_not_a_position():
    s = Game(2).new_initial_state(seed=3)
    v = player_view(s)
    with pytest.raises(GameConfigError):
        v.apply_action(v.legal_actions()[0])
    with pytest.raises(GameConfigError, match="no player"):
        player_view(s, 2)


def test_redealing_the_hidden_cards_changes_no_view():
    rnd = random.Random(4)
    partner_changed = 0
    for seed, i, s in _positions(15):
        t = _redealt(s, rnd)
        if t.hands[1 - s.turn] != s.hands[1 - s.turn]:
            partner_changed += 1
        assert player_view(t) == player_view(s)
        assert player_view(t).history() == player_view(s).history()
    assert partner_changed > 300


@pytest.mark.parametrize("name, args", DUO_POLICIES)
def test_no_duo_policy_decision_depends_on_the_hidden_cards(name, args):
    """The partner's hand and the deck order are dealt again; every decision stays."""
    policy = make_policy(name, **args)
    rnd = random.Random(11)
    n = 0
    every = 7 if name == "duo-rollout" else 2
    searched = 0
    for seed, i, s in _positions(3, seed0=200, every=every, explore=0.2):
        stream = decision_stream(seed, i)
        a = policy.act(player_view(s), stream)
        assert a in s.legal_actions()
        searched += getattr(policy, "last", None) in ("mean", "tie", "margin")
        for _ in range(2):
            assert policy.act(player_view(_redealt(s, rnd)), stream) == a
        n += 1
    assert n > 15
    assert searched > 0 or name != "duo-silent-switch"     # its end-game rule was checked


def test_the_redeal_would_catch_a_leak():
    """The check above can fail: a 'policy' reading the partner's real hand does change."""
    rnd = random.Random(3)
    changed = 0
    for seed, i, s in _positions(5, every=3):
        t = _redealt(s, rnd)
        if t.hands[1 - s.turn] != s.hands[1 - s.turn]:
            changed += 1
    assert changed > 20


def test_greedy_decides_the_same_from_the_view():
    """greedy reads nothing hidden, so it decides the same on the view and on the state;
    greedy's two-player games through play_honest are the engine's greedy games."""
    for seed, i, s in _positions(6, seed0=40):
        v = player_view(s)
        assert greedy_action(v) == greedy_action(s)
        assert duo_greedy_plus_action(v) == duo_greedy_plus_action(s)
    g = play_honest(make_policy("greedy"), 7, players=2)
    s = Game(2).new_initial_state(seed=7)
    while not s.is_terminal():
        s.apply_action(greedy_action(s))
    assert g.actions == s.history() and g.won == s.won()


def test_sample_position_is_consistent_with_the_view():
    rnd = random.Random(9)
    for seed, i, s in _positions(4, seed0=60, every=5):
        v = player_view(s)
        p = sample_position(v, rnd)
        partner = 1 - s.turn
        assert p.seed is None and p.players == 2
        assert len(p.hands[partner]) == len(s.hands[partner])
        assert all(cards.is_location(c) for c in p.hands[partner])
        assert p.deck_size() == s.deck_size()
        assert not _minus(v.hands[partner], p.hands[partner])    # the known cards kept
        total = list(p.unknown)
        for c in _minus(p.hands[partner], v.hands[partner]):
            total[c] += 1
        assert total == v.unknown
        assert p.legal_actions() == s.legal_actions()


def test_fast_playout_is_the_checked_playout():
    """playout() skips apply_action's legality check: the same positions and draws give the
    same end through apply_action."""
    rnd = random.Random(1)
    n = 0
    for seed, i, s in _positions(4, seed0=80, every=9):
        p = sample_position(player_view(s), rnd)
        for base in (greedy_action, duo_greedy_plus_action):
            r = random.Random(seed * 1000 + i)
            a = p.clone()
            doors = playout(a, base, r)
            b = p.clone()
            assert playout_checked(b, base, random.Random(seed * 1000 + i)) == doors
            assert a == b
            n += 1
    assert n > 10


def test_candidates():
    found = {"play": 0, "prophecy": 0}
    for seed, i, s in _positions(20, seed0=120, explore=0.3):
        if s.phase not in found:
            continue
        v = player_view(s)
        b = duo_greedy_plus_action(v)
        cs = candidates(v, b)
        assert cs[0] == b and len(set(cs)) == len(cs) and set(cs) <= set(s.legal_actions())
        if s.phase == "prophecy":
            k = min(5, s.deck_size())
            # one order of the kept cards per discarded card (plus the base action)
            rest = [s.deck[(a - game.PROPHECY) // 24] for a in cs[1:]]
            assert len(cs) <= k + 1 and len(set(rest)) == len(rest)
        else:
            # every play and every plain discard; exchanges only of the base's discard
            assert {a for a in s.legal_actions() if a < game.SWAP} <= set(cs)
            for a in cs:
                if a >= game.SWAP:
                    assert game.DISCARD + (a - game.SWAP) // 144 == b
        found[s.phase] += 1
    assert found["play"] > 100 and found["prophecy"] > 3


def test_duo_policies_refuse_solo_views_and_solo_policies_duo_views():
    solo = player_view(Game(1).new_initial_state(seed=1))
    duo = player_view(Game(2).new_initial_state(seed=1))
    for name in ("duo-greedy-plus", "duo-rollout"):
        with pytest.raises(PolicyError):
            make_policy(name).act(solo, 0)
    with pytest.raises(PolicyError):
        make_policy("greedy-plus").act(duo, 0)
    with pytest.raises(PolicyError):
        make_policy("duo-rollout", base="nope")
    with pytest.raises(PolicyError):
        make_policy("duo-rollout", swaps="some")


def test_duo_rollout_is_a_function_of_view_and_stream():
    p = make_policy("duo-rollout", n=3, screen=0)
    q = make_policy("duo-rollout", n=3, screen=0)
    for seed, i, s in _positions(1, seed0=300, every=6):
        v = player_view(s)
        st = decision_stream(seed, i)
        assert p.act(v, st) == q.act(player_view(s), st)


# ------------------------------------------------------------ the partner's cards a view knows
def _involves(state, a):
    """The cards a decision of the active player takes out of its own hand (played,
    discarded, given by an exchange, spent as a Key), or None for the whole hand (the
    Nightmare's 'discard the hand')."""
    if state.phase == "play":
        zone, c, swap = game._turn_action(a)
        return ([c] if zone == 0 else []) + ([swap[0]] if swap else [])
    if state.phase == "door" and a == game.DOOR_KEY:
        return [cards.key_of(cards.colour(state.drawn))]
    if state.phase == "nightmare" and a < game.NM_DOOR:
        zone, col = divmod(a - game.NM_KEY, 4)
        return [cards.key_of(col)] if zone == 0 else []
    if state.phase == "nightmare" and a == game.NM_REDRAW:
        return None
    return []


def test_the_silent_view_remembers_the_partner_cards_it_saw_until_they_leave():
    """Along games with random moves: what a view lists of the partner's hand is always in
    that hand (no card claimed wrongly); after the draft it is the whole hand (all three were
    taken face up); it changes only with the partner's own decisions (never with the viewer's
    or with draws), and a listed card stays listed until the partner plays, discards, gives
    or spends a card of its type (no forgetting)."""
    rnd = random.Random(21)
    kept = dropped = taken = 0
    for seed in range(40):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            before = [player_view(s, p).hands[1 - p] for p in (0, 1)]
            for p in (0, 1):
                assert not _minus(before[p], s.hands[1 - p])     # listed: really held
            if s.phase == "play" and not s.history()[6:]:
                assert before == [s.hands[1], s.hands[0]]       # the draft: all known
            a = rnd.choice(s.legal_actions()) if rnd.random() < 0.3 else greedy_action(s)
            actor, out = s.turn, _involves(s, a)
            s.apply_action(a)
            after = [player_view(s, p).hands[1 - p] for p in (0, 1)]
            assert after[actor] == before[actor]      # the actor's own move: not its partner's
            k0, k1 = before[1 - actor], after[1 - actor]        # the actor's partner watches
            if out is None:
                assert k1 == []
                continue
            for c in set(k0):
                if c in out:
                    assert k1.count(c) >= k0.count(c) - out.count(c)
                    dropped += k1.count(c) < k0.count(c)
                else:
                    assert k1.count(c) >= k0.count(c)
                    kept += 1
            taken += len(k1) > len(k0)
    assert dropped > 100 and kept > 1000 and taken > 50


def test_the_draft_of_deal_5_stays_listed():
    """The issue's example: player 1 drafts Ok, As, As from the face-up centre; player 0's
    view lists them (``hand1=Ok,As,As``) until player 1 moves one of them away."""
    s = Game(2).new_initial_state(seed=5)
    while s.phase == "draft":
        s.apply_action(s.legal_actions()[0])        # the first card of the centre
    assert "hand1=Ok,As,As " in s.observation_string(0) and "view=0" in s.observation_string(0)
    s.apply_action(greedy_action(s))                      # player 0's first turn
    while s.turn == 0 and not s.is_terminal():
        s.apply_action(greedy_action(s))
    assert s.turn == 1
    assert player_view(s, 0).hands[1] == sorted(cards.INDEX[c] for c in ("Ok", "As", "As"))
    s.apply_action(s.string_to_action("play As"))        # from player 1's own cards
    v = player_view(s, 0)
    assert v.hands[1] == sorted(cards.INDEX[c] for c in ("Ok", "As"))
    assert v.hidden == len(s.hands[1]) - 2


def test_the_open_view_knows_the_whole_partner_hand():
    for seed, i, s in _positions(8, explore=0.1):
        v = player_view(s, talk="open")
        assert v.hands == s.hands and v.hidden == 0
        obs = observation_text(s, talk="open")
        assert "?" not in obs and f"view={s.turn}" in obs
        assert parse_view(obs) == v
    with pytest.raises(GameConfigError, match="two-player"):
        player_view(Game(1).new_initial_state(seed=0), talk="open")
    with pytest.raises(GameConfigError, match="talk"):
        player_view(Game(2).new_initial_state(seed=0), talk="loud")


@pytest.mark.parametrize("talk", ["none", "open"])
def test_views_parse_back_with_the_known_partner_cards(talk):
    n = 0
    for seed, i, s in _positions(6, seed0=70, every=3, explore=0.2):
        for p in (0, 1):
            v = player_view(s, p, talk)
            obs = observation_text(s, p, talk)
            assert parse_view(obs) == v and observation_text(v) == obs
            n += 1
    assert n > 100


@pytest.mark.parametrize("talk", ["none", "open"])
def test_redealing_what_the_player_cannot_know_changes_no_view(talk):
    """The hidden-order test for both modes: the open game redeals the deck only, the silent
    game also the partner cards it did not see taken."""
    rnd = random.Random(4)
    partner_changed = 0
    for seed, i, s in _positions(15):
        t = redeal_unseen(s, rnd, talk)
        if t.hands[1 - s.turn] != s.hands[1 - s.turn]:
            partner_changed += 1
        assert player_view(t, talk=talk) == player_view(s, talk=talk)
        assert player_view(t, talk=talk).history() == player_view(s, talk=talk).history()
    assert (partner_changed > 150) if talk == "none" else partner_changed == 0


def test_the_memory_redeal_would_catch_a_view_that_forgot_or_leaked():
    """The redeal of the silent game keeps the cards seen taken: a view that forgot them
    (listing ``?``) would equal a redeal that changed them, and one that listed the partner's
    unseen cards would differ."""
    rnd = random.Random(9)
    known_kept = unseen_changed = 0
    for seed, i, s in _positions(20, explore=0.2):
        p = 1 - s.turn
        t = redeal_unseen(s, rnd)
        k = known_cards(s, p)
        assert not _minus(k, t.hands[p])
        known_kept += bool(k)
        unseen_changed += _minus(t.hands[p], k) != _minus(s.hands[p], k)
    assert known_kept > 100 and unseen_changed > 50
