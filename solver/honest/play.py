"""Honest games: a policy plays a deal seeing only the player's view.

The deal is played in deal mode, so deal ``seed`` is the same deal as in clairvoyant mode
(common random numbers: two policies can be compared deal by deal).  At every decision the
policy gets :func:`engine.view.player_view` of the real state, never the state itself, and the
stream ``decision_stream(policy_seed, i)`` for the ``i``-th decision: a pure function of the
*policy seed* and the decision index.  The policy seed is chosen independently of the deal
(``--policy-seed`` of ``onirim winrate``, default :data:`DEFAULT_POLICY_SEED`) and recorded
with every run, so a game (deal seed, policy seed) replays the same on any machine or worker,
and nothing a policy receives depends on the deal: the streams of deal ``s`` and deal ``s'``
are the same numbers, so they cannot lead back to the deal seed or the deck order (docs/WINRATE.md,
"Honest mode").  Before, the stream was a function of the deal seed, and a policy could invert it
to the deal.
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
# The policy seed of every run that does not choose one (stated in winrate's JSON).
DEFAULT_POLICY_SEED = 1


def decision_stream(policy_seed: int, i: int) -> int:
    """The 64-bit random stream key of the ``i``-th decision of a game played with policy seed
    ``policy_seed``.  It does not depend on the deal (see the module's docstring)."""
    return rng.stream_key(policy_seed, _POLICY_STREAM_BASE + i)


def seeded_hash(config_hash: str, policy_seed: int) -> str:
    """The key of a policy's games in a results database: its configuration hash and its
    policy seed (16 hex digits); two policy seeds give two sets of games."""
    import hashlib
    text = f"{config_hash}/policy_seed={int(policy_seed)}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class HonestGame:
    seed: int
    won: bool
    doors: int
    decisions: int
    seconds: float
    actions: list[int] = field(default_factory=list)
    cpu_seconds: float = 0.0        # CPU time of this process over the same span
    policy_seed: int = DEFAULT_POLICY_SEED


def play_honest(policy, seed: int, players: int = 1, max_decisions: int = 100_000,
                policy_seed: int = DEFAULT_POLICY_SEED, talk: str = "none") -> HonestGame:
    """Play deal ``seed`` with ``policy`` under honest information; the policy's random
    numbers come from ``policy_seed`` alone.  ``seconds`` is wall time, ``cpu_seconds`` the
    process's CPU time over the same span (both exclude anything before the first decision,
    so a policy's ``warm_up`` must have run before).  ``talk``: the two-player game's mode
    (``engine.view.player_view``)."""
    state = Game(players).new_initial_state(seed=seed)
    c0 = time.process_time()
    t0 = time.perf_counter()
    i = 0
    while not state.is_terminal():
        if i >= max_decisions:
            raise RuntimeError(f"deal {seed}: no end after {max_decisions} decisions")
        a = policy.act(player_view(state, talk=talk), decision_stream(policy_seed, i))
        if a not in state.legal_actions():
            raise IllegalActionError(f"policy {policy.name!r} chose an illegal action {a!r} "
                                     f"at decision {i} of deal {seed}")
        state.apply_action(a)
        i += 1
    seconds = time.perf_counter() - t0
    return HonestGame(seed=seed, won=state.won(), doors=len(state.all_doors()), decisions=i,
                      seconds=seconds, actions=state.history(),
                      cpu_seconds=time.process_time() - c0, policy_seed=policy_seed)
