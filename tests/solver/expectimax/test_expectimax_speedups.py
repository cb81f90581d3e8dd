"""The expectimax speed-ups of docs/EXPECTIMAX.md change no value.

* deferred prophecy order (free cards, PICK decisions): against the brute force on small
  positions and against the committed orders on larger ones;
* the symbol rules of the can-still-win bound (Suns and Moons only, ``sms_range``; plays
  that separate series, ``min_junk``), its look-ahead at Nightmares and reveals;
* threads sharing the memo, and the deadline inside the kernel.
"""
import itertools
import random

import numba as nb
import numpy as np
import pytest

from engine import parse_position
from onirim.cli import main
from solver.expectimax import kernel
from solver.expectimax.solver import Expectimax, encode

import naive_expectimax as N
from test_expectimax_positions import SEVEN, complete

from benchmarks.positions import late_position


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
    assert solver.stats[kernel.ST_PHASE + kernel.PICK] >= 20, solver.stats[kernel.ST_PHASE + kernel.PICK]
    assert solver.stats[kernel.ST_PHASE + kernel.PROPHECY] >= 20, solver.stats[kernel.ST_PHASE + kernel.PROPHECY]


def _prophecies(count, seed=5):
    """Random prophecy positions with 7 Doors in play: 4 Locations in hand, 5 revealed
    cards, 3 unknown cards below them; only those with a value strictly between 0 and 1
    whose search takes PICK decisions."""
    from engine import cards as card_codes
    rng = random.Random(seed)
    pool = ["Os", "Om", "As", "Am", "Gs", "Gm", "Ls", "Lm", "Lk", "Lk", "Ok", "DL", "N", "N"]
    solver = Expectimax(18)
    out = []
    for _ in range(2000 * count):
        if len(out) == count:
            break
        cards = rng.sample(pool, 12)
        hand = [c for c in cards if card_codes.is_location(card_codes.INDEX[c])][:4]
        rest = list(cards)
        for c in hand:
            rest.remove(c)
        revealed, unknown = rest[:5], rest[5:8]
        if len(hand) < 4 or len(unknown) < 3 or "DL" not in revealed + unknown:
            continue
        text = complete(f"mode=solo phase=prophecy hand={','.join(hand)} row=- {SEVEN} "
                        f"deck={','.join(revealed)},*", unknown)
        state = parse_position(text)
        picks = solver.stats[kernel.ST_PHASE + kernel.PICK]
        iv = solver.value(state)
        if 0 < iv.lo < 1 and solver.stats[kernel.ST_PHASE + kernel.PICK] > picks:
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


def test_sms_range_matches_enumeration():
    """sms_range(n, n_s, n_m) is exactly the set of feasible counts of Sun-Moon-Sun series."""
    for n in range(0, 4):
        for n_s in range(0, 10):
            for n_m in range(0, 10):
                want = [a for a in range(n + 1)
                        if n_s >= n + a and n_m >= 2 * n - a]
                lo, hi = kernel.sms_range(n, n_s, n_m)
                assert list(range(lo, hi + 1)) == want, (n, n_s, n_m)
                assert (lo <= hi) == _fit_brute(n, n_s, n_m), (n, n_s, n_m)


def _junk_brute(x, y, p):
    """The fewest separating plays over every order of x Sun-Moon-Sun and y Moon-Sun-Moon
    series after a row card of symbol p (0 Sun, 1 Moon, 2 none)."""
    best = None
    for order in set(itertools.permutations("S" * x + "M" * y)):
        prev = {0: "S", 1: "M", 2: None}[p]
        junk = 0
        for b in order:
            if b == prev:
                junk += 1
            prev = b
        best = junk if best is None else min(best, junk)
    return 0 if best is None else best


def test_min_junk_matches_enumeration():
    for n in range(0, 6):
        for p in range(3):
            want = {x: _junk_brute(x, n - x, p) for x in range(n + 1)}
            for lo in range(n + 1):
                for hi in range(lo, n + 1):
                    assert kernel.min_junk(lo, hi, n, p) == min(want[x] for x in range(lo, hi + 1)), \
                        (lo, hi, n, p)


def _words(state):
    """The canonical kernel words of an engine state (what the search would store)."""
    status, *w = kernel.canonical(*[np.int64(x) for x in encode(state)])
    return w


def test_bound_sees_two_moons_cannot_make_a_series():
    """`row ... Ls` with only `Lm, Lm` left: Ls-Lm-Lm repeats a symbol, and a new series
    needs three cards.  The bound says lost; the brute force agrees.  With `Ls, Lm` left
    instead it does not say lost (the series Ls, Lm, Ls can be made)."""
    lost = complete(f"mode=solo phase=play hand=Lm,Os,As,Gs,Om row=Ls {SEVEN} deck=*",
                    ["DL", "Lm", "Os"])
    state = parse_position(lost)
    assert not kernel.can_still_win(*_words(state))
    assert N.value(state, 100_000) == 0
    alive = complete(f"mode=solo phase=play hand=Lm,Os,As,Gs,Om row=Ls {SEVEN} deck=*",
                     ["DL", "Ls", "Os"])
    state = parse_position(alive)
    assert kernel.can_still_win(*_words(state))
    assert N.value(state, 100_000) > 0


SIX = "doors=DO,DO,DA,DG,DG,DL"     # DA and DL missing; complete() discards every Key


def test_two_moon_sun_moon_series_need_a_card_between():
    """Both missing Doors need a series (no Keys left), and the cards make each one only as
    Moon-Sun-Moon.  Back to back they would meet Moon to Moon, so a seventh play has to go
    between them, and there are six plays left (five Locations in the deck): lost.  With an
    Ls for an Lm, the Library series can be Sun-Moon-Sun, the two alternate, and six plays
    suffice.  The bound sees the difference only through the separating play; the exact
    search without the bound gives the values (0, and more than 0)."""
    row = "row=Gs,Gm,Gs"
    lost = complete(f"mode=solo phase=play hand=As,Am,Lm,Os,Gm {row} {SIX} deck=*",
                    ["Am", "Ls", "Lm", "Os", "Om", "DA", "DL"])
    alive = complete(f"mode=solo phase=play hand=As,Am,Ls,Os,Gm {row} {SIX} deck=*",
                     ["Am", "Ls", "Lm", "Os", "Om", "DA", "DL"])
    assert not kernel.can_still_win(*_words(parse_position(lost)))
    assert kernel._can_still_win(*_words(parse_position(lost)), False)   # not without step 6
    assert kernel.can_still_win(*_words(parse_position(alive)))
    exact = Expectimax(18, bound=False)
    assert exact.value(parse_position(lost)).hi == 0.0
    assert exact.value(parse_position(alive)).lo > 0.0


def test_one_moon_sun_moon_series_after_a_sun_needs_no_card_between():
    """The row ends in a Sun and one Library series Lm, Ls, Lm is needed, with exactly
    three plays left: it follows the Sun at once.  The bound must leave it open, and the
    search with the bound gives the same value as without."""
    text = complete(f"mode=solo phase=play hand=Lm,Ls,Os,As,Gs row=Gs,Gm,Gs {SEVEN} deck=*",
                    ["Lm", "Om", "DL"])
    assert kernel.can_still_win(*_words(parse_position(text)))
    want = Expectimax(18, bound=False).value(parse_position(text))
    assert want.exact and want.lo > 0.0
    assert Expectimax(18).value(parse_position(text)) == want


# One Nightmare position per kind of option where only that kind wins (7 Doors in play, DL
# missing; every card not listed is in the discard pile).
ONLY = {
    # the hand holds no Key; redrawing brings Lk into the hand, and DL is left on top
    "redraw": f"mode=solo phase=nightmare drawn=N hand=Os,Os,Os,Os row=- {SEVEN} "
              "deck=Gs,Gs,Gs,Gs,Lk,DL,Gs",
    # revealing sends DL to limbo (back after the turn) and keeps Lk in hand; the other
    # options discard Lk or a Door that cannot come back
    "reveal": f"mode=solo phase=nightmare drawn=N hand=Lk,Os,Os,Os row=- {SEVEN} "
              "deck=DL,Gs,Gs,Gs,Gs,Os",
    # discarding Ok keeps Lk for the DL on top; a Door to limbo leaves the hand at 4 with
    # an empty deck after DL
    "key": f"mode=solo phase=nightmare drawn=N hand=Ok,Lk,Os,Os row=- {SEVEN} deck=DL",
    # DG to limbo comes back by the Garden series Gs, Gm, Gs
    "door": f"mode=solo phase=nightmare drawn=N hand=Lk,Gs,Gm,Os row=- {SEVEN} "
            "deck=DL,Gs,Gs,Gs,Gs",
}


@pytest.mark.parametrize("kind", sorted(ONLY))
def test_nightmare_look_ahead_keeps_every_kind_of_option(kind):
    """The bound at a Nightmare is the bound of its options: in each position only one
    kind of option wins (the search without the bound says so), and the bound must not
    call the position lost."""
    state = parse_position(complete(ONLY[kind]))
    ranking = Expectimax(16, bound=False).rank(state)
    winners = {a.action.split()[1] for a in ranking.actions if a.value > 0}
    assert winners == {kind}, [(a.action, a.value) for a in ranking.actions]
    assert kernel.can_still_win(*_words(state))
    assert Expectimax(16).value(state).lo == ranking.actions[0].value == 1.0


@nb.njit(cache=True)
def _bound_verdicts(keys, vals):
    """Over the exact memo entries: [entries, said lost, said lost with a value above 0,
    lost only by the look-ahead at a Nightmare, lost in phase reveal, lost only by the
    plays that separate series]."""
    out = np.zeros(6, np.int64)
    for i in range(keys.shape[0]):
        if keys[i, 0] == -1 or vals[i, 5] != vals[i, 6]:
            continue
        w0, w1, w2, w3 = keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3]
        out[0] += 1
        if kernel.can_still_win(w0, w1, w2, w3):
            continue
        out[1] += 1
        if vals[i, 6] != 0.0:
            out[2] += 1
        ph = kernel.phase_get(w1)
        if ph == kernel.NIGHTMARE and kernel._can_still_win(w0, w1, w2, w3):
            out[3] += 1
        elif ph == kernel.REVEAL:
            out[4] += 1
        elif kernel._can_still_win(w0, w1, w2, w3, False):
            out[5] += 1
    return out


def test_bound_is_sound_on_every_searched_position():
    """Solve positions exactly with the bound off, then check the bound on every exact
    position the search stored: wherever it says 'lost' the value is 0.  The sample must
    exercise each part of the bound added with the symbol rule: the look-ahead over a
    Nightmare's options, the Locations a reveal must take, and the separating plays."""
    total = np.zeros(6, np.int64)
    for n, seed in ((8, 177), (8, 208), (9, 149)):
        solver = Expectimax(21, bound=False)
        assert solver.value(late_position(seed, n)).exact
        total += _bound_verdicts(solver.keys, solver.vals)
    entries, lost, wrong, by_nightmare, by_reveal, by_symbols = (int(x) for x in total)
    assert wrong == 0
    assert lost >= 100_000 and by_nightmare >= 100 and by_reveal >= 1000 and \
        by_symbols >= 100, total


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
        iv = solver.value(state, budget_nodes=rng.choice((1, 3, 10, 40)))
        assert iv.lo - 1e-12 <= want <= iv.hi + 1e-12, (text, iv, want)


def test_deadline_stops_with_sound_bounds():
    ref = Expectimax(20)
    for seed in range(200):            # a position that needs a few clock periods
        s = late_position(seed, 12)
        if s is None:
            continue
        ref.clear()
        exact = ref.value(s)
        if ref.nodes > 3 * kernel.CLOCK_EVERY:
            break
    assert exact.exact and ref.nodes > 3 * kernel.CLOCK_EVERY
    solver = Expectimax(20)
    iv = solver.value(s, budget_s=1e-6)     # the clock is read every CLOCK_EVERY nodes
    assert solver.timed_out
    assert iv.lo - 1e-12 <= exact.lo <= iv.hi + 1e-12
    assert solver.nodes <= 2 * kernel.CLOCK_EVERY
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
