"""Cards of the Onirim base game (docs/NOTATION.md section 1).

Every card is identified by a small integer, its *type*.  The order of the types is the order
of the card table of docs/NOTATION.md and is part of the contract: the shuffles
(docs/RULINGS.md) sort a deck by type before permuting it (see :mod:`engine.rng`), and the numba
kernels use the same indices.

======  =====  ======================================
type    code   card
======  =====  ======================================
0-2     Os Om Ok   Observatory (red) Sun / Moon / Key
3-5     As Am Ak   Aquarium (blue)
6-8     Gs Gm Gk   Garden (green)
9-11    Ls Lm Lk   Library (brown)
12-15   DO DA DG DL  Doors
16      N      Nightmare
======  =====  ======================================
"""
from __future__ import annotations

CODES = ("Os", "Om", "Ok", "As", "Am", "Ak", "Gs", "Gm", "Gk", "Ls", "Lm", "Lk",
         "DO", "DA", "DG", "DL", "N")
COUNTS = (9, 4, 3, 8, 4, 3, 7, 4, 3, 6, 4, 3, 2, 2, 2, 2, 10)
NUM_TYPES = 17
NUM_LOCATION_TYPES = 12
NIGHTMARE = 16
TOTAL_CARDS = 76
COLOUR_LETTERS = "OAGL"
COLOUR_NAMES = ("Observatory (red)", "Aquarium (blue)", "Garden (green)", "Library (brown)")
SUN, MOON, KEY = 0, 1, 2
SYMBOL_NAMES = ("Sun", "Moon", "Key")
INDEX = {code: i for i, code in enumerate(CODES)}

assert sum(COUNTS) == TOTAL_CARDS


def is_location(c: int) -> bool:
    return 0 <= c < 12


def is_door(c: int) -> bool:
    return 12 <= c < 16


def is_nightmare(c: int) -> bool:
    return c == NIGHTMARE


def colour(c: int) -> int:
    """Colour 0..3 (O, A, G, L) of a Location or a Door."""
    if c < 12:
        return c // 3
    if c < 16:
        return c - 12
    raise ValueError("a Nightmare has no colour")


def symbol(c: int) -> int:
    """Symbol of a Location: SUN, MOON or KEY."""
    return c % 3


def is_key(c: int) -> bool:
    return c < 12 and c % 3 == KEY


def key_of(col: int) -> int:
    return col * 3 + KEY


def door_of(col: int) -> int:
    return 12 + col


def code(c: int) -> str:
    return CODES[c]


def full_counts() -> list[int]:
    return list(COUNTS)
