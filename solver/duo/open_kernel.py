"""The kernel of the open-hands two-player expectimax in numba (docs/DUO_EXPECTIMAX.md, section
7): the search of one position, its packed key and its memo.  The Python side (the queries,
the solver class of the ``open-hands`` mode) is :mod:`solver.duo.open_search`.

The same search as :mod:`solver.duo.open_hands` (both players' own cards and the shared cards
known to the team, the deck order unknown, both players maximising the team's winning
chance), run on the information-state kernel's arrays instead of ``engine/`` states.  A
position is a two-player array of :mod:`solver.duo.info_state` with ``HID`` = 0 (the partner's
cards in their own slots), and every step of it is that kernel's turn: ``legal``, ``step``
(a decision and the automatic steps after it) and ``chance_step`` (the next unknown card is of
type t, then the automatic steps), the turn that :mod:`solver.honest.state` writes once for one
and two players.  This file holds no turn rule of its own; it only searches.

The search
----------
A depth-first expectimax with an explicit stack of frames (no recursion), one frame per node
on the current path.  A node's children are made by copying the node's array and stepping it;
each is settled when that costs no search (won, lost, the dead-position bound, an exact memo
entry) and the others are searched the most promising first, with the windows of
:class:`solver.duo.open_hands.DuoExpectimax` (alpha-beta at decisions, Star1 at chance nodes).
Every frame returns a sound interval [lo, hi] whatever stopped it (a node budget, a deadline),
as in the Python search: a decision returns [max lo_i, max hi_i], a chance node
[sum p_i lo_i, sum p_i hi_i] (recomputed in one fixed order at the end), an unexplored child
counting [0, 1] or its memo bounds.  :func:`search_array` makes the arrays; the loop,
:func:`_run`, is compiled without numba's reference counting and allocates nothing (it
returns when the pool of child entries must grow, and goes on after; docs/DUO_EXPECTIMAX.md
section 7).

The memo is a table of ``2**bits`` rows in buckets of 4 holding the **full packed key**
(:func:`make_key`, ``KW`` words, compared word by word, never a hash alone) with the interval
and the nodes the entry cost; a full bucket gives up its cheapest entry.  The key holds what
the Python search's key holds (phase, player to move, drawn card, cards left to reveal, both
players' own cards, rows' last card and open series, Doors, shared cards, the known deck top,
the unknown counts, the limbo).  The reductions are the flags below, which
:mod:`solver.duo.open_hands` uses with the same numbers (their arguments: docs/DUO_EXPECTIMAX.md
section 3).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from engine.rules import (COLOURS, DUO_OWN_SIZE, DUO_SHARED_SIZE, FIRST_DOOR, NUM_TYPES,
                          SERIES_LENGTH, SYMBOLS)
from solver import board, steps
from solver.duo import info_state as IS
from solver.honest.state import _add_unknown
from solver.duo.search import ALL_BOUNDS, _dead_nb
from solver.expectimax.search import now_us
from solver.expectimax.table import prefetch_row
from solver.tt import BUCKET, _bucket, _same

__all__ = ["make_key", "search_array", "new_table", "KW", "F_PRUNE", "F_DEAD", "F_SWAP",
           "F_PROPHECY_SORT", "F_REVEAL", "F_FREE", "F_LAST", "PYTHON_FLAGS", "DEFAULT_FLAGS", "FREE"]

# the reductions (docs/DUO_EXPECTIMAX.md section 3); solver.duo.open_hands uses these numbers
F_PRUNE = 1           # alpha-beta at decisions, Star1 at chance nodes
F_DEAD = 2            # DB1-DB3: a position that provably cannot be won is worth 0
F_SWAP = 4            # the memo key is relative to the active player (player-swap symmetry)
F_PROPHECY_SORT = 8   # the cards being revealed by a prophecy are a multiset in the key
F_REVEAL = 16         # a Nightmare's reveal of r unknown cards is one chance node over multisets
F_FREE = 32           # the deferred prophecy order: the kept cards are free, ordered when drawn
F_LAST = 64           # DB4, the last turn: a turn that cannot end gains too few Doors
# the reductions the Python search (solver.duo.open_hands) has too; F_FREE is this kernel's only
PYTHON_FLAGS = F_PRUNE | F_DEAD | F_SWAP | F_PROPHECY_SORT | F_REVEAL
DEFAULT_FLAGS = PYTHON_FLAGS | F_FREE | F_LAST

KW = 5                  # key words (make_key)
MAX_TOP = 11            # known deck cards a key holds (5 bits each after a 4-bit count)
MAXD = 1024             # frames: the deepest path the search may walk
POOL0 = 1 << 12         # child entries to start with (the pool doubles when needed)
DEFAULT_TABLE_BITS = 20  # memo rows: 2**20 of 64 bytes (64 MB)
CLOCK_MASK = 1023       # a look at the clock every 1,024 nodes (one look: a few microseconds)

# counters (ctr)
C_NODES, C_STOPPED, C_DEAD, C_HITS, C_STORED, C_REPLACED, C_DEPTH_CUT, C_MAX_DEPTH, C_KIDS = range(9)
# the profile: nodes expanded and children made, by the phase of the node (12 phases, a
# PICK of the free cards counted apart, F_FREE), from C_PH_NODES and C_PH_KIDS
N_PH = 13
PH_PICK = 12
C_PH_NODES = 9
C_PH_KIDS = C_PH_NODES + N_PH
C_PH_TOP = C_PH_KIDS + N_PH       # nodes with known deck cards on top (a prophecy's), by phase
N_COUNTERS = C_PH_TOP + N_PH

NS = IS.NS
PSTEP = IS.PSTEP
H, DR, LAST, SER = IS.H, IS.DR, IS.LAST, IS.SER
U, L, TOP, NTOP, UTOT = IS.U, IS.L, IS.TOP, IS.NTOP, IS.UTOT
PH, DRAWN, LEFT, TURN, SH, SHS, HSIZE = IS.PH, IS.DRAWN, IS.LEFT, IS.TURN, IS.SH, IS.SHS, IS.HSIZE
NLOC = IS.NLOC
P_PLAY, P_DRAFT, P_DOOR = IS.P_PLAY, IS.P_DRAFT, IS.P_DOOR
P_PROPHECY, P_FORESEE, P_REVEAL = IS.P_PROPHECY, IS.P_FORESEE, IS.P_REVEAL
P_REFILL, P_REDRAW = IS.P_REFILL, IS.P_REDRAW
P_WON, P_LOST, P_SETUP = IS.P_WON, IS.P_LOST, IS.P_SETUP
MAX_LEGAL = IS.MAX_LEGAL
PROPHECY_SIZE = 5
NM = NUM_TYPES - 1
A_PROPHECY = IS.A_PROPHECY
# F_FREE: how many of the known top cards are free (a multiset, ascending, its order chosen as
# they are drawn): a slot of the array that the turn kernel neither reads nor writes (between
# the two-player fields and the unknown list), copied with the children
FREE = IS.VIEWER + 1
assert FREE < IS.ARR


# ----------------------------------------------------------------------------- the key
@njit(cache=True, inline="always")
def _player_word(S, p):
    """Player p's own cards (3 bits per Location type), its row's last card (4 bits) and open
    series (2 bits), its Doors (2 bits per colour)."""
    o = PSTEP * p
    w = np.int64(0)
    for c in range(NLOC):
        w |= S[H + o + c] << (3 * c)
    w |= S[LAST + o] << 36
    w |= S[SER + o] << 40
    for col in range(COLOURS):
        w |= S[DR + o + col] << (42 + 2 * col)
    return w


@njit(cache=True, inline="always")
def make_key(S, flags, out):
    """The memo key of the two-player array ``S`` into ``out`` (KW words): every field a rule
    can still read, nothing else (docs/DUO_EXPECTIMAX.md section 2; the discard pile, the rows
    before their last card and the order of the unknown list are left out).  With ``F_SWAP``
    the player to move is written first and the turn bit is 0; with ``F_PROPHECY_SORT`` the
    known cards a prophecy is revealing are written sorted."""
    t = S[TURN]
    if flags & F_SWAP:
        out[0] = _player_word(S, t)
        out[1] = _player_word(S, 1 - t)
        tb = 0
    else:
        out[0] = _player_word(S, 0)
        out[1] = _player_word(S, 1)
        tb = t
    w = np.int64(0)
    for c in range(NLOC):
        w |= S[SH + c] << (3 * c)
    w |= S[PH] << 36
    w |= (S[DRAWN] + 1) << 40
    w |= S[LEFT] << 45
    w |= np.int64(tb) << 48
    for col in range(COLOURS):
        w |= S[L + FIRST_DOOR + col] << (49 + 2 * col)
    w |= S[L + NM] << 57
    out[2] = w
    w = np.int64(0)
    for c in range(NLOC):
        w |= S[U + c] << (4 * c)
    for col in range(COLOURS):
        w |= S[U + FIRST_DOOR + col] << (48 + 2 * col)
    w |= S[U + NM] << 56
    out[3] = w
    n = S[NTOP]
    ph = S[PH]
    k = 0
    if (flags & F_PROPHECY_SORT) and (ph == P_PROPHECY or ph == P_FORESEE):
        k = min(PROPHECY_SIZE, IS.deck_size(S), n)
    w = n
    sh = 4
    if k > 1:                       # the revealed cards as a multiset: ascending
        lo_t = -1
        done = 0
        while done < k:
            best = 99
            cnt = 0
            for i in range(k):
                c = S[TOP + i]
                if c > lo_t and c < best:
                    best = c
                    cnt = 1
                elif c == best:
                    cnt += 1
            for _ in range(cnt):
                w |= np.int64(best) << sh
                sh += 5
            done += cnt
            lo_t = best
    else:
        k = 0
    for i in range(k, n):
        w |= S[TOP + i] << sh
        sh += 5
    w |= S[FREE] << 59                # F_FREE: how many of the top cards are free (0 to 4)
    out[4] = w


# ----------------------------------------------------------------------------- the dead bound
@njit(cache=True, inline="always")
def is_dead(S, allhand, deckc, doors, ldoors):
    """DB1-DB3 (docs/DUO.md, ``solver.duo.search.dead_duo``) on the array: True only if no
    order of the deck lets the team win (docs/DUO_EXPECTIMAX.md section 3, ``F_DEAD``); the
    inputs are the Python search's (``solver.duo.open_hands.is_dead``), written into the
    caller's arrays ``allhand`` (12), ``deckc`` (17), ``doors`` and ``ldoors`` (4 each)."""
    ph = S[PH]
    if ph == P_WON or ph == P_LOST or ph == P_SETUP:
        return False
    for c in range(NLOC):
        allhand[c] = S[H + c] + S[H + PSTEP + c] + S[SH + c]
    for t in range(NUM_TYPES):
        deckc[t] = S[U + t]
    for i in range(S[NTOP]):
        deckc[S[TOP + i]] += 1
    for col in range(COLOURS):
        doors[col] = S[DR + col] + S[DR + PSTEP + col]
        ldoors[col] = S[L + FIRST_DOOR + col]
    drawn = -1
    if ph == P_DOOR and S[DRAWN] >= 0:
        drawn = S[DRAWN] - FIRST_DOOR
    t = S[TURN]
    act = S[HSIZE + PSTEP * t] + S[SHS]
    return _dead_nb(allhand, deckc, doors, ldoors, drawn, S[LAST], S[SER], S[LAST + PSTEP],
                    S[SER + PSTEP], act, ph == P_PLAY or ph == P_DRAFT, ALL_BOUNDS)


@njit(cache=True, inline="always")
def _deck_count(S, x):
    """Cards of type ``x`` in the deck: the unknown ones and the known top's."""
    n = S[U + x]
    for i in range(S[NTOP]):
        if S[TOP + i] == x:
            n += 1
    return n


@njit(cache=True, inline="always")
def _series_plays(S, o, col):
    """The plays player ``o`` (its slot offset) needs to complete a series of colour ``col``
    in its row: SERIES_LENGTH (3), less the open series of its row if the row's last card is of that colour
    (a player plays only to its own row, D2)."""
    last = S[LAST + o]
    if last < NLOC and last // SYMBOLS == col:
        return SERIES_LENGTH - S[SER + o]
    return SERIES_LENGTH


@njit(cache=True, inline="always")
def _turns_dead(S, ph, t, turns):
    """DB4 given that at most ``turns`` turns start from here on, this one included (the
    active player's, then the partner's, alternating): True only if the position is lost.
    Every Door still missing is gained by a player without a Door of its colour (D5: one per
    player and colour), so each such player must gain one.  It needs a turn of its own; a Door
    card of the colour for each player that needs one (the deck's, the drawn Door, and the
    limbo's if a later turn comes: the limbo goes back into the deck only at the end of a turn;
    the active player's needs them in the deck or drawn if this turn is its last); and a Key
    of the colour where that player may reach one (its own and shared cards, the deck, and the
    other player's own cards if that player exchanges (D3: with a discard, in phase play) before
    the turn), or else a series in its own row, which takes 3 plays of that player, less its
    row's open series of the colour (:func:`_series_plays`)."""
    a = PSTEP * t
    b = PSTEP * (1 - t)
    turns_a = (turns + 1) // 2
    turns_b = turns // 2
    plays_a = turns_a - 1 + (1 if ph == P_PLAY else 0)
    # the active player's own cards reach the partner's turns only by an exchange (D3) in a
    # play of its own before them: this turn's, if it is in phase play, or a later one
    a_swaps = ph == P_PLAY or turns_b > 1
    keyless_a = 0
    keyless_b = 0
    for col in range(COLOURS):
        need = 2 - S[DR + col] - S[DR + PSTEP + col]
        if need <= 0:
            continue
        need_a = S[DR + a + col] == 0
        need_b = S[DR + b + col] == 0
        if need_b and turns_b == 0:
            return True
        d = FIRST_DOOR + col
        doors = _deck_count(S, d)
        if ph == P_DOOR and S[DRAWN] == d:
            doors += 1
        if need_a and turns_a == 1 and doors == 0:
            return True
        if turns > 1:
            doors += S[L + d]
        if doors < need:
            return True
        k = board.key_of(col)
        keys = S[SH + k] + S[H + a + k] + _deck_count(S, k)
        if need_a and keys + (S[H + b + k] if turns_a > 1 else 0) == 0:
            keyless_a += _series_plays(S, a, col)
        if need_b and keys - (0 if a_swaps else S[H + a + k]) + S[H + b + k] == 0:
            keyless_b += _series_plays(S, b, col)
    return keyless_a > plays_a or keyless_b > turns_b


@njit(cache=True, inline="always")
def last_turn_dead(S):
    """DB4, the last turns (``F_LAST``; the argument: docs/DUO_EXPECTIMAX.md section 3): True
    only if the position is lost.  Only Locations fill a hand, and a turn ends only when the
    active player's hand is full again: so this turn ends only if the deck holds the
    Locations its hand will miss after its current step, and every later turn needs one more
    (its play or discard leaves a card to draw).  With ``locs`` Locations in the deck and
    ``miss`` to draw, at most 1 turn starts (``locs < miss``: this one never ends) or
    ``locs - miss + 2``; :func:`_turns_dead` asks whether the players can gain the missing
    Doors in them.  Two cases of the same kind: a Nightmare's reveal that turns over the whole
    deck leaves the refill nothing to draw; a Nightmare's redraw gains no Door (it sends Doors
    to limbo), so if it cannot fill the hand the game is lost."""
    ph = S[PH]
    if ph == P_WON or ph == P_LOST or ph == P_SETUP or ph == P_DRAFT:
        return False
    t = S[TURN]
    miss = DUO_OWN_SIZE - S[HSIZE + PSTEP * t] + DUO_SHARED_SIZE - S[SHS]
    if ph == P_PLAY:
        miss += 1                   # the play or discard leaves a card to draw
    locs = 0
    for c in range(NLOC):
        locs += S[U + c]
    for i in range(S[NTOP]):
        if S[TOP + i] < NLOC:
            locs += 1
    if ph == P_REVEAL and S[LEFT] >= IS.deck_size(S):
        return True                 # the reveal empties the deck, the refill then draws
    if locs < miss:
        if ph == P_REDRAW:
            return True             # a redraw gains no Door and cannot fill the hand
        return _turns_dead(S, ph, t, 1)
    return _turns_dead(S, ph, t, locs - miss + 2)


# ----------------------------------------------------------------------------- the memo
# One row of 8 words per entry (64 bytes: one cache line): the KW key words, lo and hi (as
# float64, read through a float view of the same memory) and the nodes the entry cost (0:
# the row is empty).
ROW = 8
M_LO, M_HI, M_WORK = KW, KW + 1, KW + 2


def new_table(bits: int):
    """An empty memo of 2**bits rows: the rows (uint64) and a float64 view of them."""
    mem = np.zeros((1 << int(bits), ROW), dtype=np.uint64)
    return mem, mem.view(np.float64)


@njit(cache=True, inline="always")
def _slot0(mem, key):
    return _bucket(key, KW, mem.shape[0] // BUCKET)


@njit(cache=True, inline="always")
def memo_find(mem, key):
    """The row of ``key`` in the memo, or -1."""
    b = _slot0(mem, key)
    for i in range(b, b + BUCKET):
        if mem[i, M_WORK] != 0 and _same(mem, i, key, KW):
            return i
    return -1


@njit(cache=True, inline="always")
def memo_put(mem, memf, key, lo, hi, work, ctr):
    """Store ``key`` -> [lo, hi]: its own row if present, else an empty row of its bucket, else
    the row of the bucket that cost the least work (the memo only saves work)."""
    b = _slot0(mem, key)
    victim = -1
    least = np.uint64(1) << np.uint64(62)
    for i in range(b, b + BUCKET):
        w = mem[i, M_WORK]
        if w == 0:
            if least > 0:
                victim = i
                least = np.uint64(0)
            continue
        if _same(mem, i, key, KW):
            victim = i
            break
        if w < least:
            least = w
            victim = i
    if mem[victim, M_WORK] == 0:
        ctr[C_STORED] += 1
    elif not _same(mem, victim, key, KW):
        ctr[C_REPLACED] += 1
    for z in range(KW):
        mem[victim, z] = np.uint64(key[z])
    memf[victim, M_LO] = lo
    memf[victim, M_HI] = hi
    mem[victim, M_WORK] = np.uint64(max(work, 1))


# ----------------------------------------------------------------------------- free cards
# F_FREE (docs/DUO_EXPECTIMAX.md section 3): a prophecy puts its kept cards back as a multiset of
# S[FREE] free cards on top of the deck (ascending), and each time the turn would draw one of
# them, the team picks which type comes next (a PICK node: a decision).  The turn kernel draws a
# known top card by itself, so the search hides the free cards from it while it advances: the
# top count is cut to the cards shown (none, or the one just picked) and HID, which the kernel
# reads only to count the deck (deck_size: NTOP + UTOT - HID, 0 in the open game), is set to
# minus the hidden cards, so that every count of the deck (the reveal's and the prophecy's
# size, the empty deck) is the true one.  The kernel's advance then stops where it would draw a
# hidden card (it finds no known top card: a chance node for it), and the search puts them back.
# Nothing else the advance does reads the top: a shuffle (the limbo back at the end of a turn)
# takes the deck into the unknown part, and the hidden cards go with it.  The decisions
# themselves (a series taking a Door out of the deck, a reveal's size) run with every card shown.
FB0 = 64                # iw[FB0:FB0 + 4]: the hidden free cards


@njit(cache=True, inline="always")
def _is_pick(S, flags):
    """True if the node ``S`` is a PICK (``F_FREE``): the turn draws next, from free cards of
    at least two types."""
    ph = S[PH]
    return (flags & F_FREE) != 0 and S[FREE] > 0 and (ph == P_REFILL or ph == P_REDRAW)


@njit(cache=True, inline="always")
def _defers(S, flags):
    """True if the prophecy at ``S`` leaves its kept cards free (``F_FREE``): it looks at every
    known card (none of the listed deck lies below; a root may list more)."""
    return (flags & F_FREE) != 0 and S[PH] == P_PROPHECY \
        and S[NTOP] == steps.prophecy_count(IS.deck_size(S))


@njit(cache=True, inline="always")
def _normalize(S):
    """The free cards left: at most the known top; fewer than two types have one order only,
    so they are free no longer."""
    f = min(S[FREE], S[NTOP])
    kinds = 0
    for i in range(f):
        if i == 0 or S[TOP + i] != S[TOP + i - 1]:
            kinds += 1
    S[FREE] = f if kinds >= 2 else 0


@njit(cache=True, inline="always")
def _advance_hidden(S, nh, iw):
    """The kernel's advance with the ``nh`` free cards iw[FB0:] hidden below the known top
    (module note above); afterwards they are back on top (S[FREE] = nh), or in the unknown part
    if a shuffle took the deck (S[FREE] = 0)."""
    u0 = S[UTOT]
    S[IS.HID] = -nh
    IS.advance(S)
    S[IS.HID] = 0
    if S[UTOT] > u0:            # the limbo came back: the deck was shuffled, hidden cards too
        for i in range(nh):
            _add_unknown(S, iw[FB0 + i])
        S[FREE] = 0
        return
    n = S[NTOP]                 # 0: the advance stops only where it needs a hidden card
    for i in range(nh):
        S[TOP + n + i] = iw[FB0 + i]
    S[NTOP] = n + nh
    S[FREE] = nh


@njit(cache=True, inline="always")
def _after_hidden(S):
    """After :func:`_advance_hidden`: a reveal turns the free cards over and a prophecy looks at
    them (their order does not matter there), so the kernel goes on with them shown; then the
    free cards are normalized, and if none is left the kernel advances on its own (drawing a
    known top card whose order is now fixed, or nothing: at a decision or a chance node the
    advance stops at once)."""
    ph = S[PH]
    if S[FREE] > 0 and (ph == P_REVEAL or ph == P_FORESEE):
        IS.advance(S)
    _normalize(S)
    if S[FREE] == 0:
        IS.advance(S)


@njit(cache=True, inline="always")
def _resume(S, iw):
    """The kernel's advance of ``S`` (just after a decision) with its free cards hidden.  The
    decision may have taken free cards already: a series takes its Door out of the deck (the
    first of the known top), then the deck is shuffled (or the game won)."""
    _normalize(S)
    f = S[FREE]
    if f == 0:
        IS.advance(S)
        return
    for i in range(f):
        iw[FB0 + i] = S[TOP + i]
    S[NTOP] = 0                 # the free cards are the whole known top (_defers)
    _advance_hidden(S, f, iw)
    _after_hidden(S)


@njit(cache=True, inline="always")
def _draw_free(S, t, iw):
    """The PICK child ``t``: a free card of type ``t`` is drawn next; the other free cards stay
    hidden while the kernel places it and advances."""
    f = S[FREE]
    j = 0
    taken = False
    for i in range(f):
        c = S[TOP + i]
        if c == t and not taken:
            taken = True
            continue
        iw[FB0 + j] = c
        j += 1
    S[TOP] = t
    S[NTOP] = 1
    _advance_hidden(S, f - 1, iw)
    _after_hidden(S)


@njit(cache=True, inline="always")
def _decide(S, a, flags, iw):
    """The decision ``a`` at ``S`` and the automatic steps after it; with ``F_FREE`` a prophecy
    that defers leaves its kept cards free (ascending), and free cards are hidden from the
    kernel's advance."""
    if (flags & F_FREE) == 0:
        IS.step(S, a)
        return
    defer = _defers(S, flags)
    was_prophecy = S[PH] == P_PROPHECY
    IS.apply_action(S, a)
    if defer:
        f = S[NTOP]
        for i in range(1, f):                   # insertion sort of the kept cards
            c = S[TOP + i]
            j = i
            while j > 0 and S[TOP + j - 1] > c:
                S[TOP + j] = S[TOP + j - 1]
                j -= 1
            S[TOP + j] = c
        S[FREE] = f
        _normalize(S)
    elif was_prophecy:
        S[FREE] = 0
    _resume(S, iw)


# ----------------------------------------------------------------------------- children
@njit(cache=True, inline="always")
def _apply_code(S, chance, code, flags, iw):
    """Step ``S`` (in place, a copy of the parent) to its child ``code``: a decision's action,
    a PICK's type (``F_FREE``), or a chance outcome (the count of cards r in the low 3 bits,
    then r card types of 5 bits each: one draw, or the multiset of cards a Nightmare's reveal
    turns over, ``F_REVEAL``).  A chance node with free cards is a prophecy's foresight (every
    other chance node draws with no known card on top): the drawn card goes below them."""
    if not chance:
        if _is_pick(S, flags):
            _draw_free(S, code, iw)
        else:
            _decide(S, code, flags, iw)
        return
    r = code & 7
    for i in range(r):
        IS.chance_step(S, (code >> (3 + 5 * i)) & 31)


IW = FB0 + 8            # int scratch: the reveal's multisets (_multiset_count,
                        # _reveal_outcomes: below FB0) and the hidden free cards (from FB0)


@njit(cache=True, _nrt=False)
def _multiset_count(S, r, iw):
    """How many multisets of r cards the unknown counts allow (the outcomes of a reveal);
    ``iw``: int scratch of ``IW`` entries (no allocation in the search's loop)."""
    # ways[j] (iw[j]) = number of multisets of size j from the types seen so far
    new = IW // 2
    for j in range(r + 1):
        iw[j] = 0
    iw[0] = 1
    for t in range(NUM_TYPES):
        n = S[U + t]
        if n == 0:
            continue
        for j in range(r + 1):
            iw[new + j] = 0
            for m in range(min(n, j) + 1):
                iw[new + j] += iw[j - m]
        for j in range(r + 1):
            iw[j] = iw[new + j]
    return iw[r]


@njit(cache=True, inline="always")
def _comb(n, k):
    r = np.int64(1)
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, _nrt=False)
def _reveal_outcomes(S, r, base, pcode, pp, iw):
    """The outcomes of a reveal of r unknown cards as multisets (``F_REVEAL``), in the Python
    search's order (the vector of counts per type in decreasing lexicographic order), each
    with its multivariate hypergeometric probability; written from ``base``; returns how many.
    ``iw``: int scratch of ``IW`` entries."""
    types = iw[0:NUM_TYPES]
    cap = iw[NUM_TYPES:2 * NUM_TYPES]
    m = iw[2 * NUM_TYPES:3 * NUM_TYPES]
    k = 0
    for t in range(NUM_TYPES):
        if S[U + t] > 0:
            types[k] = t
            cap[k] = S[U + t]
            k += 1
    total = S[UTOT]
    ways = _comb(total, r)
    rem = r
    for j in range(k):                      # the first vector: greedy from the left
        m[j] = min(cap[j], rem)
        rem -= m[j]
    n = 0
    while True:
        num = np.int64(1)
        code = np.int64(r)
        sh = 3
        for j in range(k):
            if m[j]:
                num *= _comb(cap[j], m[j])
                for _ in range(m[j]):
                    code |= types[j] << sh
                    sh += 5
        pcode[base + n] = code
        pp[base + n] = num / ways
        n += 1
        # the next vector: the rightmost j whose count can drop by one with the cards after it
        # refilled greedily
        suffix = 0
        room = 0
        j = k - 1
        found = False
        while j >= 0:
            if m[j] > 0 and room >= suffix + 1:
                found = True
                break
            suffix += m[j]
            room += cap[j]
            j -= 1
        if not found:
            return n
        m[j] -= 1
        rem = suffix + 1
        for q in range(j + 1, k):
            m[q] = min(cap[q], rem)
            rem -= m[q]


@njit(cache=True, inline="always")
def _need(S, flags, iw):
    """An upper bound on the children of the node ``S`` (the pool must hold them)."""
    if not IS.is_chance(S):
        return MAX_LEGAL
    if (flags & F_REVEAL) and S[PH] == P_REVEAL and S[LEFT] > 1 and S[NTOP] == 0:
        return _multiset_count(S, S[LEFT], iw)
    return NUM_TYPES


@njit(cache=True, inline="always")
def _codes(S, flags, base, pcode, pp, legal_out, iw):
    """The children of node ``S`` as codes (and probabilities at a chance node) from pool
    entry ``base``; returns (how many, chance node).  ``F_FREE``: a PICK's children are the
    free cards' types; a prophecy that defers has one child per type it may discard."""
    if _is_pick(S, flags):
        n = 0
        for i in range(S[FREE]):
            if i == 0 or S[TOP + i] != S[TOP + i - 1]:
                pcode[base + n] = S[TOP + i]
                pp[base + n] = 1.0
                n += 1
        return n, False
    if not IS.is_chance(S):
        m = IS.legal(S, legal_out)
        defer = _defers(S, flags)
        n = 0
        for i in range(m):
            a = legal_out[i]
            if defer:               # keep the first action of each discarded type
                v = S[TOP + steps.prophecy_split(a - A_PROPHECY)[0]]
                seen = False
                for j in range(n):
                    if S[TOP + steps.prophecy_split(pcode[base + j] - A_PROPHECY)[0]] == v:
                        seen = True
                        break
                if seen:
                    continue
            pcode[base + n] = a
            pp[base + n] = 1.0
            n += 1
        return n, False
    if (flags & F_REVEAL) and S[PH] == P_REVEAL and S[LEFT] > 1 and S[NTOP] == 0:
        return _reveal_outcomes(S, S[LEFT], base, pcode, pp, iw), True
    total = S[UTOT]
    n = 0
    for t in range(NUM_TYPES):
        if S[U + t] > 0:
            pcode[base + n] = 1 | (t << 3)
            pp[base + n] = S[U + t] / total
            n += 1
    return n, True


@njit(cache=True, inline="always")
def copy_state(src, dst):
    """dst = src where the kernel may read: the slots below the known top, the top's ``NTOP``
    cards, the two-player fields (shared cards to viewer), the unknown list's ``UTOT``
    entries, and player 1's own cards, Doors, row and hand size (the list's entries past
    ``UTOT``, the top's past ``NTOP`` and player 1's other slots are never read).  Loops:
    numba's slice copy is slower."""
    for i in range(TOP + src[NTOP]):
        dst[i] = src[i]
    for i in range(SH, FREE + 1):
        dst[i] = src[i]
    for i in range(IS.ARR, IS.ARR + src[UTOT]):
        dst[i] = src[i]
    for i in range(PSTEP + H, PSTEP + H + NLOC):
        dst[i] = src[i]
    for i in range(PSTEP + DR, PSTEP + IS.ROWLEN + 1):
        dst[i] = src[i]
    dst[PSTEP + HSIZE] = src[PSTEP + HSIZE]


@njit(cache=True, inline="always")
def _settle(S, n, base, chance, flags, pcode, plo, phi, pkey, child, key, sa, sb, sc, sd,
            mem, memf, ctr, iw):
    """Make every child, settle those that cost no search (won, lost, dead, an exact memo
    entry) and write every child's bounds so far (its memo entry, else [0, 1]) and key.  The
    first pass makes the children and asks the CPU for their memo rows, the second reads them
    (the rows' fetches overlap)."""
    for i in range(n):
        copy_state(S, child)
        _apply_code(child, chance, pcode[base + i], flags, iw)
        ph = child[PH]
        lo, hi = 0.0, 1.0
        if ph == P_WON:
            lo = 1.0
        elif ph == P_LOST:
            hi = 0.0
        elif ((flags & F_DEAD) and is_dead(child, sa, sb, sc, sd)) or \
                ((flags & F_LAST) and last_turn_dead(child)):
            ctr[C_DEAD] += 1
            hi = 0.0
        else:
            make_key(child, flags, key)
            prefetch_row(mem, _slot0(mem, key))
            for z in range(KW):
                pkey[base + i, z] = key[z]
            lo = -1.0
        plo[base + i] = lo
        phi[base + i] = hi
    for i in range(base, base + n):
        if plo[i] < 0.0:
            plo[i] = 0.0
            r = memo_find(mem, pkey[i])
            if r >= 0:
                plo[i] = memf[r, M_LO]
                phi[i] = memf[r, M_HI]


@njit(cache=True, inline="always")
def _before(chance, pp, plo, phi, i, j):
    """True if child i is searched before child j (ties: the children's order)."""
    if chance:
        return pp[i] > pp[j]
    if phi[i] != phi[j]:
        return phi[i] > phi[j]
    return plo[i] > plo[j]


@njit(cache=True, _nrt=True)
def _order_sorted(n, base, chance, pp, plo, phi, pord):
    """:func:`_order` of a node of more than 64 children (a prophecy): a merge sort (called:
    it allocates, the search's loop does not)."""
    if chance:
        o = np.argsort(-pp[base:base + n], kind="mergesort")
    else:
        o = np.argsort(-plo[base:base + n], kind="mergesort")
        o = o[np.argsort(-phi[base:base + n][o], kind="mergesort")]
    for i in range(n):
        pord[base + i] = base + o[i]


@njit(cache=True, inline="always")
def _order(n, base, chance, pp, plo, phi, pord):
    """The search order of a node's children: a chance node's by falling probability, a
    decision's by falling upper, then lower bound (stable: ties keep the children's order).
    An insertion sort (no allocation; a node has a few children), a merge sort past 64."""
    if n > 64:
        _order_sorted(n, base, chance, pp, plo, phi, pord)
        return
    for i in range(n):
        x = base + i
        j = base + i
        while j > base and _before(chance, pp, plo, phi, x, pord[j - 1]):
            pord[j] = pord[j - 1]
            j -= 1
        pord[j] = x


@njit(cache=True)
def _grow1(a, n):
    b = np.empty(n, dtype=a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def _grow2(a, n):
    b = np.empty((n, a.shape[1]), dtype=a.dtype)
    b[:a.shape[0]] = a
    return b


# frame slots: ff (floats) and fi (ints) of one node on the path
F_ALPHA, F_BETA, F_LO0, F_HI0, F_ACC_LO, F_ACC_HI = range(6)
I_CHANCE, I_BASE, I_N, I_POS, I_CUR, I_NODES0 = range(6)

# what the loop does next
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True)
def _scratch():
    """The dead bound's input arrays (is_dead)."""
    return (np.zeros(12, dtype=np.int64), np.zeros(NUM_TYPES, dtype=np.int64),
            np.zeros(COLOURS, dtype=np.int64), np.zeros(COLOURS, dtype=np.int64))


@njit(cache=True)
def _root_quick(S, flags, scratch, ctr):
    """The root's value when it costs no search (won, lost, dead), else -1."""
    ph = S[PH]
    if ph == P_WON:
        return 1.0
    if ph == P_LOST:
        return 0.0
    if ((flags & F_DEAD) and is_dead(S, scratch[0], scratch[1], scratch[2], scratch[3])) or \
            ((flags & F_LAST) and last_turn_dead(S)):
        ctr[C_DEAD] += 1
        return 0.0
    return -1.0


@njit(cache=True, inline="always")
def _finish(d, ff, fi, plo, phi, pp):
    """A node's interval from its children's (a chance node's sums in one fixed order, so
    that exact children give lo == hi bit for bit), intersected with what the memo held."""
    base = fi[d, I_BASE]
    n = fi[d, I_N]
    lo = 0.0
    hi = 0.0
    if fi[d, I_CHANCE]:
        for i in range(base, base + n):
            lo += pp[i] * plo[i]
            hi += pp[i] * phi[i]
    else:
        lo = ff[d, F_ACC_LO]
        for i in range(base, base + n):
            if phi[i] > hi:
                hi = phi[i]
    nlo = max(ff[d, F_LO0], lo)
    nhi = min(ff[d, F_HI0], hi)
    if nlo > nhi:            # two sound intervals one rounding apart: keep the new one
        nlo, nhi = lo, hi
    return nlo, nhi


@njit(cache=True, inline="always")
def _pick(d, ff, fi, flags, pp, plo, phi, pord):
    """The next child frame ``d`` searches (its pool entry, and its window into ff[d + 1]),
    or -1 when the node is done (every child settled, or a cut)."""
    prune = (flags & F_PRUNE) != 0
    base = fi[d, I_BASE]
    n = fi[d, I_N]
    alpha = ff[d, F_ALPHA]
    beta = ff[d, F_BETA]
    while fi[d, I_POS] < n:
        i = pord[base + fi[d, I_POS]]
        fi[d, I_POS] += 1
        lo = plo[i]
        hi = phi[i]
        if lo == hi:
            continue
        if fi[d, I_CHANCE]:
            p = pp[i]
            if prune:
                ca = (alpha - (ff[d, F_ACC_HI] - p * hi)) / p
                cb = (beta - (ff[d, F_ACC_LO] - p * lo)) / p
            else:
                ca, cb = 0.0, 1.0
        else:
            best = ff[d, F_ACC_LO]
            if prune:
                floor = alpha if alpha > best else best
                if hi <= floor:
                    continue
                ca, cb = floor, beta
            else:
                ca, cb = 0.0, 1.0
        ff[d + 1, F_ALPHA] = ca
        ff[d + 1, F_BETA] = cb
        fi[d, I_CUR] = i
        return i
    return -1


@njit(cache=True, inline="always")
def _returned(d, clo, chi, ff, fi, flags, pp, plo, phi, stopped):
    """Frame ``d`` takes its child's interval [clo, chi] and decides whether to stop (a cut,
    or the search stopped)."""
    prune = (flags & F_PRUNE) != 0
    i = fi[d, I_CUR]
    if fi[d, I_CHANCE]:
        p = pp[i]
        ff[d, F_ACC_LO] += p * (clo - plo[i])
        ff[d, F_ACC_HI] += p * (chi - phi[i])
        cut = prune and (ff[d, F_ACC_HI] <= ff[d, F_ALPHA] or ff[d, F_ACC_LO] >= ff[d, F_BETA])
    else:
        if clo > ff[d, F_ACC_LO]:
            ff[d, F_ACC_LO] = clo
        cut = prune and ff[d, F_ACC_LO] >= ff[d, F_BETA]
    plo[i] = clo
    phi[i] = chi
    if stopped or cut:
        fi[d, I_POS] = fi[d, I_N]


# what _run tells search_array: the search is over, or the pool must grow first
DONE, GROW = 0, 1
# the loop's own variables between two calls of _run (ls: ints, lf: floats)
L_D, L_TOP, L_MODE, L_NEED = range(4)


@njit(cache=True)
def search_array(root, alpha, beta, flags, mem, memf, ctr, limit, deadline_us):
    """Sound bounds (lo, hi) on the open-hands value of the two-player array ``root``
    (``HID`` = 0) under a node ``limit`` (on ctr[C_NODES]) and a deadline (``now_us``
    microseconds, 0 for none); ctr[C_STOPPED] = 1 when either stopped the search.

    This function makes the search's arrays; the loop is :func:`_run`, compiled without
    numba's reference counting (it allocates nothing), which returns when the pool of child
    entries must grow and is called again from where it stopped."""
    scratch = _scratch()
    q = _root_quick(root, flags, scratch, ctr)
    if q >= 0.0:
        return q, q
    st = np.empty((MAXD, NS), dtype=np.int64)
    fkey = np.zeros((MAXD, KW), dtype=np.int64)
    ff = np.zeros((MAXD, 6))
    fi = np.zeros((MAXD, 6), dtype=np.int64)
    cap = POOL0
    pcode = np.zeros(cap, dtype=np.int64)
    pord = np.zeros(cap, dtype=np.int64)
    pp = np.zeros(cap)
    plo = np.zeros(cap)
    phi = np.zeros(cap)
    pkey = np.zeros((cap, KW), dtype=np.int64)
    child = np.empty(NS, dtype=np.int64)
    key = np.zeros(KW, dtype=np.int64)
    legal_out = np.zeros(MAX_LEGAL, dtype=np.int64)
    iw = np.zeros(IW, dtype=np.int64)
    ls = np.zeros(4, dtype=np.int64)
    lf = np.zeros(2)
    st[0, :] = root
    make_key(root, flags, key)
    fkey[0, :] = key
    ff[0, F_ALPHA] = alpha
    ff[0, F_BETA] = beta
    ls[L_MODE] = ENTER
    while True:
        if _run(flags, mem, memf, ctr, limit, deadline_us, st, fkey, ff, fi, pcode, pord, pp,
                plo, phi, pkey, child, key, legal_out, iw, scratch[0], scratch[1],
                scratch[2], scratch[3], ls, lf) == DONE:
            return lf[0], lf[1]
        while ls[L_TOP] + ls[L_NEED] > cap:
            cap *= 2
        pcode = _grow1(pcode, cap)
        pord = _grow1(pord, cap)
        pp = _grow1(pp, cap)
        plo = _grow1(plo, cap)
        phi = _grow1(phi, cap)
        pkey = _grow2(pkey, cap)


@njit(cache=True, _nrt=False)
def _run(flags, mem, memf, ctr, limit, deadline_us, st, fkey, ff, fi, pcode, pord, pp, plo,
         phi, pkey, child, key, legal_out, iw, sa, sb, sc, sd, ls, lf):
    """The loop of :func:`search_array` from the state ``ls``, ``lf``; returns ``DONE`` (the
    root's bounds in ``lf``) or ``GROW`` (the node at ``ls[L_D]`` needs ``ls[L_NEED]`` pool
    entries from ``ls[L_TOP]``; nothing of that node is done yet)."""
    cap = pcode.shape[0]
    top = ls[L_TOP]             # first free pool entry
    d = ls[L_D]
    mode = ls[L_MODE]
    rlo = lf[0]
    rhi = lf[1]
    while True:
        if mode == ENTER:
            a = ff[d, F_ALPHA]
            b = ff[d, F_BETA]
            if (flags & F_PRUNE) == 0:
                a, b = -1.0, 2.0
            r = memo_find(mem, fkey[d])
            lo0, hi0 = 0.0, 1.0
            if r >= 0:
                lo0 = memf[r, M_LO]
                hi0 = memf[r, M_HI]
                if lo0 == hi0 or hi0 <= a or lo0 >= b:
                    ctr[C_HITS] += 1
                    rlo, rhi = lo0, hi0
                    mode = RETURN
                    continue
            mode = RETURN
            rlo, rhi = lo0, hi0
            if ctr[C_STOPPED] != 0 or ctr[C_NODES] >= limit:
                ctr[C_STOPPED] = 1
                continue
            if deadline_us != 0 and (ctr[C_NODES] & CLOCK_MASK) == 0 \
                    and now_us() >= deadline_us:
                ctr[C_STOPPED] = 1
                continue
            if d + 1 >= MAXD:
                ctr[C_DEPTH_CUT] += 1
                continue
            need = _need(st[d], flags, iw)
            if top + need > cap:
                ls[L_D] = d
                ls[L_TOP] = top
                ls[L_MODE] = ENTER
                ls[L_NEED] = need
                return GROW
            ctr[C_NODES] += 1
            if d > ctr[C_MAX_DEPTH]:
                ctr[C_MAX_DEPTH] = d
            kind = PH_PICK if _is_pick(st[d], flags) else st[d, PH]
            n, chance = _codes(st[d], flags, top, pcode, pp, legal_out, iw)
            ctr[C_KIDS] += n
            ctr[C_PH_NODES + kind] += 1
            ctr[C_PH_KIDS + kind] += n
            if st[d, NTOP] > 0:
                ctr[C_PH_TOP + kind] += 1
            _settle(st[d], n, top, chance, flags, pcode, plo, phi, pkey, child, key,
                    sa, sb, sc, sd, mem, memf, ctr, iw)
            _order(n, top, chance, pp, plo, phi, pord)
            ff[d, F_ALPHA] = a
            ff[d, F_BETA] = b
            ff[d, F_LO0] = lo0
            ff[d, F_HI0] = hi0
            fi[d, I_CHANCE] = 1 if chance else 0
            fi[d, I_BASE] = top
            fi[d, I_N] = n
            fi[d, I_POS] = 0
            fi[d, I_NODES0] = ctr[C_NODES]
            slo = 0.0
            shi = 0.0
            for i in range(top, top + n):
                if chance:
                    slo += pp[i] * plo[i]
                    shi += pp[i] * phi[i]
                elif plo[i] > slo:
                    slo = plo[i]
            ff[d, F_ACC_LO] = slo
            ff[d, F_ACC_HI] = shi
            top += n
            if chance and (flags & F_PRUNE) and (shi <= a or slo >= b):
                fi[d, I_POS] = n
            mode = NEXT
        elif mode == NEXT:
            i = _pick(d, ff, fi, flags, pp, plo, phi, pord)
            if i >= 0:
                copy_state(st[d], st[d + 1])
                _apply_code(st[d + 1], fi[d, I_CHANCE] != 0, pcode[i], flags, iw)
                for z in range(KW):
                    fkey[d + 1, z] = pkey[i, z]
                d += 1
                mode = ENTER
                continue
            rlo, rhi = _finish(d, ff, fi, plo, phi, pp)
            memo_put(mem, memf, fkey[d], rlo, rhi, ctr[C_NODES] - fi[d, I_NODES0] + 1, ctr)
            top = fi[d, I_BASE]
            mode = RETURN
        else:
            if d == 0:
                lf[0] = rlo
                lf[1] = rhi
                return DONE
            d -= 1
            _returned(d, rlo, rhi, ff, fi, flags, pp, plo, phi, ctr[C_STOPPED] != 0)
            mode = NEXT
