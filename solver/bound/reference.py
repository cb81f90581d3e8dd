"""The penalised inner problem, in plain Python over ``engine/`` (``docs/BOUND.md``, sections
3 and 5).  The readable reference that a fast solver is checked against; small positions only.

A *node* is what the relaxed player is at on one deal: the player's view (a chance-mode engine
``State``: :mod:`engine.view`), the cards still below its known top in their real order
(``hidden``, top first), and the number of shuffles since the position (``k``).  Given the
deal, a node's future is fixed by the actions alone.

Transitions are the engine's chance-mode steps on the view (``State.apply_action_logged``):

* at a decision, the action is applied to the view; if it takes a Door from the unknown part
  of the deck (a completed series), that card leaves ``hidden`` too (its place does not
  matter: a shuffle follows at once unless the game is won);
* at a chance node the next card is ``hidden[0]``: ``DRAW + hidden[0]`` is applied to the
  view.  The engine rests at a chance node only when the next card is unknown (cards a
  prophecy showed are drawn without one), so every chance node is a draw of one unknown card:
  one chance event (``docs/BOUND.md`` section 3 for why one card at a time is the same as one
  event per turn);
* after either, if the engine shuffled (its log says ``shuffle``; in chance mode it then rests
  with every deck card unknown), ``hidden`` becomes the deal's order for shuffle ``k`` of
  those cards, and ``k`` grows by one.

The penalty of a chance node whose view is ``I`` and whose card is ``c``::

    z = W(I'_c) - sum over card types t of p_t W(I'_t)

where ``I'_t`` is the view after drawing ``t`` (``DRAW + t`` applied to a copy of ``I``) and
``p_t`` the engine's chance probability (the unknown count of ``t`` over the unknown total).
``W`` sees views only.  The inner value of a node is ``1[won]`` at the end, the maximum of
its children at a decision, and ``-z`` plus its child's value at a chance node; memoised by
node.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

from engine.actions import DRAW
from engine.game import State

from .deal import Deal, check_deal


@dataclass(frozen=True)
class Node:
    view: State
    hidden: tuple
    k: int

    def key(self):
        return (self.view._key(), self.hidden, self.k)


def _after(node: Node, action: int, deal: Deal) -> Node:
    """The node after ``action`` (a decision, or ``DRAW + hidden[0]`` at a chance node)."""
    v = node.view.clone()
    hidden = list(node.hidden)
    if v.is_chance_node():
        if action != DRAW + hidden[0]:
            raise ValueError("a chance node draws the deal's next card")
        hidden.pop(0)
    log = v.apply_action_logged(action)
    k = node.k
    for event, card in log:
        if event == "series-door" and card not in node.view.deck:
            hidden.remove(card)           # taken from the unknown part (a shuffle follows)
        if event == "shuffle":
            assert not v.deck and log[-1][0] == "shuffle"
            hidden = list(deal.shuffles.order(k, v.unknown))
            k += 1
    return Node(v, tuple(hidden), k)


def root(view: State, deal: Deal) -> Node:
    check_deal(view, deal)
    if view.players != 1:
        raise ValueError("the bound is for solo positions")
    return Node(view.clone(), tuple(deal.order), 0)


def chance_children(view: State) -> list[tuple[int, float, State]]:
    """``(card, p, I')`` for every card type the next unknown draw may give."""
    out = []
    for a, p in view.chance_outcomes():
        child = view.clone()
        child.apply_action(a)
        out.append((a - DRAW, p, child))
    return out


def penalty(view: State, card: int, W) -> float:
    """``z = W(I'_card) - E[W(I')]`` at the chance node ``view``."""
    kids = chance_children(view)
    mean = sum(p * W(child) for _, p, child in kids)
    got = next(child for t, _, child in kids if t == card)
    return W(got) - mean


@dataclass
class InnerResult:
    value: float              # max over action sequences of 1[win] - sum z
    won: bool                 # whether the maximising line wins
    penalty: float            # sum z along the maximising line
    actions: list = field(default_factory=list)   # the line: decisions and draws
    nodes: int = 0            # distinct nodes solved (the memo's size)
    chance_nodes: int = 0


class InnerSolver:
    """The maximum over action sequences of ``1[win] - sum z`` on one deal.

    ``W`` is a function of the view (a chance-mode ``State``, never changed by ``W``).
    Ties between actions go to the first in ``legal_actions()`` order."""

    def __init__(self, W):
        self.W = W

    def solve(self, view: State, deal: Deal) -> InnerResult:
        self.deal = deal
        self.memo: dict = {}
        self.chance = 0
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            start = root(view, deal)
            value = self._value(start)
            line, won, pen = self._line(start)
        finally:
            sys.setrecursionlimit(old)
        return InnerResult(value, won, pen, line, len(self.memo), self.chance)

    def _value(self, node: Node) -> float:
        key = node.key()
        got = self.memo.get(key)
        if got is not None:
            return got[0]
        v = node.view
        if v.is_terminal():
            out = (1.0 if v.won() else 0.0, None, 0.0)
        elif v.is_chance_node():
            self.chance += 1
            card = node.hidden[0]
            z = penalty(v, card, self.W)
            child = _after(node, DRAW + card, self.deal)
            out = (self._value(child) - z, DRAW + card, z)
        else:
            best = None
            for a in v.legal_actions():
                val = self._value(_after(node, a, self.deal))
                if best is None or val > best[0]:
                    best = (val, a, 0.0)
            out = best
        self.memo[key] = out
        return out[0]

    def _line(self, node: Node):
        actions = []
        pen = 0.0
        while not node.view.is_terminal():
            _, a, z = self.memo[node.key()]
            pen += z
            actions.append(a)
            node = _after(node, a, self.deal)
        return actions, node.view.won(), pen


def inner_value(view: State, deal: Deal, W) -> float:
    """``max over action sequences of 1[win] - sum z`` on ``deal`` of ``view``."""
    return InnerSolver(W).solve(view, deal).value


@dataclass
class PolicyRun:
    won: bool
    penalty: float            # sum z along the policy's game
    penalties: list           # each chance node's z, in order
    views: list               # the view at each decision, in order


def policy_penalties(view: State, deal: Deal, W, policy) -> PolicyRun:
    """Play ``deal`` of ``view`` with ``policy`` (a function of the view alone, returning a
    legal action) and collect the penalty of each draw.  An honest policy's penalties have
    mean zero over the deals (``docs/BOUND.md`` section 4)."""
    node = root(view, deal)
    zs = []
    views = []
    while not node.view.is_terminal():
        v = node.view
        if v.is_chance_node():
            card = node.hidden[0]
            zs.append(penalty(v, card, W))
            node = _after(node, DRAW + card, deal)
        else:
            seen = v.clone()
            views.append(seen)
            node = _after(node, policy(seen), deal)
    return PolicyRun(node.view.won(), sum(zs), zs, views)


def replay_in_deal_mode(deal_state: State, actions) -> State:
    """Replay the decisions of a line of the inner solver in the deal-mode engine (which
    draws by itself, so the draws are skipped).  Returns the final deal-mode state."""
    s = deal_state.clone()
    for a in actions:
        if a >= DRAW:
            continue
        s.apply_action(a)
    return s
