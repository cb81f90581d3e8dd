"""What the estimators of :mod:`solver.honest.estimate` and :mod:`solver.honest.estimate_l2`
return: per action the estimate, its Wilson 95% interval and its playouts, and how they were
made (the estimator, the policy played after the action)."""
from __future__ import annotations

from dataclasses import dataclass, field

POLICY = "greedy-keep-doors"       # the policy played after the action by level 1


@dataclass
class ActionEstimate:
    action: int
    estimate: float
    ci95: tuple[float, float]
    playouts: int


@dataclass
class Estimates:
    """Per action: the estimate and its interval; how they were made."""

    by_action: dict[int, ActionEstimate] = field(default_factory=dict)
    playouts: int = 0               # per action
    method: str = "engine"          # "engine" (engine playouts) or "rollout" (numba)
    policy: str = POLICY            # what plays after the action
    seconds: float = 0.0
    estimator: str = "level-1"      # "level-1": POLICY's playouts; "level-2": the rollout's
    note: str | None = None         # why level 2 was not used, when it was tried

    def describe(self) -> dict:
        d = {"estimator": self.estimator, "policy": self.policy, "method": self.method,
             "playouts_per_action": self.playouts, "interval": "Wilson 95%",
             "seconds": round(self.seconds, 3)}
        if self.note:
            d["note"] = self.note
        return d
