"""Transposition table: exact keys, buckets, eviction by least work, epochs."""
import numpy as np

from solver import tt as T


def test_exact_keys_no_false_hits():
    t = T.TranspositionTable(0.01)   # a tiny table: many keys share buckets
    keys = [(i, i * 7 + 1, i ^ 0x55) for i in range(200)]
    for k in keys[:2]:
        t.store(k, 5)
    assert t.probe(keys[0]) and t.probe(keys[1])
    # keys equal in two words out of three are different keys
    assert not t.probe((keys[0][0], keys[0][1], keys[0][2] + 1))
    assert not t.probe((keys[0][0] + 1, keys[0][1], keys[0][2]))
    assert not t.probe((keys[0][0], keys[0][1] + 1, keys[0][2]))


def test_bucket_evicts_least_work_and_counts():
    t = T.TranspositionTable(0.01)
    nb = t.table.shape[0] // T.BUCKET
    # find 5 keys that land in the same bucket
    same = []
    b0 = T._bucket(np.int64(1), np.int64(2), np.int64(0), nb)
    k = 0
    while len(same) < 5:
        if T._bucket(np.int64(1), np.int64(2), np.int64(k), nb) == b0:
            same.append((1, 2, k))
        k += 1
    for work, key in zip((50, 10, 70, 30), same[:4]):
        assert t.store(key, work) == 0
    assert t.store(same[4], 40) == 1          # the bucket was full
    assert not t.probe(same[1])               # least work (10) went
    for key in (same[0], same[2], same[3], same[4]):
        assert t.probe(key)


def test_epochs_forget():
    t = T.TranspositionTable(0.01)
    t.store((1, 2, 3), 1)
    assert t.probe((1, 2, 3))
    t.new_epoch()
    assert not t.probe((1, 2, 3))


def test_large_keys_use_all_bits():
    t = T.TranspositionTable(0.01)
    big = ((1 << 62) + 5, (1 << 62) + 7, (1 << 62) + 9)
    t.store(big, 1)
    assert t.probe(big)
    assert not t.probe((5, (1 << 62) + 7, (1 << 62) + 9))


def test_size():
    t = T.make_table(1)
    assert t.nbytes <= 1024 * 1024 and t.nbytes >= 512 * 1024
