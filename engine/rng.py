"""The counter-based generator behind every deal and shuffle (docs/RULINGS.md, "Deals and
shuffles").

This module is the contract that the numba kernels mirror bit for bit.  All arithmetic is on
unsigned 64-bit integers, wrapping modulo 2**64.

``mix64(z)`` is the SplitMix64 finaliser::

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)

A stream is keyed by (seed, shuffle index)::

    k0  = mix64(seed + GAMMA)
    key = mix64(k0 ^ ((index + 1) * GAMMA))
    word(i) = mix64(key + (i + 1) * GAMMA)        for i = 0, 1, 2, ...

with ``GAMMA = 0x9E3779B97F4A7C15``.  ``word(i)`` depends only on (seed, index, i), so any draw
can be recomputed without replaying the ones before it.

A shuffle of a multiset of cards with shuffle index ``index``:

1. lay the cards out sorted by type (``engine.cards`` order), so the result depends only on
   *which* cards are shuffled, never on the order they were in (this also makes states that
   differ only in the pre-shuffle order of the deck transpose into one another);
2. Fisher-Yates from the back: for ``t = n-1, n-2, ..., 1`` take ``r = word(n-1-t)`` and
   ``j = r % (t+1)``, then swap positions ``t`` and ``j``;
3. position 0 is the top of the deck.

The modulo has a bias of at most 76 / 2**64 per draw, far below anything measurable.

Shuffle index 0 is the setup shuffle of all 76 cards; every later shuffle of the game (the
setup's limbo shuffle, each Door found by a series, each end-of-turn limbo shuffle) takes the
next index.  A position's ``shuffles`` field is the number of shuffles done so far, hence the
index of the next one.
"""
from __future__ import annotations

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MAX_SEED = MASK


def mix64(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream_key(seed: int, index: int) -> int:
    k0 = mix64((seed + GAMMA) & MASK)
    return mix64(k0 ^ (((index + 1) * GAMMA) & MASK))


def word(key: int, i: int) -> int:
    return mix64((key + (i + 1) * GAMMA) & MASK)


def shuffle_counts(counts, seed: int, index: int) -> list[int]:
    """Shuffle the multiset ``counts[type]`` with stream (seed, index); top of deck first."""
    cards = [t for t, n in enumerate(counts) for _ in range(n)]
    n = len(cards)
    key = stream_key(seed, index)
    for t in range(n - 1, 0, -1):
        j = word(key, n - 1 - t) % (t + 1)
        cards[t], cards[j] = cards[j], cards[t]
    return cards
