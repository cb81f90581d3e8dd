"""The weights of the ``learned-base-2`` base policy (:mod:`solver.honest.learned2`): ``PLAY``
one integer per feature of ``solver.honest.learned.FEATURES`` (the play phase, as
``learned-base``), ``OTHER`` one per feature of ``solver.honest.learned2.FEATURES`` (the
prophecy, then the Nightmare).

Written by ``python -m benchmarks.learn_base --base 2`` (docs/POLICIES.md, "A second learned
base: the other phases"): edit them only by rerunning it.  A plain constants module that the
kernels read: it is in ``solver.SHARED``, so an edit restamps the numba caches of every kernel
that plays the base.
"""
PLAY = (100, 13, 81, 51, -88, -10, 31, -105, 118, -40, -32, 8, 44, -12, 4, -12, 28, 47, 30, 12)
OTHER = (100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
