"""Open-hands expectimax for two-player end games (docs/DUO_EXPECTIMAX.md).

Both players' own cards and the shared cards are known to the team; the order of the deck is
not (every draw from it is a chance node over the multiset of unknown cards, a prophecy
reveals cards, a shuffle makes the whole deck unknown again).  Both players maximise the
team's winning probability.  These are exactly the engine's chance-mode semantics for a
two-player ``State`` without a seed, and this module searches ``engine/`` states directly
(a careful pure-Python search: no second copy of the rules).  The value is an upper bound
on what honest play can reach (the partner's hand is known here) and is exact where the
search finishes.

Public API
----------
``open_hands(state, hide=False)``  the chance-mode position the search ranks
``DuoExpectimax``                  a solver with its own memo (kept between queries)
    ``.value(state, ...)``         an ``Interval`` on the team's win probability
    ``.rank(state, ...)``          every legal action of a decision state, ranked
                                   (``solver.api.Ranking``, docs/NOTATION.md section 5); the
                                   ``open-hands`` mode of ``solver.api.rank``

Under a node or time budget every answer is a pair of sound bounds (an unexplored subtree
counts as [0, 1]); ``best`` is an action only when proven best.

Reductions, each argued in docs/DUO_EXPECTIMAX.md and tested against the search without it
(``tests/solver/duo/test_duo_expectimax.py``): the memo key (what the rules never read again is
dropped), the player-swap symmetry, the sorted prophecy cards, the dead-position bound
(``solver.duo.search.dead_duo``, DB1-DB3 of docs/DUO.md, shared with the clairvoyant search)
and the alpha-beta / Star1 windows.
"""
from __future__ import annotations

import sys
import time
from math import comb

from engine import cards
from engine.game import CHANCE_PHASES, State, series_length
from engine.rules import PROPHECY_SIZE

from solver.registry import SolverBase
from solver.results import ActionValue, Interval, Ranking, bounds, finish
from solver.budgets import check_nodes, check_seconds
from solver.duo.search import ALL_BOUNDS, dead_duo
from solver.errors import UnsupportedPosition

__all__ = ["DuoExpectimax", "open_hands", "check_duo_decision", "F_PRUNE", "F_DEAD",
           "F_SWAP", "F_PROPHECY_SORT", "F_REVEAL", "DEFAULT_FLAGS", "MODE"]

MODE = "open-hands"

# the reductions' flags, shared with the numba search (solver.duo.open_kernel): F_PRUNE
# alpha-beta / Star1, F_DEAD the dead-position bound, F_SWAP the player-swap key,
# F_PROPHECY_SORT the revealed cards as a multiset, F_REVEAL a reveal as one chance node
# (the numba search adds F_FREE, the deferred prophecy order, which this search does not have:
# its default is the five, PYTHON_FLAGS)
from solver.duo.open_kernel import (F_DEAD, F_PROPHECY_SORT, F_PRUNE, F_REVEAL,  # noqa: E402
                                    F_SWAP)
from solver.duo.open_kernel import PYTHON_FLAGS as DEFAULT_FLAGS  # noqa: E402

DEFAULT_MEMO_CAP = 1_500_000    # entries (about 300 bytes each); the memo is emptied when full
FIRST_ROUND = 20_000            # rank(): node allowance per open action in round 1, doubling
CLOCK_EVERY = 1                 # nodes between two looks at the clock (a look costs well under
                                # 1% of a node: perf_counter against an engine clone and step)

_PH = {"play": 0, "prophecy": 1, "door": 2, "nightmare": 3, "draft": 4, "setup": 5,
       "refill": 6, "redraw": 7, "reveal": 8, "foresee": 9, "won": 10, "lost": 11}
_DECISION = ("play", "prophecy", "door", "nightmare", "draft")


class NotDuoDecision(UnsupportedPosition):
    """A position the open-hands search does not rank: not two-player, or not a decision."""


# ------------------------------------------------------------------------------ positions
def open_hands(state: State, hide: bool = False) -> State:
    """The chance-mode position the team faces: both hands and the shared cards as given,
    the deck order unknown.  A seeded (deal-mode) position, or any position with ``hide``,
    keeps only the cards a prophecy is revealing (phase ``prophecy``: the top min(5, deck));
    otherwise a listed deck prefix stays known, as the position says."""
    if state.players != 2:
        raise NotDuoDecision("open-hands expectimax: two-player positions only (mode=duo)")
    s = state.clone()
    s._history = []
    if s.seed is not None or hide:
        k = min(PROPHECY_SIZE, s.deck_size()) if s.phase == "prophecy" else 0
        for c in s.deck[k:]:
            s.unknown[c] += 1
        s.deck = s.deck[:k]
    s.seed = None
    s.shuffles = 0
    s.known_top = 0
    return s


def check_duo_decision(state: State) -> None:
    if state.players != 2:
        raise NotDuoDecision("open-hands expectimax: two-player positions only (mode=duo)")
    if state.phase not in _DECISION:
        raise NotDuoDecision(f"phase: the position must be a decision (play, prophecy, door, "
                             f"nightmare or draft), not {state.phase}")


def _ser(row) -> int:
    """Length of the row's open series (0: empty row, or the last series is complete)."""
    if not row:
        return 0
    n = len(row)
    if n > 3 or row.count(row[0]) != n:      # not a lean row (section 2): count
        n = series_length(row)
    return 0 if n == 3 else n


def _last(row) -> int:
    return row[-1] if row else 15


def state_key(s: State, flags: int = DEFAULT_FLAGS) -> bytes:
    """The memo key: every field a rule can still read, nothing else (section 2 of the doc).
    Dropped: the discard pile, the rows before their last card (only its type and the open
    series length are kept), seed, shuffles and the history.  With ``F_SWAP`` the players are
    written active first (the turn bit disappears); with ``F_PROPHECY_SORT`` the cards a
    prophecy is revealing are written as a multiset."""
    ph = s.phase
    if flags & F_SWAP:
        order = (s.turn, 1 - s.turn)
        head = [_PH[ph]]
    else:
        order = (0, 1)
        head = [_PH[ph], s.turn]
    drawn = 255 if s.drawn is None else s.drawn
    out = head + [drawn, s.left]
    for p in order:
        h = s.hands[p]
        out.append(len(h))
        out.extend(h)
        r = s.rows[p]
        out.append(_last(r))
        out.append(_ser(r))
        d = s.doors[p]
        out.append(len(d))
        out.extend(d)
    out.append(len(s.shared))
    out.extend(s.shared)
    deck = s.deck
    if (flags & F_PROPHECY_SORT) and ph in ("prophecy", "foresee") and deck:
        k = min(PROPHECY_SIZE, s.deck_size())
        deck = sorted(deck[:k]) + deck[k:]
    out.append(len(deck))
    out.extend(deck)
    out.extend(s.unknown)
    out.append(len(s.limbo))
    out.extend(s.limbo)
    return bytes(out)


def is_dead(s: State) -> bool:
    """DB1-DB3 (docs/DUO.md) on an engine two-player state: True only if no sequence of
    chance outcomes lets the team win (section 4 of docs/DUO_EXPECTIMAX.md)."""
    ph = s.phase
    if ph in ("won", "lost", "setup"):
        return False
    allhand = [0] * 12
    act = 0
    for c in s.hands[0]:
        allhand[c] += 1
    for c in s.hands[1]:
        allhand[c] += 1
    for c in s.shared:
        allhand[c] += 1
    act = len(s.hands[s.turn]) + len(s.shared)
    deckc = list(s.unknown)
    for c in s.deck:
        deckc[c] += 1
    doors = [0, 0, 0, 0]
    for ds in s.doors:
        for d in ds:
            doors[d - 12] += 1
    ldoors = [0, 0, 0, 0]
    for c in s.limbo:
        if 12 <= c < 16:
            ldoors[c - 12] += 1
    drawn = -1
    if ph == "door" and s.drawn is not None:
        drawn = cards.colour(s.drawn)
    r0, r1 = s.rows
    return bool(dead_duo(allhand, deckc, doors, ldoors, drawn, _last(r0), _ser(r0),
                         _last(r1), _ser(r1), act, ph in ("play", "draft"), ALL_BOUNDS))


def _lean(s: State) -> State:
    """A copy of ``s`` with what no rule reads cut down (section 2 of the doc): an empty
    discard pile (it is only ever written) and each row replaced by ``n`` copies of its last
    card, ``n`` the length of its last series (1 to 3): a play reads the last card's symbol,
    a series the last card's colour and the series length, and ``series_length`` of the new
    row is ``n``.  The search's states are lean; the brute force of the tests is not."""
    c = s.clone()
    c._history = []
    c.discard = []
    c.rows = [[r[-1]] * series_length(r) if r else [] for r in c.rows]
    return c


def _decide(s: State, a: int) -> State:
    """The child of a lean state after decision ``a``, lean again (a play's row is cut back
    to n copies of its last card)."""
    c = s.clone()
    p = c.turn
    n = len(c.rows[p])
    c._apply_decision(a)
    c._advance()
    r = c.rows[p]
    if len(r) != n:
        c.rows[p] = [r[-1]] * series_length(r)
    return c


def _multisets(counts, r, start=0):
    """Every multiset of ``r`` cards drawn from ``counts`` (from type ``start`` on), as a
    list of (type, number) pairs."""
    if r == 0:
        yield []
        return
    rest = sum(counts[start:])
    if rest < r:
        return
    for t in range(start, len(counts)):
        n = counts[t]
        if not n:
            continue
        for m in range(min(n, r), 0, -1):
            for tail in _multisets(counts, r - m, t + 1):
                yield [(t, m)] + tail


def _reveal_all(s: State, ms) -> State:
    """The state after a Nightmare's reveal turned over the multiset ``ms`` of unknown cards
    (Locations to the discard pile, which the lean states leave empty; Doors and Nightmares
    to limbo), then the automatic steps."""
    c = s.clone()
    for t, m in ms:
        c.unknown[t] -= m
        if not cards.is_location(t):
            for _ in range(m):
                c._insert(c.limbo, t)
    c.left -= sum(m for _, m in ms)
    c._advance()
    return c


def _draw(s: State, t: int) -> State:
    c = s.clone()
    c._apply_chance(t)
    c._advance()
    return c


NOTE_SEED = ("the team's, open hands (the position has a seed: ranked without the seed and "
             "the deck order; both players' cards are known to the team)")
NOTE_VIEW = "the team's (--view: the listed deck order hidden)"
INFORMATION = ("open hands: both players' cards known to the team, the deck order unknown "
               "(an upper bound on honest play)")


# ------------------------------------------------------------------------------- solver
# The open-hands mode of solver.api.rank is solver.duo.open_search.OpenSearch: this class's
# queries with the search of one position in numba.  This pure-Python search stays the
# reference its tests compare with (docs/DUO_EXPECTIMAX.md section 6).
class DuoExpectimax(SolverBase):
    """A memoised open-hands expectimax with sound [lo, hi] bounds under a node/time budget.

    ``flags``: any of ``F_PRUNE``, ``F_DEAD``, ``F_SWAP``, ``F_PROPHECY_SORT`` (default all).
    None of them changes a value, only the work.  The memo persists between queries."""

    def __init__(self, flags: int = DEFAULT_FLAGS, memo_cap: int = DEFAULT_MEMO_CAP):
        self.flags = int(flags)
        self.memo: dict[bytes, tuple[float, float]] = {}
        self.memo_cap = int(memo_cap)
        self.nodes = 0            # nodes expanded over the solver's life
        self.cleared = 0          # times the memo was emptied because it was full
        self.dead_hits = 0
        self._limit = 1 << 62
        self._deadline = None
        self.stopped = False

    viewer = "team"

    def position(self, state: State, hide: bool = False):
        """The open-hands position ranked (``open_hands``) and a note on whose view it is
        (None: the position as given)."""
        view = open_hands(state, hide)
        check_duo_decision(view)
        note = NOTE_SEED if state.seed is not None else NOTE_VIEW if hide else None
        return view, note

    def prepare(self, state: State | None = None, say=None) -> None:
        """Load the compiled dead-position bound (``dead_duo``, numba) before the clock."""
        if state is not None:
            is_dead(state)

    # ------------------------------------------------------------------ the search
    def _quick(self, c: State):
        """(lo, hi, key) of a child without searching it: the end of the game, the dead
        bound, the memo, else [0, 1]."""
        ph = c.phase
        if ph == "won":
            return 1.0, 1.0, None
        if ph == "lost":
            return 0.0, 0.0, None
        if (self.flags & F_DEAD) and is_dead(c):
            self.dead_hits += 1
            return 0.0, 0.0, None
        k = state_key(c, self.flags)
        e = self.memo.get(k)
        if e is None:
            return 0.0, 1.0, k
        return e[0], e[1], k

    def _late(self) -> bool:
        """True (and the search stops) once the deadline is past: the children of one
        node can take long to make (a reveal's multisets), so their loops look too.  The
        node then returns [0, 1], which is sound."""
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            self.stopped = True
        return self.stopped

    def _search(self, s: State, key: bytes, alpha: float, beta: float):
        e = self.memo.get(key)
        if e is not None:
            lo, hi = e
            if lo == hi or hi <= alpha or lo >= beta:
                return lo, hi
        else:
            lo, hi = 0.0, 1.0
        if self.stopped or self.nodes >= self._limit:
            self.stopped = True
            return lo, hi
        if self._deadline is not None and self.nodes % CLOCK_EVERY == 0 \
                and time.perf_counter() >= self._deadline:
            self.stopped = True
            return lo, hi
        self.nodes += 1
        if s.phase in CHANCE_PHASES:
            rlo, rhi = self._chance(s, alpha, beta)
        else:
            rlo, rhi = self._decision(s, alpha, beta)
        nlo = lo if lo > rlo else rlo
        nhi = hi if hi < rhi else rhi
        if nlo > nhi:          # two sound intervals one rounding apart: keep the new one
            nlo, nhi = rlo, rhi
        if len(self.memo) >= self.memo_cap:
            self.memo.clear()
            self.cleared += 1
        self.memo[key] = (nlo, nhi)
        return nlo, nhi

    def _chance(self, s: State, alpha: float, beta: float):
        total = sum(s.unknown)
        kids = []
        if (self.flags & F_REVEAL) and s.phase == "reveal" and s.left > 1 and not s.deck:
            # section 3, F_REVEAL: the r cards still to reveal as one multiset
            r = s.left
            ways = comb(total, r)
            for ms in _multisets(s.unknown, r):
                if self._late():             # thousands of outcomes: look at the clock
                    return 0.0, 1.0
                p = 1
                for t, m in ms:
                    p *= comb(s.unknown[t], m)
                c = _reveal_all(s, ms)
                lo, hi, k = self._quick(c)
                kids.append([p / ways, c, k, lo, hi])
        else:
            for t, n in enumerate(s.unknown):
                if n:
                    c = _draw(s, t)
                    lo, hi, k = self._quick(c)
                    kids.append([n / total, c, k, lo, hi])
        prune = self.flags & F_PRUNE
        slo = sum(p * lo for p, _, _, lo, _ in kids)
        shi = sum(p * hi for p, _, _, _, hi in kids)
        if not (prune and (shi <= alpha or slo >= beta)):
            for kid in sorted(kids, key=lambda x: -x[0]):
                p, c, k, lo, hi = kid
                if lo == hi:
                    continue
                olo = slo - p * lo
                ohi = shi - p * hi
                if prune:
                    ca = (alpha - ohi) / p
                    cb = (beta - olo) / p
                else:
                    ca, cb = 0.0, 1.0
                clo, chi = self._search(c, k, ca, cb)
                kid[3], kid[4] = clo, chi
                slo = olo + p * clo
                shi = ohi + p * chi
                if self.stopped or (prune and (shi <= alpha or slo >= beta)):
                    break
        # the same sums in one fixed order: exact children give lo == hi bit for bit
        return (sum(p * lo for p, _, _, lo, _ in kids),
                sum(p * hi for p, _, _, _, hi in kids))

    def _decision(self, s: State, alpha: float, beta: float):
        kids = []
        for a in s.legal_actions():
            if self._late():                 # a prophecy's 120 orders: look at the clock
                return 0.0, 1.0
            c = _decide(s, a)
            lo, hi, k = self._quick(c)
            kids.append([c, k, lo, hi])
        prune = self.flags & F_PRUNE
        best = max(x[2] for x in kids)
        for kid in sorted(kids, key=lambda x: (-x[3], -x[2])):
            c, k, lo, hi = kid
            if lo == hi:
                continue
            if prune:
                floor = alpha if alpha > best else best
                if hi <= floor:
                    continue
                clo, chi = self._search(c, k, floor, beta)
            else:
                clo, chi = self._search(c, k, 0.0, 1.0)
            kid[2], kid[3] = clo, chi
            if clo > best:
                best = clo
            if self.stopped or (prune and best >= beta):
                break
        return best, max(x[3] for x in kids)

    def _bounded(self, s: State, budget_nodes, deadline):
        """Search ``s`` with the window (0, 1) under ``budget_nodes`` more nodes and the
        ``deadline``; returns an Interval (sound whatever stopped it)."""
        s = _lean(s)
        if s.phase == "won":
            return Interval(1.0, 1.0)
        if s.phase == "lost":
            return Interval(0.0, 0.0)
        if (self.flags & F_DEAD) and is_dead(s):
            return Interval(0.0, 0.0)
        self._limit = (1 << 62) if budget_nodes is None else self.nodes + budget_nodes
        self._deadline = deadline
        self.stopped = False
        old = sys.getrecursionlimit()
        if old < 20_000:
            sys.setrecursionlimit(20_000)
        try:
            lo, hi = self._search(s, state_key(s, self.flags), 0.0, 1.0)
        finally:
            if old < 20_000:
                sys.setrecursionlimit(old)
        return bounds(lo, hi)

    # ------------------------------------------------------------------ queries
    def value(self, state: State, budget_nodes: int | None = None,
              budget_s: float | None = None, hide: bool = False) -> Interval:
        """Sound bounds on the team's win probability at any two-player position (a seeded
        one is first turned into its open-hands form, ``open_hands``)."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        s = open_hands(state, hide)
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        return self._bounded(s, budget_nodes, deadline)

    def rank(self, state: State, budget_nodes: int | None = None,
             budget_s: float | None = None, position: str | None = None,
             hide: bool = False, first_round: int = FIRST_ROUND, on_progress=None,
             reserve_s: float = 0.0) -> Ranking:
        """Rank every legal action of a two-player decision position by the team's win
        probability with open hands.  Without budgets every value is exact; with budgets,
        rounds with a doubling node allowance per open action run until every action is
        exact or a budget is spent (the memo keeps earlier rounds' work).  ``on_progress``
        and ``reserve_s`` as for ``solver.api.Solver``; Ctrl-C returns the bounds found so
        far, marked ``extra["interrupted"]``."""
        from engine.notation import format_position

        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        t0 = time.perf_counter()
        deadline = None if budget_s is None else t0 + max(0.0, budget_s - reserve_s)
        s = open_hands(state, hide)
        check_duo_decision(s)
        n0 = self.nodes
        lean = _lean(s)
        kids = [(a, s.action_to_string(a), _decide(lean, a)) for a in s.legal_actions()]
        res = {a: Interval(0.0, 1.0) for a, _, _ in kids}
        interrupted = False
        try:
            self._rounds(kids, res, budget_nodes, deadline, first_round, on_progress)
        except KeyboardInterrupt:
            interrupted = True
        acts = [ActionValue(action=t, action_id=a, lo=res[a].lo, hi=res[a].hi)
                for a, t, _ in kids]
        ranking = Ranking(position if position is not None else format_position(s), MODE,
                          acts, self.nodes - n0, 0.0)
        finish(ranking)
        ranking.seconds = time.perf_counter() - t0
        ranking.extra["players"] = 2
        ranking.extra["information"] = INFORMATION
        if interrupted:
            ranking.extra["interrupted"] = True
        return ranking

    def _rounds(self, kids, res, budget_nodes, deadline, allowance, on_progress) -> None:
        """Search the open actions in rounds (the node allowance doubling) until every one
        is exact or a budget is spent; ``res`` holds each action's bounds so far."""
        n0 = self.nodes

        def spent():
            if budget_nodes is not None and self.nodes - n0 >= budget_nodes:
                return True
            return deadline is not None and time.perf_counter() >= deadline

        budgeted = budget_nodes is not None or deadline is not None
        rnd = 0
        while True:
            rnd += 1
            for a, _, c in kids:
                if res[a].exact or spent():
                    continue
                nb = None
                if budgeted:
                    nb = allowance
                    if budget_nodes is not None:
                        nb = min(nb, budget_nodes - (self.nodes - n0))
                r = self._bounded(c, nb, deadline)
                old = res[a]
                res[a] = bounds(max(old.lo, r.lo), min(old.hi, r.hi)) \
                    if max(old.lo, r.lo) <= min(old.hi, r.hi) else r
                if on_progress is not None:
                    on_progress(sum(1 for v in res.values() if v.exact), len(kids),
                                self.nodes - n0, rnd)
            if all(r.exact for r in res.values()) or spent() or not budgeted:
                return
            allowance *= 2


