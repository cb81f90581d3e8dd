"""The on-disk numba cache must notice an edit to any kernel file that a cached function of
another file calls (solver/__init__.py): numba links the callee's code into the caller's
cache entry, and checks only the caller's own file.  Every solver module whose functions are
called from a cached function in another module must therefore be in ``solver.CORE``, which
stamps every cached function of the package."""
import ast
import os

import solver

SOLVER = os.path.dirname(os.path.abspath(solver.__file__))


def _modules():
    return sorted(f[:-3] for f in os.listdir(SOLVER) if f.endswith(".py"))


def _tree(name):
    with open(os.path.join(SOLVER, name + ".py")) as f:
        return ast.parse(f.read())


def _has_jit(tree, cached_only=False):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                src = ast.unparse(d)
                if "njit" in src or "jit(" in src or src.endswith("jit"):
                    if not cached_only or "cache=True" in src:
                        return True
    return False


def _solver_imports(tree, own):
    mods = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:          # from . import x
                mods |= {a.name for a in node.names}
            elif node.level == 1:                                 # from .x import y
                mods.add(node.module.split(".")[0])
            elif node.module and node.module.startswith("solver."):
                mods.add(node.module.split(".")[1])
            elif node.module == "solver":                         # from solver import x
                mods |= {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("solver."):
                    mods.add(a.name.split(".")[1])
    mods.discard(own)
    return mods


def _reached(m, trees, jitted, seen=None):
    """The kernel modules whose functions module m may call: those it imports, and through
    a module without kernels of its own (a re-export such as ``expectimax_kernel``), the
    kernel modules that one imports."""
    seen = set() if seen is None else seen
    out = set()
    for dep in _solver_imports(trees[m], m):
        if dep not in trees or dep in seen:
            continue
        seen.add(dep)
        if dep in jitted:
            out.add(dep)
        else:
            out |= _reached(dep, trees, jitted, seen)
    return out


def test_every_kernel_module_called_from_a_cached_function_is_stamped():
    mods = _modules()
    trees = {m: _tree(m) for m in mods}
    jitted = {m for m in mods if _has_jit(trees[m])}
    missing = set()
    for m in mods:
        if not _has_jit(trees[m], cached_only=True):
            continue
        for dep in _reached(m, trees, jitted):
            if dep + ".py" not in solver.CORE:
                missing.add((m, dep))
    assert not missing, f"cached functions call kernels of files not in solver.CORE: {missing}"


def test_a_re_export_counts_as_the_kernels_it_gathers():
    """``certify`` calls the search through ``expectimax_kernel``, which only re-exports
    the ``exk_*`` modules: those are what the stamp must cover."""
    mods = _modules()
    trees = {m: _tree(m) for m in mods}
    jitted = {m for m in mods if _has_jit(trees[m])}
    assert "expectimax_kernel" not in jitted
    assert {"exk_search", "exk_rules"} <= _reached("certify", trees, jitted)


def test_the_stamp_changes_with_every_core_file(tmp_path, monkeypatch):
    # the digest covers the content of each CORE file, not only its name
    a = solver._digest(solver.CORE)
    monkeypatch.setattr(solver, "_DIR", str(tmp_path))
    for name in solver.CORE:
        (tmp_path / name).write_text("x = 1\n")
    b = solver._digest(solver.CORE)
    (tmp_path / solver.CORE[-1]).write_text("x = 2\n")
    assert len({a, b, solver._digest(solver.CORE)}) == 3


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
    imports is in ``solver.ENGINE_CORE``."""
    missing = set()
    for m in _modules():
        tree = _tree(m)
        if not _has_jit(tree, cached_only=True):
            continue
        for dep in _engine_imports(tree):
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
