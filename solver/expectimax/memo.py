"""The memo table of the expectimax: its rows, its growth and its files.

A :class:`MemoTable` owns the table (``keys``, ``vals``: one 64-byte row per entry,
``exk_table.new_tables``), moves it into a larger one when it is full (``grow_if_full``,
docs/EXPECTIMAX.md section 3, "Growing the memo"), and saves and loads it
(``solver.expectimax.memo_file``, section 4b).  The counts it grows by (entries stored, replaced) are
the searches' counters, which the runner holds (``solver.expectimax.runner``); the caller
passes the runner in.  How much memory a table may take is the caller's policy too
(``solver.expectimax``: the memory cap, a function, and the speed of a first touch).
"""
from __future__ import annotations

import time

import numpy as np

from .table import new_tables, rehash

GROW_SEEN = 2                # grow once the table has taken GROW_SEEN times its size in
                             # entries (stored, plus replaced since it last grew)


class MemoTable:
    """A memo of 2**table_bits rows that may grow up to 2**max_table_bits."""

    def __init__(self, table_bits: int, max_table_bits: int):
        self.start_bits = table_bits
        self.max_table_bits = max(table_bits, max_table_bits)
        self.table_bits = table_bits
        self.grown = 0                # times the table grew
        self.replaced_before = 0      # replacements counted before the table last grew
        self.keys, self.vals, _ = new_tables(table_bits)

    @property
    def rows(self) -> int:
        return self.keys.shape[0]

    @property
    def growable(self) -> bool:
        return self.table_bits < self.max_table_bits

    def held(self) -> int:
        """Entries in the table now."""
        return int(np.count_nonzero(self.keys[:, 0] != -1))

    def reset(self) -> None:
        """Forget every entry (a grown table goes back to its first size)."""
        if self.table_bits != self.start_bits:
            self.keys = self.vals = None
            self.keys, self.vals, _ = new_tables(self.start_bits)
            self.table_bits = self.start_bits
        else:
            self.keys[:, 0] = -1
        self.replaced_before = 0

    def seen(self, runner) -> int:
        """Entries the table has taken since it last grew: stored, plus replaced."""
        return runner.stored + runner.replaced - self.replaced_before

    def _move_to(self, bits: int) -> int:
        """Rehash every entry into a new table of 2**bits rows; returns the entries it holds."""
        keys, vals, _ = new_tables(bits)
        used = rehash(self.keys, keys)
        self.keys, self.vals, self.table_bits = keys, vals, bits
        self.grown += 1
        return used

    def grow_if_full(self, runner, cap_bits, deadline: float | None = None,
                     bytes_per_s: float = float("inf")) -> bool:
        """Move the memo to a table 4 times as large (at most ``max_table_bits`` and
        ``cap_bits()``, what the memory holds now) once it has taken GROW_SEEN times its size
        in entries (so it is full and has replaced as many entries as it holds).  Every
        entry is kept (``rehash``); no search may be running.  With a ``deadline`` (a
        time.perf_counter() value) the table grows only if the time left covers making the
        new table at ``bytes_per_s``.  True if it grew."""
        if not self.growable or self.seen(runner) < self.rows * GROW_SEEN:
            return False
        bits = min(self.max_table_bits, self.table_bits + 2, cap_bits())
        if bits <= self.table_bits:
            self.max_table_bits = self.table_bits     # no memory for more: stop growing
            return False
        if (deadline is not None
                and time.perf_counter() + (64 << bits) / bytes_per_s > deadline):
            return False                              # not now: too close to the deadline
        runner.set_stored(self._move_to(bits))
        self.replaced_before = runner.replaced
        return True

    # ---------------------------------------------------------------------- memo files
    def save(self, path: str, nodes: int) -> int:
        """Write every entry to ``path`` (``solver.expectimax.memo_file.save``); returns the entries."""
        from . import memo_file
        return memo_file.save(self.keys, path, self.table_bits, nodes)

    def load(self, path: str, runner, cap_bits) -> int:
        """Add the entries of a memo file (``solver.expectimax.memo_file.load``: the whole file is
        checked first, and a file that fails leaves the table unchanged).  A table that may
        grow is made large enough for the file's entries and its own (at most a quarter
        full, up to ``max_table_bits`` and ``cap_bits()``); a fixed table keeps the entries
        that cost the most work.  Returns the entries held afterwards."""
        from . import memo_file
        held = self.held()

        def prepare(header):            # the file passed every check: make room
            nonlocal held
            need = header["rows"] + held
            bits = self.table_bits
            if self.growable:
                cap = min(self.max_table_bits, max(self.table_bits, cap_bits()))
                while bits < cap and (1 << bits) < 4 * need:     # at most a quarter full
                    bits += 1
            if bits > self.table_bits:
                held = self._move_to(bits)

        def insert(rows):
            nonlocal held
            held += memo_file.merge(rows, self.keys, self.vals)[0]      # the new keys

        memo_file.load(path, prepare, insert)
        runner.set_stored(held)
        self.replaced_before = runner.replaced
        return held
