"""The on-disk numba cache must notice an edit to any kernel file that a cached function of
another file calls (solver/__init__.py): numba links the callee's code into the caller's
cache entry, and checks only the caller's own file.  So every cached function of the package,
in whichever sub-package it lives, is stamped with a digest of every kernel source file of the
package (``solver.kernel_files()``).  These tests enumerate the cached functions (by importing
every module of the package and by reading every source file) rather than listing a folder."""
import ast
import functools
import importlib
import os
import pkgutil

from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher

import solver

SOLVER = os.path.dirname(os.path.abspath(solver.__file__))


def _files():
    """module name -> path of every source file of the package, sub-packages included."""
    out = {}
    for folder, dirs, files in os.walk(SOLVER):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), os.path.dirname(SOLVER))
                name = rel[:-3].replace(os.sep, ".")
                out[name[:-len(".__init__")] if name.endswith(".__init__") else name] = \
                    os.path.join(folder, f)
    return out


def _rel(path):
    return os.path.relpath(path, SOLVER).replace(os.sep, "/")


def _tree(path):
    with open(path) as f:
        return ast.parse(f.read())


def _jit_calls(tree):
    """Every numba jit decorator or call (``@njit``, ``@nb.njit(...)``, ``njit(...)(f)``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            yield from node.decorator_list
        elif isinstance(node, ast.Call):
            yield node


def _is_jit(node):
    f = node.func if isinstance(node, ast.Call) else node
    src = ast.unparse(f)
    return src == "njit" or src == "jit" or src.endswith((".njit", ".jit"))


def _has_jit(tree, cached_only=False):
    for node in _jit_calls(tree):
        if _is_jit(node):
            if not cached_only:
                return True
            if isinstance(node, ast.Call) and any(
                    k.arg == "cache" and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in node.keywords):
                return True
    return False


def _cached_dispatchers():
    """(module, name, dispatcher) for every numba dispatcher with the on-disk cache on, found
    by importing every module of the package (importing compiles nothing)."""
    out = []
    for m in pkgutil.walk_packages(solver.__path__, "solver."):
        mod = importlib.import_module(m.name)
        for name, obj in vars(mod).items():
            if isinstance(obj, Dispatcher) and not isinstance(obj._cache, NullCache):
                out.append((m.name, name, obj))
    return out


def test_every_cached_dispatcher_of_the_package_is_stamped():
    found = _cached_dispatchers()
    assert len(found) > 150      # the walk sees the kernels of every family
    families = {mod.split(".")[1] for mod, _, _ in found}
    assert {"clairvoyant", "expectimax", "honest", "duo"} <= families
    kernels = set(solver.kernel_files())
    bad = []
    for mod, name, d in found:
        locator = d._cache._impl.locator
        src = d.py_func.__code__.co_filename
        if not getattr(type(locator), "_onirim_solver", False) or _rel(src) not in kernels:
            bad.append(f"{mod}.{name} ({_rel(src)})")
    assert not bad, f"cached functions without the package's stamp: {bad}"


def test_every_file_with_a_cached_kernel_is_in_the_digest():
    """Read from the source with ``ast`` (independently of the pattern kernel_files uses)."""
    files = _files()
    cached = {_rel(p) for p in files.values() if _has_jit(_tree(p), cached_only=True)}
    assert {"clairvoyant/playouts.py", "honest/state.py", "honest/playouts.py",
            "expectimax/search.py", "duo/kernel.py", "board.py", "steps.py"} <= cached
    assert cached <= set(solver.kernel_files()), cached - set(solver.kernel_files())


def _solver_imports(tree, own, is_pkg, names):
    """The package's modules that a module imports (any level, inside functions too)."""
    base_pkg = own if is_pkg else own.rpartition(".")[0]
    mods = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = base_pkg.split(".")
                base = base[:len(base) - (node.level - 1)]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in names else base
                       for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        for t in targets:
            while t and t not in names:
                t = t.rpartition(".")[0]
            if t and t != own and t != "solver":
                mods.add(t)
    return mods


def _reached(m, imports, jitted, seen=None):
    """The modules whose names a module m may read: those it imports, and through a module
    without kernels of its own (a re-export such as ``solver.expectimax.kernel``), the modules
    that one imports."""
    seen = set() if seen is None else seen
    out = set()
    for dep in imports[m]:
        if dep in seen:
            continue
        seen.add(dep)
        out.add(dep)
        if dep not in jitted:
            out |= _reached(dep, imports, jitted, seen)
    return out


@functools.lru_cache(maxsize=1)
def _graph():
    files = _files()
    trees = {m: _tree(p) for m, p in files.items()}
    imports = {m: _solver_imports(trees[m], m, files[m].endswith("__init__.py"), files)
               for m in files}
    jitted = {m for m in files if _has_jit(trees[m])}
    return files, trees, imports, jitted


# Modules that files with cached kernels import for their plain-Python side only (exceptions
# raised before a kernel runs, budget checks, the Python encoder of engine states, the result
# types, the registry a solver class registers in): no kernel reads a name of theirs, so they
# need not be in the digest.
PYTHON_ONLY = {"solver.errors", "solver.budgets", "solver.clairvoyant.solve",
               "solver.expectimax.encode", "solver.registry"}


def test_every_kernel_module_called_from_a_cached_function_is_stamped():
    """Every module of the package that a module with cached functions imports (and, through
    a module without kernels, what that one imports) is in the digest, or is one of the few
    plain-Python modules listed above: a new constants module or re-export fails here until
    it is in ``solver.SHARED``."""
    files, trees, imports, jitted = _graph()
    kernels = set(solver.kernel_files())
    missing = set()
    for m in files:
        if not _has_jit(trees[m], cached_only=True):
            continue
        own = set(solver.stamp_files(_rel(files[m])))
        todo, seen = [m], {m}
        while todo:     # what m reaches, and what the kernels it reaches reach in turn
            for dep in _reached(todo.pop(), imports, jitted):
                if dep in seen:
                    continue
                seen.add(dep)
                todo.append(dep)
                if dep in PYTHON_ONLY:
                    continue
                if _rel(files[dep]) not in kernels or _rel(files[dep]) not in own:
                    missing.add((m, dep))
    assert not missing, f"cached functions call kernels of files not in the digest: {missing}"


def test_a_file_is_stamped_by_what_it_reaches_and_not_by_other_families():
    """The stamp is per file: the solo clairvoyant search is not recompiled by an edit of the
    two-player information-state kernel, and the two-player honest playouts are by an edit of
    the solo information-state kernel whose draw step they import."""
    assert "duo/info_state.py" not in solver.stamp_files("clairvoyant/search.py")
    assert "bound/kernel.py" not in solver.stamp_files("honest/strong.py")
    assert {"honest/state.py", "duo/info_state.py", "board.py", "steps.py"} <= \
        set(solver.stamp_files("duo/info_playouts.py"))
    assert "expectimax/search.py" in solver.stamp_files("expectimax/kernel.py")   # re-export


def test_the_import_closure_follows_every_form_of_import(tmp_path):
    (tmp_path / "fam").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "fam" / "__init__.py").write_text("from .c import z\n")
    for name in ("a", "b", "c", "d", "e", "f"):
        (tmp_path / "fam" / f"{name}.py").write_text("@njit(cache=True)\ndef g(): pass\n")
    (tmp_path / "top.py").write_text(
        "import solver.fam.a as A\n"
        "from solver.fam import (b,  # a comment\n    e)\n"
        "def f():\n    from .fam.d import g\n    from solver.fam import z\n")
    got = solver.package_imports("top.py", str(tmp_path))
    assert got == {"fam/a.py", "fam/b.py", "fam/e.py", "fam/d.py", "fam/__init__.py"}, got
    assert "fam/c.py" in solver.stamp_files("top.py", str(tmp_path))      # via the re-export
    assert "fam/f.py" not in solver.stamp_files("top.py", str(tmp_path))


def _shared_modules():
    return {"solver." + f[:-3].replace("/", ".") for f in solver.SHARED}


def test_a_re_export_counts_as_the_kernels_it_gathers():
    """``certify`` calls the search through ``solver.expectimax.kernel``, which only
    re-exports the kernel's parts: those are what the stamp must cover."""
    files, trees, imports, jitted = _graph()
    assert "solver.expectimax.kernel" not in jitted
    assert {"solver.expectimax.search", "solver.expectimax.rules"} <= \
        _reached("solver.expectimax.certify", imports, jitted)


def test_the_shared_files_exist_and_are_read_by_kernels():
    """Each entry of ``SHARED`` is a real file that a module with cached kernels imports."""
    files, trees, imports, jitted = _graph()
    users = {dep for m in files if _has_jit(trees[m], cached_only=True) for dep in imports[m]}
    for mod in _shared_modules():
        assert mod in files, mod
        assert mod in users, f"{mod} is in SHARED but no cached kernel imports it"


def test_the_stamp_changes_with_every_kernel_file(tmp_path):
    # the digest covers the content of each kernel file, not only its name
    names = solver.kernel_files()
    a = solver._digest(names)
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    b = solver._digest(names, str(tmp_path))
    (tmp_path / names[-1]).write_text("x = 2\n")
    assert len({a, b, solver._digest(names, str(tmp_path))}) == 3


def test_kernel_files_finds_a_new_kernel_in_a_new_sub_package(tmp_path):
    (tmp_path / "fam").mkdir()
    (tmp_path / "fam" / "k.py").write_text("@nb.njit(inline='always', cache=True)\ndef f(): pass\n")
    (tmp_path / "fam" / "plain.py").write_text("x = 1  # not cached: njit(f)\n")
    (tmp_path / "top.py").write_text("g = njit(cache=True, inline='always')(f)\n")
    got = solver.kernel_files(str(tmp_path))
    assert "fam/k.py" in got and "top.py" in got and "fam/plain.py" not in got


def test_the_locator_takes_the_whole_package_and_nothing_else():
    assert solver.in_package(os.path.join(SOLVER, "clairvoyant", "playouts.py"))
    assert solver.in_package(os.path.join(SOLVER, "board.py"))
    assert not solver.in_package(os.path.join(os.path.dirname(SOLVER), "benchmarks", "x.py"))
    assert not solver.in_package(SOLVER + "_other" + os.sep + "x.py")


def _engine_imports(tree):
    """Engine modules imported at module level (a kernel sees only module globals)."""
    mods = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "engine":                           # from engine import x
                mods |= {a.name for a in node.names}
            elif node.module.startswith("engine."):
                mods.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("engine."):
                    mods.add(a.name.split(".")[1])
    return mods


def test_every_engine_module_a_cached_function_may_freeze_is_stamped():
    """A kernel freezes the module globals it reads (card counts, rule sizes, phase and
    action numbers) into its compiled code, so an edit of the engine file that defines them
    must recompile it: every engine module that a solver module with cached functions
    (or a shared kernel file) imports is in ``solver.ENGINE_CORE``."""
    files, trees, imports, jitted = _graph()
    missing = set()
    for m, path in files.items():
        if not (_has_jit(trees[m], cached_only=True) or m in _shared_modules()):
            continue
        for dep in _engine_imports(trees[m]):
            if dep + ".py" not in solver.ENGINE_CORE:
                missing.add((m, dep))
    assert not missing, f"cached functions may freeze engine modules not stamped: {missing}"


def test_the_stamp_changes_with_the_rules_vocabulary(tmp_path):
    a = solver._digest(solver.ENGINE_CORE, solver._ENGINE_DIR)
    for name in solver.ENGINE_CORE:
        (tmp_path / name).write_text("x = 1\n")
    b = solver._digest(solver.ENGINE_CORE, str(tmp_path))
    (tmp_path / "rules.py").write_text("x = 2\n")
    assert len({a, b, solver._digest(solver.ENGINE_CORE, str(tmp_path))}) == 3
