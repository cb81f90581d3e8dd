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
  (the deal-mode playouts', the honest kernel's) ranks with the same code;
* **greedy's decisions** on those ranks (the last section; issue 26): the play decision from
  per-colour tables (:func:`play_choice`, ``PLAY_BEST``/``LOWEST``), :func:`discard_rank_in`,
  the prophecy's discard and order (:func:`greedy_prophecy`, :func:`prophecy_order`), the
  Nightmare (:func:`nightmare_key`, :func:`nightmare_fallback`) and greedy-plus's play change
  (:func:`plus_plays`), shared by the solo and two-player information-state greedies and the
  deal-mode playouts' greedy.

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

from engine import actions
from engine import game
from engine.policy import DOOR_MIN_DECK, REVEAL_MIN_DECK, SERIES_LAST
from engine.rules import (COLOURS, DOORS_PER_COLOUR, DOORS_TO_WIN, DUO_DRAFT_SIZE, DUO_OWN_SIZE,
                          DUO_SHARED_SIZE, FIRST_DOOR, HAND_SIZE, NIGHTMARE,
                          NUM_LOCATION_TYPES, PROPHECY_SIZE, SYMBOLS)
from solver import board

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


@njit(cache=True, inline="always")
def below(r, n):
    """A word ``r``'s top 32 bits scaled to [0, n) (an int64; the bias is below n / 2**32):
    the uniform choices of the honest kernels' samplers."""
    return np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


# ----------------------------------------------------------------------------- the prophecy
# A prophecy action is PROPHECY + i * PERM_STRIDE + p: discard revealed card i, keep the others
# in the order of permutation p of range(k - 1).  The stride is the action layout of
# engine.actions (docs/NOTATION.md section 4: room for the 4! orders of 4 kept cards, five
# discards), not a rule size: a smaller prophecy uses part of the same room.
PERM_STRIDE = 24
LAYOUT_REVEAL_MAX = 5
assert actions.DOOR_KEY - actions.PROPHECY == LAYOUT_REVEAL_MAX * PERM_STRIDE
KEPT_MAX = PROPHECY_SIZE - 1               # cards a prophecy puts back, at most
assert PROPHECY_SIZE <= LAYOUT_REVEAL_MAX and len(game._PERMS[KEPT_MAX]) <= PERM_STRIDE
# PERMS[m, p, q]: the q-th entry of the p-th permutation (the engine's order) of range(m)
NPERM = np.array([len(game._PERMS[m]) for m in range(KEPT_MAX + 1)], dtype=np.int64)
PERMS = np.zeros((KEPT_MAX + 1, PERM_STRIDE, max(KEPT_MAX, 1)), dtype=np.int64)
for _m in range(KEPT_MAX + 1):
    for _p, _perm in enumerate(game._PERMS[_m]):
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
    return game.PROPHECY + i * PERM_STRIDE + p


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


# ----------------------------------------------------------------------------- greedy's decisions
# Greedy's decisions on the ranks above, written once for the greedy of both information-state
# kernels (issue 26; was solver/greedy_steps.py).  The section above holds greedy's ranks
# (``discard_rank``, ``play_rank``, ``prophecy_value``); this one holds the decisions built on
# them that do not depend on how a kernel reads a hand, so that the solo greedy
# (:mod:`solver.honest.greedy`), the two-player greedy (:mod:`solver.duo.info_greedy`) and the
# deal-mode playouts' greedy (:mod:`solver.clairvoyant.playouts`) decide with the same code:
#
# * the per-colour **play tables** (``PLAY_BEST``, ``LOWEST``) and the **play decision**
#   (:func:`play_choice`, engine.policy's rules 1-4) from a colour's held cards (a 3-bit mask),
#   its count in hand and whether the colour still needs a Door;
# * the **discard rank with the open series** (:func:`discard_rank_in`);
# * the **prophecy**: a card's value (:func:`card_value`), the card greedy discards and the
#   order it keeps the others in (:func:`greedy_prophecy`, :func:`prophecy_order`: a stable
#   insertion by value, then the smallest action number with that outcome);
# * the **Nightmare**: the Key to discard (:func:`nightmare_key`), else the other options
#   (:func:`nightmare_fallback`, with greedy's deck-size thresholds);
# * greedy-plus's play-phase change (:func:`plus_plays`).
#
# Where the hand and the Doors are is given by arguments (the hand: one zone of counts, or own
# and shared cards; a colour "needs" a Door: solo, fewer than ``DOORS_PER_COLOUR`` in play;
# two-player, the player holds none, D5), and each kernel keeps how it numbers an action (the
# two-player zone: own or shared card), the draft and the exchanges (two players only).
# Checked through the kernels: the greedy tests of each against ``engine.policy`` and the digests
# of ``benchmarks/before_after.py`` and ``solver.duo.digest``.
NO_RANK = 1 << 40                       # above every rank
NO_PLAY = NO_RANK                       # no card of the colour may be played
CARD_MASK = (1 << CARD_BITS) - 1        # a rank's last term: the card
assert KEPT_MAX <= 4                    # kept_insert holds the kept cards in four names
NCOL = 4                                # play_choice holds a colour's mask in four names
assert COLOURS == NCOL
# engine.policy's heuristics (imported above): the Nightmare's deck-size thresholds
# REVEAL_MIN_DECK and DOOR_MIN_DECK, and rule 2's SERIES_LAST


# ----------------------------------------------------------------------------- the play tables
# Within one colour the greedy ranks depend only on which of its three cards are held (a 3-bit
# mask: bit 0 Sun, 1 Moon, 2 Key) and the last card's symbol:
# PLAY_BEST[mask, lsym + 1] = (class * 16 + offset) of the colour's playable card with the
# lowest play_rank (class = the rank without the card number; adding colour * 3 gives the
# full rank, whose last term is the card number), or NO_PLAY if no card of it may be played.
# For discards the lowest-ranked card of a colour is always its lowest held offset (Sun < Moon
# < Key: the Key term outweighs the symbol term), LOWEST[mask].
def _play_tables():
    best = np.full((1 << SYMBOLS, SYMBOLS + 1), NO_PLAY, dtype=np.int64)
    lowest = np.full(1 << SYMBOLS, -1, dtype=np.int64)
    for mask in range(1 << SYMBOLS):
        held = [off for off in range(SYMBOLS) if mask >> off & 1]
        if held:
            lowest[mask] = held[0]
        for ls in range(-1, SYMBOLS):
            for off in held:
                if off == ls:
                    continue
                follow = 1 if any(x != off for x in held) else 0
                r = int(play_rank.py_func(off, follow))
                if r < best[mask, ls + 1]:
                    best[mask, ls + 1] = r
    return best, lowest


PLAY_BEST, LOWEST = _play_tables()


# ----------------------------------------------------------------------------- ranks in play
@njit(cache=True, inline="always")
def discard_rank_in(c, col, needed, s_col, s_len, cnt_col):
    """engine.policy._discard_rank of Location c of colour ``col``
    (:func:`solver.steps.discard_rank`) with its series term: ``col`` is ``s_col``, that of
    the open series (``s_len`` != 0), and the colour is needed (``needed`` 0/1)."""
    ins = 1 if (col == s_col and s_len != 0 and needed == 1) else 0
    return discard_rank(c, needed, ins, cnt_col)


# How a kernel's hand is read, as arguments: the hand is the counts at S[own:] (solo), or those
# plus the shared cards' at S[sh:] (two-player, ``two_zones``); a colour needs a Door when fewer
# than DOORS_PER_COLOUR of it are in play, S[dr + col] (solo), or when the player holds none of
# it, S[dr + col] == 0 (two-player, ``d5``: ruling D5).  The hand is read lazily, as the kernels
# did (reading every colour up front cost the solo playouts about 5%).  play_choice and the
# Nightmare's functions are called, not inlined into every kernel that inlines greedy: inlined,
# they cost about 20 s more compile per family (python -m onirim.precompile --only honest: 87 s
# of CPU against 57 s called); called, the solo greedy playouts run within 2.5% of the code
# they replace and the two-player ones about 5-9% slower (issue 26 report).  play_choice
# itself now reads every colour (below: its keys need no branch on the hand).
@njit(cache=True, inline="always")
def _held(S, own, sh, two_zones, x):
    return S[own + x] + S[sh + x] if two_zones else S[own + x]


@njit(cache=True, inline="always")
def hand_count(S, own, sh, two_zones, col):
    """The cards of colour ``col`` in the hand."""
    b = col * SYMBOLS
    return (_held(S, own, sh, two_zones, b) + _held(S, own, sh, two_zones, b + 1)
            + _held(S, own, sh, two_zones, b + 2))


@njit(cache=True, inline="always")
def colour_needed(S, dr, d5, col):
    """The colour ``col`` still needs a Door (see above)."""
    return S[dr + col] == 0 if d5 else door_needed(S[dr + col])


# play_choice decides by one maximum over packed keys, without a branch on the hand (its counts
# are not predictable from one playout decision to the next: the rule-by-rule loops that read
# the hand lazily mispredicted several times per call).  Each action on a colour's cards gets a
# key, and the largest key of all is greedy's action:
#   rule 1 (continue the open series):  KEY_RULE1 + (KEY_SPAN - 1 - r),         r: play rank;
#   rule 3 (start a series):            KEY_RULE3 + n * KEY_SPAN + (KEY_SPAN - 1 - r),
#                                       n: the colour's count;
#   rules 2 and 4 (discard):            -(discard rank)   (<= 0 < KEY_RULE3);
#   no such action:                     NO_KEY.
# A play rank here is PLAY_BEST's (class * 16 + offset) plus colour * 3 (the card in the low
# bits, CARD_MASK), and a discard rank is discard_rank's, of the colour's lowest held card; both
# keys of colour col are those of colour 0 minus col * SYMBOLS (discard_rank is linear in the
# card and its terms: checked below).  A colour's largest key then depends on a few small
# numbers only, and COLOUR_KEY holds it for colour 0 at
#   index = mask << 8 | n << 5 | ls1 << 3 | need << 2 | rs << 1 | r3
# (mask: PLAY_BEST's; n: the colour's cards in hand; ls1: the last card's symbol + 1; need: the
# colour needs a Door; rs: it is the open series' colour and rule 1 applies; r3: rule 3 may
# apply, rule 2 does not hold).  Entries of no hand (n below the mask's cards) are NO_KEY.
KEY_SPAN = 1 << 8                       # above every play rank (class * 16 + card)
KEY_RULE3 = KEY_SPAN * _CNT_SPAN        # above every discard key, below every rule-3 key
KEY_RULE1 = 2 * KEY_RULE3               # above every rule-3 key
NO_KEY = -(1 << 15)                     # below every key (also a colour not held: an empty
                                        # hand decides (False, 0), as the rules' loops did)
assert _CNT_SPAN == 1 << 3 and SYMBOLS + 1 == 1 << 2    # n: 3 bits, ls1: 2 bits of the index
assert HAND_SIZE < _CNT_SPAN and DUO_OWN_SIZE + DUO_SHARED_SIZE < _CNT_SPAN


def _colour_key_table():
    t = np.full(1 << (SYMBOLS + 8), NO_KEY, dtype=np.int16)
    for _c in range(NUM_LOCATION_TYPES):          # discard_rank: linear in the card and terms
        for _nd in (0, 1):
            for _ins in (0, 1):
                for _n in range(_CNT_SPAN):
                    r = int(discard_rank.py_func(_c, _nd, _ins, _n))
                    r0 = int(discard_rank.py_func(_c % SYMBOLS, _nd, _ins, _n))
                    assert r == r0 + _c - _c % SYMBOLS and r & CARD_MASK == _c
                    assert 0 <= r < KEY_RULE3
    assert int(PLAY_BEST[PLAY_BEST < NO_PLAY].max()) + NUM_LOCATION_TYPES < KEY_SPAN
    for m in range(1, 1 << SYMBOLS):
        for n in range(bin(m).count("1"), _CNT_SPAN):
            for ls1 in range(SYMBOLS + 1):
                pb = int(PLAY_BEST[m, ls1])
                for need in (0, 1):
                    for rs in (0, 1):
                        for r3 in (0, 1):
                            k = -int(discard_rank.py_func(int(LOWEST[m]), need, rs, n))
                            if pb < NO_PLAY and rs:
                                k = max(k, KEY_RULE1 + KEY_SPAN - 1 - pb)
                            elif pb < NO_PLAY and r3 and need and n >= 2:
                                k = max(k, KEY_RULE3 + n * KEY_SPAN + KEY_SPAN - 1 - pb)
                            t[m << 8 | n << 5 | ls1 << 3 | need << 2 | rs << 1 | r3] = k
    assert KEY_RULE1 + KEY_SPAN < 1 << 15
    return t


COLOUR_KEY = _colour_key_table()


@njit(cache=True, inline="always")
def colour_key(h0, h1, h2, need, col, rs, g):
    """The largest key (above) among the actions on colour ``col``'s cards: ``h0``..``h2`` its
    Sun, Moon, Key in hand, ``need`` it needs a Door, ``rs`` it is the open series' colour and
    rule 1 applies; ``g`` = ls1 << 3 | r3 (the same for every colour)."""
    i = ((np.int64(h0 > 0) << 8) | (np.int64(h1 > 0) << 9) | (np.int64(h2 > 0) << 10)
         | ((h0 + h1 + h2) << 5) | (np.int64(need) << 2) | (np.int64(rs) << 1) | g)
    return np.int64(COLOUR_KEY[np.uint64(i)]) - col * SYMBOLS


@njit(cache=True, inline="always")
def key_choice(best):
    """(play, c) of the largest key ``best``: play = True to play Location c, False to
    discard it."""
    play = best >= KEY_RULE3
    c = ((KEY_SPAN - 1 - (best & (KEY_SPAN - 1))) if play else -best) & CARD_MASK
    return play, c


@njit(cache=True, inline="always")
def _at(S, i):
    """S[i] for an index i >= 0 (unsigned: no negative-index wrap-around code)."""
    return S[np.uint64(i)]


@njit(cache=True, inline="always")
def play_choice_in(S, own, sh, two_zones, dr, d5, s_col, s_len, ls1):
    """:func:`play_choice`'s body, inlined there twice, ``two_zones`` a constant in each (the
    reads of the shared cards go away for one zone)."""
    s_on = s_col >= 0
    ds = _at(S, dr + max(s_col, 0))
    need_s = (ds == 0) if d5 else door_needed(ds)
    r1 = s_on & need_s & (s_len != 0)                 # rule 1 applies (to colour s_col)
    r3 = not (s_on & need_s & (s_len == SERIES_LAST))  # rule 2 does not hold
    g = (ls1 << 3) | np.int64(r3)
    best = np.int64(NO_KEY)
    for col in range(NCOL):                          # unrolled by LLVM: no branch on the hand
        b = col * SYMBOLS
        dc = _at(S, dr + col)
        if two_zones:
            h0 = _at(S, own + b) + _at(S, sh + b)
            h1 = _at(S, own + b + 1) + _at(S, sh + b + 1)
            h2 = _at(S, own + b + 2) + _at(S, sh + b + 2)
        else:
            h0 = _at(S, own + b)
            h1 = _at(S, own + b + 1)
            h2 = _at(S, own + b + 2)
        best = max(best, colour_key(h0, h1, h2, (dc == 0) if d5 else door_needed(dc), col,
                                    r1 & (col == s_col), g))
    return key_choice(best)


@njit(cache=True)
def play_choice(S, own, sh, two_zones, dr, d5, s_col, s_len, ls1):
    """engine.policy's play decision (rules 1-4) from the tables: (play, c), play = True to play
    Location c, False to discard it.  The hand and the Doors are read as the arguments say
    (above); ``s_col``, ``s_len``: the open series' colour (-1: an empty row, then ``s_len``
    0) and length; ``ls1``: the last card's symbol + 1 (0: an empty row).  Every colour is
    read and keyed (above); the largest key decides."""
    if two_zones:
        return play_choice_in(S, own, sh, True, dr, d5, s_col, s_len, ls1)
    return play_choice_in(S, own, sh, False, dr, d5, s_col, s_len, ls1)


# ----------------------------------------------------------------------------- the prophecy
# The prophecy decision reads the hand through three per-colour tuples (four entries each):
# ``doors`` the colour's Doors as greedy's ranks count them (solo: the Doors in play; two-player:
# 0 if the player still needs one, else DOORS_PER_COLOUR), ``keys`` whether its Key is in hand
# and ``cnts`` its cards in hand; ``s_col``/``s_len`` are the open series (-1/0: an empty row).
@njit(cache=True, inline="always")
def card_value(c, doors, keys, cnts, s_col, s_len):
    """engine.policy._prophecy_value of a revealed card c (:func:`solver.steps.prophecy_value`:
    higher = kept nearer the top)."""
    if c == NIGHTMARE:
        return prophecy_value(c, 0, False, False, 0)
    if c >= FIRST_DOOR:
        col = c - FIRST_DOOR
        return prophecy_value(c, doors[col], keys[col], False, 0)
    col = c // SYMBOLS
    return prophecy_value(c, doors[col], False, col == s_col and s_len != 0, cnts[col])


@njit(cache=True, inline="always")
def kept_insert(m, c, v, r0, r1, r2, r3, v0, v1, v2, v3):
    """Insert card ``c`` of value ``v`` into the ``m`` kept cards r0.. (values v0.., best
    first) after every entry of value >= v (a stable sort, as Python's; no array, so that the
    playout loop allocates nothing).  Returns the new (r0, r1, r2, r3, v0, v1, v2, v3)."""
    if m >= 1 and v0 < v:
        return c, r0, r1, r2, v, v0, v1, v2
    if m >= 2 and v1 < v:
        return r0, c, r1, r2, v0, v, v1, v2
    if m >= 3 and v2 < v:
        return r0, r1, c, r2, v0, v1, v, v2
    if m == 0:
        return c, r1, r2, r3, v, v1, v2, v3
    if m == 1:
        return r0, c, r2, r3, v0, v, v2, v3
    if m == 2:
        return r0, r1, c, r3, v0, v1, v, v3
    return r0, r1, r2, c, v0, v1, v2, v


@njit(cache=True)
def prophecy_order(S, top, k, victim, doors, keys, cnts, s_col, s_len):
    """The prophecy action that discards a revealed card of type ``victim`` (the ``k``
    revealed cards at S[top:]) and puts the others back in greedy's order
    (engine.policy._greedy_prophecy: by value, best on top, ties in the revealed order), as
    the smallest action number with that outcome (the one the legal list keeps); -1 if no
    revealed card has that type."""
    r0 = r1 = r2 = r3 = 0
    v0 = v1 = v2 = v3 = 0
    m = 0
    removed = False
    for j in range(k):
        c = S[top + j]
        if not removed and c == victim:
            removed = True
            continue
        r0, r1, r2, r3, v0, v1, v2, v3 = kept_insert(
            m, c, card_value(c, doors, keys, cnts, s_col, s_len), r0, r1, r2, r3, v0, v1, v2,
            v3)
        m += 1
    if not removed:
        return -1
    for i in range(k):
        if S[top + i] != victim:
            continue
        for p in range(NPERM[m]):
            same = True
            for q in range(m):
                want = r0 if q == 0 else (r1 if q == 1 else (r2 if q == 2 else r3))
                if S[top + kept_index(m, p, q, i)] != want:
                    same = False
                    break
            if same:
                return prophecy_action(i, p)
    return -1


@njit(cache=True)
def greedy_prophecy(S, top, k, doors, keys, cnts, s_col, s_len):
    """engine.policy._greedy_prophecy on the ``k`` revealed cards at S[top:]: discard the
    Nightmare if revealed, else the Location of the lowest discard rank (ranked within the
    hand plus that card), else (only Doors) the first of the lowest value; keep the others in
    greedy's order (:func:`prophecy_order`)."""
    victim = -1
    for j in range(k):
        if S[top + j] == NIGHTMARE:
            victim = NIGHTMARE
    if victim < 0:
        best_r = NO_RANK
        for j in range(k):
            c = S[top + j]
            if c < NUM_LOCATION_TYPES:
                col = c // SYMBOLS
                r = discard_rank_in(c, col, 1 if door_needed(doors[col]) else 0, s_col,
                                    s_len, cnts[col] + 1)
                if r < best_r:
                    best_r = r
                    victim = c
    if victim < 0:                            # only Doors revealed: the first lowest value
        best_r = NO_RANK
        for j in range(k):
            r = card_value(S[top + j], doors, keys, cnts, s_col, s_len)
            if r < best_r:
                best_r = r
                victim = S[top + j]
    return prophecy_order(S, top, k, victim, doors, keys, cnts, s_col, s_len)


# ----------------------------------------------------------------------------- the Nightmare
@njit(cache=True)
def nightmare_key(S, own, sh, two_zones, dr, d5, s_col, s_len):
    """engine.policy._greedy_nightmare's first choice: the colour of the held Key of the lowest
    discard rank (-1: no Key in hand); the hand and the Doors read as for :func:`play_choice`."""
    best = -1
    best_r = NO_RANK
    for col in range(NCOL):
        k = board.key_of(col)
        if _held(S, own, sh, two_zones, k) > 0:
            r = discard_rank_in(k, col, 1 if colour_needed(S, dr, d5, col) else 0, s_col, s_len,
                                hand_count(S, own, sh, two_zones, col))
            if r < best_r:
                best_r = r
                best = col
    return best


@njit(cache=True)
def nightmare_fallback(S, own, sh, two_zones, dr, d5, size, a_reveal, a_redraw, a_door):
    """engine.policy._greedy_nightmare where no Key is discarded: reveal the top five of a deck
    of ``size`` >= REVEAL_MIN_DECK cards; else discard the hand if it holds no card of a needed
    colour; else, with DOOR_MIN_DECK cards in the deck, give up the Door of the first colour
    that has one (in play, or held); else reveal.  Returns the action (the kernel's numbers
    ``a_*``).  The hand is read only once the deck is small, as the kernels did."""
    if size >= REVEAL_MIN_DECK:
        return a_reveal
    any_needed = False
    for c in range(NUM_LOCATION_TYPES):
        if _held(S, own, sh, two_zones, c) > 0 and colour_needed(S, dr, d5, c // SYMBOLS):
            any_needed = True
    if not any_needed:
        return a_redraw
    if size >= DOOR_MIN_DECK:
        for col in range(NCOL):
            if S[dr + col] > 0:
                return a_door + col
    return a_reveal


# ----------------------------------------------------------------------------- greedy-plus
@njit(cache=True, inline="always")
def plus_plays(last, c, open_needed):
    """greedy-plus's play-phase change: Location c, which greedy discards, is played instead
    if it is not a Key, may follow ``last`` and the row has no open series of a needed colour
    (``open_needed``)."""
    return not board.is_key(c) and board.playable(last, c) and not open_needed
