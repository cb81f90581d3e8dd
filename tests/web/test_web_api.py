"""The JSON API of ``onirim serve`` without a browser: errors are the command line's one line
with a 4xx status, each user has a game of their own, a long analysis does not hold other
requests and can be cancelled, an analysis is ``onirim best --json``, Ctrl-C stops the
server and its workers."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from paths import ROOT
from web_kit import Client, without_time as _without_time

BAD = "mode=solo phase=play hand=Os"      # no row: refused by the notation's parser


def cli(*args):
    p = subprocess.run([sys.executable, "-m", "onirim", *args], capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    return p.returncode, p.stdout, p.stderr


def assert_one_line(status, body, want_status=400):
    assert status == want_status, body
    assert set(body) == {"error"}
    line = body["error"]
    assert line.startswith("onirim: error: ") and "\n" not in line
    assert "Traceback" not in line
    return line


@pytest.mark.slow
def test_a_bad_position_gets_the_command_lines_line(client):
    rc, _, err = cli("best", "--budget-nodes", "100", BAD)
    assert rc == 2
    line = assert_one_line(*client.post("/api/analyse", {"position": BAD,
                                                         "budget_nodes": "100"}))
    assert line == err.strip()
    assert assert_one_line(*client.post("/api/position", {"text": BAD})) == err.strip()
    rc, _, err = cli("show", '{"mode": 3}')
    assert rc == 2
    assert assert_one_line(*client.post("/api/position", {"text": '{"mode": 3}'})) \
        == err.strip()


@pytest.mark.slow
def test_bad_budgets_and_seeds_get_the_command_lines_line(client):
    status, board = client.get("/api/state")
    assert status == 200
    for nodes, secs in (("abc", ""), ("0", ""), ("", "-1")):
        args = ["best"] + (["--budget-nodes", nodes] if nodes else []) \
            + (["--budget-s", secs] if secs else []) + [board["position"]]
        rc, _, err = cli(*args)
        assert rc == 2
        line = assert_one_line(*client.post("/api/analyse", {"budget_nodes": nodes,
                                                             "budget_s": secs}))
        assert line == err.strip()
    rc, _, err = cli("play", "--seed", "x")
    assert rc == 2
    assert assert_one_line(*client.post("/api/new", {"seed": "x"})) == err.strip()


def test_the_position_box_reads_notation_and_json(client):
    _, board = client.post("/api/new", {"seed": "4"})
    _, board = client.post("/api/move", {"move": board["legal"][0]})
    status, out = client.post("/api/position", {"text": board["position"]})
    assert status == 200 and out["position"] == board["position"]
    status, out = client.post("/api/position", {"text": json.dumps(board["position_json"])})
    assert status == 200 and out["position"] == board["position"]
    _, duo = client.post("/api/new", {"seed": "4", "players": 2})
    for _ in range(2):                     # a card drafted by each player
        _, duo = client.post("/api/move", {"move": duo["legal"][0]})
    assert "view=0" in duo["position"]     # the partner's card, drafted face up: known
    status, out = client.post("/api/position", {"text": json.dumps(duo["position_json"])})
    assert status == 200 and out["position"] == duo["position"]


def test_two_players_see_their_own_cards_only(client):
    import re
    from engine import Game
    from engine.view import observation_fields
    _, board = client.post("/api/new", {"seed": "4", "players": 2})
    s = Game(2).new_initial_state(4)
    hidden = 0
    for _ in range(12):
        move = board["legal"][0]
        s.apply_action(s.string_to_action(move))
        _, board = client.post("/api/move", {"move": move})
        turn = board["turn"]
        # the partner's cards: those seen taken face up, then one ? per card not known
        partner = board["fields"][f"hand{1 - turn}"]
        assert partner == observation_fields(s, turn)[f"hand{1 - turn}"]
        hidden += partner.count("?")
        assert "?" not in board["fields"][f"hand{turn}"]
    assert hidden > 0
    lines = [line for m in board["moves"] for line in m["log"]]
    assert any(line.startswith("drew ") for line in lines)
    assert not [line for line in lines if re.match(r"drew [A-Z][a-z]( |$)", line)]


def test_game_modes_by_name(client):
    _, board = client.get("/api/state")
    assert [m[0] for m in board["modes"]] == ["solo", "silent"]
    _, board = client.post("/api/new", {"mode": "silent", "seed": "8"})
    assert board["players"] == 2 and board["game_mode"] == "silent"
    line = assert_one_line(*client.post("/api/new", {"mode": "open"}))
    assert "mode: 'open' is not a game mode here (known: solo, silent)" in line
    _, after = client.get("/api/state")
    assert after == board                 # a refused deal changes nothing


def test_a_bad_move_changes_nothing(client):
    status, before = client.post("/api/new", {"seed": "5"})
    assert status == 200
    assert_one_line(*client.post("/api/move", {"move": "play Zz"}))
    assert_one_line(*client.post("/api/move", {"move": ""}))
    status, after = client.get("/api/state")
    assert after == before


def test_malformed_requests_are_one_line(client, web_server):
    assert_one_line(*client.post("/api/move", raw=b"{not json"))
    assert_one_line(*client.post("/api/move", raw=b"[1, 2]"))
    assert_one_line(*client.get("/api/nothing"), want_status=404)
    assert_one_line(*client.get("/api/job?id=nope"), want_status=404)
    assert_one_line(*client.post("/api/cancel", {"id": "nope"}), want_status=404)
    assert_one_line(*client.post("/api/graph/budget", {"budget_nodes": "x"}))
    with urllib.request.urlopen(web_server[0] + "/") as res:
        assert b"Onirim" in res.read()
    status, _ = client.get("/static/../server.py")
    assert status == 404


def test_honest_by_default_and_analysis_mode(client):
    status, board = client.post("/api/new", {"seed": "3"})
    assert board["analysis"] is False
    assert "seed" not in board and "deck_rest" not in board
    assert "seed" not in board["position"] and board["fields"]["deck"] == ["*"]
    client.post("/api/move", {"move": board["legal"][0]})
    assert_one_line(*client.post("/api/undo"), want_status=403)
    assert_one_line(*client.get("/api/deck"), want_status=403)
    status, board = client.post("/api/new", {"seed": "3", "analysis": True})
    first = board
    status, board = client.post("/api/move", {"move": board["legal"][0]})
    assert board["decisions"] == 1
    status, deck = client.get("/api/deck")
    assert status == 200 and deck["seed"] == 3 and len(deck["deck"]) == board["deck_count"]
    status, board = client.post("/api/undo")
    assert status == 200
    assert {k: v for k, v in board.items() if k != "version"} \
        == {k: v for k, v in first.items() if k != "version"}


def test_the_seed_and_deck_come_at_the_end(client):
    status, board = client.post("/api/new", {"seed": "130"})    # 34 first moves
    while not board["over"]:
        status, board = client.post("/api/move", {"move": board["legal"][0]})
        assert status == 200
    assert board["seed"] == 130 and board["replay"] == "onirim play --seed 130"
    assert board["result"].startswith("You lost") and board["legal"] == []
    status, deck = client.get("/api/deck")
    assert status == 200 and deck["seed"] == 130


def test_two_users_have_two_games(web_server):
    alice, bob = Client(web_server[0]), Client(web_server[0])
    _, a = alice.post("/api/new", {"seed": "11"})
    _, b = bob.post("/api/new", {"seed": "12", "players": 2})
    _, a2 = alice.post("/api/move", {"move": a["legal"][0]})
    _, b_again = bob.get("/api/state")
    assert b_again == b and b["players"] == 2
    _, a_again = alice.get("/api/state")
    assert a_again == a2 and a2["decisions"] == 1



@pytest.mark.slow
def test_an_analysis_is_onirim_best_json(client):
    status, board = client.post("/api/new", {"seed": "130"})
    for _ in range(26):               # late in the deal (24 cards left): a quick search
        status, board = client.post("/api/move", {"move": board["legal"][0]})
    status, job = client.post("/api/analyse", {"budget_nodes": "3000"})
    assert status == 200
    job = client.wait_job(job["id"])
    assert job["status"] == "done", job
    rc, out, _ = cli("best", "--json", "--budget-nodes", "3000", board["position"])
    assert rc == 0
    assert _without_time(json.loads(job["result"]["json"])) \
        == _without_time(json.loads(out))
    assert job["result"]["ranking"] == json.loads(job["result"]["json"])
    assert job["result"]["text"].startswith("position: ")


@pytest.mark.slow
def test_a_long_analysis_blocks_nobody_and_cancels(web_server):
    alice, bob = Client(web_server[0]), Client(web_server[0])
    alice.post("/api/new", {"seed": "21"})
    _, job = alice.post("/api/analyse", {"budget_s": "120"})
    t_end = time.monotonic() + 120
    while True:                      # running and searching (past the kernels' loading)
        _, j = alice.get(f"/api/job?id={job['id']}")
        if j["status"] == "running" and j["progress"]:
            break
        assert j["status"] in ("queued", "running") and time.monotonic() < t_end, j
        time.sleep(0.1)
    # another user plays and asks for the graph meanwhile: answered while the search runs
    _, b = bob.post("/api/new", {"seed": "22"})
    _, b = bob.post("/api/move", {"move": b["legal"][0]})
    assert b["decisions"] == 1
    status, _ = bob.get("/api/graph")
    assert status == 200
    _, j = alice.get(f"/api/job?id={job['id']}")
    assert j["status"] == "running"
    # the other user cannot see or stop it
    assert bob.post("/api/cancel", {"id": job["id"]})[0] == 404
    status, j = alice.post("/api/cancel", {"id": job["id"]})
    assert status == 200 and j["cancel_requested"]
    j = alice.wait_job(job["id"])
    assert j["status"] == "done" and j["interrupted"]
    ranking = j["result"]["ranking"]
    assert ranking["interrupted"] is True
    assert all(0 <= a["lo"] <= a["hi"] <= 1 for a in ranking["actions"])


def test_a_queued_job_cancels_at_once(web_server):
    from onirim.web.jobs import Pool
    pool = Pool(1, argv=[sys.executable, "-c", "import sys, time; print('{}'); "
                                              "sys.stdout.flush(); time.sleep(60)"])
    try:
        first = pool.submit("best", {}, "u")      # the worker never answers it
        second = pool.submit("best", {}, "u")
        pool.cancel(second)
        assert second.status == "cancelled" and first.status in ("queued", "running")
    finally:
        pool.close()
    assert first.status in ("error", "cancelled")


@pytest.mark.slow
def test_the_hint_and_the_graph(client):
    client.post("/api/graph/budget", {"budget_nodes": "500"})     # before the deal's first point
    status, board = client.post("/api/new", {"seed": "9"})
    status, job = client.post("/api/hint")
    job = client.wait_job(job["id"])
    assert job["status"] == "done", job
    assert job["result"]["action"] in board["legal"] and job["result"]["why"]
    _, board = client.post("/api/move", {"move": job["result"]["action"]})
    t_end = time.monotonic() + 120
    while True:
        _, graph = client.get("/api/graph")
        if all(p["value"] is not None for p in graph["points"]):
            break
        assert time.monotonic() < t_end, graph
        time.sleep(0.2)
    assert len(graph["points"]) == 2
    assert all(0 <= p["value"] <= 1 for p in graph["points"])
    assert graph["points"][0]["played"] == job["result"]["action"]


def _children(pid: int) -> set[int]:
    out = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(name))
            except (OSError, ValueError, IndexError):
                pass
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the workers")
def test_ctrl_c_stops_the_server_and_its_workers():
    p = subprocess.Popen([sys.executable, "-m", "onirim", "serve", "--port", "0",
                          "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT)
    try:
        line = p.stdout.readline()
        assert line.startswith("onirim serve: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/state") as res:
            assert json.loads(res.read())["players"] == 1
        t_end = time.monotonic() + 60
        while not _children(p.pid):
            assert time.monotonic() < t_end
            time.sleep(0.1)
        workers = _children(p.pid)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, (out, err)
    assert "onirim serve: stopped" in out and "Traceback" not in err, (out, err)
    assert not [w for w in workers if os.path.exists(f"/proc/{w}")
                and "onirim.web.worker" in open(f"/proc/{w}/cmdline").read()]


def test_serve_refuses_bad_arguments_in_one_line(capsys):
    import socket
    from onirim.cli import main
    assert main(["serve", "--port", "99999"]) == 2
    assert capsys.readouterr().err == \
        "onirim: error: --port: must be from 0 to 65535, not 99999\n"
    assert main(["serve", "--workers", "0"]) == 2
    assert capsys.readouterr().err == "onirim: error: --workers: must be from 1 to 64, not 0\n"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"onirim: error: --port: cannot listen on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1
