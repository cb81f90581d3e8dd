"""What a player may know: the information state of a position (``docs/NOTATION.md``,
section 3, "The player's view").

A solo player sees its hand, the row, the Doors in play, the discard pile, the limbo, the
number of cards in the deck, and any deck cards it has seen and that have not been shuffled
away since: the cards a prophecy put back on top (``State.known_top``), and in phase
``prophecy`` the revealed cards.  It never sees the order of the rest of the deck, nor the
seed that will decide future shuffles.

:func:`player_view` turns any position into a chance-mode position that holds exactly that:
the known top cards are listed in ``deck``, every other deck card is in ``unknown`` (counts
only), and ``seed`` is dropped.  A policy that decides from the view cannot read the hidden
order, whatever it does; ``tests/engine/test_view.py`` checks that permuting the unknown part of the
deck leaves the view, and every registered policy's decision, unchanged.

Two-player (``docs/DUO.md``, "What a player may know"): the view of a two-player position is
a *duo view*, a ``State`` of a subclass made here (:func:`_duo_view_class`) that holds the
viewer's own 3 cards, the 2 shared cards, both rows, every Door in play (whose), the discard
pile, the limbo, the deck cards its own prophecy showed (a partner's prophecy shows it
nothing: :func:`prophecy_seer`), the public decisions so far (``history``: no draws), the
partner's cards the viewer knows (``hands[partner]``) and, as ``unknown``, the multiset of
every card the viewer cannot see: the deck's unseen part *and* the partner's other cards,
merged, since the viewer cannot tell them apart; ``hidden`` says how many of them the partner
holds.  Which partner cards are known depends on the game the players chose (``talk``, the
two modes of the rules, :data:`TALK_MODES`): in the silent game (``"none"``, the default)
those it saw the partner take and not leave yet (a draft pick from the face-up centre, a
shared card taken by an exchange: ``State.seen``, kept by the engine from public moves);
in the open game (``"open"``, hands face up) all of them.  ``deck_size()`` is the real deck
size (public).  A duo view is not a game position: it refuses ``apply_action`` and chance
outcomes; a search samples a position consistent with it (:func:`sample_position`, which
deals the partner's hidden cards and the deck order from ``unknown``).  The *strings* of a
two-player view: :func:`observation_fields` writes each hidden partner card as ``?`` after
the known ones (see ``docs/NOTATION.md``, "The player's view"), and
``State.observation_string`` / ``State.information_state_string`` print them.
"""
from __future__ import annotations

from . import cards
from .actions import DOOR_KEY, DRAW, PROPHECY
from .errors import GameConfigError
from .fields import join_fields, state_fields
from .rules import PROPHECY_SIZE


def _hide_deck_duo(state, p: int):
    """:func:`_hide_deck` for seat ``p`` of a two-player game: the known top cards stay
    listed only if ``p`` saw them (its own prophecy, :func:`prophecy_seer`); otherwise they
    join the unknown cards."""
    v = _hide_deck(state)
    if state.seed is not None and v.deck and prophecy_seer(state) != p:
        for c in v.deck:
            v.unknown[c] += 1
        v.deck = []
    return v


def known_top(state) -> int:
    """How many cards at the top of ``state.deck`` the player to move knows."""
    if state.seed is None:
        return len(state.deck)       # chance mode: the listed deck is the known part
    k = state.known_top
    if state.phase == "prophecy":
        k = max(k, min(PROPHECY_SIZE, state.deck_size()))
    return min(k, len(state.deck))


TALK_MODES = ("none", "open")   # the silent game (default), the open game (hands face up)


def check_talk(state, talk) -> str:
    """``talk`` if it is a mode this position can be played in, else GameConfigError: the
    open game is a two-player mode."""
    if talk not in TALK_MODES:
        raise GameConfigError(f"talk: must be one of {', '.join(TALK_MODES)}, not {talk!r}")
    if talk != "none" and state.players != 2:
        raise GameConfigError(f"talk {talk}: only a two-player game has an open mode")
    return talk


def player_view(state, player: int | None = None, talk: str = "none"):
    """A copy of ``state`` that holds only what ``player`` (default: the one to move) may
    know, as a chance-mode position: unknown deck cards become counts, ``seed`` is dropped.
    ``talk``: the two-player game's mode (:data:`TALK_MODES`); in the open game the partner's
    whole hand is known.

    The view has the same legal actions as ``state`` at every decision.  Its ``history`` is
    the player's own list of actions, which it knows.
    """
    check_talk(state, talk)
    if state.players == 2:
        return _duo_view(state, _check_player(state, player), talk)
    if player not in (None, 0):
        raise GameConfigError(f"player_view: no player {player!r} in a solo game")
    return _hide_deck(state)


def _hide_deck(state):
    """A copy of ``state`` (solo or two-player) whose deck holds only the known top cards,
    in chance mode (no seed): the deck part of the player's view."""
    v = state.clone()
    if state.seed is None:
        return v
    k = known_top(state)
    hidden = [0] * cards.NUM_TYPES
    for c in state.deck[k:]:
        hidden[c] += 1
    v.deck = list(state.deck[:k])
    v.unknown = [a + b for a, b in zip(state.unknown, hidden)]
    v.seed = None
    v.shuffles = 0
    v.known_top = 0
    return v


def information_key(state, player: int | None = None, talk: str = "none") -> tuple:
    """A hashable key of what ``player`` may know (equal keys: the same information)."""
    return player_view(state, player, talk)._key()


def _check_player(state, player) -> int:
    """The seat whose view is asked for: ``player``, or by default the one to move (at a
    chance node or the end of the game: ``state.turn``; a view's own viewer)."""
    if player is None:
        if isinstance(state, _DuoViewMixin):
            return state.viewer
        return state.turn if state.players == 2 else 0
    if isinstance(player, bool) or not isinstance(player, int) \
            or not 0 <= player < state.players:
        raise GameConfigError(f"player: no player {player!r} in a "
                              f"{'two-player' if state.players == 2 else 'solo'} game")
    return player


HIDDEN = "?"      # a card the viewer cannot see (two-player: the partner's own cards)


def observation_fields(state, player: int | None = None, talk: str = "none") -> dict:
    """The position as the notation's ordered fields (``engine.notation``), holding only what
    ``player`` may know: no hidden deck order, no ``seed``/``shuffles``, and in a two-player
    game the partner's cards the viewer does not know as ``?`` (one per card, after the known
    ones; ``talk`` as in :func:`player_view`).  A two-player view whose partner hand has no
    ``?`` (every card known) says whose view it is with ``view=P``, so that it parses back
    into a view, not a position.

    Two-player ruling (strict, ``docs/DUO.md``): the deck cards a prophecy put back are known
    only to the player who made the prophecy (:func:`prophecy_seer`); the partner sees them
    as unknown.  Solo: the fields are those of :func:`player_view`, so they parse back into
    it."""
    p = _check_player(state, player)
    check_talk(state, talk)
    if state.players != 2:
        return state_fields(_hide_deck(state))
    v = _duo_view(state, p, talk)
    f = state_fields(v)
    if sum(v.unknown) == v.hidden and f["deck"][-1:] == ["*"]:
        f["deck"] = f["deck"][:-1]      # every unknown card is the partner's: none in the deck
    f[f"hand{1 - p}"] = f[f"hand{1 - p}"] + [HIDDEN] * v.hidden
    if not v.hidden:
        out = {}
        for k, x in f.items():
            out[k] = x
            if k == "turn":
                out["view"] = p
        f = out
    return f


def observation_text(state, player: int | None = None, talk: str = "none") -> str:
    """:func:`observation_fields` in the one-line notation (``docs/NOTATION.md``)."""
    return join_fields(observation_fields(state, player, talk))


def information_state_text(state, player: int | None = None, talk: str = "none") -> str:
    """What ``player`` may know and recall: :func:`observation_text`, then ``history=`` with
    every decision taken so far as action integers, oldest first (``-`` if none).  Decisions
    are public (cards played, discarded, exchanged, drafted); the chance outcomes (the cards
    drawn) are left out, because in a two-player game a partner's draws are private, and what
    a player drew is in the observation while it is held."""
    acts = [a for a in state.history() if a < DRAW]
    return observation_text(state, player, talk) + " history=" + (",".join(map(str, acts)) or "-")


# ----------------------------------------------------------------------------- two-player
class _DuoViewMixin:
    """What a duo view changes in ``State`` (see the module doc).  ``viewer``: the seat whose
    view it is; ``hands[1 - viewer]``: the partner's cards it knows; ``hidden``: how many
    other own cards the partner holds (not known); ``unknown``: the deck's unseen cards and
    those hidden cards together."""

    viewer: int
    hidden: int

    def deck_size(self) -> int:
        return len(self.deck) + sum(self.unknown) - self.hidden

    def clone(self):
        c = super().clone()
        c.__class__ = type(self)
        c.viewer = self.viewer
        c.hidden = self.hidden
        return c

    def _key(self):
        return super()._key() + (self.viewer, self.hidden)

    def apply_action(self, action) -> None:
        raise GameConfigError("a two-player view is not a position: it cannot be played "
                              "(engine.view.sample_position deals a position consistent "
                              "with it)")

    def chance_outcomes(self):
        raise GameConfigError("a two-player view has no chance outcomes: the unknown cards "
                              "are split between the deck and the partner's hand")

    chance_outcomes_exact = chance_outcomes


_DUO_VIEW_CLASSES: dict = {}


def _duo_view_class(base):
    """The duo view class over ``base`` (the engine's ``State``; taken from the state viewed,
    so that this module needs no import of ``engine.game``, which imports it)."""
    cls = _DUO_VIEW_CLASSES.get(base)
    if cls is None:
        cls = type("DuoView", (_DuoViewMixin, base), {"__module__": __name__})
        _DUO_VIEW_CLASSES[base] = cls
    return cls


def is_duo_view(view) -> bool:
    return isinstance(view, _DuoViewMixin)


def _duo_view(state, p: int, talk: str = "none"):
    if isinstance(state, _DuoViewMixin):
        if state.viewer != p:
            raise GameConfigError(f"player_view: this is player {state.viewer}'s view, "
                                  f"not player {p}'s")
        if talk == "open" and state.hidden:
            raise GameConfigError("player_view: a view that hides partner cards cannot be "
                                  "turned into the open game's view")
        return state.clone()
    v = _hide_deck_duo(state, p)
    partner = 1 - p
    hand = v.hands[partner]
    known = list(hand) if talk == "open" else known_cards(state, partner)
    unknown = list(v.unknown)
    for c in _minus(hand, known):
        unknown[c] += 1
    v.hidden = len(hand) - len(known)
    v.hands[partner] = known
    v.unknown = unknown
    v.viewer = p
    v._history = [a for a in v._history if a < DRAW]   # decisions are public, draws are not
    v.__class__ = _duo_view_class(type(state))
    return v


def known_cards(state, seat: int) -> list[int]:
    """The own cards of ``seat`` that its partner knows in the silent game (``State.seen``:
    seen taken from the face-up centre or the shared cards, not seen leaving since), sorted.
    They must be in the hand: a position whose ``seen`` is not raises GameConfigError."""
    seen = sorted(getattr(state, "seen", [[], []])[seat])
    if _minus(seen, state.hands[seat]):
        raise GameConfigError(f"player {seat}'s seen cards {seen} are not all in its hand "
                              f"{state.hands[seat]}")
    return seen


def _minus(cards_a, cards_b) -> list[int]:
    """The multiset ``cards_a`` less ``cards_b`` (each card of ``b`` taken once)."""
    rest = list(cards_a)
    for c in cards_b:
        if c in rest:
            rest.remove(c)
    return rest


def prophecy_seer(state) -> int | None:
    """Two-player, deal mode: the seat that saw the known top cards of the deck (the cards
    the latest prophecy revealed and put back), or None if that cannot be told.

    Every known top card was revealed by the latest prophecy (a prophecy reveals the top 5,
    which hold every card still known), so its maker is the only one who saw them (strict
    reading, ``docs/DUO.md``).  The maker is found from the decisions after the latest
    prophecy in the history, counted back from the seat to move: turns alternate (D8), and
    each turn has exactly one play or discard.  A history without a prophecy (a position
    parsed mid-game) gives None: nobody is credited with the cards."""
    if state.phase == "prophecy":
        return state.turn
    hist = [a for a in state.history() if a < DRAW]
    last = None
    for i in range(len(hist) - 1, -1, -1):
        if PROPHECY <= hist[i] < DOOR_KEY:
            last = i
            break
    if last is None:
        return None
    m = sum(1 for a in hist[last + 1:] if a < PROPHECY)   # turn actions (plays, discards)
    turns_since = m + 1 if state.phase == "play" else m    # play: a new turn, no action yet
    return state.turn if turns_since % 2 == 0 else 1 - state.turn


def sample_position(view, rnd):
    """A two-player chance-mode position consistent with the duo ``view``: the partner's
    ``view.hidden`` unknown cards are drawn from the unknown Locations, uniformly (the partner
    holds only Locations), and join the partner cards the view knows; the deck's unknown part
    is the rest of ``view.unknown``, in unknown order (chance mode: the engine draws it as
    chance).  ``rnd`` is a ``random.Random``.  Every card drawn comes from ``view.unknown``:
    nothing else is read."""
    if not isinstance(view, _DuoViewMixin):
        raise GameConfigError("sample_position takes a two-player view (player_view)")
    pool = []
    for t, n in enumerate(view.unknown):
        if cards.is_location(t):
            pool.extend([t] * n)
    partner = rnd.sample(pool, view.hidden)
    return dealt_position(view, partner)


def dealt_position(view, cards_dealt):
    """The chance-mode position of the duo ``view`` with ``cards_dealt`` (taken from
    ``view.unknown``) added to the partner's known cards."""
    s = view.clone()
    unknown = list(view.unknown)
    for c in cards_dealt:
        unknown[c] -= 1
    s.__class__ = type(view).__mro__[2]      # the engine's State
    s.unknown = unknown
    p = 1 - view.viewer
    s.hands[p] = sorted(list(view.hands[p]) + list(cards_dealt))
    del s.viewer, s.hidden
    return s
