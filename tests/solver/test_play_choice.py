"""solver.steps.play_choice (greedy's play decision by packed keys, shared by the solo, the
two-player and the deal-mode greedies) against the readable rule-by-rule decision
(solver.honest.greedy._greedy_play_ref, itself checked against engine.policy) at every hand of
five cards, every last card and series length and a spread of Doors; the two-zone reading
(own and shared cards, ruling D5's "needed") against the one-zone reading of the same hand."""
from __future__ import annotations

import itertools
import random

import numpy as np
from numba import njit

from solver import steps
from solver.honest import kernel as HK

NLOC = 12


def _hands(size):
    """Every hand of ``size`` Locations (card counts per type, the real multiplicities)."""
    out = []
    for combo in itertools.combinations_with_replacement(range(NLOC), size):
        h = np.zeros(NLOC, dtype=np.int64)
        for c in combo:
            h[c] += 1
        if all(h[c] <= HK.COUNTS[c] for c in range(NLOC)):
            out.append(h)
    return np.array(out)


@njit
def _compare(hands, S0):
    """Each hand under every row end (empty; last card c with series 0, 1, 2) and Doors that
    cycle through all 3 ** 4 patterns of 0-2 per colour: the first state where play_choice
    (through the kernel's _greedy_play) and _greedy_play_ref differ (-1: none) and the count
    of plays."""
    S = S0.copy()
    k = 0
    plays = 0
    for i in range(hands.shape[0]):
        for c in range(NLOC):
            S[HK.H + c] = hands[i, c]
        for last in range(-1, NLOC):
            for ser in range(3):
                if last < 0 and ser > 0:
                    continue
                S[HK.LAST] = HK.NO_CARD if last < 0 else last
                S[HK.SER] = ser
                x = k
                for col in range(4):
                    S[HK.DR + col] = x % 3
                    x //= 3
                k = (k + 1) % 81
                a = HK._greedy_play(S)
                if a != HK._greedy_play_ref(S):
                    return i * 1000 + (last + 1) * 3 + ser, 0
                plays += a < HK.A_DISCARD
    return -1, plays


def test_play_choice_equals_the_readable_rules_at_every_hand():
    S0 = HK.INITIAL.copy()
    S0[HK.PH] = HK.P_PLAY
    total = 0
    for size in (5, 4, 1):
        hands = _hands(size)
        bad, plays = _compare(hands, S0)
        assert bad < 0, (size, bad)
        n = len(hands) * (1 + NLOC * 3)
        assert size == 1 or 0.2 * n < plays < 0.9 * n, (size, plays, n)
        total += n
    assert total > 150_000


@njit
def _zones(S2, S1, own, sh, dr, s_col, s_len, ls1):
    a = steps.play_choice(S2, own, sh, True, dr, True, s_col, s_len, ls1)
    b = steps.play_choice(S1, 0, 0, False, NLOC, False, s_col, s_len, ls1)
    return a[0] == b[0] and a[1] == b[1]


def test_two_zones_read_as_one_hand():
    """Own and shared cards read as their sum, and D5's "needed" (no Door of the colour
    held) as the one-zone rule of the same needs."""
    rnd = random.Random(26)
    pool = [c for c in range(NLOC) for _ in range(int(HK.COUNTS[c]))]
    own, sh, dr = 3, 20, 40
    for _ in range(5000):
        cards = rnd.sample(pool, rnd.choice((1, 3, 4, 5, 5)))
        S2 = np.zeros(48, dtype=np.int64)
        S1 = np.zeros(NLOC + 4, dtype=np.int64)
        for j, c in enumerate(cards):
            S2[(own if j < 3 else sh) + c] += 1
            S1[c] += 1
        for col in range(4):
            held = rnd.choice((0, 0, 1, 2))
            S2[dr + col] = held
            S1[NLOC + col] = 0 if held == 0 else 2
        if rnd.random() < 0.1:
            s_col, s_len, ls1 = -1, 0, 0
        else:
            last = rnd.randrange(NLOC)
            s_col, s_len, ls1 = last // 3, rnd.randint(0, 2), last % 3 + 1
        assert _zones(S2, S1, own, sh, dr, s_col, s_len, ls1), (cards, S2[dr:dr + 4], s_col,
                                                                 s_len, ls1)
