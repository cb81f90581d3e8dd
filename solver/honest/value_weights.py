"""The weights of the playouts' value function (:mod:`solver.honest.value`), one float per
feature in the order of ``solver.honest.value.FEATURES``.

Written by ``python -m benchmarks.learn_value`` (docs/POLICIES.md, "A value function for the
playouts' tails"): edit them only by rerunning it.  A plain constants module that the kernels
read: it is in ``solver.SHARED``, so an edit restamps the numba caches of the kernels that use
it.
"""
VWEIGHTS = (-2.00662, -2.18951, 1.76164, -0.271561, 0.366463, 0.124411, -0.101831, -0.389978, 0.473892, 0.48276, -0.0556044, 0.308971, 0.0704489, 0.0509478, 0.444863)
# python -m benchmarks.learn_value --games 200000 --write
