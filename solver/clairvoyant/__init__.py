"""The clairvoyant (perfect-information) solo solver.

``deal_kernel``  the bit-packed deal-mode solo kernel (a real, known deck)
``search``       the depth-first OR-search over it, with the transposition table
``beam``         the beam search that finds a win first
``pysearch``     the same search in plain Python over ``engine/`` states (the reference)
``solve``        the public API: ``ClairvoyantSolver``, ``solve_deal``, ``solve_state``
``rank``         every action of a position ranked by clairvoyant solves
``playouts``     whole solo games (random, greedy) played inside the kernel

The public API of ``solve`` is re-exported here: ``from solver.clairvoyant import
solve_deal, ClairvoyantSolver, solve_state``.
"""
from .solve import (SOLVER_VERSION, CertificateError, ClairvoyantSolver, SolveResult,  # noqa: F401
                    actions_to_strings, certified_line, check_loss, loss_recipe, replay_line,
                    solve_deal, solve_state)
