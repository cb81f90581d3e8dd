"""The weights of the two-player base ``learned`` (solver/duo/info_greedy.py): plus2's
scorer and exchange (``P2_FEATURES``, ``P2_TUNE``'s order) with weights fitted by
``python -m benchmarks.learn_duo_base`` (docs/DUO_BASES.md, "A fitted plus2: the base
learned").  Edit them only by rerunning it with ``--write``.  A plain constants module that the
kernels read: it is in ``solver.SHARED``, so an edit restamps the numba caches.
"""
WEIGHTS = (100, 26, 35, -72, -1, -2, -60, -118, -78, 17, 20, -54, 35, 4, -80, -76, 37)
TUNE = (-2, 15, 6, 20, -4, 24)
# python -m benchmarks.learn_duo_base --write --json
