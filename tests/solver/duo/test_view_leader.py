"""``onirim best``'s leader on a two-player player's view (mode duo-view,
solver/duo/view_rank.py): the decision of the view's default policy (the rollout policy
``view_rank.leader_policy`` names, by its own search, with that search's estimates; late in a
silent deal the default end-game rule's decision, ``view_rank.end_rule``); under a node budget
the same answer every time and no search past the budget; under a time budget the policy's own
decision first, whatever the time."""
from __future__ import annotations

import json

import pytest

from engine.game import Game
from engine.policy import greedy_action
from engine.view import player_view

from solver.api import make_policy
from solver.duo import view_rank
from solver.duo.view_rank import DuoViewRank, _view_stream, leader_policy, next_playouts


def _views(seeds=(3, 8), every=7, limit=60):
    """Decision views with several legal actions from greedy games, early and mid game (the
    open-hands bound is not tried there: nothing is proven lost)."""
    out = []
    for seed in seeds:
        s = Game(2).new_initial_state(seed=seed)
        k = 0
        while not s.is_terminal() and k < limit:
            v = player_view(s)
            if (len(s.legal_actions()) > 2 and k % every == 0 and s.deck_size() > 20
                    and v.hidden):                 # the silent game's leader (view_talk)
                out.append(v)
            s.apply_action(greedy_action(s))
            k += 1
    return out


def _without_time(d):
    if isinstance(d, dict):
        return {k: _without_time(v) for k, v in d.items() if k != "seconds"}
    if isinstance(d, list):
        return [_without_time(x) for x in d]
    return d


@pytest.mark.parametrize("args", [dict(n=16, screen=4, keep=2), dict(n=8, screen=0)])
def test_next_playouts_is_what_the_larger_search_plays(args):
    """The node budget's rule knows the next search's playouts before running it."""
    pol = make_policy("duo-krollout", **args)
    checked = 0
    for i, v in enumerate(_views()):
        small = pol.search(v, 100 + i, n=pol.n)
        big = pol.search(v, 100 + i, n=4 * pol.n)
        assert next_playouts(pol, small, pol.n) == big.playouts
        checked += small.playouts > 0
    assert checked >= 4


def test_the_leader_is_the_default_policys_decision_with_its_estimates():
    """Outside the end game the silent default (an end-game rule) plays its base, the
    rollout policy whose search best runs."""
    rule = view_rank.end_rule()
    assert rule.name == view_rank.DEFAULT_DUO_POLICY
    pol = leader_policy(None)
    assert pol is rule.base and pol.name == "duo-kcut"
    for v in _views()[:3]:
        assert not rule.in_domain(v) and rule.act(v, _view_stream(v)) == pol.act(
            v, _view_stream(v))
        r = DuoViewRank().rank(v, budget_nodes=1)          # the policy's own search only
        est = r.extra["estimates"]
        found = pol.search(v, _view_stream(v))
        assert found.action == pol.act(v, _view_stream(v))
        assert r.leader == v.action_to_string(found.action) == est["leader"]
        assert est["policy"] == (f"the silent game's rollout policy ({pol.name}; the default "
                                 f"{rule.name} plays it outside its end game)")
        assert est["search"] == found.search and len(est["steps"]) == 1
        for a in r.actions:
            row = found.rows.get(a.action_id)
            if row is None:
                assert a.estimate is None
            else:
                assert (a.estimate, a.ci95) == (row[0], (row[1], row[2]))
                assert a.ci95[0] <= a.estimate <= a.ci95[1]
        assert est["policy"] in r.criterion


def test_the_leader_follows_the_policy_leader_policy_gives(monkeypatch):
    """The one place that chooses the policy: another one there is what best follows."""
    other = make_policy("duo-krollout", n=16, screen=0, z=0.0)
    monkeypatch.setattr(view_rank, "leader_policy", lambda view, talk="none": other)
    v = _views()[1]
    r = DuoViewRank().rank(v, budget_nodes=1)
    found = other.search(v, _view_stream(v))
    assert r.leader == v.action_to_string(found.action)
    assert r.extra["estimates"]["search"] == found.search
    assert found.search == "duo-krollout n=16 over duo-greedy-plus"
    assert r.extra["estimates"]["policy"] == ("the silent game's rollout policy (duo-krollout; "
                                              "the default duo-kcut-switch plays it outside "
                                              "its end game)")


@pytest.mark.parametrize("seed, k", [(420, 44)])
def test_late_in_a_silent_deal_the_leader_is_the_default_rules_decision(seed, k):
    """At end-game views where the default's rule plays another action than its base (found
    by playing duo-plus2 on deals 400-519: this one; deal 405's view at 48 was one while the
    base tried one order per prophecy discard), best's leader is the rule's decision,
    as the default plays it, and the step says so; its estimates stay the base's search's."""
    rule = view_rank.end_rule()
    p2 = make_policy("duo-plus2")
    s = Game(2).new_initial_state(seed=seed)
    for i in range(k):
        s.apply_action(p2.act(player_view(s), i))
    v = player_view(s)
    assert rule.in_domain(v) and v.hidden
    want = rule.act(v, _view_stream(v))
    assert rule.last in ("mean", "tie") and want != rule.base.act(v, _view_stream(v))
    r = DuoViewRank().rank(v, budget_nodes=1)
    est = r.extra["estimates"]
    assert r.leader == est["leader"] == v.action_to_string(want)
    assert est["steps"][-1]["policy"] == rule.name and est["steps"][-1]["rule"] == rule.last
    assert est["search"] == rule.base.search(v, _view_stream(v)).search


def test_a_view_that_hides_no_partner_card_gets_the_open_games_rollout_policy():
    """A view hiding no partner card knows what the open game's view knows: its leader is the
    rollout policy the open game's default plays (OPEN_BASE), named as such."""
    from solver.duo.rollout import OPEN_BASE
    from solver.policies.endgame import parse_base
    s = Game(2).new_initial_state(seed=3)
    for _ in range(40):
        if len(s.legal_actions()) > 2 and s.deck_size() > 20:
            break
        s.apply_action(greedy_action(s))
    v = player_view(s, talk="open")
    assert view_rank.view_talk(v) == "open" and view_rank.view_talk(_views()[0]) == "none"
    pol = leader_policy(v, "open")
    name, args = parse_base(OPEN_BASE)
    assert pol.name == name and all(str(getattr(pol, k)) == v for k, v in args.items())
    r = DuoViewRank().rank(v, budget_nodes=1)
    found = pol.search(v, _view_stream(v))
    est = r.extra["estimates"]
    assert est["search"] == found.search and "open game" in est["policy"]
    assert r.leader == v.action_to_string(found.action) or r.best is not None


def test_a_node_budget_is_deterministic_and_never_passed_after_the_first_search():
    pol = leader_policy(None)
    v = _views()[0]
    first = pol.search(v, _view_stream(v))
    budget = next_playouts(pol, first, pol.n)             # exactly the second search's
    a = DuoViewRank().rank(v, budget_nodes=budget)
    b = DuoViewRank().rank(v, budget_nodes=budget)
    assert _without_time(a.to_json()) == _without_time(b.to_json())
    steps = a.extra["estimates"]["steps"]
    assert [s["n"] for s in steps] == [pol.n, 4 * pol.n]
    assert steps[1]["playouts"] == budget
    c = DuoViewRank().rank(v, budget_nodes=budget - 1)    # one short: the first search only
    assert [s["n"] for s in c.extra["estimates"]["steps"]] == [pol.n]
    assert c.leader == v.action_to_string(first.action)
    json.dumps(a.to_json())


def test_a_tiny_time_budget_still_gives_the_policys_own_decision():
    pol = leader_policy(None)
    v = _views()[2]
    r = DuoViewRank().rank(v, budget_s=1e-3)
    steps = r.extra["estimates"]["steps"]
    assert steps[0]["n"] == pol.n
    assert steps[0]["action"] == v.action_to_string(pol.act(v, _view_stream(v)))
    assert r.leader == steps[-1]["action"]


@pytest.mark.parametrize("seed", [300036, 300039])
def test_late_in_an_open_deal_the_leader_is_the_open_switchs_decision(seed):
    """Open-game end positions of the regret fixture where the open game's default
    (duo-open-switch: its own search proves a best action) and its rollout differ: under a
    node budget too small for best's own exact part, the leader is still the default's
    decision, not the rollout's."""
    from benchmarks.bench_regret import read_fixture
    from engine.notation import parse_position
    from paths import ROOT
    rows = {s: text for s, _i, _u, text in
            read_fixture(f"{ROOT}/tests/fixtures/duo_regret_positions.txt")}
    v = player_view(parse_position(rows[seed]), talk="open")
    rule = view_rank.end_rule("open")
    assert rule.name == view_rank.default_duo_policy("open") and rule.in_domain(v)
    want = rule.act(v, _view_stream(v))
    assert rule.last == "exact" and want != rule.base.act(v, _view_stream(v))
    r = DuoViewRank().rank(v, budget_nodes=1)
    assert r.best is None and r.leader == v.action_to_string(want)
    assert r.extra["estimates"]["steps"][-1]["rule"] == "exact"
