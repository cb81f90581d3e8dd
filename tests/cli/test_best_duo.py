"""``onirim best`` on two-player positions (docs/DUO_EXPECTIMAX.md, section 6).

* open-hands mode (the default for ``mode=duo``): the JSON of docs/NOTATION.md section 5, values
  equal to the solver's and to the brute force of tests/solver/duo/test_duo_expectimax.py, ``best`` only when
  proven, sound bounds and ``leader`` under a budget;
* clairvoyant mode on a two-player deal: WIN / LOSS per action, ``best`` a proven winning
  action whose line replays to a win in ``engine/``;
* bad input: one line and exit status 2.
"""
from __future__ import annotations

import json
import os

import pytest

from engine.notation import parse_position
from onirim.cli import main

def _fixtures() -> str:
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.isdir(os.path.join(d, "fixtures")):
        d = os.path.dirname(d)
    return os.path.join(d, "fixtures")


def _lines(name):
    with open(os.path.join(_fixtures(), name)) as fh:
        return [x.rstrip("\n") for x in fh if x.strip() and not x.startswith("#")]


OPEN = [x.split("\t")[1] for x in _lines("duo_open_positions.txt")]
DEALS = _lines("duo_small_positions.txt")
THIRD = OPEN[2]        # 3 unknown cards, value 1/3
NIGHTMARE = OPEN[6]    # 4 unknown cards, value 19/72 (the docs' example)
LARGE = OPEN[-1]       # 15 unknown cards: open under a small budget
SOLO = ("mode=solo phase=play hand=Os,Am,Gk,Ls,Lk row=Am,Os doors=DO,DO,DA,DA,DG,DG,DL "
        "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,Om,Ok,Ok,Ok,As,As,As,As,As,As,As,"
        "As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,"
        "N,N,N,N,N,N,N limbo=-")


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _bad(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


# --------------------------------------------------------------------------- open hands
def test_open_hands_is_the_default_for_duo_and_exact(capsys):
    out = _json(capsys, ["best", NIGHTMARE, "--json"])
    assert out["mode"] == "open-hands" and out["players"] == 2
    assert out["best"] == "nightmare door DL"
    top = out["actions"][0]
    assert top["action"] == out["best"] and top["exact"]
    assert abs(top["value"] - 19 / 72) <= 1e-12
    for a in out["actions"]:
        assert a["exact"] and a["lo"] == a["hi"] == a["value"]
    assert out["nodes"] > 0 and "leader" not in out


def test_open_hands_json_is_the_solvers_ranking(capsys):
    """The command prints what DuoExpectimax.rank computes (whose values the brute force of
    tests/solver/duo/test_duo_expectimax.py checks); the best action is worth exactly 1/3 here."""
    from solver.duo.open_hands import DuoExpectimax
    out = _json(capsys, ["best", THIRD, "--mode", "open-hands", "--json"])
    r = DuoExpectimax().rank(parse_position(THIRD))
    assert [(a["action"], a["lo"], a["hi"]) for a in out["actions"]] == \
        [(a.action, a.lo, a.hi) for a in r.actions]
    assert out["best"] == r.best
    assert abs(out["actions"][0]["value"] - 1 / 3) <= 1e-12


def test_open_hands_under_a_budget_is_sound_and_undecided(capsys):
    out = _json(capsys, ["best", LARGE, "--budget-nodes", "200", "--json"])
    assert out["mode"] == "open-hands"
    for a in out["actions"]:
        assert 0.0 <= a["lo"] <= a["hi"] <= 1.0
        assert (a["value"] is None) == (not a["exact"])
    if out["best"] is None:
        assert out["criterion"] and out["leader"] is not None
    assert out["nodes"] <= 201


def test_the_open_games_leader_is_its_rollout_policys_decision(capsys):
    """Early in a two-player game under a tiny budget every action has lo = 0: the leader is
    the decision of the rollout policy the open game's default plays there, by its own search
    at the open game's view (the same stream as ``solver.duo.view_rank`` gives a view), with
    that search's estimates, named in the JSON and the text (issue 51, item 3)."""
    from engine.view import player_view
    from solver.duo.open_hands import open_hands
    from solver.duo.view_rank import _view_stream, leader_policy
    out = _json(capsys, ["best", LARGE, "--budget-nodes", "20", "--json"])
    assert out["best"] is None and all(a["lo"] == 0 for a in out["actions"])
    view = player_view(open_hands(parse_position(LARGE)), talk="open")
    policy = leader_policy(view, "open")
    found = policy.search(view, _view_stream(view))
    assert out["leader"] == view.action_to_string(found.action)
    assert out["actions"][0]["action"] == out["leader"]
    est = out["estimates"]
    assert est["search"] == found.search and policy.name in est["policy"]
    assert "open game" in est["policy"] and "partner's hand known" in est["method"]
    shown = {a["action"]: a["estimate"] for a in out["actions"] if "estimate" in a}
    assert shown and all(0.0 <= v <= 1.0 for v in shown.values())
    assert main(["best", LARGE, "--budget-nodes", "20"]) == 0
    text = capsys.readouterr().out
    assert f"\nleader: {out['leader']}" in text


def test_the_bounds_only_search_names_no_leader_from_a_tie_at_zero():
    """Without the leader (``OpenSearch``, what the end-game switch and the silent view's
    bounds use) every lo = 0 under a tiny budget and no estimates: no leader is named
    (issue 27 item 9)."""
    from solver.duo.open_search import OpenSearch
    r = OpenSearch(table_bits=12).rank(parse_position(LARGE), budget_nodes=20)
    assert r.best is None and all(a.lo == 0 for a in r.actions)
    assert r.leader is None and r.criterion.startswith("no leader")


def test_open_hands_text_says_what_it_is(capsys):
    assert main(["best", NIGHTMARE]) == 0
    out = capsys.readouterr().out
    assert "mode: open-hands" in out and "information: open hands" in out
    assert "best: nightmare door DL" in out


def test_seeded_duo_position_is_ranked_without_its_deck_order(capsys):
    text = DEALS[0]
    st = parse_position(text)
    assert st.seed is not None
    out = _json(capsys, ["best", text, "--json", "--budget-nodes", "3000"])
    assert out["view"] == "team"
    # the same cards in another order: the same answer
    t = st.clone()
    t.deck = list(reversed(t.deck))
    from engine.notation import format_position
    out2 = _json(capsys, ["best", format_position(t), "--json", "--budget-nodes", "3000"])
    strip = [(a["action"], a["lo"], a["hi"]) for a in out["actions"]]
    assert strip == [(a["action"], a["lo"], a["hi"]) for a in out2["actions"]]


# --------------------------------------------------------------------------- clairvoyant
def test_clairvoyant_duo_best_is_a_win_with_a_line_that_replays(capsys):
    text = DEALS[3]        # deal 3, deck DG,DA,N: a prophecy then two Keys win
    out = _json(capsys, ["best", text, "--mode", "clairvoyant", "--json"])
    assert out["mode"] == "clairvoyant" and out["players"] == 2
    best = out["best"]
    assert best is not None
    top = [a for a in out["actions"] if a["action"] == best][0]
    assert top["exact"] and top["value"] == 1.0
    st = parse_position(text)
    for act in out["line"]:
        st.apply_action(st.string_to_action(act))
    assert st.won()
    assert {a["value"] for a in out["actions"]} <= {0.0, 1.0}


def test_clairvoyant_duo_lost_actions_are_proven(capsys):
    out = _json(capsys, ["best", DEALS[3], "--mode", "clairvoyant", "--json"])
    losses = [a for a in out["actions"] if a["exact"] and a["value"] == 0.0]
    assert losses, out
    # player 0 still needs DA and DG with the deck DG,DA,N: "play shared Ak" spends the only
    # blue Key, and no blue Location is left for a series, so DA can never be opened
    assert any(a["action"] == "play shared Ak" for a in losses)


def test_clairvoyant_duo_text_has_the_line(capsys):
    assert main(["best", DEALS[3], "--mode", "clairvoyant"]) == 0
    out = capsys.readouterr().out
    assert "best: " in out and "line: " in out


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv,words", [
    (["best", NIGHTMARE, "--mode", "expectimax"], ["--mode expectimax", "open-hands"]),
    (["best", SOLO, "--mode", "open-hands"], ["--mode open-hands", "two-player"]),
    (["best", NIGHTMARE, "--mode", "clairvoyant"], ["seed"]),
    (["best", NIGHTMARE, "--tree", "x.graphml"], ["--tree", "open-hands"]),
    (["best", NIGHTMARE, "--threads", "2"], ["--threads", "open-hands"]),
    (["best", NIGHTMARE, "--budget-nodes", "0"], ["--budget-nodes"]),
])
def test_bad_duo_input_is_one_line_and_exit_2(capsys, argv, words):
    _bad(capsys, argv, words)


def test_chance_phase_is_refused(capsys):
    st = parse_position(NIGHTMARE)
    text = NIGHTMARE.replace("phase=nightmare", "phase=refill").replace(" drawn=N", "")
    try:
        parse_position(text)
    except Exception:       # noqa: BLE001  the notation may refuse it itself: also exit 2
        pass
    assert st.phase == "nightmare"
    assert main(["best", text]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


# --------------------------------------------------------------------------- --talk
def test_talk_open_with_open_hands_is_the_open_games_exact_value(capsys):
    out = _json(capsys, ["best", NIGHTMARE, "--talk", "open", "--mode", "open-hands",
                         "--json"])
    assert out["talk"] == "open" and out["mode"] == "open-hands"
    assert abs(out["actions"][0]["value"] - 19 / 72) <= 1e-12


@pytest.mark.parametrize("talk", ["none", "open"])
def test_talk_ranks_the_view_of_the_player_to_move(capsys, talk):
    """A full two-player position with --talk: that game's view of the player to move (no
    history: the silent view knows no partner card; the open view all), named in the JSON."""
    out = _json(capsys, ["best", THIRD, "--talk", talk, "--budget-s", "1", "--json"])
    st = parse_position(THIRD)
    assert out["mode"] == "duo-view" and out["talk"] == talk
    other = f"hand{1 - st.turn}="
    hand = out["position"].split(other)[1].split()[0].split(",")
    if talk == "open":
        assert "?" not in hand and f"view={st.turn}" in out["position"]
    else:
        assert set(hand) <= {"?", "-"}
    assert out["information"].startswith("open game" if talk == "open" else "silent game")


@pytest.mark.parametrize("argv,words", [
    (["best", SOLO, "--talk", "open"], ["--talk open", "two-player"]),
    (["best", SOLO, "--talk", "none"], ["--talk none", "two-player"]),
])
def test_talk_on_a_solo_position_is_refused(capsys, argv, words):
    _bad(capsys, argv, words)


def test_talk_open_on_a_view_that_hides_cards_is_refused(capsys):
    from engine.view import observation_text
    view = observation_text(parse_position(THIRD))
    assert "?" in view
    _bad(capsys, ["best", view, "--talk", "open"], ["--talk open", "?"])


def test_talk_open_best_proves_the_open_games_exact_best(capsys):
    """In the open game (no partner card hidden) the open-hands search's values are exact
    honest values: ``best --talk open`` (mode duo-view) takes its ``lo`` too, so it names the
    proven best action where the search finishes, with the open-hands mode's values."""
    out = _json(capsys, ["best", NIGHTMARE, "--talk", "open", "--budget-nodes", "20000",
                         "--json"])
    exact = _json(capsys, ["best", NIGHTMARE, "--talk", "open", "--mode", "open-hands",
                           "--json"])
    assert out["mode"] == "duo-view" and out["talk"] == "open"
    assert out["best"] == exact["best"] == "nightmare door DL"
    want = {a["action"]: a["value"] for a in exact["actions"]}
    for a in out["actions"]:
        assert a["exact"] and abs(a["lo"] - want[a["action"]]) <= 1e-12


def test_talk_none_keeps_lo_at_zero(capsys):
    """The silent game's open-hands figures stay upper bounds only (lo 0)."""
    out = _json(capsys, ["best", NIGHTMARE, "--talk", "none", "--budget-nodes", "20000",
                         "--json"])
    assert out["talk"] == "none" and all(a["lo"] == 0.0 for a in out["actions"])
