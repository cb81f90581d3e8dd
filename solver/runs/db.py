"""SQLite store of ``onirim winrate`` results: one row per deal, committed as it finishes.

Schema version 4 (``docs/WINRATE.md`` describes every column):

* ``results``: clairvoyant solves.  The primary key is ``(mode, players, key, seed)``:
  ``players`` (1 solo, 2 two-player) keeps a solo row from ever being read as a two-player one
  and the reverse (deal ``S`` is a different game for each player count).  A *decided* deal
  (WIN or LOSS) is stored under ``key = ''``: the result of a deal does not depend on the table
  size, the number of workers or the budget that decided it, so every run finds it whatever its
  settings.  An UNKNOWN deal is stored under ``key`` = the budget that failed to decide it
  (:func:`unknown_key`: node budget, time budget, solver version): only a run with that same
  budget reuses it, a run with another budget solves the deal again.  When a deal is decided,
  its UNKNOWN rows are deleted in the same transaction.  ``settings`` holds the full settings
  the row was solved with (budget, table size, solver version), for the record.
  ``certificate`` is the winning line (JSON list of action strings) of a WIN, the re-solve
  recipe (JSON object) of a LOSS, and ``[]`` for UNKNOWN.
* ``honest``: games played by a policy under honest information, primary key
  ``(policy_hash, players, seed)``; ``cpu_seconds`` is the CPU time of the process over the
  game (NULL for a game stored before version 4, which kept its wall time only);
  ``policies`` maps each hash to the policy's name and configuration.
* ``meta``: ``schema_version``.

A version 1 file (``results`` keyed by ``(mode, settings, seed)`` with the table size inside
``settings``), a version 2 file (no ``players`` column: every row is solo) or a version 3 file
(no ``cpu_seconds`` column in ``honest``) is migrated in place, in one transaction per step, the first time it is opened for writing; opened read-only
(``onirim verify``) it is read as it is, its rows as solo rows.  Seeds are stored as decimal
text (SQLite integers stop at 2**63 - 1, seeds go to 2**64 - 1).
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import urllib.parse

from engine.errors import OnirimError

SCHEMA_VERSION = 4
DECIDED_KEY = ""

COLUMNS_V1 = ["mode", "settings", "seed", "result", "nodes", "seconds", "certificate", "created"]
COLUMNS_V2 = ["mode", "key", "seed", "result", "nodes", "seconds", "certificate", "created",
              "settings"]
COLUMNS = COLUMNS_V2 + ["players"]
HONEST_COLUMNS_V2 = ["policy_hash", "seed", "won", "doors", "decisions", "seconds", "actions",
                     "created"]
HONEST_COLUMNS_V3 = HONEST_COLUMNS_V2 + ["players"]
HONEST_COLUMNS = HONEST_COLUMNS_V3 + ["cpu_seconds"]
POLICY_COLUMNS = ["hash", "name", "config", "created"]
META_COLUMNS = ["name", "value"]
TABLES = ("results", "honest", "policies", "meta")

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    mode        TEXT NOT NULL,
    key         TEXT NOT NULL,
    seed        TEXT NOT NULL,
    result      TEXT NOT NULL CHECK (result IN ('WIN', 'LOSS', 'UNKNOWN')),
    nodes       INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    certificate TEXT NOT NULL,
    created     REAL NOT NULL,
    settings    TEXT NOT NULL,
    players     INTEGER NOT NULL DEFAULT 1 CHECK (players IN (1, 2)),
    PRIMARY KEY (mode, players, key, seed)
);
CREATE TABLE IF NOT EXISTS policies (
    hash    TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    config  TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS honest (
    policy_hash TEXT NOT NULL,
    seed        TEXT NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    doors       INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    actions     TEXT NOT NULL,
    created     REAL NOT NULL,
    players     INTEGER NOT NULL DEFAULT 1 CHECK (players IN (1, 2)),
    cpu_seconds REAL,
    PRIMARY KEY (policy_hash, players, seed)
);
CREATE TABLE IF NOT EXISTS meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
# The version 2 results table: the version 1 migration builds it, then version 2 -> 3 runs.
RESULTS_V2 = """
CREATE TABLE results (
    mode TEXT NOT NULL, key TEXT NOT NULL, seed TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('WIN', 'LOSS', 'UNKNOWN')),
    nodes INTEGER NOT NULL, seconds REAL NOT NULL, certificate TEXT NOT NULL,
    created REAL NOT NULL, settings TEXT NOT NULL,
    PRIMARY KEY (mode, key, seed)
)"""


@contextlib.contextmanager
def _one_transaction(con: sqlite3.Connection):
    """Transactions by hand, so that DDL and DML share one: ``BEGIN IMMEDIATE`` (the write
    lock first), ``COMMIT`` when the block ends, even by ``return`` (another process may have
    migrated the file already), ``ROLLBACK`` on any exception; the connection's own
    transaction handling is restored afterwards."""
    con.commit()
    con.isolation_level = None
    try:
        con.execute("BEGIN IMMEDIATE")
        yield
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    finally:
        con.isolation_level = ""


class DBError(OnirimError):
    """The database cannot be opened or written, or is not an onirim results file."""


_RCOLS = ", ".join(COLUMNS)
_HCOLS = ", ".join(HONEST_COLUMNS)


def settings_key(settings: dict) -> str:
    """Canonical JSON of a settings dict."""
    return json.dumps(settings, sort_keys=True, separators=(",", ":"))


def unknown_key(settings: dict) -> str:
    """The part of the settings that may change an UNKNOWN outcome: the budgets and the
    solver version (never the table size or the number of workers)."""
    return settings_key({"budget_nodes": settings.get("budget_nodes"),
                         "budget_s": settings.get("budget_s"),
                         "solver": settings.get("solver")})


def seed_segments(seeds: range):
    """``seeds`` (a range of step 1) as ``(length, first, last)`` pieces whose seeds all have
    the same number of decimal digits: within one length, the text order of the stored seeds
    (decimal text, no leading zeros) is their numeric order, so ``length(seed)=L AND seed
    BETWEEN first AND last`` selects exactly that piece, through the primary key's index."""
    lo, hi = seeds.start, seeds.stop - 1
    while lo <= hi:
        length = len(str(lo))
        top = min(hi, 10 ** length - 1)
        yield length, str(lo), str(top)
        lo = top + 1


def _check_path(path: str) -> None:
    """A results file's path names a file in a folder that exists (:class:`DBError` if not)."""
    if not str(path).strip():
        raise DBError("database path is empty")
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise DBError(f"cannot open database {path!r}: folder {d!r} does not exist")


def _connect_readonly(path: str) -> sqlite3.Connection:
    """A connection that writes nothing, neither the file nor a side file beside it.

    A WAL file opened with ``mode=ro`` alone still gets ``-shm`` and ``-wal`` files made
    beside it, left there after closing (and fails where they cannot be made: a read-only
    folder or mount).  So, when no ``-wal`` file exists (no writer has the file open, and
    every committed row is in the file itself), the file is opened ``immutable=1``: SQLite
    reads it without locks or side files.  When a ``-wal`` file exists (a run is writing, or
    one was killed), its rows are needed: ``mode=ro`` reads them through the side files that
    are already there, if the folder is writable; on a read-only folder or file the WAL
    cannot be read and the file is read as it is (``immutable=1``)."""
    full = os.path.abspath(path)
    folder = os.path.dirname(full) or "."
    base = "file:" + urllib.parse.quote(full) + "?mode=ro"
    wal = os.path.exists(full + "-wal")
    writable = os.access(full, os.W_OK) and os.access(folder, os.W_OK)
    if wal and writable:
        return sqlite3.connect(base, uri=True, timeout=30)
    return sqlite3.connect(base + "&immutable=1", uri=True, timeout=30)


def _columns(con, table):
    return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]


class ResultsDB:
    """``readonly``: open for reading only (``onirim verify``, a ``winrate`` whose deals are
    all stored): the file must exist and (unless ``require_results`` is false) hold the
    results table, and nothing is written, not even the journal mode (:func:`_connect_readonly`).

    Opened for writing, a file that holds tables but none of onirim's, or tables of onirim's
    names with other columns, is refused (:class:`DBError`) before anything is written: it
    belongs to another program."""

    def __init__(self, path: str, readonly: bool = False, require_results: bool = True):
        self.path = path
        _check_path(path)
        try:
            if readonly:
                self.con = _connect_readonly(path)
            else:
                self.con = sqlite3.connect(path, timeout=30)
            # check before changing anything: a SQLite file of some other program may
            # have a table called "results" of its own, or only tables of its own
            cols = _columns(self.con, "results")
            self.version = {tuple(COLUMNS_V1): 1, tuple(COLUMNS_V2): 2}.get(tuple(cols), 3)
            self.has_results = bool(cols)
            tables = [r[0] for r in self.con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            problem = None
            if cols and cols not in (COLUMNS, COLUMNS_V2, COLUMNS_V1):
                problem = f"its table 'results' has the columns {', '.join(cols)}"
            elif BOUND_TABLE in tables and not set(tables) & set(TABLES):
                problem = (f"it is an onirim bound file (table {BOUND_TABLE!r}); give "
                           "winrate a file of its own")
            elif tables and not set(tables) & set(TABLES):
                shown = ", ".join(repr(t) for t in tables[:5]) + (
                    f" and {len(tables) - 5} more" if len(tables) > 5 else "")
                problem = (f"it holds the table(s) {shown} and none of onirim's "
                           f"({', '.join(TABLES)})")
            elif readonly and require_results and not cols:
                problem = "it has no table 'results'"
            for table, want in (("honest", (HONEST_COLUMNS, HONEST_COLUMNS_V3,
                                            HONEST_COLUMNS_V2)),
                                ("policies", (POLICY_COLUMNS,)), ("meta", (META_COLUMNS,))):
                have = _columns(self.con, table)
                if have and have not in want and problem is None:
                    problem = f"its table {table!r} has the columns {', '.join(have)}"
            if problem is None and _columns(self.con, "meta"):
                row = self.con.execute(
                    "SELECT value FROM meta WHERE name='schema_version'").fetchone()
                if row is not None and str(row[0]) not in ("1", "2", "3", str(SCHEMA_VERSION)):
                    problem = (f"it has schema version {row[0]}, this onirim reads versions "
                               f"up to {SCHEMA_VERSION}")
            if problem is not None:
                self.con.close()
                raise DBError(f"database {path!r} is not an onirim results file: {problem}")
            hcols = _columns(self.con, "honest")
            self.honest_players = hcols in (HONEST_COLUMNS, HONEST_COLUMNS_V3)
            self.honest_cpu = hcols == HONEST_COLUMNS
            if not readonly:
                self.con.execute("PRAGMA journal_mode=WAL")
                self.con.execute("PRAGMA synchronous=NORMAL")
                if self.version == 1:
                    self._migrate_v1()
                    self.version = 2
                if self.version == 2 or hcols == HONEST_COLUMNS_V2:
                    self._migrate_v2()
                self._migrate_v3()
                self.con.executescript(SCHEMA)
                with self.con:
                    self.con.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                                     (str(SCHEMA_VERSION),))
                self.version = SCHEMA_VERSION
                self.honest_players = self.honest_cpu = True
        except sqlite3.Error as e:
            raise DBError(f"cannot open database {path!r}: {e}") from None

    # ------------------------------------------------------------------ migration
    def _migrate_v1(self) -> None:
        """Version 1 -> 2 in one transaction.  Decided rows go under the decided key; a
        second decided row of the same deal (the same deal solved with another table size)
        keeps its old settings string as its key, so no certificate is lost and ``verify``
        still sees any contradiction.  UNKNOWN rows go under their budget's key."""
        con = self.con
        with _one_transaction(con):
            if _columns(con, "results") != COLUMNS_V1:    # another process migrated it
                return
            old = con.execute("SELECT mode, settings, seed, result, nodes, seconds, "
                              "certificate, created FROM results ORDER BY created").fetchall()
            con.execute("ALTER TABLE results RENAME TO results_v1")
            con.execute(RESULTS_V2)
            seen = set()
            for mode, settings, seed, result, nodes, seconds, cert, created in old:
                try:
                    sdict = json.loads(settings)
                except ValueError:
                    sdict = {}
                if not isinstance(sdict, dict):
                    sdict = {}
                if result in ("WIN", "LOSS"):
                    key = DECIDED_KEY if (mode, seed) not in seen else settings
                    seen.add((mode, seed))
                else:
                    key = unknown_key(sdict)
                con.execute("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (mode, key, seed, result, nodes, seconds, cert, created, settings))
            # an UNKNOWN row of a deal decided by another run is superseded (version 2 drops
            # it when the deal is decided)
            con.execute("DELETE FROM results WHERE result='UNKNOWN' AND EXISTS (SELECT 1 FROM "
                        "results AS d WHERE d.mode=results.mode AND d.seed=results.seed AND "
                        "d.key=?)", (DECIDED_KEY,))
            con.execute("DROP TABLE results_v1")

    def _migrate_v2(self) -> None:
        """Version 2 -> 3 in one transaction: ``results`` and ``honest`` get the column
        ``players`` (every version 2 row is solo: 1) and it joins their primary keys."""
        con = self.con
        with _one_transaction(con):
            tables = (("results", COLUMNS_V2, COLUMNS), ("honest", HONEST_COLUMNS_V2,
                                                          HONEST_COLUMNS))
            for table, old_cols, _ in tables:
                if _columns(con, table) == old_cols:
                    con.execute(f"ALTER TABLE {table} RENAME TO {table}_v2")
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    con.execute(stmt)
            for table, old_cols, _ in tables:
                if _columns(con, f"{table}_v2"):
                    names = ", ".join(old_cols)
                    con.execute(f"INSERT INTO {table} ({names}, players) "
                                f"SELECT {names}, 1 FROM {table}_v2")
                    con.execute(f"DROP TABLE {table}_v2")

    def _migrate_v3(self) -> None:
        """Version 3 -> 4 in one transaction: ``honest`` gets the column ``cpu_seconds``,
        NULL for the games already stored (their CPU time was not kept)."""
        con = self.con
        if _columns(con, "honest") != HONEST_COLUMNS_V3:
            return
        with _one_transaction(con):
            if _columns(con, "honest") == HONEST_COLUMNS_V3:    # else another process did
                con.execute("ALTER TABLE honest ADD COLUMN cpu_seconds REAL")

    def close(self) -> None:
        self.con.close()

    # ------------------------------------------------------------------ clairvoyant rows
    def done(self, mode: str, ukey: str, seeds, players: int = 1,
             with_settings: bool = False) -> dict:
        """Stored rows of ``players``-player deals among ``seeds`` usable by a run whose
        UNKNOWN key is ``ukey``: seed -> (result, nodes, seconds), and the row's settings
        JSON as a fourth item with ``with_settings``.  A decided row wins over an UNKNOWN
        one.  Rows of the other player count are never read.  ``seeds`` as a ``range`` is
        looked up by seed ranges in SQL (:func:`seed_segments`), without building a set of
        its seeds: the memory taken is that of the rows found."""
        out = {}
        base = ("SELECT seed, key, result, nodes, seconds, settings FROM results WHERE mode=? "
                "AND players=? AND key IN (?, ?)")
        args = (mode, int(players), DECIDED_KEY, ukey)
        for seed, key, result, nodes, seconds, settings in self._seed_rows(base, args, seeds):
            if key == DECIDED_KEY or int(seed) not in out:
                out[int(seed)] = ((result, nodes, seconds, settings) if with_settings
                                  else (result, nodes, seconds))
        return out

    def count_done(self, mode: str, ukey: str, seeds, players: int = 1) -> int:
        """``len(self.done(...))``, counted in SQL for a ``range``."""
        if not (isinstance(seeds, range) and seeds.step == 1):
            return len(self.done(mode, ukey, seeds, players))
        return self._count("SELECT COUNT(DISTINCT seed) FROM results WHERE mode=? AND "
                           "players=? AND key IN (?, ?)",
                           (mode, int(players), DECIDED_KEY, ukey), seeds)

    def count_honest(self, phash: str, seeds, players: int = 1) -> int:
        """``len(self.honest_done(...))``, counted in SQL for a ``range``."""
        if not (isinstance(seeds, range) and seeds.step == 1):
            return len(self.honest_done(phash, seeds, players))
        return self._count("SELECT COUNT(*) FROM honest WHERE policy_hash=? AND players=?",
                           (phash, int(players)), seeds)

    def _count(self, base: str, args: tuple, seeds: range) -> int:
        return sum(self.con.execute(base + " AND length(seed)=? AND seed BETWEEN ? AND ?",
                                    args + seg).fetchone()[0] for seg in seed_segments(seeds))

    def _seed_rows(self, base: str, args: tuple, seeds):
        """The rows of ``base`` (a SELECT whose first column is ``seed``) whose seed is in
        ``seeds``: by SQL ranges when ``seeds`` is a ``range`` of step 1, else filtered here."""
        if isinstance(seeds, range) and seeds.step == 1:
            for length, lo, hi in seed_segments(seeds):
                yield from self.con.execute(base + " AND length(seed)=? AND seed BETWEEN ? AND ?",
                                            args + (length, lo, hi))
            return
        want = {str(s) for s in seeds}
        for row in self.con.execute(base, args):
            if row[0] in want:
                yield row

    def add(self, mode: str, settings: dict, seed: int, result: str, nodes: int,
            seconds: float, certificate, players: int = 1) -> None:
        """Store one solve (committed at once)."""
        self.add_many(mode, settings, [(seed, result, nodes, seconds, certificate)], players)

    def add_many(self, mode: str, settings: dict, rows, players: int = 1) -> None:
        """Store solves ``(seed, result, nodes, seconds, certificate)`` of ``players``-player
        deals in one transaction.

        A decided deal that already has a decided row keeps it (a run never solves a stored
        decided deal again; if it did and disagreed, the new row is kept under its settings
        so that ``verify`` reports the contradiction)."""
        skey = settings_key(settings)
        ukey = unknown_key(settings)
        p = int(players)
        try:
            with self.con:
                for seed, result, nodes, seconds, cert in rows:
                    cert_text = cert if isinstance(cert, str) else json.dumps(cert)
                    vals = (str(seed), result, int(nodes), float(seconds), cert_text,
                            time.time(), skey, p)
                    if result in ("WIN", "LOSS"):
                        prev = self.con.execute(
                            "SELECT result FROM results WHERE mode=? AND players=? AND key=? "
                            "AND seed=?", (mode, p, DECIDED_KEY, str(seed))).fetchone()
                        key = DECIDED_KEY if prev is None else skey
                        if prev is None or prev[0] != result:
                            self.con.execute(
                                f"INSERT OR REPLACE INTO results ({_RCOLS}) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (mode, key) + vals)
                        self.con.execute("DELETE FROM results WHERE mode=? AND players=? AND "
                                         "seed=? AND result='UNKNOWN'", (mode, p, str(seed)))
                    else:
                        self.con.execute(
                            f"INSERT OR REPLACE INTO results ({_RCOLS}) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (mode, ukey) + vals)
        except sqlite3.Error as e:
            raise DBError(f"cannot write database {self.path!r}: {e}") from None

    def rows(self):
        """Every clairvoyant row (any schema version), with its player count."""
        kcol = "settings" if self.version == 1 else "key"
        pcol = "players" if self.version >= 3 else "1"
        cur = self.con.execute(
            f"SELECT mode, {kcol}, seed, result, nodes, seconds, certificate, settings, {pcol} "
            "FROM results ORDER BY mode, 9, CAST(seed AS INTEGER), 2")
        for mode, key, seed, result, nodes, seconds, cert, settings, players in cur:
            yield {"mode": mode, "key": key, "seed": int(seed), "result": result,
                   "nodes": nodes, "seconds": seconds, "certificate": cert,
                   "settings": settings, "players": int(players)}

    # ------------------------------------------------------------------ honest rows
    def add_policy(self, phash: str, name: str, config: dict) -> None:
        try:
            with self.con:
                self.con.execute("INSERT OR IGNORE INTO policies VALUES (?, ?, ?, ?)",
                                 (phash, name, settings_key(config), time.time()))
        except sqlite3.Error as e:
            raise DBError(f"cannot write database {self.path!r}: {e}") from None

    def honest_done(self, phash: str, seeds, players: int = 1) -> dict:
        """Stored ``players``-player games of policy ``phash`` among ``seeds``: seed -> dict
        (``seeds`` as in :meth:`done`)."""
        out = {}
        cpu = "cpu_seconds" if self.honest_cpu else "NULL"
        base = (f"SELECT seed, won, doors, decisions, seconds, {cpu} FROM honest "
                "WHERE policy_hash=? AND players=?")
        for seed, won, doors, decisions, seconds, cpu_s in self._seed_rows(
                base, (phash, int(players)), seeds):
            out[int(seed)] = {"won": bool(won), "doors": doors, "decisions": decisions,
                              "seconds": seconds, "cpu_seconds": cpu_s}
        return out

    def add_honest(self, phash: str, rows, players: int = 1) -> None:
        """Store ``players``-player games (dicts with seed, won, doors, decisions, seconds,
        actions, and cpu_seconds if known) in one transaction.  A game already stored is kept (the same policy hash,
        player count and seed give the same game)."""
        try:
            with self.con:
                for r in rows:
                    self.con.execute(
                        f"INSERT OR IGNORE INTO honest ({_HCOLS}) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (phash, str(r["seed"]), int(bool(r["won"])), int(r["doors"]),
                         int(r["decisions"]), float(r["seconds"]), json.dumps(r["actions"]),
                         time.time(), int(players),
                         None if r.get("cpu_seconds") is None else float(r["cpu_seconds"])))
        except sqlite3.Error as e:
            raise DBError(f"cannot write database {self.path!r}: {e}") from None

    def policies(self) -> dict:
        if not _columns(self.con, "policies"):
            return {}
        return {h: {"name": n, "config": json.loads(c)}
                for h, n, c in self.con.execute("SELECT hash, name, config FROM policies")}

    def honest_rows(self):
        """Every honest game (any schema version), with its player count."""
        if not _columns(self.con, "honest"):
            return
        pcol = "players" if self.honest_players else "1"
        cpu = "cpu_seconds" if self.honest_cpu else "NULL"
        cur = self.con.execute("SELECT policy_hash, seed, won, doors, decisions, seconds, "
                               f"actions, {pcol}, {cpu} FROM honest ORDER BY policy_hash, 8, "
                               "CAST(seed AS INTEGER)")
        for phash, seed, won, doors, decisions, seconds, actions, players, cpu_s in cur:
            yield {"policy_hash": phash, "seed": int(seed), "won": bool(won), "doors": doors,
                   "decisions": decisions, "seconds": seconds, "actions": actions,
                   "players": int(players), "cpu_seconds": cpu_s}


# ----------------------------------------------------------------------------- bound rows
BOUND_TABLE = "bound_rows"
BOUND_COLUMNS = ["key", "seed", "row"]
BOUND_SCHEMA = ("CREATE TABLE IF NOT EXISTS bound_rows (key TEXT NOT NULL, seed TEXT NOT NULL, "
                "row TEXT NOT NULL, PRIMARY KEY (key, seed))")


def _tables(con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]


def _shown(tables) -> str:
    return ", ".join(repr(t) for t in tables[:5]) + (
        f" and {len(tables) - 5} more" if len(tables) > 5 else "")


class BoundDB:
    """The per-deal rows of ``onirim bound`` (table ``bound_rows``: the configuration's key,
    the seed as decimal text, the row as JSON), under the rules of :class:`ResultsDB`: a file
    of another program (tables, none of them ``bound_rows``) or a ``winrate`` results file is
    refused (:class:`DBError`) before anything is written; ``readonly`` opens it without
    writing anything, not even a side file (:func:`_connect_readonly`)."""

    def __init__(self, path: str, readonly: bool = False):
        self.path = path
        _check_path(path)
        try:
            self.con = (_connect_readonly(path) if readonly
                        else sqlite3.connect(path, timeout=30))
            tables = _tables(self.con)
            cols = _columns(self.con, BOUND_TABLE)
            problem = None
            if set(tables) & set(TABLES):
                problem = (f"it is an onirim winrate results file (tables "
                           f"{_shown([t for t in tables if t in TABLES])}); give bound a "
                           "file of its own")
            elif cols and cols != BOUND_COLUMNS:
                problem = f"its table {BOUND_TABLE!r} has the columns {', '.join(cols)}"
            elif tables and not cols:
                problem = f"it holds the table(s) {_shown(tables)} and not {BOUND_TABLE!r}"
            if problem is not None:
                self.con.close()
                raise DBError(f"database {path!r} is not an onirim bound file: {problem}")
            if not readonly:
                self.con.execute("PRAGMA journal_mode=WAL")
                self.con.execute("PRAGMA synchronous=NORMAL")
                with self.con:
                    self.con.execute(BOUND_SCHEMA)
        except sqlite3.Error as e:
            raise DBError(f"cannot open database {path!r}: {e}") from None

    def rows(self, key: str, seeds: range) -> dict:
        """The stored rows of configuration ``key`` among ``seeds``: seed -> row (a dict)."""
        out = {}
        if not _columns(self.con, BOUND_TABLE):
            return out
        for length, lo, hi in seed_segments(seeds):
            for seed, row in self.con.execute(
                    "SELECT seed, row FROM bound_rows WHERE key=? AND length(seed)=? AND "
                    "seed BETWEEN ? AND ?", (key, length, lo, hi)):
                out[int(seed)] = json.loads(row)
        return out

    def add(self, key: str, row: dict) -> None:
        """Store one deal's row (committed at once); a stored row of the same deal is kept."""
        try:
            with self.con:
                self.con.execute("INSERT OR IGNORE INTO bound_rows VALUES (?, ?, ?)",
                                 (key, str(row["seed"]), json.dumps(row, sort_keys=True)))
        except sqlite3.Error as e:
            raise DBError(f"cannot write database {self.path!r}: {e}") from None

    def close(self) -> None:
        self.con.close()
