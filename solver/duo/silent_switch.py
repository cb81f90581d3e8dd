"""``duo-silent-switch``: an end-game rule for the silent game (issue 47, item 4).  A heuristic.

In the silent game (``--talk none``, docs/DUO.md, "What a player may know") the view knows the
player's own cards, the partner cards it saw the partner take, the shared cards and the board;
the partner's other cards and the deck are one unknown multiset.  Late in a deal few partner
hands are still possible: :func:`solver.duo.view_rank.partner_hands` lists them with their
probabilities (the unknown cards dealt uniformly, as the rollouts deal them).  For one such
hand ``k`` the position is an open-hands position, which the open-hands expectimax ranks
(:class:`solver.duo.open_search.OpenSearch`, docs/DUO_EXPECTIMAX.md): ``OH_k(a)``, the team's
winning chance after action ``a`` with both hands known and the deck order unknown.

At a decision whose view has at most ``unknown`` deck cards of unknown order and at most
``worlds`` possible partner hands, this policy scores every legal action ``a`` by

    score(a) = sum_k P(k) * OH_k(a)

(each hand searched under ``budget_nodes`` nodes, the memo cleared once per decision and the
hands taken in a fixed order; ``OH_k(a)`` is the exact value where the search finishes, else,
with ``fallback=mid``, the midpoint of its bounds; with ``fallback=base`` a hand left
unfinished sends the decision to the base) and plays the largest score (ties within 1e-12:
the base's action if among them, else the smallest id), unless it is no more than ``margin``
above the score of the base's action, which is then played.  Elsewhere it plays the base
(``duo-krollout2`` with its defaults, n=192: the silent game's default when the rule was
measured; the default now, ``DEFAULT_DUO_POLICY``, is ``duo-kcut``, and ``base=duo-kcut`` plays
the rule over it).
With ``prune`` (the default) the hands' loop stops once that decision is known (an unfinished
hand under ``fallback=base``, or the base's action settled: :meth:`DuoSilentSwitch.scores`),
the same decisions for less CPU.

**A heuristic, not the silent game's value.**  ``OH_k`` is the value of a team in which both
players will, from then on, know each other's hand.  The silent player will not: after this
decision neither it nor its partner learns the hand ``k``, so a strategy that plays
differently in each world is not available to them (strategy fusion).  Each ``OH_k(a)`` is
therefore an upper bound on the honest value of ``a`` in world ``k``
(docs/DUO_EXPECTIMAX.md, section 1), and ``score(a)`` is the sound upper bound of mode
``duo-view`` (:mod:`solver.duo.view_rank`), an optimistic estimate: it can prefer an action
whose value needs information the team will never have.  The rule is only a ranking; nothing
it plays is claimed best.

Determinism.  A decision is a pure function of the view (the hands enumerated from its
unknown multiset, each searched from its own position under a node budget on a memo cleared
at the start) and of the stream (the base's).  What it reads: only the view; the hidden-order
test of tests/solver/duo/test_silent_switch.py redeals what the player cannot know.
"""
from __future__ import annotations

import math

from engine.view import is_duo_view

from solver.duo import open_switch   # its deck_unknown (as a module: import cycle)
from solver.duo import rollout as _rollout  # noqa: F401  (registers its base policies)
from solver.errors import PolicyError
from solver.policies.endgame import parse_base, table_bits_for
from solver.registry import Param, PolicyBase, build_policy, check_range, register_policy
from solver.results import EXACT_TOL

# Defaults chosen by measurement (docs/DUO.md, "The silent game's end-game rule"): paired
# against duo-k2-192's stored rows, fallback=base with margin 0.05 gained deals and lost none
# where fallback=mid with no margin lost about as many as it gained.
DEFAULT_UNKNOWN = 6
DEFAULT_WORLDS = 8
DEFAULT_NODES = 20_000
DEFAULT_FALLBACK = "base"
DEFAULT_MARGIN = 0.05
DEFAULT_BASE = "duo-krollout2"     # fixed: the stored rows of duo-silent-switch name it
# duo-kcut-switch, the silent game's default: the rule over duo-kcut with every order of a
# prophecy's cards tried (experiments duo-silent-switch-kcut-orders and -ps2;
# docs/DUO_LEVERS.md, "Every order of a prophecy's cards"); before, over duo-kcut at its
# defaults (experiment duo-silent-switch-kcut).  tests/solver/duo/test_duo_value.py keeps the
# default and papers.rowdata's DUO_DEFAULT equal
KCUT_BASE = "duo-kcut:orders=all"
SWITCHES = ("duo-silent-switch", "duo-kcut-switch", "duo-kcut-sparta-switch")
FALLBACKS = ("mid", "base")
TIE = 1e-12
SLACK = 1e-9      # the settled stop's allowance for the sums' rounding (scores.__doc__)


def hand_value(row) -> float:
    """One action's open-hands value in one world from the search's row: exact where it
    finished, else its bounds' midpoint."""
    return row.lo if row.hi - row.lo <= EXACT_TOL else 0.5 * (row.lo + row.hi)


def top_actions(score: dict) -> list:
    """The action ids whose score is the largest (within ``TIE``), smallest id first."""
    top = max(score.values())
    return sorted(a for a, v in score.items() if v >= top - TIE)


def switch_params(base: str) -> list:
    """The parameters of the end-game rule, ``base`` the default base (one list for
    ``duo-silent-switch`` and ``duo-kcut-switch``)."""
    return [
        Param("base", str, base, "the two-player policy played outside the end game, with its "
                                 "own arguments: NAME or NAME:k=v,k=v"),
        Param("unknown", int, DEFAULT_UNKNOWN, "the end-game rule at most this many unknown "
                                               "deck cards"),
        Param("worlds", int, DEFAULT_WORLDS, "... and at most this many possible partner "
                                             "hands"),
        Param("budget_nodes", int, DEFAULT_NODES, "node budget of one partner hand's search "
                                                  "(deterministic)"),
        Param("fallback", str, DEFAULT_FALLBACK,
              "a hand whose search does not finish: 'mid' scores it by its bounds' midpoint, "
              "'base' plays the base"),
        Param("margin", float, DEFAULT_MARGIN,
              "leave the base's action only for a score more than this above the base "
              "action's"),
        Param("prune", bool, True,
              "stop searching partner hands once the decision is known (an exact shortcut: "
              "the same decisions, docs/DUO.md); false: search every hand", late=True),
    ]


@register_policy(
    "duo-silent-switch",
    params=switch_params(DEFAULT_BASE),
    doc="silent game: duo-krollout2, but late in a deal the open-hands value averaged over "
        "the possible partner hands (a heuristic: optimistic, strategy fusion)")
class DuoSilentSwitch(PolicyBase):
    players = (2,)
    family = "duo-honest"

    def __init__(self, base=DEFAULT_BASE, unknown=DEFAULT_UNKNOWN, worlds=DEFAULT_WORLDS,
                 budget_nodes=DEFAULT_NODES, fallback=DEFAULT_FALLBACK,
                 margin=DEFAULT_MARGIN, prune=True):
        from solver.duo.open_search import OpenSearch      # numba: imported only when used
        check_range("unknown", unknown, 0, 60)
        check_range("worlds", worlds, 1, 10_000)
        check_range("budget_nodes", budget_nodes, 1, 1 << 40)
        if fallback not in FALLBACKS:
            raise PolicyError(f"policy argument fallback: {fallback!r} is not one of "
                              f"{', '.join(FALLBACKS)}")
        name, args = parse_base(base)
        if name in SWITCHES:
            raise PolicyError(f"policy argument base: {name!r} cannot be the end-game rule's "
                              "base")
        self.base = build_policy(name, **args)
        self.unknown, self.worlds, self.budget_nodes = unknown, worlds, budget_nodes
        check_range("margin", margin, 0.0, 1.0)
        if math.isnan(margin):
            raise PolicyError("policy argument margin: must be a number")
        self.fallback, self.margin = fallback, float(margin)
        self.prune = bool(prune)
        self.stopped = None   # why the last scores() stopped early: unfinished, settled or None
        self.scored = None    # the last scores and whether every hand's search finished
        self.solver = OpenSearch(table_bits=table_bits_for(budget_nodes))
        self.last = None      # how the last act() chose (decide: forced, base, ..., settled)
        self.nodes = 0        # the open-hands nodes of the last scores()
        self.counts: dict[str, int] = {}

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError(f"{self.name} plays two-player games only (--players 2)")

    def warm_up(self) -> None:
        from solver.duo.open_search import warm_up
        warm_up()
        self.base.warm_up()

    def in_domain(self, view) -> bool:
        """Whether the end-game rule decides at ``view``: few unknown deck cards, few hands."""
        from solver.duo.view_rank import _count_hands
        return (open_switch.deck_unknown(view) <= self.unknown
                and _count_hands(view, self.worlds) <= self.worlds)

    def scores(self, view, base_action=None):
        """``{action id: sum_k P(k) OH_k(a)}`` over the possible partner hands of ``view``
        (the module's doc), and whether every hand's search finished.

        With ``prune`` the hands' loop stops as soon as the decision of :meth:`decide` is
        known, the scores then partial (``stopped`` says why):

        * ``unfinished`` (``fallback=base``): a hand's search did not finish, so the decision
          is the base's whatever the hands after it give;
        * ``settled`` (``base_action`` given, the base's action; ``margin`` > 0): no other
          action can end more than ``margin`` above it.  Every hand's value is in [0, 1], so
          once the hands searched leave a probability mass ``rest``, an action's final score
          is at most its score so far plus ``rest`` and the base action's at least its score
          so far; when ``score(a) + rest <= score(base) + margin`` (less ``SLACK`` for the
          sums' rounding) for every other ``a``, the full loop would play the base's action
          (an unfinished hand: the base; else the base is among the largest scores, or within
          ``margin`` of the largest).  tests/solver/duo/test_silent_switch.py compares the
          decisions with the unpruned loop's."""
        from solver.duo.view_rank import add_weighted, partner_hands, search_hands
        self.solver.clear()
        self.stopped = None
        self.nodes = 0
        score = {a: 0.0 for a in view.legal_actions()}
        finished = True
        worlds = partner_hands(view)
        rest = [0.0] * (len(worlds) + 1)       # rest[i]: the mass of the hands from i on
        for i in range(len(worlds) - 1, -1, -1):
            rest[i] = rest[i + 1] + worlds[i][1]
        for i, (_hand, p, ranking) in enumerate(search_hands(
                view, worlds, self.solver, per_hand=self.budget_nodes,
                first_round=max(1000, self.budget_nodes // 8))):
            finished = finished and all(x.hi - x.lo <= EXACT_TOL for x in ranking.actions)
            self.nodes += ranking.nodes
            add_weighted(score, p, ranking, hand_value)
            if not self.prune or i + 1 == len(worlds):
                continue
            if not finished and self.fallback == "base":
                self.stopped = "unfinished"
                break
            if base_action is not None and settled(score, base_action, rest[i + 1],
                                                   self.margin):
                self.stopped = "settled"
                break
        return score, finished

    def act(self, view, stream: int) -> int:
        action, how = self.decide(view, stream)
        self.last = how
        self.counts[how] = self.counts.get(how, 0) + 1
        return action

    def decide(self, view, stream: int, base_action: int | None = None) -> tuple[int, str]:
        """(action, how): how is forced, base (outside the end game), unfinished (a hand's
        search did not finish, ``fallback=base``), mean (the largest score), tie (the base's
        action among the largest scores, or the smallest id), margin (the base's action,
        within ``margin`` of the largest score) or settled (the base's action, known before
        every hand was searched: :meth:`scores`).  ``base_action``: the base's action if
        already known (``onirim best`` passes its leader's search's), else the base decides
        at ``stream`` when the rule needs it."""
        def base_act() -> int:
            return self.base.act(view, stream) if base_action is None else base_action

        if getattr(view, "players", 1) != 2 or not is_duo_view(view):
            raise PolicyError(f"{self.name} decides from a two-player player's view")
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0], "forced"
        if not self.in_domain(view):
            return base_act(), "base"
        # with a margin every searched decision asks the base; pruning asks it first
        b = base_act() if self.prune and self.margin else None
        score, finished = self.scores(view, b)
        self.scored = score, finished
        if not finished and self.fallback == "base":
            return (base_act() if b is None else b), "unfinished"
        if self.stopped == "settled":
            return b, "settled"
        top = top_actions(score)
        if len(top) == 1 and not self.margin:
            return top[0], "mean"
        if b is None:
            b = base_act()
        if b in top:
            return b, "tie" if len(top) > 1 else "mean"
        if score[top[0]] <= score[b] + self.margin:
            return b, "margin"
        return top[0], "tie" if len(top) > 1 else "mean"


@register_policy(
    "duo-kcut-switch",
    params=switch_params(KCUT_BASE),
    doc="the silent game's default: duo-silent-switch over duo-kcut (the end-game rule "
        "late in a deal, duo-kcut elsewhere)")
class DuoKCutSwitch(DuoSilentSwitch):
    def __init__(self, base=KCUT_BASE, unknown=DEFAULT_UNKNOWN, worlds=DEFAULT_WORLDS,
                 budget_nodes=DEFAULT_NODES, fallback=DEFAULT_FALLBACK,
                 margin=DEFAULT_MARGIN, prune=True):
        super().__init__(base=base, unknown=unknown, worlds=worlds, budget_nodes=budget_nodes,
                         fallback=fallback, margin=margin, prune=prune)


def settled(score: dict, base_action: int, rest: float, margin: float) -> bool:
    """Whether no action other than ``base_action`` can end more than ``margin`` above it when
    hands of probability ``rest`` are still to add a value in [0, 1] each
    (:meth:`DuoSilentSwitch.scores`)."""
    floor = score[base_action] + margin - SLACK
    return all(v + rest <= floor for a, v in score.items() if a != base_action)


@register_policy(
    "duo-kcut-sparta-switch",
    params=switch_params("duo-kcut-sparta"),
    doc="duo-kcut-switch over duo-kcut-sparta (the partner's hand dealt by its last turn in "
        "the rollouts; the end-game rule's partner hands unfiltered)")
class DuoKCutSpartaSwitch(DuoSilentSwitch):
    def __init__(self, base="duo-kcut-sparta", **args):
        super().__init__(base=base, **args)
