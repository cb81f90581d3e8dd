"""Simple built-in policies: a deterministic greedy player, its measured variant greedy-plus
(:func:`greedy_plus_action`, about 36% of solo deals: docs/HONEST.md) and a uniform random player.

The greedy policy looks only at what a player may know: its hand (two-player: its own cards and
the shared ones), the rows, the Doors in play, the discard pile, the deck *size*, and, in phase
``prophecy``, the revealed cards.  It never reads the hidden deck order, so it plays the same in
deal mode and in chance mode.

Greedy rules, in order (``colour needed`` = the active player may still gain a Door of that
colour: solo, fewer than 2 of them in play; two-player, the player holds none of it yet):

*Draft* (two-player setup): take the card whose colour the player already holds most of (needed
colours first), Keys before Suns before Moons on ties.

*Play phase* (``active series`` = colour and length 1-2 of the last series of the row):

1. If the active series is of a needed colour and a card of that colour may be played, play it:
   prefer a card after which another card of the colour in hand could still follow (different
   symbol), then a non-Key, then a Moon over a Sun (Moons are scarcer, Suns follow more easily).
2. If the active series has 2 cards and cannot be continued, keep it alive: discard (rule 4).
3. Otherwise start a series: among the playable cards of needed colours whose colour has at
   least 2 cards in hand, play one of the colour with the most cards (non-Key first, same
   tie-breaks as rule 1).
4. Otherwise discard the least useful card: a non-Key of an unneeded colour, else a non-Key of
   the needed colour with the fewest cards in hand (Suns before Moons), else a Key (which
   triggers a prophecy) of an unneeded colour, else of the colour with the fewest cards.

*Prophecy*: discard a Nightmare if one is revealed, else the least useful Location (rule 4's
order), never a Door unless only Doors are revealed.  Put the rest back ordered by usefulness,
top first: Doors whose Key is in hand, Locations of the active series' colour, other Locations
of needed colours (most held colour first), Doors without a Key, Nightmares last.

*Door drawn*: always use the Key (own Key before a shared one).

*Nightmare drawn*: discard a Key (of the least useful colour; own before shared) if any; else
reveal the top 5 if the deck holds at least 10 cards; else discard the hand if it holds no card
of a needed colour, or move a Door to limbo if one is in play and the deck is still large (a Door
can come back); else reveal.

*Two-player*: the active player uses its own and the shared cards together; a card held in both
zones is taken from its own cards; it never uses the optional exchange.

Measured (see ``docs/PLAY.md``): the greedy policy wins 11.0% of solo deals (552 of seeds
0-4999, 95% interval about 10.2-12.0%) and 3.7% of two-player deals (73 of seeds 0-1999); the
uniform random policy essentially never wins.
"""
from __future__ import annotations

import random

from . import cards
from . import game as game_rules
from .rules import COLOURS, DOORS_PER_COLOUR, PROPHECY_SIZE, SERIES_LENGTH

# greedy's heuristics (not rule sizes; solver.steps' greedy imports them): at a Nightmare with
# no Key to spend, reveal with at least REVEAL_MIN_DECK cards in the deck, give up a Door with at
# least DOOR_MIN_DECK; rule 2 waits on a series one card short of complete (SERIES_LAST cards)
REVEAL_MIN_DECK = 10
DOOR_MIN_DECK = 6
SERIES_LAST = SERIES_LENGTH - 1
_SYMBOL_PREF = {cards.MOON: 0, cards.SUN: 1, cards.KEY: 2}   # lower = preferred to play
_DRAFT_PREF = {cards.KEY: 0, cards.SUN: 1, cards.MOON: 2}    # lower = preferred to draft


# ------------------------------------------------------------------------------ knowledge
def _needed(state, col: int) -> bool:
    door = cards.door_of(col)
    if state.players == 1:
        return state.doors[0].count(door) < 2
    return door not in state.doors[state.turn]


def _series(state):
    """(colour, length) of the last series of the active row, or (None, 0)."""
    row = state.rows[state.turn]
    if not row:
        return None, 0
    return cards.colour(row[-1]), game_rules.series_length(row)


def _colour_counts(hand) -> list[int]:
    counts = [0] * 4
    for c in hand:
        counts[cards.colour(c)] += 1
    return counts


def _discard_rank(state, hand, c):
    """Sort key: lower = more willing to discard card ``c`` from ``hand``."""
    col = cards.colour(c)
    counts = _colour_counts(hand)
    s_col, s_len = _series(state)
    needed = _needed(state, col)
    key = cards.is_key(c)
    in_series = col == s_col and 0 < s_len < 3 and needed
    return (key, needed, in_series, counts[col], 0 if cards.symbol(c) == cards.SUN else 1, c)


# ------------------------------------------------------------------------------ helpers
def _zone_action(state, base: int, c: int) -> int:
    """``base`` + zone*12 + c, from own cards if there, else from the shared ones."""
    zone = 0 if c in state.hands[state.turn] else 1
    return base + zone * 12 + c


def _play_choice(state, hand, candidates):
    """Best card to play among ``candidates`` (card types), rule 1's tie-breaks."""
    def rank(c):
        rest = list(hand)
        rest.remove(c)
        follow = any(cards.colour(x) == cards.colour(c) and cards.symbol(x) != cards.symbol(c) for x in rest)
        return (not follow, cards.is_key(c), _SYMBOL_PREF[cards.symbol(c)], c)
    return min(candidates, key=rank)


def _greedy_play(state) -> int:
    hand = state.active_hand()
    row = state.rows[state.turn]
    last = row[-1] if row else None
    playable = [c for c in sorted(set(hand)) if last is None or cards.symbol(c) != cards.symbol(last)]
    s_col, s_len = _series(state)
    if s_col is not None and s_len in (1, 2) and _needed(state, s_col):
        cont = [c for c in playable if cards.colour(c) == s_col]
        if cont:
            return _zone_action(state, game_rules.PLAY, _play_choice(state, hand, cont))
    if not (s_col is not None and s_len == SERIES_LAST and _needed(state, s_col)):
        counts = _colour_counts(hand)
        starts = [c for c in playable if _needed(state, cards.colour(c)) and counts[cards.colour(c)] >= 2]
        if starts:
            best = max(counts[cards.colour(c)] for c in starts)
            starts = [c for c in starts if counts[cards.colour(c)] == best]
            return _zone_action(state, game_rules.PLAY, _play_choice(state, hand, starts))
    victim = min(sorted(set(hand)), key=lambda c: _discard_rank(state, hand, c))
    return _zone_action(state, game_rules.DISCARD, victim)


def _prophecy_value(state, hand, c):
    """Higher = wanted nearer the top of the deck."""
    if cards.is_nightmare(c):
        return (-10, 0)
    if cards.is_door(c):
        col = cards.colour(c)
        if _needed(state, col) and cards.key_of(col) in hand:
            return (10, 0)
        return (-5, 0)
    col = cards.colour(c)
    s_col, s_len = _series(state)
    if not _needed(state, col):
        return (-1, -c)
    counts = _colour_counts(hand)
    bonus = 5 if (col == s_col and 0 < s_len < 3) else 0
    return (bonus + min(counts[col], 3), -c)


def _greedy_prophecy(state) -> int:
    k = min(PROPHECY_SIZE, state.deck_size())
    revealed = list(state.deck[:k])
    hand = state.active_hand()
    if cards.NIGHTMARE in revealed:
        victim = cards.NIGHTMARE
    else:
        locs = [c for c in revealed if cards.is_location(c)]
        if locs:
            victim = min(locs, key=lambda c: _discard_rank(state, hand + [c], c))
        else:  # only Doors: one must go; prefer one of a colour not needed, or without a Key
            victim = min(revealed, key=lambda c: _prophecy_value(state, hand, c))
    rest = list(revealed)
    rest.remove(victim)
    rest.sort(key=lambda c: _prophecy_value(state, hand, c), reverse=True)
    # the legal action giving this outcome (legal_actions lists one per distinct outcome)
    a = state._prophecy_actions().get((victim, tuple(rest)))
    if a is None:
        raise AssertionError("prophecy outcome not found")  # pragma: no cover
    return a


def _greedy_nightmare(state) -> int:
    legal = state.legal_actions()
    hand = state.active_hand()
    keys = [a for a in legal if game_rules.NM_KEY <= a < game_rules.NM_DOOR]
    if keys:
        def rank(a):
            zone, col = divmod(a - game_rules.NM_KEY, 4)
            return (_discard_rank(state, hand, cards.key_of(col)), zone)
        return min(keys, key=rank)
    size = state.deck_size()
    if size >= REVEAL_MIN_DECK:
        return game_rules.NM_REVEAL
    if not any(_needed(state, cards.colour(c)) for c in hand):
        return game_rules.NM_REDRAW
    doors = [a for a in legal if game_rules.NM_DOOR <= a < game_rules.NM_REVEAL]
    if doors and size >= DOOR_MIN_DECK:
        return doors[0]
    return game_rules.NM_REVEAL


def _greedy_draft(state) -> int:
    counts = _colour_counts(state.hands[state.turn])

    def rank(c):
        col = cards.colour(c)
        return (not _needed(state, col), -counts[col], _DRAFT_PREF[cards.symbol(c)], c)
    return game_rules.DRAFT + min(sorted(set(state.shared)), key=rank)


def greedy_action(state) -> int:
    """The greedy policy's action (an integer) at a decision state; see the module doc."""
    if state.is_terminal() or state.is_chance_node():
        raise ValueError(f"greedy_action needs a decision state, not phase {state.phase}")
    ph = state.phase
    if ph == "play":
        return _greedy_play(state)
    if ph == "prophecy":
        return _greedy_prophecy(state)
    if ph == "door":
        return min(a for a in state.legal_actions() if a != game_rules.DOOR_LIMBO)
    if ph == "nightmare":
        return _greedy_nightmare(state)
    if ph == "draft":
        return _greedy_draft(state)
    raise ValueError(f"unknown phase {ph}")  # pragma: no cover


def greedy_plus_action(state) -> int:
    """The ``greedy-plus`` base policy (solo): :func:`greedy_action` with two
    changes, each measured (docs/HONEST.md):

    1. *Nightmare*: where greedy would reveal the top 5 cards, discard the hand instead.
    2. *Play*: where greedy would discard a non-Key card that may be played (its symbol differs
       from the last card of the row), while the row has no open series of a needed colour
       (a last series of 1-2 cards whose colour still lacks a Door), play that card instead:
       it leaves the same hand, and a row ending on that card's symbol, often a Moon, which
       lets a needed colour's Sun start a series next.
    """
    a = greedy_action(state)
    if state.phase == "nightmare":
        return game_rules.NM_REDRAW if a == game_rules.NM_REVEAL else a
    if state.phase == "play" and game_rules.DISCARD <= a < game_rules.SWAP:
        c = a - game_rules.DISCARD
        row = state.rows[0]
        last = row[-1] if row else None
        if not cards.is_key(c) and (last is None or cards.symbol(last) != cards.symbol(c)):
            open_needed = (last is not None and game_rules.series_length(row) < 3
                           and state.doors[0].count(cards.door_of(cards.colour(last))) < 2)
            if not open_needed:
                return game_rules.PLAY + c
    return a


def dead_key(view, col: int) -> bool:
    """True if the Key of colour ``col`` can open no more Door in this solo game: the colour
    has all its Doors in play, or every one of its Doors not in play is in the discard pile."""
    door = cards.door_of(col)
    in_play = view.doors[0].count(door)
    if in_play >= DOORS_PER_COLOUR:
        return True
    return in_play + view.discard.count(door) >= cards.COUNTS[door]


def keep_doors_action(view) -> int:
    """greedy-keep-doors at a solo decision state: greedy-plus, but where it would discard
    in the play phase, a Key that can open no more Door is discarded first, if held
    (``solver/policies/keep_doors.py`` says why and what was measured)."""
    a = greedy_plus_action(view)
    if view.phase == "play" and game_rules.DISCARD <= a < game_rules.SWAP:
        hand = view.hands[0]
        for col in range(COLOURS):
            k = cards.key_of(col)
            if k in hand and dead_key(view, col):
                return game_rules.DISCARD + k
    return a


def random_action(state, rng: random.Random) -> int:
    """A uniformly random legal action (a chance outcome by its probability at chance nodes)."""
    if state.is_chance_node():
        acts, probs = zip(*state.chance_outcomes())
        return rng.choices(acts, weights=probs)[0]
    return rng.choice(state.legal_actions())


def play_game(game, seed: int, policy=greedy_action):
    """Play the deal ``seed`` of ``game`` to the end with ``policy(state) -> action``.

    Returns ``(final_state, action_strings)``; each string is the action as it was named in the
    state where it was taken.
    """
    state = game.new_initial_state(seed)
    actions: list[str] = []
    while not state.is_terminal():
        a = policy(state)
        actions.append(state.action_to_string(a))
        state.apply_action(a)
    return state, actions
