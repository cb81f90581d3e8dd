"""SQLite store of solved deals: one row per (mode, settings, seed), committed as it finishes.

``settings`` is a canonical JSON string of everything that can change a deal's outcome or
node count (mode, node budget, time budget, table size, solver version), so that runs with
different settings never mix; a rerun with the same settings finds its rows and skips them.
Seeds are stored as decimal text (SQLite integers stop at 2**63 - 1, seeds go to 2**64 - 1).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
import urllib.parse

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    mode        TEXT NOT NULL,
    settings    TEXT NOT NULL,
    seed        TEXT NOT NULL,
    result      TEXT NOT NULL CHECK (result IN ('WIN', 'LOSS', 'UNKNOWN')),
    nodes       INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    certificate TEXT NOT NULL,
    created     REAL NOT NULL,
    PRIMARY KEY (mode, settings, seed)
);
"""


COLUMNS = ["mode", "settings", "seed", "result", "nodes", "seconds", "certificate", "created"]


class DBError(Exception):
    """The database cannot be opened or written."""


def settings_key(settings: dict) -> str:
    return json.dumps(settings, sort_keys=True, separators=(",", ":"))


class ResultsDB:
    """``readonly``: open for reading only (``onirim verify``): the file must exist and hold
    the results table, and nothing in it changes, not even the journal mode."""

    def __init__(self, path: str, readonly: bool = False):
        self.path = path
        d = os.path.dirname(os.path.abspath(path)) or "."
        if not os.path.isdir(d):
            raise DBError(f"cannot open database {path!r}: folder {d!r} does not exist")
        try:
            if readonly:
                uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
                self.con = sqlite3.connect(uri, uri=True, timeout=30)
            else:
                self.con = sqlite3.connect(path, timeout=30)
            # check before changing anything: a SQLite file of some other program may
            # have a table called "results" of its own
            cols = [r[1] for r in self.con.execute("PRAGMA table_info(results)")]
            if (cols and cols != COLUMNS) or (readonly and not cols):
                self.con.close()
                what = (f"its table 'results' has the columns {', '.join(cols)}" if cols
                        else "it has no table 'results'")
                raise DBError(f"database {path!r} is not an onirim results file: {what}")
            if not readonly:
                self.con.execute("PRAGMA journal_mode=WAL")
                self.con.execute("PRAGMA synchronous=NORMAL")
                self.con.executescript(SCHEMA)
                self.con.commit()
        except sqlite3.Error as e:
            raise DBError(f"cannot open database {path!r}: {e}") from None

    def close(self) -> None:
        self.con.close()

    def done(self, mode: str, settings: str, seeds) -> dict:
        """Stored rows among ``seeds``: seed -> (result, nodes, seconds)."""
        want = {str(s) for s in seeds}
        out = {}
        cur = self.con.execute(
            "SELECT seed, result, nodes, seconds FROM results WHERE mode=? AND settings=?",
            (mode, settings))
        for seed, result, nodes, seconds in cur:
            if seed in want:
                out[int(seed)] = (result, nodes, seconds)
        return out

    def add(self, mode: str, settings: str, seed: int, result: str, nodes: int,
            seconds: float, line) -> None:
        try:
            with self.con:
                self.con.execute(
                    "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (mode, settings, str(seed), result, int(nodes), float(seconds),
                     json.dumps(list(line)), time.time()))
        except sqlite3.Error as e:
            raise DBError(f"cannot write database {self.path!r}: {e}") from None

    def rows(self):
        cur = self.con.execute(
            "SELECT mode, settings, seed, result, nodes, seconds, certificate FROM results "
            "ORDER BY mode, settings, CAST(seed AS INTEGER)")
        for mode, settings, seed, result, nodes, seconds, cert in cur:
            yield {"mode": mode, "settings": settings, "seed": int(seed), "result": result,
                   "nodes": nodes, "seconds": seconds, "certificate": cert}
