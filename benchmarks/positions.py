"""The benchmark positions: late-game solo positions reached by playing a chance-mode game (no
seed) with a fixed greedy policy and seeded random draws, stopped at the first phase ``play``
whose deck holds at most ``n`` cards, all unknown.  Only positions where all 8 Doors are still
in the game are kept (otherwise the value is 0 without search).

``late_position(seed, n)`` is what every expectimax benchmark (``bench_expectimax``,
``bench_probes``, ``bench_certify``, ``bench_strategy_graph``, ``census_decisions``), the
shared harness (``benchmarks.harness``) and many tests use.
"""
from __future__ import annotations

import random

from engine import Game
from engine import cards


def _policy(state, rng):
    """A simple greedy player: keys for Doors, plays that extend a series, never discards a
    Door in a prophecy."""
    acts = state.legal_actions()
    names = {a: state.action_to_string(a) for a in acts}
    ph = state.phase
    if ph == "door":
        return next(a for a in acts if names[a] == "door key")
    if ph == "nightmare":
        for pref in ("nightmare key", "nightmare reveal", "nightmare redraw"):
            for a in acts:
                if names[a].startswith(pref):
                    return a
    if ph == "prophecy":
        ok = [a for a in acts if "discard=D" not in names[a]]
        return rng.choice(ok or acts)
    row = state.rows[0]
    last = row[-1] if row else None
    plays = [a for a in acts if names[a].startswith("play")]
    if last is not None:
        same = [a for a in plays if cards.colour(cards.INDEX[names[a].split()[1]]) == cards.colour(last)]
        if same:
            return rng.choice(same)
    nonkey = [a for a in acts if names[a].startswith("discard")
              and not cards.is_key(cards.INDEX[names[a].split()[1]])]
    if plays and rng.random() < 0.6:
        return rng.choice(plays)
    return rng.choice(nonkey or acts)


def _play(seed: int, stop):
    """The benchmark game of ``seed`` (chance mode, draws from ``random.Random(seed)``), played
    until ``stop(state)`` says so at a decision; returns that state, or None if the game ended
    first.  ``stop`` draws nothing, so every stop rule sees the same game."""
    rng = random.Random(seed)
    s = Game(1).new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            r = rng.random()
            acc = 0.0
            pick = outs[-1][0]
            for a, p in outs:
                acc += p
                if r < acc:
                    pick = a
                    break
            s.apply_action(pick)
            continue
        if stop(s):
            return s
        s.apply_action(_policy(s, rng))
    return None


def _at(state, deck_cards: int) -> bool:
    """The stop rule of ``late_position(seed, deck_cards)``."""
    return state.phase == "play" and state.deck_size() <= deck_cards and not state.deck


def _all_doors(state) -> bool:
    """Whether all 8 Doors are still in the game (in play or in the deck)."""
    return sum(state.unknown[12:16]) + len(state.doors[0]) == 8


def late_position(seed: int, deck_cards: int):
    """A position (engine State, chance mode) with at most ``deck_cards`` unknown cards in
    the deck, or None if the game ended or lost a Door first."""
    s = _play(seed, lambda st: _at(st, deck_cards))
    return s if s is not None and _all_doors(s) else None


# What late_position(seed, n) gives, for every n at once: one game per seed.  The stop rule
# draws nothing, so the game of a seed is the same whatever n, and late_position(seed, n) is
# its first decision that satisfies _at(., n).  Walking that game once, the first decision
# with deck size d in phase play and no known deck order is the answer for every n >= d not
# answered yet.  Stored per seed as bytes: the answer's deck size, or NONE.
_SIZES: dict[int, bytes] = {}
NONE = 255


def late_sizes(seed: int) -> bytes:
    """``late_sizes(seed)[n]`` (n = 0..76) is the deck size of ``late_position(seed, n)``, or
    ``NONE`` where that is None; one game played per seed and process (a lookup afterwards)."""
    got = _SIZES.get(seed)
    if got is None:
        sizes = bytearray([NONE] * 77)
        todo = 76            # the largest n not answered yet (answers go from large n down)

        def stop(st) -> bool:
            nonlocal todo
            if st.phase != "play" or st.deck:
                return False
            d = st.deck_size()
            if d <= todo:
                value = d if _all_doors(st) else NONE
                for n in range(d, todo + 1):
                    sizes[n] = value
                todo = d - 1
            return todo < 0
        _play(seed, stop)
        got = _SIZES[seed] = bytes(sizes)
    return got


def open_at_root(state) -> bool:
    """False if the kernel's sound bound already shows the position lost (no search)."""
    import numpy as np

    from solver.expectimax import kernel
    from solver.expectimax.encode import encode
    w = [np.int64(x) for x in encode(state)]
    status, *w = kernel.advance_words(*w)
    return bool(kernel.can_still_win(*w))


def positions(deck_cards: int, count: int, seed0: int = 0):
    """The first ``count`` positions (seed, state) with exactly ``deck_cards`` unknown cards
    that the bound does not settle at the root, from seeds seed0, seed0+1, ..."""
    out = []
    seed = seed0
    while len(out) < count and seed < seed0 + 20000:
        # late_sizes skips the seeds whose position is None or of another size unplayed
        if late_sizes(seed)[deck_cards] == deck_cards:
            s = late_position(seed, deck_cards)
            if open_at_root(s):
                out.append((seed, s))
        seed += 1
    return out
