"""What a player may know: the information state of a position.

A solo player sees its hand, the row, the Doors in play, the discard pile, the limbo, the
number of cards in the deck, and any deck cards it has seen and that have not been shuffled
away since: the cards a prophecy put back on top (``State.known_top``), and in phase
``prophecy`` the revealed cards.  It never sees the order of the rest of the deck, nor the
seed that will decide future shuffles.

:func:`player_view` turns any position into a chance-mode position that holds exactly that:
the known top cards are listed in ``deck``, every other deck card is in ``unknown`` (counts
only), and ``seed`` is dropped.  A policy that decides from the view cannot read the hidden
order, whatever it does; ``tests/test_view.py`` checks that permuting the unknown part of the
deck leaves the view, and every registered policy's decision, unchanged.

Two-player views (a partner's hand is hidden too) are not written yet: they raise
:class:`~engine.errors.GameConfigError`.
"""
from __future__ import annotations

from . import cards as C
from .errors import GameConfigError


def known_top(state) -> int:
    """How many cards at the top of ``state.deck`` the player to move knows."""
    if state.seed is None:
        return len(state.deck)       # chance mode: the listed deck is the known part
    k = state.known_top
    if state.phase == "prophecy":
        k = max(k, min(5, state.deck_size()))
    return min(k, len(state.deck))


def player_view(state, player: int | None = None):
    """A copy of ``state`` that holds only what ``player`` (default: the one to move) may
    know, as a chance-mode position: unknown deck cards become counts, ``seed`` is dropped.

    The view has the same legal actions as ``state`` at every decision.  Its ``history`` is
    the player's own list of actions, which it knows.
    """
    if state.players != 1:
        raise GameConfigError("player_view: two-player views are not implemented yet")
    if player not in (None, 0):
        raise GameConfigError(f"player_view: no player {player!r} in a solo game")
    v = state.clone()
    if state.seed is None:
        return v
    k = known_top(state)
    hidden = [0] * C.NUM_TYPES
    for c in state.deck[k:]:
        hidden[c] += 1
    v.deck = list(state.deck[:k])
    v.unknown = [a + b for a, b in zip(state.unknown, hidden)]
    v.seed = None
    v.shuffles = 0
    v.known_top = 0
    return v


def information_key(state, player: int | None = None) -> tuple:
    """A hashable key of what ``player`` may know (equal keys: the same information)."""
    return player_view(state, player)._key()
