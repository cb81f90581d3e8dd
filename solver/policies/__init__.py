"""The built-in policies, registered by name (see :mod:`solver.api`).

* ``greedy``: the rule-based player of :mod:`engine.policy` (about 11% of solo deals);
* ``random``: a uniformly random legal action, drawn from the decision's stream.

The search policies register themselves from their own modules, imported at the end here.
"""
from __future__ import annotations

from engine import rng
from engine.policy import greedy_action

from solver.registry import PolicyBase, register_policy


@register_policy("greedy", doc="rule-based: continue series, discard the least useful card, "
                               "always spend a Key on a Nightmare")
class Greedy(PolicyBase):
    def act(self, view, stream: int) -> int:
        return greedy_action(view)


@register_policy("random", doc="a uniformly random legal action")
class Random(PolicyBase):
    def act(self, view, stream: int) -> int:
        acts = view.legal_actions()
        return acts[rng.word(stream, 0) % len(acts)]


# the modules of the search policies: importing them registers their policies
from solver.duo import honest as duo_honest  # noqa: E402, F401
from solver.honest import rollout  # noqa: E402, F401
from . import endgame  # noqa: E402, F401
from . import keep_doors, late_l2, seq  # noqa: E402, F401
