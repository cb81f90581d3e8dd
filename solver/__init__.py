"""onirim solvers: the bit-packed numba kernel and the clairvoyant (perfect-information) search.

Numba's on-disk cache (``cache=True``) checks only the source file of the cached function, so a
cached search that was compiled with an older copy of a kernel function it calls (from another
file) would silently keep the old code.  To rule that out, every ``cache=True`` function of
this package is stamped with a hash of its own file *and* of the shared kernel sources
(``CORE``): editing a kernel file recompiles every cached function of the package that may
have inlined or linked it.  ``tests/project/test_numba_cache_stamp.py`` checks that every module whose
kernels a cached function of another module calls is in ``CORE``.  The kernels also compile in
the rules vocabulary of ``engine/`` (``ENGINE_CORE``: card counts, rule sizes, phase numbers
and action numbers, frozen as constants), so those files are part of the stamp too.
"""
from __future__ import annotations

import hashlib
import os

_DIR = os.path.dirname(os.path.abspath(__file__))
_ENGINE_DIR = os.path.join(os.path.dirname(_DIR), "engine")


CORE = ("board.py", "kernel.py", "rules_core.py", "tt.py", "search.py", "beam.py",
        "expectimax_kernel.py", "exk_control.py", "exk_fields.py", "exk_rules.py",
        "exk_bound.py", "exk_table.py", "exk_chance.py", "exk_search.py", "duo_kernel.py")
ENGINE_CORE = ("cards.py", "rules.py", "game.py", "actions.py")


def _digest(names, folder=None) -> bytes:
    h = hashlib.sha256()
    for name in names:
        try:
            with open(os.path.join(folder or _DIR, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
        except OSError:
            h.update(name.encode() + b"\0missing\0")
    return h.digest()


def _install_cache_locator() -> None:
    try:
        from numba.core import caching
    except Exception:  # pragma: no cover - numba without the caching module
        return
    impl = getattr(caching, "CacheImpl", None)
    bases = [getattr(caching, n, None) for n in ("UserProvidedCacheLocator",
                                                 "InTreeCacheLocator")]
    if bases[1] is None or impl is None or not hasattr(impl, "_locator_classes"):
        return  # an unknown numba layout: keep numba's own behaviour
    if any(getattr(c, "_onirim_solver", False) for c in impl._locator_classes):
        return
    core = _digest(CORE) + _digest(ENGINE_CORE, _ENGINE_DIR)

    def stamped(base):
        class _SolverCacheLocator(base):
            _onirim_solver = True

            @classmethod
            def from_function(cls, py_func, py_file):
                if os.path.dirname(os.path.abspath(py_file)) != _DIR:
                    return None
                return super().from_function(py_func, py_file)

            def get_source_stamp(self):
                return core + _digest((os.path.basename(self._py_file),))
        return _SolverCacheLocator

    # NUMBA_CACHE_DIR, when set, is honoured first (the user-provided locator declines
    # otherwise), then the cache beside the sources, as numba itself orders them
    for base in reversed([b for b in bases if b is not None]):
        impl._locator_classes.insert(0, stamped(base))


_install_cache_locator()
