"""`onirim winrate` and `onirim verify` end to end (subprocesses, small budgets)."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def onirim(*args, cwd, timeout=240):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "onirim", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def rows(db):
    con = sqlite3.connect(db)
    out = {int(r[0]): r[1:] for r in con.execute(
        "SELECT seed, result, nodes, certificate, settings, created FROM results")}
    n = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    con.close()
    assert n == len(out)
    return out


def test_json_output_resume_and_jobs(tmp_path):
    a = onirim("winrate", "--mode", "clairvoyant", "--deals", "12", "--seed", "100", "--jobs",
               "2", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert set(out) == {"mode", "deals", "wins", "losses", "unknown", "win_rate", "ci95",
                        "ci95_with_unknown", "seconds", "nodes"}
    assert out["mode"] == "clairvoyant" and out["deals"] == 12
    assert out["wins"] + out["losses"] + out["unknown"] == 12
    if out["wins"] + out["losses"]:
        assert out["win_rate"] == out["wins"] / (out["wins"] + out["losses"])
    lo, hi = out["ci95"]
    assert 0 <= lo <= out["win_rate"] <= hi <= 1
    assert out["ci95_with_unknown"][0] <= lo and out["ci95_with_unknown"][1] >= hi
    ra = rows(tmp_path / "a.sqlite")
    assert sorted(ra) == list(range(100, 112))
    # same deals with one job: identical per-deal results (node budget => deterministic)
    b = onirim("winrate", "--deals", "12", "--seed", "100", "--db", "b.sqlite", "--json",
               cwd=tmp_path)
    assert b.returncode == 0, b.stderr
    rb = rows(tmp_path / "b.sqlite")
    assert {k: v[:3] for k, v in ra.items()} == {k: v[:3] for k, v in rb.items()}
    assert json.loads(b.stdout)["wins"] == out["wins"]
    # rerun over a larger range: old rows untouched, only the new deals solved
    c = onirim("winrate", "--deals", "15", "--seed", "100", "--db", "a.sqlite", "--json",
               cwd=tmp_path)
    assert c.returncode == 0, c.stderr
    rc = rows(tmp_path / "a.sqlite")
    assert sorted(rc) == list(range(100, 115))
    assert all(rc[k] == ra[k] for k in ra)
    # other settings are stored apart, never mixed
    d = onirim("winrate", "--deals", "3", "--seed", "100", "--db", "a.sqlite", "--json",
               "--budget-nodes", "5000", cwd=tmp_path)
    assert d.returncode == 0, d.stderr
    con = sqlite3.connect(tmp_path / "a.sqlite")
    assert con.execute("SELECT COUNT(DISTINCT settings) FROM results").fetchone()[0] == 2
    con.close()
    # human-readable summary
    e = onirim("winrate", "--deals", "3", "--seed", "100", "--db", "a.sqlite", cwd=tmp_path)
    assert e.returncode == 0 and "win rate" in e.stdout
    # verify: every stored certificate replays
    v = onirim("verify", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0, v.stdout + v.stderr
    vj = json.loads(v.stdout)
    assert vj["ok"] and vj["wins_verified"] == vj["wins"] > 0


def test_verify_catches_a_bad_certificate(tmp_path):
    r = onirim("winrate", "--deals", "2", "--seed", "5", "--db", "x.sqlite", "--json",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(tmp_path / "x.sqlite")
    seed, cert = con.execute("SELECT seed, certificate FROM results WHERE result='WIN'").fetchone()
    line = json.loads(cert)
    con.execute("UPDATE results SET certificate=? WHERE seed=?", (json.dumps(line[:-2]), seed))
    con.commit()
    con.close()
    v = onirim("verify", "--db", "x.sqlite", cwd=tmp_path)
    assert v.returncode == 1
    assert "FAILED" in v.stdout


def test_kill_9_then_resume(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    n = 600
    p = subprocess.Popen([sys.executable, "-m", "onirim", "winrate", "--deals", str(n), "--seed",
                          "300", "--db", "k.sqlite", "--json"], cwd=tmp_path, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = tmp_path / "k.sqlite"
    t0 = time.time()
    stored = 0
    while time.time() - t0 < 120:
        time.sleep(0.02)
        if db.exists():
            try:
                con = sqlite3.connect(db, timeout=1)
                stored = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                con.close()
            except sqlite3.Error:
                stored = 0
            if stored >= 3:
                break
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    before = rows(db)
    assert 3 <= len(before) < n
    r = onirim("winrate", "--deals", str(n), "--seed", "300", "--db", "k.sqlite", "--json",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    after = rows(db)
    assert sorted(after) == list(range(300, 300 + n))
    assert all(after[k] == before[k] for k in before)   # nothing solved twice
    assert json.loads(r.stdout)["deals"] == n


@pytest.mark.parametrize("args, words", [
    (["--deals", "-3"], "--deals"),
    (["--deals", "3", "--mode", "expectimax"], "mode"),
    (["--deals", "3", "--jobs", "0"], "--jobs"),
    (["--deals", "3", "--db", "/nonexistent-dir/x.sqlite"], "database"),
    (["--deals", "3", "--db", "."], "folder"),
    (["--deals", "3", "--budget-nodes", "-1"], "--budget-nodes"),
    (["--deals", "x"], "deals"),
    (["--deals", "1", "--budget-s", "inf"], "--budget-s"),       # was a traceback
    (["--deals", "1", "--budget-s", "1e308"], "--budget-s"),     # was a traceback
    (["--deals", "1", "--budget-nodes", str(10**22)], "--budget-nodes"),   # traceback
    (["--deals", "1", "--jobs", str(10**22)], "--jobs"),         # was a hang
    (["--deals", str(10**12)], "--deals"),                       # was unbounded memory
])
def test_bad_flags(tmp_path, args, words):
    r = onirim("winrate", *args, cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("onirim: error:") and words in lines[0]
    assert "Traceback" not in r.stderr


def test_a_foreign_sqlite_file_is_refused(tmp_path):
    """A SQLite file of some other program with a table called ``results`` (it used to end
    in a traceback, "no such column: seed") is refused with one line, and left unchanged."""
    import sqlite3
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE results (x INTEGER)")
    con.execute("INSERT INTO results VALUES (7)")
    con.commit()
    con.close()
    for cmd in (["winrate", "--deals", "2"], ["verify"]):
        r = onirim(*cmd, "--db", str(path), cwd=tmp_path)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "not an onirim results file" in lines[0], lines
    con = sqlite3.connect(path)
    assert con.execute("SELECT * FROM results").fetchall() == [(7,)]
    assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)   # not made WAL
    con.close()
    # verify only reads: a SQLite file without the table is refused, and stays without it
    other = tmp_path / "notes.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (x TEXT)")
    con.commit()
    con.close()
    r = onirim("verify", "--db", str(other), cwd=tmp_path)
    assert r.returncode == 2 and "no table 'results'" in r.stderr, r.stderr
    con = sqlite3.connect(other)
    assert [n for (n,) in con.execute("SELECT name FROM sqlite_master")] == ["notes"]


def test_verify_missing_db(tmp_path):
    r = onirim("verify", "--db", "nope.sqlite", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("onirim: error:")
