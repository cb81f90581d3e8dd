"""An independent brute-force expectimax over the engine's own State API.

No pruning, no packing, no reduction: the value of a state is 1 or 0 at the end of the game,
the maximum over ``legal_actions()`` at a decision, and the probability-weighted sum over
``chance_outcomes_exact()`` at a chance node.  Values are exact Fractions.  Only for tiny
decks: the tree is walked in full.  ``NodeCap`` is raised when a walk exceeds ``cap`` nodes.

One memo per call, keyed on the engine's whole position (:func:`_memo_key`: ``State._key()``,
which is every field the rules read but the history, plus the known top of the deck and the
cards each player saw): a position reached again by another order of moves has the same
value, so its value is taken from the memo, and the nodes its walk counted are counted again,
so that ``NodeCap`` is raised on exactly the positions where the walk without the memo
(``memo=False``) exceeds ``cap``.  ``tests/solver/expectimax/test_naive_memo.py`` checks both
on random positions: the same values and the same positions capped.
"""
from __future__ import annotations

from fractions import Fraction

from engine.game import State


class NodeCap(Exception):
    pass


def value(state: State, cap: int = 200_000, memo: bool = True) -> Fraction:
    counter = [0]
    return _value(_chance_mode(state), counter, cap, {} if memo else None)


def _chance_mode(state: State) -> State:
    if state.seed is None:
        return state
    s = state.clone()
    s.seed = None
    s.shuffles = 0
    return s


def _memo_key(state: State) -> tuple:
    return state._key(), state.known_top, tuple(map(tuple, state.seen))


def _value(state: State, counter: list, cap: int, memo: dict | None) -> Fraction:
    if memo is not None:
        key = _memo_key(state)
        hit = memo.get(key)
        if hit is not None:
            counter[0] += hit[1]
            if counter[0] > cap:
                raise NodeCap(cap)
            return hit[0]
    start = counter[0]
    counter[0] += 1
    if counter[0] > cap:
        raise NodeCap(cap)
    if state.is_terminal():
        v = Fraction(1) if state.won() else Fraction(0)
    elif state.is_chance_node():
        v = Fraction(0)
        for a, p in state.chance_outcomes_exact():
            child = state.clone()
            child.apply_action(a)
            v += p * _value(child, counter, cap, memo)
    else:
        v = Fraction(0)
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            w = _value(child, counter, cap, memo)
            if w > v:
                v = w
    if memo is not None:
        memo[key] = (v, counter[0] - start)
    return v


def action_values(state: State, cap: int = 200_000, memo: bool = True) -> dict[str, Fraction]:
    """{action string: value} for every legal action of a decision state (each its own walk,
    ``cap`` nodes each)."""
    state = _chance_mode(state)
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[state.action_to_string(a)] = value(child, cap, memo)
    return out


# ------------------------------------------------------------------ random small positions
import random as _random  # noqa: E402

from engine import cards   # noqa: E402
from engine.errors import PositionError  # noqa: E402
from engine.notation import parse_position  # noqa: E402

_PHASES = ("play", "play", "play", "play", "prophecy", "prophecy", "door", "nightmare",
           "nightmare", "refill", "redraw", "reveal", "foresee")


def _take(pool: list[int], t: int) -> bool:
    if pool[t] > 0:
        pool[t] -= 1
        return True
    return False


def random_position(rng: _random.Random, max_deck: int = 5) -> str | None:
    """A random solo position with a tiny deck: most cards in the discard pile, one to three
    Doors missing.  Returns the notation, or None when the draw broke a rule (the caller
    retries); every returned string parses with ``engine.parse_position``."""
    pool = list(cards.COUNTS)
    phase = rng.choice(_PHASES)
    missing = []
    near = rng.random() < 0.5     # near a win: one Door missing, in the deck
    for _ in range(1 if near else rng.choice((1, 1, 1, 1, 2, 2, 2, 3))):
        missing.append(12 + rng.randrange(4))
    doors = []
    for k in range(4):
        n_miss = missing.count(12 + k)
        if n_miss > 2:
            return None
        doors += [12 + k] * (2 - n_miss)
    for d in doors:
        pool[d] -= 1
    limbo_ok = phase in ("door", "nightmare", "refill", "redraw", "reveal")
    deck, limbo, discard = [], [], []
    for d in missing:
        pool[d] -= 1
        r = rng.random()
        if near or r < 0.88:
            deck.append(d)
        elif r < 0.96 and limbo_ok:
            limbo.append(d)
        else:
            discard.append(d)
    if limbo_ok and rng.random() < 0.3 and _take(pool, cards.NIGHTMARE):
        limbo.append(cards.NIGHTMARE)
    keys_wanted = [3 * (d - 12) + 2 for d in missing]
    hand_n = {"play": 5, "prophecy": 4, "foresee": 4}.get(phase, rng.randrange(0, 5))
    hand = []
    drawn = None
    if phase == "door":
        drawn = rng.choice(missing)
        if drawn in deck:
            deck.remove(drawn)
        elif drawn in limbo:
            limbo.remove(drawn)
        else:
            discard.remove(drawn)
        hand_n = max(hand_n, 1)
        if not _take(pool, 3 * (drawn - 12) + 2):
            return None
        hand.append(3 * (drawn - 12) + 2)
    if phase == "nightmare":
        if not _take(pool, cards.NIGHTMARE):
            return None
        drawn = cards.NIGHTMARE
    while len(hand) < hand_n:
        t = rng.choice(keys_wanted) if rng.random() < 0.4 else rng.randrange(12)
        if _take(pool, t):
            hand.append(t)
    row = []
    aim = (rng.choice(missing) - 12) if rng.random() < 0.6 else None
    for _ in range(rng.randrange(0, 4)):
        if aim is not None:
            col = aim
        else:
            col = rng.choice([row[-1] // 3] if row and rng.random() < 0.7 else range(4))
        syms = [s for s in range(3) if not row or s != row[-1] % 3]
        t = 3 * col + rng.choice(syms)
        if _take(pool, t):
            row.append(t)
    extra = rng.randrange(0, max_deck + 1 - min(len(deck), max_deck))
    for _ in range(extra):
        t = rng.choice((cards.NIGHTMARE,) + tuple(keys_wanted) + tuple(range(12)))
        if _take(pool, t):
            deck.append(t)
    rng.shuffle(deck)
    size = len(deck)
    if phase in ("refill", "redraw", "reveal") and size == 0:
        return None
    if phase == "prophecy":
        known = min(5, size) + (rng.randrange(0, 2) if size > 5 else 0)
    elif phase == "foresee":
        if size == 0:
            return None
        known = rng.randrange(0, min(5, size))
    elif phase in ("refill", "redraw", "reveal"):
        known = 0
    else:
        known = rng.randrange(0, size + 1) if rng.random() < 0.35 else 0
    listed = deck[:known]
    unknown = deck[known:]
    # every card not placed anywhere goes to the discard pile; the unknown cards are the
    # ones the '*' stands for, so they must not be listed anywhere
    for t in range(cards.NUM_TYPES):
        discard += [t] * pool[t]
    def codes(cs):
        return ",".join(cards.CODES[c] for c in cs) or "-"
    fields = [f"mode=solo phase={phase}"]
    if drawn is not None:
        fields.append(f"drawn={cards.CODES[drawn]}")
    if phase == "reveal":
        fields.append(f"left={rng.randint(1, min(5, size))}")
    fields += [f"hand={codes(hand)}", f"row={codes(row)}", f"doors={codes(sorted(doors))}"]
    deck_field = codes(listed) if listed else ""
    if unknown:
        deck_field = (deck_field + ",*") if deck_field else "*"
    fields += [f"deck={deck_field or '-'}", f"discard={codes(sorted(discard))}",
               f"limbo={codes(sorted(limbo))}"]
    text = " ".join(fields)
    try:
        parse_position(text)
    except PositionError:
        return None
    return text


def random_positions(seed: int, count: int, max_deck: int = 5):
    rng = _random.Random(seed)
    while count:
        text = random_position(rng, max_deck)
        if text is not None:
            count -= 1
            yield text
