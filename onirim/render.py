"""Plain-text drawing of a position, shared by ``onirim play`` and ``onirim show``.

``render(state, deck_shown=..., width=...)`` returns the board as a list of lines, none
longer than ``width`` (default 80).  ``deck_shown`` is how many cards at the top of the deck
the viewer may see: ``None`` shows every listed card (``onirim show``: the position itself
lists them), a number shows that many (``onirim play``: the cards a prophecy revealed, or
none).  Card codes: ``docs/NOTATION.md``.
"""
from __future__ import annotations

import textwrap

from engine import cards as card_codes
from engine.game import series_length
from engine.rules import PROPHECY_SIZE

WIDTH = 80             # default width of the board
ROW_TAIL = 18          # row cards drawn in full (at most); older ones are summarised
LABEL = 10             # width of the "Phase:    " labels


def codes(cards) -> str:
    return " ".join(card_codes.CODES[c] for c in cards) or "-"


def _series_groups(row):
    """Split a row into its series (lists of cards), oldest first."""
    groups: list[list[int]] = []
    for i, c in enumerate(row):
        n = series_length(row[: i + 1])
        if n == 1:
            groups.append([c])
        else:
            groups[-1].append(c)
    return groups


def wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` wrapped to ``width`` columns (at least 20), ``first`` before the first line
    and ``rest`` (default: as many spaces) before the others; long words are not split."""
    rest = " " * len(first) if rest is None else rest
    return textwrap.wrap(text, width=max(20, width), initial_indent=first,
                         subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False) or [first.rstrip()]


def row_line(row, room: int = 2 * ROW_TAIL * 3) -> str:
    """The row, series separated by ``|``; long rows keep their last cards (as many as fit
    in about ``room`` columns, at most ROW_TAIL)."""
    if not row:
        return "-"
    groups = _series_groups(row)
    shown, count, used = [], 0, 0
    for g in reversed(groups):
        cost = 3 * len(g) + 2
        if (count + len(g) > ROW_TAIL or used + cost > room) and shown:
            break
        shown.append(g)
        count += len(g)
        used += cost
    shown.reverse()
    text = " | ".join(" ".join(card_codes.CODES[c] for c in g) for g in shown)
    hidden = len(row) - count
    if hidden:
        text = f"({hidden} earlier) ... " + text
    last = row[-1]
    n = series_length(row)
    name = card_codes.COLOUR_NAMES[card_codes.colour(last)].split()[0]
    status = "complete" if n == 3 else f"{n}/3"
    tail = f"{name} series {status}; next: no {card_codes.SYMBOL_NAMES[card_codes.symbol(last)]}"
    return f"{text}   [{tail}]"


def discard_line(pile) -> str:
    if not pile:
        return "empty"
    n_sym = [0, 0, 0]
    doors = nightmares = 0
    for c in pile:
        if card_codes.is_location(c):
            n_sym[card_codes.symbol(c)] += 1
        elif card_codes.is_door(c):
            doors += 1
        else:
            nightmares += 1
    parts = [f"{n_sym[card_codes.SUN]} Sun", f"{n_sym[card_codes.MOON]} Moon", f"{n_sym[card_codes.KEY]} Key",
             f"{nightmares} Nightmare"]
    if doors:
        parts.append(f"{doors} Door ({codes(c for c in pile if card_codes.is_door(c))}: lost!)")
    keys = [c for c in pile if card_codes.is_key(c)]
    text = f"{len(pile)} card{'s' if len(pile) != 1 else ''}: " + ", ".join(parts)
    if keys:
        text += f"  (Keys gone: {codes(keys)})"
    return text


def doors_line(doors, of=None) -> str:
    text = f"{len(doors)}" + (f" of {of}" if of else "")
    return text + (f": {codes(sorted(doors))}" if doors else "")


def deck_line(state, deck_shown) -> str:
    size = state.deck_size()
    text = f"{size} card{'s' if size != 1 else ''}"
    listed = list(state.deck)
    k = len(listed) if deck_shown is None else min(deck_shown, len(listed))
    if k:
        text += "; top first: " + codes(listed[:k])
        if k < size:
            text += " ..."
    return text


def phase_line(state) -> str:
    ph = state.phase
    who = f"player {state.turn}: " if state.players == 2 and not state.is_terminal() else ""
    if ph == "play":
        return f"{who}play a card to the row, or discard one (a Key triggers a prophecy)"
    if ph == "prophecy":
        k = min(PROPHECY_SIZE, state.deck_size())
        return (f"{who}prophecy: the top {k} cards are revealed; discard one, put the others "
                "back in any order")
    if ph == "door":
        return (f"{who}a Door {card_codes.CODES[state.drawn]} was drawn: use its Key to take it, or "
                "send it to limbo")
    if ph == "nightmare":
        return f"{who}a Nightmare was drawn: choose its penalty"
    if ph == "draft":
        return f"{who}setup draft: take one card from the centre"
    if ph == "won":
        return "game over: WON, all 8 Doors are in play"
    if ph == "lost":
        return "game over: LOST, the deck ran out"
    return f"{ph} (waiting for a card from the unknown deck)"


def render(state, deck_shown=None, width: int = WIDTH, show_seed: bool = True) -> list[str]:
    """The board as lines of text, none longer than ``width`` (unless a single card list
    cannot be broken).  ``show_seed=False`` leaves the deal's seed out of the title (a
    player's screen: the seed fixes the whole deck order)."""
    lines = []
    duo = state.players == 2
    title = "Onirim, two-player" if duo else "Onirim, solo"
    if show_seed and state.seed is not None:
        title += f", seed {state.seed}"
    lines.append(f"== {title} ==")
    lines.append(f"Phase:    {phase_line(state)}")
    if duo:
        total = sum(len(d) for d in state.doors)
        lines.append(f"Doors:    {total}/8 in play")
        for p in (0, 1):
            mark = "*" if p == state.turn and not state.is_terminal() else " "
            lines.append(f" {mark}player {p}: doors {doors_line(state.doors[p])}")
            lines.extend(_row_lines("    row:   ", state.rows[p], width))
            lines.append(f"    own:   {codes(state.hands[p])}")
        label = "centre" if state.phase == "draft" else "shared"
        lines.append(f"{label.capitalize()}:   {codes(state.shared)}")
    else:
        lines.append(f"Doors:    {doors_line(state.doors[0], 8)}")
        lines.extend(_row_lines("Row:      ", state.rows[0], width))
        lines.append(f"Hand:     {codes(state.hands[0])}")
    if state.drawn is not None:
        lines.append(f"Drawn:    {card_codes.CODES[state.drawn]}")
    lines.extend(wrap(deck_line(state, deck_shown), width, "Deck:     "))
    lines.append(f"Limbo:    {codes(state.limbo)}")
    lines.extend(wrap(discard_line(state.discard), width, "Discard:  "))
    out = []
    for line in lines:      # the phase line and any other long one
        out.extend(wrap(line, width, "", " " * LABEL) if len(line) > width else [line])
    return out


def _row_lines(label: str, row, width: int) -> list[str]:
    """A row line fitted to ``width``: the cards, then the series note on the next line if
    both do not fit on one."""
    room = max(3 * 3, width - len(label))
    text = row_line(row, room)
    if len(label) + len(text) <= width:
        return [label + text]
    cards, _, note = text.rpartition("   [")
    return [label + cards, " " * len(label) + "[" + note]
