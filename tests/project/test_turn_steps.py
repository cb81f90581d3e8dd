"""Each decision of the turn's automatic part is written once (issue 26): the shared steps of
``solver/steps.py`` are defined there and nowhere else in ``solver/``, and each of the five
deck models calls them (``steps.<step>``, read with ``ast``) instead of deciding itself.  A rule
change then touches ``engine/`` and one function of ``solver/steps.py`` (docs/SOLVER.md,
"Changing a rule"); whether the kernels still agree with the engine is the conformance
test's job (tests/solver/test_conformance.py)."""
from __future__ import annotations

import ast
import os

import pytest

from paths import ROOT

TURN_STEPS = ("hand_full", "fill_zone", "draft_dealt", "draft_done", "draw_next", "refill_card",
              "door_waits", "may_gain_door", "redraw_card", "reveal_card", "limbo_back",
              "discard_foresees", "foresee_reveals", "prophecy_count")
_SOLO = {"hand_full", "draw_next", "refill_card", "door_waits", "may_gain_door", "redraw_card",
         "reveal_card", "limbo_back", "discard_foresees", "foresee_reveals", "prophecy_count"}
_DUO = (_SOLO - {"hand_full"}) | {"fill_zone", "draft_done"}
# the steps each deck model calls itself; the information-state kernel (solver/honest/state.py)
# plays one and two players, so it calls the two-player steps too (solver/duo/info_state.py
# holds the two-player encoding and the partner's deal, no turn).  The deal-mode turn is
# written once, in solver/deal_turn_template.py, and generated per player count
# (solver/specialise.py): each generated module keeps its own count's calls; two are made in
# the layouts' accessors (the solo ``_redraw_card``, which the deal-mode playouts call too,
# and the two-player ``_missing_zone``).
CALLS = {
    "solver/deal_turn_template.py": (_SOLO | _DUO) - {"fill_zone"},
    "solver/clairvoyant/deal_turn.py": _SOLO - {"redraw_card"},
    "solver/clairvoyant/deal_kernel.py": {"redraw_card"},
    "solver/duo/kernel.py": {"fill_zone"},
    "solver/honest/state.py": _SOLO | {"fill_zone", "draft_dealt", "draft_done"},
    "solver/expectimax/rules.py": _SOLO,
    "solver/duo/deal_turn.py": _DUO - {"fill_zone"},
}


def _tree(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return ast.parse(f.read())


def _solver_sources():
    for d, _dirs, files in os.walk(os.path.join(ROOT, "solver")):
        for name in files:
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(d, name), ROOT)


def test_each_turn_step_is_defined_once():
    where = {s: [] for s in TURN_STEPS}
    for rel in _solver_sources():
        for node in ast.walk(_tree(rel)):
            if isinstance(node, ast.FunctionDef) and node.name in where:
                where[node.name].append(rel)
    assert where == {s: ["solver/steps.py"] for s in TURN_STEPS}


@pytest.mark.parametrize("rel", sorted(CALLS))
def test_each_deck_model_calls_the_shared_steps(rel):
    called = {n.attr for n in ast.walk(_tree(rel))
              if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
              and n.value.id == "steps"}
    assert CALLS[rel] <= called, sorted(CALLS[rel] - called)
