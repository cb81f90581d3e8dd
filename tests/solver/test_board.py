"""The packed board layer (solver.board), step by step against engine/, on every value of each
step's arguments.

Each rule step is called directly (the njit dispatchers run from Python) and compared with what
:mod:`engine.game` does on an engine state built to realise the same arguments: a row that
ends in ``last`` with open series ``ser``, a hand, the Doors in play.  The engine states are
clones of one position (every card but the hand in the deck, the card order of docs/NOTATION.md)
with the fields under test set directly; the engine's steps read only those fields (and take a
Door from the
deck when a series completes).  Rule texts are quoted from /work/shared/rules/.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from engine import cards
from engine import game
from engine.game import series_length
from engine.rules import COLOURS, NO_CARD, PH_DOOR, PH_NIGHTMARE, PH_PLAY, PH_REFILL
from rulekit import make
from solver import board

NLOC = cards.NUM_LOCATION_TYPES
DECK = ",".join(["Os"] * (cards.COUNTS[0] - 5) + [cards.CODES[t] for t in range(1, cards.NUM_TYPES)
                                                for _ in range(cards.COUNTS[t])])
HAND_OFFSETS = (0, 8)          # the solo kernels' hands: solver.clairvoyant.deal_kernel at bit 0, expectimax 8


@pytest.fixture(scope="module")
def base():
    """A solo position with five Os in hand and every other card in the deck (the card order of
    docs/NOTATION.md, top first)."""
    return make(hand="Os,Os,Os,Os,Os", row="-", deck=DECK, discard="-")


def engine_state(base, hand=(), row=(), doors=(), phase="play", drawn=None):
    s = base.clone()
    s.hands[0] = sorted(hand)
    s.rows[0] = list(row)
    s.doors[0] = sorted(doors)
    s.phase = phase
    s.drawn = drawn
    return s


def rows_up_to(n):
    """Every legal row of at most n Locations (no two neighbours share a symbol)."""
    out = [[]]
    frontier = [[]]
    for _ in range(n):
        nxt = []
        for row in frontier:
            for c in range(NLOC):
                if not row or cards.symbol(row[-1]) != cards.symbol(c):
                    nxt.append(row + [c])
        out += nxt
        frontier = nxt
    return out


def same_colour_rows(n):
    """Rows of one colour of length n (symbols never repeating back to back)."""
    out = []
    for col in range(COLOURS):
        for syms in itertools.product(range(3), repeat=n):
            if all(a != b for a, b in zip(syms, syms[1:])):
                out.append([col * 3 + s for s in syms])
    return out


def board_rows():
    """Rows realising every (last, open series): all legal rows of up to 3 cards, and the
    one-colour rows of 4 to 6 cards (a 4th card starts a new series)."""
    rows = rows_up_to(3)
    for n in (4, 5, 6):
        rows += same_colour_rows(n)
    return rows


# ----------------------------------------------------------------------------- play and series
def test_playable_and_series_step_agree_with_the_engine_on_every_row_and_card(base):
    """rules/rulebook-en.txt: "There is one golden rule: the card played may not have any
    symbol in common with the last card played."; "If the card just played is the third in a
    row of the same color, you obtain a Door card of that color"; "If a card is the fourth in a
    row of the same color, it counts as the first card of a new series of that same color."

    For every row (hence every (last, ser) the layer can hold, 0 for the empty row) and every
    Location c: ``playable`` is the engine's legality of ``play c``; and when c is played the
    layer's new series is the engine's ``series_length`` (0 once it reaches 3), and the colour
    it completes is the colour of the Door the engine takes from the deck."""
    seen = set()
    for row in board_rows():
        last = row[-1] if row else NO_CARD
        ser = board.open_series(row)
        for c in range(NLOC):
            seen.add((last, ser, c))
            s = engine_state(base, hand=[c], row=row)
            legal = game.PLAY + c in s.legal_actions()
            assert board.playable(last, c) == legal, (row, c)
            if not legal:
                continue
            s.apply_action(game.PLAY + c)
            n = series_length(s.rows[0])
            new_ser, done = board.series_step(last, ser, c)
            assert new_ser == (0 if n == 3 else n), (row, c)
            gained = [cards.colour(d) for d in s.doors[0]]
            assert ([done] if done >= 0 else []) == gained, (row, c)
    # every argument value of the layer's domain was met
    assert seen == {(last, ser, c) for last in range(NLOC) for ser in (0, 1, 2)
                    for c in range(NLOC)} | {(NO_CARD, 0, c) for c in range(NLOC)}


def test_playable_treats_any_negative_last_card_as_an_empty_row():
    for c in range(NLOC):
        assert board.playable(-1, c) and board.playable(NO_CARD, c)


def test_series_step_folded_over_a_row_is_the_engine_series():
    """Folding ``series_step`` over a row from the empty row gives open_series(row), the
    layer's reading of engine.game.series_length."""
    for row in board_rows():
        last, ser = NO_CARD, 0
        for c in row:
            assert board.playable(last, c)
            ser, _ = board.series_step(last, ser, c)
            last = c
        n = series_length(row)
        assert ser == (0 if n == 3 else n) == board.open_series(row), row


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_play_row_is_series_step_on_the_packed_row(h):
    rnd = random.Random(h)
    r = h + board.ROW_FROM_HAND
    for row in board_rows():
        for c in range(NLOC):
            noise = rnd.getrandbits(63) & ~(np.int64(63) << r)     # every other bit set at random
            w = board.row_set(noise, r, row[-1] if row else NO_CARD, board.open_series(row))
            w2, done = board.play_row(w, r, c)
            ser, col = board.series_step(board.row_last(w, r), board.row_series(w, r), c)
            assert (board.row_last(w2, r), board.row_series(w2, r), done) == (c, ser, col)
            assert w2 & ~(np.int64(63) << r) == noise                # nothing else moved
            assert board.row_series(w2, r) == board.open_series(row + [c])


# ----------------------------------------------------------------------------- Doors
def door_vectors():
    return list(itertools.product(range(3), repeat=COLOURS))


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_gain_door_agrees_with_the_engine_on_every_door_count_vector(base, h):
    """rules/rulebook-en.txt: "You win if, at any point, all 8 Door cards are in play at the
    same time. The game ends immediately".  For every vector of Doors in play (0..2 per
    colour) and every colour with a Door left: a drawn Door opened with its Key (the engine's
    ``door key``) gives the layer's Doors, and wins exactly when the layer says so."""
    d_at = h + board.ROW_FROM_HAND + board.DOORS_FROM_ROW
    n = 0
    for vec in door_vectors():
        doors = [cards.door_of(k) for k in range(COLOURS) for _ in range(vec[k])]
        w = board.pack_board([], [], doors, PH_DOOR, 0, h)
        for col in range(COLOURS):
            if vec[col] == 2:
                continue
            s = engine_state(base, hand=[cards.key_of(col)], doors=doors, phase="door",
                             drawn=cards.door_of(col))
            s.apply_action(game.DOOR_KEY)
            w2, won = board.gain_door(w, d_at, col)
            assert board.unpack_board(w2, h)["doors"] == sorted(s.doors[0])
            assert won == (s.phase == "won") == (sum(vec) == 7)
            assert board.doors_total(w2, d_at) == sum(vec) + 1
            n += 1
    assert n == 4 * 2 * 27      # (vectors, colour) pairs with that colour below 2


# ----------------------------------------------------------------------------- Nightmare
ENGINE_OPTION = {board.OPT_KEY: game.NM_KEY, board.OPT_DOOR: game.NM_DOOR}


def engine_action(o):
    kind, col = board.nightmare_kind(o)
    if kind in ENGINE_OPTION:
        return ENGINE_OPTION[kind] + col
    return game.NM_REVEAL if kind == board.OPT_REVEAL else game.NM_REDRAW


def test_nightmare_kind_numbers_the_engine_options():
    """rules/rulebook-en.txt: "When you draw a Nightmare card, you have to choose one of the
    following four options: Discard a Key card from your hand. / Place one of your gained Door
    cards in the Limbo pile. / Reveal the top 5 cards from the deck ... / Discard your whole
    hand and draw a new hand of 5 cards".  Option o names the engine's action whose string
    says the same."""
    names = [game.State(game.Game(1)).action_to_string(engine_action(o))
             for o in range(board.NM_OPTIONS)]
    assert names == ([f"nightmare key {cards.CODES[cards.key_of(k)]}" for k in range(4)]
                     + [f"nightmare door {cards.CODES[cards.door_of(k)]}" for k in range(4)]
                     + ["nightmare reveal", "nightmare redraw"])
    assert sorted(engine_action(o) for o in range(board.NM_OPTIONS)) == \
        [game.NM_KEY + k for k in range(4)] + [game.NM_DOOR + k for k in range(4)] + \
        [game.NM_REVEAL, game.NM_REDRAW]


def hands_up_to(n):
    """Every hand (a multiset of Location types) of at most n cards."""
    out = []
    for k in range(n + 1):
        out += [list(h) for h in itertools.combinations_with_replacement(range(NLOC), k)]
    return out


def check_nightmare(base, hand, doors, h):
    d_at = h + board.ROW_FROM_HAND + board.DOORS_FROM_ROW
    w = board.pack_board(hand, [0], doors, PH_NIGHTMARE, 0, h)
    s0 = engine_state(base, hand=hand, row=[0], doors=doors, phase="nightmare",
                      drawn=cards.NIGHTMARE)
    legal = s0.legal_actions()
    for o in range(board.NM_OPTIONS):
        a = engine_action(o)
        ok, w2 = board.nightmare_board(w, h, d_at, o)
        assert ok == (a in legal), (hand, doors, o)
        if not ok:
            assert w2 == w
            continue
        s = s0.clone()
        s._apply_decision(a)       # the option's own step, before the engine refills the hand
        got = board.unpack_board(w2, h)
        assert got["hand"] == sorted(s.hands[0]), (hand, doors, o)
        assert got["doors"] == sorted(s.doors[0]), (hand, doors, o)
        assert (got["last"], got["series"], got["phase"]) == (0, 1, PH_NIGHTMARE)


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_nightmare_board_on_every_hand(base, h):
    """Every option on every hand a Nightmare can meet (at most 4 cards: it is drawn while
    the hand refills), with no Door, one Door of each colour, and every Door in play."""
    for doors in ([], [12, 13, 14, 15], [12, 12, 13, 13, 14, 14, 15, 15]):
        for hand in hands_up_to(4):
            check_nightmare(base, hand, doors, h)


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_nightmare_board_on_every_door_vector(base, h):
    """Every option on every vector of Doors in play, with hands holding no Key, one Key of
    each colour, or two Keys of one colour."""
    for vec in door_vectors():
        doors = [cards.door_of(k) for k in range(COLOURS) for _ in range(vec[k])]
        for hand in ([0, 1, 3, 4], [2, 5, 8, 11], [2, 2, 6], []):
            check_nightmare(base, hand, doors, h)


@pytest.mark.slow
def test_nightmare_board_on_every_hand_and_door_vector(base):
    """The whole product: every hand of at most 4 cards with every Door vector."""
    for vec in door_vectors():
        doors = [cards.door_of(k) for k in range(COLOURS) for _ in range(vec[k])]
        for hand in hands_up_to(4):
            check_nightmare(base, hand, doors, 8)


# ----------------------------------------------------------------------------- pack / unpack
@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_pack_unpack_round_trips(h):
    """pack_board then unpack_board gives back the engine's fields (series as the engine's
    1..3), and packing what unpack_board read gives the same word; over every hand of at most
    5 cards, every row ending, every Door vector, every phase number and drawn colour."""
    rnd = random.Random(10 + h)
    rows = board_rows()
    vecs = door_vectors()
    ends = {}
    for row in rows:                       # one row per (last, series)
        ends.setdefault((row[-1] if row else None, series_length(row)), row)
    cases = [(hand, rnd.choice(rows), rnd.choice(vecs), rnd.randrange(8), rnd.randrange(4))
             for hand in hands_up_to(5)]
    cases += [(rnd.choice(hands_up_to(2)), row, vec, ph, dc) for row in ends.values()
              for vec in vecs for ph, dc in ((PH_PLAY, 0), (PH_REFILL, 3))]
    for hand, row, vec, ph, dc in cases:
        doors = [cards.door_of(k) for k in range(COLOURS) for _ in range(vec[k])]
        w = board.pack_board(hand, row, doors, ph, dc, h)
        u = board.unpack_board(w, h)
        assert u == {"hand": sorted(hand), "last": row[-1] if row else None,
                     "series": series_length(row), "doors": doors, "phase": ph,
                     "drawn_colour": dc}
        again = ends[(u["last"], u["series"])]
        assert board.pack_board(u["hand"], again, u["doors"], u["phase"], u["drawn_colour"],
                            h) == w
        # the layer's accessors read the same fields
        r = h + board.ROW_FROM_HAND
        d = r + board.DOORS_FROM_ROW
        assert [board.hand_get(w, h, c) for c in range(NLOC)] == [hand.count(c)
                                                               for c in range(NLOC)]
        assert board.hand_size(w, h) == len(hand)
        assert board.row_last(w, r) == (row[-1] if row else NO_CARD)
        assert board.row_series(w, r) == board.open_series(row)
        assert [board.doors_get(w, d, k) for k in range(COLOURS)] == list(vec)
        assert board.doors_total(w, d) == sum(vec)
        assert board.phase_get(w, board.PHASE_AT) == ph and board.drawn_get(w, board.DRAWN_AT) == dc


# ----------------------------------------------------------------------------- field accessors
def test_counter_fields_on_every_shape():
    """cnt_get / cnt_add / cnt_sum / cnt_clear against plain integer arithmetic, for every
    counter width 1..4, every offset and every count of counters that fit in 63 bits, on
    random words."""
    rnd = random.Random(1)
    shapes = 0
    for bits in range(1, 5):
        mask = (1 << bits) - 1
        for at in range(63):
            for n in range(1, (63 - at) // bits + 1):
                shapes += 1
                w = rnd.getrandbits(63)
                vals = [(w >> (at + bits * i)) & mask for i in range(n)]
                assert [board.cnt_get(w, at, bits, i) for i in range(n)] == vals
                assert board.cnt_sum(w, at, bits, n) == sum(vals)
                cleared = board.cnt_clear(w, at, bits, n)
                field = ((1 << (bits * n)) - 1) << at
                assert cleared == w & ~field and board.cnt_sum(cleared, at, bits, n) == 0
                i = rnd.randrange(n)
                if vals[i] < mask:
                    w2 = board.cnt_add(w, at, bits, i, 1)
                    assert w2 == w + (1 << (at + bits * i))
                    assert board.cnt_get(w2, at, bits, i) == vals[i] + 1
                if vals[i] > 0:
                    assert board.cnt_get(board.cnt_add(w, at, bits, i, -1), at, bits, i) == vals[i] - 1
    assert shapes > 1000


def hand_word(counts, h, noise):
    w = noise & ~(np.int64(0xFFFFFFFFF) << h)
    for c, n in enumerate(counts):
        w |= n << (h + 3 * c)
    return w


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_hand_size_on_every_hand_of_at_most_seven_cards(h):
    """hand_size (pairs, then two interleaved sums of three 6-bit fields) against a plain sum
    on every hand of at most 7 cards (counts 0..7, the range of a 3-bit counter), with random
    bits outside the hand's field."""
    rnd = random.Random(h)
    n = 0
    for k in range(8):
        for hand in itertools.combinations_with_replacement(range(NLOC), k):
            counts = [hand.count(c) for c in range(NLOC)]
            w = hand_word(counts, h, rnd.getrandbits(63))
            assert board.hand_size(w, h) == k, hand
            n += 1
    assert n == 50388       # C(19, 7): the multisets of at most 7 of 12 types


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_hand_size_holds_for_every_counter_value(h):
    """The trick's whole domain is any 12 counters of 0..7 (each 6-bit partial sum is at most
    3 * 14 = 42 < 64, so no field carries into the next): every word whose counters are each
    0 or 7 (the extremes, 4096 of them), and random words."""
    rnd = random.Random(100 + h)
    for bits in range(1 << NLOC):
        counts = [7 * ((bits >> c) & 1) for c in range(NLOC)]
        assert board.hand_size(hand_word(counts, h, rnd.getrandbits(63)), h) == sum(counts)
    for _ in range(20000):
        counts = [rnd.randrange(8) for _ in range(NLOC)]
        assert board.hand_size(hand_word(counts, h, rnd.getrandbits(63)), h) == sum(counts)


@pytest.mark.parametrize("h", HAND_OFFSETS)
def test_hand_add_and_clear(h):
    rnd = random.Random(h)
    for _ in range(2000):
        counts = [rnd.randrange(6) for _ in range(NLOC)]
        noise = rnd.getrandbits(63)
        w = hand_word(counts, h, noise)
        c = rnd.randrange(NLOC)
        if counts[c] < 7:
            assert board.hand_get(board.hand_add(w, h, c, 1), h, c) == counts[c] + 1
        if counts[c] > 0:
            assert board.hand_get(board.hand_add(w, h, c, -1), h, c) == counts[c] - 1
        cleared = board.hand_clear(w, h)
        assert board.hand_size(cleared, h) == 0
        assert cleared == noise & ~(np.int64(0xFFFFFFFFF) << h)


def test_phase_and_drawn_fields():
    rnd = random.Random(3)
    for _ in range(500):
        w = rnd.getrandbits(63)
        for ph in range(8):
            w2 = board.phase_set(w, board.PHASE_AT, ph)
            assert board.phase_get(w2, board.PHASE_AT) == ph
            assert w2 & ~(7 << board.PHASE_AT) == w & ~(7 << board.PHASE_AT)
        for k in range(4):
            w2 = board.drawn_set(w, board.DRAWN_AT, k)
            assert board.drawn_get(w2, board.DRAWN_AT) == k
            assert w2 & ~(3 << board.DRAWN_AT) == w & ~(3 << board.DRAWN_AT)


def test_key_of_and_is_key_are_the_engines():
    """rules/rulebook-en.txt: "There are three symbols: Sun, Moon and Key." """
    assert [board.key_of(k) for k in range(COLOURS)] == [cards.key_of(k) for k in range(COLOURS)]
    assert [bool(board.is_key(c)) for c in range(NLOC)] == [cards.is_key(c) for c in range(NLOC)]
