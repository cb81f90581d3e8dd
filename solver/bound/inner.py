"""The numba inner solver from Python (``solver.bound.kernel``; ``docs/BOUND.md`` section 8).

``KernelInner(w="zero", stop=None).solve(view, deal)`` is the inner maximum of one deal of a
position, as :class:`solver.bound.reference.InnerSolver` gives it, for the ``W`` modes the
kernel has (``zero``, ``exact``, ``noisy``) and with the stop count ``stop`` (section 10: the
relaxed player plays until the next draw would leave at most ``stop`` unknown cards, and is
paid the exact honest value ``V*`` of that view).

The expectimax tables (``V*`` for ``exact``, ``noisy`` and the stops) are kept across deals:
``V*`` is a function of the view alone.  The inner memo is cleared for every deal.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from engine.game import State
from solver.expectimax import kernel as EK
from solver.expectimax.encode import encode, forget_seed

from . import kernel as BK
from .deal import Deal, SeedShuffles, check_deal


@dataclass
class KernelResult:
    value: float            # the inner maximum (an upper end if not finished: see below)
    finished: bool          # False: the node limit stopped the search (value is 1.0 then
                            # for W = zero, a sound over-estimate; None otherwise)
    counters: dict


def root_words(view: State) -> np.ndarray:
    """(status, w0..w3): the canonical expectimax words of a chance-mode solo view."""
    w = encode(forget_seed(view))
    st, a0, a1, a2, a3 = EK.canonical(*[np.int64(x) for x in w])
    if EK.unk_total(a0, a1) != EK.unk_total(np.int64(w[0]), np.int64(w[1])):
        raise ValueError("the position shuffles before its first decision")
    return np.array([st, a0, a1, a2, a3], dtype=np.int64)


class KernelInner:
    """The inner maximum on one deal, in numba.

    ``w``: ``zero``, ``exact`` (the expectimax value at every chance outcome) or ``noisy``
    (exact plus ``noise`` times a fixed hash); ``stop``: the stop count (None: play to the
    end); ``limit``: nodes per deal (None: no limit); ``cuts``: the hopeless and win cuts;
    ``memo_bits``/``ex_bits``: table sizes (2**bits rows); ``ex_budget``: expectimax nodes
    per deal for W and the stops (None: none; a search cut short gives its upper end, which
    keeps the bound valid, and is counted as ``inexact``; the expectimax tables are then
    emptied before every deal, so that a row does not depend on the deals before it)."""

    def __init__(self, w: str = "zero", stop: int | None = None, limit: int | None = None,
                 cuts: bool = True, noise: float = 0.02, memo_bits: int = 18,
                 ex_bits: int = 20, ex_budget: int | None = None):
        if w not in BK.W_NAMES:
            raise ValueError(f"W must be one of {sorted(BK.W_NAMES)}, not {w!r}")
        self.w = w
        self.stop = stop
        self.settings = BK.new_settings(limit=limit if limit is not None else 1 << 62,
                                        stop=-1 if stop is None else stop,
                                        wmode=BK.W_NAMES[w], cuts=cuts)
        self.noise = float(noise)
        self.keys, self.vals = BK.new_memo(memo_bits)
        self.ex_keys, self.ex_vals, self.ex_ctr = EK.new_tables(ex_bits)
        self.ex_cfg = EK.new_settings()
        self.ex_budget = ex_budget

    def solve(self, view: State, deal: Deal) -> KernelResult:
        check_deal(view, deal)
        if view.players != 1:
            raise ValueError("the bound is for solo positions")
        if not isinstance(deal.shuffles, SeedShuffles):
            raise ValueError("the kernel takes seeded deals (SeedShuffles)")
        if view.is_terminal():
            return KernelResult(1.0 if view.won() else 0.0, True, {})
        root = root_words(view)
        order = np.zeros(BK.ORDER_LEN, dtype=np.uint8)
        order[:len(deal.order)] = deal.order
        self.keys[:, 0] = -1
        ctr = np.zeros(BK.CT_SIZE, dtype=np.int64)
        if self.ex_budget is not None:
            # a budgeted search's answer depends on what the memo holds: an empty memo for
            # every deal keeps a deal's row a function of the deal alone (not of the deals
            # this process played before it: resume, --jobs and a cluster give the same rows)
            self.ex_keys.fill(-1)
            self.ex_keys[:, 7] = 0
            self.ex_cfg[EK.SE_LIMIT] = self.ex_ctr[EK.CT_NODES] + self.ex_budget
        v = self._inner(root, order, np.uint64(deal.shuffles.seed),
                        np.int64(deal.shuffles.first), ctr)
        if ctr[BK.CT_ERROR]:
            raise RuntimeError("bound kernel: a deal's card was not a chance outcome")
        counters = {name: int(ctr[i]) for name, i in COUNTER_NAMES.items()}
        counters["ex_nodes"] = int(self.ex_ctr[EK.CT_NODES])
        finished = not ctr[BK.CT_UNFINISHED]
        if not finished:
            v = 1.0 if self.w == "zero" else None
        return KernelResult(v, finished, counters)

    def _inner(self, root, order, seed, first, ctr) -> float:
        """``BK.inner`` in a thread of its own while this (main) thread waits, so that a
        Ctrl-C or SIGTERM is answered at once: the search is stopped (its node limit and
        the expectimax's set to 0, read at every node), this thread waits for it to end and
        raises KeyboardInterrupt; nothing of the cut-short search is returned.  Outside the
        main thread (a pool or cluster worker) the kernel runs here."""
        args = (root, order, seed, first, self.settings, self.noise, self.keys, self.vals,
                self.ex_keys, self.ex_vals, self.ex_cfg, self.ex_ctr, ctr)
        if threading.current_thread() is not threading.main_thread():
            return BK.inner(*args)
        out: list = []
        done = threading.Event()

        def work():
            try:
                out.append(BK.inner(*args))
            except BaseException as e:     # re-raised in the calling thread
                out.append(e)
            finally:
                done.set()

        limit, ex_limit = int(self.settings[BK.BS_LIMIT]), int(self.ex_cfg[EK.SE_LIMIT])
        thread = threading.Thread(target=work, daemon=True)
        interrupted = False
        thread.start()
        while not done.is_set():        # until the search has ended, even when stopped
            try:
                done.wait(0.25)
            except KeyboardInterrupt:
                interrupted = True
                self.settings[BK.BS_LIMIT] = 0
                self.ex_cfg[EK.SE_LIMIT] = 0
        if interrupted:
            self.settings[BK.BS_LIMIT] = limit
            self.ex_cfg[EK.SE_LIMIT] = ex_limit
            raise KeyboardInterrupt
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def value(self, view: State) -> float:
        """V* of a view from this solver's expectimax tables (exact or its upper end)."""
        root = root_words(view)
        ctr = np.zeros(BK.CT_SIZE, dtype=np.int64)
        return BK.exact_value(root[0], root[1], root[2], root[3], root[4], self.ex_keys,
                              self.ex_vals, self.ex_cfg, self.ex_ctr, ctr)


COUNTER_NAMES = {"nodes": BK.CT_NODES, "hits": BK.CT_HITS, "chance": BK.CT_CHANCE,
                 "stops": BK.CT_STOPS, "w_evals": BK.CT_WEVALS, "inexact": BK.CT_INEXACT,
                 "cut_hopeless": BK.CT_CUT_HOPELESS, "cut_win": BK.CT_CUT_WIN,
                 "stored": BK.CT_STORED, "full": BK.CT_FULL, "depth": BK.CT_DEPTH,
                 "shuffles": BK.CT_SHUFFLES}
