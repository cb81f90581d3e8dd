"""A position as the notation's ordered fields (``docs/NOTATION.md``), and those fields as
the one-line notation.  Reading a position back is ``engine.notation``'s job; this module
needs nothing of the rules, so that ``engine.game`` (``str(state)``), ``engine.view`` (the
player's view) and ``engine.notation`` can all use it without importing one another in a
circle."""
from __future__ import annotations

from . import cards as card_codes


def codes(cards) -> str:
    """Card types as comma-separated codes, ``-`` for none."""
    return ",".join(card_codes.CODES[c] for c in cards) or "-"


def state_fields(state) -> dict:
    """The position as an ordered dict of field -> python value (lists of codes, ints)."""
    duo = state.players == 2
    f: dict = {"mode": "duo" if duo else "solo", "phase": state.phase}
    if duo:
        f["turn"] = state.turn
    if state.phase in ("door", "nightmare"):
        f["drawn"] = card_codes.CODES[state.drawn]
    if state.phase == "reveal":
        f["left"] = state.left
    names = lambda cs: [card_codes.CODES[c] for c in cs]  # noqa: E731
    if duo:
        f["hand0"], f["hand1"] = names(state.hands[0]), names(state.hands[1])
        f["shared"] = names(state.shared)
        f["row0"], f["row1"] = names(state.rows[0]), names(state.rows[1])
        f["doors0"], f["doors1"] = names(state.doors[0]), names(state.doors[1])
    else:
        f["hand"] = names(state.hands[0])
        f["row"] = names(state.rows[0])
        f["doors"] = names(state.doors[0])
    deck = names(state.deck)
    if sum(state.unknown):
        deck.append("*")
    f["deck"] = deck
    f["discard"] = names(state.discard)
    f["limbo"] = names(state.limbo)
    if state.seed is not None:
        f["seed"] = state.seed
        f["shuffles"] = state.shuffles
    return f


def join_fields(fields: dict) -> str:
    """Ordered fields (:func:`state_fields`) as the one-line notation."""
    parts = []
    for k, v in fields.items():
        if isinstance(v, list):
            v = ",".join(v) or "-"
        parts.append(f"{k}={v}")
    return " ".join(parts)
