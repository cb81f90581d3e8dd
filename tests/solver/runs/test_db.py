"""solver.runs.db: decided deals shared across settings, UNKNOWN rows split by budget only, the
version 1 -> 2 migration, honest games, refusals."""
import json
import sqlite3

import pytest

from solver.runs.db import (COLUMNS, COLUMNS_V1, DECIDED_KEY, SCHEMA_VERSION, DBError, ResultsDB,
                       settings_key, unknown_key)

S64 = {"budget_nodes": 1000, "budget_s": None, "tt_mb": 64, "solver": "cv2"}
S8 = dict(S64, tt_mb=8)
B2000 = dict(S64, budget_nodes=2000)


def cols(path, table="results"):
    con = sqlite3.connect(path)
    out = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
    con.close()
    return out


def test_decided_rows_ignore_table_size_and_budget(tmp_path):
    db = ResultsDB(str(tmp_path / "a.sqlite"))
    db.add("clairvoyant", S64, 1, "WIN", 10, 0.1, ["play Os"])
    db.add("clairvoyant", S64, 2, "UNKNOWN", 1000, 0.2, [])
    # a run with another table size: the decided deal is found, the UNKNOWN one too (the
    # table size cannot change an outcome)
    assert unknown_key(S8) == unknown_key(S64)
    assert db.done("clairvoyant", unknown_key(S8), [1, 2, 3]) == {
        1: ("WIN", 10, 0.1), 2: ("UNKNOWN", 1000, 0.2)}
    # another budget: the decided deal is found, the UNKNOWN one is solved again
    assert db.done("clairvoyant", unknown_key(B2000), [1, 2]) == {1: ("WIN", 10, 0.1)}
    db.add("clairvoyant", B2000, 2, "UNKNOWN", 2000, 0.3, [])
    assert db.done("clairvoyant", unknown_key(B2000), [2]) == {2: ("UNKNOWN", 2000, 0.3)}
    assert db.done("clairvoyant", unknown_key(S64), [2]) == {2: ("UNKNOWN", 1000, 0.2)}
    # deciding the deal removes its UNKNOWN rows, and every budget then finds the decision
    db.add("clairvoyant", dict(S64, budget_nodes=10**6), 2, "WIN", 5000, 0.5, ["x"])
    n = db.con.execute("SELECT COUNT(*) FROM results WHERE seed='2'").fetchone()[0]
    assert n == 1
    for s in (S64, S8, B2000):
        assert db.done("clairvoyant", unknown_key(s), [2]) == {2: ("WIN", 5000, 0.5)}
    # the row keeps the settings it was solved with
    row = db.con.execute("SELECT key, settings FROM results WHERE seed='2'").fetchone()
    assert row[0] == DECIDED_KEY and json.loads(row[1])["budget_nodes"] == 10**6
    db.close()


def test_a_contradiction_is_kept_for_verify(tmp_path):
    db = ResultsDB(str(tmp_path / "a.sqlite"))
    db.add("clairvoyant", S64, 5, "WIN", 10, 0.1, ["a"])
    db.add("clairvoyant", S8, 5, "WIN", 11, 0.1, ["b"])     # same result: the first is kept
    assert [r["certificate"] for r in db.rows()] == ['["a"]']
    db.add("clairvoyant", S8, 5, "LOSS", 11, 0.1, {"proof": "re-solve"})
    assert sorted(r["result"] for r in db.rows()) == ["LOSS", "WIN"]
    assert db.done("clairvoyant", unknown_key(S64), [5])[5][0] == "WIN"
    db.close()


def make_v1(path):
    con = sqlite3.connect(path)
    con.execute("""CREATE TABLE results (mode TEXT NOT NULL, settings TEXT NOT NULL,
        seed TEXT NOT NULL, result TEXT NOT NULL, nodes INTEGER NOT NULL,
        seconds REAL NOT NULL, certificate TEXT NOT NULL, created REAL NOT NULL,
        PRIMARY KEY (mode, settings, seed))""")
    rows = [(S64, 1, "WIN", '["w1"]'), (S8, 1, "WIN", '["w1b"]'),
            (S64, 2, "UNKNOWN", "[]"), (S8, 2, "UNKNOWN", "[]"),
            (S8, 3, "UNKNOWN", "[]"), (S64, 3, "WIN", '["w3"]'),
            (S64, 4, "LOSS", "[]"), (B2000, 6, "UNKNOWN", "[]")]
    for i, (s, seed, res, cert) in enumerate(rows):
        con.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    ("clairvoyant", settings_key(s), str(seed), res, 7, 0.01, cert, 100.0 + i))
    con.commit()
    con.close()


def test_version_1_file_is_read_only_as_is_and_migrated_on_write(tmp_path):
    path = str(tmp_path / "old.sqlite")
    make_v1(path)
    ro = ResultsDB(path, readonly=True)
    assert ro.version == 1 and len(list(ro.rows())) == 8 and list(ro.honest_rows()) == []
    ro.close()
    assert cols(path) == COLUMNS_V1                       # reading changed nothing
    db = ResultsDB(path)
    assert db.version == SCHEMA_VERSION and cols(path) == COLUMNS
    got = db.done("clairvoyant", unknown_key(S8), [1, 2, 3, 4, 5, 6])
    assert {k: v[0] for k, v in got.items()} == {1: "WIN", 2: "UNKNOWN", 3: "WIN", 4: "LOSS"}
    assert db.done("clairvoyant", unknown_key(B2000), [6]) == {6: ("UNKNOWN", 7, 0.01)}
    rows = list(db.rows())
    # every certificate is kept (the second WIN of deal 1 under its old settings); the
    # UNKNOWN rows of deal 2 that differed only by table size became one; deal 3's UNKNOWN
    # row, superseded by its WIN, is gone
    assert sorted(r["certificate"] for r in rows if r["result"] == "WIN") == \
        ['["w1"]', '["w1b"]', '["w3"]']
    assert sorted((r["seed"], r["result"]) for r in rows) == [
        (1, "WIN"), (1, "WIN"), (2, "UNKNOWN"), (3, "WIN"), (4, "LOSS"), (6, "UNKNOWN")]
    db.close()
    ResultsDB(path).close()                               # a second open: nothing to do
    assert cols(path) == COLUMNS


def test_honest_rows_and_policies(tmp_path):
    db = ResultsDB(str(tmp_path / "h.sqlite"))
    db.add_policy("abc", "greedy", {})
    db.add_policy("abc", "greedy", {})
    row = {"seed": 9, "won": True, "doors": 8, "decisions": 50, "seconds": 0.5,
           "actions": ["play Os"]}
    db.add_honest("abc", [row, dict(row, seed=10, won=False, doors=3)])
    db.add_honest("abc", [dict(row, doors=1)])            # a stored game is kept
    assert db.honest_done("abc", [9, 10, 11]) == {
        9: {"won": True, "doors": 8, "decisions": 50, "seconds": 0.5, "cpu_seconds": None},
        10: {"won": False, "doors": 3, "decisions": 50, "seconds": 0.5, "cpu_seconds": None}}
    db.add_honest("abc", [dict(row, seed=11, cpu_seconds=0.25)])
    assert db.honest_done("abc", [11])[11]["cpu_seconds"] == 0.25
    assert db.honest_done("other", [9]) == {}
    assert db.policies() == {"abc": {"name": "greedy", "config": {}}}
    assert [r["seed"] for r in db.honest_rows()] == [9, 10, 11]
    db.close()


def test_refusals(tmp_path):
    with pytest.raises(DBError, match="empty"):
        ResultsDB("")
    with pytest.raises(DBError, match="does not exist"):
        ResultsDB(str(tmp_path / "no" / "x.sqlite"))
    path = str(tmp_path / "f.sqlite")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE honest (x INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(DBError, match="not an onirim results file"):
        ResultsDB(path)
    path = str(tmp_path / "newer.sqlite")
    ResultsDB(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value='99' WHERE name='schema_version'")
    con.commit()
    con.close()
    with pytest.raises(DBError, match="schema version 99"):
        ResultsDB(path)
