"""Wilson score intervals for win rates."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (0, 1) when n == 0."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError("need 0 <= successes <= n")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def summarize(wins: int, losses: int, unknown: int) -> dict:
    """win_rate = wins / (wins + losses) (None when no deal is decided) with its Wilson
    interval, and the interval that covers every way of deciding the unknown deals (all
    losses .. all wins)."""
    decided = wins + losses
    total = decided + unknown
    rate = wins / decided if decided else None
    lo, hi = wilson(wins, decided)
    a_lo, a_hi = wilson(wins, total)              # every unknown deal lost
    b_lo, b_hi = wilson(wins + unknown, total)    # every unknown deal won
    return {"win_rate": rate, "ci95": [lo, hi],
            "ci95_with_unknown": [min(a_lo, b_lo), max(a_hi, b_hi)]}
