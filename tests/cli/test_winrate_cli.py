"""`onirim winrate` and `onirim verify` end to end (subprocesses, small budgets)."""
import json
import os
import signal
import sqlite3
import subprocess
import time

import pytest

from onirim import cli
from winrate_kit import ROOT, kill_9_then_resume, onirim, start, wait_for_rows



def run_main(capsys, *args, cwd):
    """``onirim ARGS`` in this process, from folder ``cwd``: (exit status, stdout, stderr)."""
    capsys.readouterr()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        rc = cli.main(list(args))
    finally:
        os.chdir(here)
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, rc, out.out, out.err)


def rows(db):
    con = sqlite3.connect(db)
    out = {int(r[0]): r[1:] for r in con.execute(
        "SELECT seed, result, nodes, certificate, settings, created FROM results")}
    n = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    con.close()
    assert n == len(out)
    return out


@pytest.mark.slow
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
    # settings that cannot change a decided result (table size, budget, jobs) reuse the
    # stored deals: nothing is solved again, no row is added
    d = onirim("winrate", "--deals", "3", "--seed", "100", "--db", "a.sqlite", "--json",
               "--budget-nodes", "5000", "--tt-mb", "8", "--jobs", "2", cwd=tmp_path)
    assert d.returncode == 0, d.stderr
    assert rows(tmp_path / "a.sqlite") == rc
    dj = json.loads(d.stdout)
    assert dj["wins"] == sum(1 for k in range(100, 103) if rc[k][0] == "WIN")
    # human-readable summary
    e = onirim("winrate", "--deals", "3", "--seed", "100", "--db", "a.sqlite", cwd=tmp_path)
    assert e.returncode == 0 and "win rate" in e.stdout
    # verify: every stored certificate replays
    v = onirim("verify", "--db", "a.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0, v.stdout + v.stderr
    vj = json.loads(v.stdout)
    assert vj["ok"] and vj["wins_verified"] == vj["wins"] > 0


def test_verify_catches_a_bad_certificate(tmp_path, capsys):
    r = run_main(capsys, "winrate", "--deals", "2", "--seed", "5", "--db", "x.sqlite", "--json",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(tmp_path / "x.sqlite")
    seed, cert = con.execute("SELECT seed, certificate FROM results WHERE result='WIN'").fetchone()
    line = json.loads(cert)
    con.execute("UPDATE results SET certificate=? WHERE seed=?", (json.dumps(line[:-2]), seed))
    con.commit()
    con.close()
    v = run_main(capsys, "verify", "--db", "x.sqlite", cwd=tmp_path)
    assert v.returncode == 1
    assert "FAILED" in v.stdout


@pytest.mark.slow
def test_kill_9_then_resume(tmp_path):
    n = 600
    before, r, after = kill_9_then_resume(
        ["winrate", "--deals", str(n), "--seed", "300", "--db", "k.sqlite", "--json"],
        tmp_path, "k.sqlite", "results", 3, 0.02, rows)
    assert 3 <= len(before) < n
    assert r.returncode == 0, r.stderr
    assert sorted(after) == list(range(300, 300 + n))
    assert all(after[k] == before[k] for k in before)   # nothing solved twice
    assert json.loads(r.stdout)["deals"] == n


@pytest.mark.parametrize("args, words", [
    (["--deals", "-3"], "--deals"),
    (["--deals", "3", "--mode", "expectimax"], "mode"),
    (["--deals", "3", "--jobs", "0"], "--jobs"),
    (["--deals", "3", "--db", "/nonexistent-dir/x.sqlite"], "does not exist"),
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
    assert r.returncode == 2 and "not an onirim results file" in r.stderr, r.stderr
    con = sqlite3.connect(other)
    assert [n for (n,) in con.execute("SELECT name FROM sqlite_master")] == ["notes"]


def test_verify_missing_db(tmp_path):
    r = onirim("verify", "--db", "nope.sqlite", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("onirim: error:")


def test_table_too_big_for_memory_is_one_line(tmp_path, capsys):
    """`--tt-mb 65536` is inside the accepted range, but did not fit in memory: it ended in
    a numpy allocation traceback, exit 1."""
    for extra in ([], ["--jobs", "256"]):
        r = run_main(capsys, "winrate", "--deals", "2", "--tt-mb", "65536", *extra, "--db",
                     "m.sqlite", cwd=tmp_path)
        if not extra and r.returncode == 0:
            continue            # a machine with more than 80 GB free: the table fits
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("onirim: error: --tt-mb:"), lines
        assert "memory" in lines[0]


def test_check_memory_unit():
    from onirim.cli import UsageError
    from onirim.cmd_winrate import check_memory
    check_memory(64, 2, avail=1 << 30)
    with pytest.raises(UsageError, match="does not fit"):
        check_memory(512, 2, avail=1 << 30)


@pytest.mark.parametrize("cmd", [["winrate", "--deals", "1"], ["verify"]])
def test_empty_db_path_is_refused(tmp_path, capsys, cmd):
    r = run_main(capsys, *cmd, "--db", "", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("onirim: error: --db:"), lines
    assert os.listdir(tmp_path) == []


def test_no_decided_deal_has_no_win_rate(tmp_path, capsys):
    """With every deal UNKNOWN the win rate is null, not 0.0, and the text says so."""
    a = run_main(capsys, "winrate", "--deals", "3", "--seed", "0", "--budget-nodes", "1", "--db",
               "u.sqlite", "--json", cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert out["unknown"] == 3 and out["win_rate"] is None
    assert out["ci95"] == [0.0, 1.0] and out["ci95_with_unknown"] == [0.0, 1.0]
    b = run_main(capsys, "winrate", "--deals", "3", "--seed", "0", "--budget-nodes", "1", "--db",
               "u.sqlite", cwd=tmp_path)
    assert b.returncode == 0 and "no deal decided" in b.stdout, b.stdout
    # the UNKNOWN rows are kept for this budget only: the default budget decides them, and
    # the UNKNOWN rows are then gone
    c = run_main(capsys, "winrate", "--deals", "3", "--seed", "0", "--db", "u.sqlite", "--json",
               cwd=tmp_path)
    assert json.loads(c.stdout)["unknown"] == 0
    assert {v[0] for v in rows(tmp_path / "u.sqlite").values()} == {"WIN"}


def _set_result(db, seed, result, cert):
    con = sqlite3.connect(db)
    con.execute("UPDATE results SET result=?, certificate=? WHERE seed=?",
                (result, json.dumps(cert), str(seed)))
    con.commit()
    con.close()


def test_verify_does_not_pass_a_forged_loss(tmp_path, capsys):
    r = run_main(capsys, "winrate", "--deals", "2", "--seed", "5", "--db", "x.sqlite", "--json",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # a LOSS with an empty certificate used to pass: it is unverified now
    _set_result(tmp_path / "x.sqlite", 5, "LOSS", [])
    v = run_main(capsys, "verify", "--db", "x.sqlite", "--json", cwd=tmp_path)
    vj = json.loads(v.stdout)
    assert v.returncode == 1 and not vj["ok"]
    assert vj["losses"] == 1 and vj["losses_unverified"] == 1 and vj["losses_verified"] == 0
    assert "seed 5: LOSS unverified" in vj["unverified"][0]
    # a LOSS with a re-solve recipe on a deal that is won: the re-solve finds the win
    from solver.clairvoyant.solve import loss_recipe
    _set_result(tmp_path / "x.sqlite", 5, "LOSS", loss_recipe(20_000_000, None, 8, 123))
    v = run_main(capsys, "verify", "--db", "x.sqlite", cwd=tmp_path)
    assert v.returncode == 1 and "FAILED seed 5: stored LOSS, but re-solved: WIN" in v.stdout


def test_check_loss_on_real_losses():
    """A LOSS found by the solver carries a recipe that re-proves it; the same recipe on a
    won position fails; no recipe is unverified."""
    from engine.notation import parse_position
    from solver.clairvoyant.solve import check_loss, loss_recipe, solve_state
    fixture = os.path.join(ROOT, "tests", "fixtures", "solver_near_end.tsv")
    lost, won = [], []
    with open(fixture) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            pos, res = line.rstrip("\n").split("\t")[:2]
            (lost if res == "LOSS" else won).append(pos)
    assert lost and won
    for pos in lost[:3]:
        st = parse_position(pos)
        r = solve_state(st, budget_nodes=100_000)
        assert r.result == "LOSS"
        assert check_loss(st, loss_recipe(100_000, None, 8, r.nodes))[0] == "verified"
        assert check_loss(st, [])[0] == "unverified"
        assert check_loss(st, {"proof": "re-solve"})[0] == "unverified"
    st = parse_position(won[0])
    assert check_loss(st, loss_recipe(100_000, None, 8, 1))[0] == "failed"


def test_an_old_database_still_opens_and_is_reused(tmp_path, capsys):
    """A version 1 file (settings with the table size in the key) opens; its decided deals
    are reused by a run with another table size; verify reads it before and after."""
    path = tmp_path / "old.sqlite"
    con = sqlite3.connect(path)
    con.execute("""CREATE TABLE results (mode TEXT NOT NULL, settings TEXT NOT NULL,
        seed TEXT NOT NULL, result TEXT NOT NULL, nodes INTEGER NOT NULL,
        seconds REAL NOT NULL, certificate TEXT NOT NULL, created REAL NOT NULL,
        PRIMARY KEY (mode, settings, seed))""")
    from solver.clairvoyant.solve import solve_deal
    r = solve_deal(11)
    assert r.result == "WIN"
    old = json.dumps({"budget_nodes": 20000000, "budget_s": None, "solver": "cv2",
                      "tt_mb": 64}, sort_keys=True, separators=(",", ":"))
    con.execute("INSERT INTO results VALUES ('clairvoyant', ?, '11', 'WIN', 77, 0.5, ?, 1.0)",
                (old, json.dumps(r.line)))
    con.commit()
    con.close()
    v = run_main(capsys, "verify", "--db", "old.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0 and json.loads(v.stdout)["wins_verified"] == 1, v.stdout + v.stderr
    a = run_main(capsys, "winrate", "--deals", "2", "--seed", "11", "--tt-mb", "8", "--db", "old.sqlite",
               "--json", cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    got = rows(path)
    assert sorted(got) == [11, 12] and got[11][1] == 77       # deal 11 was not solved again
    v = run_main(capsys, "verify", "--db", "old.sqlite", "--json", cwd=tmp_path)
    assert v.returncode == 0 and json.loads(v.stdout)["wins_verified"] == 2


def test_kernels_warm_up_before_the_first_deal(tmp_path, monkeypatch, capsys):
    """The kernels are compiled/loaded before any deal is timed (deal 0 used to store 126 s
    of compile time), and a slow warm-up (a cold numba cache) is announced on stderr."""
    from onirim import cli, cmd_winrate
    from solver.runs import runner
    events = []
    real_warm, real_play = runner.warm_clairvoyant, runner.ClairvoyantWorker.play

    def slow_warm(solver):
        events.append("warm")
        time.sleep(0.3)
        return real_warm(solver)

    def play(self, seed):
        events.append("play")
        return real_play(self, seed)

    monkeypatch.setattr(runner, "warm_clairvoyant", slow_warm)
    monkeypatch.setattr(runner.ClairvoyantWorker, "play", play)
    monkeypatch.setattr(cmd_winrate, "COMPILE_NOTICE_S", 0.05)
    monkeypatch.setattr(runner, "_WORKERS", {})
    from onirim import precompile
    monkeypatch.setattr(precompile, "family_ready", lambda name: None)   # cannot tell: timer
    rc = cli.main(["winrate", "--deals", "2", "--seed", "3", "--db",
                   str(tmp_path / "w.sqlite"), "--json"])
    err = capsys.readouterr().err
    assert rc == 0, err
    assert events == ["warm", "play", "play"]
    assert "compiling the numba kernels of the clairvoyant family, once per install" in err
    assert "kernels ready" in err


def test_ctrl_c_with_two_jobs_clairvoyant(tmp_path):
    cmd = ["winrate", "--mode", "clairvoyant", "--deals", "50000", "--seed", "0", "--jobs",
           "2", "--db", "c.sqlite", "--json"]
    p = start(cmd, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
              start_new_session=True)
    db = tmp_path / "c.sqlite"
    wait_for_rows(db, "results", 5, poll=0.05)
    os.killpg(p.pid, signal.SIGINT)          # Ctrl-C reaches every process of the group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and out == "", err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    stored = rows(db)
    assert 5 <= len(stored) < 50000
    assert f"interrupted: {len(stored)} of 50000 deals are stored in c.sqlite" in lines[0]
    assert lines[0].endswith("resume with: onirim " + " ".join(cmd))


def test_demo_says_it_is_compiling(tmp_path, monkeypatch, capsys):
    """`onirim demo` sat at 0% for two minutes on a cold cache; it now says it is compiling
    (and how long that takes, as measured) before the wait, when numba's cache says that
    the family is not compiled."""
    from onirim import cmd_winrate, precompile
    from solver.runs import runner as runner
    monkeypatch.setattr(precompile, "family_ready", lambda name: False)
    real_warm = runner.warm_clairvoyant

    def slow_warm(solver):
        time.sleep(0.3)
        return real_warm(solver)

    monkeypatch.setattr(runner, "warm_clairvoyant", slow_warm)
    monkeypatch.setattr(cmd_winrate, "COMPILE_NOTICE_S", 0.05)
    monkeypatch.setattr(runner, "_WORKERS", {})
    rc = cli.main(["demo", "--deals", "2", "--db", str(tmp_path / "d.sqlite")])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "compiling the numba kernels of the clairvoyant family before the first use" in out.err
    assert f"about {precompile.FAMILIES['clairvoyant'][1]} s of CPU measured" in out.err
    assert out.err.index("compiling") < out.err.index("kernels ready")
    assert "Certified winning line of deal 0" in out.out


def test_a_loss_is_stored_with_its_recipe(tmp_path, monkeypatch, capsys):
    """No real deal has been lost yet; a solver that answers LOSS shows that winrate stores
    the recipe verify needs (and verify then catches this false LOSS by re-solving)."""
    from solver.runs import runner
    from solver.clairvoyant.solve import SOLVER_VERSION, ClairvoyantSolver, SolveResult
    real = ClairvoyantSolver.solve_deal

    def fake(self, seed, **kw):
        return SolveResult("LOSS", nodes=42, seconds=0.01) if seed == 8 else real(self, seed, **kw)

    monkeypatch.setattr(ClairvoyantSolver, "solve_deal", fake)
    monkeypatch.setattr(runner, "_WORKERS", {})
    r = run_main(capsys, "winrate", "--deals", "2", "--seed", "7", "--budget-nodes", "300000",
                 "--tt-mb", "4", "--db", "l.sqlite", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["losses"] == 1
    cert = json.loads(rows(tmp_path / "l.sqlite")[8][2])
    assert cert == {"proof": "re-solve", "solver": SOLVER_VERSION, "budget_nodes": 300000,
                    "budget_s": None, "tt_mb": 4.0, "nodes": 42}
    monkeypatch.setattr(ClairvoyantSolver, "solve_deal", real)
    v = run_main(capsys, "verify", "--db", "l.sqlite", "--json", cwd=tmp_path)
    vj = json.loads(v.stdout)
    assert v.returncode == 1 and vj["failed"] == 1 and "re-solved: WIN" in vj["failures"][0]
