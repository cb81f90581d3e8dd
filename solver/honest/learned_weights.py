"""The weights of the ``learned-base`` play-phase scorer (:mod:`solver.honest.learned`), one
integer per feature in the order of ``solver.honest.learned.FEATURES``.

Written by ``python -m benchmarks.learn_base`` (docs/POLICIES.md, "A learned base policy"):
edit them only by rerunning it.  A plain constants module that the kernels read: it is in
``solver.SHARED``, so an edit restamps the numba caches of every kernel that plays the base.
"""
WEIGHTS = (100, 13, 81, 51, -88, -10, 31, -105, 118, -40, -32, 8, 44, -12, 4, -12, 28, 47, 30, 12)
