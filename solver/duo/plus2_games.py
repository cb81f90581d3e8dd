"""Whole two-player games of ``plus2`` with its weights given at run time: the training kernel
of ``benchmarks/learn_duo_base.py`` (the stored weights are frozen into
:func:`solver.duo.info_greedy.base_action`; a search of the weights needs them as arguments).

Both seats play :func:`solver.duo.info_greedy.plus2_with` (weights ``w`` in the order of
``P2_FEATURES``, ``t`` in that of ``P2_TUNE``) over greedy-plus's action, each on its own
cards and the shared ones, from the setup to the end; the chance draws of game g come from
stream word(key0, g), as :func:`solver.duo.info_playouts.game_batch`'s.  With ``P2_WEIGHTS``
and ``P2_TUNE`` every game is the playout of base ``plus2`` on the same stream
(tests/solver/duo/test_plus2.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit

# absolute, not relative (see solver.honest.state)
from solver.duo.info_greedy import greedy_plus, plus2_with
from solver.duo.info_playouts import MAX_DECISIONS, to_decision
from solver.duo.info_state import NS, apply_action, new_game, word


@njit(cache=True)
def _one_game(S, key, w, t):
    """Play the dealt position ``S`` to the end with plus2 on (``w``, ``t``), draws from
    stream ``key``; the Doors in play at the end (8 = won), or -1 if the guard hit."""
    ctr = np.int64(0)
    for _ in range(MAX_DECISIONS):
        doors, ctr = to_decision(S, key, ctr)
        if doors >= 0:
            return doors
        apply_action(S, plus2_with(S, greedy_plus(S), w, t))
    return np.int64(-1)


@njit(cache=True)
def weights_games(n, key0, w, t, out):
    """``n`` whole two-player games from the setup, game g on stream word(key0, g), both
    seats plus2 with weights ``w`` and ``t``; out[g] = the Doors in play at its end (8 = won,
    -1: the guard hit, never in a legal game).  Returns the Doors summed over the games."""
    S = np.empty(NS, dtype=np.int64)
    total = 0
    for g in range(n):
        new_game(S)
        r = _one_game(S, word(key0, g), w, t)
        out[g] = r
        total += r
    return total
