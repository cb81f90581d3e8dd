"""`onirim winrate` and `onirim verify` and the results file (issue 27): a SQLite file of
another program is refused before any write; stored results are read without writing
anything (so a read-only file or folder works); a run that must write says so; a run of any
accepted size starts in bounded memory; reused rows carry the budget that produced them;
the help lists every choice and default; error lines keep their `<field>: <problem>` form.

Honest runs of the `greedy` policy (pure Python, nothing to compile) keep these fast."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tracemalloc

import pytest

from onirim import cli, cmd_winrate
from solver.runs import runner as runner
from solver.runs.db import ResultsDB, settings_key

GREEDY = ("winrate", "--mode", "honest", "--policy", "greedy")


def run_main(capsys, *args):
    """``onirim ARGS`` in this process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    rc = cli.main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def snapshot(folder) -> dict:
    """Every file of ``folder`` with the hash of its bytes."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


def one_error_line(rc, out, err, *words):
    assert rc == 2 and out == "", (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("onirim: error: "), lines
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# ------------------------------------------------------------------ item 2: a foreign file
@pytest.mark.parametrize("cmd", [GREEDY + ("--deals", "2"), ("winrate", "--deals", "2")])
def test_a_file_of_another_program_is_refused_before_any_write(tmp_path, capsys, cmd):
    """Only a table ``foo``: refused with one line, exit 2, the file byte for byte the same
    and no WAL side file made (it used to gain onirim's four tables and WAL mode)."""
    d = tmp_path / "d"
    d.mkdir()
    path = d / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE foo (x INTEGER)")
    con.execute("INSERT INTO foo VALUES (7)")
    con.commit()
    con.close()
    before = snapshot(d)
    rc, out, err = run_main(capsys, *cmd, "--db", str(path))
    one_error_line(rc, out, err, "--db: ", "not an onirim results file", "'foo'")
    assert snapshot(d) == before
    rc, out, err = run_main(capsys, "verify", "--db", str(path))
    one_error_line(rc, out, err, "--db: ", "not an onirim results file")
    assert snapshot(d) == before


def test_an_empty_sqlite_file_is_ours_to_fill(tmp_path, capsys):
    path = tmp_path / "empty.sqlite"
    sqlite3.connect(path).close()
    rc, out, err = run_main(capsys, *GREEDY, "--deals", "2", "--db", str(path), "--json")
    assert rc == 0, err
    assert json.loads(out)["deals"] == 2


# ------------------------------------------------------------------ item 3: read only
def _stored_run(capsys, tmp_path, deals=4):
    d = tmp_path / "store"
    d.mkdir()
    db = str(d / "wr.sqlite")
    rc, out, err = run_main(capsys, *GREEDY, "--deals", str(deals), "--db", db, "--json")
    assert rc == 0, err
    return d, db, json.loads(out)


def test_stored_results_are_read_without_writing_anything(tmp_path, capsys):
    """verify, and a winrate whose deals are all stored, leave the folder exactly as it was:
    no byte of the file changes and no -wal/-shm file appears (``mode=ro`` alone makes
    both beside a WAL file and leaves them there)."""
    d, db, first = _stored_run(capsys, tmp_path)
    before = snapshot(d)
    assert list(before) == ["wr.sqlite"]
    rc, out, err = run_main(capsys, "verify", "--db", db, "--json")
    assert rc == 0 and json.loads(out)["honest_verified"] == 4, err
    assert snapshot(d) == before
    rc, out, err = run_main(capsys, *GREEDY, "--deals", "3", "--seed", "1", "--db", db,
                            "--json")
    assert rc == 0, err
    assert snapshot(d) == before
    rc, out, err = run_main(capsys, *GREEDY, "--deals", "4", "--db", db)
    assert rc == 0 and "4 already stored" in out and f"wins {first['wins']} " in out, out
    assert snapshot(d) == before


def test_a_folder_that_cannot_be_written(tmp_path, capsys, monkeypatch):
    """A read-only folder (simulated: ``os.access`` says no, as it does for a user on a
    read-only mount): reading works, and a run that must store deals says that it needs
    write access and why, in one line."""
    d, db, first = _stored_run(capsys, tmp_path)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if mode & os.W_OK
                        else real(p, mode, *a, **k))
    before = snapshot(d)
    rc, out, err = run_main(capsys, "verify", "--db", db)
    assert rc == 0 and "all results verified" in out, err
    rc, out, err = run_main(capsys, *GREEDY, "--deals", "4", "--db", db, "--json")
    assert rc == 0 and json.loads(out)["wins"] == first["wins"], err
    rc, out, err = run_main(capsys, *GREEDY, "--deals", "6", "--db", db)
    one_error_line(rc, out, err, "--db: ", "permission denied",
                   "2 of the 6 deals asked are not stored", "must write")
    assert snapshot(d) == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write a read-only file")
def test_a_really_read_only_file_and_folder(tmp_path, capsys):
    d, db, first = _stored_run(capsys, tmp_path)
    os.chmod(db, 0o444)
    os.chmod(d, 0o555)
    try:
        rc, out, err = run_main(capsys, "verify", "--db", db)
        assert rc == 0, err
        rc, out, err = run_main(capsys, *GREEDY, "--deals", "4", "--db", db, "--json")
        assert rc == 0 and json.loads(out)["wins"] == first["wins"], err
        rc, out, err = run_main(capsys, *GREEDY, "--deals", "5", "--db", db)
        one_error_line(rc, out, err, "--db: ", "must write")
    finally:
        os.chmod(d, 0o755)


def test_a_new_file_is_announced(tmp_path, capsys):
    """No silent creation of a results file (``--db`` defaults to ./onirim-results.sqlite)."""
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc, out, err = run_main(capsys, *GREEDY, "--deals", "1")
        assert rc == 0
        assert "new file onirim-results.sqlite" in err
        rc, out, err = run_main(capsys, *GREEDY, "--deals", "1")
        assert rc == 0 and "new file" not in err
    finally:
        os.chdir(here)


# ------------------------------------------------------------------ item 5: bounded memory
def test_the_largest_run_starts_at_once_in_bounded_memory(tmp_path, capsys, monkeypatch):
    """``--deals 100000000`` (the maximum): the seeds reach the players lazily and at most a
    chunk of them is ever built.  The fake backend plays three deals and stops as Ctrl-C
    would; the whole run, up to there, allocates a few MB (the old code built every seed,
    3.7 GB, before the first deal)."""
    seen = {}

    def fake_run_local(job, seeds, jobs, on_rows):
        seen["sized"] = hasattr(seeds, "__len__")
        it = iter(seeds)
        for _ in range(3):
            s = next(it)
            on_rows([{"seed": s, "won": False, "doors": 1, "decisions": 2, "seconds": 0.0,
                      "actions": []}])
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_local", fake_run_local)
    db = str(tmp_path / "big.sqlite")
    tracemalloc.start()
    try:
        rc, out, err = run_main(capsys, *GREEDY, "--deals", str(cmd_winrate.MAX_DEALS),
                                "--db", db)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rc == 130 and "3 of 100000000 deals are stored" in err, err
    assert seen["sized"] is False
    assert peak < 40 * 2**20, peak


def test_work_is_generated_chunk_by_chunk(tmp_path):
    """The generator of seeds to play looks up one chunk at a time: taking the first seeds
    of a huge range reads one chunk, and stored seeds are skipped and tallied."""
    db = ResultsDB(str(tmp_path / "w.sqlite"))
    db.add_policy("h", "greedy", {})
    db.add_honest("h", [{"seed": s, "won": True, "doors": 8, "decisions": 3, "seconds": 0.1,
                         "actions": []} for s in (0, 1, 5)])
    calls = []
    real = db.honest_done

    def spy(phash, seeds, players=1):
        calls.append(seeds)
        return real(phash, seeds, players)
    db.honest_done = spy

    class A:
        mode, jobs = "honest", 1
    tally = cmd_winrate._Tally("honest")
    work = cmd_winrate._work(A, db, range(0, 10**8), 1, "h", tally)
    assert [next(work) for _ in range(4)] == [2, 3, 4, 6]
    assert calls == [range(0, cmd_winrate.CHUNK)]
    assert tally.stored == 3 and tally.wins == 3
    db.close()


def test_run_local_takes_seeds_lazily_with_two_jobs(monkeypatch):
    """With a pool, at most ``jobs * AHEAD_PER_JOB`` seeds are taken ahead of the rows."""
    taken = []
    got = []

    def seeds():
        for s in range(10**9):
            taken.append(s)
            yield s

    class Stop(Exception):
        pass

    def on_rows(rows):
        got.extend(r["seed"] for r in rows)
        assert len(taken) - len(got) <= 2 * runner.AHEAD_PER_JOB
        if len(got) >= 12:
            raise Stop

    job = runner.honest_job("greedy", {})
    with pytest.raises(Stop):
        runner.run_local(job, seeds(), 2, on_rows)
    assert len(taken) <= 12 + 2 * runner.AHEAD_PER_JOB


# ------------------------------------------------------------------ item 11: reused budgets
def test_reused_rows_carry_the_budget_that_produced_them(tmp_path, capsys):
    """Rows solved at one budget, reused by a run at another: the report names the stored
    rows' budget, not the new run's."""
    path = str(tmp_path / "cv.sqlite")
    db = ResultsDB(path)
    from solver.clairvoyant import solve as CV
    settings = {"budget_nodes": 2_000_000, "budget_s": None, "tt_mb": 64,
                "solver": CV.SOLVER_VERSION}
    db.add_many("clairvoyant", settings, [(s, "WIN", 38496, 0.5, []) for s in range(5)])
    db.close()
    rc, out, err = run_main(capsys, "winrate", "--deals", "5", "--budget-nodes", "1000",
                            "--db", path)
    assert rc == 0, err
    assert "5 already stored" in out
    budget = [x for x in out.splitlines() if "budget" in x][-1]
    assert "budget 1000 nodes for the 0 deal(s) solved now" in budget, budget
    assert "the 5 stored deal(s) were solved at budget 2000000 nodes (5)" in budget, budget
    assert settings_key(settings)     # (the settings the rows were stored with)


# ------------------------------------------------------------------ item 12: --help
def test_help_lists_every_choice_and_default(capsys):
    from solver.api import policy_entries
    rc, out, _ = run_main(capsys, "winrate", "--help")
    assert rc == 0
    text = " ".join(out.split())
    assert "--mode {clairvoyant,honest}" in text and "default clairvoyant" in text
    bare = "".join(out.split())     # argparse may wrap a name at one of its hyphens
    for name in policy_entries():
        assert name in bare, name
    assert "--players {1,2}" in text and "default 1" in text
    assert "first seed S" in text and "default 0" in text
    assert "default ./onirim-results.sqlite, created if missing" in text
    assert "--jobs JOBS worker processes, 1 to 256; default 1" in text
    assert "1 to 100,000,000 (required)" in text


# ------------------------------------------------------------------ item 13: error lines
@pytest.mark.parametrize("args, field", [
    (("winrate", "--deals", "0"), "--deals: must be from 1 to 100,000,000, not 0"),
    (("winrate", "--deals", "1", "--budget-s", "0"), "--budget-s: must be a positive"),
    (("winrate", "--deals", "1", "--budget-nodes", "0"), "--budget-nodes: must be from"),
    (("winrate", "--deals", "1", "--jobs", "0"), "--jobs: must be from 1 to 256"),
    (("winrate", "--deals", "1", "--players", "3"), "--players: invalid choice"),
    (("winrate", "--deals", "1", "--tt-mb", "0"), "--tt-mb: must lie in"),
    (GREEDY + ("--deals", "1", "--policy-arg", "n"), "--policy-arg: policy argument 'n'"),
    (GREEDY + ("--deals", "1", "--policy-arg", "n=4"), "--policy-arg: policy 'greedy' has "
                                                       "no argument 'n'"),
    (("winrate", "--mode", "honest", "--policy", "rollout", "--deals", "1", "--policy-arg",
      "n=-4"), "--policy-arg: "),
    (("winrate", "--mode", "honest", "--policy", "nope", "--deals", "1"),
     "--policy: policy 'nope' is unknown"),
    (("winrate", "--seed", "18446744073709551614", "--deals", "5"),
     "--deals: the last deal S+N-1 = 18446744073709551618 is past the last seed 2**64-1; "
     "from --seed 18446744073709551614 at most 2 deals"),
    (("winrate", "--seed", "-1", "--deals", "5"), "--seed: must be from 0 to 2**64-1"),
])
def test_error_lines_keep_their_format(tmp_path, capsys, args, field):
    rc, out, err = run_main(capsys, *args, "--db", str(tmp_path / "x.sqlite"))
    line = one_error_line(rc, out, err)
    assert line.startswith("onirim: error: " + field), line
    assert not os.path.exists(tmp_path / "x.sqlite")
