"""The ``learned-base-2`` policy: ``learned-base``'s play-phase scorer with weights of its own,
and learned linear scorers of the prophecy and of the Nightmare decisions too; greedy-keep-doors
in the Door phase (docs/POLICIES.md, "A second learned base: the other phases";
``python -m benchmarks.learn_base --base 2`` writes the weights).

:func:`prophecy_features`, :func:`nightmare_features` and :func:`learned2_action` are the
readable rule on the engine's view; the policy plays the kernel's copy
(:mod:`solver.honest.learned2`, base ``learned-base-2`` of ``solver.honest.greedy.BASES``, so
every rollout can play it as its base: ``--policy-arg base=learned-base-2``), which
tests/solver/honest/test_learned2.py checks against this one at every decision of real games.
"""
from __future__ import annotations

from engine import cards
from engine import game
from engine.policy import keep_doors_action
from engine.rules import DOORS_PER_COLOUR, NUM_LOCATION_TYPES, SERIES_LENGTH

from solver.policies.keep_doors import KernelBasePolicy
from solver.policies.learned import _colour_facts, best_scored, learned_base_action
from solver.registry import register_policy

KEPT_MAX = 4       # position weights: the kept card at depth q counts KEPT_MAX - q times
CNT_CAP = 3


def _obtainable(view, col) -> int:
    door = cards.door_of(col)
    return max(0, DOORS_PER_COLOUR - view.doors[0].count(door) - view.discard.count(door))


def _open(view):
    """(s_col, lsym): the colour of the open series of a needed colour (-1: none) and the last
    card's symbol (-1: an empty row)."""
    row = view.rows[0]
    if not row:
        return -1, -1
    s_col = -1
    if game.series_length(row) < SERIES_LENGTH and _colour_facts(view, cards.colour(row[-1]))[0]:
        s_col = cards.colour(row[-1])
    return s_col, cards.symbol(row[-1])


def _kept(view, c, s_col, lsym) -> list[int]:
    """The ``v_*`` features of a kept card ``c`` (solver.honest.learned2.PROPHECY_FEATURES)."""
    f = [0] * 9
    if c == cards.NIGHTMARE:
        f[0] = 1
    elif cards.is_door(c):
        f[1 if cards.key_of(cards.colour(c)) in view.hands[0] else 2] = 1
    else:
        col, sym = cards.colour(c), cards.symbol(c)
        need, useless, cnt = _colour_facts(view, col)
        f[3:9] = [int(col == s_col and sym != lsym), int(need), min(cnt, CNT_CAP) * int(need),
                  int(sym == cards.KEY and not useless), int(useless), int(sym == cards.MOON)]
    return f


def _victim(view, c, s_col) -> list[int]:
    """The ``x_*`` features of the discarded card ``c``."""
    f = [0] * 7
    if c == cards.NIGHTMARE:
        f[0] = 1
    elif cards.is_door(c):
        f[1] = 1
    else:
        col, sym = cards.colour(c), cards.symbol(c)
        need, useless, cnt = _colour_facts(view, col)
        f[2:7] = [int(sym == cards.KEY), int(useless), min(cnt, CNT_CAP) * int(need),
                  int(col == s_col), int(sym == cards.SUN)]
    return f


def prophecy_features(view, action: int, kd: int) -> list[int]:
    """The features (``solver.honest.learned2.PROPHECY_FEATURES``) of the prophecy ``action``
    at ``view``; ``kd`` is greedy-keep-doors' action there."""
    s_col, lsym = _open(view)
    k = min(len(view.deck), view.deck_size(), 5)
    revealed = view.deck[:k]
    i, order = game.prophecy_split(k, action)
    kept = [revealed[j] for j in order]
    v = [0] * 9
    for q, c in enumerate(kept):
        v = [a + (KEPT_MAX - q) * b for a, b in zip(v, _kept(view, c, s_col, lsym))]
    return [int(action == kd)] + v + _victim(view, revealed[i], s_col)


def nightmare_features(view, action: int, kd: int) -> list[int]:
    """The features (``solver.honest.learned2.NIGHTMARE_FEATURES``) of the Nightmare
    ``action`` at ``view``."""
    from solver.honest.learned import LATE_DECK
    s_col, lsym = _open(view)
    size = view.deck_size()
    late = int(size < LATE_DECK)
    hand = view.hands[0]
    f = [0] * 19
    f[0] = int(action == kd)
    if game.NM_KEY <= action < game.NM_DOOR:
        col = action - game.NM_KEY
        need, useless, cnt = _colour_facts(view, col)
        f[1:6] = [1, int(useless), (cnt - 1) * int(need), int(col == s_col),
                  _obtainable(view, col)]
    elif game.NM_DOOR <= action < game.NM_REVEAL:
        col = action - game.NM_DOOR
        f[6:10] = [1, int(view.doors[0].count(cards.door_of(col)) >= DOORS_PER_COLOUR),
                   int(cards.key_of(col) in hand), late]
    elif action == game.NM_REVEAL:
        f[10:13] = [1, size // 8, late]
    else:
        live = [c for c in hand if not _colour_facts(view, cards.colour(c))[1]]
        f[13:19] = [1, len(live), sum(1 for c in live if cards.symbol(c) == cards.KEY), size // 8,
                    int(any(cards.colour(c) == s_col and cards.symbol(c) != lsym for c in hand)),
                    late]
    return f


def learned2_action(view, play=None, other=None) -> int:
    """learned-base-2 at a solo decision state: in the play phase learned-base's scorer with
    the weights ``play``; in the prophecy and the Nightmare the legal action of the highest
    score sum(w * f) (``other``; ties: the first legal action); elsewhere greedy-keep-doors."""
    from solver.honest.learned2 import NPF
    from solver.honest.learned2_weights import OTHER, PLAY
    wp = PLAY if play is None else play
    wo = OTHER if other is None else other
    if view.phase == "play":
        return learned_base_action(view, weights=wp)
    kd = keep_doors_action(view)
    if view.phase == "prophecy":
        feats, w = prophecy_features, wo[:NPF]
    elif view.phase == "nightmare":
        feats, w = nightmare_features, wo[NPF:]
    else:
        return kd
    return best_scored(view, view.legal_actions(), w, feats, kd)


@register_policy("learned-base-2",
                 doc="learned-base with learned scorers of the prophecy and the Nightmare "
                     "too (benchmarks/learn_base.py --base 2)")
class LearnedBase2(KernelBasePolicy):
    kernel_base = "learned-base-2"
