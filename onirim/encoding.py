"""Fixed-size numeric encodings of what a player may know (no hidden card order, no seed).

Used by ``onirim.gym`` (the observation of ``OnirimSolo-v0``) and by ``onirim.openspiel``
(``observation_tensor``).  Only numpy is needed.

Solo (:data:`SOLO_FIELDS`, 199 numbers), from ``engine.view.player_view(state)``::

    phase        4   one-hot: play, prophecy, door, nightmare
    drawn       17   one-hot card type of the Door or Nightmare being resolved
    hand        12   count of each Location type in hand
    row         12   count of each Location type in the row
    row_last    12   one-hot type of the last card of the row
    series       1   length 0..3 of the row's last series
    doors        4   Doors in play of each colour
    discard     17   count of each card type in the discard pile
    limbo       17   count of each card type in limbo
    known_top   85   5 slots x 17: the known top cards of the deck, top first (the revealed
                     cards of a prophecy, then the cards it put back until they are drawn)
    unknown     17   count of each card type in the rest of the deck (order unknown)
    deck_size    1   cards in the deck

Two-player (:data:`DUO_FIELDS`, 243 numbers), as player ``p`` sees the position: the same
ideas, with ``own``/``partner`` blocks (the partner's hand as its size only), ``my_turn``,
the shared cards, the draft phase, and ``unknown`` = every card whose place ``p`` does not
know (the unknown deck and the partner's hand).
"""
from __future__ import annotations

import numpy as np

from engine import cards
from engine import game
from engine.view import known_top


def _layout(fields):
    out, n = {}, 0
    for name, size in fields:
        out[name] = (n, n + size)
        n += size
    return out, n


SOLO_PHASES = ("play", "prophecy", "door", "nightmare")
SOLO_FIELDS, SOLO_SIZE = _layout((
    ("phase", 4), ("drawn", 17), ("hand", 12), ("row", 12), ("row_last", 12), ("series", 1),
    ("doors", 4), ("discard", 17), ("limbo", 17), ("known_top", 85), ("unknown", 17),
    ("deck_size", 1)))

DUO_PHASES = ("play", "prophecy", "door", "nightmare", "draft")
DUO_FIELDS, DUO_SIZE = _layout((
    ("phase", 5), ("my_turn", 1), ("drawn", 17), ("hand", 12), ("shared", 12),
    ("partner_hand_size", 1), ("row", 12), ("row_last", 12), ("series", 1),
    ("partner_row", 12), ("partner_row_last", 12), ("partner_series", 1), ("doors", 4),
    ("partner_doors", 4), ("discard", 17), ("limbo", 17), ("known_top", 85),
    ("unknown", 17), ("deck_size", 1)))


class _Writer:
    def __init__(self, fields, size, dtype):
        self.fields = fields
        self.x = np.zeros(size, dtype)

    def add(self, name, i=0, v=1):
        self.x[self.fields[name][0] + i] += v

    def row(self, prefix, row):
        for c in row:
            self.add(prefix + "row", c)
        if row:
            self.add(prefix + "row_last", row[-1])
            self.add(prefix + "series", 0, game.series_length(row))


def solo_vector(view, dtype=np.int16) -> np.ndarray:
    """The solo encoding of a player's view (a chance-mode solo ``engine.State``, as
    returned by ``engine.view.player_view``)."""
    if view.seed is not None or view.players != 1:
        raise ValueError("solo_vector: needs a solo player's view (engine.view.player_view)")
    if len(view.deck) > 5:
        raise ValueError(f"solo_vector: {len(view.deck)} known deck cards (at most 5)")
    w = _Writer(SOLO_FIELDS, SOLO_SIZE, dtype)
    if view.phase in SOLO_PHASES:
        w.add("phase", SOLO_PHASES.index(view.phase))
    if view.drawn is not None:
        w.add("drawn", view.drawn)
    for c in view.hands[0]:
        w.add("hand", c)
    w.row("", view.rows[0])
    for d in view.doors[0]:
        w.add("doors", cards.colour(d))
    for c in view.discard:
        w.add("discard", c)
    for c in view.limbo:
        w.add("limbo", c)
    for i, c in enumerate(view.deck):
        w.add("known_top", 17 * i + c)
    for t, n in enumerate(view.unknown):
        w.add("unknown", t, n)
    w.add("deck_size", 0, view.deck_size())
    return w.x


def duo_vector(state, player: int, seer: int, dtype=np.float32) -> np.ndarray:
    """The two-player encoding of ``state`` as ``player`` sees it; ``seer`` is the player who
    saw the deck's known top cards (see ``onirim.openspiel``)."""
    w = _Writer(DUO_FIELDS, DUO_SIZE, dtype)
    partner = 1 - player
    if state.phase in DUO_PHASES:
        w.add("phase", DUO_PHASES.index(state.phase))
    if not state.is_terminal() and state.turn == player:
        w.add("my_turn")
    if state.drawn is not None:
        w.add("drawn", state.drawn)
    for c in state.hands[player]:
        w.add("hand", c)
    for c in state.shared:
        w.add("shared", c)
    w.add("partner_hand_size", 0, len(state.hands[partner]))
    w.row("", state.rows[player])
    w.row("partner_", state.rows[partner])
    for d in state.doors[player]:
        w.add("doors", cards.colour(d))
    for d in state.doors[partner]:
        w.add("partner_doors", cards.colour(d))
    for c in state.discard:
        w.add("discard", c)
    for c in state.limbo:
        w.add("limbo", c)
    k = min(known_top(state), 5) if player == seer else 0
    for i, c in enumerate(state.deck[:k]):
        w.add("known_top", 17 * i + c)
    hidden = list(state.unknown)
    for c in state.deck[k:]:
        hidden[c] += 1
    for c in state.hands[partner]:
        hidden[c] += 1
    for t, n in enumerate(hidden):
        w.add("unknown", t, n)
    w.add("deck_size", 0, state.deck_size())
    return w.x
