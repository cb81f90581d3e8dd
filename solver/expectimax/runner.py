"""The threaded runner of the expectimax: one search per thread on a shared memo table.

A :class:`SearchRunner` holds, for every search thread, its settings and its counters
(``solver.expectimax.control``: two separate arrays each, the settings written here, the counters by
the kernel), starts the searches, stops them (the first to finish, a node limit, a deadline,
Ctrl-C) and sums their counts.  It knows nothing of positions or queries
(``solver.expectimax``) and nothing of how the table grows (``solver.expectimax.memo``).
docs/EXPECTIMAX.md section 3, "Threads".
"""
from __future__ import annotations

import signal
import threading

import numpy as np

from .control import (CLOCK_EVERY, CT_FULL, CT_NODES, CT_STORED, CT_TIMEOUT, NO_LIMIT,
                          SE_BOUND, SE_CLOCK_MASK, SE_DEADLINE, SE_LIMIT, SE_PEEK, SE_PROBE,
                          SE_PRUNE, SE_REVERSE, new_counters, new_settings)
from .search import solve

_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM") if hasattr(signal, n))


def _block_signals():
    """Block SIGINT and SIGTERM in this thread (threads started now inherit the mask);
    returns the old mask, or None where signal masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)


def _unblock_signals(old) -> None:
    signal.pthread_sigmask(signal.SIG_SETMASK, old)


class SearchRunner:
    """Settings and counters of ``threads`` searches, and the code that runs them at once.
    Thread i visits children and outcomes in reverse order when i is odd."""

    def __init__(self, threads: int = 1, prune: bool = True, bound: bool = True,
                 peek: bool = False):
        self.settings = [new_settings(prune, bound, peek) for _ in range(threads)]
        for i, s in enumerate(self.settings):
            s[SE_REVERSE] = i % 2
        self.counters = [new_counters() for _ in range(threads)]
        self.timed_out = False      # the last run was stopped by its deadline

    @property
    def threads(self) -> int:
        return len(self.settings)

    # ------------------------------------------------------------------------- counts
    def total(self, slot: int) -> int:
        """A counter summed over the threads."""
        return int(sum(int(c[slot]) for c in self.counters))

    @property
    def nodes(self) -> int:
        return self.total(CT_NODES)

    @property
    def stored(self) -> int:
        return self.total(CT_STORED)

    @property
    def replaced(self) -> int:
        return self.total(CT_FULL)

    def set_stored(self, n: int) -> None:
        """The table now holds n entries (it was rebuilt: grown, or loaded from a file)."""
        for c in self.counters:
            c[CT_STORED] = 0
        self.counters[0][CT_STORED] = n

    def reset_counters(self) -> None:
        for c in self.counters:
            c[:] = 0
        self.timed_out = False

    # ----------------------------------------------------------------------- settings
    @property
    def prune(self) -> bool:
        return bool(self.settings[0][SE_PRUNE])

    @property
    def bound(self) -> bool:
        return bool(self.settings[0][SE_BOUND])

    @property
    def peek(self) -> bool:
        return bool(self.settings[0][SE_PEEK])

    def set_probe(self, on: bool) -> None:
        for s in self.settings:
            s[SE_PROBE] = 1 if on else 0

    def stop(self) -> None:
        """Stop every search now (each returns the sound interval it has)."""
        for s in self.settings:
            s[SE_LIMIT] = 0

    # ---------------------------------------------------------------------------- run
    def run(self, keys, vals, words, budget_nodes: int | None, alpha=0.0, beta=1.0,
            deadline: float | None = None, clock_every: int = CLOCK_EVERY):
        """One search per thread of the packed position ``words`` on the memo (``keys``,
        ``vals``); returns (lo, hi), the intersection of their intervals (each is sound).
        ``budget_nodes``: shared equally between the threads.  ``deadline``: a
        time.perf_counter() value; the kernel looks at the clock every ``clock_every``
        nodes and stops with sound bounds once it is past."""
        n = self.threads
        share = None if budget_nodes is None else max(0, int(budget_nodes)) // n
        if share is not None and share == 0 and budget_nodes:
            share = 1
        for s, c in zip(self.settings, self.counters):
            s[SE_LIMIT] = (NO_LIMIT if share is None
                           else min(int(c[CT_NODES]) + share, NO_LIMIT))
            s[SE_DEADLINE] = 0 if deadline is None else max(1, int(deadline * 1e6))
            s[SE_CLOCK_MASK] = max(1, int(clock_every)) - 1
            c[CT_TIMEOUT] = 0
        self.timed_out = False
        w = [np.int64(x) for x in words]
        results: list = [None] * n
        errors: list = []

        def work(i):
            try:
                results[i] = solve(w[0], w[1], w[2], w[3], float(alpha), float(beta),
                                   keys, vals, self.settings[i], self.counters[i])
            except BaseException as e:     # re-raised in the calling thread
                errors.append(e)
            finally:
                self.stop()                # the first to finish stops the others
                done[i].set()              # last: nothing of this search runs after it
        # Every search runs in a thread of its own, and this (main) thread waits.  A signal
        # handler runs in the main thread only: had the main thread been searching, a
        # Ctrl-C would have been raised inside the kernel's clock call (an object-mode
        # block) and left as a SystemError with a traceback.  Here it reaches the wait
        # below: the searches are stopped (node limit 0: each returns the sound interval
        # it has), and KeyboardInterrupt is raised only once every one of them has ended,
        # so the memo holds complete, sound entries only and can be saved (``save_memo``).
        # SIGINT and SIGTERM are blocked while the threads start, so that no interrupt can
        # leave a thread started but unaccounted for; the wait is on an Event each search
        # sets as its very last step, not on Thread.join (a join interrupted by Ctrl-C can
        # mark a thread as finished while it still runs: CPython's bpo-45274 handling).
        done = [threading.Event() for _ in range(n)]
        workers = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(n)]
        interrupted = False
        start_error = None
        masked = _block_signals()
        try:
            for i, t in enumerate(workers):
                try:
                    t.start()
                except Exception as e:      # no thread: stop the ones started
                    start_error = e
                    for j in range(i, n):
                        done[j].set()
                    self.stop()
                    break
            while True:
                try:
                    if masked is not None:
                        _unblock_signals(masked)
                        masked = None
                    for ev in done:
                        while not ev.is_set():
                            ev.wait(0.25)
                    break
                except KeyboardInterrupt:
                    interrupted = True
                    self.stop()
        finally:
            if masked is not None:     # only if something above failed unexpectedly
                _unblock_signals(masked)
            for s in self.settings:
                s[SE_LIMIT] = NO_LIMIT
                s[SE_DEADLINE] = 0
            # the deadline flag is the kernel's, for this run only: a later direct call
            # of the kernel with these counters must not find it set
            self.timed_out = any(bool(c[CT_TIMEOUT]) for c in self.counters)
            for c in self.counters:
                c[CT_TIMEOUT] = 0
        if start_error is not None:
            raise start_error
        if interrupted:
            raise KeyboardInterrupt
        if errors:
            raise errors[0]
        lo = max(r[0] for r in results if r is not None)
        hi = min(r[1] for r in results if r is not None)
        return lo, hi


__all__ = ["SearchRunner"]
