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


def late_position(seed: int, deck_cards: int):
    """A position (engine State, chance mode) with at most ``deck_cards`` unknown cards in
    the deck, or None if the game ended or lost a Door first."""
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
        if s.phase == "play" and s.deck_size() <= deck_cards and not s.deck:
            doors_left = sum(s.unknown[12:16]) + len(s.doors[0])
            return s if doors_left == 8 else None
        s.apply_action(_policy(s, rng))
    return None


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
        s = late_position(seed, deck_cards)
        seed += 1
        if s is not None and s.deck_size() == deck_cards and open_at_root(s):
            out.append((seed - 1, s))
    return out
