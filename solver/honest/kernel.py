"""The information-state playout kernel (honest solo Onirim in numba, chance mode), in one
namespace.

The kernel is three modules, by what they hold:

* :mod:`solver.honest.state` - the state array (what a solo player may know), the generator of
  the unknown draws, the rule steps in chance mode and the legal actions; ``encode`` /
  ``decode`` / ``diff`` on the Python side;
* :mod:`solver.honest.greedy` - the base policies ``greedy`` and ``greedy-plus``;
* :mod:`solver.honest.playouts` - playouts, batches of whole games and the rollout decisions.

This module gathers their names (``HK.encode``, ``HK.playout``, ``HK.greedy``, ...) for the
callers that use the kernel as one thing; it defines nothing of its own.  The test helpers (a
traced playout, the engine-versus-kernel differential run) are in ``tests/honest_kit.py``.
"""
from __future__ import annotations

from solver.honest import greedy as _greedy
from solver.honest import playouts as _playouts
from solver.honest import state as _state

for _m in (_state, _greedy, _playouts):
    globals().update({k: v for k, v in vars(_m).items()
                      if not (k.startswith("__") or k in ("annotations", "np", "njit"))})
del _m
