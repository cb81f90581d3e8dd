"""Exact expectimax for honest information (SPEC section 6, mode ``expectimax``).

The player knows the hand, the row, the Doors, the discard pile, the limbo and every card the
position lists on top of the deck (a prophecy, or a listed deck); every other card lies below
them in uniformly random order, and every later shuffle is uniform too.  These are exactly the
engine's chance-mode semantics (``engine.game``, no seed), solo only.

Public API
----------
``encode(state)``            the four packed words of a solo engine state (validates it)
``Expectimax``               a solver with its own memo table (kept between queries)
    ``.value(state, ...)``   an :class:`Interval` on the win probability of any solo state
    ``.rank(state, ...)``    every legal action of a decision state, ranked (:class:`Ranking`);
                             a live (seeded) state is ranked from the player's view
    ``.line(state)``         the principal line from a state
    ``.tree(state, ...)``    the explored graph near a state, as a networkx DiGraph
``best(text, ...)``          parse a position and rank it (what ``onirim best`` calls)

Values are exact when the search completes.  Under a node or time budget they are sound
bounds: every unexplored subtree counts as [0, 1]; ``best`` is an action only when it is
proven best, and otherwise each action gets an estimate of greedy play after it
(``solver.estimate``), kept apart from the bounds.  See docs/EXPECTIMAX.md.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.errors import OnirimError, PositionError
from engine.game import State
from engine.notation import format_position, parse_position
from engine.view import player_view

from solver import api
from . import kernel as K
from solver.budgets import available_memory, check_nodes, check_seconds
from .encode import PHASE_CODES, UnsupportedPosition, encode, forget_seed  # noqa: F401
from .memo import GROW_SEEN, MemoTable
from .runner import SearchRunner

AUTO_START_BITS = 20         # a growing table starts with 2**20 entries (64 MiB) and grows
AUTO_MAX_BITS = 30           # 4 times at a time, up to this size and half the memory
                             # available, once it has taken GROW_SEEN (expectimax_memo)
                             # times its size in entries (stored, plus replaced)
GROW_BYTES_PER_S = 4e8       # growth a deadline must leave time for: the slowest first
                             # touch of new memory measured (4 GiB in 10 s, a shared VM)
PROBE_SHARE = 0.5            # under budgets, probes of the actions may take this share first
                             # (section 4a); what they leave goes to the rounds
EXACT_SHARE = 0.5            # with estimates (rank(estimate=True)) under a time budget, the
                             # exact search takes this share; the estimates what it leaves
EXACT_SHARE_LARGE = 0.2      # ... and only this share with more than LARGE_UNKNOWN unknown
LARGE_UNKNOWN = 24           # cards (it finishes only in the last ~15: the estimates are
                             # then all the player gets, and need the time)
NODE_BUDGET_PLAYOUTS = 64    # estimates under a node budget alone: playouts per action
SLOW_NODE_CARDS = 24         # positions with more deck cards than this look at the clock at
                             # every node (a node can cost 30 ms on turn 1), others every
                             # K.CLOCK_EVERY nodes
BYTES_PER_ENTRY = 64         # one memo table row (K.new_tables); memo files hold 56 per entry
COMPILE_S = 120              # about what compiling the kernels takes on a cold cache (the
                             # cold-cache test of tests/cli/test_best_cli.py: 151 s on a loaded
                             # 2-core machine, ~100 s on a quieter one)


def memory_cap_bits(limit: int = AUTO_MAX_BITS) -> int:
    """The largest table (2**bits rows of 64 bytes, at most 2**limit) that fits in half the
    memory available now; 2**24 rows (1 GiB) if the available memory is unknown."""
    avail = available_memory()
    if avail is None:
        return min(limit, 24)
    b = 4
    while b < limit and (64 << (b + 1)) <= avail // 2:
        b += 1
    return b


class TableTooLarge(OnirimError):
    """A memo table larger than the memory available (checked before allocating it)."""


def check_table_memory(bits: int, field_name: str = "table_bits") -> None:
    """Raise TableTooLarge if a table of 2**bits rows does not fit in the memory available
    now (with a tenth kept for everything else).  Unknown available memory: no check; nor
    for a table no larger than the default first one (2**AUTO_START_BITS rows, 64 MiB),
    which every query allocates anyway."""
    need = BYTES_PER_ENTRY << bits
    if bits <= AUTO_START_BITS:
        return
    avail = available_memory()
    if avail is not None and need > avail * 0.9:
        raise TableTooLarge(f"{field_name}: a table of 2^{bits} entries needs "
                            f"{need / 2**30:.1f} GiB, and only {avail / 2**30:.1f} GiB of "
                            "memory is available (each entry takes "
                            f"{BYTES_PER_ENTRY} bytes)")


class _Bounds:
    """Sound bounds ``lo <= value <= hi`` on a win probability."""
    lo: float
    hi: float

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def value(self) -> float:
        """The exact value, or the middle of the bounds (internal use only: a ranking's
        ``ActionValue.value`` is the exact value or None, never a midpoint)."""
        return self.lo if self.exact else (self.lo + self.hi) / 2


@dataclass(frozen=True)
class Interval(_Bounds):
    lo: float
    hi: float


# Bounds closer than this are one value up to floating-point rounding (section 3,
# "Intervals": sound up to about 1e-15).
EXACT_TOL = 1e-15


def bounds(lo: float, hi: float) -> Interval:
    """An Interval from bounds computed in floating point, or from intersecting two sound
    intervals: clamped to [0, 1], with hi >= lo, and exact (hi = lo) when they are within
    EXACT_TOL.  A sum of probabilities can round a hair above 1 (a sure win whose outcomes'
    probabilities add up to 1.0000000000000002); two searches of one value can round it one
    unit apart; and a Star1 cut at alpha can leave a refuted action's upper bound one unit
    above alpha, so that the best action's exact value v comes back as [v, v + 1 ulp].
    None of these may show as a value above 1, as lo > hi, or as an open interval."""
    lo = min(1.0, max(0.0, lo))
    hi = min(1.0, max(lo, hi))
    return Interval(lo, lo if hi - lo <= EXACT_TOL else hi)


@dataclass
class ActionValue(api.ActionValue):
    """solver.api's ActionValue with the engine's action number; ``value`` is filled in when
    the bounds meet (it is never a midpoint)."""
    action_id: int = -1

    def __post_init__(self):
        if self.value is None and self.exact:
            self.value = self.lo


@dataclass
class Ranking(api.Ranking):
    """solver.api's Ranking, plus the principal line (text output only)."""
    line: list[str] = field(default_factory=list)


CRITERION_ESTIMATE = ("highest estimate (greedy play after the action) among the actions "
                      "not proven worse than another")
CRITERION_LO = "highest lo (the winning chance proven reachable) among the actions"


def sort_actions(actions: list) -> list:
    """The table's order.  A proven best action comes first (ties by action string); then
    the actions not proven worse than another (``hi`` at least the largest ``lo``), by
    estimate when there are estimates, else by ``lo``; then the actions proven worse, by
    ``lo``.  Ties: higher ``lo``, higher ``hi``, then the action string (stable output).
    When every value is exact this is the order of the values."""
    if not actions:
        return []
    top = max(a.lo for a in actions)
    proven = api.proven_best(actions) is not None
    has_est = any(getattr(a, "estimate", None) is not None for a in actions)

    def key(a):
        est = a.estimate if has_est and a.estimate is not None else -1.0
        return (0 if proven and a.lo >= top - EXACT_TOL else 1,
                a.hi < top - EXACT_TOL, -est if has_est else 0.0, -a.lo, -a.hi, a.action)
    return sorted(actions, key=key)


def finish(ranking) -> None:
    """Sort the actions, and name the leader and its criterion when nothing is proven."""
    ranking.actions = sort_actions(ranking.actions)
    if ranking.best is None and ranking.actions:
        ranking.leader = ranking.actions[0].action
        ranking.criterion = (CRITERION_ESTIMATE
                             if any(a.estimate is not None for a in ranking.actions)
                             else CRITERION_LO)
    else:
        ranking.leader = ranking.criterion = None


# ------------------------------------------------------------------------------- encoding


# ------------------------------------------------------------------------------- solver
class Expectimax:
    """A memoized expectimax solver.  The memo table persists between queries, so related
    positions (the children of one root, a principal line) reuse each other's work.

    The queries (``value``, ``probe``, ``rank``, ``line``, ...) are this class; the memo table
    with its growth and files is ``self.memo`` (``solver.expectimax_memo.MemoTable``), and
    the searches run in ``self.runner`` (``solver.expectimax_runner.SearchRunner``: the
    threads, their settings and counters, signals, the deadline)."""

    def __init__(self, table_bits: int | None = None, prune: bool = True,
                 bound: bool = True, peek: bool = False, threads: int = 1,
                 max_table_bits: int | None = None):
        """``prune``: Star1 / alpha-beta windows; ``bound``: the can-still-win test;
        ``peek``: give chance outcomes their memo / bound intervals before searching any
        (tighter Star1 windows, one more memo probe per outcome).  None of them changes a
        value, only the work.  ``threads``: searches run at once on the shared memo, every
        other one visiting children and outcomes in reverse order; the first to finish
        stops the others (see docs/EXPECTIMAX.md, "Threads").

        Memo size: ``table_bits`` B gives a table of 2**B entries (64 bytes each) that never
        grows, unless ``max_table_bits`` is larger.  Without ``table_bits`` the table starts
        at 2**20 entries and grows (section 3, "Growing the memo") up to ``max_table_bits``
        (default 30) and half the memory available when it grows."""
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        for name, b in (("table_bits", table_bits), ("max_table_bits", max_table_bits)):
            if b is not None and (not isinstance(b, int) or not 4 <= b <= 34):
                raise ValueError(f"{name} must be an integer from 4 to 34, not {b!r}")
        check_table_memory(table_bits if table_bits is not None else AUTO_START_BITS)
        if table_bits is None:
            table_bits = AUTO_START_BITS
            if max_table_bits is None:
                max_table_bits = AUTO_MAX_BITS
        self.memo = MemoTable(table_bits, max_table_bits or table_bits)
        self.runner = SearchRunner(threads, prune, bound, peek)

    # ------------------------------------------------------------ the memo, the runner
    keys = property(lambda self: self.memo.keys, doc="The memo's rows (int64, 8 per entry).")
    vals = property(lambda self: self.memo.vals, doc="The same rows as float64 (lo, hi).")
    table_bits = property(lambda self: self.memo.table_bits)
    start_bits = property(lambda self: self.memo.start_bits)
    max_table_bits = property(lambda self: self.memo.max_table_bits)
    grown = property(lambda self: self.memo.grown, doc="Times the table grew.")
    growable = property(lambda self: self.memo.growable)
    threads = property(lambda self: self.runner.threads)
    prune = property(lambda self: self.runner.prune)
    settings = property(lambda self: self.runner.settings[0],
                        doc="The first search thread's settings (``exk_control.SE_*``).")
    counters = property(lambda self: self.runner.counters[0],
                        doc="The first search thread's counters (``exk_control.CT_*``).")
    stats = counters      # the name of the counters before settings and counters were apart

    def clear(self) -> None:
        """Forget every memo entry and counter (a grown table goes back to its first size)."""
        self.memo.reset()
        self.runner.reset_counters()

    @property
    def nodes(self) -> int:
        """Nodes expanded since the solver was made (memo hits excluded), all threads."""
        return self.runner.nodes

    @property
    def stored(self) -> int:
        return self.runner.stored

    @property
    def replaced(self) -> int:
        """Memo entries overwritten because their probe window was full."""
        return self.runner.replaced

    def _seen(self) -> int:
        """Entries the table has taken since it last grew: stored, plus replaced."""
        return self.memo.seen(self.runner)

    def grow_if_full(self, deadline: float | None = None) -> bool:
        """Move the memo to a table 4 times as large (at most ``max_table_bits`` and half
        the memory available now) once it has taken GROW_SEEN times its size in entries
        (so it is full and has replaced as many entries as it holds).  Every entry is kept
        (``rehash``); the search is not running, so nothing else touches the table.  With
        a ``deadline`` (a time.perf_counter() value) the table grows only if the time left
        covers making the new table at GROW_BYTES_PER_S.  True if it grew."""
        return self.memo.grow_if_full(self.runner, self._cap_bits, deadline, GROW_BYTES_PER_S)

    def _cap_bits(self) -> int:
        return memory_cap_bits(self.memo.max_table_bits)

    # ---------------------------------------------------------------------- memo files
    def save_memo(self, path: str) -> int:
        """Write every memo entry to ``path`` (atomically; ``solver.memo_file``) so that a
        later solver can ``load_memo`` it and go on from there.  Returns the entries
        written.  Raises MemoFileError if the file cannot be written."""
        return self.memo.save(path, self.nodes)

    def load_memo(self, path: str) -> int:
        """Add the entries of a file written by ``save_memo`` to the memo (docs/EXPECTIMAX.md
        section 4b).  The whole file is checked first (format, the kernel's fingerprint,
        size, CRC-32, every interval): a file that fails raises MemoFileError and leaves
        the solver unchanged.  A table that may grow is made large enough for the file's
        entries and its own (up to ``max_table_bits`` and half the memory available); a
        fixed table keeps the entries that cost the most work where they do not all fit.
        Returns the entries the memo holds afterwards."""
        return self.memo.load(path, self.runner, self._cap_bits)

    def _run(self, words, node_budget: int | None, alpha=0.0, beta=1.0,
             deadline: float | None = None, clock_every: int = K.CLOCK_EVERY) -> Interval:
        """One search (or one per thread: ``SearchRunner.run``) as a clamped Interval."""
        return bounds(*self.runner.run(self.memo.keys, self.memo.vals, words, node_budget,
                                       alpha, beta, deadline, clock_every))

    @property
    def timed_out(self) -> bool:
        """True if the last search was stopped by its deadline."""
        return self.runner.timed_out

    def value(self, state: State, node_budget: int | None = None,
              budget_s: float | None = None) -> Interval:
        """Sound bounds on the win probability of ``state`` (exact if the budgets allow:
        ``node_budget`` nodes expanded, ``budget_s`` seconds)."""
        node_budget = check_nodes(node_budget, "node_budget", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s", allow_zero=True)
        if state.phase == "won":
            return Interval(1.0, 1.0)
        if state.phase == "lost":
            return Interval(0.0, 0.0)
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        words = encode(state)
        if not self.growable:
            return self._run(words, node_budget, deadline=deadline,
                             clock_every=_clock_every(state))
        # A table that may grow: search in rounds, each one stopping (with sound bounds)
        # after as many nodes as it takes before growth can be due; between rounds the
        # table grows, and the next round resumes from the memo.  Every round's
        # interval is sound, so their intersection is.
        # A round restarts at the root and re-expands the open nodes on the way down, so a
        # round that does not end in growth doubles the next one's allowance: the rounds
        # cannot stall, and growth happens a bounded number of times.
        n0 = self.nodes
        lo, hi = 0.0, 1.0
        extra = 4096
        while True:
            # a small query (fewer nodes left than 1/16 of the table's rows) does not
            # grow the table: it would pay for a large table and hardly use it (the
            # principal line and --tree ask for many small ones)
            spent = self.nodes - n0
            if ((node_budget is None or node_budget - spent >= self.keys.shape[0] // 16)
                    and self.grow_if_full(deadline)):
                extra = 4096
            rows = self.keys.shape[0]
            # a node stores at most one entry: no growth is due before this many nodes
            per = (max(rows * GROW_SEEN - self._seen(), extra) if self.growable
                   else None)
            extra = min(2 * extra, 1 << 50)
            if node_budget is not None:
                left = max(0, int(node_budget) - spent)
                per = left if per is None else min(per, left)
            iv = self._run(words, per, deadline=deadline,
                           clock_every=_clock_every(state))
            lo, hi = max(lo, iv.lo), min(hi, iv.hi)
            if (lo >= hi or self.timed_out or per is None
                    or (node_budget is not None and self.nodes - n0 >= node_budget)):
                return bounds(lo, hi)

    def probe(self, state: State, node_budget: int | None = None,
              budget_s: float | None = None) -> Interval:
        """Sound bounds from a probe (docs/EXPECTIMAX.md section 4a): at every decision the
        search follows only the child a heuristic likes best, so ``lo`` is the win
        probability of that heuristic strategy (or less, if a budget stops it), a lower
        bound that costs a small part of an exact search.  ``hi`` is 1 unless the state
        has no real decision.  Its entries stay in the memo for later searches."""
        node_budget = check_nodes(node_budget, "node_budget", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s", allow_zero=True)
        if state.phase in ("won", "lost"):
            return self.value(state)
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        words = encode(state)
        try:
            self.runner.set_probe(True)
            return self._run(words, node_budget, deadline=deadline,
                             clock_every=_clock_every(state))
        finally:
            self.runner.set_probe(False)

    def strategy_graph(self, state: State, bits: int = 24) -> dict:
        """Solve ``state`` exactly, then walk one optimal strategy through the memo
        (``solver.strategy_graph``): its distinct positions per phase, the value the
        strategy reaches (it must be the exact value), and the nodes and positions the
        search spent, for comparison (docs/EXPECTIMAX.md section 9).  ``bits``: size of
        the walk's visited table (2^bits rows of 56 bytes; the walk stops when it is half
        full and says so in ``full``)."""
        from solver.expectimax.strategy_graph import strategy_graph
        if not isinstance(bits, int) or not 4 <= bits <= 30:
            raise ValueError(f"bits must be an integer from 4 to 30, not {bits!r}")
        if state.is_terminal():
            raise ValueError("strategy_graph: the position is already decided")
        iv = self.value(state)
        out = strategy_graph(encode(state), self.keys, self.vals, self.settings,
                             self.counters, bits)
        out.update(exact=iv.lo, stored=self.stored, nodes=self.nodes)
        return out

    def certify(self, state: State, full_key: bool = False,
                max_positions: int | None = None, progress=None) -> dict:
        """Solve ``state`` exactly, then replay the strategy the kernel's values choose
        through the engine's own rules and sum its win probability in exact fractions
        (``solver.certify``, docs/EXPECTIMAX.md section 7): an independent check of the
        lower half of the value.  ``max_positions``: stop with ``CertificateTooLarge``
        past that many distinct positions; ``progress(n)`` is called every 10,000."""
        from solver.expectimax.certify import certify
        return certify(self, state, full_key=full_key, max_positions=max_positions,
                       progress=progress)

    # --------------------------------------------------------------------------- ranking
    def rank(self, state: State, budget_nodes: int | None = None,
             budget_s: float | None = None, position: str | None = None,
             first_round: int = 200_000, progress=None, probes: bool = True,
             estimate: bool = True, stream: int = 0, reserve_s: float = 0.0) -> Ranking:
        """Rank every legal action of a decision state by its win probability.

        ``state`` may be a live game: a seeded (deal-mode) state is first turned into the
        player's view (``engine.view.player_view``: the seed and the deck order beyond the
        cards the player has seen are dropped), and the ranking says so (``extra["view"]``).
        The kernels are compiled (or loaded) before the clock starts.

        Without budgets every value is exact.  With budgets, rounds with a doubling node
        allowance per unsettled action run until every action is exact or a budget is spent;
        the memo keeps the work of earlier rounds, and (unless ``probes`` is False) a probe
        of every action (``PROBE_SHARE`` of the exact search's budget at most) comes first,
        so that the actions left open still get lower bounds of some use (section 4a).

        ``estimate``: if the budgets leave the best action unproven, every action also gets
        an ``estimate`` and ``ci95`` of the winning chance of greedy play after it
        (``solver.estimate``, playouts from ``stream``), apart from its bounds.  Under a time
        budget the exact search then takes ``EXACT_SHARE`` of it (``EXACT_SHARE_LARGE`` with
        more than ``LARGE_UNKNOWN`` unknown cards) and the estimates the rest; under a node
        budget alone the estimates use ``NODE_BUDGET_PLAYOUTS`` playouts per action.  ``reserve_s``: seconds of
        ``budget_s`` kept for the caller (the principal line).

        ``progress``, if given, is called after every search of an action as
        ``progress(exact, total, nodes, round)``: the actions exact so far, the number of
        actions, the nodes expanded by this query, and the round (0 for the probes, then
        from 1)."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        view, converted = as_view(state)
        check_decision(view)
        encode(view)       # validates the position for the kernel
        prepare_kernels()  # compile or load before the clock starts
        t0 = time.perf_counter()
        n0 = self.nodes
        budgeted = budget_nodes is not None or budget_s is not None
        want_est = estimate and budgeted
        end = None if budget_s is None else t0 + max(0.0, budget_s - max(0.0, reserve_s))
        share = (1.0 if not want_est else EXACT_SHARE if sum(view.unknown) <= LARGE_UNKNOWN
                 else EXACT_SHARE_LARGE)
        exact_end = None if end is None else t0 + (end - t0) * share
        children = []
        for a in view.legal_actions():
            child = view.clone()
            child.apply_action(a)
            children.append((a, view.action_to_string(a), child))
        results = {a: Interval(0.0, 1.0) for a, _, _ in children}

        def report(rnd):
            if progress is not None:
                progress(sum(1 for r in results.values() if r.exact), len(children),
                         self.nodes - n0, rnd)

        def time_left():
            return None if exact_end is None else max(0.0, exact_end - time.perf_counter())

        if probes and budgeted:
            # probes first, with at most PROBE_SHARE of each budget
            probe_end = None if exact_end is None else t0 + (exact_end - t0) * PROBE_SHARE
            for i, (a, _, child) in enumerate(children):
                left = len(children) - i
                spent = self.nodes - n0
                per_n = (None if budget_nodes is None
                         else max(1, (int(budget_nodes * PROBE_SHARE) - spent) // left))
                per_s = (None if probe_end is None
                         else max(0.0, (probe_end - time.perf_counter()) / left))
                if per_s is not None and per_s <= 0:
                    break          # no time: no search at all
                results[a] = self.probe(child, per_n, per_s)
                report(0)
        allowance = first_round
        rnd = 0
        while True:
            rnd += 1
            for a, _, child in children:
                if results[a].exact:
                    continue
                spent = self.nodes - n0
                if not budgeted:
                    per = None
                else:
                    per = allowance
                    if budget_nodes is not None:
                        per = min(per, max(0, budget_nodes - spent))
                left = time_left()
                if (left is not None and left <= 0) or per == 0:
                    continue       # no search at all once a budget is spent
                iv = self.value(child, per, left)
                old = results[a]
                results[a] = bounds(max(old.lo, iv.lo), min(old.hi, iv.hi))
                report(rnd)
            if all(r.exact for r in results.values()):
                break
            spent = self.nodes - n0
            if budget_nodes is not None and spent >= budget_nodes:
                break
            if exact_end is not None and time.perf_counter() >= exact_end:
                break
            allowance = min(2 * allowance, 1 << 50)
        acts = [ActionValue(action=s, action_id=a, lo=results[a].lo, hi=results[a].hi)
                for a, s, _ in children]
        ranking = Ranking(position or format_position(view), "expectimax", acts,
                          self.nodes - n0, 0.0)
        if converted:
            ranking.extra["view"] = "player"
        if want_est and api.proven_best(acts) is None:
            from solver.honest.estimate import estimate_actions
            est = estimate_actions(view, [a.action_id for a in acts], end, stream,
                                   max_playouts=None if end is not None
                                   else NODE_BUDGET_PLAYOUTS)
            for av in acts:
                e = est.by_action[av.action_id]
                av.estimate = e.estimate
                av.ci95 = (e.ci95[0], e.ci95[1])
            ranking.extra["estimates"] = est.describe()
        finish(ranking)
        ranking.seconds = time.perf_counter() - t0
        return ranking

    def child_values(self, state: State, node_budget: int | None = None,
                     deadline: float | None = None):
        """[(action id, action string, child state, Interval)] for a decision or chance
        state (chance: the interval of each outcome, with its probability in place of
        the string's suffix).  ``deadline``: a time.perf_counter() value that every search
        stops at (sound bounds)."""
        def val(child):
            if deadline is None:
                return self.value(child, node_budget)
            left = deadline - time.perf_counter()
            if left <= 0 and not child.is_terminal():
                return Interval(0.0, 1.0)      # no time left: no search
            return self.value(child, node_budget, max(0.0, left))
        out = []
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(a)
                out.append((a, f"{state.action_to_string(a)} (p={p:.4g})", child,
                            val(child), p))
            return out
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            out.append((a, state.action_to_string(a), child, val(child), None))
        return out

    def line(self, state: State, max_steps: int = 12, node_budget: int | None = None,
             first: str | None = None, first_bounds: tuple[float, float] | None = None,
             deadline: float | None = None):
        """The principal line: best decisions (highest lower bound, then upper bound); at
        a chance node the most likely outcome is followed (marked as chance).  ``first``:
        the action to start with (the ranking's best or leader, so that the line agrees
        with it); ``first_bounds``: its bounds as the ranking reported them, shown for
        the first step instead of a new search (the line must not contradict the table).
        ``deadline``: a time.perf_counter() value; the line ends there, marked
        ``(budget spent)``.  Returns a list of strings."""
        out = []
        s, _ = as_view(state)
        s = s.clone()
        for step in range(max_steps):
            if s.is_terminal():
                out.append("WON" if s.won() else "LOST")
                break
            if deadline is not None and time.perf_counter() >= deadline:
                out.append("(budget spent)")
                break
            if step == 0 and first is not None and not s.is_chance_node():
                acts = {s.action_to_string(a): a for a in s.legal_actions()}
                if first not in acts:
                    raise ValueError(f"first: {first!r} is not a legal action here")
                child = s.clone()
                child.apply_action(acts[first])
                iv = (bounds(*first_bounds) if first_bounds is not None
                      else self.value(child, node_budget, None if deadline is None
                                      else max(0.0, deadline - time.perf_counter())))
                out.append(f"{first}  [{_fmt_iv(iv)}]")
                s = child
                continue
            kids = self.child_values(s, node_budget, deadline)
            if s.is_chance_node():
                a, text, child, iv, p = max(kids, key=lambda k: (k[4], -k[0]))
                out.append(f"chance: {text}")
            else:
                a, text, child, iv, _ = min(kids, key=lambda k: (-k[3].lo, -k[3].hi, k[1]))
                out.append(f"{text}  [{_fmt_iv(iv)}]")
            s = child
        return out

    def tree(self, state: State, max_nodes: int = 200, max_depth: int = 3,
             node_budget: int | None = None, deadline: float | None = None):
        """The graph explored near ``state``, breadth first (networkx DiGraph).  Nodes:
        ``phase``, ``position`` (notation), ``lo``, ``hi``, ``exact``, ``value`` (only when
        exact), ``kind`` (decision / chance / terminal); edges: ``action`` and, for chance,
        ``probability``.  ``deadline``: a time.perf_counter() value; no node is added after
        it, and every search stops at it."""
        import networkx as nx
        g = nx.DiGraph()
        ids = {}

        def add(s, depth):
            key = format_position(s)
            if key in ids:
                return ids[key], False
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0 and not s.is_terminal():
                iv = Interval(0.0, 1.0)        # no time left: no search
            else:
                iv = self.value(s, node_budget, None if left is None else max(0.0, left))
            nid = f"n{len(ids)}"
            ids[key] = nid
            kind = "terminal" if s.is_terminal() else "chance" if s.is_chance_node() \
                else "decision"
            attrs = dict(phase=s.phase, position=key, lo=iv.lo, hi=iv.hi, exact=iv.exact,
                         kind=kind, depth=depth, label=f"{s.phase} {_fmt_iv(iv)}")
            if iv.exact:
                attrs["value"] = iv.lo
            g.add_node(nid, **attrs)
            return nid, True

        state, _ = as_view(state)
        root, _ = add(state, 0)
        frontier = [(state, root, 0)]
        while frontier and len(ids) < max_nodes:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            s, nid, depth = frontier.pop(0)
            if s.is_terminal() or depth >= max_depth:
                continue
            if s.is_chance_node():
                moves = [(a, p) for a, p in s.chance_outcomes()]
            else:
                moves = [(a, None) for a in s.legal_actions()]
            for a, p in moves:
                if len(ids) >= max_nodes:
                    break
                child = s.clone()
                child.apply_action(a)
                cid, new = add(child, depth + 1)
                attrs = {"action": s.action_to_string(a)}
                if p is not None:
                    attrs["probability"] = p
                g.add_edge(nid, cid, **attrs)
                if new:
                    frontier.append((child, cid, depth + 1))
        return g


def as_view(state: State) -> tuple[State, bool]:
    """What expectimax solves: a chance-mode position.  A seeded (deal-mode) state, a live
    game, becomes the player's view (``engine.view.player_view``: the seed and the order of
    the deck cards the player has not seen are dropped); (view, True).  A chance-mode
    state is returned as it is; (state, False)."""
    if state.seed is None:
        return state, False
    return player_view(state), True


def _clock_every(state: State) -> int:
    """Nodes between two looks at the clock under a deadline (SLOW_NODE_CARDS)."""
    return 1 if state.deck_size() > SLOW_NODE_CARDS else K.CLOCK_EVERY


def _fmt_iv(iv: Interval) -> str:
    return f"{iv.value:.6f}" if iv.exact else f"{iv.lo:.6f}..{iv.hi:.6f}"


def check_decision(state: State) -> None:
    if state.is_terminal():
        raise PositionError("phase", f"the game is over ({state.phase}): nothing to decide")
    if state.is_chance_node():
        raise PositionError("phase", f"phase {state.phase} waits for a card from the unknown "
                                     "deck: nothing to decide")


# ------------------------------------------------------------------------ compiling
# A small late position (the README's) that the warm-up searches a few nodes of.
_WARM_POSITION = ("mode=solo phase=play hand=Os,Am,Gk,Ls,Lk row=Am,Os "
                  "doors=DO,DO,DA,DA,DG,DG,DL deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,"
                  "Om,Ok,Ok,Ok,As,As,As,As,As,As,As,As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,"
                  "Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,N,N,N,N,N,N,N limbo=-")
_KERNELS_READY = False


def kernels_cached() -> bool | None:
    """True if numba's cache holds the compiled search kernel for this source (loading
    it takes a second), False if it must be compiled, None if that cannot be told."""
    try:
        cache = K.solve._cache       # the jitted entry point of every search
        return bool(cache._cache_file._load_index())
    except Exception:        # noqa: BLE001  numba internals: any change means "cannot tell"
        return None


def prepare_kernels(say=None) -> float:
    """Compile (or load from numba's cache) every kernel a query calls, once per process,
    so that no budget pays for it.  ``say(message)`` is called first if the cache is cold
    ("compiling kernels, once per install: ~N s").  Returns the seconds it took (0 if the
    kernels were ready)."""
    global _KERNELS_READY
    if _KERNELS_READY:
        return 0.0
    t = time.perf_counter()
    if say is not None and kernels_cached() is False:
        say(f"compiling kernels, once per install: ~{COMPILE_S} s")
    warm = Expectimax(10)
    state = parse_position(_WARM_POSITION)
    warm.probe(state, node_budget=64)
    warm.value(state, node_budget=64, budget_s=60.0)
    keys, _, _ = K.new_tables(10)
    K.rehash(warm.keys, keys)
    from solver.honest.estimate import prepare
    prepare(state)                 # the fast playouts of solver.rollout, if it exists
    _KERNELS_READY = True
    return time.perf_counter() - t


_DEFAULT: Expectimax | None = None


def default_solver() -> Expectimax:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Expectimax()
    return _DEFAULT


def best(text: str, budget_nodes: int | None = None, budget_s: float | None = None,
         solver: Expectimax | None = None) -> Ranking:
    """Parse a position and rank its actions (expectimax)."""
    state = parse_position(text)
    if state.players != 1:
        raise UnsupportedPosition("mode: expectimax handles solo positions only")
    solver = solver or default_solver()
    return solver.rank(state, budget_nodes, budget_s)
