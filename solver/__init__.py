"""onirim solvers: the bit-packed numba kernel and the clairvoyant (perfect-information) search.

Numba's on-disk cache (``cache=True``) checks only the source file of the cached function, so a
cached search that was compiled with an older copy of a kernel function it calls (from another
file) would silently keep the old code.  To rule that out, every ``cache=True`` function of
this package is stamped with a hash of its own file *and* of the shared kernel sources
(``CORE``): editing a kernel file recompiles every cached function of the package that may
have inlined or linked it.  ``tests/test_numba_cache_stamp.py`` checks that every module whose
kernels a cached function of another module calls is in ``CORE``.
"""
from __future__ import annotations

import hashlib
import os

_DIR = os.path.dirname(os.path.abspath(__file__))


CORE = ("kernel.py", "rules_core.py", "tt.py", "search.py", "beam.py",
        "expectimax_kernel.py", "duo_kernel.py")


def _digest(names) -> bytes:
    h = hashlib.sha256()
    for name in names:
        try:
            with open(os.path.join(_DIR, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
        except OSError:
            h.update(name.encode() + b"\0missing\0")
    return h.digest()


def _install_cache_locator() -> None:
    try:
        from numba.core import caching
    except Exception:  # pragma: no cover - numba without the caching module
        return
    base = getattr(caching, "InTreeCacheLocator", None)
    impl = getattr(caching, "CacheImpl", None)
    if base is None or impl is None or not hasattr(impl, "_locator_classes"):
        return  # an unknown numba layout: keep numba's own behaviour
    if any(getattr(c, "_onirim_solver", False) for c in impl._locator_classes):
        return
    core = _digest(CORE)

    class _SolverCacheLocator(base):
        _onirim_solver = True

        @classmethod
        def from_function(cls, py_func, py_file):
            if os.path.dirname(os.path.abspath(py_file)) != _DIR:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return core + _digest((os.path.basename(self._py_file),))

    impl._locator_classes.insert(0, _SolverCacheLocator)


_install_cache_locator()
