"""Onirim as an OpenSpiel game: ``python_onirim`` (optional extra ``onirim[openspiel]``).

Importing this module registers the game with ``pyspiel.register_game``; after that
``pyspiel.load_game("python_onirim")`` (or ``"python_onirim(players=2,seed=7)"``) works like
for any other game::

    import pyspiel
    import onirim.openspiel  # noqa: F401  (registers python_onirim)
    game = pyspiel.load_game("python_onirim(seed=-1)")

Parameters
----------
``players``  1 (solo, default) or 2 (two-player cooperative).
``seed``     ``-1`` (default): **chance mode**: every card taken from the unknown part of the
             deck is an explicit chance node (outcome ``engine.game.DRAW + card type``, with
             the probabilities of ``engine.State.chance_outcomes``), so honest Onirim is a
             stochastic game that any OpenSpiel algorithm can search.  ``0 .. 2**31-1``:
             **deal mode**: that deal of ``engine.rng`` (the same deal as ``onirim winrate
             --seed``); the deck order and every shuffle are fixed by the seed and the game has
             no chance node.  (OpenSpiel's integer parameters are 32-bit; larger deals are
             reachable through :func:`state_from_engine`.)

The state wraps an :class:`engine.State` and copies no rule: legal actions, chance outcomes,
action strings, transitions and returns are the engine's.  Action integers are the engine's
fixed layout (``num_distinct_actions() == engine.game.NUM_ACTIONS``); chance outcomes are
action integers of the same space, so ``max_chance_outcomes()`` is ``NUM_ACTIONS`` as well.

Information
-----------
``observation_string(p)`` holds only what player ``p`` may know:

* solo: ``engine.format_position(engine.view.player_view(state))``, the notation
  (docs/NOTATION.md) of the player's view (the deck is its known top cards followed by ``*``; no seed);
* two-player: the same fields in the one spelling of ``docs/NOTATION.md`` for hidden cards:
  each card of the partner's hand is ``?`` (``hand1=?,?,?``), the deck's known top cards (a
  prophecy's kept cards) are shown only to the player who saw them, and the rest of the deck
  is ``*``; ``player=`` names the viewer.

``information_state_string(p)`` is that observation followed by the list of every decision
made so far (all players' actions are public moves; chance outcomes are not listed, the player
sees what they changed through the observation).

``observation_tensor(p)`` is the fixed-size encoding of the same knowledge
(``onirim.encoding``: 199 numbers solo, 243 two-player); no information-state tensor.

Bound on the game length (``max_game_length``), with chance nodes: every turn moves at least
one of the 58 Locations from a hand to the row or the discard pile for good, so there are at
most 58 turns.  In one turn there are at most 2 decisions before the refill (play or discard,
prophecy), at most 5 revealed prophecy cards, and the refill draws at most 5 Locations plus 18
Doors and Nightmares (a drawn Door or Nightmare leaves the deck until the end of the turn), each
with at most one decision; each of the at most 10 Nightmares may add 5 reveals or a redraw of
5 Locations.  That is below 2 + 5 + 5 + 18 + 18 + 10 * 5 = 98 moves a turn, 5,684 in all, plus
the setup (at most 8 + 18 draws and 6 draft picks): the bound declared is 6,000.
"""
from __future__ import annotations

import numpy as np

from onirim.extras import require

pyspiel = require("pyspiel", "openspiel", "open-spiel", "onirim.openspiel")

from engine import cards  # noqa: E402
from engine import game as game_rules
from engine.errors import GameConfigError
from engine.notation import format_position
from engine.view import known_top, player_view
from onirim.encoding import DUO_FIELDS, DUO_SIZE, SOLO_FIELDS, SOLO_SIZE, duo_vector, solo_vector

GAME_NAME = "python_onirim"
MAX_GAME_LENGTH = 6000
MAX_PARAM_SEED = 2 ** 31 - 1

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Onirim (solo and two-player cooperative)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={"players": 1, "seed": -1},
)


def _game_info(players: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=game_rules.NUM_ACTIONS,
        max_chance_outcomes=game_rules.NUM_ACTIONS,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=MAX_GAME_LENGTH)


class OnirimGame(pyspiel.Game):
    """``python_onirim``: wraps :class:`engine.Game`."""

    def __init__(self, params=None):
        params = dict(params or {})
        players = params.get("players", 1)
        seed = params.get("seed", -1)
        if isinstance(players, bool) or not isinstance(players, int) or players not in (1, 2):
            raise GameConfigError(f"players: must be 1 or 2, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -1 <= seed <= MAX_PARAM_SEED:
            raise GameConfigError(f"seed: must be -1 (chance mode) or a deal 0..2**31-1, "
                                  f"not {seed!r}")
        super().__init__(_GAME_TYPE, _game_info(players), params)
        self.engine_game = game_rules.Game(players)
        self.seed = None if seed == -1 else seed

    def new_initial_state(self):
        return OnirimState(self, self.engine_game.new_initial_state(seed=self.seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise GameConfigError(f"observer: no parameters are supported, got {params!r}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return OnirimObserver(perfect_recall=recall, players=self.engine_game.players)


class OnirimState(pyspiel.State):
    """An OpenSpiel state around an :class:`engine.State` (``self.engine``)."""

    def __init__(self, game, engine_state=None):
        super().__init__(game)
        if engine_state is None:
            engine_state = game.engine_game.new_initial_state(seed=game.seed)
        self.engine = engine_state
        # Two-player: the player who saw the known top of the deck (a prophecy's kept cards).
        self.seer = engine_state.turn

    # ---------------------------------------------------------------- OpenSpiel API
    def current_player(self):
        p = self.engine.current_player()
        if p == game_rules.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if p == game_rules.CHANCE:
            return pyspiel.PlayerId.CHANCE
        return p

    def _legal_actions(self, player):
        return self.engine.legal_actions()

    def chance_outcomes(self):
        return self.engine.chance_outcomes()

    def _apply_action(self, action):
        action = int(action)
        if game_rules.PROPHECY <= action < game_rules.DOOR_KEY and not self.engine.is_chance_node():
            self.seer = self.engine.turn
        self.engine.apply_action(action)

    def _action_to_string(self, player, action):
        return self.engine.action_to_string(int(action))

    def is_terminal(self):
        return self.engine.is_terminal()

    def returns(self):
        return self.engine.returns()

    def __str__(self):
        return format_position(self.engine)


class OnirimObserver:
    """The PyObserver of ``python_onirim``.  Strings: see the module docstring.  Tensor (the
    observation tensor; no information-state tensor is offered): ``onirim.encoding``'s
    ``solo_vector`` of the player's view, or ``duo_vector``, as float32, with ``dict`` holding
    its named slices."""

    def __init__(self, perfect_recall: bool, players: int = 1):
        self.perfect_recall = perfect_recall
        self.players = players
        fields, size = (SOLO_FIELDS, SOLO_SIZE) if players == 1 else (DUO_FIELDS, DUO_SIZE)
        self.tensor = np.zeros(0 if perfect_recall else size, np.float32)
        self.dict = {} if perfect_recall else {
            name: self.tensor[a:b] for name, (a, b) in fields.items()}

    def set_from(self, state, player):
        if self.perfect_recall:
            return
        if self.players == 1:
            self.tensor[:] = solo_vector(player_view(state.engine))
        else:
            self.tensor[:] = duo_vector(state.engine, player, _seer(state))

    def string_from(self, state, player):
        obs = observation_string(state.engine, player, _seer(state))
        if not self.perfect_recall:
            return obs
        decisions = [a for a in state.engine.history() if a < game_rules.DRAW]
        return obs + " decisions=" + (",".join(map(str, decisions)) or "-")


def _seer(state) -> int:
    e = state.engine
    return e.turn if e.phase in ("prophecy", "foresee") else state.seer


def observation_string(engine_state, player: int, seer: int | None = None) -> str:
    """What ``player`` may know of ``engine_state``, in position notation (see the module).

    ``seer`` (two-player): the player who saw the known top cards of the deck (default: the
    player to move)."""
    if engine_state.players == 1:
        return format_position(player_view(engine_state))
    return _duo_observation(engine_state, player,
                            engine_state.turn if seer is None else seer)


def _duo_observation(s, player: int, seer: int) -> str:
    k = known_top(s) if player == seer else 0
    names = lambda cs: ",".join(cards.CODES[c] for c in cs) or "-"  # noqa: E731
    parts = [f"mode=duo player={player}", f"phase={s.phase}", f"turn={s.turn}"]
    if s.phase in ("door", "nightmare"):
        parts.append(f"drawn={cards.CODES[s.drawn]}")
    if s.phase == "reveal":
        parts.append(f"left={s.left}")
    for q in (0, 1):
        parts.append(f"hand{q}={names(s.hands[q])}" if q == player
                     else f"hand{q}={','.join(['?'] * len(s.hands[q])) or '-'}")
    parts.append(f"shared={names(s.shared)}")
    parts += [f"row{q}={names(s.rows[q])}" for q in (0, 1)]
    parts += [f"doors{q}={names(s.doors[q])}" for q in (0, 1)]
    deck = [cards.CODES[c] for c in s.deck[:k]]
    if s.deck_size() > k:
        deck.append("*")
    parts.append(f"deck={','.join(deck) or '-'}")
    parts.append(f"discard={names(s.discard)}")
    parts.append(f"limbo={names(s.limbo)}")
    return " ".join(parts)


pyspiel.register_game(_GAME_TYPE, OnirimGame)
