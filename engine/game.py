"""The rules of Onirim, solo and two-player cooperative, as a readable reference.

The API follows OpenSpiel's Python games: a :class:`Game` makes :class:`State` objects; a state
offers ``legal_actions()`` (sorted integers), ``action_to_string`` / ``string_to_action``,
``apply_action``, ``clone``, ``is_terminal``, ``returns``, ``current_player`` and ``history``.

Two ways to play a deck:

* **deal mode** (a seed is given): the seed decides the initial order and every later shuffle
  through :mod:`engine.rng`; the whole deck order is always known and the game has no chance
  nodes (this is what the clairvoyant solver plays);
* **chance mode** (no seed): the deck is a known prefix (``deck``, top first) above a multiset of
  cards in unknown order (``unknown``).  Whenever a card must be taken from the unknown part,
  the state is a chance node: ``current_player() == CHANCE`` and ``chance_outcomes()`` lists
  ``(action, probability)`` for every card type that may come up.  A shuffle without a seed
  turns the whole deck into unknown cards.

Rulings are those of docs/RULINGS.md; two-player rulings are documented in ``docs/RULINGS.md``
and in :data:`DUO_RULINGS` below.
"""
from __future__ import annotations

import itertools
import numbers
from fractions import Fraction

from . import cards
# The action layout lives in engine.actions; it is re-exported here, where callers look.
from .actions import (DISCARD, DOOR_KEY, DOOR_LIMBO, DRAFT, DRAW, NM_DOOR,  # noqa: F401
                      NM_KEY, NM_REDRAW, NM_REVEAL, NUM_ACTIONS, PLAY, PROPHECY, SWAP)
from .errors import GameConfigError, IllegalActionError, SeedError
from .fields import join_fields, state_fields
from .rng import MAX_SEED, shuffle_counts
from .rules import (DOORS_TO_WIN, DUO_DRAFT_SIZE, DUO_OWN_SIZE, DUO_SHARED_SIZE, HAND_SIZE,
                    PROPHECY_SIZE)
from .view import information_state_text, observation_text

CHANCE = -1
TERMINAL = -4

# Phases in which a player decides.
DECISION_PHASES = ("play", "prophecy", "door", "nightmare", "draft")
# Phases in which the next card comes from the unknown part of the deck (chance nodes).  In
# deal mode the engine never rests in them.
CHANCE_PHASES = ("setup", "refill", "redraw", "reveal", "foresee")
TERMINAL_PHASES = ("won", "lost")

_PERMS = {k: list(itertools.permutations(range(k))) for k in range(PROPHECY_SIZE)}
# The prophecy actions of k revealed cards, in increasing order: (action - PROPHECY, the
# position i of the discarded card, the positions of the kept cards in the order put back).
# Action PROPHECY + i * 24 + p discards card i and puts the others back in permutation p.
_PROPHECY_TABLE = {k: [(i * 24 + p, i, tuple([j for j in range(k) if j != i][q] for q in perm))
                       for i in range(k) for p, perm in enumerate(_PERMS[k - 1])]
                   for k in range(1, PROPHECY_SIZE + 1)}
# The same table keyed by action - PROPHECY, to decode an action (prophecy_split).
_PROPHECY_SPLIT = {k: {off: (i, kept) for off, i, kept in table}
                   for k, table in _PROPHECY_TABLE.items()}


def prophecy_split(k: int, action: int):
    """(the position of the discarded card, the positions of the kept cards in the order they
    go back) of prophecy ``action`` on ``k`` revealed cards, or None if the action is not one
    of theirs."""
    return _PROPHECY_SPLIT.get(k, {}).get(action - PROPHECY)


def _turn_action(a: int):
    """A play, discard or exchange action as ``(zone, card, swap)``: ``swap`` is ``(own,
    shared)`` for ``discard X swap a/b``, else None."""
    if a < DISCARD:
        zone, c = divmod(a - PLAY, 12)
        return zone, c, None
    if a < SWAP:
        zone, c = divmod(a - DISCARD, 12)
        return zone, c, None
    zc, ab = divmod(a - SWAP, 144)
    zone, c = divmod(zc, 12)
    return zone, c, divmod(ab, 12)

DUO_RULINGS = """\
D1 Setup: 8 Locations are laid face up (Doors and Nightmares met go to limbo unresolved and
   are shuffled back), then players 0 and 1 alternately take one (0 first) until each has 3;
   the last 2 are the shared cards.  Player 0 takes the first turn.
D2 The active player's hand is its 3 own cards plus the 2 shared ones; it plays or discards
   any of them, to its own row only.
D3 With a discard the active player may exchange one own card with one shared card (optional,
   at most once).  Discard and exchange are one action (`discard Os swap Am/Gs`), chosen
   before any prophecy the discard triggers; the exchange is among the cards left after it.
D4 Refill: own cards up to 3 first, then shared up to 2.  "Discard the hand" (nightmare) takes
   the active player's 3 own and the 2 shared cards and redraws them in the same order.
D5 Doors belong to a player.  A Door obtained by a series or a Key goes to the active player,
   and only if that player has no Door of that colour yet: otherwise a completed series takes
   nothing from the deck (no shuffle), and a drawn Door cannot be keyed (it goes to limbo).
D6 Nightmare option "move one Door in play to limbo" takes one of the active player's Doors.
D7 Win: the moment each player has one Door of each colour (all 8 in play).  Loss: as solo.
D8 Turns alternate 0, 1, 0, ...; a player holding its four Doors keeps playing.
"""


class Game:
    """Onirim with ``players`` = 1 (solo) or 2 (two-player cooperative)."""

    def __init__(self, players: int = 1):
        if (isinstance(players, bool) or not isinstance(players, numbers.Integral)
                or players not in (1, 2)):
            raise GameConfigError(f"players must be 1 or 2, not {players!r}")
        self.players = int(players)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> "State":
        """A new game.  With a seed: deal mode, the setup is played out at once and the state
        is the first decision.  Without: chance mode, starting with the setup draws."""
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
                raise SeedError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
        s = State(self)
        s.seed = seed
        s.unknown = cards.full_counts()
        s.phase = "setup"
        if seed is not None:
            s._shuffle_deck()
        s._advance()
        return s


class State:
    """A position of Onirim.  See the module docstring for the two deck modes."""

    def __init__(self, game: Game):
        self.game = game
        n = game.players
        self.hands = [[] for _ in range(n)]   # own Locations in hand (solo: the hand)
        self.shared: list[int] = []           # two-player shared cards (the centre in draft)
        self.rows = [[] for _ in range(n)]
        self.doors = [[] for _ in range(n)]
        self.deck: list[int] = []             # known cards, top first
        self.unknown = [0] * cards.NUM_TYPES      # cards below them, in unknown order
        self.discard: list[int] = []
        self.limbo: list[int] = []
        self.phase = "setup"
        self.drawn: int | None = None         # Door or Nightmare awaiting a decision
        self.left = 0                         # cards still to reveal (nightmare reveal)
        self.turn = 0                         # active player (two-player)
        self.seed: int | None = None
        self.shuffles = 0
        # Deal mode only: how many cards at the top of ``deck`` the player has seen and may
        # remember (the cards a prophecy put back).  Draws from the top use them up, and a
        # shuffle forgets them.  ``engine.view.player_view`` hides the rest of the deck.  Not
        # part of the position (``__eq__``, notation): in chance mode ``deck`` is exactly
        # the known part.
        self.known_top = 0
        # Two-player: for each seat, the own cards its partner has seen it take and not yet
        # seen leave (:meth:`_note_public`; ``engine.view``, the silent game's memory).  Not
        # part of the position (``__eq__``, notation): a position parsed mid-game has none.
        self.seen = [[] for _ in range(n)]
        self._history: list[int] = []

    # ------------------------------------------------------------------ basic queries
    @property
    def players(self) -> int:
        return self.game.players

    def clone(self) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.hands = [list(h) for h in self.hands]
        s.shared = list(self.shared)
        s.rows = [list(r) for r in self.rows]
        s.doors = [list(d) for d in self.doors]
        s.deck = list(self.deck)
        s.unknown = list(self.unknown)
        s.discard = list(self.discard)
        s.limbo = list(self.limbo)
        s.phase = self.phase
        s.drawn = self.drawn
        s.left = self.left
        s.turn = self.turn
        s.seed = self.seed
        s.shuffles = self.shuffles
        s.known_top = self.known_top
        s.seen = [list(x) for x in self.seen]
        s._history = list(self._history)
        return s

    def _key(self):
        return (self.players, tuple(map(tuple, self.hands)), tuple(self.shared),
                tuple(map(tuple, self.rows)), tuple(map(tuple, self.doors)), tuple(self.deck),
                tuple(self.unknown), tuple(self.discard), tuple(self.limbo), self.phase,
                self.drawn, self.left, self.turn, self.seed, self.shuffles)

    def __eq__(self, other):
        """Equal positions (the history is not compared)."""
        return isinstance(other, State) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def history(self) -> list[int]:
        return list(self._history)

    def deck_size(self) -> int:
        return len(self.deck) + sum(self.unknown)

    def is_terminal(self) -> bool:
        return self.phase in TERMINAL_PHASES

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.turn

    def returns(self) -> list[float]:
        v = 1.0 if self.phase == "won" else 0.0
        return [v] * self.players

    def won(self) -> bool:
        return self.phase == "won"

    def active_hand(self) -> list[int]:
        """The cards the active player may use: own hand, plus the shared cards (two-player)."""
        if self.players == 1:
            return list(self.hands[0])
        return sorted(self.hands[self.turn] + self.shared)

    def all_doors(self) -> list[int]:
        return sorted(d for ds in self.doors for d in ds)

    # ------------------------------------------------------------------ zones and sizes
    def _zone(self, zone: int) -> list[int]:
        return self.hands[self.turn] if zone == 0 else self.shared

    def _targets(self):
        """(zone, size) pairs to fill, in refill order."""
        if self.players == 1:
            return ((0, HAND_SIZE),)
        return ((0, DUO_OWN_SIZE), (1, DUO_SHARED_SIZE))

    def _missing_zone(self):
        for zone, size in self._targets():
            if len(self._zone(zone)) < size:
                return zone
        return None

    @staticmethod
    def _insert(pile: list[int], c: int) -> None:
        pile.append(c)
        pile.sort()

    # ------------------------------------------------------------------ deck handling
    def _top_known(self) -> bool:
        return bool(self.deck)

    def _pop_top(self) -> int:
        if self.known_top:
            self.known_top -= 1
        return self.deck.pop(0)

    def _all_deck_counts(self) -> list[int]:
        counts = list(self.unknown)
        for c in self.deck:
            counts[c] += 1
        return counts

    def _shuffle_deck(self, with_limbo: bool = False) -> None:
        counts = self._all_deck_counts()
        if with_limbo:
            for c in self.limbo:
                counts[c] += 1
            self.limbo = []
        self.known_top = 0
        if self.seed is not None:
            self.deck = shuffle_counts(counts, self.seed, self.shuffles)
            self.unknown = [0] * cards.NUM_TYPES
            self.shuffles += 1
        else:  # chance mode: the new order is unknown; shuffles are counted only with a seed
            self.deck = []
            self.unknown = counts

    def _take_door_from_deck(self, col: int) -> bool:
        d = cards.door_of(col)
        if d in self.deck:
            if self.deck.index(d) < self.known_top:
                self.known_top -= 1
            self.deck.remove(d)
            return True
        if self.unknown[d] > 0:
            self.unknown[d] -= 1
            return True
        return False

    def _player_may_gain(self, col: int) -> bool:
        if self.players == 1:
            return True
        return cards.door_of(col) not in self.doors[self.turn]

    def _gain_door(self, door: int) -> bool:
        """Put a Door in play for the active player; True if that wins the game."""
        self._insert(self.doors[self.turn], door)
        if sum(len(d) for d in self.doors) == DOORS_TO_WIN:
            self.phase = "won"
            return True
        return False

    # ------------------------------------------------------------------ the automatic part
    def _advance(self) -> None:
        """Run every step that needs no decision, until a decision, a chance node or the end."""
        while True:
            ph = self.phase
            if ph in ("setup", "redraw"):
                zone = self._setup_zone() if ph == "setup" else self._missing_zone()
                if zone is None:
                    if ph == "setup":
                        if self.limbo:
                            self._shuffle_deck(with_limbo=True)
                        self.phase = "play" if self.players == 1 else "draft"
                        return
                    self.phase = "refill"
                    continue
                if self.deck_size() == 0:
                    self.phase = "lost"
                    return
                if not self._top_known():
                    return  # chance node
                self._place_redrawn(self._pop_top())
                continue
            if ph == "refill":
                if self._missing_zone() is None:
                    self._end_turn()
                    continue
                if self.deck_size() == 0:
                    self.phase = "lost"
                    return
                if not self._top_known():
                    return
                self._refill_with(self._pop_top())
                if self.phase != "refill":
                    return
                continue
            if ph == "reveal":
                if self.left == 0:
                    self.phase = "refill"
                    continue
                if not self._top_known():
                    return
                self._revealed(self._pop_top())
                continue
            if ph == "foresee":
                k = min(PROPHECY_SIZE, self.deck_size())
                if k == 0:
                    self.phase = "refill"
                    continue
                if len(self.deck) < k:
                    return
                self.phase = "prophecy"
                return
            return

    def _setup_zone(self):
        if self.players == 1:
            return 0 if len(self.hands[0]) < HAND_SIZE else None
        return 1 if len(self.shared) < DUO_DRAFT_SIZE else None

    def _place_redrawn(self, c: int) -> None:
        """Setup and nightmare redraw: keep Locations, set Doors and Nightmares aside."""
        if cards.is_location(c):
            if self.phase == "setup":
                zone = self._setup_zone()
                target = self.hands[0] if zone == 0 else self.shared
            else:
                target = self._zone(self._missing_zone())
            self._insert(target, c)
        else:
            self._insert(self.limbo, c)

    def _refill_with(self, c: int) -> None:
        if cards.is_location(c):
            self._insert(self._zone(self._missing_zone()), c)
        elif cards.is_door(c):
            col = cards.colour(c)
            if self._player_may_gain(col) and cards.key_of(col) in self.active_hand():
                self.phase = "door"
                self.drawn = c
            else:
                self._insert(self.limbo, c)
        else:
            self.phase = "nightmare"
            self.drawn = c

    def _revealed(self, c: int) -> None:
        self.left -= 1
        if cards.is_location(c):
            self._insert(self.discard, c)
        else:
            self._insert(self.limbo, c)

    def _end_turn(self) -> None:
        if self.limbo:
            self._shuffle_deck(with_limbo=True)
        if self.players == 2:
            self.turn = 1 - self.turn
        self.phase = "play"

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        if player is not None and player != self.current_player():
            return []
        ph = self.phase
        acts: list[int] = []
        if ph == "play":
            last = self.rows[self.turn][-1] if self.rows[self.turn] else None
            zones = (0,) if self.players == 1 else (0, 1)
            for zone in zones:
                for c in sorted(set(self._zone(zone))):
                    if last is None or cards.symbol(c) != cards.symbol(last):
                        acts.append(PLAY + zone * 12 + c)
                    acts.append(DISCARD + zone * 12 + c)
                    if self.players == 2:
                        acts.extend(self._swap_actions(zone, c))
        elif ph == "prophecy":
            acts = sorted(self._prophecy_actions().values())
        elif ph == "door":
            col = cards.colour(self.drawn)
            zones = (0,) if self.players == 1 else (0, 1)
            for zone in zones:
                if cards.key_of(col) in self._zone(zone):
                    acts.append(DOOR_KEY + zone)
            acts.append(DOOR_LIMBO)
        elif ph == "nightmare":
            zones = (0,) if self.players == 1 else (0, 1)
            for zone in zones:
                for col in range(4):
                    if cards.key_of(col) in self._zone(zone):
                        acts.append(NM_KEY + zone * 4 + col)
            for col in sorted({cards.colour(d) for d in self.doors[self.turn]}):
                acts.append(NM_DOOR + col)
            acts += [NM_REVEAL, NM_REDRAW]
        elif ph == "draft":
            acts = [DRAFT + c for c in sorted(set(self.shared))]
        return sorted(acts)

    def _swap_actions(self, zone: int, c: int) -> list[int]:
        own = list(self.hands[self.turn])
        shared = list(self.shared)
        (own if zone == 0 else shared).remove(c)
        return [SWAP + (zone * 12 + c) * 144 + a * 12 + b
                for a in sorted(set(own)) for b in sorted(set(shared)) if a != b]

    def _prophecy_actions(self) -> dict:
        """Distinct prophecy outcomes -> the smallest action integer giving each."""
        k = min(PROPHECY_SIZE, self.deck_size())
        revealed = self.deck[:k]
        out: dict = {}
        for offset, i, kept in _PROPHECY_TABLE[k]:
            key = (revealed[i], tuple([revealed[j] for j in kept]))
            if key not in out:
                out[key] = PROPHECY + offset
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) of each card type that the next unknown draw may give."""
        if not self.is_chance_node():
            return []
        total = sum(self.unknown)
        return [(DRAW + t, n / total) for t, n in enumerate(self.unknown) if n]

    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        total = sum(self.unknown)
        return [(DRAW + t, Fraction(n, total)) for t, n in enumerate(self.unknown) if n]

    # ------------------------------------------------------------------ strings
    def action_to_string(self, action: int, player: int | None = None) -> str:
        a = action
        if not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(f"no action number {action!r}")
        if a < DISCARD:
            zone, c = divmod(a - PLAY, 12)
            return f"play shared {cards.CODES[c]}" if zone else f"play {cards.CODES[c]}"
        if a < SWAP:
            zone, c = divmod(a - DISCARD, 12)
            return f"discard shared {cards.CODES[c]}" if zone else f"discard {cards.CODES[c]}"
        if a < PROPHECY:
            zc, ab = divmod(a - SWAP, 144)
            zone, c = divmod(zc, 12)
            x, y = divmod(ab, 12)
            base = f"discard shared {cards.CODES[c]}" if zone else f"discard {cards.CODES[c]}"
            return f"{base} swap {cards.CODES[x]}/{cards.CODES[y]}"
        if a < DOOR_KEY:
            k = min(PROPHECY_SIZE, self.deck_size()) if self.phase == "prophecy" else PROPHECY_SIZE
            split = prophecy_split(k, a) if self.phase == "prophecy" else None
            if split is None:
                return "prophecy #%d/%d" % divmod(a - PROPHECY, 24)
            revealed = self.deck[:k]
            i, kept = split
            keep = [revealed[j] for j in kept]
            return (f"prophecy discard={cards.CODES[revealed[i]]} keep="
                    + (",".join(cards.CODES[c] for c in keep) or "-"))
        if a < DOOR_LIMBO:
            return "door key shared" if a - DOOR_KEY else "door key"
        if a == DOOR_LIMBO:
            return "door limbo"
        if a < NM_DOOR:
            zone, col = divmod(a - NM_KEY, 4)
            k = cards.CODES[cards.key_of(col)]
            return f"nightmare key shared {k}" if zone else f"nightmare key {k}"
        if a < NM_REVEAL:
            return f"nightmare door {cards.CODES[cards.door_of(a - NM_DOOR)]}"
        if a == NM_REVEAL:
            return "nightmare reveal"
        if a == NM_REDRAW:
            return "nightmare redraw"
        if a < DRAW:
            return f"draft {cards.CODES[a - DRAFT]}"
        return f"draw {cards.CODES[a - DRAW]}"

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """The legal action whose string is ``text`` (white space is folded)."""
        want = " ".join(str(text).split())
        for a in self.legal_actions():
            if self.action_to_string(a) == want:
                return a
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions()[:8])
        if self.is_terminal():
            raise IllegalActionError(f"action {want!r}: the game is over")
        raise IllegalActionError(
            f"action {want!r} is not legal in phase {self.phase} (legal: {legal}"
            + (", ..." if len(self.legal_actions()) > 8 else "") + ")")

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action: int) -> None:
        """Apply a legal action.  An illegal one raises IllegalActionError, state unchanged."""
        if isinstance(action, str):
            action = self.string_to_action(action)
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action must be an integer, not {action!r}")
        if action not in self.legal_actions():
            if self.is_terminal():
                raise IllegalActionError(f"action {action}: the game is over")
            raise IllegalActionError(
                f"action {action} ({self.action_to_string(action)}) is not legal in phase "
                f"{self.phase}")
        self._history.append(action)
        if self.is_chance_node():
            self._apply_chance(action - DRAW)
        else:
            self._apply_decision(action)
        self._advance()

    def _apply_chance(self, t: int) -> None:
        self.unknown[t] -= 1
        ph = self.phase
        if ph in ("setup", "redraw"):
            self._place_redrawn(t)
        elif ph == "refill":
            self._refill_with(t)
        elif ph == "reveal":
            self._revealed(t)
        elif ph == "foresee":
            self.deck.append(t)   # the revealed card joins the known prefix

    def _note_public(self, a: int) -> None:
        """Two-player, before decision ``a`` is applied: update ``seen``, the own cards of
        the active player that its partner saw it take and not leave yet.  Every step here is
        public (``docs/DUO.md``, "What a player may know"): a card enters an own hand seen
        when drafted from the face-up centre or taken from the shared cards by an exchange;
        it leaves when played, discarded (also a Key spent on a Door or a Nightmare, or the
        whole hand discarded) or given to the shared cards."""
        seen = self.seen[self.turn]

        def leaves(c):
            if c in seen:
                seen.remove(c)
        ph = self.phase
        if ph == "draft":
            self._insert(seen, a - DRAFT)
        elif ph == "play":
            zone, c, swap = _turn_action(a)
            if zone == 0:
                leaves(c)
            if swap is not None:
                leaves(swap[0])
                self._insert(seen, swap[1])
        elif ph == "door" and a == DOOR_KEY:
            leaves(cards.key_of(cards.colour(self.drawn)))
        elif ph == "nightmare" and a < NM_DOOR:
            zone, col = divmod(a - NM_KEY, 4)
            if zone == 0:
                leaves(cards.key_of(col))
        elif ph == "nightmare" and a == NM_REDRAW:
            seen.clear()

    def _apply_decision(self, a: int) -> None:
        ph = self.phase
        if self.players == 2:
            self._note_public(a)
        if ph == "play":
            if a < DISCARD:
                zone, c = divmod(a - PLAY, 12)
                self._zone(zone).remove(c)
                self._play_to_row(c)
            else:
                zone, c, swap = _turn_action(a)
                self._zone(zone).remove(c)
                self._insert(self.discard, c)
                if swap is not None:
                    x, y = swap
                    self.hands[self.turn].remove(x)
                    self.shared.remove(y)
                    self._insert(self.hands[self.turn], y)
                    self._insert(self.shared, x)
                self.phase = "foresee" if cards.is_key(c) else "refill"
        elif ph == "prophecy":
            k = min(PROPHECY_SIZE, self.deck_size())
            revealed = self.deck[:k]
            i, kept = prophecy_split(k, a)
            keep = [revealed[j] for j in kept]
            self._insert(self.discard, revealed[i])
            self.deck[:k] = keep
            self.known_top = max(self.known_top, k) - 1   # the kept cards stay known
            self.phase = "refill"
        elif ph == "door":
            door, self.drawn = self.drawn, None
            if a == DOOR_LIMBO:
                self._insert(self.limbo, door)
                self.phase = "refill"
            else:
                self._zone(a - DOOR_KEY).remove(cards.key_of(cards.colour(door)))
                self._insert(self.discard, cards.key_of(cards.colour(door)))
                self.phase = "refill"
                self._gain_door(door)
        elif ph == "nightmare":
            self._insert(self.discard, self.drawn)
            self.drawn = None
            self.phase = "refill"
            if a < NM_DOOR:
                zone, col = divmod(a - NM_KEY, 4)
                self._zone(zone).remove(cards.key_of(col))
                self._insert(self.discard, cards.key_of(col))
            elif a < NM_REVEAL:
                d = cards.door_of(a - NM_DOOR)
                self.doors[self.turn].remove(d)
                self._insert(self.limbo, d)
            elif a == NM_REVEAL:
                self.left = min(PROPHECY_SIZE, self.deck_size())
                self.phase = "reveal"
            else:
                for c in self.hands[self.turn]:
                    self._insert(self.discard, c)
                self.hands[self.turn] = []
                if self.players == 2:
                    for c in self.shared:
                        self._insert(self.discard, c)
                    self.shared = []
                self.phase = "redraw"
        elif ph == "draft":
            c = a - DRAFT
            self.shared.remove(c)
            self._insert(self.hands[self.turn], c)
            self.turn = 1 - self.turn   # players alternate, 0 first (ruling D1)
            if len(self.hands[0]) + len(self.hands[1]) == 6:
                self.phase = "play"

    def _play_to_row(self, c: int) -> None:
        row = self.rows[self.turn]
        row.append(c)
        self.phase = "refill"
        if series_length(row) == 3:
            col = cards.colour(c)
            if self._player_may_gain(col) and self._take_door_from_deck(col):
                if self._gain_door(cards.door_of(col)):
                    return
                self._shuffle_deck()

    def apply_action_logged(self, action) -> list[tuple[str, int]]:
        """:meth:`apply_action`, returning what its automatic part did, in order, as
        ``(event, card)`` pairs (``card`` is a card type; for ``shuffle`` it is the number of
        limbo cards shuffled back in):

        * ``draw``: a Location drawn into a hand (refill, nightmare redraw, setup);
        * ``limbo``: a Door or Nightmare drawn and set aside in limbo (a Door with no usable
          Key while refilling; any Door or Nightmare during a redraw or the setup);
        * ``door``: a Door drawn whose Key is in hand (the next decision is phase door);
        * ``nightmare``: a Nightmare drawn while refilling (the next decision);
        * ``reveal-discard`` / ``reveal-limbo``: a card revealed by ``nightmare reveal``;
        * ``series-door``: the Door a completed series took from the deck;
        * ``shuffle``: the deck was shuffled.

        The rules are those of :meth:`apply_action` (this only listens to its steps); the
        state ends the same, and an illegal action raises with the state unchanged."""
        log: list[tuple[str, int]] = []
        cls = self.__class__
        self.__class__ = _LoggedState
        self._log = log
        try:
            self.apply_action(action)
        finally:
            self.__class__ = cls
            del self._log
        return log

    # ------------------------------------------------------------------ conveniences
    def observation_string(self, player: int | None = None, talk: str = "none") -> str:
        """What ``player`` (default: the one to move) may know now, in the one-line notation
        of ``docs/NOTATION.md``: no hidden deck order, no ``seed`` or ``shuffles``, and in a
        two-player game the partner's cards it does not know as ``?`` (``talk``: the game's
        mode, ``engine.view.player_view``).  The full position, with the deal, is
        ``str(state)`` or ``format_position(state, view="full")``."""
        return observation_text(self, player, talk)

    def information_state_string(self, player: int | None = None, talk: str = "none") -> str:
        """:meth:`observation_string`, then ``history=`` and every decision taken so far
        (action integers, oldest first): what ``player`` knows and recalls
        (:func:`engine.view.information_state_text`)."""
        return information_state_text(self, player, talk)

    def __str__(self) -> str:
        return join_fields(state_fields(self))   # engine.notation.format_position(self)

    def __repr__(self) -> str:
        return f"State({self})"


class _LoggedState(State):
    """A State that records the steps of its automatic part (``apply_action_logged``)."""

    _log: list

    def _place_redrawn(self, c: int) -> None:
        super()._place_redrawn(c)
        self._log.append(("draw" if cards.is_location(c) else "limbo", c))

    def _refill_with(self, c: int) -> None:
        super()._refill_with(c)
        if cards.is_location(c):
            ev = "draw"
        elif cards.is_door(c):
            ev = "door" if self.phase == "door" else "limbo"
        else:
            ev = "nightmare"
        self._log.append((ev, c))

    def _revealed(self, c: int) -> None:
        super()._revealed(c)
        self._log.append(("reveal-discard" if cards.is_location(c) else "reveal-limbo", c))

    def _take_door_from_deck(self, col: int) -> bool:
        took = super()._take_door_from_deck(col)
        if took:
            self._log.append(("series-door", cards.door_of(col)))
        return took

    def _shuffle_deck(self, with_limbo: bool = False) -> None:
        n = len(self.limbo) if with_limbo else 0
        super()._shuffle_deck(with_limbo)
        self._log.append(("shuffle", n))


def series_length(row: list[int]) -> int:
    """Length (1..3) of the series the last card of ``row`` belongs to (0 for an empty row).

    Consecutive same-colour cards form series of 3; the 4th starts a new one (ruling B2).
    """
    n = 0
    prev = None
    for c in row:
        col = cards.colour(c)
        n = n + 1 if (col == prev and n < 3) else 1
        prev = col
    return n
