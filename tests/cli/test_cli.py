"""The terminal commands ``onirim play``, ``onirim show`` and ``onirim demo``.

Most cases drive ``onirim.cli.main`` in-process (stdin replaced by a string); a few run the
real ``python -m onirim`` in a subprocess to check exit codes and streams end to end.
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys

import pytest

from engine import Game, format_position, from_json, parse_position, to_json
from engine.policy import greedy_action, play_game
from onirim import cli
from onirim.cmd_demo import demo_game
from onirim.cmd_play import Session
from paths import ROOT

EXAMPLE = ("mode=solo phase=play hand=Os,Os,Am,Gk,Ls row=Am,Os doors=DA deck=N,DL,* "
           "discard=Ak limbo=-")


def run_cli(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = cli.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def run_sub(argv, stdin=""):
    return subprocess.run([sys.executable, "-m", "onirim", *argv], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def play(capsys, monkeypatch, lines, seed=7, players=1, analysis=False):
    monkeypatch.setenv("COLUMNS", "80")          # the board fits the terminal's width
    argv = ["play", "--seed", str(seed)] + (["--players", str(players)] if players != 1 else [])
    argv += ["--analysis"] if analysis else []
    rc, out, err = run_cli(capsys, monkeypatch, argv, "".join(f"{x}\n" for x in lines))
    assert rc == 0
    assert err == ""
    assert "Traceback" not in out
    return out


def boards(out):
    """The drawn boards of a session, each as a dict label -> text."""
    result = []
    for chunk in out.split("== Onirim")[1:]:
        b = {}
        for line in chunk.splitlines():
            m = re.match(r"(Phase|Doors|Row|Hand|Deck|Limbo|Discard|Shared|Centre|Drawn):\s+(.*)",
                         line)
            if m and m.group(1) not in b:
                b[m.group(1)] = m.group(2)
        result.append(b)
    return result


def greedy_moves(seed, players=1, limit=None):
    _, actions = play_game(Game(players), seed)
    return actions if limit is None else actions[:limit]


# --------------------------------------------------------------------------------- play
def test_play_by_number(capsys, monkeypatch):
    s = Game(1).new_initial_state(7)
    first = s.action_to_string(s.legal_actions()[0])
    out = play(capsys, monkeypatch, ["1"])
    assert f"-> {first}" in out
    assert "End of input: game abandoned." in out
    assert boards(out)[1]["Row"].startswith(first.split()[1])


def test_play_by_string_any_case(capsys, monkeypatch):
    s = Game(1).new_initial_state(7)
    name = s.action_to_string(s.legal_actions()[-1])       # a discard
    assert name.startswith("discard ")
    out = play(capsys, monkeypatch, [name.upper()])
    assert f"-> {name}" in out
    assert boards(out)[1]["Discard"].startswith("1 card:")


def test_play_matches_engine(capsys, monkeypatch):
    """The board after scripted moves shows the engine's state after the same moves."""
    moves = greedy_moves(11, limit=8)
    out = play(capsys, monkeypatch, moves, seed=11)
    s = Game(1).new_initial_state(11)
    for m in moves:
        s.apply_action(m)
    last = boards(out)[-1]
    assert last["Hand"] == " ".join(format_position(s).split("hand=")[1].split()[0].split(","))
    assert last["Deck"].startswith(f"{s.deck_size()} card")


def test_undo_restores_previous_decision(capsys, monkeypatch):
    out = play(capsys, monkeypatch, ["1", "2", "undo", "undo"], analysis=True)
    b = boards(out)
    assert out.count("Undone.") == 2
    assert b[-1] == b[0]
    assert b[-2] == b[1]
    assert b[0]["Row"] == "-"


def test_undo_at_start(capsys, monkeypatch):
    out = play(capsys, monkeypatch, ["undo", "1"], analysis=True)
    assert "Nothing to undo." in out
    assert "-> " in out


def test_quit_stops(capsys, monkeypatch):
    out = play(capsys, monkeypatch, ["1", "quit", "1"])
    assert "Game abandoned." in out
    assert out.count("-> ") == 1
    assert "End of input" not in out


def test_eof_quits_cleanly(capsys, monkeypatch):
    out = play(capsys, monkeypatch, [])
    assert "End of input: game abandoned." in out
    assert len(boards(out)) == 1


@pytest.mark.parametrize("bad", ["foo", "99", "0", "play Zz", "prophecy discard=N",
                                 "door key", "-1", "play", "\x00", "undo me"])
def test_invalid_input_reprompts(capsys, monkeypatch, bad):
    out = play(capsys, monkeypatch, [bad, "1"])
    # a one-line message, then the same position is still there and the next move works
    after = out.split(f"you> {bad}\n", 1)[1]
    message, rest = after.split("\n", 1)
    assert message and not message.startswith("->")
    assert rest.startswith("you> 1\n-> ")
    assert out.count("-> ") == 1


def test_help_and_hint(capsys, monkeypatch):
    s = Game(1).new_initial_state(7)
    a = greedy_action(s)
    n = s.legal_actions().index(a) + 1
    out = play(capsys, monkeypatch, ["help", "hint", "board"])
    assert "undo" in out and "quit" in out
    # far from the end the hint is the strongest registered policy, named as a heuristic
    from solver.api import policy_entries
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    if DEFAULT_HONEST_POLICY in policy_entries():
        assert "hint: " in out
        label = f"{DEFAULT_HONEST_POLICY} (base={DEFAULT_HONEST_ARGS['base']})"
        # the hint's line wraps at the terminal's width
        assert f"[heuristic: {label} policy, not proven best]" in " ".join(out.split())
    else:
        assert f"hint: {n}) {s.action_to_string(a)}  [heuristic: greedy policy, not proven " \
               "best]" in out
    assert len(boards(out)) == 2            # 'board' redraws


@pytest.mark.parametrize("seed", [3, 1])
def test_full_game_result(capsys, monkeypatch, seed):
    state, moves = play_game(Game(1), seed)
    out = play(capsys, monkeypatch, moves, seed=seed)
    want = "You won: all 8 Doors" if state.won() else "You lost: the deck ran out"
    assert want in out
    assert "End of input" not in out        # the game ended by itself
    assert out.count("-> ") == len(moves)


def test_prophecy_shows_known_top(capsys, monkeypatch):
    # seed 34: the greedy policy discards a Key and makes a prophecy; afterwards the cards put
    # back stay visible on top of the deck until drawn or shuffled away
    moves = greedy_moves(34)
    i = next(k for k, m in enumerate(moves) if m.startswith("prophecy"))
    out = play(capsys, monkeypatch, moves[: i + 1], seed=34)
    b = boards(out)
    assert b[i]["Phase"].startswith("prophecy")
    assert all("top first" not in x["Deck"] for x in b[:i])      # nothing known before
    before = Game(1).new_initial_state(34)
    for m in moves[:i]:
        before.apply_action(m)
    top5 = format_position(before).split("deck=")[1].split()[0].split(",")[:5]
    assert b[i]["Deck"].split("top first: ")[1].split()[:5] == top5
    after = before.clone()
    after.apply_action(moves[i])
    keep = moves[i].split("keep=")[1].split(",")
    assert after.shuffles == before.shuffles          # this deal: no shuffle right after
    drawn = (before.deck_size() - 1) - after.deck_size()
    expected = keep[drawn:]
    assert expected
    assert b[-1]["Deck"] == f"{after.deck_size()} cards; top first: {' '.join(expected)} ..."
    # undo brings the prophecy back, with its revealed cards
    out2 = play(capsys, monkeypatch, moves[: i + 1] + ["undo"], seed=34, analysis=True)
    assert boards(out2)[-1] == b[i]
    # and undoing the next move brings back what was known of the deck after the prophecy
    out3 = play(capsys, monkeypatch, moves[: i + 2] + ["undo"], seed=34, analysis=True)
    assert boards(out3)[-1] == b[-1]


def test_two_player_session(capsys, monkeypatch):
    moves = greedy_moves(0, players=2, limit=10)
    out = play(capsys, monkeypatch, moves, seed=0, players=2)
    assert "player 0> " in out and "player 1> " in out
    assert "Onirim, two-player" in out
    assert "--players 2" in out.splitlines()[-1]     # the seed line, at the end
    b = boards(out)
    assert b[0]["Centre"] and b[-1]["Shared"]
    assert out.count("-> player ") == 10


def test_random_seed_is_printed_and_replays(capsys, monkeypatch):
    rc, out, err = run_cli(capsys, monkeypatch, ["play"], "1\n")
    assert rc == 0 and err == ""
    m = re.search(r"Seed (\d+) \(replay with: onirim play --seed \1\)\n$", out)
    assert m
    replay = play(capsys, monkeypatch, ["1"], seed=int(m.group(1)))
    assert replay == out


def test_same_seed_same_session(capsys, monkeypatch):
    a = play(capsys, monkeypatch, ["1", "2", "3"], seed=99)
    b = play(capsys, monkeypatch, ["1", "2", "3"], seed=99)
    c = play(capsys, monkeypatch, ["1", "2", "3"], seed=98)
    assert a == b and a != c.replace("seed 98", "seed 99")


def test_session_object_directly():
    inp, out = io.StringIO("hint\n1\n"), io.StringIO()
    sess = Session(1, 5, inp=inp, out=out)
    assert sess.run() == 0
    assert len(sess.undo_stack) == 1
    assert "hint: " in out.getvalue()


# --------------------------------------------------------------------------------- show
def test_show_draws_and_prints_canonical(capsys, monkeypatch):
    shuffled = " ".join(reversed(EXAMPLE.split()))
    rc, out, err = run_cli(capsys, monkeypatch, ["show", shuffled])
    assert rc == 0 and err == ""
    assert out.rstrip("\n").splitlines()[-1] == EXAMPLE
    assert "Hand:     Os Os Am Gk Ls" in out
    assert "Doors:    1 of 8: DA" in out
    assert "top first: N DL ..." in out


def test_show_json_only(capsys, monkeypatch):
    rc, out, err = run_cli(capsys, monkeypatch, ["show", EXAMPLE, "--json"])
    assert rc == 0 and err == ""
    assert out.count("\n") == 1
    obj = json.loads(out)
    assert obj == to_json(parse_position(EXAMPLE))
    assert format_position(from_json(obj)) == EXAMPLE


def test_show_accepts_json(capsys, monkeypatch):
    text = json.dumps(to_json(parse_position(EXAMPLE)))
    rc, out, _ = run_cli(capsys, monkeypatch, ["show", text])
    assert rc == 0
    assert out.rstrip("\n").splitlines()[-1] == EXAMPLE


def test_show_round_trip_over_games(capsys, monkeypatch):
    """Positions met in greedy games (solo and two-player) survive show unchanged."""
    rng = random.Random(1)
    for players, seed in [(1, 2), (1, 34), (2, 4)]:
        s = Game(players).new_initial_state(seed)
        while not s.is_terminal():
            if rng.random() < 0.15:
                text = format_position(s)
                rc, out, _ = run_cli(capsys, monkeypatch, ["show", text])
                assert rc == 0
                assert out.rstrip("\n").splitlines()[-1] == text
                rc, js, _ = run_cli(capsys, monkeypatch, ["show", text, "--json"])
                assert rc == 0 and from_json(js) == s
            s.apply_action(greedy_action(s))
        rc, out, _ = run_cli(capsys, monkeypatch, ["show", format_position(s)])
        assert rc == 0 and "game over" in out


# --------------------------------------------------------------------------------- demo
def test_demo(capsys, monkeypatch):
    rc, out, err = run_cli(capsys, monkeypatch, ["demo", "--policy-game", "--seed", "3"])
    state, actions = demo_game(3)
    assert rc == 0 and err == ""
    assert f"Result: {'WON' if state.won() else 'LOST'}" in out
    assert f"{len(actions)}. {actions[-1]}" in out
    assert demo_game(3)[1] == actions


def test_demo_solver_job(capsys, monkeypatch, tmp_path):
    """The default demo solves deals, prints a certified line and resumes from its database."""
    db = str(tmp_path / "demo.sqlite")
    rc, out, err = run_cli(capsys, monkeypatch, ["demo", "--deals", "3", "--db", db])
    assert rc == 0
    assert "clairvoyant win rate of solo deals 0..2" in out
    assert "wins" in out and "win rate" in out
    if "Certified winning line of deal 0" in out:
        assert "replayed in engine/: won" in out
    rc, out2, _ = run_cli(capsys, monkeypatch, ["demo", "--deals", "3", "--db", db])
    assert rc == 0 and "3 already stored" in out2


# --------------------------------------------------------------------------------- bad input
BAD = [
    ["play", "--players", "3"],
    ["play", "--players", "two"],
    ["play", "--seed", "-1"],
    ["play", "--seed", str(2 ** 64)],
    ["play", "--seed", "1.5"],
    ["play", "--bogus"],
    ["demo", "--seed", "-5"],
    ["demo", "--deals", "0"],
    ["demo", "extra"],
    ["show"],
    ["show", ""],
    ["show", "bogus"],
    ["show", "mode=solo"],
    ["show", "mode=trio phase=play"],
    ["show", EXAMPLE.replace("Gk,", "")],
    ["show", EXAMPLE.replace("Gk", "Xx")],
    ["show", EXAMPLE.replace("Am,Os", "Os,Os")],
    ["show", EXAMPLE.replace("deck=N,DL,*", "deck=N,DL")],
    ["show", "{"],
    ["show", "{\"mode\": \"solo\"}"],
    ["show", "{\"mode\": 3}"],
    ["show", EXAMPLE, "--json", "--nope"],
    ["show", EXAMPLE + " seed=\u00b2"],        # '²'.isdigit() is True but int('²') fails
    ["frobnicate"],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a)[:40])
def test_bad_input_one_line_exit_2(capsys, monkeypatch, argv):
    rc, out, err = run_cli(capsys, monkeypatch, argv)
    assert rc == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("onirim: error: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("argv,field", [
    (["show", EXAMPLE.replace("Gk,", "")], "hand"),
    (["show", EXAMPLE.replace("Gk", "Xx")], "hand"),
    (["show", EXAMPLE.replace("Am,Os", "Os,Os")], "row"),
    (["show", "{\"mode\": 3}"], "mode"),
])
def test_bad_position_names_field(capsys, monkeypatch, argv, field):
    rc, _, err = run_cli(capsys, monkeypatch, argv)
    assert rc == 2
    assert err.startswith(f"onirim: error: {field}: ")


# --------------------------------------------------------------------------------- subprocess
def test_subprocess_play_and_bad_flag():
    r = run_sub(["play", "--seed", "7", "--analysis"], "hint\n1\nnonsense\nundo\nquit\n")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert "Game abandoned." in r.stdout and "Undone." in r.stdout
    r = run_sub(["play", "--players", "3"])
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("onirim: error: ")


def test_subprocess_show_bad_position():
    r = run_sub(["show", "mode=solo phase=play hand=Os"])
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = run_sub(["show", EXAMPLE, "--json"])
    assert r.returncode == 0 and json.loads(r.stdout)["hand"] == ["Os", "Os", "Am", "Gk", "Ls"]


def test_subprocess_undecodable_input():
    r = subprocess.run([sys.executable, "-m", "onirim", "play", "--seed", "1"],
                       input=b"\xff\xfe\n1\n", cwd=ROOT, capture_output=True, timeout=60)
    assert r.returncode == 0
    assert r.stderr == b""
    assert b"-> play " in r.stdout or b"Unreadable input" in r.stdout
    assert b"Traceback" not in r.stdout


def test_play_md_transcript_is_real(capsys, monkeypatch):
    """docs/PLAY.md's session is the actual output of its printf command."""
    doc = open(os.path.join(ROOT, "docs", "PLAY.md"), encoding="utf-8").read()
    m = re.search(r"`printf '([^']*)' \| onirim play --seed (\d+)`\n\n```\n(.*?)```", doc, re.S)
    assert m, "transcript section not found"
    lines = m.group(1).split("\\n")
    out = play(capsys, monkeypatch, [x for x in lines if x], seed=int(m.group(2)))
    assert out == m.group(3)


# --------------------------------------------------------------------------------- argparse
@pytest.mark.parametrize("argv,want", [
    (["play", "--players", "3"], "--players: invalid choice: 3 (choose from 1, 2)"),
    (["play", "--seed", "-1"], "--seed: seed -1 is out of range 0 .. 2**64-1"),
    (["play", "--seed"], "--seed: expected one argument"),
    (["play", "--bogus"], "--bogus: unknown option"),
    (["show"], "position: missing; this argument is required"),
    (["show", EXAMPLE, "extra", "more"], "extra: unknown argument (and 1 more)"),
    (["frobnicate"], "command: invalid choice: 'frobnicate'"),
])
def test_argparse_errors_name_the_field(capsys, monkeypatch, argv, want):
    """Not `onirim: error: onirim play: argument --players: ...` (issue 16, item 9)."""
    rc, out, err = run_cli(capsys, monkeypatch, argv)
    assert rc == 2 and out == ""
    assert err.startswith(f"onirim: error: {want}")
    assert err.count("\n") == 1
    assert "onirim play:" not in err and "argument --" not in err


@pytest.mark.parametrize("argv", [
    ["show", "x" * 100_000],
    ["show", f"mode=solo phase=play hand={'Q' * 100_000} row=- doors=- deck=* discard=- "
             "limbo=-"],
    ["show", "{\"" + "k" * 100_000 + "\": 1, \"mode\": \"solo\"}"],
    ["x" * 100_000],
    ["play", "--seed", "9" * 100_000],
    ["play", "--players", "2" * 100_000],
])
def test_long_bad_input_is_not_echoed_in_full(capsys, monkeypatch, argv):
    rc, out, err = run_cli(capsys, monkeypatch, argv)
    assert rc == 2 and out == ""
    assert err.startswith("onirim: error: ") and err.count("\n") == 1
    assert len(err) < 600
    assert "characters)" in err or "chars)" in err      # it says the echo was cut


def test_version(capsys, monkeypatch):
    import onirim
    rc, out, err = run_cli(capsys, monkeypatch, ["--version"])
    assert rc == 0 and err == ""
    assert out.startswith(f"onirim {onirim.__version__} (Python ")
    assert "numba" in out and out.count("\n") == 1
    r = run_sub(["--version"])
    assert r.returncode == 0 and r.stdout == out


def test_version_matches_pyproject():
    import tomllib

    import onirim
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        assert tomllib.load(fh)["project"]["version"] == onirim.__version__


def test_help_exits_0(capsys, monkeypatch):
    rc, out, _ = run_cli(capsys, monkeypatch, ["play", "--help"])
    assert rc == 0 and "--seed" in out


def test_gitignore_covers_sqlite_side_files():
    lines = open(os.path.join(ROOT, ".gitignore"), encoding="utf-8").read().split()
    for pattern in ("*.sqlite-wal", "*.sqlite-shm", ".bench-results/"):
        assert pattern in lines


# ----------------------------------------------------------- issue 27, item 13: demo's errors
def test_demo_db_folder_prints_nothing_on_stdout(capsys, monkeypatch, tmp_path):
    rc, out, err = run_cli(capsys, monkeypatch, ["demo", "--db", str(tmp_path)])
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("onirim: error: --db: ")


def test_demo_refuses_a_foreign_file_before_any_output(capsys, monkeypatch, tmp_path):
    import sqlite3
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE foo (x)")
    con.commit()
    con.close()
    rc, out, err = run_cli(capsys, monkeypatch, ["demo", "--db", str(path)])
    assert rc == 2 and out == "" and "not an onirim results file" in err


@pytest.mark.parametrize("flag", [["--deals", "5"], ["--db", "x.sqlite"]])
def test_policy_game_refuses_what_it_would_ignore(capsys, monkeypatch, flag):
    """`onirim demo --policy-game --deals 5` used to ignore --deals silently."""
    rc, out, err = run_cli(capsys, monkeypatch, ["demo", "--policy-game", *flag])
    assert rc == 2 and out == ""
    assert err.startswith(f"onirim: error: {flag[0]}: --policy-game plays one deal")


@pytest.mark.parametrize("argv, field", [
    (["bench", "--sections", ""], "--sections: "),
    (["bench", "--sections", "warp"], "--sections: unknown section"),
    (["bench", "--out", __file__], "--out: "),
])
def test_bench_errors_keep_the_format(capsys, monkeypatch, argv, field):
    rc, out, err = run_cli(capsys, monkeypatch, argv)
    assert rc == 2 and out == "" and err.startswith(f"onirim: error: {field}"), err


def test_a_pasted_two_player_view_is_answered_by_best(capsys, monkeypatch):
    """What `position` prints in a two-player game, pasted into `onirim best`, is answered from
    that player's view (it was "hand1: unknown card code '?'", then a refusal; issue 27 item
    4): every legal action of the player to move gets an estimate."""
    moves = greedy_moves(2, players=2, limit=12)
    out = play(capsys, monkeypatch, moves + ["position"], seed=2, players=2)
    line = [x for x in out.splitlines() if x.startswith('onirim best "mode=duo')][-1]
    text = line.removeprefix('onirim best "').removesuffix('"')
    assert "?" in text.split(" hand1=")[1].split()[0] + text.split(" hand0=")[1].split()[0]
    rc, out, err = run_cli(capsys, monkeypatch, ["best", text, "--budget-s", "0.5", "--json"])
    assert rc == 0, err
    d = json.loads(out)
    assert d["mode"] == "duo-view" and d["actions"]
    assert all(a["estimate"] is not None for a in d["actions"])
