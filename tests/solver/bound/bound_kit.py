"""Helpers of the bound's tests: an exact honest value in plain Python (memoised expectimax
over the engine's chance mode, the algorithm of tests/naive_expectimax.py with a memo), the
greedy policy on views, and the small positions the tests use."""
from __future__ import annotations

import naive_expectimax as N

from engine import cards
from engine.notation import parse_position
from engine.policy import greedy_action

from benchmarks.positions import late_position


class PyExpectimax:
    """The exact win probability of a chance-mode solo view: 1/0 at the end, the maximum
    over ``legal_actions()`` at a decision, the probability-weighted mean over
    ``chance_outcomes()`` at a chance node; memoised by the view's key (floats)."""

    def __init__(self):
        self.memo: dict = {}

    def __call__(self, view) -> float:
        key = view._key()
        got = self.memo.get(key)
        if got is not None:
            return got
        if view.is_terminal():
            got = 1.0 if view.won() else 0.0
        elif view.is_chance_node():
            got = 0.0
            for a, p in view.chance_outcomes():
                child = view.clone()
                child.apply_action(a)
                got += p * self(child)
        else:
            got = 0.0
            for a in view.legal_actions():
                child = view.clone()
                child.apply_action(a)
                got = max(got, self(child))
        self.memo[key] = got
        return got


def greedy(view) -> int:
    """The engine's greedy policy: it reads the view only."""
    return greedy_action(view)


# Small positions near the end of real (greedy, chance-mode) games: benchmarks/positions.py
# late_position(seed, n), the first phase play with at most n unknown cards, all 8 Doors
# still in the game.  (seed, n) pairs whose positions are not trivially lost.
def late(seed: int, n: int):
    p = late_position(seed, n)
    assert p is not None, (seed, n)
    return p


def position(phase: str, hand: str, row: str, doors: str, unknown: str, limbo: str = "",
             extra: str = ""):
    """A solo position whose deck is ``unknown`` (all of unknown order) and whose discard
    pile holds every other card (card codes, comma-separated; ``extra``: more fields, such as
    ``drawn=N`` or ``left=2``)."""
    counts = list(cards.COUNTS)
    for zone in (hand, row, doors, unknown, limbo, "N" if "drawn=N" in extra else ""):
        for code in filter(None, zone.split(",")):
            counts[cards.INDEX[code]] -= 1
    discard = ",".join(cards.CODES[t] for t in range(cards.NUM_TYPES) for _ in range(counts[t]))
    p = parse_position(f"mode=solo phase={phase} {extra} hand={hand or '-'} row={row or '-'} "
                       f"doors={doors} deck=* discard={discard or '-'} limbo={limbo or '-'}")
    assert list(p.unknown) == [unknown.split(",").count(c) for c in cards.CODES]
    return p


# Small positions with a real chance to win (exact values strictly between 0 and 1), first
# found by tests/naive_expectimax.random_positions and kept here as fields.
SMALL = [
    # a Nightmare drawn, one Key in hand; 4 unknown cards, a Door among them: value 1/2
    dict(phase="nightmare", extra="drawn=N", hand="Lk", row="", doors="DO,DO,DA,DG,DG,DL,DL",
         unknown="Om,Ak,Lm,DA"),
    # two cards left to reveal, two Library Keys in hand; value 1/3
    dict(phase="reveal", extra="left=2", hand="Ok,Ak,Lk,Lk", row="",
         doors="DO,DO,DA,DA,DG,DG", unknown="Lk,DL,DL"),
]


def small_positions():
    return [position(**f) for f in SMALL]


# of the positions below, those whose inner search takes well under a second (the others,
# 2, 6, 9, 10, 11, search 10^4 to 2*10^5 states per deal in plain Python)
CHEAP = (0, 1, 3, 4, 5, 7, 8)


def near_the_end():
    """Small random positions near a win (tests/naive_expectimax.random_positions, a fixed
    stream; several phases): the late positions of real games are nearly all clairvoyant
    losses."""
    out = []
    for text in N.random_positions(3, 36, max_deck=5):
        p = parse_position(text)
        if not p.is_terminal() and sum(p.unknown) >= 2:
            out.append(p)
    return [out[i] for i in CHEAP]
