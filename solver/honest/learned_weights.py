"""The weights of the ``learned-base`` play-phase scorer (:mod:`solver.honest.learned`), one
integer per feature in the order of ``solver.honest.learned.FEATURES``.

Written by ``python -m benchmarks.learn_base`` (docs/POLICIES.md, "A learned base policy"):
edit them only by rerunning it.  A plain constants module that the kernels read: it is in
``solver.SHARED``, so an edit restamps the numba caches of every kernel that plays the base.
"""
WEIGHTS = (100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
