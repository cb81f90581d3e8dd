"""Solo Onirim as a Gymnasium environment: ``OnirimSolo-v0`` (optional extra ``onirim[gym]``).

Importing this module registers the environment::

    import gymnasium as gym
    import onirim.gym  # noqa: F401  (registers OnirimSolo-v0)
    env = gym.make("OnirimSolo-v0")
    obs, info = env.reset(seed=7)          # deal 7, the deal of `onirim winrate --seed 7`

Episodes
--------
``reset(seed=S)`` deals deal ``S`` of ``engine.rng`` (deal mode: the deck order and every later
shuffle follow the seed, so an episode is reproducible and is the same deal as in
``solver.honest.play.play_honest``); ``reset()`` without a seed draws a deal from the environment's
random generator; ``reset(options={"deal": S})`` plays deal ``S`` whatever the seed.  A step
is one decision of the player.  Reward: 1 on the step that wins the game, else 0; the episode
terminates at a win or a loss (never truncated: a game has at most 6,000 moves).

Actions (``Discrete(156)``): a compact re-indexing of the solo part of ``engine.game``'s action
layout (``ENGINE_ACTION[i]`` is the engine action of index ``i``, ``compact_action(a)`` the way
back)::

    0 .. 11     play card type c            (engine PLAY + c)
    12 .. 23    discard card type c         (engine DISCARD + c; a Key triggers a prophecy)
    24 .. 143   prophecy: discard revealed card i, put the rest back in permutation p
                (index 24 + 24*i + p; engine PROPHECY + 24*i + p)
    144, 145    door key, door limbo
    146 .. 149  nightmare: discard the Key of colour 0..3 (O, A, G, L)
    150 .. 153  nightmare: move the Door of colour 0..3 to limbo
    154, 155    nightmare reveal, nightmare redraw

Only some are legal at a time: ``info["action_mask"]`` and ``obs["action_mask"]`` (int8, 1 =
legal).  An illegal action leaves the game unchanged and returns reward 0 with
``info["illegal_action"] = True`` (or raises :class:`engine.IllegalActionError` when the
environment is made with ``illegal="raise"``).

Observation
-----------
A dict: ``"observation"``, a fixed-size int16 vector of what the player may know, computed from
``engine.view.player_view`` (so it never holds the hidden deck order, nor the seed), and
``"action_mask"``.  The vector is ``onirim.encoding.solo_vector``: its 199 numbers, field by
field, are listed in ``onirim/encoding.py`` (``OBS_FIELDS`` gives the slices).

``info`` also holds ``"position"``: the player's view in the notation of docs/NOTATION.md
(``engine.parse_position`` reads it back into a chance-mode position, on which any of our
policies can decide), and ``"deal"``.
"""
from __future__ import annotations

import numpy as np

from onirim.extras import require

gymnasium = require("gymnasium", "gym", "gymnasium", "onirim.gym")
from gymnasium import spaces  # noqa: E402

from engine import cards
from engine import game
from engine.errors import GameConfigError, IllegalActionError
from engine.notation import format_position
from engine.rng import MAX_SEED
from engine.view import player_view

from onirim.encoding import SOLO_FIELDS, SOLO_SIZE, solo_vector

ENV_ID = "OnirimSolo-v0"

# ------------------------------------------------------------------------- action layout
ENGINE_ACTION: tuple[int, ...] = tuple(
    [game.PLAY + c for c in range(12)]
    + [game.DISCARD + c for c in range(12)]
    + [game.PROPHECY + j for j in range(120)]
    + [game.DOOR_KEY, game.DOOR_LIMBO]
    + [game.NM_KEY + col for col in range(4)]
    + [game.NM_DOOR + col for col in range(4)]
    + [game.NM_REVEAL, game.NM_REDRAW])
NUM_ACTIONS = len(ENGINE_ACTION)          # 156
_COMPACT = {a: i for i, a in enumerate(ENGINE_ACTION)}


def compact_action(engine_action: int) -> int:
    """The environment's index of a solo engine action."""
    try:
        return _COMPACT[int(engine_action)]
    except KeyError:
        raise IllegalActionError(
            f"engine action {engine_action!r} is not a solo decision") from None


# ------------------------------------------------------------------------- observation
OBS_FIELDS = SOLO_FIELDS                  # name -> (start, stop) slice of the vector
OBS_SIZE = SOLO_SIZE                      # 199


def encode_view(view) -> np.ndarray:
    """The observation vector of a player's view (a chance-mode solo ``engine.State``)."""
    try:
        return solo_vector(view)
    except ValueError as e:
        raise GameConfigError(str(e)) from None


def action_mask(state) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, np.int8)
    for a in state.legal_actions():
        m[_COMPACT[a]] = 1
    return m


# ------------------------------------------------------------------------- environment
class OnirimSoloEnv(gymnasium.Env):
    """Solo Onirim, one decision per step, seeded by deal.  See the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, render_mode: str | None = None, illegal: str = "noop"):
        if render_mode not in (None, "ansi"):
            raise GameConfigError(f"render_mode: {render_mode!r} (only 'ansi' or None)")
        if illegal not in ("noop", "raise"):
            raise GameConfigError(f"illegal: {illegal!r} (one of 'noop', 'raise')")
        self.render_mode = render_mode
        self.illegal = illegal
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, cards.TOTAL_CARDS, shape=(OBS_SIZE,), dtype=np.int16),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        self.state = None
        self.deal = None

    # the real state is kept in self.state (deal mode); everything returned is from the view
    def _obs_info(self, **extra):
        view = player_view(self.state)
        mask = action_mask(self.state)
        obs = {"observation": encode_view(view), "action_mask": mask}
        info = {"action_mask": mask.copy(), "position": format_position(view),
                "deal": self.deal, **extra}
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        deal = (options or {}).get("deal", seed)
        if deal is None:
            deal = int(self.np_random.integers(0, 2 ** 63))
        if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)) \
                or not 0 <= int(deal) <= MAX_SEED:
            raise GameConfigError(f"deal: must be an integer from 0 to 2**64-1, not {deal!r}")
        self.deal = int(deal)
        self.state = game.Game(1).new_initial_state(seed=self.deal)
        return self._obs_info()

    def step(self, action):
        if self.state is None:
            raise IllegalActionError("step before reset")
        if self.state.is_terminal():
            raise IllegalActionError("the episode is over; call reset()")
        i = int(action)
        a = ENGINE_ACTION[i] if 0 <= i < NUM_ACTIONS else None
        if a is None or a not in self.state.legal_actions():
            if self.illegal == "raise":
                raise IllegalActionError(f"action {action!r} is not legal now")
            obs, info = self._obs_info(illegal_action=True)
            return obs, 0.0, False, False, info
        self.state.apply_action(a)
        done = self.state.is_terminal()
        reward = 1.0 if self.state.won() else 0.0
        obs, info = self._obs_info(illegal_action=False)
        return obs, reward, done, False, info

    def render(self):
        if self.render_mode == "ansi" and self.state is not None:
            return format_position(player_view(self.state))
        return None


def greedy_episode(env, seed: int) -> tuple[bool, list[int]]:
    """Play deal ``seed`` through ``env`` with the greedy policy, deciding from
    ``info["position"]`` only.  Returns (won, the engine actions played)."""
    from engine.notation import parse_position
    from engine.policy import greedy_action
    obs, info = env.reset(seed=seed)
    done, reward, line = False, 0.0, []
    while not done:
        a = greedy_action(parse_position(info["position"]))
        line.append(a)
        obs, reward, done, _, info = env.step(compact_action(a))
    return reward == 1.0, line


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="onirim.gym:OnirimSoloEnv")
