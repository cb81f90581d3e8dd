"""The ``ismcts`` policy: information-set Monte Carlo tree search with chance nodes over the
player's view, base-policy playouts at the leaves (solo).

The kernel is :func:`solver.honest.ismcts.search` (its module docstring has the details): the
root is the view encoded as an information state (the unknown cards as counts), chance nodes
draw unknown cards by type with the player's probabilities, decision nodes choose by UCB1 at
the root and, below it, by UCB1 with progressive widening (``prior`` = 0) or by PUCT with the
base action's prior ``prior`` (``prior`` > 0); each iteration expands one decision-level node
and values it by one playout of the base policy; the action is the rollout's margin rule over
the root's paired visits (``z`` > 0), or the most visited root action (``z`` = 0).

Same view and stream, same action: every random number comes from the stream
(:func:`key_of_stream`, a salt of its own), and the kernel reads only the view.
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng

from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, check_range, register_policy

_SALT = 0xBB67AE8584CAA73B
DEFAULT_ITERS = 2000
DEFAULT_BASE = "greedy-keep-doors"


def key_of_stream(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


@register_policy(
    "ismcts",
    params=[
        Param("iters", int, DEFAULT_ITERS, "iterations (playouts) per decision"),
        Param("c", float, 1.0, "UCB1 exploration constant (the root; below it with prior=0)"),
        Param("pw", float, 0.0, "progressive widening below the root with prior=0: "
                                "1 + floor(pw * sqrt(visits)) candidates, the base's first"),
        Param("prior", float, 0.95, "PUCT below the root: the base action's prior (0: UCB1 "
                                    "with widening instead)"),
        Param("cp", float, 2.0, "PUCT's exploration constant (with prior > 0)"),
        Param("z", float, 1.0, "root choice: keep the base action unless a rival's paired "
                               "mean difference exceeds z standard errors (0: most visited)"),
        Param("base", str, DEFAULT_BASE, "base policy of the playouts: greedy, greedy-plus, "
                                         "greedy-keep-doors, learned-base or learned-base-2"),
    ],
    doc="information-set MCTS with chance nodes over the view, base playouts at the leaves "
        "(numba)")
class ISMCTS(PolicyBase):
    players = (1,)

    def __init__(self, iters=DEFAULT_ITERS, c=1.0, pw=0.0, prior=0.95, cp=2.0, z=1.0,
                 base=DEFAULT_BASE):
        from solver.honest.greedy import BASES
        if base not in BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(BASES)}")
        check_range("iters", iters, 1, 1 << 20)
        for k, v in (("c", c), ("pw", pw), ("prior", prior), ("cp", cp), ("z", z)):
            if math.isnan(v):
                raise PolicyError(f"policy argument {k}: must be a number")
            check_range(k, v, 0.0)
        check_range("prior", prior, 0.0, 1.0)
        self.iters, self.base = int(iters), base
        self.c, self.pw, self.prior, self.cp, self.z = (float(c), float(pw), float(prior),
                                                        float(cp), float(z))
        self._ws = None
        self.last_stats = None

    def warm_up(self) -> None:
        """Compile (or load) the kernel on a throwaway opening view, a few iterations."""
        from engine.game import Game
        from engine.view import player_view
        view = player_view(Game(1).new_initial_state(seed=0))
        ISMCTS(iters=8, c=self.c, pw=self.pw, prior=self.prior, cp=self.cp, z=self.z,
               base=self.base).act(view, 0)

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("ismcts plays solo games only")
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        from solver.honest import ismcts
        from solver.honest import kernel as HK
        from solver.honest.greedy import BASES
        if self._ws is None:
            self._ws = ismcts.workspace(self.iters)
        S = HK.encode(view)
        a = int(ismcts.search(S, np.int64(self.iters), np.float64(self.c), np.float64(self.pw),
                         np.float64(self.z), np.float64(self.prior), np.float64(self.cp),
                         np.uint64(key_of_stream(stream)), np.int64(BASES[self.base]),
                         *self._ws))
        self.last_stats = tuple(int(x) for x in self._ws[-1])
        return a
