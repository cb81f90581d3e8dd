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

:func:`keep_doors_action` is the readable rule on the engine's state; the policy plays the
kernel's copy (:func:`solver.honest.strong.keep_doors`), which the differential test checks
against it at every decision.
"""
from __future__ import annotations

from engine import cards as C
from engine import game as G
from engine.policy import greedy_plus_action
from engine.rules import COLOURS, DOORS_PER_COLOUR

from solver.errors import PolicyError
from solver.registry import PolicyBase, register_policy


def dead_key(view, col: int) -> bool:
    """True if the Key of colour ``col`` can open no more Door in this solo game: the colour
    has all its Doors in play, or every one of its Doors not in play is in the discard pile."""
    door = C.door_of(col)
    in_play = view.doors[0].count(door)
    if in_play >= DOORS_PER_COLOUR:
        return True
    return in_play + view.discard.count(door) >= C.COUNTS[door]


def keep_doors_action(view) -> int:
    """greedy-keep-doors at a solo decision state (the module's rule, on the engine)."""
    a = greedy_plus_action(view)
    if view.phase == "play" and G.DISCARD <= a < G.SWAP:
        hand = view.hands[0]
        for col in range(COLOURS):
            k = C.key_of(col)
            if k in hand and dead_key(view, col):
                return G.DISCARD + k
    return a


@register_policy("greedy-keep-doors",
                 doc="greedy-plus, but a Key that can open no more Door is discarded first "
                     "(a free prophecy)")
class GreedyKeepDoors(PolicyBase):
    players = (1,)

    def warm_up(self) -> None:
        from engine.game import Game
        from engine.view import player_view
        self.act(player_view(Game(1).new_initial_state(seed=0)), 0)

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("greedy-keep-doors plays solo games only")
        from solver.honest import kernel as HK
        from solver.honest import strong
        return strong.base_at(HK.encode(view), "greedy-keep-doors")
