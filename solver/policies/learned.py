"""The ``learned-base`` policy: greedy-keep-doors, with its play-phase decision made by a
linear scorer over features of the view whose weights were learned (docs/POLICIES.md, "A
learned base policy"; ``python -m benchmarks.learn_base`` writes them).

:func:`features` and :func:`learned_base_action` are the readable rule on the engine's view;
the policy plays the kernel's copy (:mod:`solver.honest.learned`, base ``learned-base`` of
``solver.honest.greedy.BASES``, so every rollout can play it as its base:
``--policy-arg base=learned-base``), which tests/solver/honest/test_learned.py checks against
this one at every decision of real games.
"""
from __future__ import annotations

from engine import cards
from engine import game
from engine.policy import keep_doors_action
from engine.rules import DOORS_PER_COLOUR, NUM_LOCATION_TYPES, SERIES_LENGTH

from solver.policies.keep_doors import KernelBasePolicy
from solver.registry import register_policy


def _colour_facts(view, col):
    """(need, useless, cnt) of colour ``col``: it needs a Door; it needs none or none of its
    Doors is obtainable (all in play or discarded); its cards in hand."""
    door = cards.door_of(col)
    in_play = view.doors[0].count(door)
    need = in_play < DOORS_PER_COLOUR
    obtainable = DOORS_PER_COLOUR - in_play - view.discard.count(door)
    useless = (not need) or obtainable <= 0
    cnt = sum(1 for x in view.hands[0] if cards.colour(x) == col)
    return need, useless, cnt


def features(view, action: int, kd: int) -> list[int]:
    """The features (``solver.honest.learned.FEATURES``, in order) of the play-phase
    ``action`` (play or discard a Location) at ``view``; ``kd`` is greedy-keep-doors'
    action there."""
    from solver.honest.learned import LATE_DECK, NF
    play = action < game.DISCARD
    c = action - (game.PLAY if play else game.DISCARD)
    col, sym = cards.colour(c), cards.symbol(c)
    need, useless, cnt = _colour_facts(view, col)
    row = view.rows[0]
    s_col, s_len, s_need = -1, 0, False
    if row and game.series_length(row) < SERIES_LENGTH:
        s_col, s_len = cards.colour(row[-1]), game.series_length(row)
        s_need = _colour_facts(view, s_col)[0]
    late = view.deck_size() < LATE_DECK
    f = [0] * NF
    f[0] = int(action == kd)
    if play:
        cont = s_len > 0 and col == s_col and need
        f[1:11] = [1, int(cont), int(cont and s_len == 2), int(s_need and col != s_col),
                   int(need), (cnt - 1) * int(need), int(sym == cards.KEY), int(sym == cards.MOON),
                   int(useless), int(late)]
    else:
        remain = view.unknown[c] + view.deck.count(c)
        f[11:20] = [int(sym == cards.KEY), int(sym == cards.KEY and useless), int(need),
                    int(s_len > 0 and col == s_col and need), cnt, int(sym == cards.SUN),
                    int(useless), int(sym == cards.KEY and late), remain]
    return f


def learned_base_action(view, weights=None) -> int:
    """learned-base at a solo decision state: greedy-keep-doors, except in the play phase,
    where the legal action of the highest score sum(w * f) is played (ties: the first in the
    order plays by card, then discards by card)."""
    from solver.honest.learned_weights import WEIGHTS
    w = WEIGHTS if weights is None else weights
    kd = keep_doors_action(view)
    if view.phase != "play":
        return kd
    hand = set(view.hands[0])
    row = view.rows[0]
    last = row[-1] if row else None
    acts = [game.PLAY + c for c in range(NUM_LOCATION_TYPES)
            if c in hand and (last is None or cards.symbol(last) != cards.symbol(c))]
    acts += [game.DISCARD + c for c in range(NUM_LOCATION_TYPES) if c in hand]
    return best_scored(view, acts, w, features, kd)


def score(view, action: int, kd: int, w, feats=features) -> int:
    """The linear score sum(w_i f_i) of ``action`` over ``feats(view, action, kd)``."""
    return sum(wi * fi for wi, fi in zip(w, feats(view, action, kd)))


def best_scored(view, acts, w, feats, kd):
    """The first of ``acts`` with the highest score sum(w_i f_i) over ``feats(view, a, kd)``
    (the legal order breaks ties, as in the kernels); ``kd`` if ``acts`` is empty."""
    best, best_s = kd, None
    for a in acts:
        s = score(view, a, kd, w, feats)
        if best_s is None or s > best_s:
            best, best_s = a, s
    return best



@register_policy("learned-base",
                 doc="greedy-keep-doors with a learned linear scorer of the play-phase "
                     "actions (benchmarks/learn_base.py)")
class LearnedBase(KernelBasePolicy):
    kernel_base = "learned-base"
