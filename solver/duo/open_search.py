"""The open-hands two-player expectimax in numba: the ``open-hands`` mode of
:func:`solver.api.rank` (``onirim best`` on an open-hands two-player position;
docs/DUO_EXPECTIMAX.md section 7).

:class:`OpenSearch` is :class:`solver.duo.open_hands.DuoExpectimax` (its queries ``value`` and
``rank``, the open-hands position of a seeded or ``--view`` position) with the search of one
position run by the kernel :mod:`solver.duo.open_kernel` on the information-state kernel's
arrays, and the memo a numba table of full keys, kept between queries.  The Python search
stays the reference the tests compare with (``tests/solver/duo/test_open_search.py``).

The open game's ``onirim best`` (:func:`open_game_ranker`, the mode's registered solver) adds
the leader when nothing is proven: the decision of the rollout policy that the open game's
default plays outside its end game (``solver.duo.view_rank.leader_policy(view, "open")``), by
its own search at the open game's view of the player to move, with that search's per-action
estimates, grown while the budget affords it (``solver.duo.view_rank.policy_leader``), and
never an action the bounds prove worse; where the default's own end-game search decides
(``duo-open-switch``, at most ``open_switch.DEFAULT_UNKNOWN`` unknown deck cards), its decision
(``solver.duo.view_rank.rule_leader``), so no budget gives a leader other than the default's.
Without it the leader would be the action with the highest lower bound, which early in a game
is 0 for every action.
"""
from __future__ import annotations

import time

import numpy as np

from solver.duo import info_state
from solver.duo.open_hands import FIRST_ROUND, MODE, DuoExpectimax, _lean, open_hands
from solver.duo.open_kernel import (C_DEAD, C_NODES, C_STOPPED, DEFAULT_FLAGS,
                                    DEFAULT_TABLE_BITS, MAX_TOP, N_COUNTERS, new_table,
                                    search_array)
from solver.errors import UnsupportedPosition
from solver.registry import register_solver
from solver.results import bounds, finish

__all__ = ["OpenSearch", "open_game_ranker", "encode_open", "warm_up", "DEFAULT_TABLE_BITS"]

LEADER_SHARE = 0.4        # of a time budget kept for the leader's search (open_game_ranker)


# ----------------------------------------------------------------------------- Python side
def encode_open(state) -> np.ndarray:
    """The kernel array of a two-player chance-mode position with both hands known (the
    open-hands position, ``solver.duo.open_hands.open_hands``): ``info_state.encode`` with
    ``HID`` = 0."""
    if getattr(state, "hidden", None):
        raise UnsupportedPosition("open-hands search: the partner's cards must be known")
    if len(state.deck) > MAX_TOP:
        raise UnsupportedPosition(f"open-hands search: at most {MAX_TOP} known deck cards "
                                  f"(the key holds no more), not {len(state.deck)}")
    S = info_state.encode(state)
    assert S[info_state.HID] == 0
    return S


class OpenSearch(DuoExpectimax):
    """:class:`solver.duo.open_hands.DuoExpectimax` with the search of a position in numba
    (:func:`search_array` on the information-state kernel's arrays) and the memo a table of
    ``2**table_bits`` rows with full keys (kept between queries).  ``value`` and ``rank`` are
    the Python class's; ``flags`` as there (default all five)."""

    def __init__(self, flags: int = DEFAULT_FLAGS, table_bits: int = DEFAULT_TABLE_BITS,
                 leader: bool = False):
        super().__init__(flags=flags)
        self.leader = bool(leader)      # rank(): the open game's leader when nothing is proven
        self.table_bits = int(table_bits)
        self.mem, self.memf = new_table(self.table_bits)
        self.clear()             # touches every page now, not in the first search's time
        self.ctr = np.zeros(N_COUNTERS, dtype=np.int64)

    def clear(self) -> None:
        """Empty the memo (its size is kept)."""
        self.mem.fill(0)

    def prepare(self, state=None, say=None) -> None:
        """Compile (or load) the kernel, and with ``leader`` the leader's policy, before the
        clock starts."""
        warm_up()
        if self.leader:
            from solver.duo.view_rank import leader_policy
            leader_policy(None, "open").warm_up()

    def rank(self, state, budget_nodes=None, budget_s=None, position=None, hide=False,
             first_round=FIRST_ROUND, on_progress=None, reserve_s=0.0):
        """The Python class's ranking; with ``leader``, when it proves no action best, the
        open game's leader and its estimates (the module's doc) on what is left of the
        budget: ``LEADER_SHARE`` of a time budget is kept for it; a node budget bounds the
        exact search's nodes (``nodes``) and, apart, the leader's playouts after its first
        search (``extra["playouts"]``), as in mode ``duo-view``."""
        if not self.leader:
            return super().rank(state, budget_nodes, budget_s, position, hide, first_round,
                                on_progress, reserve_s)
        from solver.duo.view_rank import (estimates_of, leader_policy, policy_leader,
                                          rule_leader, show_estimates)
        from solver.policies.endgame import not_proven_worse
        from engine.view import player_view
        t0 = time.perf_counter()
        keep = 0.0 if budget_s is None else LEADER_SHARE * budget_s
        ranking = super().rank(state, budget_nodes, budget_s, position, hide, first_round,
                               on_progress, reserve_s + keep)
        if ranking.best is not None or ranking.extra.get("interrupted"):
            return ranking
        view = player_view(open_hands(state, hide), talk="open")
        policy = leader_policy(view, "open")
        deadline = None if budget_s is None else t0 + max(0.0, budget_s - reserve_s)
        allowed = {a.action_id for a in not_proven_worse(ranking.actions)}
        try:
            found, steps = policy_leader(policy, view, allowed, deadline, budget_nodes, None,
                                         on_progress)
            rule_leader("open", view, found, steps, allowed)   # its nodes: in its step
        except KeyboardInterrupt:
            ranking.extra["interrupted"] = True
            return ranking
        show_estimates(ranking.actions, found)
        ranking.extra["playouts"] = found.playouts
        ranking.extra["estimates"] = estimates_of(policy, view, found, steps, found.playouts,
                                                   "open")
        finish(ranking)
        ranking.seconds = time.perf_counter() - t0
        return ranking

    def _bounded(self, s, budget_nodes, deadline):
        """Search the engine position ``s`` with the window (0, 1) under ``budget_nodes`` more
        nodes and the ``deadline`` (time.perf_counter()); an Interval, sound whatever stopped
        it."""
        S = encode_open(_lean(s))
        ctr = self.ctr
        ctr[C_STOPPED] = 0
        n0 = int(ctr[C_NODES])
        limit = (1 << 62) if budget_nodes is None else n0 + int(budget_nodes)
        dl = 0 if deadline is None else max(1, int(deadline * 1e6))
        lo, hi = search_array(S, 0.0, 1.0, np.int64(self.flags), self.mem, self.memf,
                              ctr, np.int64(limit), np.int64(dl))
        self.nodes += int(ctr[C_NODES]) - n0
        self.dead_hits = int(ctr[C_DEAD])
        self.stopped = bool(ctr[C_STOPPED])
        return bounds(lo, hi)

    def counters(self) -> dict:
        names = ("nodes", "stopped", "dead", "hits", "stored", "replaced", "depth_cut",
                 "max_depth", "children")
        return {k: int(v) for k, v in zip(names, self.ctr)}


@register_solver(MODE, players=(2,), options=("view",),
                 doc="two-player expectimax with open hands (the deck order unknown)")
def open_game_ranker(flags: int = DEFAULT_FLAGS, table_bits: int = DEFAULT_TABLE_BITS,
                     leader: bool = True) -> OpenSearch:
    """The ``open-hands`` mode's solver: :class:`OpenSearch` with the open game's leader (a
    caller that wants only the bounds passes ``leader=False``)."""
    return OpenSearch(flags=flags, table_bits=table_bits, leader=leader)


def warm_up() -> None:
    """Compile the kernel on a small position (one call of each entry point)."""
    from engine.notation import parse_position
    from solver.duo.open_hands import open_hands
    s = open_hands(parse_position(_WARM))
    OpenSearch(table_bits=4).value(s, budget_nodes=50, budget_s=60.0)


_WARM = ("mode=duo phase=play turn=1 hand0=Os,Om,As hand1=Ak,Gk,Ls shared=As,Am "
         "row0=As,Am,Ak,Ls,Lm,Ls,Gm,Gs,Gm row1=As,Am,Gs,Gm,Gs,Om,Os,Ok,Ls,Lm "
         "doors0=DO,DA,DG,DL doors1=DO,DG deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Ok,Ok,"
         "As,As,As,As,Am,Ak,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Lm,Lm,Lk,Lk,Lk,N,N,N,N,N,N,N,N,N,N "
         "limbo=-")


# a two-player *player's* view (the partner's cards unknown) is ranked by its own mode,
# which registers from its own module (solver/duo/view_rank.py)
from solver.duo import view_rank as _view_rank  # noqa: E402, F401
