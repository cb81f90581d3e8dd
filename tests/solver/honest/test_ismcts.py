"""The ``ismcts`` policy (solver/policies/ismcts.py over solver/honest/ismcts.py): legal moves
in real games, deterministic, no search with one legal action, its table keyed by full keys
and left clear, and on small late positions it finds the exact expectimax's best move more
often than a random choice would (docs/POLICIES.md, "Information-set search")."""
from __future__ import annotations

import numpy as np
import pytest

from engine import Game
from engine.view import player_view
from solver.api import PolicyError, make_policy
from solver.honest import ismcts
from solver.honest.play import decision_stream
from solver.policies.endgame import unknown_cards


def _views(policy, seeds, limit=99):
    """(seed, i, view) along games played by ``policy``, views with at most ``limit`` unknown
    cards; the game goes on with the policy's own action."""
    for seed in seeds:
        s = Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            v = player_view(s)
            a = policy.act(v, decision_stream(seed, i))
            assert a in s.legal_actions()
            if unknown_cards(v) <= limit:
                yield seed, i, v, a
            s.apply_action(a)
            i += 1


@pytest.mark.parametrize("args", [{}, {"prior": 0.9, "cp": 2.0}, {"pw": 0.5, "c": 1.0, "z": 0}])
def test_legal_over_real_games(args):
    p = make_policy("ismcts", iters=48, **args)
    n = sum(1 for _ in _views(p, (0, 1)))
    assert n > 40


def test_same_view_and_stream_same_action():
    p = make_policy("ismcts", iters=200)
    q = make_policy("ismcts", iters=200)
    diff_stream = 0
    checked = 0
    for seed, i, v, a in _views(make_policy("greedy"), (3,)):
        if len(v.legal_actions()) < 3:
            continue
        st = decision_stream(seed, i)
        a1 = p.act(v, st)
        assert p.act(v, st) == a1 == q.act(v, st)       # a used workspace changes nothing
        diff_stream += p.act(v, st ^ 0x5555) != a1
        checked += 1
    assert checked >= 10


def test_one_legal_action_no_search(monkeypatch):
    p = make_policy("ismcts", iters=100)

    def boom(*a):
        raise AssertionError("searched a forced move")
    monkeypatch.setattr(ismcts, "search", boom)
    seen = 0
    for seed, i, v, a in _views(make_policy("greedy"), (28,)):   # deal 28: a forced play
        if len(v.legal_actions()) == 1:
            assert p.act(v, 7) == v.legal_actions()[0]
            seen += 1
    assert seen > 0


def test_table_full_keys_and_left_clear():
    # a table of 8 slots: colliding keys are told apart by the full key, never by the hash
    hp = np.full(8, -1, dtype=np.int64)
    he = np.zeros(8, dtype=np.int64)
    keys = [(p, e) for p in range(3) for e in (5, 3653, 3660)][:7]
    slots = []
    mask = np.uint64(7)
    for p, e in keys:
        s = ismcts._slot(hp, he, mask, p, e)
        assert hp[s] == -1
        hp[s], he[s] = p, e
        slots.append(s)
    assert len(set(slots)) == len(keys)
    for (p, e), s in zip(keys, slots):
        assert ismcts._slot(hp, he, mask, p, e) == s
    # after a search every slot it used is empty again, and it counted its nodes
    pol = make_policy("ismcts", iters=300)
    v = player_view(Game(1).new_initial_state(seed=4))
    pol.act(v, 1)
    assert (pol._ws[3] == -1).all()
    nodes, full, root_n, chosen_n = pol.last_stats
    assert root_n == 300 and nodes > 300 and full == 0 and 0 < chosen_n <= 300


def test_arguments_checked():
    with pytest.raises(PolicyError):
        make_policy("ismcts", iters=0)
    with pytest.raises(PolicyError):
        make_policy("ismcts", prior=1.5)
    with pytest.raises(PolicyError):
        make_policy("ismcts", base="nope")


def _late_positions(limit, count):
    """Views of greedy-keep-doors games (deals 100, 101, ...) with 2+ actions, at most
    ``limit`` unknown cards, and a best action that is not every action (exact values)."""
    from solver.expectimax.solver import Expectimax
    ex = Expectimax(table_bits=18)
    out = []
    g = make_policy("greedy-keep-doors")
    for seed, i, v, _ in _views(g, range(100, 160), limit):
        if len(v.legal_actions()) < 2:
            continue
        ex.clear()
        r = ex.rank(v, probes=False)
        if not all(a.exact for a in r.actions):
            continue
        vals = {a.action_id: a.lo for a in r.actions}
        top = max(vals.values())
        best = {a for a, x in vals.items() if x >= top - 1e-9}
        if len(best) == len(vals):
            continue
        out.append((seed, i, v, best, len(vals)))
        if len(out) >= count:
            break
    return out


@pytest.mark.slow
def test_finds_the_exact_best_more_often_than_chance():
    """On late positions (at most 7 unknown cards) where the actions differ in exact value,
    ismcts at 2,000 iterations plays an exactly best action more often than a uniformly
    random legal action would, by a margin: a floor it can miss.  (At most 7, not 8: the
    exact ranks of the 8-card positions were 23 of the test's 28 s of CPU; measured on
    deals 100-141, ismcts hits 37 of 40 against a floor of 28.3, greedy-keep-doors 30, a
    uniformly random choice 16.)"""
    pos = _late_positions(7, 40)
    assert len(pos) >= 30
    p = make_policy("ismcts", iters=2000)
    hits = sum(p.act(v, decision_stream(seed, i)) in best for seed, i, v, best, _ in pos)
    chance = sum(len(best) / n for _, _, _, best, n in pos)
    assert hits >= chance + 0.25 * len(pos), (hits, chance, len(pos))
