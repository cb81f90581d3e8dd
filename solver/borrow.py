"""A view of a numba array without a reference count, for kernels whose hot path passes
long-lived arrays down many calls (docs/SOLVER.md, "Borrowed views").

Numba counts references to every array it holds: each time a function receives an array,
takes a view of it or passes it on, it emits an ``NRT_incref``/``NRT_decref`` pair, two atomic
operations on the array's meminfo.  :func:`borrow` returns a view whose meminfo and parent are
null, so those operations find nothing to count.  Used by the deal kernels' ``_apply`` and
``_legal`` (:mod:`solver.clairvoyant.deal_turn`, :mod:`solver.duo.deal_turn`) and by the
expectimax search's recursion (:mod:`solver.expectimax.search`).

Safe only where the caller holds the array for the whole call, so that the data outlives the
view, and where the view never escapes: it is not returned, stored or captured, only indexed
and passed down.  Never borrow an array the function itself allocated.
"""
from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` (same data, shape, strides) with null meminfo and parent: numba
    emits no reference counting for it (module docstring)."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    return sig, codegen
