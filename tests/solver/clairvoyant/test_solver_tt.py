"""Transposition table: exact keys, buckets, eviction by least work, epochs."""
import numpy as np

from solver import tt


def test_exact_keys_no_false_hits():
    t = tt.TranspositionTable(0.01)   # a tiny table: many keys share buckets
    keys = [(i, i * 7 + 1, i ^ 0x55) for i in range(200)]
    for k in keys[:2]:
        t.store(k, 5)
    assert t.probe(keys[0]) and t.probe(keys[1])
    # keys equal in two words out of three are different keys
    assert not t.probe((keys[0][0], keys[0][1], keys[0][2] + 1))
    assert not t.probe((keys[0][0] + 1, keys[0][1], keys[0][2]))
    assert not t.probe((keys[0][0], keys[0][1] + 1, keys[0][2]))


def test_bucket_evicts_least_work_and_counts():
    t = tt.TranspositionTable(0.01)
    nb = t.table.shape[0] // tt.BUCKET
    # find 5 keys that land in the same bucket
    same = []
    b0 = tt._bucket(np.array([1, 2, 0], dtype=np.int64), 3, nb)
    k = 0
    while len(same) < 5:
        if tt._bucket(np.array([1, 2, k], dtype=np.int64), 3, nb) == b0:
            same.append((1, 2, k))
        k += 1
    for work, key in zip((50, 10, 70, 30), same[:4]):
        assert t.store(key, work) == 0
    assert t.store(same[4], 40) == 1          # the bucket was full
    assert not t.probe(same[1])               # least work (10) went
    for key in (same[0], same[2], same[3], same[4]):
        assert t.probe(key)


def test_epochs_forget():
    t = tt.TranspositionTable(0.01)
    t.store((1, 2, 3), 1)
    assert t.probe((1, 2, 3))
    t.new_epoch()
    assert not t.probe((1, 2, 3))


def test_large_keys_use_all_bits():
    t = tt.TranspositionTable(0.01)
    big = ((1 << 62) + 5, (1 << 62) + 7, (1 << 62) + 9)
    t.store(big, 1)
    assert t.probe(big)
    assert not t.probe((5, (1 << 62) + 7, (1 << 62) + 9))


def test_size():
    t = tt.make_table(1)
    assert t.nbytes <= 1024 * 1024 and t.nbytes >= 512 * 1024


def test_key_width_is_the_tables():
    """One table code for 3-word (solo) and 4-word (two-player) keys: a 4-word table tells
    keys apart by their 4th word, and a key of the wrong width is refused."""
    t = tt.TranspositionTable(0.01, key_words=4)
    t.store((1, 2, 3, 4), 1)
    assert t.probe((1, 2, 3, 4))
    assert not t.probe((1, 2, 3, 5))
    import pytest
    with pytest.raises(ValueError):
        t.probe((1, 2, 3))


def test_hash_folds_the_words_from_the_last():
    """The bucket of a key is mix(c0 ^ mix(c1 ^ ... mix(c[n-1] + GOLD))) for every width (the
    solo and two-player tables had this hash, each written out for its width)."""
    gold = 0x9E3779B97F4A7C15
    m = (1 << 64) - 1

    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        return z ^ (z >> 31)
    for key in ((1, 2, 3), (5, 6, 7, 8), ((1 << 62) + 3, 9, 1 << 40)):
        h = mix((key[-1] + gold) & m)
        for x in reversed(key[:-1]):
            h = mix(x ^ h)
        nb = 1 << 10
        assert tt._bucket(np.array(key, dtype=np.int64), len(key), nb) == (h & (nb - 1)) * tt.BUCKET
