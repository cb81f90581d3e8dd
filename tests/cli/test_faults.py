"""The fault matrix: every long-running command, stopped by SIGINT, SIGTERM or SIGKILL at a
random (seeded) moment, then run again, stores what an uninterrupted run stores, row by row;
a stopped run exits with status 130 and says so in one line (SIGKILL: no word, nothing lost).

Commands: ``winrate`` clairvoyant and honest, solo and two-player, with the default policy and
``strongest`` (their interrupt paths: the end-game switch's exact search); ``bound``; ``best
--memo``; ``verify`` (read-only: the file is unchanged).  The runs are tiny: the point is
storage and signals, not strength.  The fast tier stops each command once, with one signal
(the signals taken in turn over the commands) for winrate clairvoyant (winrate honest's,
bound's, best --memo's and verify's one stop: slow tier, tests/conftest.py, for the fast tier's
time);
the slow tier holds the other variants (strongest, two-player) and
stops each command with the other two signals, one after the other, before the run that
completes it.  Moments: once the
file holds a random number of rows, after a random pause (``random.Random(seed)`` per case).
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from paths import ROOT

INT, TERM, KILL = signal.SIGINT, signal.SIGTERM, signal.SIGKILL
TIMEOUT = 300


def _env():
    return dict(os.environ, PYTHONPATH=ROOT)


def _popen(argv, cwd):
    return subprocess.Popen([sys.executable, "-m", "onirim", *argv], cwd=cwd, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _run(argv, cwd):
    return subprocess.run([sys.executable, "-m", "onirim", *argv], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=TIMEOUT)


# ----------------------------------------------------------------------------- stored rows
def _query(db, sql):
    if not os.path.exists(db):
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return con.execute(sql).fetchall()
    except sqlite3.OperationalError:        # no such table yet
        return []
    finally:
        con.close()


def honest_rows(db):
    """Every stored game, without its times (the clock is not part of a game)."""
    return _query(db, "SELECT policy_hash, players, seed, won, doors, decisions, actions "
                      "FROM honest ORDER BY policy_hash, players, CAST(seed AS INTEGER)")


def clairvoyant_rows(db):
    return _query(db, "SELECT mode, players, key, seed, result, nodes, certificate, settings "
                      "FROM results ORDER BY mode, players, key, CAST(seed AS INTEGER)")


def bound_rows(db):
    out = []
    for key, seed, row in _query(db, "SELECT key, seed, row FROM bound_rows ORDER BY key, "
                                     "CAST(seed AS INTEGER)"):
        r = json.loads(row)
        out.append((key, seed, {k: v for k, v in r.items()
                                if k not in ("cpu_s", "seconds", "pid")}))
    return out


def _count(rows_of):
    return lambda db: len(rows_of(db))


# ----------------------------------------------------------------------------- the commands
# name: (argv with the file as F, its rows, the deals it stores, the fast tier's signal)
WINRATE = {
    "honest-default": (["winrate", "--mode", "honest", "--deals", "4", "--seed", "100"],
                       honest_rows, 4, INT),
    "honest-strongest": (["winrate", "--mode", "honest", "--policy", "strongest", "--deals",
                          "2", "--seed", "116"], honest_rows, 2, TERM),
    "honest-duo": (["winrate", "--mode", "honest", "--players", "2", "--deals", "3"],
                   honest_rows, 3, KILL),
    "clairvoyant": (["winrate", "--deals", "40", "--seed", "40"], clairvoyant_rows, 40, INT),
    "clairvoyant-duo": (["winrate", "--players", "2", "--deals", "30"], clairvoyant_rows, 30,
                        TERM),
    "bound": (["bound", "--deals", "6", "--budget-nodes", "200000"], bound_rows, 6, KILL),
}
OTHERS = {"best-memo": TERM, "verify": INT}
SIGNALS = (INT, TERM, KILL)


# a moment is at least this long after the process was started: a signal while the
# interpreter itself starts, before any line of onirim runs, cannot be answered by it
STARTED = 0.3


def _stop(p, sig, rows_of, db, deals, rng):
    """Send ``sig`` to ``p`` once ``db`` holds a random number of rows (fewer than
    ``deals``), after a random pause; returns (returncode, stdout, stderr) of ``p``."""
    k = rng.randrange(0, deals)
    t0 = time.time()
    time.sleep(STARTED)
    while p.poll() is None and time.time() - t0 < TIMEOUT:
        if len(rows_of(db)) >= k and (k > 0 or os.path.exists(db)):
            break
        time.sleep(0.05)
    time.sleep(rng.uniform(0.0, 0.4))
    if p.poll() is None:
        p.send_signal(sig)
    out, err = p.communicate(timeout=TIMEOUT)
    return p.returncode, out, err


# lines a run may say before it is stopped (a new file, the kernels compiled or loaded)
NOTICES = ("onirim: storing the results in the new file", "onirim: compiling",
           "onirim: kernels ready", "onirim bound: warning")


def _check_stopped(sig, rc, out, err):
    """A stopped run: 130 and one line (SIGINT, SIGTERM), or killed (SIGKILL); a run that
    ended before the signal came exits 0 (the moment was past its end)."""
    lines = err.strip().splitlines()
    if rc == 0:
        return
    if rc == -sig and out.strip():
        return      # the run had printed its answer: the signal came as Python was exiting
        #             (Python restores the default handlers then), after everything was stored
    if sig == KILL:
        assert rc == -KILL, (rc, err)
        return
    assert rc == 130, (rc, err)
    said = [line for line in lines if not line.startswith(NOTICES)]
    assert len(said) == 1 and said[0].startswith("onirim: interrupted"), err


def _reference(tmp_path_factory, name, argv, rows_of):
    """The rows of an uninterrupted run (one per command and test session)."""
    cache = _REFERENCES.get(name)
    if cache is None:
        d = tmp_path_factory.mktemp(f"ref-{name}")
        r = _run(argv + ["--db", "F"], cwd=d)
        assert r.returncode == 0, r.stderr
        cache = _REFERENCES[name] = rows_of(str(d / "F"))
    return cache


_REFERENCES: dict = {}


def _case(tmp_path, tmp_path_factory, name, signals, seed):
    argv, rows_of, deals, _ = WINRATE[name]
    ref = _reference(tmp_path_factory, name, argv, rows_of)
    assert len(ref) >= deals
    rng = random.Random(f"{name}-{seed}")
    db = str(tmp_path / "F")
    for sig in signals:
        p = _popen(argv + ["--db", "F"], cwd=tmp_path)
        rc, out, err = _stop(p, sig, rows_of, db, deals, rng)
        _check_stopped(sig, rc, out, err)
        assert all(row in ref for row in rows_of(db)), \
            "a stored row differs from the uninterrupted run's"
    r = _run(argv + ["--db", "F"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert rows_of(db) == ref


# the fast tier's case: winrate clairvoyant; the others (winrate honest with the default
# policy, whose interrupt path is the end-game switch's search, bound, ...), with one signal
# each too, are slow (the fast tier's time: tests/conftest.py, fifth and sixth passes)
FAST = ("clairvoyant",)


@pytest.mark.parametrize("name", [n if n in FAST else pytest.param(n, marks=pytest.mark.slow)
                                  for n in sorted(WINRATE)])
def test_one_stop_then_resume(tmp_path, tmp_path_factory, name):
    """One signal per command (the signals taken in turn)."""
    _case(tmp_path, tmp_path_factory, name, [WINRATE[name][3]], seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WINRATE))
def test_two_more_stops_then_resume(tmp_path, tmp_path_factory, name):
    """Slow tier: the other two signals, one after the other, then the run that ends."""
    _case(tmp_path, tmp_path_factory, name,
          [s for s in SIGNALS if s != WINRATE[name][3]], seed=2)


# ----------------------------------------------------------------------------- best, verify
# about 2.7 M expectimax nodes, 2 s with one thread (tests/solver/expectimax's MEDIUM)
MEDIUM = ("mode=solo phase=play hand=Os,Os,As,Am,Lm row=As,Am,Os,Lk,Ls,Am,As,Gk,Gs,Ok,Om,Os,"
          "Om,Os,Om,Os,Gm,Gs,Lm,Gs,Gm,Gs doors=DO,DO,DA,DG,DG,DL deck=* discard=Os,Os,Os,Ok,"
          "As,As,As,As,As,Ak,Ak,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lm,Lk,Lk,N,N,N,N,N limbo=-")
# a node budget far above the search's size: the ranking is exact (no time budget)
BEST = ["best", MEDIUM, "--json", "--no-progress", "--memo", "M", "--budget-nodes",
        "1000000000"]


def _ranking(stdout):
    out = json.loads(stdout)
    return [(a["action"], a["lo"], a["hi"]) for a in out["actions"]]


def _timed_stop(p, sig, rng, lo=STARTED, hi=2.5):
    time.sleep(rng.uniform(lo, hi))
    if p.poll() is None:
        p.send_signal(sig)
    out, err = p.communicate(timeout=TIMEOUT)
    return p.returncode, out, err


def _best_case(tmp_path, tmp_path_factory, signals, seed):
    if "best-memo" not in _REFERENCES:
        r = _run(BEST, cwd=tmp_path_factory.mktemp("ref-best"))
        assert r.returncode == 0, r.stderr
        _REFERENCES["best-memo"] = _ranking(r.stdout)
    ref = _REFERENCES["best-memo"]
    rng = random.Random(f"best-{seed}")
    for sig in signals:
        p = _popen(BEST, cwd=tmp_path)
        rc, out, err = _timed_stop(p, sig, rng)
        _check_stopped(sig, rc, out, err)
        if rc == 0:
            assert _ranking(out) == ref
    r = _run(BEST, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _ranking(r.stdout) == ref and os.path.exists(tmp_path / "M")


def _verify_case(tmp_path, tmp_path_factory, signals, seed):
    argv, rows_of, _, _ = WINRATE["clairvoyant"]
    _reference(tmp_path_factory, "clairvoyant", argv, rows_of)
    src = _REFERENCES.get("clairvoyant-file")
    if src is None:
        d = tmp_path_factory.mktemp("verify-src")
        assert _run(argv + ["--db", "F"], cwd=d).returncode == 0
        src = _REFERENCES["clairvoyant-file"] = str(d / "F")
        ok = _run(["verify", "--db", "F"], cwd=d)
        assert ok.returncode == 0, ok.stderr
        _REFERENCES["verify-out"] = ok.stdout
    shutil.copy(src, tmp_path / "F")
    before = open(tmp_path / "F", "rb").read()
    rng = random.Random(f"verify-{seed}")
    for sig in signals:
        p = _popen(["verify", "--db", "F"], cwd=tmp_path)
        rc, out, err = _timed_stop(p, sig, rng, STARTED, 1.5)
        _check_stopped(sig, rc, out, err)
        assert open(tmp_path / "F", "rb").read() == before
        assert sorted(os.listdir(tmp_path)) == ["F"]       # no side file either
    r = _run(["verify", "--db", "F"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.replace(str(tmp_path / "F"), "F") == _REFERENCES["verify-out"]


def test_best_memo_one_stop_then_resume(tmp_path, tmp_path_factory):
    _best_case(tmp_path, tmp_path_factory, [OTHERS["best-memo"]], seed=1)


def test_verify_one_stop_then_again(tmp_path, tmp_path_factory):
    _verify_case(tmp_path, tmp_path_factory, [OTHERS["verify"]], seed=1)


@pytest.mark.slow
def test_best_memo_two_more_stops_then_resume(tmp_path, tmp_path_factory):
    _best_case(tmp_path, tmp_path_factory, [s for s in SIGNALS if s != OTHERS["best-memo"]],
               seed=2)


@pytest.mark.slow
def test_verify_two_more_stops_then_again(tmp_path, tmp_path_factory):
    _verify_case(tmp_path, tmp_path_factory, [s for s in SIGNALS if s != OTHERS["verify"]],
                 seed=2)


# ----------------------------------------------------------------------------- under load
BUSY = 2        # sibling processes that only spin, as many as CI's cores


@pytest.mark.slow
def test_the_same_deals_under_heavy_load_store_the_same_games(tmp_path, tmp_path_factory):
    """Every policy's decision is a function of its view and its stream alone: the default
    policy (its end-game switch's exact search included) stores the same games with busy
    sibling processes taking the cores as without them."""
    argv, rows_of, _, _ = WINRATE["honest-default"]
    ref = _reference(tmp_path_factory, "honest-default", argv, rows_of)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BUSY)]
    try:
        r = _run(argv + ["--db", "F"], cwd=tmp_path)
    finally:
        for b in busy:
            b.kill()
            b.wait()
    assert r.returncode == 0, r.stderr
    assert rows_of(str(tmp_path / "F")) == ref


@pytest.mark.slow
@pytest.mark.parametrize("sig", [INT, TERM])
def test_bound_w_exact_answers_a_signal_inside_a_deal(tmp_path, sig):
    """``bound --w exact`` spends minutes in one kernel call per deal (no per-deal limit, as
    its warning says); a signal stops it inside the deal (the kernel runs beside the main
    thread and reads its node limit at every node): one line, 130, nothing stored.  The
    limit below is a liveness check, far above the stop's cost: before, the signal waited
    for the deal's end (150 s and more)."""
    p = _popen(["bound", "--w", "exact", "--deals", "1", "--db", "F"], cwd=tmp_path)
    t0 = time.time()
    line = p.stderr.readline()           # the warning: the run has started
    assert "no node limit" in line, line
    time.sleep(3.0)
    assert p.poll() is None
    p.send_signal(sig)
    sent = time.time()
    out, err = p.communicate(timeout=120)
    assert time.time() - sent < 60, "the signal was not answered inside the deal"
    assert p.returncode == 130, (p.returncode, err)
    said = [x for x in err.strip().splitlines() if not x.startswith(NOTICES)]
    assert len(said) == 1 and said[0].startswith("onirim: interrupted"), err
    assert bound_rows(str(tmp_path / "F")) == []
    assert time.time() - t0 < TIMEOUT
