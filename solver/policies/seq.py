"""The ``seq-rollout`` policy: a one-step rollout whose playouts stop early by a sequential
test, over the ``greedy-keep-doors`` base (solo).

At a decision every legal action (a prophecy: every distinct outcome) gets playouts of the base
policy in rounds, playout ``j`` of every action on the same chance stream (common random
numbers).  After each round an action whose paired mean difference to the leader (the live
action with the most wins) is more than ``zdrop`` standard errors below zero is dropped; the
playouts stop when one action is left or every live action has ``n``.  The action played is the
rollout's z-margin choice among the live ones: the base action unless a rival beats it by more
than ``z`` standard errors of the paired difference.  The kernel is
:func:`solver.honest.strong.decide_seq` (its docstring has the details).

With ``zdrop=0`` there is no drop: every action gets ``n`` playouts, and the policy is the
``rollout`` policy's decision without its screen, over the chosen base.

Same view and stream, same action: every random number comes from the stream, and the kernel
reads only the view (the unknown cards as counts).
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng

from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, check_range, register_policy

# The policy's playout key is mix64 of the decision stream and this salt (its own, so that its
# playouts are not the rollout policy's).
_SALT = 0x6A09E667F3BCC909
DEFAULT_N = 1024
DEFAULT_BATCH = 32
DEFAULT_ZDROP = 2.0
DEFAULT_BASE = "greedy-keep-doors"
# The default policy of ``onirim winrate --mode honest`` (solo) and of the hint of ``onirim
# play``: the strongest measured at 10 ms of CPU per decision or less (docs/POLICIES.md,
# "Stronger honest play").
DEFAULT_HONEST_POLICY = "seq-rollout"


def key_of_stream(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


@register_policy(
    "seq-rollout",
    params=[
        Param("n", int, DEFAULT_N, "most playouts per action"),
        Param("batch", int, DEFAULT_BATCH, "playouts per action in a round (a round later "
                                           "grows to a quarter of the playouts made so far)"),
        Param("z", float, 1.0, "margin: leave the base action only if a rival's paired mean "
                               "difference exceeds z standard errors"),
        Param("zdrop", float, DEFAULT_ZDROP, "drop an action more than zdrop standard errors "
                                             "behind the leader (0: never)"),
        Param("base", str, DEFAULT_BASE, "base policy of the playouts: greedy, greedy-plus "
                                         "or greedy-keep-doors"),
    ],
    doc="one-step rollout over greedy-keep-doors with sequential dropping of clearly worse "
        "actions (numba)")
class SeqRollout(PolicyBase):
    players = (1,)

    def __init__(self, n=DEFAULT_N, batch=DEFAULT_BATCH, z=1.0, zdrop=DEFAULT_ZDROP,
                 base=DEFAULT_BASE):
        from solver.honest import strong
        if base not in strong.BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(strong.BASES)}")
        check_range("n", n, 1, 1 << 20)
        check_range("batch", batch, 1, 1 << 20)
        if math.isnan(z) or math.isnan(zdrop):
            raise PolicyError("policy argument z, zdrop: must be numbers")
        check_range("z", z, 0.0)
        check_range("zdrop", zdrop, 0.0)
        self.n, self.batch, self.z, self.zdrop, self.base = n, batch, float(z), float(zdrop), base

    def warm_up(self) -> None:
        """Compile (or load) the kernel on a throwaway opening view, tiny playout counts."""
        from engine.game import Game
        from engine.view import player_view
        view = player_view(Game(1).new_initial_state(seed=0))
        SeqRollout(n=4, batch=2, z=self.z, zdrop=self.zdrop, base=self.base).act(view, 0)

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("seq-rollout plays solo games only")
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        from solver.honest import kernel as HK
        from solver.honest import strong
        S = HK.encode(view)
        return int(strong.decide_seq(S, np.int64(self.n), np.int64(self.batch),
                                     np.float64(self.z), np.float64(self.zdrop),
                                     np.uint64(key_of_stream(stream)),
                                     np.int64(strong.BASES[self.base])))
