"""The deal kernels' borrowed views (``deal_kernel._borrow``): ``_apply`` and ``_legal`` of the
deal-mode turn (``solver.clairvoyant.deal_turn``, ``solver.duo.deal_turn``) work on views of
their arrays without a reference count.
A view must read and write the caller's data, and a game stepped through them must neither
allocate nor free anything."""
import numpy as np
import pytest
from numba import njit
from numba.core.runtime import _nrt_python as nrt_stats
from numba.core.runtime import rtsys

from engine.game import Game
from solver.clairvoyant import deal_kernel as deal
from solver.clairvoyant import deal_turn as solo_turn
from solver.duo import deal_turn as duo_turn
from solver.duo import kernel as duo_kernel


@njit
def _write_through(a, b):
    va = deal._borrow(a)
    vb = deal._borrow(b)
    va[1] = va[0] + 7
    vb[2, 3] = vb.shape[0] * 10 + vb.shape[1]
    return va.sum() + vb.sum()


def test_a_borrowed_view_reads_and_writes_the_array():
    a = np.array([5, 0, 1], dtype=np.int64)
    b = np.zeros((4, 6), dtype=np.uint8)
    total = _write_through(a, b)
    assert a.tolist() == [5, 12, 1]
    assert b[2, 3] == 46 and int(b.sum()) == 46
    assert total == 18 + 46


@pytest.mark.parametrize("players", [1, 2])
def test_a_game_stepped_through_the_views_allocates_and_frees_nothing(players):
    kernel = deal if players == 1 else duo_kernel
    turn = solo_turn if players == 1 else duo_turn
    st, perms, s_root, seed = kernel.encode(Game(players).new_initial_state(11))
    wk = deal.new_wk()
    out = np.zeros(deal.MOVES_BUF, dtype=np.int64)
    s_root = np.int64(s_root)
    turn._legal(st, perms, s_root, out)                    # compiled before counting
    turn._apply(st.copy(), out[0], perms, s_root, seed, wk)
    enabled = nrt_stats.memsys_stats_enabled()
    nrt_stats.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        after, steps = _play(turn, st, perms, s_root, seed, wk, out)
    finally:
        if not enabled:
            nrt_stats.memsys_disable_stats()
    assert steps > 10
    assert after.alloc - before.alloc == after.free - before.free
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free


def _play(turn, st, perms, s_root, seed, wk, out):
    steps = 0
    while steps < 400:
        n = turn._legal(st, perms, s_root, out)
        if n == 0:
            break
        turn._apply(st, out[steps % n], perms, s_root, seed, wk)
        steps += 1
    return rtsys.get_allocation_stats(), steps
