"""Expectimax kernel: the settings and the counters of a search, two ``int64`` arrays.

*Settings* say what a search may do; the Python side (``solver.expectimax``) writes them
before a search (and ``SE_LIMIT`` while one runs, to stop it), the kernel only reads them.
*Counters* say what a search did; the kernel writes them, the Python side reads them and
resets them.  Every search thread has its own pair (its own direction, limit and counts).
"""
from __future__ import annotations

import numpy as np

# settings slots
SE_LIMIT = 0          # stop expanding once counters[CT_NODES] reaches this
SE_PRUNE = 1          # 1: Star1 / alpha-beta windows (0: every window is (-1, 2))
SE_BOUND = 2          # 1: the can-still-win bound (0: only the Doors-reachable test)
SE_PEEK = 3           # 1: chance outcomes take their memo intervals before any is searched
SE_REVERSE = 4        # 1: visit children and outcomes in reverse order (a helper thread)
SE_PROBE = 5          # 1: probe (one child per decision, chosen by child_score; section 4a)
SE_DEADLINE = 6       # perf_counter() deadline in microseconds (0: none), checked in search
SE_CLOCK_MASK = 7     # under a deadline, look at the clock when (nodes & mask) == 0
SE_SIZE = 8

# counter slots
CT_NODES = 0          # nodes expanded (memo hits and positions settled without search excluded)
CT_HITS = 1           # memo hits that answered a call
CT_STORED = 2         # memo entries stored in a free slot
CT_FULL = 3           # memo entries stored by replacing another (the probe window was full)
CT_TIMEOUT = 4        # 1 once the deadline stopped the search (every later call returns at once)
CT_PHASE = 5          # counters[CT_PHASE + phase]: nodes expanded per phase (phases 0..10)
CT_SIZE = 16

CLOCK_EVERY = 1 << 9     # the usual nodes between two looks (mask CLOCK_EVERY - 1): about
                         # 1.5 ms late in a game, where looks every 128 nodes cost 3% of
                         # the speed.  Early in a game a node can cost 30 ms: the caller
                         # then sets mask 0 (every node)

NO_LIMIT = np.iinfo(np.int64).max


def new_settings(prune: bool = True, bound: bool = True, peek: bool = False) -> np.ndarray:
    """A settings array: no node limit, no deadline, forward order, no probe."""
    s = np.zeros(SE_SIZE, dtype=np.int64)
    s[SE_LIMIT] = NO_LIMIT
    s[SE_PRUNE] = 1 if prune else 0
    s[SE_BOUND] = 1 if bound else 0
    s[SE_PEEK] = 1 if peek else 0
    return s


def new_counters() -> np.ndarray:
    return np.zeros(CT_SIZE, dtype=np.int64)
