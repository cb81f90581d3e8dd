"""The growing memo table (docs/EXPECTIMAX.md section 3, "Growing the memo").

Growth must keep every entry it can (``rehash``), never change a value, keep budgets, and
work with two threads.  The positions come from the benchmark's generator (seeded)."""
import numpy as np
import pytest

from benchmarks.bench_expectimax import late_position
from solver.expectimax import kernel
from solver.expectimax.solver import Expectimax, memory_cap_bits

from test_expectimax_agreement import _walk


def _fill(bits, n, seed):
    """A table of 2**bits rows with n random entries stored through memo_store."""
    keys, vals, stats = kernel.new_tables(bits)
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 2**62, size=(n, 4), dtype=np.int64)
    for i, (a, b, c, d) in enumerate(words):
        lo = float(rng.random())
        kernel.memo_store(keys, vals, stats, a, b, c, d, lo, min(1.0, lo + 0.25), i + 1)
    return keys, vals, words


def test_rehash_keeps_every_entry_with_its_interval_and_work():
    keys, vals, words = _fill(10, 500, 1)
    present = [(w, kernel.memo_get(keys, vals, *w)) for w in words]
    present = [(w, r) for w, r in present if r[0]]
    assert len(present) >= 450            # a few may have been replaced in the small table
    new_keys, new_vals, _ = kernel.new_tables(13)
    used = kernel.rehash(keys, new_keys)
    assert used == int((keys[:, 0] != -1).sum())
    for w, (_, lo, hi) in present:
        found, lo2, hi2 = kernel.memo_get(new_keys, new_vals, *w)
        assert found and lo2 == lo and hi2 == hi
    old_work = {tuple(r[:4]): r[4] for r in keys if r[0] != -1}
    for r in new_keys:
        if r[0] != -1:
            assert old_work[tuple(r[:4])] == r[4]
            assert r[7] == 0                 # sequence locks start even


def test_rehash_into_a_small_table_keeps_the_costlier_entries():
    """When a probe window is full, rehash keeps the entries that cost more work."""
    keys, vals, words = _fill(12, 2000, 2)
    small, small_vals, _ = kernel.new_tables(4)         # 16 rows: most entries must go
    used = kernel.rehash(keys, small)
    assert used == 16
    kept = sorted(int(r[4]) for r in small)
    # the 16 rows hold entries from the top of the work order (works are 1..2000)
    assert min(kept) > 1000


@pytest.mark.parametrize("threads", [1, 2])
def test_a_growing_table_gives_the_same_bits_as_a_large_fixed_one(threads):
    state = late_position(63, 12)
    fixed = Expectimax(20, threads=threads).value(state)
    grow = Expectimax(8, max_table_bits=16, threads=threads)
    iv = grow.value(state)
    assert fixed.exact and iv.exact
    assert iv.lo == fixed.lo                       # the same bits
    assert grow.grown >= 2 and grow.table_bits > 8
    # the grown table is used: asking again costs no node
    n = grow.nodes
    assert grow.value(state).lo == fixed.lo and grow.nodes == n
    grow.clear()
    assert grow.table_bits == 8 and grow.nodes == 0


def test_a_growing_table_keeps_node_budgets_and_sound_bounds():
    state = late_position(63, 12)
    exact = Expectimax(20).value(state).lo
    for budget in (1, 50, 3000, 20000):
        s = Expectimax(8, max_table_bits=16)
        iv = s.value(state, budget_nodes=budget)
        assert iv.lo <= exact <= iv.hi
        assert s.nodes <= budget + 1
    s = Expectimax(8, max_table_bits=16)
    iv = s.value(state, budget_s=0.0)
    assert iv.lo <= exact <= iv.hi


def test_growing_tables_agree_with_the_brute_force():
    for text, state, naive in _walk(7, 40, max_deck=6):
        exact = float(max(naive.values())) if not state.is_chance_node() else float(naive[""])
        iv = Expectimax(4, max_table_bits=8).value(state)
        assert iv.exact and abs(iv.lo - exact) <= 1e-12, text


def test_default_solver_grows_and_the_cap_follows_memory(monkeypatch):
    s = Expectimax()
    assert s.table_bits == 20 and s.growable
    import solver.expectimax.solver as emx_solver
    assert 10 <= memory_cap_bits() <= 30
    monkeypatch.setattr(emx_solver, "available_memory", lambda: 64 * (1 << 12) * 2)
    assert memory_cap_bits() == 12
    monkeypatch.setattr(emx_solver, "available_memory", lambda: None)
    assert memory_cap_bits() == 24
    # no memory to grow into: growth stops and the search goes on in the table it has
    monkeypatch.setattr(emx_solver, "available_memory", lambda: 0)
    small = Expectimax(6, max_table_bits=12)
    state = late_position(63, 10)
    iv = small.value(state)
    assert iv.exact and iv.lo == Expectimax(18).value(state).lo
    assert small.table_bits == 6 and not small.growable


def test_bad_table_sizes_are_refused():
    for bad in (3, 35, 2.5, "20"):
        with pytest.raises(ValueError):
            Expectimax(bad)
        with pytest.raises(ValueError):
            Expectimax(10, max_table_bits=bad)


def test_no_growth_that_the_time_budget_cannot_pay_for(monkeypatch):
    """Near a deadline the table does not grow (making a large table takes seconds on a
    machine that touches new memory slowly); without a deadline it does."""
    import solver.expectimax.solver as emx_solver
    state = late_position(63, 12)
    monkeypatch.setattr(emx_solver, "GROW_BYTES_PER_S", 1.0)     # every growth "takes" hours
    timed = Expectimax(8, max_table_bits=16)
    iv = timed.value(state, budget_s=60.0)
    assert timed.grown == 0 and iv.exact
    free = Expectimax(8, max_table_bits=16)
    assert free.value(state).lo == iv.lo and free.grown >= 2


def test_small_queries_do_not_grow_the_table():
    """A query allowed fewer nodes than 1/16 of the table's rows does not grow it, even
    when growth is due; a query without a node budget then does."""
    s = Expectimax(12, max_table_bits=16)          # 4096 rows: queries of < 256 nodes
    seed = 0
    while s._seen() < 2 * 4096 and seed < 2000:
        state = late_position(seed, 14)
        seed += 1
        if state is not None and state.phase not in ("won", "lost"):
            s.value(state, budget_nodes=250)
    assert s._seen() >= 2 * 4096           # growth is due ...
    assert s.table_bits == 12 and s.grown == 0  # ... but no small query paid for it
    assert s.value(state, budget_nodes=256).lo >= 0 and s.grown == 1
    assert s.table_bits == 14
