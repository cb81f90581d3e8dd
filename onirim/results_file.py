"""The results file of a long run (``onirim winrate``, ``onirim bound``): one set of rules.

* A file whose asked deals are all stored is opened read-only (``solver.runs.db``'s
  ``readonly``): nothing is written, not even a side file, so an archive, an immutable file
  or a read-only mount works.
* Otherwise the run must write: the file is opened for writing and a probe write is made
  before any deal is played; a file that cannot be written is refused in one line that says
  why this run must write.
* A file of another program, or of the other command, is refused before anything is written.
* A file this run made is announced once deals are about to be played, and removed again
  if the run is refused before any deal is stored.
* SIGTERM is handled as Ctrl-C: the run stops, says in one line how many deals are stored
  and how to resume, and exits with status 130.

The storage classes are ``solver.runs.db.ResultsDB`` and ``solver.runs.db.BoundDB``.
"""
from __future__ import annotations

import os
import sys

from onirim.cli import UsageError, sigterm_as_interrupt  # noqa: F401  (re-exported)


def open_for_write(path: str, cls, need: str | None = None):
    """``cls(path)`` open for writing (created if missing), with a probe write made.
    ``need``: why this run must write, said when the file cannot be written."""
    from solver.expectimax.memo_file import path_problem
    from solver.runs.db import DBError
    why = f"; {need}" if need else ""
    problem = path_problem(path)
    if problem is not None:
        raise UsageError(f"--db: {problem}{why if 'permission' in problem else ''}")
    created = not os.path.exists(path)
    db = None
    try:
        db = cls(path)
        with db.con:
            db.con.execute("CREATE TABLE IF NOT EXISTS _probe (x INTEGER)")
            db.con.execute("DROP TABLE _probe")
    except DBError as e:
        if created:
            remove_file(path)
        if "not an onirim" in str(e):
            raise UsageError(f"--db: {e}") from None
        raise UsageError(f"--db: {e}{why}") from None
    except Exception as e:  # sqlite3.Error on a read-only folder or file
        if db is not None:
            db.close()
        if created:
            remove_file(path)
        raise UsageError(f"--db: cannot write database {path!r}: {e}{why}") from None
    db.created = created
    return db


def open_readonly(path: str, cls, **kw):
    """``cls(path, readonly=True)`` if ``path`` is a non-empty file, else None; a file that
    is not one of ``cls``'s is refused (UsageError)."""
    from solver.runs.db import DBError
    if not (os.path.isfile(path) and os.path.getsize(path) > 0):
        return None
    try:
        db = cls(path, readonly=True, **kw)
    except DBError as e:
        raise UsageError(f"--db: {e}") from None
    db.created = False
    return db


def must_write(missing: int, deals: int) -> str:
    return (f"{missing:,} of the {deals:,} deals asked are not stored in it, so this run "
            "must write (a run whose deals are all stored only reads)")


def say_new_file(db, path: str, quiet: bool = False) -> None:
    """A results file made by this run is announced once deals are about to be played (no
    silent default file)."""
    if getattr(db, "created", False) and not quiet:
        print(f"onirim: storing the results in the new file {path} (--db); the same "
              "command resumes from it", file=sys.stderr, flush=True)


def remove_file(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(path + suffix)
        except OSError:
            pass


def remove_new_file(db) -> None:
    """Remove the file ``db`` if this run made it (a run refused before any deal)."""
    if getattr(db, "created", False):
        remove_file(db.path)


def interrupted_line(stored: int, deals: int, path: str, resume: str) -> str:
    """The one line an interrupted run prints (then it exits with status 130)."""
    return (f"onirim: interrupted: {stored} of {deals} deals are stored in {path}; "
            f"resume with: {resume}")
