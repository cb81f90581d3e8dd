import math

import pytest

from solver.stats import summarize, wilson


def test_wilson_known_values():
    lo, hi = wilson(81, 100)
    assert math.isclose(lo, 0.7222, abs_tol=1e-4) and math.isclose(hi, 0.8749, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_summary_union_with_unknown():
    s = summarize(90, 5, 5)
    assert s["win_rate"] == 90 / 95
    a = wilson(90, 100)
    b = wilson(95, 100)
    assert s["ci95_with_unknown"] == [min(a[0], b[0]), max(a[1], b[1])]
    assert s["ci95"] == list(wilson(90, 95))


def test_no_decided_deal_has_no_win_rate():
    s = summarize(0, 0, 7)
    assert s["win_rate"] is None
    assert s["ci95"] == [0.0, 1.0]
