"""onirim solvers, by family: ``clairvoyant/``, ``expectimax/``, ``honest/``, ``duo/``,
``policies/``, ``runs/``, with the shared pieces at the top (see docs/SOLVER.md).

Numba's on-disk cache (``cache=True``) checks only the source file of the cached function, so a
cached search that was compiled with an older copy of a kernel function it calls (from another
file) would silently keep the old code.  To rule that out, every ``cache=True`` function of
this package, in whichever sub-package it lives, is stamped with a hash of its own file *and*
of every kernel source file that its file may reach (:func:`stamp_files`): the package's
modules that the file imports (at any depth, inside functions too), then what those import,
and so on, kept where they are kernel files (:func:`kernel_files`: each file that defines a
cached numba function, plus ``SHARED``, the files without kernels of their own whose names
kernels read: a re-export, constants, plain-Python rule code that kernels compile).  A kernel
can call only names its module holds, and a module holds only what it defines or imports, so
the import closure covers every callee.  A module generated from a template
(:mod:`solver.specialise`: the deal-mode turn per player count) brings its template and its
generator into the stamp too (:func:`generated_from`, read from its header).  Editing a kernel file recompiles the cached functions
of the files that reach it, not the whole package: an edit of the two-player information-state
kernel leaves the clairvoyant search's cache valid.
``tests/project/test_numba_cache_stamp.py`` imports every module of the package, finds every
cached dispatcher and checks that it is stamped, and checks that every module a cached function
may call is in its file's digest.  The kernels also compile in the rules vocabulary of
``engine/`` (``ENGINE_CORE``: card counts, rule sizes, phase numbers and action numbers, and
greedy's heuristic thresholds of ``engine/policy.py``, frozen as constants), so those files are
part of every stamp too.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re

_DIR = os.path.dirname(os.path.abspath(__file__))
_ENGINE_DIR = os.path.join(os.path.dirname(_DIR), "engine")


# Files (relative to this folder) without cached kernels of their own that cached kernels
# depend on: plain-Python rule code compiled by njit(...) elsewhere, the borrowed-view
# intrinsic (borrow.py), the constants of the expectimax's settings and counters, the expectimax kernel's re-export, and the learned base
# policies' weights (solver/honest/learned_weights.py, learned2_weights.py, frozen into the
# honest playouts; solver/duo/learned_weights.py, learned60_weights.py, into the two-player
# ones), and the generator of the deal-mode turn's modules (specialise.py, which each of them
# imports to check itself).
SHARED = ("rules_core.py", "borrow.py", "expectimax/control.py", "expectimax/kernel.py",
          "honest/learned_weights.py", "honest/learned2_weights.py",
          "honest/value_weights.py", "duo/value_weights.py", "duo/learned_weights.py",
          "duo/learned60_weights.py", "specialise.py")
ENGINE_CORE = ("cards.py", "rules.py", "game.py", "actions.py", "policy.py")

# a numba jit decorator or call whose arguments include cache=True (a decorator, with or
# without the module prefix, or njit applied to a function of another file)
_CACHED = re.compile(r"jit\([^)]*\bcache\s*=\s*True")


def kernel_files(root=None) -> tuple[str, ...]:
    """Every kernel source file of the package, relative to ``root`` (this folder), with '/'
    separators, sorted: the files that define a cached numba function, and ``SHARED``."""
    root = root or _DIR
    out = set(SHARED)
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8") as fh:
                    if _CACHED.search(fh.read()):
                        out.add(os.path.relpath(path, root).replace(os.sep, "/"))
    return tuple(sorted(out))


_kernel_files = functools.lru_cache(maxsize=None)(kernel_files)


def in_package(py_file) -> bool:
    """Whether a source file is part of this package (this folder or a sub-package)."""
    return os.path.abspath(py_file).startswith(_DIR + os.sep)


@functools.lru_cache(maxsize=None)
def _modules(root) -> dict[str, str]:
    """Dotted module name (``solver.honest.state``; a package by its own name) -> path
    relative to ``root``, for every source file of the package."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), root).replace(os.sep, "/")
                parts = ["solver"] + rel[:-3].split("/")
                if parts[-1] == "__init__":
                    parts.pop()
                out[".".join(parts)] = rel
    return out


_FROM = re.compile(r"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]+)", re.M)


def _add(targets, mods, rel, found) -> None:
    for t in targets:
        while t and t not in mods:
            t = t.rpartition(".")[0]
        if t and t != "solver" and mods[t] != rel:
            found.add(mods[t])


@functools.lru_cache(maxsize=None)
def package_imports(rel: str, root=None) -> frozenset[str]:
    """The package files (relative paths) that file ``rel`` imports, at any level of the file
    (inside functions too): ``from solver.honest import kernel`` is kernel.py, ``from
    solver.honest import X`` with X not a module is the sub-package's ``__init__.py``."""
    root = root or _DIR
    mods = _modules(root)
    own = next((m for m, r in mods.items() if r == rel), None)
    if own is None:
        return frozenset()
    pkg = own if rel.endswith("__init__.py") else own.rpartition(".")[0]
    with open(os.path.join(root, rel), encoding="utf-8") as fh:
        text = fh.read()
    found = set()
    # read as text, not parsed (this runs in every process that loads a kernel): a line
    # that only looks like an import (in a docstring) can add a file, never drop one
    for m in _FROM.finditer(text):
        dots, module = re.match(r"(\.*)(.*)", m.group(1)).groups()
        if dots:
            base = pkg.split(".")
            base = base[:len(base) - (len(dots) - 1)]
            base = ".".join(base + ([module] if module else []))
        else:
            base = module
        names = re.sub(r"#[^\n]*", "", m.group(2)).strip("() \n\\")
        targets = [f"{base}.{n.split()[0]}" for n in names.split(",") if n.strip()] + [base]
        _add(targets, mods, rel, found)
    for m in _IMPORT.finditer(text):
        names = re.sub(r"#.*", "", m.group(1))
        _add([n.split()[0] for n in names.split(",") if n.strip()], mods, rel, found)
    return frozenset(found)


@functools.lru_cache(maxsize=None)
def generated_from(rel: str, root=None) -> tuple[str, ...]:
    """The generator and the template (relative paths) that file ``rel`` names in its header
    if it is a generated module (read by :func:`solver.specialise.parse_header`), else ()."""
    from solver.specialise import HEADER_LINES, parse_header
    try:
        with open(os.path.join(root or _DIR, rel), encoding="utf-8") as fh:
            head = parse_header("".join(fh.readline() for _ in range(HEADER_LINES)))
    except OSError:
        return ()
    return tuple(path.removeprefix("solver/") for path in head[:2]) if head else ()


@functools.lru_cache(maxsize=None)
def stamp_files(rel: str, root=None) -> tuple[str, ...]:
    """The kernel files whose content stamps the cached functions of file ``rel`` (relative
    to this folder, '/' separators): the file itself and every kernel file in its import
    closure within the package, and the template and generator of every generated module in
    that closure, sorted."""
    root = root or _DIR
    kernels = set(_kernel_files(root))
    seen, todo = {rel}, [rel]
    while todo:
        for dep in package_imports(todo.pop(), root):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    made_from = {src for dep in seen for src in generated_from(dep, root)}
    return tuple(sorted({rel} | (seen & kernels) | made_from))


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
    core = _digest(ENGINE_CORE, _ENGINE_DIR)

    def stamped(base):
        class _SolverCacheLocator(base):
            _onirim_solver = True

            @classmethod
            def from_function(cls, py_func, py_file):
                if not in_package(py_file):
                    return None
                return super().from_function(py_func, py_file)

            def get_source_stamp(self):
                rel = os.path.relpath(os.path.abspath(self._py_file), _DIR)
                return core + _digest(stamp_files(rel.replace(os.sep, "/")))
        return _SolverCacheLocator

    # NUMBA_CACHE_DIR, when set, is honoured first (the user-provided locator declines
    # otherwise), then the cache beside the sources, as numba itself orders them
    for base in reversed([b for b in bases if b is not None]):
        impl._locator_classes.insert(0, stamped(base))


_install_cache_locator()
