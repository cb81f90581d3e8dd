"""Honest games: a policy plays a deal seeing only the player's view.

The deal is played in deal mode, so deal ``seed`` is the same deal as in clairvoyant mode
(common random numbers: two policies can be compared deal by deal).  At every decision the
policy gets :func:`engine.view.player_view` of the real state, never the state itself, and the
stream ``decision_stream(seed, i)`` for the ``i``-th decision: a pure function of the deal and
the decision index, so a game is reproducible whatever machine or worker plays it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine import rng
from engine.errors import IllegalActionError
from engine.game import Game
from engine.view import player_view

# Stream keys of policies sit at shuffle indices far above any real shuffle of a deal.
_POLICY_STREAM_BASE = 1 << 40


def decision_stream(seed: int, i: int) -> int:
    """The 64-bit random stream key of the ``i``-th decision of deal ``seed``."""
    return rng.stream_key(seed, _POLICY_STREAM_BASE + i)


@dataclass
class HonestGame:
    seed: int
    won: bool
    doors: int
    decisions: int
    seconds: float
    actions: list[int] = field(default_factory=list)


def play_honest(policy, seed: int, players: int = 1, max_decisions: int = 100_000) -> HonestGame:
    """Play deal ``seed`` with ``policy`` under honest information."""
    state = Game(players).new_initial_state(seed=seed)
    t0 = time.perf_counter()
    i = 0
    while not state.is_terminal():
        if i >= max_decisions:
            raise RuntimeError(f"deal {seed}: no end after {max_decisions} decisions")
        a = policy.act(player_view(state), decision_stream(seed, i))
        if a not in state.legal_actions():
            raise IllegalActionError(f"policy {policy.name!r} chose an illegal action {a!r} "
                                     f"at decision {i} of deal {seed}")
        state.apply_action(a)
        i += 1
    return HonestGame(seed=seed, won=state.won(), doors=len(state.all_doors()), decisions=i,
                      seconds=time.perf_counter() - t0, actions=state.history())
