"""Test helpers for the open-hands two-player searches (solver/duo/open_hands.py in Python,
solver/duo/open_search.py in numba; tests/solver/duo/test_duo_expectimax.py and
test_open_search.py): the fixture positions and an exact brute force over ``engine/``; not part
of the package."""
from __future__ import annotations

import os
from fractions import Fraction

from engine.notation import parse_position
from solver.duo import open_hands as DX


def _fixtures() -> str:
    """tests/fixtures, beside this file."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


FIXTURE = os.path.join(_fixtures(), "duo_open_positions.txt")
SMALL = os.path.join(_fixtures(), "duo_small_positions.txt")


def open_lines():
    """(unknown cards, position text) of every line of the open-hands fixture."""
    out = []
    with open(FIXTURE) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            u, text = line.rstrip("\n").split("\t")
            out.append((int(u), text))
    return out


def open_positions(max_unknown: int = 99, idx=None):
    rows = open_lines()
    if idx is not None:
        rows = [rows[i] for i in idx]
    return [parse_position(t) for u, t in rows if u <= max_unknown]


def small_positions(idx=None):
    with open(SMALL) as fh:
        rows = [x for x in fh if x.strip() and not x.startswith("#")]
    if idx is not None:
        rows = [rows[i] for i in idx]
    return [DX.open_hands(parse_position(x)) for x in rows]


# Positions the brute force walks in well under a second each (3 to 5 unknown cards; values
# 1, 1/3, 1, 0 and 1/4, 0, 5/12): the fast tier's agreement set.
FAST_OPEN = (1, 2, 3, 5)
FAST_SMALL = (30, 51, 57)


def fast_positions():
    return open_positions(idx=FAST_OPEN) + small_positions(FAST_SMALL)


class Cap(Exception):
    pass


def brute(state, cap: int = 60_000) -> Fraction:
    """The open-hands value by brute force over the engine: 1/0 at the end, the maximum
    over ``legal_actions()``, the exact mean over ``chance_outcomes_exact()``; a memo keyed
    by the engine's own full state equality (``State.__eq__``: the discard pile, the whole
    rows and the deck order all count).  Raises Cap past ``cap`` distinct positions."""
    memo: dict = {}

    def v(s):
        if s.is_terminal():
            return Fraction(1) if s.won() else Fraction(0)
        k = s._key()
        if k in memo:
            return memo[k]
        if len(memo) >= cap:
            raise Cap
        if s.is_chance_node():
            r = Fraction(0)
            for a, p in s.chance_outcomes_exact():
                c = s.clone()
                c.apply_action(a)
                r += p * v(c)
        else:
            r = Fraction(0)
            for a in s.legal_actions():
                c = s.clone()
                c.apply_action(a)
                r = max(r, v(c))
        memo[k] = r
        return r

    return v(state)


def brute_or_skip(s, cap=60_000):
    try:
        return brute(s, cap)
    except Cap:
        return None


def swapped(s):
    """The position ``s`` with the players' roles exchanged: own cards, rows and Doors
    swapped, the other player to move (the pairs of the F_SWAP rule)."""
    t = s.clone()
    t.hands = [t.hands[1], t.hands[0]]
    t.rows = [t.rows[1], t.rows[0]]
    t.doors = [t.doors[1], t.doors[0]]
    t.turn = 1 - t.turn
    return t
