"""The rules' vocabulary, defined once: rule sizes, card types and the kernels' phase numbers.

* :class:`Rules` is a small frozen record of the sizes of a game (hand of 5, 8 Doors, 2 per
  colour, prophecy of 5, card counts, ...).  :data:`SOLO` is the base game; a rule variant is a
  new record with other values, not an edit of the code.  The module-level names below the
  record are the values of :data:`SOLO`, as plain ints, for the numba kernels: numba freezes a
  module's global ints at compile time, so a kernel must import them as module-level names
  (``from engine.rules import HAND_SIZE``), never read them from a record at run time.
* Card types are those of :mod:`engine.cards` (docs/NOTATION.md section 1): Locations 0..11
  (colour * 3 + symbol), Doors 12..15 (12 + colour), the Nightmare 16.
* Phase numbers: the packed states of the kernels store the phase as a small integer.  The
  decision phases and the chance phases have one numbering for every kernel; the deal-mode
  kernels (clairvoyant search, playouts) have no chance phases and only 3 bits for the phase,
  so their terminal phases take the numbers right after the decision phases.

The action numbers are those of :mod:`engine.game` (``PLAY``, ``DISCARD``, ...); the kernels
import them from there.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import cards


@dataclass(frozen=True)
class Rules:
    """Sizes of one rule set (the solo base game by default)."""
    hand_size: int = 5                 # Locations in a full hand
    colours: int = 4                   # Observatory, Aquarium, Garden, Library
    symbols: int = 3                   # Sun, Moon, Key
    doors_per_colour: int = 2          # Doors of each colour in the deck
    doors_to_win: int = 8              # all Doors in play
    series_length: int = 3             # same-colour cards in a row that earn a Door
    prophecy_size: int = 5             # cards a prophecy (or a Nightmare's reveal) shows
    counts: tuple[int, ...] = cards.COUNTS     # cards of each type, in type order
    num_types: int = cards.NUM_TYPES           # 17
    num_location_types: int = cards.NUM_LOCATION_TYPES   # 12 (colours * symbols)
    first_door: int = 12                   # type of the first Door (DO)
    nightmare: int = cards.NIGHTMARE           # 16

    @property
    def total_cards(self) -> int:
        return sum(self.counts)

    def __post_init__(self):
        if len(self.counts) != self.num_types:
            raise ValueError("counts: one count per card type")
        if self.num_location_types != self.colours * self.symbols:
            raise ValueError("num_location_types: colours * symbols")
        if self.first_door != self.num_location_types:
            raise ValueError("first_door: the Doors follow the Locations")
        if self.nightmare != self.first_door + self.colours:
            raise ValueError("nightmare: the Nightmare follows the Doors")
        if self.doors_to_win != self.colours * self.doors_per_colour:
            raise ValueError("doors_to_win: every Door of every colour")
        for col in range(self.colours):
            if self.counts[self.first_door + col] != self.doors_per_colour:
                raise ValueError("counts: doors_per_colour Doors of each colour")


SOLO = Rules()

# ------------------------------------------------------------ the values of SOLO, as plain ints
HAND_SIZE = SOLO.hand_size                   # 5
COLOURS = SOLO.colours                       # 4
SYMBOLS = SOLO.symbols                       # 3
DOORS_PER_COLOUR = SOLO.doors_per_colour     # 2
DOORS_TO_WIN = SOLO.doors_to_win             # 8
SERIES_LENGTH = SOLO.series_length           # 3
PROPHECY_SIZE = SOLO.prophecy_size           # 5
# two players (rules/: the two-player variant): each player holds 3 Locations, the team shares
# 2 more face up, and the setup lays out 8 Locations to draft from
DUO_OWN_SIZE = 3
DUO_SHARED_SIZE = 2
DUO_DRAFT_SIZE = 8
COUNTS = SOLO.counts                         # a tuple; kernels make their own numpy copy
TOTAL_CARDS = SOLO.total_cards               # 76

# ------------------------------------------------------------ card types (engine.cards order)
NUM_TYPES = SOLO.num_types                   # 17: types 0..16
NUM_LOCATION_TYPES = SOLO.num_location_types  # 12: Locations are types 0..11
FIRST_DOOR = SOLO.first_door                 # 12: Doors are types 12..15 (12 + colour)
NIGHTMARE = SOLO.nightmare                   # 16
NO_CARD = 15    # "no card" where only a Location can stand (the empty row's last card); it
#                 fits in the 4 bits of a Location and no Location has this type

# ------------------------------------------------------------ phase numbers of packed states
PH_PLAY, PH_PROPHECY, PH_DOOR, PH_NIGHTMARE = 0, 1, 2, 3            # decisions
PH_REFILL, PH_REDRAW, PH_REVEAL, PH_FORESEE = 4, 5, 6, 7            # chance (expectimax)
PH_WON, PH_LOST = 8, 9                                              # terminal (expectimax)
PH_PICK = 10      # expectimax status only: a refill that draws from free known cards
PH_SETUP = 11     # the engine's setup: no kernel state has it (the expectimax encodes it as
#                   a redraw); a number for keys of engine states (solver.expectimax.certify)
# deal mode (clairvoyant search, playouts): no chance phases, 3 bits, so won and lost follow
# the decision phases
DEAL_WON, DEAL_LOST = 4, 5
DEAL_PHASE_NAMES = ("play", "prophecy", "door", "nightmare", "won", "lost")   # by number
# the two-player deal-mode kernel (solver.duo.kernel) adds the draft after them
DEAL_DRAFT = 6
DEAL_DUO_PHASE_NAMES = DEAL_PHASE_NAMES + ("draft",)
# the information-state playouts (solver.honest.kernel) keep the setup as a chance phase of its
# own, and every chance phase lies between the decisions and the end (it tests
# setup <= phase <= foresee): their own order, by number
INFO_PHASE_NAMES = ("play", "prophecy", "door", "nightmare", "setup", "refill", "redraw",
                    "reveal", "foresee", "won", "lost")

# engine phase name -> number (the expectimax numbering; deal-mode kernels use DEAL_*)
PHASE_NUMBER = {"play": PH_PLAY, "prophecy": PH_PROPHECY, "door": PH_DOOR,
                "nightmare": PH_NIGHTMARE, "refill": PH_REFILL, "redraw": PH_REDRAW,
                "reveal": PH_REVEAL, "foresee": PH_FORESEE, "won": PH_WON, "lost": PH_LOST}

assert DEAL_PHASE_NAMES.index("won") == DEAL_WON and DEAL_PHASE_NAMES.index("lost") == DEAL_LOST
assert DEAL_DUO_PHASE_NAMES.index("draft") == DEAL_DRAFT
assert INFO_PHASE_NAMES[:4] == DEAL_PHASE_NAMES[:4]
assert all(PHASE_NUMBER[n] == i for i, n in enumerate(DEAL_PHASE_NAMES[:4]))
assert NO_CARD < NIGHTMARE and NO_CARD >= NUM_LOCATION_TYPES
assert TOTAL_CARDS == cards.TOTAL_CARDS
