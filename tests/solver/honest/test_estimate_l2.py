"""solver.honest.estimate_l2 (level-2 estimates against a deadline) and the choice of
estimator in solver.honest.estimate.estimate_actions (issue 29 item 3).  No timing is
asserted: a smaller budget must give fewer playouts, and a playout cap the same answer."""
from __future__ import annotations

import random
import time

import numpy as np
import pytest

from engine import rng
from engine.game import Game
from engine.policy import keep_doors_action
from engine.view import player_view
from honest_kit import permute_unseen
from solver.honest import estimate
from solver.honest import estimate_l2 as L


def late_state(seed: int, left: int = 12):
    """The live game at the first play phase of greedy-keep-doors' deal ``seed`` with
    ``left`` or fewer deck cards and two legal actions or more (None if the game ends)."""
    s = Game(1).new_initial_state(seed)
    while not s.is_terminal():
        if (s.phase == "play" and s.deck_size() <= left and not s.is_chance_node()
                and len(s.legal_actions()) > 1):
            return s
        s.apply_action(keep_doors_action(s))
    return None


@pytest.fixture(scope="module")
def late():
    s = next(x for x in (late_state(seed) for seed in range(20)) if x is not None)
    view = player_view(s)
    L.prepare(view)                     # compiled or loaded before anything is timed
    return s, view


def _rows(est):
    return {a: (e.estimate, e.ci95, e.playouts) for a, e in est.by_action.items()}


def test_a_cap_gives_the_same_answer_twice_and_names_the_estimator(late):
    _, v = late
    acts = v.legal_actions()
    a = L.l2_estimates(v, acts, None, 11, max_playouts=12)
    b = L.l2_estimates(v, acts, None, 11, max_playouts=12)
    assert _rows(a) == _rows(b) and a.playouts == 12
    assert a.estimator == "level-2" and a.policy == L.POLICY
    assert a.describe()["estimator"] == "level-2"
    for e in a.by_action.values():
        assert e.playouts == 12
        assert 0 <= e.ci95[0] <= e.estimate <= e.ci95[1] <= 1
        assert round(e.estimate * 12) == pytest.approx(e.estimate * 12)
    c = L.l2_estimates(v, acts, None, 12, max_playouts=12)     # another stream
    d = L.l2_estimates(v, acts, None, 11, max_playouts=24)
    assert a.by_action.keys() == c.by_action.keys() == d.by_action.keys()
    # the first 12 of 24 playouts are the 12 of the cap (round r: stream word(key, r))
    first = {x: 0 for x in acts}
    rounds = L._Rounds(v, L.INNER)
    for r in range(12):
        for x, w in rounds.run(L._key(11), r).items():
            first[x] += w
    assert {x: first[x] / 12 for x in acts} == {x: e.estimate for x, e in a.by_action.items()}


def test_the_rounds_are_the_kernel_of_strong(late):
    """A round is strong.estimate_all_l2 with one playout on stream word(key, r)."""
    from solver.honest import kernel as HK
    from solver.honest import strong
    _, v = late
    S = HK.encode(v)
    acts = np.zeros(HK.MAX_LEGAL, dtype=np.int64)
    res = np.zeros((HK.MAX_LEGAL, 1), dtype=np.int8)
    key = L._key(5)
    m = strong.estimate_all_l2(S, np.int64(1), np.uint64(rng.word(key, 3)), acts, res,
                               np.int64(L.INNER), np.float64(L.Z1), np.int64(L.SCREEN1),
                               np.int64(L.KEEP1), np.int64(strong.KEEP_DOORS))
    assert L._Rounds(v, L.INNER).run(key, 3) == {int(acts[i]): int(res[i, 0])
                                                  for i in range(m)}


def test_the_deadline_stops_it_and_its_count_replays(late):
    _, v = late
    acts = v.legal_actions()
    small = L.l2_estimates(v, acts, time.perf_counter() + 0.02, 3)
    large = L.l2_estimates(v, acts, time.perf_counter() + 0.6, 3)
    assert 1 <= small.playouts < large.playouts
    # what a deadline allowed, a cap of the same count gives exactly
    again = L.l2_estimates(v, acts, None, 3, max_playouts=small.playouts)
    assert _rows(again) == _rows(small)
    # the cap also holds under a deadline; at least min_playouts whatever the clock says
    assert L.l2_estimates(v, acts, time.perf_counter() + 60, 3, max_playouts=4).playouts == 4
    assert L.l2_estimates(v, acts, time.perf_counter() - 1, 3, min_playouts=2).playouts == 2


def test_the_hidden_order_does_not_matter(late):
    """Reshuffle what the player does not know: the same estimates and the same leader."""
    s, v = late
    acts = v.legal_actions()
    base = L.l2_estimates(v, acts, None, 7, max_playouts=10)
    lead = max(acts, key=lambda a: base.by_action[a].estimate)
    rnd = random.Random(29)
    for _ in range(3):
        t = permute_unseen(s, rnd)
        w = player_view(t)
        got = L.l2_estimates(w, w.legal_actions(), None, 7, max_playouts=10)
        assert _rows(got) == _rows(base)
        assert max(acts, key=lambda a: got.by_action[a].estimate) == lead
        via = estimate.estimate_actions(w, w.legal_actions(), None, 7, max_playouts=10, level=2)
        assert _rows(via) == _rows(base)


def test_bad_arguments(late):
    from solver.errors import PolicyError
    _, v = late
    with pytest.raises(ValueError):
        L.l2_estimates(v, v.legal_actions(), None, 0)
    with pytest.raises(PolicyError):
        L.l2_estimates(v, v.legal_actions(), None, 0, max_playouts=0)
    with pytest.raises(ValueError):
        estimate.estimate_actions(v, v.legal_actions(), None, 0, max_playouts=4, level=3)


# ----------------------------------------------------------------------- the choice
def test_a_playout_budget_level_2_late_level_1_early(late):
    """Without a deadline: level 2 with the playouts asked for when few cards are unknown
    (the same answer as level=2), level 1 early in a game."""
    _, v = late
    acts = v.legal_actions()
    assert sum(v.unknown) <= estimate.L2_PLAYOUT_UNKNOWN
    a = estimate.estimate_actions(v, acts, None, 0, max_playouts=8)
    assert a.estimator == "level-2" and a.playouts == 8
    assert _rows(a) == _rows(estimate.estimate_actions(v, acts, None, 0, max_playouts=8, level=2))
    first = player_view(Game(1).new_initial_state(seed=0))
    assert sum(first.unknown) > estimate.L2_PLAYOUT_UNKNOWN
    b = estimate.estimate_actions(first, first.legal_actions(), None, 0, max_playouts=32)
    assert b.estimator == "level-1" and b.policy == estimate.POLICY and b.playouts == 32


def test_little_time_level_1(late):
    _, v = late
    b = estimate.estimate_actions(v, v.legal_actions(), time.perf_counter() + estimate.L2_MIN_S / 4, 0)
    assert b.estimator == "level-1" and b.note is None


def test_level_2_when_it_fits(late, monkeypatch):
    _, v = late
    acts = v.legal_actions()
    monkeypatch.setattr(estimate, "L2_RATIO", 1e-9)         # any first round may be tried
    monkeypatch.setattr(estimate, "L2_MIN_PLAYOUTS", 2)     # and two rounds are enough
    e = estimate.estimate_actions(v, acts, time.perf_counter() + 0.5, 0)
    assert e.estimator == "level-2" and e.policy == L.POLICY and e.playouts >= 1
    assert e.describe()["estimator"] == "level-2" and "note" not in e.describe()


def test_level_1_with_a_note_when_level_2_does_not_fit(late, monkeypatch):
    _, v = late
    acts = v.legal_actions()
    monkeypatch.setattr(estimate, "L2_RATIO", 1e12)         # a round would never fit
    e = estimate.estimate_actions(v, acts, time.perf_counter() + 0.4, 0)
    assert e.estimator == "level-1" and "not tried" in e.note
    assert e.describe()["note"] == e.note
    monkeypatch.setattr(estimate, "L2_RATIO", 1e-9)
    monkeypatch.setattr(estimate, "L2_MIN_PLAYOUTS", 1 << 30)   # tried, but too few would fit
    e = estimate.estimate_actions(v, acts, time.perf_counter() + 0.4, 0)
    assert e.estimator == "level-1" and "not used" in e.note
    # both level-1 phases are pooled: whole playouts, one count for every action
    for x in e.by_action.values():
        assert x.playouts == e.playouts and x.estimate * e.playouts == pytest.approx(
            round(x.estimate * e.playouts))
