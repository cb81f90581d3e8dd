"""The kernel's shuffle mirrors engine.rng.shuffle_counts bit for bit."""
import random

import pytest

from engine import cards
from engine import rng
from solver.clairvoyant import deal_kernel as deal


def test_full_deck_many_seeds_and_indices():
    r = random.Random(1)
    seeds = [0, 1, 2, 41, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]
    seeds += [r.randrange(2**64) for _ in range(150)]
    for seed in seeds:
        for index in (0, 1, 2, 7, 63, 200):
            assert deal.shuffle_counts(cards.COUNTS, seed, index) == \
                rng.shuffle_counts(list(cards.COUNTS), seed, index), (seed, index)


def test_random_multisets():
    r = random.Random(2)
    for _ in range(1500):
        counts = [r.randint(0, n) for n in cards.COUNTS]
        seed = r.randrange(2**64)
        index = r.randrange(256)
        assert deal.shuffle_counts(counts, seed, index) == rng.shuffle_counts(counts, seed, index)


def test_tiny_multisets():
    for n in range(3):
        counts = [0] * 17
        counts[16] = n
        assert deal.shuffle_counts(counts, 5, 1) == [16] * n


def test_stream_words_match():
    import numpy as np
    for seed in (0, 3, 2**64 - 1):
        for index in (0, 5):
            key = rng.stream_key(seed, index)
            assert int(deal._stream_key(np.uint64(seed), np.int64(index))) == key


def test_bad_counts_refused():
    with pytest.raises(ValueError):
        deal.shuffle_counts([1, 2], 0, 0)
