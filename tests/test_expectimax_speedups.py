"""The expectimax speed-ups of docs/EXPECTIMAX.md change no value.

* deferred prophecy order (free cards, PICK decisions): against the brute force on small
  positions and against the committed orders on larger ones;
* the symbol rule of the can-still-win bound (Suns and Moons only, ``series_fit``);
* threads sharing the memo, and the deadline inside the kernel.
"""
import os
import random
import sys

import numpy as np
import pytest

from engine import parse_position
from onirim.cli import main
from solver import expectimax_kernel as K
from solver.expectimax import Expectimax, encode

import naive_expectimax as N
from test_expectimax_positions import SEVEN, complete

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "benchmarks"))
from bench_expectimax import late_position  # noqa: E402


def _small(seed, count, max_deck=5):
    """(text, state, exact value) of random positions the brute force finishes."""
    for text in N.random_positions(seed, 10 * count, max_deck):
        state = parse_position(text)
        try:
            v = N.value(state, 3000)
        except N.NodeCap:
            continue
        yield text, state, float(v)
        count -= 1
        if not count:
            return


# ------------------------------------------------------------------ deferred prophecy order
def test_free_cards_are_exercised_and_agree():
    """Prophecy positions: the kernel keeps the kept cards as free cards and lets the
    player pick them one by one; the brute force (the engine) fixes their order at the
    prophecy.  Same values, and the kernel did take PICK decisions."""
    solver = Expectimax(16)
    checked = 0
    for text, state, want in _small(777, 2000, 6):
        if state.phase not in ("prophecy", "foresee", "play"):
            continue
        iv = solver.value(state)
        assert iv.exact and abs(iv.lo - want) <= 1e-12, (text, iv, want)
        checked += 1
        if checked == 250:
            break
    assert checked == 250
    assert solver.stats[K.ST_PHASE + K.PICK] >= 20, solver.stats[K.ST_PHASE + K.PICK]
    assert solver.stats[K.ST_PHASE + K.PROPHECY] >= 20, solver.stats[K.ST_PHASE + K.PROPHECY]


def _prophecies(count, seed=5):
    """Random prophecy positions with 7 Doors in play: 4 Locations in hand, 5 revealed
    cards, 3 unknown cards below them; only those with a value strictly between 0 and 1
    whose search takes PICK decisions."""
    from engine import cards as C
    rng = random.Random(seed)
    pool = ["Os", "Om", "As", "Am", "Gs", "Gm", "Ls", "Lm", "Lk", "Lk", "Ok", "DL", "N", "N"]
    solver = Expectimax(18)
    out = []
    for _ in range(2000 * count):
        if len(out) == count:
            break
        cards = rng.sample(pool, 12)
        hand = [c for c in cards if C.is_location(C.INDEX[c])][:4]
        rest = list(cards)
        for c in hand:
            rest.remove(c)
        revealed, unknown = rest[:5], rest[5:8]
        if len(hand) < 4 or len(unknown) < 3 or "DL" not in revealed + unknown:
            continue
        text = complete(f"mode=solo phase=prophecy hand={','.join(hand)} row=- {SEVEN} "
                        f"deck={','.join(revealed)},*", unknown)
        state = parse_position(text)
        picks = solver.stats[K.ST_PHASE + K.PICK]
        iv = solver.value(state)
        if 0 < iv.lo < 1 and solver.stats[K.ST_PHASE + K.PICK] > picks:
            out.append(state)
    return out


def test_deferred_order_equals_best_committed_order():
    """value(prophecy) in the kernel (free cards picked one at a time) equals the best of
    the engine's prophecy actions, each of which fixes the order of the kept cards (the
    kernel searches those children with their order fixed)."""
    solver = Expectimax(18)
    states = _prophecies(8)
    assert len(states) == 8
    for s in states:
        ranking = solver.rank(s)
        assert all(a.exact for a in ranking.actions)
        iv = solver.value(s)
        assert iv.exact
        assert abs(iv.lo - ranking.actions[0].value) <= 1e-12, (s, iv, ranking.actions[0])


def test_pick_order_matters():
    """Keep Lk, DL, N, Om after discarding one N: drawing Lk first and DL next wins for
    sure (DL opened with the Key); the kernel must find the order among its free cards.
    The brute force, with the order fixed at the prophecy, agrees."""
    text = complete(f"mode=solo phase=prophecy hand=Os,As,Gs,Ls row=- {SEVEN} "
                    "deck=Lk,DL,N,Om,N")
    state = parse_position(text)
    iv = Expectimax(16).value(state)
    assert iv.exact and iv.lo == 1.0
    assert N.value(state, 10**6) == 1


# ------------------------------------------------------------------ the symbol rule
def _fit_brute(n, n_s, n_m):
    """Can n series of 3 (no two neighbours share a symbol) be made of the cards?"""
    if n == 0:
        return True
    for a, b, c in (("s", "m", "s"), ("m", "s", "m")):
        need_s = (a, b, c).count("s")
        need_m = 3 - need_s
        if n_s >= need_s and n_m >= need_m and _fit_brute(n - 1, n_s - need_s, n_m - need_m):
            return True
    return False


def test_series_fit_matches_enumeration():
    for n in range(0, 4):
        for n_s in range(0, 10):
            for n_m in range(0, 10):
                assert K.series_fit(n, n_s, n_m) == _fit_brute(n, n_s, n_m), (n, n_s, n_m)


def test_bound_sees_two_moons_cannot_make_a_series():
    """`row ... Ls` with only `Lm, Lm` left: Ls-Lm-Lm repeats a symbol, and a new series
    needs three cards.  The bound says lost; the brute force agrees.  With `Ls, Lm` left
    instead it does not say lost (the series Ls, Lm, Ls can be made)."""
    lost = complete(f"mode=solo phase=play hand=Lm,Os,As,Gs,Om row=Ls {SEVEN} deck=*",
                    ["DL", "Lm", "Os"])
    state = parse_position(lost)
    status, *w = K.canonical(*[np.int64(x) for x in encode(state)])
    assert not K.can_still_win(*w)
    assert N.value(state, 100_000) == 0
    alive = complete(f"mode=solo phase=play hand=Lm,Os,As,Gs,Om row=Ls {SEVEN} deck=*",
                     ["DL", "Ls", "Os"])
    state = parse_position(alive)
    status, *w = K.canonical(*[np.int64(x) for x in encode(state)])
    assert K.can_still_win(*w)
    assert N.value(state, 100_000) > 0


# ------------------------------------------------------------------ threads and deadline
def test_two_threads_agree_with_brute_force():
    solver = Expectimax(16, threads=2)
    for text, state, want in _small(4242, 150):
        iv = solver.value(state)
        assert iv.exact and abs(iv.lo - want) <= 1e-12, (text, iv, want)


def test_two_threads_give_the_same_bits_on_larger_positions():
    one, two = Expectimax(20), Expectimax(20, threads=2)
    checked = 0
    for seed in range(60):
        s = late_position(seed, 12)
        if s is None:
            continue
        one.clear()
        two.clear()
        a, b = one.value(s), two.value(s)
        assert a.exact and b.exact and a.lo == b.lo, (seed, a, b)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_threads_with_budgets_stay_sound():
    rng = random.Random(9)
    for text, state, want in _small(31, 80, 6):
        solver = Expectimax(14, threads=2)
        iv = solver.value(state, node_budget=rng.choice((1, 3, 10, 40)))
        assert iv.lo - 1e-12 <= want <= iv.hi + 1e-12, (text, iv, want)


def test_deadline_stops_with_sound_bounds():
    ref = Expectimax(20)
    for seed in range(200):            # a position that needs a few clock periods
        s = late_position(seed, 12)
        if s is None:
            continue
        ref.clear()
        exact = ref.value(s)
        if ref.nodes > 3 * K.CLOCK_EVERY:
            break
    assert exact.exact and ref.nodes > 3 * K.CLOCK_EVERY
    solver = Expectimax(20)
    iv = solver.value(s, budget_s=1e-6)     # the clock is read every CLOCK_EVERY nodes
    assert solver.timed_out
    assert iv.lo - 1e-12 <= exact.lo <= iv.hi + 1e-12
    assert solver.nodes <= 2 * K.CLOCK_EVERY
    # the same table then finishes the job exactly
    iv2 = solver.value(s)
    assert not solver.timed_out and iv2.exact and iv2.lo == exact.lo


def test_threads_must_be_positive():
    with pytest.raises(ValueError):
        Expectimax(10, threads=0)


def test_cli_threads(capsys):
    h5 = complete(f"mode=solo phase=play hand=Lk,Os,As,Gs,Om row=- {SEVEN} deck=*",
                  ["DL", "N"])
    assert main(["best", h5, "--threads", "2", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"best"' in out
    assert main(["best", h5, "--threads", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("onirim: error:") and err.count("\n") == 1
