"""Information relaxation with penalties: an upper bound on the honest win probability.

``docs/BOUND.md`` gives the argument.  The pieces:

* :mod:`solver.bound.deal` - what a deal of a *position* is (the order of its unknown cards
  and every later shuffle), sampled deals, the deal-mode engine state of a deal, and the exact
  enumeration of every deal of a small position;
* :mod:`solver.bound.reference` - the readable inner solver over ``engine/``: for one deal,
  the maximum over action sequences of ``1[win] - sum of penalties``; and the penalties a
  fixed honest policy pays on a deal;
* :mod:`solver.bound.values` - choices of the function ``W`` of the player's view.
"""
