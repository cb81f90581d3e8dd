"""Exact expectimax for honest information (docs/NOTATION.md section 5, mode ``expectimax``).

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
                             a live (seeded) state is ranked from the player's view; the
                             ``expectimax`` mode of ``solver.api.rank`` (``onirim best``)
    ``.line(state)``         the principal line from a state
    ``.tree(state, ...)``    the explored graph near a state, as a networkx DiGraph

Values are exact when the search completes.  Under a node or time budget they are sound
bounds: every unexplored subtree counts as [0, 1]; ``best`` is an action only when it is
proven best, and otherwise the leader is the decision of the strongest policy the budget
affords, each action with that policy's search estimate (``solver.advice``), kept apart from
the bounds.  See docs/EXPECTIMAX.md.
"""
from __future__ import annotations

import time

from engine.errors import OnirimError, PositionError
from engine.game import State
from engine.notation import format_position, parse_position
from engine.rules import PROPHECY_SIZE
from engine.view import player_view

from solver.expectimax import kernel
from solver.registry import SolverBase, register_solver
from solver.results import (EXACT_TOL, ActionValue, Interval, Ranking, bounds,  # noqa: F401
                      finish, proven_best, sort_actions)
from solver.budgets import available_memory, check_nodes, check_seconds
from solver.expectimax.encode import PHASE_CODES, UnsupportedPosition, encode, forget_seed  # noqa: F401
from solver.expectimax.memo import GROW_SEEN, MemoTable
from solver.expectimax.runner import SearchRunner

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


# ------------------------------------------------------------------------------- solver
NOTE_SEED = ("the player's (the position has a seed: ranked without the seed and the order "
             "of the deck cards the player has not seen)")
NOTE_VIEW = "the player's (--view: the listed deck order hidden)"


@register_solver("expectimax", players=(1,),
                 options=("threads", "table_bits", "memo", "view", "line", "tree", "certify"),
                 doc="exact expectimax with honest information (the deck order unknown)")
class Expectimax(SolverBase):
    """A memoized expectimax solver.  The memo table persists between queries, so related
    positions (the children of one root, a principal line) reuse each other's work.

    The queries (``value``, ``probe``, ``rank``, ``line``, ...) are this class; the memo table
    with its growth and files is ``self.memo`` (``solver.expectimax.memo.MemoTable``), and
    the searches run in ``self.runner`` (``solver.expectimax.runner.SearchRunner``: the
    threads, their settings and counters, signals, the deadline)."""

    # the leader when nothing is proven (``_estimate``): solver.api.rank sets
    # solver.advice.advise here; None, greedy-keep-doors estimates (the solver knows no policy)
    adviser = None

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
        """Write every memo entry to ``path`` (atomically; ``solver.expectimax.memo_file``) so that a
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

    def _run(self, words, budget_nodes: int | None, alpha=0.0, beta=1.0,
             deadline: float | None = None, clock_every: int = kernel.CLOCK_EVERY) -> Interval:
        """One search (or one per thread: ``SearchRunner.run``) as a clamped Interval."""
        return bounds(*self.runner.run(self.memo.keys, self.memo.vals, words, budget_nodes,
                                       alpha, beta, deadline, clock_every))

    @property
    def timed_out(self) -> bool:
        """True if the last search was stopped by its deadline."""
        return self.runner.timed_out

    def value(self, state: State, budget_nodes: int | None = None,
              budget_s: float | None = None) -> Interval:
        """Sound bounds on the win probability of ``state`` (exact if the budgets allow:
        ``budget_nodes`` nodes expanded, ``budget_s`` seconds)."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s", allow_zero=True)
        if state.phase == "won":
            return Interval(1.0, 1.0)
        if state.phase == "lost":
            return Interval(0.0, 0.0)
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        words = encode(state)
        if not self.growable:
            return self._run(words, budget_nodes, deadline=deadline,
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
            if ((budget_nodes is None or budget_nodes - spent >= self.keys.shape[0] // 16)
                    and self.grow_if_full(deadline)):
                extra = 4096
            rows = self.keys.shape[0]
            # a node stores at most one entry: no growth is due before this many nodes
            per = (max(rows * GROW_SEEN - self._seen(), extra) if self.growable
                   else None)
            extra = min(2 * extra, 1 << 50)
            if budget_nodes is not None:
                left = max(0, int(budget_nodes) - spent)
                per = left if per is None else min(per, left)
            iv = self._run(words, per, deadline=deadline,
                           clock_every=_clock_every(state))
            lo, hi = max(lo, iv.lo), min(hi, iv.hi)
            if (lo >= hi or self.timed_out or per is None
                    or (budget_nodes is not None and self.nodes - n0 >= budget_nodes)):
                return bounds(lo, hi)

    def probe(self, state: State, budget_nodes: int | None = None,
              budget_s: float | None = None) -> Interval:
        """Sound bounds from a probe (docs/EXPECTIMAX.md section 4a): at every decision the
        search follows only the child a heuristic likes best, so ``lo`` is the win
        probability of that heuristic strategy (or less, if a budget stops it), a lower
        bound that costs a small part of an exact search.  ``hi`` is 1 unless the state
        has no real decision.  Its entries stay in the memo for later searches."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s", allow_zero=True)
        if state.phase in ("won", "lost"):
            return self.value(state)
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        words = encode(state)
        try:
            self.runner.set_probe(True)
            return self._run(words, budget_nodes, deadline=deadline,
                             clock_every=_clock_every(state))
        finally:
            self.runner.set_probe(False)

    def strategy_graph(self, state: State, bits: int = 24) -> dict:
        """Solve ``state`` exactly, then walk one optimal strategy through the memo
        (``solver.expectimax.strategy_graph``): its distinct positions per phase, the value the
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
        (``solver.expectimax.certify``, docs/EXPECTIMAX.md section 7): an independent check of the
        lower half of the value.  ``max_positions``: stop with ``CertificateTooLarge``
        past that many distinct positions; ``progress(n)`` is called every 10,000."""
        from solver.expectimax.certify import certify
        return certify(self, state, full_key=full_key, max_positions=max_positions,
                       progress=progress)

    # -------------------------------------------------------- the Solver interface (api)
    def position(self, state: State, hide: bool = False):
        """The chance-mode position ranked, and a note (None: the position as given).  A
        seeded position is always the player's view; ``hide`` hides a listed deck's order
        otherwise (the revealed top cards of a prophecy stay).  Too long a listed deck
        without it is one line that says what to do."""
        if state.seed is not None:
            view, note = player_view(state), NOTE_SEED
        elif hide:
            k = min(PROPHECY_SIZE, state.deck_size()) if state.phase == "prophecy" else 0
            view, note = state.clone(), NOTE_VIEW
            for c in view.deck[k:]:
                view.unknown[c] += 1
            view.deck = view.deck[:k]
        elif len(state.deck) > kernel.MAX_PREFIX:
            raise UnsupportedPosition(
                f"deck: expectimax takes at most {kernel.MAX_PREFIX} listed (known) deck cards, "
                f"not {len(state.deck)}; add --view to rank from the player's view (the "
                "deck order hidden), or give seed= and use --mode clairvoyant")
        else:
            view, note = state, None
        check_decision(view)
        encode(view)
        return view, note

    def prepare(self, state: State | None = None, say=None) -> None:
        """Compile or load the kernels before the clock (``prepare_kernels``)."""
        prepare_kernels(say)

    def memo_note(self) -> str:
        """The memo's line in the text output: its size and growth."""
        note = f"memo: 2^{self.table_bits} entries"
        if self.grown:
            note += f" (grown {self.grown} times from 2^{self.start_bits})"
        return note

    def certify_block(self, state: State, ranking: Ranking, progress=None) -> dict:
        """The JSON block of an engine replay of one optimal strategy (``certify``), or why
        there is none (a budget left a value open)."""
        if not all(a.exact for a in ranking.actions):
            return {"ok": None, "reason": "a budget left values open: nothing exact to "
                                          "certify"}
        r = self.certify(state, progress=progress)
        v = r["certified"]
        return {"ok": r["ok"], "value": float(v),
                "fraction": f"{v.numerator}/{v.denominator}",
                "claimed": ranking.actions[0].value if ranking.actions else r["claimed"],
                "positions": r["positions"], "kernel_queries": r["queries"],
                "seconds": round(r["replay_s"], 3)}

    # --------------------------------------------------------------------------- ranking
    def rank(self, state: State, budget_nodes: int | None = None,
             budget_s: float | None = None, position: str | None = None,
             first_round: int = 200_000, on_progress=None, probes: bool = True,
             estimate: bool = True, stream: int | None = None, reserve_s: float = 0.0,
             partial: bool = True) -> Ranking:
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

        ``estimate``: if the budgets leave the best action unproven, the leader is the
        decision of the strongest policy the budget affords among the actions not proven
        worse, and the actions its search played out get its ``estimate`` and ``ci95``,
        apart from the bounds (``adviser``, set by ``solver.api.rank``: ``solver.advice``;
        the policies' stream is ``stream``, None: a hash of the position; without an
        adviser, greedy-keep-doors estimates, ``_estimate``).  Under a time budget the exact search then takes
        ``EXACT_SHARE`` of it (``EXACT_SHARE_LARGE`` with more than ``LARGE_UNKNOWN``
        unknown cards) and the policies the rest; under a node budget alone the policies
        the budget names (the default policy; ``strongest`` from 400,000 nodes).
        ``reserve_s``: seconds of ``budget_s`` kept for the caller (the principal line).

        ``on_progress``, if given, is called after every search of an action as
        ``on_progress(exact, total, nodes, round)``: the actions exact so far, the number of
        actions, the nodes expanded by this query, and the round (0 for the probes, then
        from 1).  Ctrl-C (KeyboardInterrupt) ends the search: the bounds found so far are
        returned, with ``extra["interrupted"] = True`` and no estimates.  With ``partial``
        False the KeyboardInterrupt is raised again instead (the memo holds sound entries
        only): a policy whose games are stored must never act on a ranking a signal cut
        short (``solver.policies.endgame``)."""
        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        view, converted = as_view(state)
        check_decision(view)
        encode(view)       # validates the position for the kernel
        prepare_kernels()  # compile or load before the clock starts
        q = _RankQuery(self, view, budget_nodes, budget_s, reserve_s, estimate, on_progress)
        interrupted = False
        try:
            if probes and q.budgeted:
                self._probe_actions(q)
            self._rounds(q, first_round)
        except KeyboardInterrupt:
            if not partial:
                raise
            interrupted = True
        acts = [ActionValue(action=s, action_id=a, lo=q.results[a].lo, hi=q.results[a].hi)
                for a, s, _ in q.children]
        ranking = Ranking(position or format_position(view), "expectimax", acts,
                          self.nodes - q.n0, 0.0)
        if converted:
            ranking.extra["view"] = "player"
        if not interrupted and q.want_est and proven_best(acts) is None:
            try:
                self._estimate(q, ranking, stream)
            except KeyboardInterrupt:
                if not partial:
                    raise
                interrupted = True
                for av in acts:                   # estimates of some actions only: none
                    av.estimate = av.ci95 = None
                ranking.extra.pop("estimates", None)
        if interrupted:
            ranking.extra["interrupted"] = True
        finish(ranking)
        ranking.seconds = time.perf_counter() - q.t0
        return ranking

    def _probe_actions(self, q: "_RankQuery") -> None:
        """A probe of every action first, with at most PROBE_SHARE of each budget."""
        probe_end = (None if q.exact_end is None
                     else q.t0 + (q.exact_end - q.t0) * PROBE_SHARE)
        for i, (a, _, child) in enumerate(q.children):
            left = len(q.children) - i
            spent = self.nodes - q.n0
            per_n = (None if q.budget_nodes is None
                     else max(1, (int(q.budget_nodes * PROBE_SHARE) - spent) // left))
            per_s = (None if probe_end is None
                     else max(0.0, (probe_end - time.perf_counter()) / left))
            if per_s is not None and per_s <= 0:
                break          # no time: no search at all
            q.results[a] = self.probe(child, per_n, per_s)
            q.report(0)

    def _rounds(self, q: "_RankQuery", allowance: int) -> None:
        """Rounds of searches of the unsettled actions, the node allowance doubling, until
        every action is exact or a budget is spent."""
        rnd = 0
        while True:
            rnd += 1
            for a, _, child in q.children:
                if q.results[a].exact:
                    continue
                per = None
                if q.budgeted:
                    per = allowance
                    if q.budget_nodes is not None:
                        per = min(per, max(0, q.budget_nodes - (self.nodes - q.n0)))
                left = q.exact_left()
                if (left is not None and left <= 0) or per == 0:
                    continue       # no search at all once a budget is spent
                iv = self.value(child, per, left)
                old = q.results[a]
                q.results[a] = bounds(max(old.lo, iv.lo), min(old.hi, iv.hi))
                q.report(rnd)
            if all(r.exact for r in q.results.values()) or q.spent():
                return
            allowance = min(2 * allowance, 1 << 50)

    def _estimate(self, q: "_RankQuery", ranking: Ranking, stream: int | None) -> None:
        """The leader when nothing is proven, and the estimates.  With an ``adviser``
        (``solver.api.rank`` gives ``solver.advice.advise``): the decision of the strongest
        policy the budget affords among the actions not proven worse, with its search's
        per-action estimates (by the end of the time budget, or the steps a node budget
        names).  Without one (this class used on its own): every action's estimate of
        greedy-keep-doors play after it (``solver.honest.estimate``), NODE_BUDGET_PLAYOUTS per
        action under a node budget.  ``stream`` None: a hash of the position (adviser), 0."""
        if self.adviser is not None:
            adv = self.adviser(q.view, ranking.actions, q.budget_nodes, q.end, stream)
            for av in ranking.actions:
                row = adv.rows.get(av.action_id)
                av.estimate, av.ci95 = ((None, None) if row is None
                                        else (row[0], (row[1], row[2])))
            ranking.extra["estimates"] = adv.describe()
            ranking.extra["estimates"]["leader"] = q.view.action_to_string(adv.action)
            return
        from solver.honest.estimate import estimate_actions
        est = estimate_actions(q.view, [a.action_id for a in ranking.actions], q.end,
                               stream or 0, max_playouts=None if q.end is not None
                               else NODE_BUDGET_PLAYOUTS)
        for av in ranking.actions:
            e = est.by_action[av.action_id]
            av.estimate = e.estimate
            av.ci95 = (e.ci95[0], e.ci95[1])
        ranking.extra["estimates"] = est.describe()

    def child_values(self, state: State, budget_nodes: int | None = None,
                     deadline: float | None = None):
        """[(action id, action string, child state, Interval)] for a decision or chance
        state (chance: the interval of each outcome, with its probability in place of
        the string's suffix).  ``deadline``: a time.perf_counter() value that every search
        stops at (sound bounds)."""
        def val(child):
            if deadline is None:
                return self.value(child, budget_nodes)
            left = deadline - time.perf_counter()
            if left <= 0 and not child.is_terminal():
                return Interval(0.0, 1.0)      # no time left: no search
            return self.value(child, budget_nodes, max(0.0, left))
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

    def line(self, state: State, max_steps: int = 12, budget_nodes: int | None = None,
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
                      else self.value(child, budget_nodes, None if deadline is None
                                      else max(0.0, deadline - time.perf_counter())))
                out.append(f"{first}  [{_fmt_iv(iv)}]")
                s = child
                continue
            kids = self.child_values(s, budget_nodes, deadline)
            if s.is_chance_node():
                a, text, child, iv, p = max(kids, key=lambda k: (k[4], -k[0]))
                out.append(f"chance: {text}")
            else:
                a, text, child, iv, _ = min(kids, key=lambda k: (-k[3].lo, -k[3].hi, k[1]))
                out.append(f"{text}  [{_fmt_iv(iv)}]")
            s = child
        return out

    def tree(self, state: State, max_nodes: int = 200, max_depth: int = 3,
             budget_nodes: int | None = None, deadline: float | None = None):
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
                iv = self.value(s, budget_nodes, None if left is None else max(0.0, left))
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


class _RankQuery:
    """One ``Expectimax.rank`` call: the budgets and their clock, the children of the
    position and their bounds so far."""

    def __init__(self, solver, view, budget_nodes, budget_s, reserve_s, estimate,
                 on_progress):
        self.t0 = time.perf_counter()
        self.solver, self.view, self.on_progress = solver, view, on_progress
        self.n0 = solver.nodes
        self.budget_nodes = budget_nodes
        self.budgeted = budget_nodes is not None or budget_s is not None
        self.want_est = estimate and self.budgeted
        self.end = (None if budget_s is None
                    else self.t0 + max(0.0, budget_s - max(0.0, reserve_s)))
        share = (1.0 if not self.want_est else EXACT_SHARE
                 if sum(view.unknown) <= LARGE_UNKNOWN else EXACT_SHARE_LARGE)
        self.exact_end = None if self.end is None else self.t0 + (self.end - self.t0) * share
        self.children = []
        for a in view.legal_actions():
            child = view.clone()
            child.apply_action(a)
            self.children.append((a, view.action_to_string(a), child))
        self.results = {a: Interval(0.0, 1.0) for a, _, _ in self.children}

    def report(self, rnd: int) -> None:
        if self.on_progress is not None:
            self.on_progress(sum(1 for r in self.results.values() if r.exact),
                             len(self.children), self.solver.nodes - self.n0, rnd)

    def exact_left(self) -> float | None:
        """Seconds left for the exact search (None: no time budget)."""
        return None if self.exact_end is None else max(0.0, self.exact_end - time.perf_counter())

    def spent(self) -> bool:
        """True once a budget of the exact search is spent."""
        if self.budget_nodes is not None and self.solver.nodes - self.n0 >= self.budget_nodes:
            return True
        return self.exact_end is not None and time.perf_counter() >= self.exact_end


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
    return 1 if state.deck_size() > SLOW_NODE_CARDS else kernel.CLOCK_EVERY


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
        cache = kernel.solve._cache       # the jitted entry point of every search
        return bool(cache._cache_file._load_index())
    except Exception:        # noqa: BLE001  numba internals: any change means "cannot tell"
        return None


def prepare_kernels(say=None, estimates: bool = True) -> float:
    """Compile (or load from numba's cache) every kernel a query calls, once per process,
    so that no budget pays for it.  ``say(message)`` is called first if the cache is cold
    ("compiling kernels, once per install: ~N s").  Returns the seconds it took (0 if the
    kernels were ready).  ``estimates=False`` leaves out the honest playouts of the
    estimates (``python -m onirim.precompile`` compiles them in the honest family, at the
    same time)."""
    global _KERNELS_READY
    if _KERNELS_READY:
        return 0.0
    t = time.perf_counter()
    if say is not None and kernels_cached() is False:
        say(f"compiling kernels, once per install: ~{COMPILE_S} s")
    warm = Expectimax(10)
    state = parse_position(_WARM_POSITION)
    warm.probe(state, budget_nodes=64)
    warm.value(state, budget_nodes=64, budget_s=60.0)
    keys, _, _ = kernel.new_tables(10)
    kernel.rehash(warm.keys, keys)
    if estimates:
        from solver.honest.estimate import prepare
        prepare(state)             # the fast playouts of solver.honest.rollout, if it exists
        _KERNELS_READY = True
    return time.perf_counter() - t
