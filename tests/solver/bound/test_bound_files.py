"""``onirim bound`` keeps ``winrate``'s storage rules (onirim/results_file.py,
solver/runs/db.py ``BoundDB``): another program's file and a ``winrate`` file are refused
unchanged; a read-only file or folder is read when every deal is stored and refused in one
line, before any deal is computed, when not; a run whose deals are all stored writes no side
file; the new-file and interrupted lines are ``winrate``'s; the JSON is one line without float
noise; every argument is checked before the file is touched."""
from __future__ import annotations

import json
import os
import sqlite3

import pytest

from onirim.cli import main

FAST = ["--budget-nodes", "400"]        # whole deals cut short: each counts 1 (W = 0, sound)


def snapshot(folder):
    return {p: open(os.path.join(folder, p), "rb").read() for p in sorted(os.listdir(folder))}


def run_main(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_error_line(rc, out, err, *needles):
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("onirim: error: "), (rc, err)
    for n in needles:
        assert n in lines[0], (n, lines[0])


def _foreign(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE foo (x INTEGER)")
    con.execute("INSERT INTO foo VALUES (1)")
    con.commit()
    con.close()


def test_a_file_of_another_program_is_refused_unchanged(tmp_path, capsys):
    db = str(tmp_path / "other.sqlite")
    _foreign(db)
    before = snapshot(tmp_path)
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", db, *FAST)
    one_error_line(rc, out, err, "--db: ", "not an onirim bound file", "'foo'")
    assert snapshot(tmp_path) == before


def test_a_winrate_file_is_refused_unchanged_and_the_reverse(tmp_path, capsys):
    wr = str(tmp_path / "wr.sqlite")
    rc, out, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                            "--deals", "1", "--db", wr, "--json")
    assert rc == 0, err
    before = snapshot(tmp_path)
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", wr, *FAST)
    one_error_line(rc, out, err, "--db: ", "winrate results file")
    assert snapshot(tmp_path) == before
    bd = str(tmp_path / "bd.sqlite")
    assert run_main(capsys, "bound", "--deals", "1", "--db", bd, "--json", *FAST)[0] == 0
    before = snapshot(tmp_path)
    for argv in (["winrate", "--mode", "honest", "--policy", "greedy", "--deals", "1"],
                 ["verify"]):
        rc, out, err = run_main(capsys, *argv, "--db", bd)
        one_error_line(rc, out, err, "--db: ", "bound file")
    assert snapshot(tmp_path) == before


def test_read_only_storage(tmp_path, capsys, monkeypatch):
    """A read-only file or folder (simulated as in the winrate tests: ``os.access`` says no,
    as on a read-only mount; root may write anything): the stored deals are read and nothing
    is written, not even ``-wal``/``-shm`` files; a run that must store a deal is refused in
    one line before computing it."""
    db = str(tmp_path / "b.sqlite")
    rc, out, err = run_main(capsys, "bound", "--deals", "2", "--db", db, "--json", *FAST)
    assert rc == 0, err
    first = json.loads(out)
    assert sorted(os.listdir(tmp_path)) == ["b.sqlite"]
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if mode & os.W_OK
                        else real(p, mode, *a, **k))
    before = snapshot(tmp_path)
    rc, out, err = run_main(capsys, "bound", "--deals", "2", "--db", db, "--json", *FAST)
    assert rc == 0 and json.loads(out)["bound"] == first["bound"], err
    assert snapshot(tmp_path) == before          # no side file either
    from solver.bound import run as bound_run
    calls = []
    monkeypatch.setattr(bound_run, "bound_deal", lambda *a: calls.append(a))
    rc, out, err = run_main(capsys, "bound", "--deals", "3", "--db", db, *FAST)
    one_error_line(rc, out, err, "--db: ", "permission denied",
                   "1 of the 3 deals asked are not stored", "must write")
    assert calls == [] and snapshot(tmp_path) == before


def test_an_unwritable_sqlite_file_is_one_line_before_any_deal(tmp_path, capsys, monkeypatch):
    """SQLite itself refusing to write (an immutable file: ``attempt to write a readonly
    database``) is caught by the probe write, before any deal."""
    db = str(tmp_path / "b.sqlite")
    assert run_main(capsys, "bound", "--deals", "1", "--db", db, "--json", *FAST)[0] == 0
    from solver.bound import run as bound_run
    from solver.runs import db as db_mod
    calls = []
    monkeypatch.setattr(bound_run, "bound_deal", lambda *a: calls.append(a))
    real = sqlite3.connect
    monkeypatch.setattr(db_mod.sqlite3, "connect", lambda p, *a, **k: real(
        f"file:{p}?mode=ro", uri=True, **k) if not str(p).startswith("file:") else
        real(p, *a, **k))
    rc, out, err = run_main(capsys, "bound", "--deals", "2", "--db", db, *FAST)
    one_error_line(rc, out, err, "--db: ", "readonly database")
    assert calls == []


def test_refused_arguments_leave_no_file(tmp_path, capsys):
    db = tmp_path / "new.sqlite"
    for argv, field in ((["--cluster", "local:0"], "--cluster"),
                        (["--cluster", "local:2", "--jobs", "2"], "--jobs"),
                        (["--policy", "greedy", "--switch", "5", "--policy-seed", "-1"],
                         "--policy-seed"),
                        (["--policy", "greedy", "--switch", "5", "--policy-seed",
                          str(2 ** 70)], "--policy-seed"),
                        (["--policy", "seq-rollout", "--switch", "5", "--policy-arg", "n=0"],
                         "--policy-arg"),
                        (["--policy", "endgame", "--switch", "5", "--policy-arg",
                          "budget_s=0.5"], "--policy-arg")):
        rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", str(db), *argv)
        one_error_line(rc, out, err, field + ":")
        assert not db.exists(), argv


def test_one_json_line_without_float_noise_and_winrates_new_file_line(tmp_path, capsys):
    db = str(tmp_path / "b.sqlite")
    rc, out, err = run_main(capsys, "bound", "--deals", "3", "--db", db, "--json", *FAST)
    assert rc == 0 and len(out.strip().splitlines()) == 1, out
    out_j = json.loads(out)
    assert out_j["bound"] == 1.0 and out_j["upper95"] == 1.0
    for text in out.replace(",", " ").replace("]", " ").split():
        digits = text.partition(".")[2].strip('"}')
        assert len(digits) <= 12, text
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db",
                            str(tmp_path / "c.sqlite"), *FAST)
    assert rc == 0
    assert ("onirim: storing the results in the new file " + str(tmp_path / "c.sqlite")
            + " (--db); the same command resumes from it") in err


def test_clean_rounds_float_noise():
    from onirim.cmd_bound import _clean
    assert _clean({"a": [0.9999999999999999, 0.1 + 0.2], "b": 3, "c": float("nan")}) == \
        {"a": [1.0, 0.3], "b": 3, "c": None}


def test_the_policys_argument_errors_name_policy_arg(tmp_path, capsys):
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", str(tmp_path / "b"),
                            "--policy", "seq-rollout", "--policy-arg", "n=0", "--switch", "5")
    one_error_line(rc, out, err, "--policy-arg: ")


def test_w_exact_without_a_limit_warns(tmp_path, capsys, monkeypatch):
    from solver.bound import run as bound_run
    monkeypatch.setattr(bound_run, "warm_up", lambda *a, **k: None)
    monkeypatch.setattr(bound_run, "bound_deal", lambda config, s: {
        "seed": s, "value": 0.5, "finished": True, "nodes": 1, "stops": 0, "inexact": 0,
        "unknown_at_start": 0, "decided_before_switch": False})
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", str(tmp_path / "b"),
                            "--w", "exact", "--json")
    assert rc == 0 and "no node limit" in err and "--ex-budget" in err, err
    rc, out, err = run_main(capsys, "bound", "--deals", "1", "--db", str(tmp_path / "c"),
                            "--w", "exact", "--ex-budget", "1000", "--json")
    assert rc == 0 and "warning" not in err, err


def test_bound_errors_derive_from_onirim_error():
    from engine.errors import OnirimError
    from solver.bound.deal import TooManyDeals, Unfixed
    assert issubclass(Unfixed, OnirimError) and issubclass(TooManyDeals, OnirimError)


def test_a_row_with_an_expectimax_budget_does_not_depend_on_the_deals_before_it():
    """With ``--ex-budget`` a search cut short pays its upper end, which depends on what the
    expectimax memo holds: the tables are emptied for every deal, so a deal's row is the same
    after other deals as alone (resume, --jobs and a cluster then store the same rows)."""
    from solver.bound import run as bound_run
    config = bound_run.make_config("zero", stop=12, budget_nodes=300_000, ex_budget=3000)

    def stable(row):
        return {k: v for k, v in row.items() if k not in ("cpu_s", "seconds", "pid")}
    bound_run._SOLVERS.clear()
    alone = [stable(bound_run.bound_deal(config, s)) for s in (4, 5)]
    bound_run._SOLVERS.clear()
    for s in (4, 5, 0, 1):         # the memo warm, even with these deals' own searches
        bound_run.bound_deal(config, s)
    after = [stable(bound_run.bound_deal(config, s)) for s in (4, 5)]
    bound_run._SOLVERS.clear()
    assert after == alone
    assert any(r["inexact"] for r in alone)       # the budget did cut searches short
