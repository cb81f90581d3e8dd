"""No bare rule size in a kernel: the kernels take hand size, prophecy size, Doors per colour
and Doors to win by name (``engine.rules``, or the shared steps of ``solver.steps``), so that a
rule change is made in the engine and in the one shared place (issue 26).

The scan is syntactic (Python's ``ast``), in the positions where a number *is* a rule size,
so that it does not flag the many small numbers of bit layouts (shifts, masks, widths):

* ``min(N, ...)`` / ``min(..., N)`` with N = PROPHECY_SIZE (how many cards a prophecy or the
  Nightmare's reveal takes: :func:`solver.steps.prophecy_count`);
* ``range(N)`` with N = PROPHECY_SIZE (a loop over the revealed cards);
* a comparison of a hand's size (an operand that names a hand: ``hand``, ``hs``, ``HSIZE``)
  with HAND_SIZE (``hs == 5``);
* a comparison of a Door count (an operand that names Doors: ``doors``, ``doors_get``,
  ``NDOORS``, the honest kernel's slots ``DR``) with DOORS_TO_WIN or DOORS_PER_COLOUR
  (``S[NDOORS] == 8``, ``doors[col] < 2``), and ``2 - doors[...]``;
* ``// 24``, ``% 24``, ``* 24`` with 24 = the prophecy's orders (:data:`solver.steps.PERM_STRIDE`).

A number in these positions is a rule size: the layout's numbers are shifts, masks and
widths, and a comparison of a layout slot (``j < 8``) names no hand and no Door.  The test checks
itself: a source with each kind of bare size is flagged, the same source with names is not.
"""
from __future__ import annotations

import ast
import os

import pytest

from engine import rules
from paths import ROOT

# the kernels: every numba source of the solver that plays the rules (the shared steps too)
KERNELS = (
    "solver/board.py", "solver/steps.py", "solver/rules_core.py",
    "solver/clairvoyant/deal_kernel.py", "solver/clairvoyant/playouts.py",
    "solver/clairvoyant/search.py", "solver/clairvoyant/beam.py",
    "solver/duo/kernel.py", "solver/duo/search.py", "solver/deal_turn_template.py",
    "solver/duo/info_state.py", "solver/duo/info_greedy.py", "solver/duo/info_playouts.py",
    "solver/honest/state.py", "solver/honest/greedy.py", "solver/honest/playouts.py",
    "solver/honest/strong.py", "solver/honest/screening.py", "solver/honest/learned2.py",
    "solver/expectimax/rules.py", "solver/expectimax/bound.py", "solver/expectimax/chance.py",
    "solver/expectimax/search.py", "solver/expectimax/fields.py",
)
PERM_STRIDE = 24       # (PROPHECY_SIZE - 1)! under today's rules; solver.steps computes it


def _int(node):
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _int(node.operand)
        return None if v is None else -v
    return None


def _idents(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _names_doors(nodes) -> bool:
    """An operand that counts Doors: it names doors (``doors``, ``doors_get``, ``NDOORS``) or
    the honest kernel's Door slots ``DR``."""
    return any("door" in i.lower() or i == "DR" for n in nodes for i in _idents(n))


def _names_hand(nodes) -> bool:
    """An operand that counts a hand: it names one (``hand``, ``hs``, ``HSIZE``)."""
    return any("hand" in i.lower() or i in ("hs", "HSIZE") for n in nodes for i in _idents(n))


def bare_sizes(source: str) -> list[tuple[int, str]]:
    """(line, what) of every rule size written as a number in ``source``."""
    tree = ast.parse(source)
    hits = []

    def seg(node):
        return ast.get_source_segment(source, node) or ""

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [_int(a) for a in node.args]
            if node.func.id == "min" and rules.PROPHECY_SIZE in args:
                hits.append((node.lineno, f"min with the prophecy size: {seg(node)}"))
            if node.func.id == "range" and len(node.args) == 1 and args[0] == rules.PROPHECY_SIZE:
                hits.append((node.lineno, f"range over the prophecy size: {seg(node)}"))
        elif isinstance(node, ast.Compare):
            ops = [node.left] + list(node.comparators)
            for i, x in enumerate(ops):
                v = _int(x)
                others = [o for j, o in enumerate(ops) if j != i]
                if v == rules.HAND_SIZE and _names_hand(others):
                    hits.append((node.lineno, f"hand size as {v}: {seg(node)}"))
                if v == rules.DOORS_TO_WIN and _names_doors(others):
                    hits.append((node.lineno, f"Doors to win as {v}: {seg(node)}"))
                if v == rules.DOORS_PER_COLOUR and _names_doors(others):
                    hits.append((node.lineno, f"Door count against {v}: {seg(node)}"))
        elif isinstance(node, ast.BinOp):
            lv, rv = _int(node.left), _int(node.right)
            if isinstance(node.op, (ast.FloorDiv, ast.Mod, ast.Mult)) and PERM_STRIDE in (lv, rv):
                hits.append((node.lineno, f"the prophecy's orders as {PERM_STRIDE}: {seg(node)}"))
            if isinstance(node.op, ast.Sub) and lv == rules.DOORS_PER_COLOUR \
                    and _names_doors([node.right]):
                hits.append((node.lineno, f"Doors needed as {lv} - ...: {seg(node)}"))
    return sorted(set(hits))


@pytest.mark.parametrize("path", KERNELS)
def test_no_bare_rule_size_in_a_kernel(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        hits = bare_sizes(f.read())
    assert not hits, f"{path}: rule sizes written as numbers (take them from engine.rules " \
                     f"or solver.steps): " + "; ".join(f"line {n}: {w}" for n, w in hits)


def test_the_kernel_list_is_complete():
    """Every solver source that compiles rule steps (imports solver.board or solver.steps) is
    scanned."""
    found = set()
    for folder, dirs, files in os.walk(os.path.join(ROOT, "solver")):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if "@njit" in text and ("board as B" in text or "steps as X" in text):
                found.add(os.path.relpath(path, ROOT).replace(os.sep, "/"))
    assert found <= set(KERNELS), sorted(found - set(KERNELS))


BAD = """
k = min(5, deck_size)
for j in range(5):
    pass
if hs == 5 or S[NDOORS] == 8:
    pass
if doors[col] < 2 and S[DR + col] >= 2:
    pass
need = 2 - doors[col]
i, p = x // 24, x % 24
"""
GOOD = """
k = min(PROPHECY_SIZE, deck_size)
for j in range(PROPHECY_SIZE):
    pass
if hs == HAND_SIZE or S[NDOORS] == DOORS_TO_WIN:
    pass
if doors[col] < DOORS_PER_COLOUR and S[DR + col] >= DOORS_PER_COLOUR:
    pass
need = DOORS_PER_COLOUR - doors[col]
i, p = x // PERM_STRIDE, x % PERM_STRIDE
w = (w >> 8) & 5
if cnt[col] >= 2 and n > 2 and j < 8 and x == 5:
    pass
"""


def test_the_scan_can_fail():
    lines = [n for n, _ in bare_sizes(BAD)]
    assert lines == [2, 3, 5, 5, 7, 7, 9, 10, 10], bare_sizes(BAD)
    assert bare_sizes(GOOD) == []
