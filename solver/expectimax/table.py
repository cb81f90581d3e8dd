"""Expectimax kernel (4/6), the memo table: open addressing on one ``int64`` array of
64-byte rows, each guarded by a sequence lock so that several search threads can
share it (docs/EXPECTIMAX.md section 3, "Threads"), with the LLVM atomics and the
prefetch as numba intrinsics, and the move of every entry to a larger table.
"""
from __future__ import annotations

import mmap
import threading

import numba as nb
import numpy as np
from llvmlite import ir as llvm_ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .control import CT_FULL, CT_STORED, new_counters


@nb.njit(inline="always", cache=True)
def _hash(w0, w1, w2, w3):
    h = w0 * np.int64(-7046029254386353131) + w1
    h = (h ^ (h >> 31)) * np.int64(-4658895280553007687) + w2
    h = (h ^ (h >> 29)) * np.int64(-7723592293110705685) + w3
    h = (h ^ (h >> 32)) * np.int64(-7046029254386353131)
    return h ^ (h >> 29)


PROBE = 8   # a key lives in one of the PROBE slots after its hash position


# Several threads may share one table (``Expectimax(threads=2)``).  Each row is guarded by
# a sequence lock in word 7: even when the row is stable, odd while a writer owns it.  A
# writer takes the row with a compare-and-swap from even v to v + 1 (if that fails, another
# thread is writing the row, and the store is simply dropped: the memo is only a cache),
# writes the row, and releases it with v + 2.  A reader reads v1 (acquire), the key and the
# interval, then v2 after an acquire fence, and trusts what it read only if v1 == v2 and v1
# is even: no write overlapped the read, so the key and the interval belong together.
# With a single thread every compare-and-swap succeeds and every read is trusted.
def _item_ptr(context, builder, sig, args):
    aryty = sig.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    j = context.cast(builder, args[2], sig.args[2], types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [i, j], wraparound=False)


@intrinsic
def load_acquire(typingctx, arr, i, j):
    """arr[i, j] (int64) read with acquire ordering."""
    sig = types.int64(arr, i, j)

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_item_ptr(context, builder, sig, args), "acquire", 8)
    return sig, codegen


@intrinsic
def store_release(typingctx, arr, i, j, v):
    """arr[i, j] = v (int64) with release ordering."""
    sig = types.void(arr, i, j, v)

    def codegen(context, builder, sig, args):
        val = context.cast(builder, args[3], sig.args[3], types.int64)
        builder.store_atomic(val, _item_ptr(context, builder, sig, args), "release", 8)
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def compare_swap(typingctx, arr, i, j, old, new):
    """Atomically: if arr[i, j] == old, set it to new and return True; else False."""
    sig = types.boolean(arr, i, j, old, new)

    def codegen(context, builder, sig, args):
        o = context.cast(builder, args[3], sig.args[3], types.int64)
        n = context.cast(builder, args[4], sig.args[4], types.int64)
        res = builder.cmpxchg(_item_ptr(context, builder, sig, args), o, n,
                              "acq_rel", "acquire")
        return builder.extract_value(res, 1)
    return sig, codegen


@intrinsic
def fence_acquire(typingctx):
    """An acquire fence (no earlier read moves after it)."""
    sig = types.void()

    def codegen(context, builder, sig, args):
        builder.fence("acquire")
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def prefetch_row(typingctx, arr, i):
    """Hint the CPU to fetch the cache line of arr[i, 0] (no effect on results)."""
    sig = types.void(arr, i)

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ii = context.cast(builder, args[1], sig.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [ii, zero],
                                       wraparound=False)
        i8p = llvm_ir.IntType(8).as_pointer()
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # llvm.prefetch(address, read, high locality, data cache)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return sig, codegen


if nb.config.DISABLE_JIT:
    # NUMBA_DISABLE_JIT=1 (a coverage run of the kernels as plain Python): intrinsics cannot
    # run uncompiled, so these stand-ins take their place.  The compare-and-swap holds a lock
    # so that it stays atomic between Python threads.  Compiled runs never see them.
    _CAS_LOCK = threading.Lock()

    def load_acquire(arr, i, j):             # noqa: F811
        return arr[i, j]

    def store_release(arr, i, j, v):         # noqa: F811
        arr[i, j] = v

    def compare_swap(arr, i, j, old, new):   # noqa: F811
        with _CAS_LOCK:
            if arr[i, j] != old:
                return False
            arr[i, j] = new
            return True

    def fence_acquire():                     # noqa: F811
        pass

    def prefetch_row(arr, i):                # noqa: F811
        pass


@nb.njit(inline="always", cache=True)
def prefetch_key(keys, w0, w1, w2, w3):
    """Start loading the first memo row of a key that will be probed soon: a parent hints
    all its children's rows before searching the first, so the memory latencies overlap
    (measured: about 20 % of the search time)."""
    prefetch_row(keys, _hash(w0, w1, w2, w3) & (keys.shape[0] - 1))


@nb.njit(cache=True)
def memo_get(keys, vals, w0, w1, w2, w3):
    """(found, lo, hi): the interval stored for the key, or (False, 0, 1)."""
    mask = keys.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    for _ in range(PROBE):
        v1 = load_acquire(keys, i, 7)
        k0 = keys[i, 0]
        if k0 == -1:
            return False, 0.0, 1.0
        if k0 == w0 and keys[i, 1] == w1 and keys[i, 2] == w2 and keys[i, 3] == w3:
            lo = vals[i, 5]
            hi = vals[i, 6]
            fence_acquire()
            if (v1 & 1) == 0 and keys[i, 7] == v1:
                return True, lo, hi
            return False, 0.0, 1.0       # a write overlapped: count it as a miss
        i = (i + 1) & mask
    return False, 0.0, 1.0


@nb.njit(inline="always", cache=True)
def _slot(keys, w0, w1, w2, w3):
    """The row a key is stored in: its own row in its probe window, else the first empty
    one, else the one whose entry cost the least work."""
    mask = keys.shape[0] - 1
    i = _hash(w0, w1, w2, w3) & mask
    t = -1
    for _ in range(PROBE):
        k0 = keys[i, 0]
        if k0 == -1 or (k0 == w0 and keys[i, 1] == w1 and keys[i, 2] == w2
                        and keys[i, 3] == w3):
            return i
        if t < 0 or keys[i, 4] < keys[t, 4]:
            t = i
        i = (i + 1) & mask
    return t


@nb.njit(cache=True)
def memo_store(keys, vals, ctr, w0, w1, w2, w3, lo, hi, work):
    """Store a sound interval for the key: intersected with the entry already there, else
    in the first empty slot of the key's probe window, else over the entry of the window
    that cost the least work."""
    t = _slot(keys, w0, w1, w2, w3)
    v = load_acquire(keys, t, 7)
    if (v & 1) != 0 or not compare_swap(keys, t, 7, v, v + 1):
        return           # another thread is writing this row
    if keys[t, 0] == w0 and keys[t, 1] == w1 and keys[t, 2] == w2 and keys[t, 3] == w3:
        # both intervals are sound: keep their intersection
        if vals[t, 5] > lo:
            lo = vals[t, 5]
        if vals[t, 6] < hi:
            hi = vals[t, 6]
        work += keys[t, 4]
    elif keys[t, 0] == -1:
        ctr[CT_STORED] += 1
    else:
        ctr[CT_FULL] += 1      # an entry is replaced
    keys[t, 0] = w0
    keys[t, 1] = w1
    keys[t, 2] = w2
    keys[t, 3] = w3
    keys[t, 4] = work
    vals[t, 5] = lo
    vals[t, 6] = hi
    store_release(keys, t, 7, v + 2)


@nb.njit(cache=True)
def rehash(keys, new_keys):
    """Copy every entry of ``keys`` into the empty table ``new_keys`` (a larger one), rows
    unchanged (key, work, interval; the sequence lock starts even).  A key goes to the first
    empty slot of its probe window in the new table, else over the entry of the window that
    cost the least work, if that cost less than its own (so a smaller table only loses
    work, never a wrong value).  Single-threaded: no search may run meanwhile.  Returns the
    number of entries in the new table."""
    used = 0
    for r in range(keys.shape[0]):
        if keys[r, 0] == -1:
            continue
        # keys are unique in a table, so the slot is empty or a replacement candidate
        t = _slot(new_keys, keys[r, 0], keys[r, 1], keys[r, 2], keys[r, 3])
        if new_keys[t, 0] == -1:
            used += 1
        elif new_keys[t, 4] >= keys[r, 4]:
            continue
        for j in range(7):
            new_keys[t, j] = keys[r, j]
        new_keys[t, 7] = 0
    return used


def _table_memory(rows: int) -> np.ndarray:
    """rows x 8 int64, filled with -1.  On Linux the memory is an anonymous private mapping
    advised for transparent huge pages: the memo is probed at random, and 2 MiB pages spare
    most TLB misses (about 10 % of the search time measured on a 2^24-entry table).
    Elsewhere, or if the advice is refused, plain numpy memory."""
    nbytes = rows * 64
    if nbytes >= (1 << 22) and hasattr(mmap, "MADV_HUGEPAGE") and hasattr(mmap, "MAP_PRIVATE"):
        try:
            mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            mm.madvise(mmap.MADV_HUGEPAGE)
            keys = np.frombuffer(mm, dtype=np.int64).reshape(rows, 8)
            keys.fill(-1)
            return keys
        except (OSError, ValueError, AttributeError):
            pass
    return np.full((rows, 8), -1, dtype=np.int64)


def new_tables(bits: int):
    """(keys, vals, counters): an empty memo of 2**bits rows and a counters array."""
    # one 64-byte row per entry (one cache line): key words 0..3, work 4, lo 5, hi 6 (as
    # float64 through the view ``vals`` of the same memory), 7 the row's sequence lock
    keys = _table_memory(1 << bits)
    keys[:, 7] = 0          # the sequence locks start even (free)
    vals = keys.view(np.float64)
    return keys, vals, new_counters()
