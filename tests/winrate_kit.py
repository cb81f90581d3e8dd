"""Helpers of the `onirim winrate` tests that run the command in another process: run it to
the end, or start it and wait until its database holds some rows (to kill or interrupt it),
or both: kill it with SIGKILL once it stored some rows, then run it again to the end."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from paths import ROOT


def _env():
    return dict(os.environ, PYTHONPATH=ROOT)


def onirim(*args, cwd, timeout=240):
    """``onirim ARGS`` in a new process, from folder ``cwd``, to the end."""
    return subprocess.run([sys.executable, "-m", "onirim", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def start(args, cwd, **popen):
    """``onirim ARGS`` started in a new process (``popen``: more ``subprocess.Popen`` options)."""
    popen.setdefault("stdout", subprocess.DEVNULL)
    popen.setdefault("stderr", subprocess.DEVNULL)
    return subprocess.Popen([sys.executable, "-m", "onirim", *args], cwd=cwd, env=_env(),
                            **popen)


def wait_for_rows(db, table: str, at_least: int, poll: float, limit_s: float = 120) -> int:
    """Wait until ``table`` of the SQLite file ``db`` holds ``at_least`` rows (or ``limit_s``
    seconds pass); the number of rows seen last."""
    t0 = time.time()
    stored = 0
    while time.time() - t0 < limit_s:
        time.sleep(poll)
        if os.path.exists(db):
            try:
                con = sqlite3.connect(db, timeout=1)
                stored = con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                con.close()
            except sqlite3.Error:
                stored = 0
            if stored >= at_least:
                break
    return stored


def kill_9_then_resume(args, cwd, db_name: str, table: str, at_least: int, poll: float, read):
    """Start ``onirim ARGS`` in ``cwd``, kill it with SIGKILL once ``table`` of ``cwd/db_name``
    holds ``at_least`` rows, then run the same command again to the end.  ``read(db)`` reads
    the stored rows.  Returns (rows before the rerun, the rerun's CompletedProcess, rows
    after it); the caller asserts what must hold."""
    p = start(args, cwd)
    db = os.path.join(cwd, db_name)
    wait_for_rows(db, table, at_least, poll=poll)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    before = read(db)
    r = onirim(*args, cwd=cwd)
    return before, r, read(db)
