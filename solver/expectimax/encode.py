"""Engine state -> the expectimax kernel's four packed words (layout: ``expectimax_kernel``).

This is the piece that ``solver.expectimax`` (the solver), ``solver.expectimax.certify`` (the replay in
the engine) and ``solver.expectimax.memo_file`` (the memo fingerprint: a memo entry means what ``encode``
made of a state) all need.  It lives apart so that none of those three has to import another
of them: ``expectimax`` imports ``certify`` and ``memo_file``, which import only this module.
"""
from __future__ import annotations

from engine import cards
from engine.game import State

from . import kernel
from solver.board import pack_board
from solver.errors import UnsupportedPosition

__all__ = ["PHASE_CODES", "UnsupportedPosition", "encode", "forget_seed"]

PHASE_CODES = {"play": kernel.PLAY, "prophecy": kernel.PROPHECY, "door": kernel.DOOR,
               "nightmare": kernel.NIGHTMARE, "refill": kernel.REFILL, "redraw": kernel.REDRAW,
               "setup": kernel.REDRAW, "reveal": kernel.REVEAL, "foresee": kernel.FORESEE}


def encode(state: State) -> tuple[int, int, int, int]:
    """Pack a solo, non-terminal engine state into the kernel's four words."""
    if state.players != 1:
        raise UnsupportedPosition("mode: expectimax handles solo positions only")
    if state.phase not in PHASE_CODES:
        raise UnsupportedPosition(f"phase: no expectimax for phase {state.phase}")
    if len(state.deck) > kernel.MAX_PREFIX:
        raise UnsupportedPosition(f"deck: at most {kernel.MAX_PREFIX} listed (known) deck cards, "
                                  f"not {len(state.deck)}")
    w0 = w1 = w2 = w3 = 0
    for t, n in enumerate(state.unknown):
        if t < 15:
            w0 |= n << (4 * t)
        else:
            w1 |= n << (4 * (t - 15))
    w1 |= pack_board(state.hands[0], state.rows[0], state.doors[0], PHASE_CODES[state.phase],
                     cards.colour(state.drawn) if state.phase == "door" else 0, kernel.HAND_AT)
    for c in state.limbo:
        w2 += (1 << 8) if c == cards.NIGHTMARE else 1 << (2 * cards.colour(c))
    if state.phase == "reveal":
        w2 |= state.left << 12
    n = len(state.deck)
    w2 |= n << 15
    for i, c in enumerate(state.deck):    # deck[0] is the top: slot n-1
        j = n - 1 - i
        if j < 8:
            w2 |= c << (20 + 5 * j)
        else:
            w3 |= c << (5 * (j - 8))
    return w0, w1, w2, w3


def forget_seed(state: State) -> State:
    """A copy in chance mode: expectimax does not know the deal, so a seed is ignored."""
    if state.seed is None:
        return state
    s = state.clone()
    s.seed = None
    s.shuffles = 0
    return s
