"""Position notation, both directions, and the equivalent JSON form.

The notation, the card codes and the two-player fields are documented for users in
``docs/NOTATION.md`` (section 2); this module is its reference implementation.

Solo fields, in output order::

    mode phase [drawn] [left] hand row doors deck discard limbo [seed shuffles]

Two-player fields (``mode=duo``), in output order::

    mode phase turn [drawn] [left] hand0 hand1 shared row0 row1 doors0 doors1 deck discard
    limbo [seed shuffles]

``hand0``/``hand1`` are each player's own cards, ``shared`` the two shared cards (during the
draft: the face-up cards still to be taken, 3 to 8 of them, since the draft ends when each
player holds 3), ``turn`` the active player (the one to draft, in phase ``draft``).

Phases: the decision phases of the notation (``play``, ``prophecy``, ``door``, ``nightmare``), the
two-player ``draft``, the terminal ``won`` and ``lost``, and the engine's chance-node phases,
in which the next card comes from the unknown part of the deck: ``setup`` (drawing the opening
hand), ``refill``, ``redraw`` (nightmare "discard the hand"), ``reveal`` (nightmare "reveal the
top 5", with ``left`` = cards still to reveal) and ``foresee`` (a prophecy whose cards are
being revealed).
"""
from __future__ import annotations

import json

from . import cards as card_codes
from .errors import PlayerViewError, PositionError
from .fields import join_fields, state_fields as _fields
from .game import CHANCE_PHASES, Game, State
from .rng import MAX_SEED
from .rules import (DOORS_TO_WIN, DUO_DRAFT_SIZE, DUO_OWN_SIZE, DUO_SHARED_SIZE, HAND_SIZE,
                    PROPHECY_SIZE)
from .view import HIDDEN, _duo_view_class, observation_fields, observation_text

SOLO_ORDER = ("mode", "phase", "drawn", "left", "hand", "row", "doors", "deck", "discard",
              "limbo", "seed", "shuffles")
DUO_ORDER = ("mode", "phase", "turn", "view", "drawn", "left", "hand0", "hand1", "shared",
             "row0", "row1", "doors0", "doors1", "deck", "discard", "limbo", "seed", "shuffles")
PHASES = ("play", "prophecy", "door", "nightmare", "draft", "won", "lost") + CHANCE_PHASES
LIST_FIELDS = ("hand", "row", "doors", "deck", "discard", "limbo", "hand0", "hand1", "shared",
               "row0", "row1", "doors0", "doors1")


def clip(text: str, limit: int = 40) -> str:
    """User input echoed in an error message, cut short (a 100 KB token is not repeated)."""
    return text if len(text) <= limit else f"{text[:limit - 16]}... ({len(text)} chars)"


VIEWS = ("full", "player")


def format_position(state: State, view: str = "full", player: int | None = None) -> str:
    """The position in the one-line notation (``docs/NOTATION.md``).

    ``view="full"`` (the default) prints the position itself: for a seeded (deal-mode) state
    that is the whole deal, with the deck order, ``seed`` and ``shuffles``, which the player
    does not know.  ``view="player"`` prints only what ``player`` (default: the one to move)
    may know (:func:`engine.view.observation_fields`); a solo one is ready to paste into
    ``onirim best``.  ``State.observation_string()`` defaults to the player's view."""
    if view == "full":
        if player is not None:
            raise ValueError("format_position: player= is for view='player'")
        return join_fields(_fields(state))
    if view == "player":
        return observation_text(state, player)
    raise ValueError(f"format_position: view must be one of {VIEWS}, not {view!r}")


def to_json(state: State, view: str = "full", player: int | None = None) -> dict:
    """The JSON form (``docs/NOTATION.md`` section 2.5); ``view`` and ``player`` as in
    :func:`format_position`."""
    if view == "full":
        if player is not None:
            raise ValueError("to_json: player= is for view='player'")
        return _fields(state)
    if view == "player":
        return observation_fields(state, player)
    raise ValueError(f"to_json: view must be one of {VIEWS}, not {view!r}")


def to_json_string(state: State, view: str = "full", player: int | None = None) -> str:
    return json.dumps(to_json(state, view, player))


# ------------------------------------------------------------------------------- parsing
def _raw_fields(text: str) -> dict:
    if not isinstance(text, str) or not text.strip():
        raise PositionError("position", "empty position")
    raw: dict = {}
    for tok in text.split():
        if "=" not in tok:
            raise PositionError(clip(tok), "expected key=value")
        k, v = tok.split("=", 1)
        if k in raw:
            raise PositionError(clip(k), "field given twice")
        if k in LIST_FIELDS:
            v = [] if v == "-" else v.split(",")
        raw[k] = v
    return raw


def parse_position(text: str) -> State:
    """Parse the one-line notation.  Raises PositionError naming the field and the problem;
    a two-player player's view (the partner's hand as ``?``) is not a position: it raises
    :class:`~engine.errors.PlayerViewError`, which holds the view (:func:`parse_view`)."""
    return _position(from_fields(_raw_fields(text), views=True))


def parse_view(text: str) -> State:
    """Parse the one-line notation of a position *or* of a player's view: a two-player hand
    written ``?,?,?`` (one ``?`` per card the viewer cannot see) gives a duo view
    (``engine.view``: the viewer's information, as ``engine.view.player_view`` makes it),
    anything else the position.  The view's own text (``State.observation_string()``)
    parses back into it."""
    return from_fields(_raw_fields(text), views=True)


def _position(s: State) -> State:
    hidden = getattr(s, "hidden", None)
    if hidden is not None:
        raise PlayerViewError(f"hand{1 - s.viewer}", "a two-player player's view (the "
                              "partner's cards written ?) is not a full position; two-player "
                              "views are not answered yet", view=s)
    return s


def from_json(obj, views: bool = False) -> State:
    """Parse the JSON form (a dict, or a string holding one).  A two-player view (a hand of
    ``"?"``) raises :class:`~engine.errors.PlayerViewError`, unless ``views``: then it is
    returned as :func:`parse_view` does."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as e:
            raise PositionError("json", f"not valid JSON ({e.msg} at char {e.pos})") from None
        except RecursionError:
            raise PositionError("json", "nested too deeply to be a position") from None
        except ValueError as e:     # an integer of 4,300 digits or more
            raise PositionError("json", f"not a position ({clip(str(e), 60)})") from None
    if not isinstance(obj, dict):
        raise PositionError("json", "expected a JSON object")
    raw = {}
    for k, v in obj.items():
        if k in LIST_FIELDS:
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise PositionError(k, "expected a list of card codes")
        elif k in ("seed", "shuffles", "left", "turn", "view"):
            if isinstance(v, bool) or not isinstance(v, int):
                raise PositionError(k, "expected an integer")
            v = str(v)
        elif not isinstance(v, str):
            raise PositionError(clip(k), "expected a string")
        raw[k] = v
    s = from_fields(raw, views=True)
    return s if views else _position(s)


def _card(field: str, code: str) -> int:
    if code not in card_codes.INDEX:
        if code == "*":
            raise PositionError(field, "* stands for the deck's cards of unknown order: it "
                                       "may only be the last item of deck"
                                + (" (it must come last)" if field == "deck" else ""))
        if code == HIDDEN:
            raise PositionError(field, "? (a card the viewer cannot see) is written only for "
                                       "the partner's hand of a two-player view")
        raise PositionError(field, f"unknown card code {clip(code)!r}")
    return card_codes.INDEX[code]


def _int(raw: dict, field: str, lo: int, hi: int):
    if field not in raw:
        return None
    v = raw[field]
    if not (v.isascii() and v.isdigit()):
        raise PositionError(field, f"expected a whole number, not {clip(v)!r}")
    digits = v.lstrip("0")
    if len(digits) > len(str(hi)):      # before int(): Python refuses 4,300 digits and more
        raise PositionError(field, f"{clip(v)} is out of range {lo}..{hi}")
    n = int(v)
    if not lo <= n <= hi:
        raise PositionError(field, f"{n} is out of range {lo}..{hi}")
    return n


def from_fields(raw: dict, views: bool = False) -> State:
    """A position from its fields (lists already split).  With ``views``, a two-player hand
    written all ``?`` gives a duo view (:func:`parse_view`); without, ``?`` is refused as any
    unknown card code."""
    mode = raw.get("mode")
    if mode is None:
        raise PositionError("mode", "missing (solo or duo)")
    if mode not in ("solo", "duo"):
        raise PositionError("mode", f"unknown mode {clip(mode)!r} (solo or duo)")
    duo = mode == "duo"
    order = DUO_ORDER if duo else SOLO_ORDER
    for k in raw:
        if k not in order:
            raise PositionError(clip(k), f"unknown field for mode={mode}")
    phase = raw.get("phase")
    if phase is None:
        raise PositionError("phase", "missing")
    if phase not in PHASES or (phase == "draft" and not duo):
        raise PositionError("phase", f"unknown phase {clip(phase)!r}")
    required = (["hand0", "hand1", "shared", "row0", "row1", "doors0", "doors1", "turn"]
                if duo else ["hand", "row", "doors"]) + ["deck", "discard", "limbo"]
    for k in required:
        if k not in raw:
            raise PositionError(k, "missing")

    # a player's view: the partner's unknown cards written as one ? each, after the known
    # ones, or view=P when the viewer knows every card of the partner (two-player only)
    hidden_seat, hidden = None, 0
    if duo and views:
        for p in (0, 1):
            vals = raw[f"hand{p}"]
            if HIDDEN in vals:
                if vals[vals.index(HIDDEN):] != [HIDDEN] * vals.count(HIDDEN):
                    raise PositionError(f"hand{p}", "the partner's unknown cards are written "
                                                    "one ? per card, after its known cards")
                if hidden_seat is not None:
                    raise PositionError("hand1", "both hands are hidden (?); a view hides "
                                                 "only the partner's hand")
                hidden_seat, hidden = p, vals.count(HIDDEN)
    if "view" in raw:
        if not (duo and views):
            raise PositionError("view", "only in a two-player player's view")
        seat = _int(raw, "view", 0, 1)
        if hidden_seat not in (None, 1 - seat):
            raise PositionError("view", f"player {seat}'s view hides hand{seat}")
        hidden_seat = 1 - seat

    def cards(field):
        own = hidden_seat is not None and field == f"hand{hidden_seat}"
        return [_card(field, x) for x in raw[field] if not (own and x == HIDDEN)]

    s = State(Game(2 if duo else 1))
    s.phase = phase
    if duo:
        s.hands = [sorted(cards("hand0")), sorted(cards("hand1"))]
        s.shared = sorted(cards("shared"))
        s.rows = [cards("row0"), cards("row1")]
        s.doors = [sorted(cards("doors0")), sorted(cards("doors1"))]
        s.turn = _int(raw, "turn", 0, 1)
    else:
        s.hands = [sorted(cards("hand"))]
        s.rows = [cards("row")]
        s.doors = [sorted(cards("doors"))]
    deck = list(raw["deck"])
    star = bool(deck) and deck[-1] == "*"
    if star:
        deck.pop()
    if "*" in deck:
        raise PositionError("deck", "* must come last: it stands for the rest of the deck, "
                                    "below the listed cards")
    s.deck = [_card("deck", x) for x in deck]
    s.discard = sorted(cards("discard"))
    s.limbo = sorted(cards("limbo"))
    if phase in ("door", "nightmare"):
        if "drawn" not in raw:
            raise PositionError("drawn", f"missing in phase {phase}")
        s.drawn = _card("drawn", raw["drawn"])
    elif "drawn" in raw:
        raise PositionError("drawn", f"only in phases door and nightmare, not {phase}")
    if phase == "reveal":
        if "left" not in raw:
            raise PositionError("left", "missing in phase reveal")
        s.left = _int(raw, "left", 1, PROPHECY_SIZE)
    elif "left" in raw:
        raise PositionError("left", "only in phase reveal")
    if "seed" in raw:
        s.seed = _int(raw, "seed", 0, MAX_SEED)
        s.shuffles = _int(raw, "shuffles", 0, 10**9) or 0
    elif "shuffles" in raw:
        raise PositionError("shuffles", "given without seed")

    # ---- card conservation
    counts = [0] * card_codes.NUM_TYPES
    zones = [("deck", s.deck), ("discard", s.discard), ("limbo", s.limbo)]
    if duo:
        zones += [("hand0", s.hands[0]), ("hand1", s.hands[1]), ("shared", s.shared),
                  ("row0", s.rows[0]), ("row1", s.rows[1]), ("doors0", s.doors[0]),
                  ("doors1", s.doors[1])]
    else:
        zones += [("hand", s.hands[0]), ("row", s.rows[0]), ("doors", s.doors[0])]
    if s.drawn is not None:
        zones.append(("drawn", [s.drawn]))
    for field, zone in zones:
        for c in zone:
            counts[c] += 1
            if counts[c] > card_codes.COUNTS[c]:
                raise PositionError(field, f"too many {card_codes.CODES[c]}: the game has "
                                           f"{card_codes.COUNTS[c]}")
    missing = [card_codes.COUNTS[t] - counts[t] for t in range(card_codes.NUM_TYPES)]
    if hidden_seat is not None:
        field = f"hand{hidden_seat}"
        free = sum(n for t, n in enumerate(missing) if card_codes.is_location(t))
        if free < hidden:
            raise PositionError(field, f"{hidden} hidden cards (?), but only {free} "
                                       "Locations are unaccounted for")
        if not star and sum(missing) != hidden:
            raise PositionError("deck", f"{sum(missing)} cards are unaccounted for and the "
                                        f"partner hides {hidden}; list the deck or end it "
                                        "with *")
        s.unknown = missing
        s.hidden = hidden
        s.viewer = 1 - hidden_seat
        s.__class__ = _duo_view_class(State)
    elif star:
        s.unknown = missing
    elif any(missing):
        miss = ",".join(f"{n}x{card_codes.CODES[t]}" for t, n in enumerate(missing) if n)
        raise PositionError("deck", f"cards unaccounted for ({miss}); list them or end the "
                                    "deck with *")
    _validate(s, duo)
    return s


def _validate(s: State, duo: bool) -> None:
    hidden_seat = 1 - s.viewer if getattr(s, "hidden", None) is not None else None

    def held(p: int) -> int:      # cards in hand p, the hidden ones (a view) counted
        return len(s.hands[p]) + (s.hidden if p == hidden_seat else 0)

    hand_fields = ("hand0", "hand1") if duo else ("hand",)
    for p, field in enumerate(hand_fields):
        for c in s.hands[p]:
            if not card_codes.is_location(c):
                raise PositionError(field, f"{card_codes.CODES[c]} is not a Location; only Locations "
                                           "are held")
    if duo:
        for c in s.shared:
            if not card_codes.is_location(c):
                raise PositionError("shared", f"{card_codes.CODES[c]} is not a Location")
    row_fields = ("row0", "row1") if duo else ("row",)
    for p, field in enumerate(row_fields):
        row = s.rows[p]
        for i, c in enumerate(row):
            if not card_codes.is_location(c):
                raise PositionError(field, f"{card_codes.CODES[c]} is not a Location")
            if i and card_codes.symbol(c) == card_codes.symbol(row[i - 1]):
                raise PositionError(field, f"{card_codes.CODES[row[i - 1]]} then {card_codes.CODES[c]}: two "
                                           "cards in a row share a symbol")
    door_fields = ("doors0", "doors1") if duo else ("doors",)
    for p, field in enumerate(door_fields):
        ds = s.doors[p]
        for c in ds:
            if not card_codes.is_door(c):
                raise PositionError(field, f"{card_codes.CODES[c]} is not a Door")
        if duo and len(set(ds)) != len(ds):
            raise PositionError(field, "a player holds at most one Door of each colour")
    for c in s.limbo:
        if card_codes.is_location(c):
            raise PositionError("limbo", f"{card_codes.CODES[c]}: only Doors and Nightmares go to limbo")
    ndoors = sum(len(d) for d in s.doors)
    ph = s.phase
    if ph == "won":
        if ndoors != DOORS_TO_WIN:
            raise PositionError("phase", f"won needs all {DOORS_TO_WIN} Doors in play, "
                                         f"not {ndoors}")
        return
    if ndoors == DOORS_TO_WIN:
        raise PositionError("phase", f"all {DOORS_TO_WIN} Doors are in play: the phase must "
                                     "be won")
    if ph == "lost":
        if s.deck_size():
            raise PositionError("phase", "lost needs an empty deck")
        return
    # hand sizes by phase
    if duo:
        h = held(s.turn) + len(s.shared)
        other = 1 - s.turn
        if ph == "draft":
            if (held(0) + held(1) + len(s.shared) != DUO_DRAFT_SIZE
                    or len(s.shared) <= DUO_SHARED_SIZE):
                # the draft ends when each player holds 3 (ruling D1): at 2 left it is over
                raise PositionError("shared", f"the draft holds {DUO_DRAFT_SIZE} Locations in "
                                              f"all, {DUO_SHARED_SIZE + 1} or more still in "
                                              "the centre")
            picks = held(0) + held(1)
            if held(0) - held(1) != picks % 2 or s.turn != picks % 2:
                raise PositionError("turn", "players draft alternately, player 0 first")
        else:
            if ph != "setup" and held(other) != DUO_OWN_SIZE:
                raise PositionError(f"hand{other}",
                                    f"the waiting player holds {DUO_OWN_SIZE} cards")
            if held(s.turn) > DUO_OWN_SIZE:
                raise PositionError(f"hand{s.turn}",
                                    f"a player holds at most {DUO_OWN_SIZE} own cards")
            if ph == "setup":
                if held(0) or held(1) or len(s.shared) >= DUO_DRAFT_SIZE:
                    raise PositionError("shared", f"setup lays out fewer than {DUO_DRAFT_SIZE} "
                                                  "Locations in the centre, before any player "
                                                  "holds cards")
            elif len(s.shared) > DUO_SHARED_SIZE:
                raise PositionError("shared", f"at most {DUO_SHARED_SIZE} shared cards")
    else:
        h = len(s.hands[0])
        if h > HAND_SIZE:
            raise PositionError("hand", f"{h} cards: a hand holds at most {HAND_SIZE}")
    hand_field = f"hand{s.turn}" if duo else "hand"
    if ph == "play":
        if h != HAND_SIZE:
            raise PositionError(hand_field, f"phase play needs {HAND_SIZE} Locations in hand, "
                                            f"not {h}")
    elif ph in ("prophecy", "foresee"):
        if h != HAND_SIZE - 1:
            raise PositionError(hand_field, f"phase {ph} comes after a discard: "
                                            f"{HAND_SIZE - 1} cards, not {h}")
    elif ph in ("door", "nightmare", "refill"):
        if h >= HAND_SIZE:
            raise PositionError(hand_field, f"phase {ph} happens while refilling: fewer than "
                                            f"{HAND_SIZE} cards, not {h}")
    if ph in ("play", "prophecy", "foresee", "draft") and s.limbo:
        raise PositionError("limbo", f"limbo is empty in phase {ph}")
    if ph == "prophecy":
        k = min(PROPHECY_SIZE, s.deck_size())
        if k == 0:
            raise PositionError("deck", "a prophecy needs at least one card in the deck")
        if len(s.deck) < k and s.turn != hidden_seat:   # the partner did not see them
            raise PositionError("deck", f"phase prophecy: the {k} revealed cards must be "
                                        "listed on top of the deck")
    if ph == "foresee":
        if len(s.deck) >= min(PROPHECY_SIZE, s.deck_size()):
            raise PositionError("phase", "foresee: every card to reveal is known; use "
                                         "phase prophecy")
    if ph == "door":
        if not card_codes.is_door(s.drawn):
            raise PositionError("drawn", f"phase door needs a Door, not {card_codes.CODES[s.drawn]}")
        col = card_codes.colour(s.drawn)
        if card_codes.key_of(col) not in s.active_hand() and s.turn != hidden_seat:
            raise PositionError(hand_field, f"phase door needs a {card_codes.CODES[card_codes.key_of(col)]} "
                                            "in hand")
        if duo and s.drawn in s.doors[s.turn]:
            raise PositionError("drawn", "the active player already has a Door of that "
                                         "colour")
    if ph == "nightmare" and s.drawn != card_codes.NIGHTMARE:
        raise PositionError("drawn", f"phase nightmare needs N, not {card_codes.CODES[s.drawn]}")
    if ph in CHANCE_PHASES and ph != "foresee":
        if ph == "reveal":
            if s.left > s.deck_size():
                raise PositionError("left", "more cards to reveal than the deck holds")
            if s.deck:
                raise PositionError("deck", f"phase {ph} waits for an unknown card: no "
                                            "listed cards on top")
        elif s.deck or not sum(s.unknown):
            raise PositionError("deck", f"phase {ph} waits for an unknown card: the deck "
                                        "must be * with no listed cards on top")
