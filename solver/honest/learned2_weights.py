"""The weights of the ``learned-base-2`` base policy (:mod:`solver.honest.learned2`): ``PLAY``
one integer per feature of ``solver.honest.learned.FEATURES`` (the play phase, as
``learned-base``), ``OTHER`` one per feature of ``solver.honest.learned2.FEATURES`` (the
prophecy, then the Nightmare).

Written by ``python -m benchmarks.learn_base --base 2`` (docs/POLICIES.md, "A second learned
base: the other phases"): edit them only by rerunning it.  A plain constants module that the
kernels read: it is in ``solver.SHARED``, so an edit restamps the numba caches of every kernel
that plays the base.
"""
PLAY = (100, 2, 110, 54, -106, -29, 38, -115, 122, -47, -17, 13, 55, -17, -3, -12, 33, 45, 33, 4)
OTHER = (100, -22, 39, 3, 19, 6, 1, -3, -1, -5, 33, -16, 19, 9, -10, 19, 52, 100, 61, 31, 28, 28, 4, -96, -79, -4, -41, 16, -43, -6, 36, 8, -61, -6, -23, -9)
