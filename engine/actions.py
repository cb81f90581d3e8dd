"""The action space of ``engine.game``: one fixed integer layout for solo and two-player
games (the numba kernels import these numbers too; action strings: ``docs/NOTATION.md``)."""
from __future__ import annotations

from . import cards

# ---------------------------------------------------------------------------------------------
# Action space.  One fixed integer layout for solo and two-player games.
#   PLAY      + zone*12 + c            play Location type c from zone (0 = own hand, 1 = shared)
#   DISCARD   + zone*12 + c            discard it, no exchange
#   SWAP      + ((zone*12+c)*144) + a*12 + b
#                                      two-player: discard, then exchange own a with shared b
#   PROPHECY  + i*24 + p               discard revealed card i, put the others back in
#                                      permutation p (lexicographic rank) of their positions
#   DOOR_KEY + zone, DOOR_LIMBO        a drawn Door
#   NM_KEY + zone*4 + colour, NM_DOOR + colour, NM_REVEAL, NM_REDRAW
#   DRAFT + c                          two-player setup: take Location type c from the centre
#   DRAW + t                           chance outcome: the card drawn is of type t
# ---------------------------------------------------------------------------------------------
PLAY = 0
DISCARD = 24
SWAP = 48
PROPHECY = SWAP + 24 * 144          # 3504
DOOR_KEY = PROPHECY + 120           # 3624 (+1: key from the shared cards)
DOOR_LIMBO = DOOR_KEY + 2           # 3626
NM_KEY = DOOR_LIMBO + 1             # 3627 .. 3634
NM_DOOR = NM_KEY + 8                # 3635 .. 3638
NM_REVEAL = NM_DOOR + 4             # 3639
NM_REDRAW = NM_REVEAL + 1           # 3640
DRAFT = NM_REDRAW + 1               # 3641 .. 3652
DRAW = DRAFT + 12                   # 3653 .. 3669
NUM_ACTIONS = DRAW + cards.NUM_TYPES
