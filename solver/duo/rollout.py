"""``duo-krollout``: the two-player one-step rollout in numba, from the player's view.

At a decision with more than one candidate action (see
:func:`solver.duo.info_playouts.candidates`), each candidate is followed by ``n`` playouts in
the two-player information-state kernel (:mod:`solver.duo.info_state`).  Playout ``j`` deals
the partner's hand from the view's unknown multiset (the unseen deck and the partner's cards
together: the player cannot tell them apart), then both seats play the base policy
(``greedy-plus`` = ``duo-greedy-plus`` by default, or ``greedy``), each on its own cards, the
shared cards and the public board; the deck is drawn from the unknown cards as the game goes.
Every candidate sees the same deals and draws (common random numbers).  The base action is
kept unless a rival's paired mean difference exceeds ``z`` standard errors (the largest such
difference wins).  With more than ``keep`` + 1 candidates and ``0 < screen < n``, each first
gets ``screen`` playouts and only the best ``keep``, plus the base action, get the rest.

What the player knows and tells (``docs/DUO.md``, "What a player may know"): the strict
reading.  The policy decides from ``engine.view.player_view`` only (own cards, shared cards,
rows, Doors, discard, limbo, the cards its *own* prophecy put back); the players tell each
other nothing; the simulated partner decides on its own sampled cards, never on the viewer's
beyond what is public.  Given the same view and stream, the action is the same.
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng
from engine.view import is_duo_view

from solver.duo import info_playouts as IP
from solver.duo.info_state import encode
from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, check_range as _check, register_policy

_SALT = 0x3C6EF372FE94F82B       # the duo-krollout stream salt
# the policy `onirim winrate --mode honest --players 2` and the two-player hint of `onirim play`
# use when none is named: the strongest two-player policy measured at 10 ms of CPU per decision
# or less (docs/DUO.md, the compiled ladder: n=512, 66.25% of deals 0-1999 at 9.68 ms)
DEFAULT_DUO_POLICY = "duo-krollout"
_WARM_SEED = 0
KNOWLEDGE = ("strict: a player sees its own cards, the shared cards, rows, Doors, discard, "
             "limbo and its own prophecy's cards; the partner's hand and the deck are one "
             "unknown multiset; no communication")


def key_of_stream(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


def rollout_params(n: int, z: float, screen: int, keep: int, swaps: str) -> list:
    """The parameters of a two-player one-step rollout (this module's compiled ``duo-krollout``
    and the pure-Python ``duo-rollout`` of :mod:`solver.duo.honest`), with each policy's
    defaults."""
    return [
        Param("n", int, n, "playouts per candidate action"),
        Param("z", float, z, "margin: leave the base action only if a rival's paired mean "
                             "difference exceeds z standard errors"),
        Param("screen", int, screen, "with many candidates: playouts per candidate in the "
                                     "first round (0: no screen)"),
        Param("keep", int, keep, "with many candidates: how many the screen keeps (plus the "
                                 "base)"),
        Param("base", str, "greedy-plus", "base policy of the playouts: greedy or "
                                          "greedy-plus (duo-greedy-plus)"),
        Param("reward", str, "doors", "playout score: doors (Doors in play at the end, 8 = "
                                      "won) or win (1/0)"),
        Param("swaps", str, swaps, "exchanges tried in phase play: all, base (those of the "
                                   "base action's discard), none"),
    ]


@register_policy(
    "duo-krollout",
    params=rollout_params(n=512, z=1.0, screen=64, keep=4, swaps="all"),
    doc="two-player one-step rollout in numba from the player's view (n playouts per "
        "candidate, partner hand dealt from the unknown cards, common random numbers, "
        "z-margin)")
class DuoKRollout(PolicyBase):
    players = (2,)

    def __init__(self, n=512, z=1.0, screen=64, keep=4, base="greedy-plus", reward="doors",
                 swaps="all"):
        if base not in IP.BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(IP.BASES)}")
        if reward not in IP.REWARDS:
            raise PolicyError(f"policy argument reward: {reward!r} is not doors or win")
        if swaps not in IP.SWAPS:
            raise PolicyError(f"policy argument swaps: {swaps!r} is not all, base or none")
        _check("n", n, 1, 1 << 16)
        _check("z", z, 0.0)
        _check("screen", screen, 0)
        _check("keep", keep, 1)
        if math.isnan(z):
            raise PolicyError("policy argument z: must be a number")
        self.n, self.z, self.screen, self.keep = n, float(z), screen, keep
        self.base, self.reward, self.swaps = base, reward, swaps
        self.stats = np.zeros(2, dtype=np.int64)     # playouts run, candidates tried

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError("duo-krollout plays two-player games only (--players 2)")

    def warm_up(self) -> None:
        """Compile (or load) the kernels on a throwaway deal's opening view."""
        from engine.game import Game
        from engine.view import player_view
        IP.compile_all()
        small = DuoKRollout(n=2, z=self.z, screen=1 if self.screen else 0, keep=self.keep,
                            base=self.base, reward=self.reward, swaps=self.swaps)
        small.act(player_view(Game(2).new_initial_state(seed=_WARM_SEED)), 0)

    def act(self, view, stream: int) -> int:
        if getattr(view, "players", 1) != 2:
            raise PolicyError("duo-krollout plays two-player games only")
        if not is_duo_view(view):
            raise PolicyError("duo-krollout decides from a player's view (player_view)")
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        S = encode(view)
        a = IP.decide(S, np.int64(self.n), np.float64(self.z),
                      np.uint64(key_of_stream(stream)), np.int64(self.screen),
                      np.int64(self.keep), np.int64(IP.BASES[self.base]),
                      np.int64(IP.REWARDS[self.reward]), np.int64(IP.SWAPS[self.swaps]),
                      self.stats)
        return int(a)
