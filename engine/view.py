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
nothing: :func:`prophecy_seer`), the public decisions so far (``history``:
no draws), and, as ``unknown``, the multiset of every card the viewer cannot see: the deck's
unseen part *and* the partner's own cards, merged, since the viewer cannot tell them apart.
The partner's hand is empty in the view and ``hidden`` says how many cards it holds;
``deck_size()`` is the real deck size (public).  A duo view is not a game position: it
refuses ``apply_action`` and chance outcomes; a search samples a position consistent with it
(:func:`sample_position`, which deals the partner's hand and the deck order from ``unknown``).
The *strings* of a two-player view: :func:`observation_fields` hides the partner's own cards
as ``?`` (see ``docs/NOTATION.md``, "The player's view"), and ``State.observation_string`` /
``State.information_state_string`` print them.
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


def player_view(state, player: int | None = None):
    """A copy of ``state`` that holds only what ``player`` (default: the one to move) may
    know, as a chance-mode position: unknown deck cards become counts, ``seed`` is dropped.

    The view has the same legal actions as ``state`` at every decision.  Its ``history`` is
    the player's own list of actions, which it knows.
    """
    if state.players == 2:
        return _duo_view(state, _check_player(state, player))
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


def information_key(state, player: int | None = None) -> tuple:
    """A hashable key of what ``player`` may know (equal keys: the same information)."""
    return player_view(state, player)._key()


def _check_player(state, player) -> int:
    """The seat whose view is asked for: ``player``, or by default the one to move (at a
    chance node or the end of the game: ``state.turn``)."""
    if player is None:
        return state.turn if state.players == 2 else 0
    if isinstance(player, bool) or not isinstance(player, int) \
            or not 0 <= player < state.players:
        raise GameConfigError(f"player: no player {player!r} in a "
                              f"{'two-player' if state.players == 2 else 'solo'} game")
    return player


HIDDEN = "?"      # a card the viewer cannot see (two-player: the partner's own cards)


def observation_fields(state, player: int | None = None) -> dict:
    """The position as the notation's ordered fields (``engine.notation``), holding only what
    ``player`` may know: no hidden deck order, no ``seed``/``shuffles``, and in a two-player
    game the partner's own cards as ``?`` (one per card).

    Two-player ruling (strict, ``docs/DUO.md``): the deck cards a prophecy put back are known
    only to the player who made the prophecy (:func:`prophecy_seer`); the partner sees them
    as unknown.  Solo: the fields are those of :func:`player_view`, so they parse back into
    it."""
    p = _check_player(state, player)
    f = state_fields(_hide_deck_duo(state, p) if state.players == 2 else _hide_deck(state))
    if state.players == 2:
        other = f"hand{1 - p}"
        n = len(f[other])
        if isinstance(state, _DuoViewMixin):    # a view already: its unknown cards include
            n = state.hidden                    # the partner's, which are not in the deck
            if sum(state.unknown) == n and f["deck"][-1:] == ["*"]:
                f["deck"] = f["deck"][:-1]
        f[other] = [HIDDEN] * n
    return f


def observation_text(state, player: int | None = None) -> str:
    """:func:`observation_fields` in the one-line notation (``docs/NOTATION.md``)."""
    return join_fields(observation_fields(state, player))


def information_state_text(state, player: int | None = None) -> str:
    """What ``player`` may know and recall: :func:`observation_text`, then ``history=`` with
    every decision taken so far as action integers, oldest first (``-`` if none).  Decisions
    are public (cards played, discarded, exchanged, drafted); the chance outcomes (the cards
    drawn) are left out, because in a two-player game a partner's draws are private, and what
    a player drew is in the observation while it is held."""
    acts = [a for a in state.history() if a < DRAW]
    return observation_text(state, player) + " history=" + (",".join(map(str, acts)) or "-")


# ----------------------------------------------------------------------------- two-player
class _DuoViewMixin:
    """What a duo view changes in ``State`` (see the module doc).  ``viewer``: the seat whose
    view it is; ``hidden``: how many own cards the partner holds (not seen); ``unknown``: the
    deck's unseen cards and the partner's own cards together."""

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


def _duo_view(state, p: int):
    if isinstance(state, _DuoViewMixin):
        if state.viewer != p:
            raise GameConfigError(f"player_view: this is player {state.viewer}'s view, "
                                  f"not player {p}'s")
        return state.clone()
    v = _hide_deck_duo(state, p)
    partner = 1 - p
    unknown = list(v.unknown)
    for c in v.hands[partner]:
        unknown[c] += 1
    v.hidden = len(v.hands[partner])
    v.hands[partner] = []
    v.unknown = unknown
    v.viewer = p
    v._history = [a for a in v._history if a < DRAW]   # decisions are public, draws are not
    v.__class__ = _duo_view_class(type(state))
    return v


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
    ``view.hidden`` own cards are drawn from the unknown Locations, uniformly (the partner
    holds only Locations), and the deck's unknown part is the rest of ``view.unknown``, in
    unknown order (chance mode: the engine draws it as chance).  ``rnd`` is a
    ``random.Random``.  Every card drawn comes from ``view.unknown``: nothing else is read."""
    if not isinstance(view, _DuoViewMixin):
        raise GameConfigError("sample_position takes a two-player view (player_view)")
    pool = []
    for t, n in enumerate(view.unknown):
        if cards.is_location(t):
            pool.extend([t] * n)
    partner = rnd.sample(pool, view.hidden)
    s = view.clone()
    unknown = list(view.unknown)
    for c in partner:
        unknown[c] -= 1
    s.__class__ = type(view).__mro__[2]      # the engine's State
    s.unknown = unknown
    s.hands[1 - view.viewer] = sorted(partner)
    del s.viewer, s.hidden
    return s
