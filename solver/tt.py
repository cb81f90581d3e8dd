"""Transposition table: open addressing on a numpy uint64 array, exact keys.

Each slot is 4 words: the 3 words of the packed state (the full key, compared in full, never a
hash alone) and a meta word ``epoch << 40 | work``.  ``work`` is the number of nodes the entry
cost to prove (at least 1); ``epoch`` identifies the search that wrote it, so starting a new
search costs nothing: entries of another epoch count as empty.  Slots are grouped in buckets
of 4 (one 128-byte stretch); a key lives in the bucket its hash picks.  When the bucket is full
the entry with the least work is replaced.

The clairvoyant search stores only *proved losses* (a win ends the search), so an entry is
written when its node is finished and is never an ancestor on the current path: entries on
the path cannot be evicted because they are not in the table yet, and evicting any entry only
costs a re-search, never soundness.
"""
from __future__ import annotations

import numpy as np
from numba import njit

BUCKET = 4
SLOT_WORDS = 4
EPOCH_SHIFT = np.uint64(40)
WORK_MASK = np.uint64((1 << 40) - 1)


def make_table(mb: float) -> np.ndarray:
    """A table of about ``mb`` megabytes (rounded down to a power of two of buckets)."""
    if not mb > 0:
        raise ValueError("tt size must be positive")
    nslots = int(mb * 1024 * 1024) // (SLOT_WORDS * 8)
    nb = 1
    while nb * 2 * BUCKET <= nslots:
        nb *= 2
    return np.zeros((nb * BUCKET, SLOT_WORDS), dtype=np.uint64)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _bucket(k0, k1, k2, nbuckets):
    h = _mix(np.uint64(k0) ^ _mix(np.uint64(k1) ^ _mix(np.uint64(k2) + np.uint64(0x9E3779B97F4A7C15))))
    return np.int64(h & np.uint64(nbuckets - 1)) * BUCKET


@njit(cache=True)
def _probe(table, k0, k1, k2, epoch):
    """True if the key is in the table (written in this epoch)."""
    b = _bucket(k0, k1, k2, table.shape[0] // BUCKET)
    u0 = np.uint64(k0)
    u1 = np.uint64(k1)
    u2 = np.uint64(k2)
    e = np.uint64(epoch)
    for i in range(b, b + BUCKET):
        if (table[i, 3] >> EPOCH_SHIFT) == e and table[i, 0] == u0 and table[i, 1] == u1 \
                and table[i, 2] == u2:
            return True
    return False


@njit(cache=True)
def _store(table, k0, k1, k2, epoch, work):
    """Insert (or refresh) a key; returns 1 if an older entry of this epoch was evicted."""
    b = _bucket(k0, k1, k2, table.shape[0] // BUCKET)
    u0 = np.uint64(k0)
    u1 = np.uint64(k1)
    u2 = np.uint64(k2)
    e = np.uint64(epoch)
    if work < 1:
        work = 1
    w = np.uint64(work)
    if w > WORK_MASK:
        w = WORK_MASK
    victim = -1
    best = WORK_MASK + np.uint64(1)
    for i in range(b, b + BUCKET):
        if (table[i, 3] >> EPOCH_SHIFT) != e:
            if victim < 0 or best > np.uint64(0):
                victim = i
                best = np.uint64(0)
            continue
        if table[i, 0] == u0 and table[i, 1] == u1 and table[i, 2] == u2:
            if (table[i, 3] & WORK_MASK) < w:
                table[i, 3] = (e << EPOCH_SHIFT) | w
            return 0
        wi = table[i, 3] & WORK_MASK
        if wi < best:
            best = wi
            victim = i
    evicted = 0
    if (table[victim, 3] >> EPOCH_SHIFT) == e:
        evicted = 1
    table[victim, 0] = u0
    table[victim, 1] = u1
    table[victim, 2] = u2
    table[victim, 3] = (e << EPOCH_SHIFT) | w
    return evicted


class TranspositionTable:
    """Python handle on a table (used by tests and the benchmark)."""

    def __init__(self, mb: float = 64):
        self.table = make_table(mb)
        self.epoch = 1

    def new_epoch(self) -> int:
        self.epoch += 1
        if self.epoch >= (1 << 24):
            self.table[:] = 0
            self.epoch = 1
        return self.epoch

    def probe(self, key) -> bool:
        return bool(_probe(self.table, np.int64(key[0]), np.int64(key[1]), np.int64(key[2]),
                           np.int64(self.epoch)))

    def store(self, key, work: int = 1) -> int:
        return int(_store(self.table, np.int64(key[0]), np.int64(key[1]), np.int64(key[2]),
                          np.int64(self.epoch), np.int64(work)))


@njit(cache=True)
def _bench_ops(table, n, epoch):
    """n stores then n probes of pseudo-random keys; returns the number of hits."""
    z = np.uint64(12345)
    for i in range(n):
        z = _mix(z + np.uint64(i))
        _store(table, np.int64(z >> np.uint64(2)), np.int64(i), np.int64(7), epoch, i + 1)
    z = np.uint64(12345)
    hits = 0
    for i in range(n):
        z = _mix(z + np.uint64(i))
        if _probe(table, np.int64(z >> np.uint64(2)), np.int64(i), np.int64(7), epoch):
            hits += 1
    return hits
