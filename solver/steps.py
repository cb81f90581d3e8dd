"""The deck-independent steps every kernel shares, written once (numba, inlined).

:mod:`solver.board` holds the packed board fields and the board's rule steps (a play joins
the row, a Door enters play, the Nightmare's options).  This module holds the other pieces that
used to be written out in each kernel and that do not depend on how a kernel models its deck:

* the **mixer**: SplitMix64's finaliser :func:`mix64` and the stream word :func:`word`
  (``engine.rng``'s generator), used by the deal-mode shuffle, the honest kernel's draws, the
  deal-mode playouts and the transposition table's hash;
* the **prophecy**: how many cards it reveals (:func:`prophecy_count`, ``PROPHECY_SIZE``),
  the table of the orders the kept cards may take (``PERMS``, ``NPERM``: the engine's
  ``_PERMS``) and the action number of a (discarded card, order) pair (:func:`prophecy_action`);
* the **Doors**: :func:`doors_win` (the game is won with ``DOORS_TO_WIN`` Doors in play) and
  :func:`door_needed` (a colour has fewer than ``DOORS_PER_COLOUR`` Doors in play);
* **the turn's automatic part** (engine ``State._advance``): every rule decision the five
  deck models (:mod:`solver.clairvoyant.deal_kernel`, :mod:`solver.duo.kernel`,
  :mod:`solver.honest.state`, :mod:`solver.duo.info_state`, :mod:`solver.expectimax.rules`)
  take in their loops, as a small function that returns a decision, and that each kernel
  carries out on its own deck model:

  - the draw loops' control: :func:`hand_full` (solo), :func:`fill_zone` (two players: own
    cards first, then the shared ones), :func:`draft_dealt`, and :func:`draw_next` (the hand
    full: the turn ends, the redraw gives way to the refill, the setup ends; else an empty
    deck: lost; else draw);
  - where a drawn card goes (``GO_*``): :func:`refill_card` (a Location to the hand, a Door
    to its decision, the Nightmare to its phase) with :func:`door_waits` (the Key held and
    :func:`may_gain_door`: solo always, two players without a Door of that colour, D5),
    :func:`redraw_card` (the setup and the Nightmare's redraw: Locations to the hand, the
    rest to limbo), :func:`reveal_card` (the Nightmare's reveal: Locations discarded, the rest
    to limbo);
  - :func:`limbo_back` (the end of a turn or of the setup shuffles the limbo back when it
    holds a card), :func:`discard_foresees` (a discarded Key starts a prophecy),
    :func:`foresee_reveals` (the prophecy takes place when the deck holds a card),
    :func:`may_gain_door` (also asked by a completed series) and :func:`draft_done`;
* **greedy's ranks**: the integers by which ``engine.policy``'s greedy orders its discards
  (:func:`discard_rank`), its plays (:func:`play_rank`) and the cards a prophecy keeps
  (:func:`prophecy_value`), each a function of a few counts, so that every kernel's greedy
  (the deal-mode playouts', the honest kernel's) ranks with the same code.

A rule change is made in ``engine/`` and in the one function here that takes that decision
(docs/SOLVER.md, "Changing a rule"); the kernels keep only the plumbing of their deck model:
how a card is popped (a permutation and an override, a known top over unknown counts, a
stack in packed words), where a count lives, and where a chance-mode kernel stops.

Rule sizes come by name from :mod:`engine.rules`; ``tests/project/test_rule_sizes.py`` fails
on a bare rule size in a kernel's source.  Each function here is checked through the kernels
that call it: ``tests/solver/test_conformance.py`` (every kernel against ``engine/``, step by
step), the greedy tests of each kernel against ``engine.policy`` and the digests of
``benchmarks/before_after.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine import actions as A
from engine import game as G
from engine.rules import (DOORS_PER_COLOUR, DOORS_TO_WIN, DUO_DRAFT_SIZE, DUO_OWN_SIZE,
                          DUO_SHARED_SIZE, FIRST_DOOR, HAND_SIZE, NIGHTMARE,
                          NUM_LOCATION_TYPES, PROPHECY_SIZE, SYMBOLS)

# ----------------------------------------------------------------------------- the mixer
GAMMA = np.uint64(0x9E3779B97F4A7C15)     # SplitMix64's increment (engine.rng)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser of a uint64 (engine.rng.mix64)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def word(key, i):
    """engine.rng.word: the i-th 64-bit word of stream ``key`` (a uint64)."""
    return mix64(key + (np.uint64(i) + np.uint64(1)) * GAMMA)


# ----------------------------------------------------------------------------- the prophecy
# A prophecy action is PROPHECY + i * PERM_STRIDE + p: discard revealed card i, keep the others
# in the order of permutation p of range(k - 1).  The stride is the action layout of
# engine.actions (SPEC: room for the 4! orders of 4 kept cards, five discards), not a rule size:
# a smaller prophecy uses part of the same room.
PERM_STRIDE = 24
LAYOUT_REVEAL_MAX = 5
assert A.DOOR_KEY - A.PROPHECY == LAYOUT_REVEAL_MAX * PERM_STRIDE
KEPT_MAX = PROPHECY_SIZE - 1               # cards a prophecy puts back, at most
assert PROPHECY_SIZE <= LAYOUT_REVEAL_MAX and len(G._PERMS[KEPT_MAX]) <= PERM_STRIDE
# PERMS[m, p, q]: the q-th entry of the p-th permutation (the engine's order) of range(m)
NPERM = np.array([len(G._PERMS[m]) for m in range(KEPT_MAX + 1)], dtype=np.int64)
PERMS = np.zeros((KEPT_MAX + 1, PERM_STRIDE, max(KEPT_MAX, 1)), dtype=np.int64)
for _m in range(KEPT_MAX + 1):
    for _p, _perm in enumerate(G._PERMS[_m]):
        for _q, _x in enumerate(_perm):
            PERMS[_m, _p, _q] = _x


@njit(cache=True, inline="always")
def prophecy_count(deck_size):
    """How many cards a prophecy (or the Nightmare's reveal) takes from a deck of that size."""
    return min(PROPHECY_SIZE, deck_size)


@njit(cache=True, inline="always")
def prophecy_split(x):
    """(i, p) of prophecy action ``PROPHECY + x``: discard revealed card i, order p."""
    return x // PERM_STRIDE, x % PERM_STRIDE


@njit(cache=True, inline="always")
def prophecy_action(i, p):
    """The engine's action: discard revealed card i, keep the rest in order p."""
    return G.PROPHECY + i * PERM_STRIDE + p


@njit(cache=True, inline="always")
def kept_index(m, p, q, i):
    """The revealed index of the q-th kept card under order p when card i is discarded
    (m cards are kept)."""
    r = PERMS[m, p, q]
    return r if r < i else r + 1


@njit(cache=True, inline="always")
def prophecy_moves(out, k, codes_at, rev_at):
    """The prophecy's legal actions, ascending, into ``out[0:]``; returns how many.

    The k revealed cards (top first) must stand in ``out[rev_at : rev_at + k]``; ``out``
    from ``codes_at`` on is scratch (one code per action kept).  Two actions with the same
    outcome (equal revealed cards) are one move: only the smallest number is kept, as
    ``engine.game`` lists them."""
    distinct = True
    for j in range(k):
        for q in range(j):
            if out[rev_at + q] == out[rev_at + j]:
                distinct = False
    m = k - 1
    n = 0
    for i in range(k):
        for pi in range(NPERM[m]):
            code = out[rev_at + i]
            for q in range(m):
                code |= out[rev_at + kept_index(m, pi, q, i)] << (5 * (q + 1))
            dup = False
            if not distinct:
                for z in range(n):
                    if out[codes_at + z] == code:
                        dup = True
                        break
            if not dup:
                out[codes_at + n] = code
                out[n] = prophecy_action(i, pi)
                n += 1
    return n


# ----------------------------------------------------------------------------- Doors
@njit(cache=True, inline="always")
def doors_win(n_in_play):
    """True if ``n_in_play`` Doors in play win the game."""
    return n_in_play == DOORS_TO_WIN


@njit(cache=True, inline="always")
def door_needed(doors_of_colour):
    """True if a colour with that many Doors in play still needs one."""
    return doors_of_colour < DOORS_PER_COLOUR


# ----------------------------------------------------------------------------- the turn's automatic part
# engine.game State._advance and the steps it calls (_refill_with, _place_redrawn, _revealed,
# _end_turn, _missing_zone, _setup_zone), as the decisions every kernel takes in its own loop.
# A kernel keeps the plumbing of its deck model (how a card is popped, where a count lives);
# what to do is asked here.
#
# Where a card drawn from the deck goes (refill_card, redraw_card, reveal_card):
GO_HAND = 0          # a Location joins the hand (two players: the zone being filled)
GO_LIMBO = 1         # set aside in limbo (shuffled back at the end of the turn)
GO_DISCARD = 2       # to the discard pile
GO_DOOR = 3          # a Door waits for the player's decision (phase door)
GO_NIGHTMARE = 4     # the Nightmare waits for the player's decision (phase nightmare)
# The next step of a loop that draws until the hand is full (draw_next):
NEXT_FULL = 0        # the hand is full: refill: the turn ends; redraw: the refill follows;
                     # setup: play (two players: the draft) begins
NEXT_LOST = 1        # a card is needed and the deck is empty: the game is lost
NEXT_DRAW = 2        # draw the next card


@njit(cache=True, inline="always")
def hand_full(hand_size):
    """Solo: a hand of that many cards needs no more (HAND_SIZE)."""
    return hand_size >= HAND_SIZE


@njit(cache=True, inline="always")
def fill_zone(own_size, shared_size):
    """Two players (D4): the zone a refill or redraw fills next, 0 the active player's own
    cards (up to DUO_OWN_SIZE, filled first), 1 the shared cards (up to DUO_SHARED_SIZE);
    -1 when both are full."""
    if own_size < DUO_OWN_SIZE:
        return 0
    if shared_size < DUO_SHARED_SIZE:
        return 1
    return -1


@njit(cache=True, inline="always")
def draft_dealt(shared_size):
    """Two players (D1): the setup has laid out the centre of the draft (DUO_DRAFT_SIZE)."""
    return shared_size >= DUO_DRAFT_SIZE


@njit(cache=True, inline="always")
def draft_done(own_0, own_1):
    """Two players (D1): the draft ends, and play begins, when both players hold their own
    cards (DUO_OWN_SIZE each)."""
    return own_0 + own_1 == 2 * DUO_OWN_SIZE


@njit(cache=True, inline="always")
def draw_next(full, deck_size):
    """The next step of the setup, a redraw or a refill: NEXT_FULL when the hand (or the
    zones, or the draft's centre) is full, else NEXT_LOST when the deck is empty, else
    NEXT_DRAW.  (A chance-mode kernel draws the card, known or not, only on NEXT_DRAW.)"""
    if full:
        return NEXT_FULL
    if deck_size == 0:
        return NEXT_LOST
    return NEXT_DRAW


@njit(cache=True, inline="always")
def refill_card(c):
    """Where a card drawn in a refill goes: a Location GO_HAND, a Door GO_DOOR (the kernel
    then asks :func:`door_waits`, which may send it to limbo), the Nightmare GO_NIGHTMARE."""
    if c < NUM_LOCATION_TYPES:
        return GO_HAND
    if c < NIGHTMARE:
        return GO_DOOR
    return GO_NIGHTMARE


@njit(cache=True, inline="always")
def may_gain_door(duo, doors_own):
    """The active player may gain a Door of a colour (engine ``_player_may_gain``): always
    solo; in the two-player game (``duo``) only without a Door of that colour in play
    (``doors_own``: the active player's Doors of the colour; D5).  Asked by a refill's Door
    (:func:`door_waits`) and by a completed series.  Solo kernels pass ``duo`` False."""
    return not (duo and doors_own > 0)


@njit(cache=True, inline="always")
def door_waits(duo, keys, doors_own):
    """A Door drawn in a refill waits for the player's decision (GO_DOOR) rather than going
    to limbo: the player holds a Key of its colour (``keys``: in hand; two players: own and
    shared cards) and may gain a Door of that colour (:func:`may_gain_door`)."""
    if keys == 0:
        return False
    return may_gain_door(duo, doors_own)


@njit(cache=True, inline="always")
def redraw_card(c):
    """Where a card drawn in the setup or the Nightmare's redraw goes: a Location GO_HAND,
    anything else GO_LIMBO."""
    if c < NUM_LOCATION_TYPES:
        return GO_HAND
    return GO_LIMBO


@njit(cache=True, inline="always")
def reveal_card(c):
    """Where a card the Nightmare's reveal turns over goes: a Location GO_DISCARD, anything
    else GO_LIMBO.  (How many it turns over: :func:`prophecy_count`.)"""
    if c < NUM_LOCATION_TYPES:
        return GO_DISCARD
    return GO_LIMBO


@njit(cache=True, inline="always")
def limbo_back(limbo_size):
    """The end of a turn (and of the setup): the limbo goes back into the deck, which is
    shuffled, when it holds a card (``limbo_size``: its cards, or any value that is 0 exactly
    when it is empty)."""
    return limbo_size != 0


@njit(cache=True, inline="always")
def discard_foresees(c):
    """A discarded Location starts a prophecy (phase foresee) when it is a Key; any other
    discard (and a play, a Door, a Nightmare but its redraw) goes on to the refill."""
    return c % SYMBOLS == SYMBOLS - 1


@njit(cache=True, inline="always")
def foresee_reveals(deck_size):
    """A prophecy about to begin takes place (cards to reveal): the deck holds a card.  Else
    the turn goes on to the refill."""
    return prophecy_count(deck_size) > 0


# ----------------------------------------------------------------------------- greedy's ranks
# Sun, Moon, Key: lower = played first (engine.policy._play_choice: Moon > Sun > Key)
SYM_PREF = np.array([1, 0, 2], dtype=np.int64)
assert SYMBOLS == 3 and SYM_PREF.shape[0] == SYMBOLS
CARD_BITS = 4            # the card number is the rank's last term (16 > the 12 Locations)
assert NUM_LOCATION_TYPES <= 1 << CARD_BITS
_CNT_SPAN = 8            # a colour's count in a hand (+ 1 for a prophecy) stays below 8
_CNT_CAP = 3             # engine.policy._prophecy_value caps a colour's count (a heuristic)


@njit(cache=True, inline="always")
def discard_rank(c, needed, in_series, cnt_col):
    """engine.policy._discard_rank of Location c as one integer (lower = discarded first):
    (is a Key, its colour needs a Door, it is the colour of the open series of a needed
    colour, the count of its colour in hand, not a Sun, c).  ``needed``, ``in_series`` are
    0/1."""
    key = 1 if c % SYMBOLS == SYMBOLS - 1 else 0
    sym = 0 if c % SYMBOLS == 0 else 1
    return ((((key * 2 + needed) * 2 + in_series) * _CNT_SPAN + cnt_col) * 2 + sym) \
        * (1 << CARD_BITS) + c


@njit(cache=True, inline="always")
def play_rank(c, follow):
    """engine.policy._play_choice's key of Location c as one integer (lower = played first):
    a follow-up of another symbol of its colour in hand (``follow`` 0/1), not a Key, Moon >
    Sun > Key, c."""
    key = 1 if c % SYMBOLS == SYMBOLS - 1 else 0
    return (((1 - follow) * 2 + key) * SYMBOLS + SYM_PREF[c % SYMBOLS]) * (1 << CARD_BITS) + c


@njit(cache=True, inline="always")
def prophecy_value(c, doors_col, key_held, in_series, cnt_col):
    """engine.policy._prophecy_value (a pair) as one integer: higher = kept nearer the top.
    ``doors_col``: Doors in play of c's colour; ``key_held``: (a Door) its Key is in hand;
    ``in_series``: (a Location) c's colour is that of the open series; ``cnt_col``: cards of
    c's colour in hand."""
    if c == NIGHTMARE:
        return -10 * (1 << CARD_BITS)
    if c >= FIRST_DOOR:
        if doors_col < DOORS_PER_COLOUR and key_held:
            return 10 * (1 << CARD_BITS)
        return -5 * (1 << CARD_BITS)
    if doors_col >= DOORS_PER_COLOUR:
        return -1 * (1 << CARD_BITS) - c
    bonus = 5 if in_series else 0
    return (bonus + min(cnt_col, _CNT_CAP)) * (1 << CARD_BITS) - c
