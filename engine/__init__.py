"""onirim engine: the readable pure-Python reference of the rules of Onirim."""
from . import cards
from .errors import GameConfigError, IllegalActionError, OnirimError, PositionError, SeedError
from .game import CHANCE, DUO_RULINGS, NUM_ACTIONS, TERMINAL, Game, State, series_length
from .notation import format_position, from_json, parse_position, to_json

__all__ = ["cards", "Game", "State", "CHANCE", "TERMINAL", "NUM_ACTIONS", "DUO_RULINGS",
           "OnirimError", "GameConfigError", "PositionError", "IllegalActionError", "SeedError",
           "format_position", "parse_position", "to_json", "from_json", "series_length"]
