"""No import cycles between the project's modules.

The graph is built from the source with ``ast``, without importing anything: one node per
module of ``engine``, ``solver``, ``onirim`` and ``benchmarks``, one edge per import statement,
*including* the ones inside functions (a function-level import hides a cycle, it does not
remove it).  ``from P import x`` counts as an import of ``P.x`` when that is a module, else of
``P``.  The implicit import of a package's ``__init__`` by its submodules is not an edge.
"""
from __future__ import annotations

import ast
import os

import networkx as nx

def _source_root() -> str:
    """The folder that holds pyproject.toml (wherever this test file sits under tests/)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, "pyproject.toml")):
        d = os.path.dirname(d)
    return d


ROOT = _source_root()
PACKAGES = ("engine", "solver", "onirim", "benchmarks")


def _modules() -> dict[str, str]:
    """module name -> file path."""
    out = {}
    for pkg in PACKAGES:
        folder = os.path.join(ROOT, pkg)
        for f in sorted(os.listdir(folder)):
            if f.endswith(".py"):
                name = pkg if f == "__init__.py" else f"{pkg}.{f[:-3]}"
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
    assert g.has_edge("solver.expectimax", "solver.certify")
    assert g.has_edge("engine.notation", "engine.game")
    assert len(g) >= 40


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
