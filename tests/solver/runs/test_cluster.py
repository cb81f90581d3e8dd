"""The Dask backend of `onirim winrate` (solver/runs/cluster.py) on a LocalCluster of 2 worker
processes: the same results as --jobs 1, a worker killed mid-run, a resume after the client is
interrupted, warm-up once per worker, and the one-line refusals."""
import json
import os
import signal
import sqlite3
import sys

import pytest

from onirim import cli
from solver.runs import cluster as CL
from solver.runs import runner
from paths import ROOT


def run_main(capsys, *args):
    capsys.readouterr()
    rc = cli.main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def honest_rows(db):
    con = sqlite3.connect(db)
    out = sorted(con.execute("SELECT policy_hash, seed, won, doors, decisions, actions "
                             "FROM honest"))
    con.close()
    return out


def cv_rows(db):
    con = sqlite3.connect(db)
    out = sorted(con.execute("SELECT seed, result, nodes, certificate FROM results"))
    con.close()
    return out


# ----------------------------------------------------------------------------- quick
def test_parse_and_chunks():
    assert CL.parse_cluster("local:2") == ("local", 2)
    assert CL.parse_cluster("tcp://10.0.0.1:8786") == ("address", "tcp://10.0.0.1:8786")
    for bad in ("", "local", "local:0", "local:x", "local:999"):
        with pytest.raises(CL.ClusterError, match="--cluster"):
            CL.parse_cluster(bad)
    assert CL.chunk_size("honest", 100_000, 2) == 100          # about 2 s of greedy games
    assert CL.chunk_size("clairvoyant", 100_000, 2) == 400
    assert CL.chunk_size("honest", 40, 2) == 10                # two tasks per worker
    assert CL.chunk_size("honest", 40, 2, chunk=3) == 3


def test_without_dask_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)    # import distributed fails
    rc, out, err = run_main(capsys, "winrate", "--deals", "2", "--cluster", "local:2",
                            "--db", str(tmp_path / "x.sqlite"))
    assert rc == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[cluster]'" in lines[0], lines


@pytest.mark.parametrize("args, words", [
    (["--cluster", "local:0"], "local:N"),
    (["--cluster", "local:2", "--jobs", "2"], "--jobs"),
    (["--chunk", "5"], "--chunk"),
    (["--cluster", "local:2", "--chunk", "0"], "--chunk"),
])
def test_bad_cluster_flags(tmp_path, capsys, args, words):
    pytest.importorskip("distributed")
    rc, out, err = run_main(capsys, "winrate", "--deals", "2", *args,
                            "--db", str(tmp_path / "x.sqlite"))
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and words in lines[0], lines


def test_unreachable_scheduler(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(CL, "CONNECT_TIMEOUT_S", 2)
    rc, out, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                            "--deals", "2", "--cluster", "tcp://127.0.0.1:9",
                            "--db", str(tmp_path / "x.sqlite"))
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "cannot reach the scheduler" in lines[0], lines


# ----------------------------------------------------------------------------- LocalCluster
@pytest.mark.slow
def test_same_results_as_one_job(tmp_path, capsys):
    pytest.importorskip("distributed")
    one, two = str(tmp_path / "one.sqlite"), str(tmp_path / "two.sqlite")
    for mode in (["--mode", "honest", "--policy", "greedy", "--deals", "60"],
                 ["--mode", "clairvoyant", "--deals", "24"]):
        rc, out1, err = run_main(capsys, "winrate", *mode, "--seed", "500", "--db", one,
                                 "--json")
        assert rc == 0, err
        rc, out2, err = run_main(capsys, "winrate", *mode, "--seed", "500", "--db", two,
                                 "--cluster", "local:2", "--chunk", "7", "--json")
        assert rc == 0, err
        j1, j2 = json.loads(out1), json.loads(out2)
        for k in ("wins", "losses", "unknown", "win_rate", "nodes"):
            assert j1[k] == j2[k], k
    assert honest_rows(one) == honest_rows(two) and len(honest_rows(one)) == 60
    assert cv_rows(one) == cv_rows(two) and len(cv_rows(one)) == 24


@pytest.mark.slow
def test_a_busy_port_8787_gives_no_warning():
    """Two local clusters at once (as in two runs, or two test processes) must not print
    distributed's "Port 8787 is already in use" warning: the scheduler's HTTP server takes a
    free port and the dashboard stays off.  Found by CI, where this warning broke the one-line
    Ctrl-C message of a run that started while another test held a cluster."""
    pytest.importorskip("distributed")
    import socket
    import warnings
    holder = socket.socket()
    try:
        holder.bind(("", 8787))
        holder.listen(1)
    except OSError:
        pass                                   # already taken by someone else: also busy
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with CL.ClusterRun("local:1") as cl:
                assert cl.workers() == 1
        msgs = [str(w.message) for w in caught if "8787" in str(w.message)]
        assert not msgs, msgs
    finally:
        holder.close()


@pytest.mark.slow
def test_worker_killed_mid_run_and_warm_up_once_per_worker():
    pytest.importorskip("distributed")
    job = runner.honest_job("greedy", {})
    seeds = list(range(1000, 1120))
    want = [r for s in seeds for r in runner.play_chunk(job, [s])]
    got = []
    killed = []
    with CL.ClusterRun("local:2") as cl:
        def on_rows(rows):
            got.extend(rows)
            if not killed:                      # after the first chunk: kill -9 a worker
                pid = sorted(i["pid"] for i in cl.info().values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        cl.run(job, seeds, on_rows, chunk=4)
        # a second run of the same job on the same workers: no new warm-up, whatever the
        # number of tasks (the restarted worker warmed up once, on its first task)
        before = {i["pid"]: i["warm_ups"] for i in cl.info().values()}
        more = []
        cl.run(job, list(range(2000, 2040)), more.extend, chunk=2)
        after = {i["pid"]: i["warm_ups"] for i in cl.info().values()}
    assert killed and killed[0] not in after
    assert sorted(r["seed"] for r in got) == seeds        # every deal exactly once
    key = lambda r: r["seed"]
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")}
                          for r in sorted(rows, key=key)]
    assert strip(got) == strip(want)
    assert len(more) == 40
    # no worker warmed up more than once, and one that had warmed up before the second run did
    # not warm up again. The restarted worker warms up on its first task; it may join late and
    # get no task at all (the other worker took every chunk), and then it never warms up.
    assert set(after.values()) <= {0, 1} and max(after.values()) == 1
    assert all(after[pid] == 1 for pid, c in before.items() if c == 1 and pid in after)


@pytest.mark.slow
def test_resume_after_the_client_is_interrupted(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    from solver.runs.db import ResultsDB
    db = str(tmp_path / "r.sqlite")
    args = ["winrate", "--mode", "honest", "--policy", "greedy", "--deals", "80", "--seed",
            "900", "--cluster", "local:2", "--chunk", "8", "--db", db, "--json"]
    real = ResultsDB.add_honest
    calls = []

    def add_then_interrupt(self, phash, rows, *more):
        real(self, phash, rows, *more)
        calls.append(len(rows))
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultsDB, "add_honest", add_then_interrupt)
    rc, out, err = run_main(capsys, *args)
    assert rc == 130 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted: 24 of 80 deals are stored" in lines[0], lines
    assert "--cluster local:2 --chunk 8" in lines[0]
    assert len(honest_rows(db)) == 24
    monkeypatch.setattr(ResultsDB, "add_honest", real)
    rc, out, err = run_main(capsys, *args)
    assert rc == 0, err
    rows = honest_rows(db)
    assert [r[1] for r in rows] == sorted(str(s) for s in range(900, 980))
    one = str(tmp_path / "one.sqlite")
    rc, out1, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                             "--deals", "80", "--seed", "900", "--db", one, "--json")
    assert honest_rows(one) == rows


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_is_one_line(tmp_path):
    """Ctrl-C reaches the client and every worker process of the local cluster: one line,
    exit 130, no worker traceback (workers ignore SIGINT, their logs are silenced)."""
    pytest.importorskip("distributed")
    import subprocess
    import time
    root = ROOT
    env = dict(os.environ, PYTHONPATH=root)
    db = tmp_path / "c.sqlite"
    p = subprocess.Popen([sys.executable, "-m", "onirim", "winrate", "--mode", "honest",
                          "--policy", "greedy", "--deals", "50000", "--cluster", "local:2",
                          "--chunk", "50", "--db", str(db)], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    t0 = time.time()
    n = 0
    while time.time() - t0 < 120 and n < 100:
        time.sleep(0.2)
        try:
            con = sqlite3.connect(db, timeout=1)
            n = con.execute("SELECT COUNT(*) FROM honest").fetchone()[0]
            con.close()
        except sqlite3.Error:
            n = 0
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=90)
    assert p.returncode == 130 and out == "", err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert f"interrupted: {len(honest_rows(db))} of 50000 deals are stored" in lines[0]
