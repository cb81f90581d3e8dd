"""Whole games of the learned scorer with weights given at run time: the training kernel of
``benchmarks/learn_base.py`` (the stored weights are frozen into ``base_action``; a search of
the weights needs them as an argument).

:func:`weights_games` is :func:`solver.honest.strong.base_games` with the ``learned-base``
policy's decisions taken from ``W`` instead of ``solver.honest.learned_weights``: with the
stored weights both play the same games (tests/solver/honest/test_learned.py).
:func:`weights_games2` is the same for ``learned-base-2`` (:mod:`solver.honest.learned2`),
its play weights ``WP`` and the other phases' ``WO`` given at run time
(tests/solver/honest/test_learned2.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit

# absolute, not relative (see solver.honest.state)
from solver.honest.greedy import keep_doors
from solver.honest.learned import learned_play_w
from solver.honest.learned2 import learned2_w
from solver.honest.playouts import MAX_DECISIONS, to_decision
from solver.honest.state import NS, P_PLAY, PH, apply_action, new_game, word


@njit(cache=True)
def _weights_games(n, key0, WP, WO, two, out):
    """The game loop of both training kernels: ``n`` whole games from the setup, game g with
    stream word(key0, g) (as ``strong.base_games``); each decision is greedy-keep-doors'
    action, rescored by learned-base's play scorer with ``WP`` (``two`` False) or by
    learned-base-2's scorers with ``WP`` and ``WO`` (``two`` True); out[g] = 1 if won.
    Returns the wins."""
    S = np.empty(NS, dtype=np.int64)
    wins = 0
    for g in range(n):
        new_game(S)
        key = word(key0, g)
        ctr = 0
        steps = 0
        out[g] = 0
        while steps <= MAX_DECISIONS:
            r, ctr = to_decision(S, key, ctr)
            if r >= 0:
                out[g] = r
                wins += r
                break
            a = keep_doors(S)
            if two:
                a = learned2_w(S, a, WP, WO)
            elif S[PH] == P_PLAY:
                a = learned_play_w(S, a, WP)
            apply_action(S, a)
            steps += 1
    return wins


@njit(cache=True)
def weights_games(n, key0, W, out):
    """``n`` whole games played by greedy-keep-doors with the play phase scored by ``W``
    (:func:`_weights_games`); out[g] = 1 if won.  Returns the wins."""
    return _weights_games(n, key0, W, W, False, out)


@njit(cache=True)
def weights_games2(n, key0, WP, WO, out):
    """:func:`weights_games` for ``learned-base-2``: play weights ``WP``, the prophecy's and
    the Nightmare's ``WO`` (``solver.honest.learned2.FEATURES``)."""
    return _weights_games(n, key0, WP, WO, True, out)
