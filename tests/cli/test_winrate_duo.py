"""`onirim winrate --players 2`: the results database keeps solo and two-player rows apart
(a ``players`` column in the keys since schema 3, version 2 files migrate; schema 4 adds
the games' CPU time), and the two-player
clairvoyant and honest modes resume after a kill and give the same rows for any --jobs."""
import json
import sqlite3

import pytest

from solver.runs.db import (COLUMNS, COLUMNS_V2, HONEST_COLUMNS, SCHEMA_VERSION, ResultsDB,
                       unknown_key)
from winrate_kit import kill_9_then_resume, onirim

S = {"budget_nodes": 1000, "budget_s": None, "tt_mb": 64, "solver": "cv2"}
SD = dict(S, solver="duo-cv1")


def cols(path, table):
    con = sqlite3.connect(path)
    out = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
    con.close()
    return out


def test_solo_and_two_player_rows_never_mix(tmp_path):
    db = ResultsDB(str(tmp_path / "a.sqlite"))
    db.add("clairvoyant", S, 1, "WIN", 10, 0.1, ["play Os"])
    db.add("clairvoyant", SD, 2, "WIN", 20, 0.2, ["draft Os"], players=2)
    db.add("clairvoyant", SD, 3, "UNKNOWN", 1000, 0.3, [], players=2)
    assert db.done("clairvoyant", unknown_key(S), [1, 2, 3]) == {1: ("WIN", 10, 0.1)}
    assert db.done("clairvoyant", unknown_key(SD), [1, 2, 3], players=2) == {
        2: ("WIN", 20, 0.2), 3: ("UNKNOWN", 1000, 0.3)}
    # the same seed solved in both games: two rows, each found by its own player count
    db.add("clairvoyant", SD, 1, "LOSS", 30, 0.3, {"proof": "re-solve"}, players=2)
    assert db.done("clairvoyant", unknown_key(S), [1])[1][0] == "WIN"
    assert db.done("clairvoyant", unknown_key(SD), [1], players=2)[1][0] == "LOSS"
    # a two-player decision deletes only two-player UNKNOWN rows
    db.add("clairvoyant", S, 3, "UNKNOWN", 1000, 0.3, [])
    db.add("clairvoyant", SD, 3, "WIN", 40, 0.4, ["x"], players=2)
    assert db.done("clairvoyant", unknown_key(S), [3]) == {3: ("UNKNOWN", 1000, 0.3)}
    assert {(r["seed"], r["players"]) for r in db.rows()} == {(1, 1), (1, 2), (2, 2), (3, 1),
                                                              (3, 2)}
    # honest games: the same policy hash and seed, kept apart by the player count
    g = {"seed": 9, "won": True, "doors": 8, "decisions": 50, "seconds": 0.5, "actions": []}
    db.add_honest("h", [g])
    db.add_honest("h", [dict(g, won=False, doors=4)], players=2)
    assert db.honest_done("h", [9])[9]["doors"] == 8
    assert db.honest_done("h", [9], players=2)[9]["doors"] == 4
    assert sorted(r["players"] for r in db.honest_rows()) == [1, 2]
    db.close()


def make_v2(path):
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE results (mode TEXT NOT NULL, key TEXT NOT NULL, seed TEXT NOT NULL,
            result TEXT NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL,
            certificate TEXT NOT NULL, created REAL NOT NULL, settings TEXT NOT NULL,
            PRIMARY KEY (mode, key, seed));
        CREATE TABLE policies (hash TEXT PRIMARY KEY, name TEXT NOT NULL, config TEXT NOT NULL,
            created REAL NOT NULL);
        CREATE TABLE honest (policy_hash TEXT NOT NULL, seed TEXT NOT NULL, won INTEGER NOT NULL,
            doors INTEGER NOT NULL, decisions INTEGER NOT NULL, seconds REAL NOT NULL,
            actions TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (policy_hash, seed));
        CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema_version', '2');
        INSERT INTO results VALUES ('clairvoyant', '', '5', 'WIN', 7, 0.01, '["w"]', 1.0, '{}');
        INSERT INTO honest VALUES ('h', '5', 1, 8, 40, 0.1, '[]', 1.0);
    """)
    con.commit()
    con.close()


def test_a_version_2_file_is_read_as_solo_and_migrated_on_write(tmp_path):
    path = str(tmp_path / "v2.sqlite")
    make_v2(path)
    ro = ResultsDB(path, readonly=True)
    assert ro.version == 2
    assert [(r["seed"], r["players"]) for r in ro.rows()] == [(5, 1)]
    assert [(r["seed"], r["players"]) for r in ro.honest_rows()] == [(5, 1)]
    ro.close()
    assert cols(path, "results") == COLUMNS_V2              # reading changed nothing
    db = ResultsDB(path)
    assert db.version == SCHEMA_VERSION == 4
    assert cols(path, "results") == COLUMNS and cols(path, "honest") == HONEST_COLUMNS
    assert db.done("clairvoyant", unknown_key(S), [5]) == {5: ("WIN", 7, 0.01)}
    assert db.done("clairvoyant", unknown_key(SD), [5], players=2) == {}
    assert db.honest_done("h", [5])[5]["won"] and db.honest_done("h", [5], players=2) == {}
    db.close()
    ResultsDB(path).close()                                 # a second open: nothing to do
    assert cols(path, "results") == COLUMNS


def test_a_version_3_file_gains_cpu_seconds_and_its_old_games_are_counted_apart(tmp_path):
    """Version 3 -> 4: ``honest`` gets ``cpu_seconds`` (NULL for the games stored before); a
    run over old and new games gives CPU per decision over the new ones and says how many
    old ones it left out."""
    path = str(tmp_path / "v3.sqlite")
    r = onirim("winrate", "--mode", "honest", "--policy", "greedy", "--deals", "3", "--seed",
               "0", "--db", path, "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(path)     # make it the version 3 file an older onirim wrote
    con.executescript("""
        CREATE TABLE h3 AS SELECT policy_hash, seed, won, doors, decisions, seconds, actions,
            created, players FROM honest;
        DROP TABLE honest;
        CREATE TABLE honest (policy_hash TEXT NOT NULL, seed TEXT NOT NULL,
            won INTEGER NOT NULL CHECK (won IN (0, 1)), doors INTEGER NOT NULL,
            decisions INTEGER NOT NULL, seconds REAL NOT NULL, actions TEXT NOT NULL,
            created REAL NOT NULL, players INTEGER NOT NULL DEFAULT 1 CHECK (players IN (1, 2)),
            PRIMARY KEY (policy_hash, players, seed));
        INSERT INTO honest SELECT * FROM h3;
        DROP TABLE h3;
        UPDATE meta SET value='3' WHERE name='schema_version';
    """)
    con.commit()
    con.close()
    assert cols(path, "honest") == HONEST_COLUMNS[:-1]
    ro = ResultsDB(path, readonly=True)             # read as it is
    assert [r["cpu_seconds"] for r in ro.honest_rows()] == [None] * 3
    ro.close()
    assert cols(path, "honest") == HONEST_COLUMNS[:-1]
    r = onirim("winrate", "--mode", "honest", "--policy", "greedy", "--deals", "5", "--seed",
               "0", "--db", path, "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert cols(path, "honest") == HONEST_COLUMNS
    assert j["deals"] == 5 and j["deals_without_cpu"] == 3
    con = sqlite3.connect(path)
    rows = dict(con.execute("SELECT CAST(seed AS INTEGER), cpu_seconds FROM honest"))
    dec = dict(con.execute("SELECT CAST(seed AS INTEGER), decisions FROM honest"))
    assert con.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()[0] == "4"
    con.close()
    assert [rows[s] is None for s in range(5)] == [True, True, True, False, False]
    assert j["cpu_seconds_per_decision"] == pytest.approx((rows[3] + rows[4]) / (dec[3] + dec[4]))


def _rows(db, table="results"):
    con = sqlite3.connect(db)
    if table == "results":
        q = "SELECT seed, players, result, nodes, certificate, created FROM results"
    else:
        q = "SELECT seed, players, won, doors, actions, created FROM honest"
    out = {int(r[0]): r[1:] for r in con.execute(q)}
    con.close()
    return out


@pytest.mark.slow
def test_duo_clairvoyant_json_jobs_and_verify(tmp_path):
    a = onirim("winrate", "--mode", "clairvoyant", "--players", "2", "--deals", "6", "--seed",
               "20", "--jobs", "2", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert out["players"] == 2 and out["deals"] == 6
    assert out["wins"] + out["losses"] + out["unknown"] == 6
    b = onirim("winrate", "--mode", "clairvoyant", "--players", "2", "--deals", "6", "--seed",
               "20", "--db", "b.sqlite", "--json", cwd=tmp_path)
    assert b.returncode == 0, b.stderr
    ra, rb = _rows(tmp_path / "a.sqlite"), _rows(tmp_path / "b.sqlite")
    assert sorted(ra) == list(range(20, 26))
    assert {k: v[:4] for k, v in ra.items()} == {k: v[:4] for k, v in rb.items()}
    assert all(v[0] == 2 for v in ra.values())
    # no solo row is read as a two-player one: the solo deals of the same seeds are not found
    db = ResultsDB(str(tmp_path / "a.sqlite"))
    assert db.done("clairvoyant", unknown_key(S), range(20, 26)) == {}
    db.close()
    v = onirim("verify", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0, v.stdout + v.stderr
    vj = json.loads(v.stdout)
    assert vj["wins_verified"] == vj["wins"] == out["wins"] > 0


@pytest.mark.slow
def test_duo_clairvoyant_kill_9_then_resume(tmp_path):
    n = 24
    args = ["winrate", "--mode", "clairvoyant", "--players", "2", "--deals", str(n), "--seed",
            "500", "--db", "k.sqlite", "--json"]
    before, r, after = kill_9_then_resume(args, tmp_path, "k.sqlite", "results", 3, 0.02,
                                          _rows)
    assert 3 <= len(before) < n
    assert r.returncode == 0, r.stderr
    assert sorted(after) == list(range(500, 500 + n))
    assert all(after[k] == before[k] for k in before)   # nothing solved twice
    assert json.loads(r.stdout)["deals"] == n


@pytest.mark.slow
def test_duo_honest_jobs_resume_and_verify(tmp_path):
    base = ["winrate", "--mode", "honest", "--players", "2", "--policy", "greedy", "--seed",
            "40", "--json"]
    a = onirim(*base, "--deals", "20", "--db", "a.sqlite", cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert out["players"] == 2 and out["policy"] == "greedy" and out["deals"] == 20
    b = onirim(*base, "--deals", "12", "--jobs", "2", "--db", "b.sqlite", cwd=tmp_path)
    c = onirim(*base, "--deals", "20", "--jobs", "2", "--db", "b.sqlite", cwd=tmp_path)
    assert b.returncode == 0 and c.returncode == 0, b.stderr + c.stderr
    ra, rb = _rows(tmp_path / "a.sqlite", "honest"), _rows(tmp_path / "b.sqlite", "honest")
    assert sorted(ra) == list(range(40, 60))
    assert {k: v[:4] for k, v in ra.items()} == {k: v[:4] for k, v in rb.items()}
    assert json.loads(c.stdout)["wins"] == out["wins"]
    # the solo games of the same policy and seeds are other games, stored apart
    s = onirim("winrate", "--mode", "honest", "--policy", "greedy", "--seed", "40", "--deals",
               "20", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert s.returncode == 0, s.stderr
    assert "players" not in json.loads(s.stdout)
    con = sqlite3.connect(tmp_path / "a.sqlite")
    assert con.execute("SELECT COUNT(*) FROM honest").fetchone()[0] == 40
    con.close()
    v = onirim("verify", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0, v.stdout + v.stderr
    assert json.loads(v.stdout)["honest_verified"] == 40


@pytest.mark.slow
def test_duo_honest_kill_9_then_resume(tmp_path):
    n = 10
    args = ["winrate", "--mode", "honest", "--players", "2", "--policy", "duo-rollout",
            "--policy-arg", "n=2", "--policy-arg", "screen=0", "--deals", str(n), "--seed",
            "70", "--db", "k.sqlite", "--json"]
    before, r, after = kill_9_then_resume(args, tmp_path, "k.sqlite", "honest", 2, 0.05,
                                          lambda db: _rows(db, "honest"))
    assert 2 <= len(before) < n
    assert r.returncode == 0, r.stderr
    assert sorted(after) == list(range(70, 70 + n))
    assert all(after[k] == before[k] for k in before)


@pytest.mark.parametrize("args, words", [
    (["--players", "3"], "--players"),
    (["--players", "2", "--mode", "honest", "--policy", "greedy-plus"], "two-player|2-player"),
    (["--mode", "honest", "--policy", "duo-greedy-plus"], "2-player games only"),
])
def test_bad_player_flags(tmp_path, args, words):
    r = onirim("winrate", "--deals", "2", *args, "--db", "x.sqlite", cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    import re
    assert re.search(words, lines[0])


def test_the_open_and_silent_games_are_stored_apart_and_silent_is_the_old_key(tmp_path):
    """--talk: the open game's rows have their own policy hash (never resumed as silent ones),
    the silent game's is the hash runs stored before the mode existed (config_hash without a
    mode), with or without --talk none; the mode reaches the policy (the open game's rollout
    deals no partner card, so some game differs) and is named in the JSON and the text."""
    from solver.api import config_hash, make_policy
    from solver.honest import seeded_hash
    base = ["winrate", "--mode", "honest", "--players", "2", "--policy", "duo-rollout",
            "--policy-arg", "n=2", "--policy-arg", "screen=0", "--seed", "3", "--deals", "4",
            "--db", "t.sqlite"]
    runs = {}
    for talk in (None, "none", "open"):
        r = onirim(*base, *(["--talk", talk] if talk else []), "--json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        runs[talk] = json.loads(r.stdout)
    old = seeded_hash(config_hash(make_policy("duo-rollout", n=2, screen=0)), 1)
    assert runs[None]["policy_hash"] == runs["none"]["policy_hash"] == old
    assert runs["open"]["policy_hash"] != old
    assert [runs[t]["talk"] for t in (None, "none", "open")] == ["none", "none", "open"]
    con = sqlite3.connect(tmp_path / "t.sqlite")
    games = {}
    for h, seed, actions in con.execute("SELECT policy_hash, seed, actions FROM honest"):
        games[h, seed] = actions
    con.close()
    assert len(games) == 8                      # --talk none replayed nothing: same key
    assert any(games[old, s] != games[runs["open"]["policy_hash"], s]
               for s in ("3", "4", "5", "6"))
    t = onirim(*base, "--talk", "open", cwd=tmp_path)
    assert "two-player, open game" in t.stdout.splitlines()[0]
    assert "4 already stored" in t.stdout


@pytest.mark.parametrize("args", [
    ["--mode", "honest", "--policy", "greedy", "--talk", "open"],
    ["--mode", "honest", "--policy", "greedy", "--talk", "none"],
    ["--mode", "clairvoyant", "--players", "2", "--talk", "open"],
])
def test_talk_outside_honest_two_player_games_is_refused(tmp_path, args):
    r = onirim("winrate", "--deals", "2", *args, "--db", "x.sqlite", cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--talk" in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_the_open_game_s_default_is_the_open_switch_and_the_silent_one_duo_kcut_switch(
        tmp_path):
    base = ["winrate", "--mode", "honest", "--players", "2", "--seed", "5", "--deals", "1",
            "--db", "d.sqlite", "--json"]
    r = onirim(*base, "--talk", "open", "--policy-arg", "base=duo-krollout:n=4,screen=0",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["policy"] == "duo-open-switch" and out["policy_default"] and out["talk"] == "open"
    r = onirim(*base, "--policy-arg", "base=duo-kcut:n=4,screen=0", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["policy"] == "duo-kcut-switch" and out["policy_default"] and out["talk"] == "none"


@pytest.mark.parametrize("policy, args", [
    ("duo-plus2", []),
    ("duo-silent-switch", ["--policy-arg", "base=duo-krollout:n=4,screen=0"]),
    ("duo-kcut-switch", ["--policy-arg", "base=duo-kcut:n=4,screen=0"]),
])
def test_the_compile_notice_asks_about_the_policys_own_family(tmp_path, monkeypatch, capsys,
                                                              policy, args):
    """A two-player policy's compile notice asks numba's cache about the family its kernels
    are in (``PolicyBase.family``: duo-honest), not the solo honest family's timer."""
    from onirim import cli, precompile
    asked = []
    monkeypatch.setattr(precompile, "family_ready",
                        lambda name: asked.append(name) or True)
    rc = cli.main(["winrate", "--mode", "honest", "--players", "2", "--policy", policy, *args,
                   "--deals", "1", "--seed", "2", "--db", str(tmp_path / "f.sqlite"),
                   "--json"])
    assert rc == 0, capsys.readouterr().err
    assert asked == ["duo-honest"]
