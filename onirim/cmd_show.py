"""``onirim show "<position>" [--json]``: draw a position and print its canonical notation.

The position is the one-line notation of docs/NOTATION.md, or its JSON form when the argument
starts with ``{``.  With ``--json`` only the JSON form is printed (one object on one line).
"""
from __future__ import annotations

import json

from engine.errors import OnirimError, PositionError
from engine.notation import format_position, from_json, parse_position, to_json

from .render import render


def add_arguments(parser):
    parser.add_argument("position", help="position notation, or its JSON form (starts with {)")
    parser.add_argument("--json", action="store_true", help="print the JSON form only")


def load_position(text: str):
    """Parse notation or JSON (PositionError on bad input)."""
    try:
        if text.lstrip().startswith("{"):
            return from_json(text)
        return parse_position(text)
    except OnirimError:
        raise
    except ValueError as e:
        # the parser should raise PositionError for every bad input; a stray ValueError (e.g.
        # int('²') after str.isdigit() accepted it) still becomes one line, not a traceback
        raise PositionError("position", f"cannot read it ({e})") from None


def run(args) -> int:
    state = load_position(args.position)
    if args.json:
        print(json.dumps(to_json(state)))
        return 0
    for line in render(state, deck_shown=None):
        print(line)
    print()
    print(format_position(state))
    return 0
