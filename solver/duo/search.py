"""Clairvoyant search of two-player Onirim (deal known, shuffles known), with certificates.

In deal mode the two-player game has no chance and the two players cooperate, so a position
is won if some legal action (whoever is to move) leads to a won position: the search is the
depth-first OR-search of :mod:`solver.clairvoyant.search`, on the four-word states of
:mod:`solver.duo.kernel`:

* frames live in arrays (``S`` states, ``moves``/``nmov``/``idx`` move lists), never on the
  machine stack, and a search can stop after any number of nodes and resume;
* children are tried in the order of the solo heuristic :func:`solver.rules_core.score_move`,
  fed with the active player's cards and Doors (:func:`_gen_ordered`);
* a child is discarded without expansion if it is terminal-lost, if a bound proves it lost
  (:func:`dead_duo`, bounds DB1-DB3 of docs/DUO.md), or if the transposition table holds it
  as lost;
* a node all of whose children are lost is lost and goes to the table;
* the first won child ends the search; the line is the current move of every frame.

The table stores only proved losses under their full four-word key (never a hash alone), so
it is sound whatever it evicts.  :class:`DuoSolver` drives a search under a node budget and
replays every WIN line in ``engine/`` before returning it.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.game import Game
from engine.rules import COLOURS, DOORS_PER_COLOUR, PROPHECY_SIZE

from . import deal_turn as duo_turn
from . import kernel as DK
from solver.clairvoyant import deal_kernel as deal
from solver import rules_core as core
from solver.budgets import check_nodes, check_seconds
from solver.clairvoyant.solve import CertificateError, SolveResult, actions_to_strings, certified_line, \
    clock_chunk, replay_line
from solver.errors import UnsupportedPosition
from solver.registry import register_clairvoyant
from solver.tt import TranspositionTable, _probe, _store

SOLVER_VERSION = "duo-cv1"
MAXD = 1536
DEFAULT_NODE_BUDGET = 5_000_000
DEFAULT_TT_MB = 64
CHUNK = 250_000         # nodes between two looks at the clock under a time budget, at most
RATE_GUESS = 1_000_000  # nodes/s, to size the chunks to the time left (clairvoyant.clock_chunk)
LDS_LEVELS = (0, 1, 2, 3, 4, 5, 6, 7)
LDS_SHARE = 0.6    # the limited-discrepancy runs stop once they used this share of the budget

DB_DOORS = 1    # a colour has fewer than 2 Doors left outside the discard pile
DB_PLAYS = 2    # the series Doors need more plays than the deck leaves turns
DB_SUPPLY = 4   # a colour lacks the Locations its missing Doors need
ALL_BOUNDS = DB_DOORS | DB_PLAYS | DB_SUPPLY
F_TT = 1 << 8
DEFAULT_FLAGS = ALL_BOUNDS | F_TT

ST_INIT, ST_RUN, ST_WIN, ST_LOSS = 0, 1, 2, 3
I_D, I_NODES, I_STATUS, I_EPOCH, I_FLAGS, I_SROOT, I_TTHITS, I_PRUNED, I_LDS, I_TRUNC = range(10)
REM_SHIFT = 60   # limited-discrepancy runs: the discrepancies left, in the key's word 3

_score_nb = njit(cache=True, inline="always")(core.score_move)


def score_turn_move(a, act, ncol, deckc, pdoors, doors, last, ser):
    """Priority of a play, a discard (with or without an exchange) of the active player
    (higher first).  ``pdoors``: the active player's Doors as 0 / 2 per colour; ``doors``:
    Doors in play per colour, both players."""
    if a < 24:
        c = a % 12
        col = c // 3
        if pdoors[col] >= DOORS_PER_COLOUR:
            return 10
        if last != 15 and last // 3 == col and ser != 0:
            if ser == 2:
                if deckc[12 + col] > 0:
                    return 1000
                return 200
            return 700
        s = 400 + 10 * ncol[col]
        if c % 3 == 2:
            s -= 50
        return s
    if a < 48:
        c = (a - 24) % 12
        tail = 0
    else:
        c = ((a - 48) // 144) % 12
        tail = -5
    col = c // 3
    if c % 3 == 2:
        if doors[col] >= DOORS_PER_COLOUR:
            return 500 + tail
        return 250 + tail
    if doors[col] >= DOORS_PER_COLOUR:
        return 450 + tail
    if pdoors[col] >= DOORS_PER_COLOUR:
        return 300 + tail
    return 100 - 10 * ncol[col] + tail


# ----------------------------------------------------------------------------- loss bounds
# the dead-position bound is the one of every search (solver.rules_core.dead_core, which takes
# two rows); this name is the two-player search's (solver.duo.open_hands and the tests use it)
dead_duo = core.dead_core


_dead_nb = njit(cache=True, inline="always")(dead_duo)
_turn_nb = njit(cache=True, inline="always")(score_turn_move)


@njit(cache=True, inline="always")
def _features(st, perms, s_root, allhand, act, deckc, doors, ldoors, pdoors):
    """Feature arrays from a packed state: all Locations in hands (allhand), the active
    player's hand (act), deck counts, Doors in play per colour (both players) and in limbo,
    and the active player's Doors as 0 / 2 per colour (pdoors, for the solo heuristic)."""
    p = DK._turn(st)
    for c in range(12):
        o0 = DK._own_n(st, 0, c)
        o1 = DK._own_n(st, 1, c)
        sh = DK._sh_n(st, c)
        allhand[c] = o0 + o1 + sh
        act[c] = (o1 if p == 1 else o0) + sh
    for col in range(4):
        h0 = DK._has_door(st, 0, col)
        h1 = DK._has_door(st, 1, col)
        doors[col] = h0 + h1
        pdoors[col] = 2 * (h1 if p == 1 else h0)
        ldoors[col] = DK._ldoor_n(st, col)
    deal._deck_counts(st, perms, s_root, deckc)


@njit(cache=True, inline="always")
def _is_dead(st, allhand, act, deckc, doors, ldoors, bounds):
    ph = DK._phase(st)
    drawn = -1
    if ph == DK.PH_DOOR:
        drawn = (st[0] >> DK.DRAWN_SHIFT) & 3
    hs = 0
    for c in range(12):
        hs += act[c]
    return _dead_nb(allhand, deckc, doors, ldoors, drawn, DK._last(st, 0), DK._ser(st, 0),
                    DK._last(st, 1), DK._ser(st, 1), hs,
                    ph == DK.PH_PLAY or ph == DK.PH_DRAFT, bounds)


@njit(cache=True, inline="always")
def _solo_action(a):
    """The solo action a two-player action looks like to the move-ordering heuristic (zone
    dropped; a discard with an exchange looks like the plain discard)."""
    if a < 24:
        return a % 12
    if a < 48:
        return 24 + (a - 24) % 12
    if a < deal.A_PROPHECY:
        return 24 + ((a - 48) // 144) % 12
    if a < deal.A_DOOR_LIMBO:
        return deal.A_DOOR_KEY
    if a < DK.A_NM_DOOR:
        return DK.A_NM_KEY + (a - DK.A_NM_KEY) % 4
    return a


@njit(cache=True, inline="always")
def _gen_ordered(st, perms, s_root, act, deckc, pdoors, doors, rev, out, scores):
    """Legal moves of ``st`` into ``out``, best first (score descending, then the engine's
    order); ``out[128:]`` is scratch."""
    n = duo_turn._legal(st, perms, s_root, out)
    ds = deal._deck_size(st)
    for j in range(PROPHECY_SIZE):
        rev[j] = deal._card_at(st, perms, s_root, j) if j < ds else -1
    p = DK._turn(st)
    last = DK._last(st, p)
    ser = DK._ser(st, p)
    ncol = rev[PROPHECY_SIZE:PROPHECY_SIZE + COLOURS]
    for col in range(COLOURS):
        ncol[col] = act[col * 3] + act[col * 3 + 1] + act[col * 3 + 2]
    draft = DK._phase(st) == DK.PH_DRAFT
    for i in range(n):
        out[deal.CODES_AT + i] = out[i]
        a = out[i]
        if draft:
            s = 0
        elif a < deal.A_PROPHECY:   # play, discard, exchange
            s = _turn_nb(a, act, ncol, deckc, pdoors, doors, last, ser)
        else:          # prophecy, Door, Nightmare: the solo heuristic (colour done = team)
            s = _score_nb(_solo_action(a), act, ncol, deckc, doors, last, ser, rev)
        scores[i] = (s + 4096) * 256 + (255 - i)
    gap = 1
    while gap * 3 + 1 < n:
        gap = gap * 3 + 1
    while gap >= 1:
        for i in range(gap, n):
            x = scores[i]
            j = i - gap
            while j >= 0 and scores[j] < x:
                scores[j + gap] = scores[j]
                j -= gap
            scores[j + gap] = x
        gap //= 3
    for i in range(n):
        out[i] = out[deal.CODES_AT + 255 - (scores[i] & 255)]
    return n


# ----------------------------------------------------------------------------- the table
# The table is solver.tt's, with 4-word keys (DK.NW): the same buckets, exact keys, eviction
# by least work and epochs as the solo search.


class DuoTable(TranspositionTable):
    def __init__(self, mb: float = DEFAULT_TT_MB):
        super().__init__(mb, key_words=DK.NW)


# ----------------------------------------------------------------------------- the search
@njit(cache=True)
def _search(S, moves, nmov, idx, wstart, rem, perms, seed, info, table, node_limit, wk):
    """Run the search until it ends or ``info[I_NODES]`` reaches ``node_limit``.

    ``info[I_LDS] >= 0`` makes it a limited-discrepancy search: along a line, at most that
    many moves may be other than the first of their node's ordered list (``rem[d]``: how many
    are left at frame d).  Such a run may find wins (a win is a win) but its LOSS is a proof
    only if it never cut a move list (``info[I_TRUNC] == 0``).  Its table entries carry
    ``rem`` in the key (a state lost with r discrepancies left), in an epoch of its own."""
    lds = info[I_LDS]
    s_root = info[I_SROOT]
    flags = info[I_FLAGS]
    bounds = flags & 0xFF
    use_tt = (flags & F_TT) != 0
    epoch = info[I_EPOCH]
    allhand = np.zeros(12, dtype=np.int64)
    act = np.zeros(12, dtype=np.int64)
    deckc = np.zeros(deal.NT, dtype=np.int64)
    doors = np.zeros(4, dtype=np.int64)
    ldoors = np.zeros(4, dtype=np.int64)
    pdoors = np.zeros(4, dtype=np.int64)
    rev = np.zeros(PROPHECY_SIZE + COLOURS, dtype=np.int64)   # the top cards, then cards per colour
    scores = np.zeros(deal.MAX_MOVES, dtype=np.int64)
    c = np.zeros(DK.NW, dtype=np.int64)
    mv = np.zeros(deal.MOVES_BUF, dtype=np.int64)
    nodes = info[I_NODES]
    d = info[I_D]
    if info[I_STATUS] == ST_INIT:
        ph = DK._phase(S[0])
        if ph == DK.PH_WON:
            info[I_STATUS] = ST_WIN
            info[I_D] = 0
            return
        if ph == DK.PH_LOST:
            info[I_STATUS] = ST_LOSS
            return
        _features(S[0], perms, s_root, allhand, act, deckc, doors, ldoors, pdoors)
        if bounds and _is_dead(S[0], allhand, act, deckc, doors, ldoors, bounds):
            info[I_STATUS] = ST_LOSS
            return
        nmov[0] = _gen_ordered(S[0], perms, s_root, act, deckc, pdoors, doors, rev, moves[0],
                               scores)
        rem[0] = lds
        if lds == 0 and nmov[0] > 1:
            nmov[0] = 1
            info[I_TRUNC] += 1
        idx[0] = 0
        wstart[0] = nodes
        d = 0
        info[I_STATUS] = ST_RUN
    if info[I_STATUS] != ST_RUN:
        return
    while True:
        if idx[d] >= nmov[d]:
            if use_tt:
                for z in range(DK.NW):
                    c[z] = S[d, z]
                if lds >= 0:
                    c[3] |= rem[d] << REM_SHIFT
                _store(table, c, epoch, nodes - wstart[d])
            if d == 0:
                info[I_STATUS] = ST_LOSS
                break
            d -= 1
            continue
        if nodes >= node_limit:
            break
        a = moves[d, idx[d]]
        crem = rem[d]
        if lds >= 0 and idx[d] > 0:
            crem -= 1
        idx[d] += 1
        for z in range(DK.NW):
            c[z] = S[d, z]
        duo_turn._apply(c, a, perms, s_root, seed, wk)
        nodes += 1
        ph = DK._phase(c)
        if ph == DK.PH_WON:
            d += 1
            info[I_STATUS] = ST_WIN
            break
        if ph == DK.PH_LOST:
            continue
        _features(c, perms, s_root, allhand, act, deckc, doors, ldoors, pdoors)
        if bounds and _is_dead(c, allhand, act, deckc, doors, ldoors, bounds):
            info[I_PRUNED] += 1
            continue
        if use_tt:
            k3 = c[3]
            if lds >= 0:
                c[3] |= crem << REM_SHIFT
            hit = _probe(table, c, epoch)
            c[3] = k3
            if hit:
                info[I_TTHITS] += 1
                continue
        d += 1
        for z in range(DK.NW):
            S[d, z] = c[z]
        nmov[d] = _gen_ordered(c, perms, s_root, act, deckc, pdoors, doors, rev, mv, scores)
        rem[d] = crem
        if lds >= 0 and crem == 0 and nmov[d] > 1:
            nmov[d] = 1
            info[I_TRUNC] += 1
        for z in range(nmov[d]):
            moves[d, z] = mv[z]
        idx[d] = 0
        wstart[d] = nodes
    info[I_D] = d
    info[I_NODES] = nodes


class DuoSearch:
    """The arrays of one search (reusable: :meth:`reset` starts a new one)."""

    def __init__(self, table):
        self.S = np.zeros((MAXD + 1, DK.NW), dtype=np.int64)
        self.moves = np.zeros((MAXD, deal.MOVES_BUF), dtype=np.int64)
        self.nmov = np.zeros(MAXD, dtype=np.int64)
        self.idx = np.zeros(MAXD, dtype=np.int64)
        self.wstart = np.zeros(MAXD, dtype=np.int64)
        self.rem = np.zeros(MAXD, dtype=np.int64)
        self.info = np.zeros(10, dtype=np.int64)
        self.table = table
        self.perms = None
        self.seed = np.uint64(0)
        self.wk = deal.new_wk()

    def reset(self, st, perms, s_root, seed, epoch, flags, lds=-1):
        self.S[0, :] = st
        self.perms = perms
        self.seed = seed
        self.info[:] = 0
        self.info[I_EPOCH] = epoch
        self.info[I_FLAGS] = flags
        self.info[I_SROOT] = s_root
        self.info[I_LDS] = lds
        self.wk[deal.WK_PC:] = -1

    def run(self, node_limit: int) -> None:
        _search(self.S, self.moves, self.nmov, self.idx, self.wstart, self.rem, self.perms,
                self.seed,
                self.info, self.table, np.int64(node_limit), self.wk)

    @property
    def status(self) -> int:
        return int(self.info[I_STATUS])

    @property
    def nodes(self) -> int:
        return int(self.info[I_NODES])

    def line(self) -> list[int]:
        d = int(self.info[I_D])
        return [int(self.moves[i, self.idx[i] - 1]) for i in range(d)]


@register_clairvoyant(2)
class DuoSolver:
    """A reusable two-player clairvoyant solver: one table, one set of search arrays."""

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, flags: int = DEFAULT_FLAGS,
                 lds_levels=LDS_LEVELS, lds_share: float = LDS_SHARE):
        self.lds_levels = tuple(lds_levels)
        self.lds_share = lds_share
        self.tt = DuoTable(tt_mb)
        self.search = DuoSearch(self.tt.table)
        self.flags = flags
        self.perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)

    def solve_state(self, state, budget_nodes: int | None = DEFAULT_NODE_BUDGET,
                    budget_s: float | None = None, flags: int | None = None,
                    verify: bool = True) -> SolveResult:
        """Solve a two-player engine State in deal mode: WIN (with its line, replayed in the
        engine), LOSS (search exhausted) or UNKNOWN (budget)."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s")
        t0 = time.perf_counter()
        st, perms, s_root, seed = DK.encode(state, self.perms)
        fl = self.flags if flags is None else flags
        limit = budget_nodes if budget_nodes is not None else (1 << 62)
        deadline = None if budget_s is None else t0 + budget_s
        kcpu = 0.0
        used = 0
        tthits = pruned = 0

        def run(lds, upto):
            """One search (its own table epoch) of at most ``upto`` nodes; returns status."""
            nonlocal kcpu, used, tthits, pruned
            self.search.reset(st, perms, s_root, seed, self.tt.new_epoch(), fl, lds)
            while True:
                nxt = upto if deadline is None else min(
                    upto, self.search.nodes
                    + clock_chunk(deadline - time.perf_counter(), RATE_GUESS))
                c0 = time.process_time()
                self.search.run(nxt)
                kcpu += time.process_time() - c0
                if self.search.status in (ST_WIN, ST_LOSS) or self.search.nodes >= upto:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            info = self.search.info
            used += self.search.nodes
            tthits += int(info[I_TTHITS])
            pruned += int(info[I_PRUNED])
            return self.search.status

        status = ST_RUN
        proof = False
        # 1. limited-discrepancy searches, 0, 1, 2, ... discrepancies: they find wins fast;
        #    a LOSS is kept as a proof only if the run never cut a move list
        lds_cap = int(limit * self.lds_share)
        for k in self.lds_levels:
            if used >= lds_cap or (deadline is not None and time.perf_counter() >= deadline):
                break
            status = run(k, lds_cap - used)
            if status == ST_WIN:
                break
            if status == ST_LOSS and self.search.info[I_TRUNC] == 0:
                proof = True
                break
            status = ST_RUN
        # 2. the complete search with what is left
        if status != ST_WIN and not proof and used < limit and \
                (deadline is None or time.perf_counter() < deadline):
            status = run(-1, limit - used)
            proof = status == ST_LOSS
        res = SolveResult("UNKNOWN", nodes=used, tt_hits=tthits, pruned=pruned,
                          kernel_cpu_seconds=kcpu)
        if self.search.status == ST_WIN:
            acts = self.search.line()
            res.result = "WIN"
            res.actions = acts
            line = certified_line(state, acts) if verify else None
            if line is None:
                res.line = actions_to_strings(state, acts)
                if verify:
                    ok, msg = replay_line(state, res.line)
                    if not ok:
                        raise CertificateError(f"WIN certificate fails in the engine: {msg}")
            else:
                res.line = line
        elif proof:
            res.result = "LOSS"
        res.seconds = time.perf_counter() - t0
        return res

    def solve_deal(self, seed: int, **kw) -> SolveResult:
        return self.solve_state(Game(2).new_initial_state(seed), **kw)


_DEFAULT: DuoSolver | None = None


def solve_duo_state(state, budget_nodes: int = DEFAULT_NODE_BUDGET,
                    budget_s: float | None = None) -> SolveResult:
    """Solve a two-player engine State in deal mode (a shared default solver)."""
    global _DEFAULT
    if state.players != 2:
        raise UnsupportedPosition("solve_duo_state needs a two-player position")
    if _DEFAULT is None:
        _DEFAULT = DuoSolver()
    return _DEFAULT.solve_state(state, budget_nodes=budget_nodes, budget_s=budget_s)


def solve_duo_deal(seed: int, budget_nodes: int = DEFAULT_NODE_BUDGET,
                   budget_s: float | None = None) -> SolveResult:
    return solve_duo_state(Game(2).new_initial_state(seed), budget_nodes=budget_nodes,
                           budget_s=budget_s)
