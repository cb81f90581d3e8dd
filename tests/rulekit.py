"""Shared helpers for the rule-verification tests: build positions from notation, apply actions
by their strings, and count cards.

The helpers only use the public engine API (``parse_position``, ``format_position``,
``State.legal_actions``, ``action_to_string``, ``apply_action``) and the card table of
docs/NOTATION.md section 1, so a test built with them checks the engine from the outside.
"""
from __future__ import annotations

from collections import Counter

from engine import cards as card_codes
from engine import format_position, parse_position

# docs/NOTATION.md section 1, written out again here (not imported) so that a wrong table in the
# engine
# would be caught by test_card_table in test_rules_solo.py.
SPEC_COUNTS = {
    "Os": 9, "Om": 4, "Ok": 3, "As": 8, "Am": 4, "Ak": 3, "Gs": 7, "Gm": 4, "Gk": 3,
    "Ls": 6, "Lm": 4, "Lk": 3, "DO": 2, "DA": 2, "DG": 2, "DL": 2, "N": 10,
}
LIST_FIELDS_SOLO = ("hand", "row", "doors", "deck", "discard", "limbo")
LIST_FIELDS_DUO = ("hand0", "hand1", "shared", "row0", "row1", "doors0", "doors1", "deck",
                   "discard", "limbo")


def _as_list(v) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        v = v.strip()
        return [] if v in ("", "-") else v.split(",")
    return list(v)


def rest_of(*lists) -> list[str]:
    """The cards of the 76 that are not in ``lists`` (codes, in the card order of
    docs/NOTATION.md)."""
    used = Counter()
    for lst in lists:
        used.update(x for x in _as_list(lst) if x != "*")
    out = []
    for code, n in SPEC_COUNTS.items():
        k = n - used[code]
        assert k >= 0, f"test bug: too many {code}"
        out += [code] * k
    return out


def position(mode: str = "solo", **fields) -> str:
    """A notation string.  List fields may be given as lists or comma strings.  If ``discard``
    is omitted, every card not listed elsewhere goes to the discard pile, so that an exact deck
    (no ``*``) is easy to write; ``discard="*rest"`` does the same explicitly."""
    names = LIST_FIELDS_DUO if mode == "duo" else LIST_FIELDS_SOLO
    lists = {k: _as_list(fields.get(k)) for k in names}
    if "discard" not in fields or fields.get("discard") == "*rest":
        deck = lists["deck"]
        assert not (deck and deck[-1] == "*"), "test bug: a rest-discard needs an exact deck"
        others = [v for k, v in lists.items() if k != "discard"]
        if fields.get("drawn"):
            others.append([fields["drawn"]])
        lists["discard"] = rest_of(*others)
    parts = [f"mode={mode}", f"phase={fields.get('phase', 'play')}"]
    for k in ("turn", "drawn", "left"):
        if fields.get(k) is not None:
            parts.append(f"{k}={fields[k]}")
    for k in names:
        parts.append(f"{k}={','.join(lists[k]) or '-'}")
    for k in ("seed", "shuffles"):
        if fields.get(k) is not None:
            parts.append(f"{k}={fields[k]}")
    return " ".join(parts)


def make(mode: str = "solo", **fields):
    """Parse :func:`position` into an engine state."""
    return parse_position(position(mode, **fields))


def legal(state) -> list[str]:
    """The legal actions as strings."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def do(state, *actions: str):
    """Apply actions given by their strings, in place; returns the state for chaining."""
    for text in actions:
        state.apply_action(state.string_to_action(text))
    return state


def after(state, *actions: str):
    """A clone of ``state`` with ``actions`` applied (``state`` itself is untouched)."""
    return do(state.clone(), *actions)


def codes(cards) -> list[str]:
    return [card_codes.CODES[c] for c in cards]


def field(state, name: str) -> str:
    """One field of the state's notation, as text (``-`` for an empty list)."""
    for tok in format_position(state).split():
        k, v = tok.split("=", 1)
        if k == name:
            return v
    raise KeyError(name)


def card_counter(state) -> Counter:
    """Every card of the state, unknown ones included, by code."""
    cnt = Counter()
    for h in state.hands:
        cnt.update(codes(h))
    cnt.update(codes(state.shared))
    for r in state.rows:
        cnt.update(codes(r))
    for d in state.doors:
        cnt.update(codes(d))
    cnt.update(codes(state.deck))
    for t, n in enumerate(state.unknown):
        cnt[card_codes.CODES[t]] += n
    cnt.update(codes(state.discard))
    cnt.update(codes(state.limbo))
    if state.drawn is not None:
        cnt[card_codes.CODES[state.drawn]] += 1
    return cnt


def deck_counts(state) -> list[int]:
    """Multiset of the deck (known prefix + unknown part) as counts by type."""
    counts = list(state.unknown)
    for c in state.deck:
        counts[c] += 1
    return counts


def counts_of(codes_list) -> list[int]:
    counts = [0] * card_codes.NUM_TYPES
    for x in _as_list(codes_list):
        counts[card_codes.INDEX[x]] += 1
    return counts


def random_step(state, rnd) -> int:
    """A random next action: a chance outcome drawn by its probability, or a uniformly random
    legal decision."""
    if state.is_chance_node():
        outs = state.chance_outcomes()
        return rnd.choices([a for a, _ in outs], [p for _, p in outs])[0]
    return rnd.choice(state.legal_actions())


def random_playout(state, rnd):
    """Yield ``state`` and every state after it on a random playout, ending at the terminal
    state (the same object, changed in place)."""
    yield state
    while not state.is_terminal():
        state.apply_action(random_step(state, rnd))
        yield state


def permute_unseen(state, rnd):
    """A copy of the deal-mode ``state`` whose deck cards the player to move does not know
    (below ``engine.view.known_top``) are shuffled by ``rnd``: the same multiset, the same
    view.  The hidden-order tests ask a policy again on it: no decision may change."""
    from engine.view import known_top
    t = state.clone()
    k = known_top(state)
    rest = t.deck[k:]
    rnd.shuffle(rest)
    t.deck[k:] = rest
    return t
