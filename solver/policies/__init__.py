"""The built-in policies, registered by name (see :mod:`solver.api`).

* ``greedy``: the rule-based player of :mod:`engine.policy` (about 11% of solo deals);
* ``random``: a uniformly random legal action, drawn from the decision's stream.

Search policies register themselves from their own modules, listed in ``_SEARCH_MODULES``.
"""
from __future__ import annotations

import importlib

from engine import rng
from engine.policy import greedy_action

from solver.registry import register_policy

# Modules that register more policies when imported (each optional until it exists).
_SEARCH_MODULES = ("solver.honest.rollout", "solver.policies.endgame", "solver.duo.honest")


@register_policy("greedy", doc="rule-based: continue series, discard the least useful card, "
                               "always spend a Key on a Nightmare")
class Greedy:
    def act(self, view, stream: int) -> int:
        return greedy_action(view)


@register_policy("random", doc="a uniformly random legal action")
class Random:
    def act(self, view, stream: int) -> int:
        acts = view.legal_actions()
        return acts[rng.word(stream, 0) % len(acts)]


for _mod in _SEARCH_MODULES:
    try:
        importlib.import_module(_mod)
    except ModuleNotFoundError as e:   # not written yet
        if e.name != _mod:
            raise
