"""``duo-open-switch``: the open game's end-game switch (issue 47, item 3).

In the open game (``--talk open``, docs/DUO.md) a player's view knows both hands, the shared
cards and the board; only the deck's order is unknown (the cards of its own prophecy aside).
That is exactly the position the open-hands expectimax ranks (:class:`solver.duo.open_search.
OpenSearch`, docs/DUO_EXPECTIMAX.md): its value is the team's winning chance with both hands
known and the deck order unknown, the exact honest value of the open game.

At a decision whose view has at most ``unknown`` deck cards of unknown order, this policy ranks
every legal action with that search under a node budget (``budget_nodes``) and plays

* the proven best action (its ``lo`` at least every other action's ``hi``; on an exact tie,
  the base's action if it is among the tied, else the smallest id), else
* by the bounds (``fallback``): ``bounds`` plays the base's action if the bounds do not prove
  it worse than another (``solver.policies.endgame.not_proven_worse``), else the action with
  the largest bound midpoint among those not proven worse (ties: smallest id); ``base`` plays
  the base policy's action.  (A midpoint alone is a poor guide: an action the budget left
  unsearched keeps [0, 1], midpoint 0.5.)

With a larger deck it plays the base policy (``duo-krollout`` by default, with its own
arguments: ``base=duo-krollout:n=512``).

Determinism.  The memo of the search is cleared before every ranking and has a fixed size, and
only a node budget stops a search: a ranking is a pure function of the view, so the action is
the same for the same view and stream (the base is deterministic given both).

What it reads.  Only the view.  On a silent view (``hidden`` > 0: some partner cards unknown)
the open-hands position does not exist; the policy raises PolicyError there rather than search
a position it cannot know (``skip_silent=True`` plays the base instead).
"""
from __future__ import annotations

from engine.view import is_duo_view

from solver.errors import PolicyError
from solver.policies.endgame import (not_proven_worse, parse_base, proven_best_actions,
                                     table_bits_for)
from solver.registry import Param, PolicyBase, build_policy, check_range, register_policy

# Defaults chosen by measurement (docs/DUO_BASES.md, "A window within 20 ms, on two seeds"):
# over the cut rollout on plus2 (then OPEN_BASE) on deals 0-1999, the window of 9 unknown
# deck cards under 300,000 nodes won 86.55% and 85.10% with policy seeds 1 and 2 (15.5 and
# 15.3 ms of CPU per decision), the 8-card window under 100,000 nodes 86.00% and 84.50% (9.7
# and 9.8 ms); paired, +0.55 and +0.60 points (standard errors 0.23 and 0.21).  The 8-card
# window itself was chosen earlier against duo-krollout on deals 0-599 (69.00% against 66.17%).
DEFAULT_UNKNOWN = 9
DEFAULT_NODES = 300_000
# the policy `onirim winrate --mode honest --players 2 --talk open` plays when none is named,
# and its base (written in solver/duo/rollout.py, where the two-player defaults live)
from solver.duo.rollout import DEFAULT_OPEN_POLICY, OPEN_BASE as DEFAULT_BASE  # noqa: E402
FALLBACKS = ("bounds", "base")


def deck_unknown(view) -> int:
    """The deck cards of ``view`` whose order the viewer does not know (an open view: every
    unknown card is in the deck)."""
    return sum(view.unknown) - view.hidden


@register_policy(
    "duo-open-switch",
    params=[
        Param("base", str, DEFAULT_BASE, "the two-player policy played outside the end game, "
                                         "with its own arguments: NAME or NAME:k=v,k=v"),
        Param("unknown", int, DEFAULT_UNKNOWN, "switch to the open-hands search at most this "
                                               "many unknown deck cards"),
        Param("budget_nodes", int, DEFAULT_NODES, "node budget of one ranking "
                                                  "(deterministic)"),
        Param("fallback", str, "bounds", "when nothing is proven: 'bounds' plays the largest "
                                         "bound midpoint among the actions not proven worse, "
                                         "'base' the base's action"),
        Param("skip_silent", bool, False, "on a silent view (partner cards unknown) play the "
                                          "base instead of refusing"),
    ],
    doc="open game (--talk open): duo-krollout, but the open-hands expectimax's best move "
        "once the deck is small")
class DuoOpenSwitch(PolicyBase):
    players = (2,)
    family = "duo-honest"

    def __init__(self, base=DEFAULT_BASE, unknown=DEFAULT_UNKNOWN, budget_nodes=DEFAULT_NODES,
                 fallback="bounds", skip_silent=False):
        from solver.duo.open_search import OpenSearch      # numba: imported only when used
        check_range("unknown", unknown, 0, 60)
        check_range("budget_nodes", budget_nodes, 1, 1 << 40)
        if fallback not in FALLBACKS:
            raise PolicyError(f"policy argument fallback: {fallback!r} is not one of "
                              f"{', '.join(FALLBACKS)}")
        name, args = parse_base(base)
        if name == "duo-open-switch":
            raise PolicyError("policy argument base: 'duo-open-switch' cannot be its own base")
        self.base = build_policy(name, **args)
        self.unknown, self.budget_nodes = unknown, budget_nodes
        self.fallback, self.skip_silent = fallback, bool(skip_silent)
        self.solver = OpenSearch(table_bits=table_bits_for(budget_nodes))
        self.last = None            # how the last act() chose: forced, base, exact, bounds
        self.nodes = 0              # the nodes of the last search()
        self.counts: dict[str, int] = {}

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError("duo-open-switch plays two-player games only (--players 2)")

    def warm_up(self) -> None:
        from solver.duo.open_search import warm_up
        warm_up()
        self.base.warm_up()

    def search(self, view):
        """The open-hands ranking of ``view`` under the node budget, on a cleared memo."""
        self.solver.clear()
        ranking = self.solver.rank(view, budget_nodes=self.budget_nodes,
                                   first_round=max(1000, self.budget_nodes // 8))
        self.nodes = ranking.nodes
        return ranking

    def act(self, view, stream: int) -> int:
        action, how = self.decide(view, stream)
        self.last = how
        self.counts[how] = self.counts.get(how, 0) + 1
        return action

    def in_domain(self, view) -> bool:
        """Whether the end-game search decides at ``view``: an open view (no partner card
        hidden) with at most ``unknown`` deck cards of unknown order."""
        return not view.hidden and deck_unknown(view) <= self.unknown

    def decide(self, view, stream: int, base_action: int | None = None) -> tuple[int, str]:
        """(action, how): how is forced, base, silent (a silent view, skip_silent), exact
        (proven best) or bounds / base-open (nothing proven).  ``base_action``: the base's
        action if already known (``onirim best`` passes its leader's search's), else the
        base decides at ``stream`` when the rule needs it."""
        def base_act() -> int:
            return self.base.act(view, stream) if base_action is None else base_action

        if getattr(view, "players", 1) != 2 or not is_duo_view(view):
            raise PolicyError("duo-open-switch decides from a two-player player's view")
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0], "forced"
        if view.hidden:
            if not self.skip_silent:
                raise PolicyError("duo-open-switch: this view hides partner cards (the silent "
                                  "game); it plays the open game (--talk open)")
            return base_act(), "silent"
        if deck_unknown(view) > self.unknown:
            return base_act(), "base"
        ranking = self.search(view)
        best = proven_best_actions(ranking.actions)
        if best:
            if len(best) == 1:
                return best[0].action_id, "exact"
            ids = {a.action_id for a in best}
            b = base_act()
            return (b if b in ids else min(ids)), "exact"
        if self.fallback == "base":
            return base_act(), "base-open"
        keep = not_proven_worse(ranking.actions)
        b = base_act()
        if b in {a.action_id for a in keep}:
            return b, "bounds"
        top = max(a.lo + a.hi for a in keep)
        return min(a.action_id for a in keep if a.lo + a.hi >= top - 1e-12), "bounds"
