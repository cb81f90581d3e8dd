"""Transposition table: open addressing on a numpy uint64 array, exact keys of any width.

A table for keys of ``nw`` words (3 for the solo clairvoyant kernel, 4 for the two-player one)
has rows of ``nw + 1`` words: the ``nw`` words of the packed state (the full key, compared in
full, never a hash alone) and a meta word ``epoch << 40 | work``.  ``work`` is the number of
nodes the entry cost to prove (at least 1); ``epoch`` identifies the search that wrote it, so
starting a new search costs nothing: entries of another epoch count as empty.  Slots are
grouped in buckets of 4; a key lives in the bucket its hash picks.  When the bucket is full
the entry with the least work is replaced.  The key width is the table's (``table.shape[1] -
1``): the one table code serves both searches.

The clairvoyant searches store only *proved losses* (a win ends the search), so an entry is
written when its node is finished and is never an ancestor on the current path: entries on
the path cannot be evicted because they are not in the table yet, and evicting any entry only
costs a re-search, never soundness.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from solver.steps import GAMMA, mix64     # SplitMix64's increment and finaliser (engine.rng)

BUCKET = 4
KEY_WORDS = 3          # the solo kernel's state (solver.clairvoyant.deal_kernel.NW)
EPOCH_SHIFT = np.uint64(40)
WORK_MASK = np.uint64((1 << 40) - 1)


def make_table(mb: float, key_words: int = KEY_WORDS) -> np.ndarray:
    """A table of about ``mb`` megabytes (rounded down to a power of two of buckets) for keys
    of ``key_words`` words."""
    if not mb > 0:
        raise ValueError("tt size must be positive")
    row = key_words + 1
    nslots = int(mb * 1024 * 1024) // (row * 8)
    nb = 1
    while nb * 2 * BUCKET <= nslots:
        nb *= 2
    return np.zeros((nb * BUCKET, row), dtype=np.uint64)


@njit(cache=True, inline="always")
def _bucket(c, nw, nbuckets):
    """First slot of the bucket of key ``c[:nw]``: the hash folds the words from the last,
    ``mix64(c[0] ^ mix64(c[1] ^ ... mix64(c[nw-1] + GAMMA)))``."""
    h = mix64(np.uint64(c[nw - 1]) + GAMMA)
    for i in range(nw - 2, -1, -1):
        h = mix64(np.uint64(c[i]) ^ h)
    return np.int64(h & np.uint64(nbuckets - 1)) * BUCKET


@njit(cache=True, inline="always")
def _same(table, i, c, nw):
    for z in range(nw):
        if table[i, z] != np.uint64(c[z]):
            return False
    return True


@njit(cache=True)
def _probe(table, c, epoch):
    """True if key ``c`` (an int64 array of the table's key width) is in the table (written
    in this epoch)."""
    nw = table.shape[1] - 1
    b = _bucket(c, nw, table.shape[0] // BUCKET)
    e = np.uint64(epoch)
    for i in range(b, b + BUCKET):
        if (table[i, nw] >> EPOCH_SHIFT) == e and _same(table, i, c, nw):
            return True
    return False


@njit(cache=True)
def _store(table, c, epoch, work):
    """Insert (or refresh) key ``c``; returns 1 if an older entry of this epoch was evicted."""
    nw = table.shape[1] - 1
    b = _bucket(c, nw, table.shape[0] // BUCKET)
    e = np.uint64(epoch)
    if work < 1:
        work = 1
    w = np.uint64(work)
    if w > WORK_MASK:
        w = WORK_MASK
    victim = -1
    best = WORK_MASK + np.uint64(1)
    for i in range(b, b + BUCKET):
        if (table[i, nw] >> EPOCH_SHIFT) != e:
            if victim < 0 or best > np.uint64(0):
                victim = i
                best = np.uint64(0)
            continue
        if _same(table, i, c, nw):
            if (table[i, nw] & WORK_MASK) < w:
                table[i, nw] = (e << EPOCH_SHIFT) | w
            return 0
        wi = table[i, nw] & WORK_MASK
        if wi < best:
            best = wi
            victim = i
    evicted = 0
    if (table[victim, nw] >> EPOCH_SHIFT) == e:
        evicted = 1
    for z in range(nw):
        table[victim, z] = np.uint64(c[z])
    table[victim, nw] = (e << EPOCH_SHIFT) | w
    return evicted


class TranspositionTable:
    """Python handle on a table (used by tests and the benchmark)."""

    def __init__(self, mb: float = 64, key_words: int = KEY_WORDS):
        self.table = make_table(mb, key_words)
        self.epoch = 1

    def new_epoch(self) -> int:
        self.epoch += 1
        if self.epoch >= (1 << 24):
            self.table[:] = 0
            self.epoch = 1
        return self.epoch

    def _key(self, key) -> np.ndarray:
        if len(key) != self.table.shape[1] - 1:
            raise ValueError(f"a key of this table has {self.table.shape[1] - 1} words")
        return np.array([int(x) for x in key], dtype=np.int64)

    def probe(self, key) -> bool:
        return bool(_probe(self.table, self._key(key), np.int64(self.epoch)))

    def store(self, key, work: int = 1) -> int:
        return int(_store(self.table, self._key(key), np.int64(self.epoch), np.int64(work)))


@njit(cache=True)
def _bench_ops(table, n, epoch):
    """n stores then n probes of pseudo-random keys; returns the number of hits."""
    c = np.zeros(table.shape[1] - 1, dtype=np.int64)
    z = np.uint64(12345)
    for i in range(n):
        z = mix64(z + np.uint64(i))
        c[0] = np.int64(z >> np.uint64(2))
        c[1] = i
        c[2] = 7
        _store(table, c, epoch, i + 1)
    z = np.uint64(12345)
    hits = 0
    for i in range(n):
        z = mix64(z + np.uint64(i))
        c[0] = np.int64(z >> np.uint64(2))
        c[1] = i
        c[2] = 7
        if _probe(table, c, epoch):
            hits += 1
    return hits
