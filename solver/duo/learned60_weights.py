"""The weights of the two-player base ``learned60`` (solver/duo/info_greedy.py): plus2's
scorer and exchange (``P2_FEATURES``, ``P2_TUNE``'s order) with weights fitted by
``python -m benchmarks.learn_duo_base`` (docs/DUO_BASES.md,
"A longer fit: the base learned60").
Edit them only by rerunning it with ``--write``.  A plain constants module that the kernels
read: it is in ``solver.SHARED``, so an edit restamps the numba caches.
"""
WEIGHTS = (100, 36, 41, -92, 4, 2, -65, -136, -72, -11, 44, -62, 43, 14, -79, -86, 35)
TUNE = (-9, 31, 20, 38, 13, 26)
# python -m benchmarks.learn_duo_base --iters 60 --name learned60 --write --json
