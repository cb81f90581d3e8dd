"""The weights of the two-player playouts' value function (:mod:`solver.duo.value`), per base
policy of the playouts: one float per feature in the order of ``solver.duo.value.FEATURES``.

Written by ``python -m benchmarks.learn_duo_value --base NAME --write`` (docs/DUO_BASES.md,
"A value function for the two-player playouts' tails"): edit them only by rerunning it.  A
plain constants module that the kernels read: it is in ``solver.SHARED``, so an edit restamps
the numba caches of the kernels that use it.  A base without a line has no value function
(``duo-krollout`` refuses a horizon over it).
"""
DUO_VWEIGHTS = {}
DUO_VWEIGHTS["team"] = (2.47487, -0.880508, 0.700453, -0.118223, 0.283915, -0.0198598, 0.021411, -0.146558, 0.0828641, 0.0445789, 0.0139881, 0.0148677, 0.0199377, 0.126804, 0.127702, 0.14043, 0.13975, 0.0535576, 0.0945041, 0.330958, -0.266931)
# python -m benchmarks.learn_duo_value --base team --games 60000 --write
DUO_VWEIGHTS["plus2"] = (2.68966, -0.996052, 0.807774, -0.0771938, 0.359247, -0.0326399, 0.0349212, -0.221518, 0.0990247, 0.0702223, 0.0164737, 0.00922078, 0.00474893, 0.158798, 0.159442, 0.165434, 0.166573, 0.0533473, 0.0788785, 0.364244, -0.351274)
# python -m benchmarks.learn_duo_value --base plus2 --games 60000 --write
DUO_VWEIGHTS["learned"] = (2.7001, -0.981961, 0.810846, -0.0830382, 0.33025, -0.0257546, 0.0303565, -0.220037, 0.0995643, 0.0586678, 0.0145566, 0.00911056, 0.00244222, 0.151903, 0.153986, 0.166035, 0.167568, 0.0522348, 0.0875036, 0.378166, -0.3473)
# python -m benchmarks.learn_duo_value --base learned --games 60000 --write
DUO_VWEIGHTS["learned60"] = (2.70441, -0.985855, 0.825067, -0.0839279, 0.348899, -0.0277502, 0.0319174, -0.227808, 0.0990552, 0.0625316, 0.0131019, 0.00898872, 0.0025459, 0.150372, 0.152553, 0.166322, 0.167794, 0.0514703, 0.0745526, 0.38252, -0.352753)
# python -m benchmarks.learn_duo_value --base learned60 --games 60000 --write --json
