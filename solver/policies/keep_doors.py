"""The ``greedy-keep-doors`` policy: greedy-plus, but a Key that can open no more Door is
discarded first (solo).

Where greedy-plus would discard in the play phase, this policy discards a *dead* Key instead,
if it holds one: the Key of a colour whose two Doors are in play, or all of whose Doors not in
play were discarded by a prophecy.  Such a Key opens nothing, and discarding a Key triggers a
prophecy; greedy keeps every Key to the last.  Keys that can still open a Door are kept as
greedy-plus keeps them.  Measured in the kernel over the same 200,000 games (seed 12345):
greedy-plus 35.8%, greedy-keep-doors 36.9% (docs/POLICIES.md, "Stronger honest play").
Other changes tried on the same games lost: keeping a needed Key at a Nightmare (moving a Door
to limbo instead: 11.9%; discarding the hand: 21.3%; revealing: 25.4%).

:func:`engine.policy.keep_doors_action` is the readable rule on the engine's state; the policy plays the
kernel's copy (:func:`solver.honest.strong.keep_doors`), which the differential test checks
against it at every decision.
"""
from __future__ import annotations

# the readable rule lives in engine.policy beside greedy's (solver.honest.estimate plays it
# too, and the honest family must not import this package of policies: no cycle)
from engine.policy import dead_key, keep_doors_action  # noqa: F401

from solver.errors import PolicyError
from solver.registry import PolicyBase, register_policy


class KernelBasePolicy(PolicyBase):
    """A base policy of the honest kernel (``kernel_base``, a name of
    ``solver.honest.greedy.BASES``) played at the player's view: the kernel's own decision on
    the encoded view, the one its rollouts play in their playouts (solo)."""
    players = (1,)
    kernel_base = ""

    def warm_up(self) -> None:
        from engine.game import Game
        from engine.view import player_view
        self.act(player_view(Game(1).new_initial_state(seed=0)), 0)

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError(f"{self.kernel_base} plays solo games only")
        from solver.honest import kernel as HK
        from solver.honest import strong
        return strong.base_at(HK.encode(view), self.kernel_base)


@register_policy("greedy-keep-doors",
                 doc="greedy-plus, but a Key that can open no more Door is discarded first "
                     "(a free prophecy)")
class GreedyKeepDoors(KernelBasePolicy):
    kernel_base = "greedy-keep-doors"
