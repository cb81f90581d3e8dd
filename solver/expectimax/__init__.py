"""The exact expectimax solver of solo positions (docs/EXPECTIMAX.md).

``kernel``          the numba kernel, one import for all of it (re-exports ``control``,
                    ``fields``, ``rules``, ``bound``, ``table``, ``chance``, ``search``)
``encode``          engine state -> the kernel's packed words
``memo``            the memo table and its growth; ``memo_file`` its files on disk
``runner``          the threads that run a search
``solver``          the public API: ``Expectimax`` (value, rank, line, certify, ...)
``certify``         the replay of an optimal strategy in the engine
``strategy_graph``  the graph of one optimal strategy

The public names of ``solver`` are re-exported here: ``from solver.expectimax import
Expectimax``.
"""
from .solver import (ActionValue, Expectimax, Interval, Ranking, UnsupportedPosition,  # noqa: F401
                     EXACT_TOL, bounds, check_decision, encode, finish, prepare_kernels)
