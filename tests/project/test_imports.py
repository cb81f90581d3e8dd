"""No import cycles between the project's modules.

The graph is built from the source with ``ast``, without importing anything: one node per
module of ``engine``, ``solver``, ``onirim``, ``benchmarks`` and ``papers``, one edge per import statement,
*including* the ones inside functions (a function-level import hides a cycle, it does not
remove it).  ``from P import x`` counts as an import of ``P.x`` when that is a module, else of
``P``.  The implicit import of a package's ``__init__`` by its submodules is not an edge.
"""
from __future__ import annotations

import ast
import functools
import os

import networkx as nx

def _source_root() -> str:
    """The folder that holds pyproject.toml (wherever this test file sits under tests/)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, "pyproject.toml")):
        d = os.path.dirname(d)
    return d


ROOT = _source_root()
PACKAGES = ("engine", "solver", "onirim", "benchmarks", "papers")


def _modules() -> dict[str, str]:
    """module name -> file path, sub-packages included (solver.clairvoyant, ...)."""
    out = {}
    for pkg in PACKAGES:
        top = os.path.join(ROOT, pkg)
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if os.path.exists(os.path.join(folder, d, "__init__.py")))
            rel = os.path.relpath(folder, ROOT).replace(os.sep, ".")
            for f in sorted(files):
                if f.endswith(".py"):
                    name = rel if f == "__init__.py" else f"{rel}.{f[:-3]}"
                    out[name] = os.path.join(folder, f)
    return out


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@functools.lru_cache(maxsize=1)
def import_graph() -> nx.DiGraph:
    mods = _modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for name, path in mods.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        is_package = path.endswith("__init__.py")
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for t in targets:
                # the longest project module that the name starts with
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    g.add_edge(name, t, line=node.lineno)
    return g


def cycles(g: nx.DiGraph) -> list[list[str]]:
    """One cycle per strongly connected component that has one, as a list of modules."""
    out = []
    for comp in nx.strongly_connected_components(g):
        if len(comp) > 1:
            cyc = nx.find_cycle(g.subgraph(comp))
            out.append([a for a, _ in cyc] + [cyc[0][0]])
    return sorted(out)


def test_the_graph_sees_function_level_imports():
    # a check of the checker: certify's solver is called from a method of expectimax
    g = import_graph()
    assert g.has_edge("solver.expectimax.solver", "solver.expectimax.certify")
    assert g.has_edge("engine.notation", "engine.game")
    assert g.has_edge("solver.duo.search", "solver.clairvoyant.deal_kernel")
    assert len(g) >= 40


def test_the_graph_sees_papers():
    """papers/ is in the graph: the build writes the README's blocks, the check reads both
    (a cycle among them, such as the one readme -> check -> build -> readme had, fails
    test_no_import_cycles)."""
    g = import_graph()
    assert g.has_edge("papers.build", "papers.readme")
    assert g.has_edge("papers.check", "papers.build")
    assert g.has_edge("papers.readme", "papers.records")
    assert not any(a.startswith(("engine", "solver", "onirim")) and b.startswith("papers.")
                   for a, b in g.edges)


def test_the_checker_finds_a_cycle():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    [cyc] = cycles(g)
    assert len(cyc) == 4 and cyc[0] == cyc[-1] and set(cyc) == {"a", "b", "c"}
    assert cycles(nx.DiGraph([("a", "b"), ("b", "c")])) == []


def test_no_import_cycles():
    g = import_graph()
    found = cycles(g)
    lines = []
    for cyc in found:
        steps = [f"{a} (line {g.edges[a, b]['line']})" for a, b in zip(cyc, cyc[1:])]
        lines.append(" -> ".join(steps) + f" -> {cyc[-1]}")
    assert not found, "import cycles:\n" + "\n".join(lines)


def _family(module: str) -> str:
    """The sub-package of ``solver`` a module belongs to ("solver" for the top)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "solver" and len(parts) > 2 else parts[0]


def test_no_cycles_between_the_solver_families():
    """The families of ``solver`` (clairvoyant, expectimax, honest, duo, policies, runs) and its
    shared top depend on one another without a cycle: the graph of the sub-packages, with an
    edge where a module of one imports a module of another, is acyclic.  The top may import a
    family (``conformance`` checks every kernel; ``api`` loads the built-in policies)."""
    g = import_graph()
    fam = nx.DiGraph()
    for a, b in g.edges:
        if a.startswith("solver.") and b.startswith("solver."):
            fa, fb = _family(a), _family(b)
            if fa != fb and "solver" not in (fa, fb):
                fam.add_edge(fa, fb)
    assert not cycles(fam), cycles(fam)
    assert len(fam) >= 4   # the check sees the families


def test_nothing_in_the_package_imports_the_benchmarks():
    """benchmarks/ holds measurements: the engine, the solver and the command line do not
    import it, except the command that runs them (``onirim bench``)."""
    g = import_graph()
    bad = [(a, b) for a, b in g.edges
           if a.split(".")[0] in ("engine", "solver", "onirim") and b.split(".")[0] == "benchmarks"
           and a != "onirim.cmd_bench"]
    assert not bad, bad
