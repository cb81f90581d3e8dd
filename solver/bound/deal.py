"""Deals of a position (``docs/BOUND.md``, section 2).

A *position* here is a solo player's view: a chance-mode engine ``State`` (no seed) whose deck
is a known top (``deck``, top first: cards a prophecy showed) above a multiset of cards in
unknown order (``unknown``).  A *deal* ``omega`` of the position fixes everything chance will
decide from there on:

* ``order`` - the unknown cards in the order they lie below the known top, top first (a
  sequence of card types whose multiset is ``unknown``);
* ``shuffles`` - the result of every later shuffle: ``shuffles.order(k, counts)`` is the
  order (top first) that the ``k``-th shuffle after the position (``k`` = 0, 1, ...) gives
  to the multiset ``counts`` it shuffles.  The relaxed player sees all of it, for every
  ``k`` and every multiset the game might shuffle there.

Two kinds of ``shuffles``:

* :class:`SeedShuffles` - the engine's own rule (``engine.rng``): shuffle ``k`` of ``counts``
  is ``shuffle_counts(counts, seed, first + k)``.  This is how a seeded (deal-mode) state
  continues, so a deal of this kind *is* a deal-mode engine state (:func:`deal_state`) and
  the clairvoyant solver can play it;
* :class:`TableShuffles` - an explicit table ``{(k, counts): order}``, asked lazily: a missing
  entry raises :class:`Unfixed`.  :func:`expect_over_deals` uses it to enumerate every deal
  of a small position exactly, branching on a shuffle only when the computation asks for it.

The law of ``omega``: ``order`` uniform over the distinct arrangements of ``unknown``; each
shuffle ``(k, counts)`` uniform over the arrangements of ``counts``, independent of the order
and of the other shuffles.  Under this law, for a player who sees only the view, the next
unknown card is uniform over the unknown multiset at every draw (what the engine's chance mode
says), which is all the argument needs.  Seeded deals follow this law up to the quality of the
generator (uniform seeds; the modulo bias of ``engine.rng`` is below 76 / 2**64 per draw).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from engine import cards as card_codes
from engine import rng
from engine.errors import OnirimError
from engine.game import State
from engine.view import known_top, player_view

# the shuffle index of a sampled deal's unknown order; its later shuffles take 1, 2, ...
ORDER_INDEX = 0


class Unfixed(OnirimError):
    """A shuffle that a :class:`TableShuffles` does not fix yet: ``(k, counts)`` (the
    enumeration's signal, an ``OnirimError`` like every exception a caller may meet)."""

    def __init__(self, k: int, counts: tuple):
        super().__init__(k, counts)
        self.k = k
        self.counts = counts


@dataclass(frozen=True)
class SeedShuffles:
    """Shuffle ``k`` after the position is the engine's shuffle index ``first + k``."""
    seed: int
    first: int

    def order(self, k: int, counts) -> tuple:
        return tuple(rng.shuffle_counts(list(counts), self.seed, self.first + k))


@dataclass(frozen=True)
class TableShuffles:
    """Shuffles from an explicit table ``{(k, counts tuple): order tuple}``."""
    table: tuple = ()          # ((k, counts), order) pairs, hashable

    def order(self, k: int, counts) -> tuple:
        key = (k, tuple(counts))
        for kk, o in self.table:
            if kk == key:
                return o
        raise Unfixed(k, tuple(counts))

    def fixed(self, k: int, counts: tuple, order: tuple) -> "TableShuffles":
        return TableShuffles(self.table + (((k, tuple(counts)), tuple(order)),))


@dataclass(frozen=True)
class Deal:
    """One deal of a position: the unknown order (top first) and the later shuffles."""
    order: tuple
    shuffles: object


def _counts_of(cards) -> list[int]:
    counts = [0] * card_codes.NUM_TYPES
    for c in cards:
        counts[c] += 1
    return counts


def check_deal(view: State, deal: Deal) -> None:
    """Raise ValueError unless ``deal`` is a deal of the position ``view``."""
    if view.seed is not None:
        raise ValueError("a position is a chance-mode state (no seed): use player_view")
    if _counts_of(deal.order) != list(view.unknown):
        raise ValueError("the deal's order is not an arrangement of the unknown cards")


def deal_of_state(state: State) -> tuple[State, Deal]:
    """A seeded (deal-mode) solo state as (the player's view, its deal): the cards below the
    known top in their real order, and the seed's later shuffles."""
    if state.seed is None:
        raise ValueError("deal_of_state needs a seeded (deal-mode) state")
    k = known_top(state)
    view = player_view(state)
    return view, Deal(tuple(state.deck[k:]), SeedShuffles(state.seed, state.shuffles))


def sampled_deal(view: State, seed: int) -> Deal:
    """The deal of ``view`` drawn from a 64-bit ``seed``: the unknown order is the engine's
    shuffle of the unknown cards with shuffle index ORDER_INDEX, the later shuffles take
    indices ORDER_INDEX + 1, ...  Deals of different seeds are independent draws (up to the
    generator)."""
    order = tuple(rng.shuffle_counts(list(view.unknown), seed, ORDER_INDEX))
    return Deal(order, SeedShuffles(seed, ORDER_INDEX + 1))


def deal_seed(stream: int, j: int) -> int:
    """The seed of sample ``j`` of a run keyed by ``stream`` (both 64-bit)."""
    return rng.word(rng.stream_key(stream & rng.MASK, j), 0)


def deal_state(view: State, deal: Deal) -> State:
    """The deal-mode engine state of ``deal``: the view's known top, then ``deal.order``; the
    later shuffles from the seed (only :class:`SeedShuffles` deals have one).  A view at a
    chance phase comes back advanced to its next decision (or the end) on that deal."""
    if not isinstance(deal.shuffles, SeedShuffles):
        raise ValueError("only a seeded deal is a deal-mode engine state")
    check_deal(view, deal)
    s = view.clone()
    s.deck = list(view.deck) + list(deal.order)
    s.unknown = [0] * card_codes.NUM_TYPES
    s.seed = deal.shuffles.seed
    s.shuffles = deal.shuffles.first
    s.known_top = len(view.deck)
    # a deal-mode state never rests at a chance phase (refill, reveal, ...): the engine's
    # automatic part draws from the known deck until the next decision or the end, as
    # Game.new_initial_state(seed) does after its setup shuffle
    s._advance()
    return s


# ------------------------------------------------------------------------ exact enumeration
def arrangements(counts) -> list[tuple]:
    """Every distinct arrangement of the multiset ``counts`` (card types), each equally
    likely under a uniform shuffle (each is met by prod(n_t!) of the n! permutations)."""
    cards = [t for t, n in enumerate(counts) for _ in range(n)]
    return sorted(set(itertools.permutations(cards)))


def arrangement_count(counts) -> int:
    n = sum(counts)
    out = factorial(n)
    for m in counts:
        out //= factorial(m)
    return out


class TooManyDeals(OnirimError):
    """:func:`expect_over_deals` passed its ``max_deals``."""


def expect_over_deals(view: State, f, max_deals: int = 200_000):
    """The exact expectation of ``f(deal)`` over every deal of ``view``, with the law of the
    module docstring: returns ``(mean, deals)`` where ``deals`` counts the (order, shuffle
    table) combinations evaluated.

    The shuffles are fixed lazily: ``f`` runs with a :class:`TableShuffles` that fixes only
    the shuffles asked so far; a new one raises :class:`Unfixed` and the deal branches into
    every arrangement of the shuffled cards (equally likely), each run again from the start.
    So ``f`` must be a pure function of the deal and must let :class:`Unfixed` through.  The
    shuffles ``f`` never asks for do not change its value, so summing over only the ones it
    asks for is the full expectation.  Raises :class:`TooManyDeals` past ``max_deals``."""
    total = Fraction(0)
    deals = 0
    orders = arrangements(view.unknown)
    p0 = Fraction(1, len(orders))
    for order in orders:
        stack = [(p0, TableShuffles())]
        while stack:
            p, table = stack.pop()
            deals += 1
            if deals > max_deals:
                raise TooManyDeals(f"more than {max_deals} deals")
            try:
                v = f(Deal(order, table))
            except Unfixed as u:
                deals -= 1
                outs = arrangements(u.counts)
                q = p / len(outs)
                for o in outs:
                    stack.append((q, table.fixed(u.k, u.counts, o)))
                continue
            total += p * Fraction(v)
    return float(total), deals
