"""The result vocabulary of every solver, defined once: ``Interval`` and ``bounds`` (sound
bounds on a win probability, exact within ``EXACT_TOL``), ``ActionValue`` (one action's
answer), ``Ranking`` (the answer for a position: the JSON of ``onirim best``), and
``finish`` (the table order, the proven best, the leader and its criterion).

:mod:`solver.api` is the public surface and re-exports every name here; the solvers import
them from this module, which imports no solver, so that ``solver.api`` can load the solvers
without an import cycle (as :mod:`solver.registry` does for the policies).
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["EXACT_TOL", "Interval", "bounds", "ActionValue", "proven_best", "Ranking",
           "CRITERION_ESTIMATE", "CRITERION_LO", "CRITERION_POLICY", "CRITERION_POLICY_EXACT",
           "NO_LEADER",
           "sort_actions", "finish", "name_estimates"]

# Bounds closer than this are one value up to floating-point rounding (docs/EXPECTIMAX.md
# section 3, "Intervals": sound up to about 1e-15).
EXACT_TOL = 1e-15


class _Bounds:
    """Sound bounds ``lo <= value <= hi`` on a win probability."""
    lo: float
    hi: float

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def value(self) -> float:
        """The exact value, or the middle of the bounds (internal use only: a ranking's
        ``ActionValue.value`` is the exact value or None, never a midpoint)."""
        return self.lo if self.exact else (self.lo + self.hi) / 2


@dataclass(frozen=True)
class Interval(_Bounds):
    lo: float
    hi: float


def bounds(lo: float, hi: float) -> Interval:
    """An Interval from bounds computed in floating point, or from intersecting two sound
    intervals: clamped to [0, 1], with hi >= lo, and exact (hi = lo) when they are within
    EXACT_TOL.  A sum of probabilities can round a hair above 1 (a sure win whose outcomes'
    probabilities add up to 1.0000000000000002); two searches of one value can round it one
    unit apart; and a Star1 cut at alpha can leave a refuted action's upper bound one unit
    above alpha, so that the best action's exact value v comes back as [v, v + 1 ulp].
    None of these may show as a value above 1, as lo > hi, or as an open interval."""
    lo = min(1.0, max(0.0, lo))
    hi = min(1.0, max(lo, hi))
    return Interval(lo, lo if hi - lo <= EXACT_TOL else hi)


@dataclass
class ActionValue:
    """One action's answer: sound bounds, the exact value when proven (filled in when the
    bounds meet; never a midpoint), a search policy's estimate, and the engine's action
    number (``action_id``, -1 if unknown)."""

    action: str
    lo: float
    hi: float
    value: float | None = None            # exact value, or None
    estimate: float | None = None         # a search policy's estimate of its winning chance
    ci95: tuple[float, float] | None = None
    action_id: int = -1

    def __post_init__(self):
        if self.value is None and self.exact:
            self.value = self.lo

    @property
    def exact(self) -> bool:
        return self.hi - self.lo <= EXACT_TOL

    def to_json(self) -> dict:
        d = {"action": self.action, "value": self.value if self.exact else None,
             "lo": self.lo, "hi": self.hi, "exact": self.exact}
        if d["value"] is None and self.exact:
            d["value"] = self.lo
        if self.estimate is not None:
            d["estimate"] = self.estimate
            d["ci95"] = list(self.ci95) if self.ci95 is not None else None
        return d


def proven_best(actions: list[ActionValue]) -> ActionValue | None:
    """The action whose ``lo`` is at least every other action's ``hi``, if there is one."""
    if not actions:
        return None
    top = max(actions, key=lambda a: a.lo)
    if all(top.lo >= a.hi - EXACT_TOL for a in actions if a is not top):
        return top
    return None


@dataclass
class Ranking:
    """A ranked answer for one position (docs/NOTATION.md).  ``line`` (the principal line) and
    ``graph`` (the explored graph, ``--tree``) are for the text output and files; the JSON
    carries ``line`` only where a mode puts it in ``extra``."""

    position: str
    mode: str
    actions: list[ActionValue]
    nodes: int = 0
    seconds: float = 0.0
    leader: str | None = None
    criterion: str | None = None
    extra: dict = field(default_factory=dict)
    line: list[str] = field(default_factory=list)
    graph: object = field(default=None, repr=False, compare=False)
    view_note: str | None = None          # text output: whose view was ranked
    memo_note: str | None = None          # text output: the memo's size, file and entries

    @property
    def best(self) -> str | None:
        b = proven_best(self.actions)
        return b.action if b is not None else None

    @property
    def interrupted(self) -> bool:
        return bool(self.extra.get("interrupted"))

    def to_json(self) -> dict:
        d = {"position": self.position, "mode": self.mode,
             "actions": [a.to_json() for a in self.actions], "best": self.best,
             "nodes": self.nodes, "seconds": self.seconds}
        if d["best"] is None:
            d["leader"] = self.leader
            d["criterion"] = self.criterion
        d.update(self.extra)
        return d


# the leader by estimates; name_estimates puts in the policy the estimates really played
_CRITERION_ESTIMATE_OF = ("highest estimate ({} play after the action) among the actions not "
                          "proven worse than another")
CRITERION_ESTIMATE = _CRITERION_ESTIMATE_OF.format("greedy-keep-doors")
CRITERION_LO = "highest lo (the winning chance proven reachable) among the actions"
CRITERION_POLICY = ("the action {} plays here, among the actions not proven worse than "
                    "another (estimates: {})")
CRITERION_POLICY_EXACT = ("the action {} plays here: its own exact end-game search, larger "
                          "than this query's, proves it best (estimates: {})")
LO_LEADER = 5e-7        # a lo below this shows as 0.000000 (the six places of the text
                        # output): no leader by such a lo, every lo reads 0
NO_LEADER = ("no leader: every action's lo is 0 (below 5e-7) and there are no estimates, "
             "so nothing tells the actions apart yet")


def sort_actions(actions: list) -> list:
    """The table's order.  A proven best action comes first (ties by action string); then
    the actions not proven worse than another (``hi`` at least the largest ``lo``), by
    estimate when there are estimates, else by ``lo``; then the actions proven worse, by
    ``lo``.  Ties: higher ``lo``, higher ``hi``, then the action string (stable output).
    When every value is exact this is the order of the values."""
    if not actions:
        return []
    top = max(a.lo for a in actions)
    proven = proven_best(actions) is not None
    has_est = any(a.estimate is not None for a in actions)

    def key(a):
        est = a.estimate if has_est and a.estimate is not None else -1.0
        return (0 if proven and a.lo >= top - EXACT_TOL else 1,
                a.hi < top - EXACT_TOL, -est if has_est else 0.0, -a.lo, -a.hi, a.action)
    return sorted(actions, key=key)


def name_estimates(ranking: Ranking) -> None:
    """A leader chosen by estimates names the policy they played after each action
    (``extra["estimates"]["policy"]``: greedy-keep-doors, the rollout over it of the level-2
    estimator; a policy's leader names the policy and its search), in the text and the JSON
    alike; :func:`finish` runs before a solver describes its estimates, so
    ``solver.api.rank`` calls this after the solver returns."""
    policy = (ranking.extra.get("estimates") or {}).get("policy")
    if ranking.criterion == CRITERION_ESTIMATE and policy:
        ranking.criterion = _CRITERION_ESTIMATE_OF.format(policy)


def finish(ranking: Ranking) -> None:
    """Sort the actions, and name the leader and its criterion when nothing is proven.  A
    policy's decision (``extra["estimates"]["leader"]``, ``solver.advice``) is the leader,
    first in the table; else the highest estimate; else the highest ``lo``.  With no
    estimates and every ``lo`` below ``LO_LEADER`` there is no leader (``leader`` None,
    ``criterion`` says why): the first row would be a pick from a tie, not advice."""
    ranking.actions = sort_actions(ranking.actions)
    ranking.leader = ranking.criterion = None
    if ranking.best is not None or not ranking.actions:
        return
    est = ranking.extra.get("estimates") or {}
    chosen = [a for a in ranking.actions if a.action == est.get("leader")]
    if chosen:
        ranking.actions.remove(chosen[0])
        ranking.actions.insert(0, chosen[0])
        ranking.leader = chosen[0].action
        template = CRITERION_POLICY_EXACT if est.get("how") == "exact" else CRITERION_POLICY
        ranking.criterion = template.format(est.get("policy"), est.get("search"))
    elif any(a.estimate is not None for a in ranking.actions):
        ranking.leader, ranking.criterion = ranking.actions[0].action, CRITERION_ESTIMATE
    elif max(a.lo for a in ranking.actions) >= LO_LEADER:
        ranking.leader, ranking.criterion = ranking.actions[0].action, CRITERION_LO
    else:
        ranking.criterion = NO_LEADER
