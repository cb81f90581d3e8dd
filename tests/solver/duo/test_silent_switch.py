"""duo-silent-switch (solver/duo/silent_switch.py): late in a silent deal it plays the action
whose open-hands value, averaged over the possible partner hands with their probabilities,
is the largest (a heuristic); elsewhere the base.  Its decisions are a function of the view
and the stream (the hidden-order test redeals what the player cannot know)."""
from __future__ import annotations

import json
import random

import pytest

from duo_kit import redeal_unseen
from engine import Game
from engine.policy import greedy_action
from engine.view import dealt_position, player_view
from solver.api import PolicyError, make_policy
from solver.duo.open_hands import DuoExpectimax
from solver.duo.open_switch import deck_unknown
from solver.duo.silent_switch import settled, top_actions
from solver.duo.view_rank import _count_hands, partner_hands
from solver.honest.play import decision_stream
from winrate_kit import onirim

BASE = "duo-krollout:n=8,screen=0"


def _switch(**kw):
    args = {"base": BASE, "unknown": 8, "worlds": 8, "budget_nodes": 20_000}
    args.update(kw)
    return make_policy("duo-silent-switch", **args)


def _late_views(n_games, max_unknown=8, max_worlds=8, seed0=400):
    """(seed, decision index, state) of two-player greedy games whose silent view (of the
    player to move) has at most ``max_unknown`` unknown deck cards and at most ``max_worlds``
    possible partner hands, with two legal actions or more."""
    for seed in range(seed0, seed0 + n_games):
        s = Game(2).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            v = player_view(s)
            if (len(s.legal_actions()) > 1 and deck_unknown(v) <= max_unknown
                    and _count_hands(v, max_worlds) <= max_worlds):
                yield seed, i, s.clone()
            s.apply_action(greedy_action(s))
            i += 1


def test_the_score_is_the_weighted_open_hands_value_computed_by_hand():
    """On small silent views with several possible partner hands, the policy's score of each
    action is sum_k P(k) * (hand k's exact open-hands value, Python search without budget),
    and it plays an action of the largest score."""
    checked = 0
    for seed, i, s in _late_views(30, max_unknown=5, max_worlds=4):
        v = player_view(s)
        hands = partner_hands(v)
        if len(hands) < 2 or v.hidden == 0:
            continue
        want = {a: 0.0 for a in v.legal_actions()}
        for hand, p in hands:
            for x in DuoExpectimax().rank(dealt_position(v, hand)).actions:
                assert x.exact
                want[x.action_id] += p * x.value
        sw = _switch(budget_nodes=5_000_000, margin=0.0)
        a = sw.act(v, decision_stream(seed, i))
        score, finished = sw.scored
        assert finished and set(score) == set(want)
        for k in want:
            assert abs(score[k] - want[k]) < 1e-9
        assert sw.last in ("mean", "tie")
        assert want[a] >= max(want.values()) - 1e-9
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_a_decision_is_a_function_of_view_and_stream():
    done = 0
    for seed, i, s in _late_views(6):
        v = player_view(s)
        stream = decision_stream(seed, i)
        one, two = _switch(), _switch()
        a = one.act(v, stream)
        assert a in s.legal_actions()
        assert one.act(v, stream) == a and two.act(player_view(s.clone()), stream) == a
        done += one.last in ("mean", "tie", "margin", "settled")
    assert done >= 5


def test_no_decision_depends_on_what_the_player_cannot_know():
    """The silent game's hidden-order test on end-game views: the partner's unseen cards and
    the deck below the known top are dealt again; no decision changes."""
    sw = _switch()
    rnd = random.Random(7)
    searched = changed = 0
    for seed, i, s in _late_views(8):
        stream = decision_stream(seed, i)
        a = sw.act(player_view(s), stream)
        searched += sw.last in ("mean", "tie", "margin", "settled")
        for _ in range(2):
            t = redeal_unseen(s, rnd)
            changed += t.hands != s.hands or t.deck != s.deck
            assert sw.act(player_view(t), stream) == a
    assert searched >= 10 and changed >= 10


def test_outside_its_domain_it_plays_the_base():
    base = make_policy("duo-krollout", n=8, screen=0)
    few = _switch(unknown=0)                  # only views with an empty deck
    one = _switch(worlds=1)                   # only views with one possible partner hand
    n = n_one = 0
    for seed, i, s in _late_views(8):
        v = player_view(s)
        stream = decision_stream(seed, i)
        if deck_unknown(v) > 0:
            assert few.act(v, stream) == base.act(v, stream) and few.last == "base"
            n += 1
        one.act(v, stream)
        if _count_hands(v, 1) > 1:
            assert one.last == "base"
            n_one += 1
    assert n > 10 and n_one > 0
    early = player_view(Game(2).new_initial_state(seed=3))
    assert _switch().act(early, 5) == base.act(early, 5)


def test_fallback_base_and_margin_keep_the_base_action():
    """With a budget too small to finish, fallback=base plays the base; with a margin of 1 no
    score can leave the base's action."""
    base = make_policy("duo-krollout", n=8, screen=0)
    starved, sure = _switch(budget_nodes=1, fallback="base"), _switch(margin=1.0)
    unfinished = 0
    # (the greedy games' late views are mostly lost: since the search's last-turns bound
    # F_LAST a 1-node search proves most of them exact ties at 0; 2 stay unfinished)
    for seed, i, s in _late_views(8):
        v = player_view(s)
        stream = decision_stream(seed, i)
        b = base.act(v, stream)
        assert sure.act(v, stream) == b
        if starved.act(v, stream) != b:
            assert starved.last == "tie"   # an exact tie the base is not in
        unfinished += starved.last == "unfinished"
    assert unfinished >= 2


def _played_late_views(n_games, seed0=400):
    """(seed, decision index, state) of the end-game views (as :func:`_late_views`, at most 6
    unknown deck cards) of the two-player games duo-krollout2 wins (a winning team's late
    views have actions of different values, where a greedy game's are mostly lost)."""
    play = make_policy("duo-krollout2")
    for seed in range(seed0, seed0 + n_games):
        s = Game(2).new_initial_state(seed=seed)
        i, late = 0, []
        while not s.is_terminal():
            v = player_view(s)
            if (len(s.legal_actions()) > 1 and deck_unknown(v) <= 6
                    and _count_hands(v, 8) <= 8):
                late.append((seed, i, s.clone()))
            s.apply_action(play.act(v, decision_stream(1, i)))
            i += 1
        if s.won():
            yield from late


def test_the_pruned_loop_decides_as_the_unpruned_loop():
    """prune=true stops the hands' loop at the first unfinished hand (fallback=base) or once
    the base's action is settled (scores' argument); every decision is the unpruned loop's,
    and both stops happen, on fewer nodes."""
    views = list(_played_late_views(20))
    assert len(views) >= 15
    stops = {}
    for kw in ({}, {"fallback": "mid"}, {"margin": 0.2}):
        pruned, full = _switch(**kw), _switch(prune=False, **kw)
        for seed, i, s in views:
            v = player_view(s)
            stream = decision_stream(seed, i)
            assert pruned.act(v, stream) == full.act(v, stream)
            assert full.stopped is None
            stops[pruned.stopped] = stops.get(pruned.stopped, 0) + 1
            assert (pruned.last == "settled") == (pruned.stopped == "settled")
        assert pruned.solver.nodes < full.solver.nodes
    assert stops.get("settled", 0) >= 3 and stops.get("unfinished", 0) >= 2


def test_settled_holds_for_every_value_the_hands_left_can_add():
    """settled(score, b, rest, margin) true: whatever values in [0, 1] the hands of mass
    ``rest`` add (the extremes: every other action +rest, b +0), the decision rule keeps b
    (b among the largest scores, or the largest at most ``margin`` above b's).  And it is
    not vacuous: it is true on some draws, and false as soon as some action can pass b by
    more than the margin."""
    rnd = random.Random(11)
    true = 0
    for _ in range(3000):
        n = rnd.randint(2, 6)
        score = {a: rnd.random() * 0.6 for a in range(n)}
        b = rnd.randrange(n)
        rest, margin = rnd.random() * 0.3, rnd.choice([0.01, 0.05, 0.2])
        ok = settled(score, b, rest, margin)
        for a in score:            # the worst completion for b: a gains all the rest
            final = {x: v + (rest if x == a and a != b else 0.0) for x, v in score.items()}
            keeps = b in top_actions(final) or final[top_actions(final)[0]] <= final[b] + margin
            if ok:
                assert keeps
        worst = max(v + rest for a, v in score.items() if a != b)
        assert ok == (worst <= score[b] + margin - 1e-9)
        true += ok
    assert 100 < true < 2900


def test_refuses_solo_views_and_bad_arguments():
    with pytest.raises(PolicyError):
        _switch().act(player_view(Game(1).new_initial_state(seed=0)), 0)
    for bad in ({"fallback": "coin"}, {"base": "duo-silent-switch"}, {"worlds": 0},
                {"margin": -0.1}, {"margin": float("nan")}, {"unknown": -1}):
        with pytest.raises(PolicyError):
            _switch(**bad)


def test_winrate_plays_it_by_name(tmp_path):
    r = onirim("winrate", "--mode", "honest", "--players", "2", "--policy",
               "duo-silent-switch", "--policy-arg", "base=duo-krollout:n=4,screen=0",
               "--deals", "3", "--db", "d.sqlite", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["policy"] == "duo-silent-switch" and out["talk"] == "none"
    assert out["deals"] == 3
