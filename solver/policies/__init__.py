"""The built-in policies, registered by name (see :mod:`solver.api`).

* ``greedy``: the rule-based player of :mod:`engine.policy` (about 11% of solo deals);
* ``random``: a uniformly random legal action, drawn from the decision's stream.

The search policies register themselves from their own modules, imported at the end here.
"""
from __future__ import annotations

from engine import rng
from engine.policy import greedy_action

from solver.registry import PolicyBase, register_policy

# The default policy of ``onirim winrate --mode honest`` (solo) and of the hint of ``onirim
# play``: the strongest measured at 10 ms of CPU per decision or less, side by side
# (docs/POLICIES.md, "The default policy"; the experiment endgame8-seq-n1024-h32-stop-learned,
# the switch over seq-rollout n=1024 on the learned base with the value function's horizon at
# 32 draws; until 2026-12-05 it was endgame8-seq-n768-stop-learned, the same switch over n=768
# without a horizon, and until 2026-12-04 endgame8-seq-n1024-stop, over n=1024 on
# greedy-keep-doors), as a registered name and its arguments (``--policy-arg`` pairs given
# with no ``--policy`` are added to these, and replace one of the same key).
DEFAULT_HONEST_POLICY = "endgame"
DEFAULT_HONEST_ARGS = {"base": "seq-rollout:n=1024,batch=64,stop=0.01,base=learned-base,"
                               "horizon=32",
                       "unknown": 8}


def policy_label(policy) -> str:
    """``name`` of a policy, with its base when it has one: ``endgame (base=seq-rollout)``."""
    base = (getattr(policy, "config", None) or {}).get("base")
    return f"{policy.name} (base={base})" if isinstance(base, str) else policy.name


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
from solver.duo import open_switch as duo_open_switch  # noqa: E402, F401
from solver.duo import silent_switch as duo_silent_switch  # noqa: E402, F401
from solver.honest import rollout  # noqa: E402, F401
from . import endgame  # noqa: E402, F401
from . import ismcts, keep_doors, late_l2, learned, learned2, seq  # noqa: E402, F401
