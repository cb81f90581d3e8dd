"""duo-krollout (solver/duo/rollout.py) and onirim best on a two-player player's view
(solver/duo/view_rank.py, mode duo-view).

* the policy decides from the view only: dealing the partner's hand and the deck's unseen
  part again changes none of its decisions (the hidden-order test), while the redeal does
  change the partner's hand;
* a decision is a function of (view, stream); its candidates hold the base action and
  every play and plain discard; with z huge it plays the base action;
* whole games through onirim winrate --players 2: the same rows with --jobs 1 and 2, and a
  killed run resumes;
* best: a view printed by onirim play pastes in and every action gets an estimate within the
  budget; the open-hands bound over every possible partner hand is sound (an action's bound
  is at least its estimate's lower end where both are decided... checked against the
  per-hand open-hands values, exact in small end games).
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from engine.game import Game
from engine.notation import parse_view
from engine.policy import greedy_action
from engine.view import player_view

from solver.api import make_policy
from solver.duo import info_playouts as IP
from solver.duo import info_state as info
from solver.duo.honest import duo_greedy_plus_action

from duo_kit import hidden_order_decisions
from test_info_state import _positions


def test_hidden_order_no_decision_changes():
    pol = make_policy("duo-krollout", n=8, screen=2)
    n, changed = hidden_order_decisions(pol, _positions(4, seed0=500), random.Random(4), 1000)
    assert n > 40 and changed > 20


def test_a_decision_depends_on_the_view_and_stream_only_and_z_keeps_the_base():
    pol = make_policy("duo-krollout", n=16, screen=4)
    stiff = make_policy("duo-krollout", n=16, screen=4, z=1e9)
    seen_other = stiff_other = n = 0
    for i, (_seed, s) in enumerate(_positions(3, seed0=600)):
        v = player_view(s)
        a = pol.act(v, i)
        assert a in v.legal_actions() and pol.act(v, i) == a
        # a huge margin keeps the base action, except where a rival beat it by the same
        # amount in every playout (no spread: the margin of solver.honest.rollout lets a
        # sure improvement through)
        stiff_other += stiff.act(v, i) != duo_greedy_plus_action(v)
        seen_other += a != duo_greedy_plus_action(v)
        n += 1
    assert seen_other > 0          # the playouts do change some decisions
    assert stiff_other < seen_other and stiff_other <= n // 20


def test_candidates_hold_the_base_action_and_every_play_and_plain_discard():
    for _seed, s in _positions(3, seed0=700):
        v = player_view(s)
        S = info.encode(v)
        acts = np.zeros(info.MAX_LEGAL, dtype=np.int64)
        nact = info.legal(S, acts)
        legal = [int(x) for x in acts[:nact]]
        b = duo_greedy_plus_action(v)
        for swaps, code in IP.SWAPS.items():
            out = np.zeros(info.MAX_LEGAL + 1, dtype=np.int64)
            m = IP.candidates(S, acts, np.int64(nact), np.int64(b), np.int64(code), out)
            cand = [int(x) for x in out[:m]]
            assert b in cand and set(cand) <= set(legal) and len(set(cand)) == m
            if s.phase == "play":
                assert {a for a in legal if a < info.A_SWAP} <= set(cand)
                if swaps == "all":
                    assert set(cand) == set(legal)
            elif s.phase != "prophecy":
                assert set(cand) == set(legal)


@pytest.mark.slow
def test_winrate_two_player_krollout_jobs_and_resume(tmp_path):
    from winrate_kit import kill_9_then_resume, onirim
    from cli.test_winrate_duo import _rows
    base = ["winrate", "--mode", "honest", "--players", "2", "--policy", "duo-krollout",
            "--policy-arg", "n=8", "--policy-arg", "screen=2", "--seed", "90", "--json"]
    a = onirim(*base, "--deals", "6", "--db", "a.sqlite", cwd=tmp_path)
    b = onirim(*base, "--deals", "6", "--jobs", "2", "--db", "b.sqlite", cwd=tmp_path)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ra, rb = _rows(tmp_path / "a.sqlite", "honest"), _rows(tmp_path / "b.sqlite", "honest")
    assert sorted(ra) == list(range(90, 96))
    assert {k: v[:4] for k, v in ra.items()} == {k: v[:4] for k, v in rb.items()}
    assert json.loads(a.stdout)["players"] == 2
    args = base + ["--deals", "8", "--db", "k.sqlite"]
    before, r, after = kill_9_then_resume(args, tmp_path, "k.sqlite", "honest", 2, 0.05,
                                          lambda db: _rows(db, "honest"))
    assert r.returncode == 0, r.stderr
    assert sorted(after) == list(range(90, 98))
    assert all(after[k] == before[k] for k in before)


def test_a_solo_view_is_refused():
    from solver.errors import PolicyError
    pol = make_policy("duo-krollout", n=4)
    with pytest.raises(PolicyError):
        pol.act(player_view(Game(1).new_initial_state(seed=0)), 0)
    with pytest.raises(PolicyError):
        pol.check_players(1)


# ----------------------------------------------------------------------------- best
def _view_text(seed, steps):
    s = Game(2).new_initial_state(seed=seed)
    for _ in range(steps):
        s.apply_action(greedy_action(s))
    return s, s.observation_string()


def test_best_ranks_the_printed_view_every_action_estimated():
    from onirim.cli import main
    s, text = _view_text(5, 12)
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["best", text, "--budget-s", "1", "--json"])
    assert rc == 0
    d = json.loads(buf.getvalue())
    assert d["mode"] == "duo-view" and d["players"] == 2
    assert "strict" in d["information"]
    acts = {a["action"] for a in d["actions"]}
    assert acts == {s.action_to_string(a) for a in s.legal_actions()}
    assert all(a["estimate"] is not None and a["ci95"][0] <= a["estimate"] <= a["ci95"][1]
               for a in d["actions"])
    assert d["best"] is None and d["leader"] is not None
    assert d["playouts"] >= 32
    # the leader's criterion names the policy the estimates played, not the solo one's
    assert d["estimates"]["policy"] in d["criterion"]
    assert "greedy-keep-doors" not in d["criterion"]


def test_best_refuses_an_open_hands_mode_for_a_view(capsys):
    from onirim.cli import main
    _s, text = _view_text(5, 12)
    assert main(["best", text, "--mode", "open-hands", "--budget-s", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "duo-view" in err[0]


def _end_game_view(least: int = 1):
    """A view late in a game with a short deck and few (at least ``least``) possible partner
    hands."""
    from solver.duo.view_rank import MAX_DECK, MAX_WORLDS, _count_hands
    for seed in range(200):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            if s.phase == "play" and s.deck_size() <= MAX_DECK:
                v = player_view(s)
                if not v.deck and least <= _count_hands(v, MAX_WORLDS) <= max(3, least):
                    return s, v
            s.apply_action(greedy_action(s))
    pytest.skip("no short end game found")


def test_open_hands_bound_is_the_weighted_open_hands_value():
    """In a short end game the bound of each action is the probability-weighted open-hands
    value over every possible partner hand (each computed exactly here), and the true
    partner hand is one of them."""
    from solver.duo.open_hands import DuoExpectimax
    from engine.view import dealt_position
    from solver.duo.view_rank import DuoViewRank, partner_hands
    s, v = _end_game_view()
    hands = partner_hands(v)
    assert abs(sum(p for _h, p in hands) - 1) < 1e-12
    from engine.view import _minus
    partner = 1 - s.turn   # the partner's cards the view does not know: a hand dealt
    assert tuple(sorted(_minus(s.hands[partner], v.hands[partner]))) in {h for h, _p in hands}
    r = DuoViewRank().rank(v, budget_s=None, budget_nodes=None)   # OPEN_NODES a hand
    assert "over all" in r.extra["open_hands"]
    ex = DuoExpectimax()
    want = {a: 0.0 for a in v.legal_actions()}
    for h, p in hands:
        rr = ex.rank(dealt_position(v, h))
        for x in rr.actions:
            assert x.exact
            want[x.action_id] += p * x.value
    for x in r.actions:
        assert abs(x.hi - min(1.0, want[x.action_id])) < 1e-9
        assert x.lo == 0.0 and x.estimate is not None


def test_a_node_budget_passes_unspent_nodes_to_the_next_hand(monkeypatch):
    """Under --budget-nodes the open-hands part of duo-view shares the budget by the partner
    hands: each hand gets an even share of what the hands before it left unspent, so a hand
    that finishes early leaves its nodes to the next (an even split up front would not)."""
    from types import SimpleNamespace
    from solver.duo import view_rank
    _s, v = _end_game_view(least=2)
    k = len(view_rank.partner_hands(v))
    assert k >= 2
    real = view_rank.solver_entry("open-hands").factory(leader=False)
    asked, spent = [], []

    class Spy:
        def rank(self, position, budget_s=None, budget_nodes=None):
            r = real.rank(position, budget_s=budget_s, budget_nodes=budget_nodes)
            asked.append(budget_nodes)
            spent.append(r.nodes)
            return r

    monkeypatch.setattr(view_rank, "solver_entry",
                        lambda name: SimpleNamespace(factory=lambda leader=False: Spy()))
    budget = 100_000
    view_rank.DuoViewRank().rank(v, budget_nodes=budget)
    assert len(asked) == k
    for i in range(k):
        assert asked[i] == max(1, (budget - sum(spent[:i])) // (k - i))
    assert any(asked[i] > budget // k for i in range(1, k)) or \
        all(spent[i] >= budget // k for i in range(k - 1))


def test_parse_view_round_trip_of_the_printed_position():
    s, text = _view_text(9, 20)
    v = parse_view(text)
    assert np.array_equal(info.encode(v), info.encode(player_view(s)))
