"""One Solver interface, one entry (issue 26 item 3).

* every built-in solver implements ``solver.api.Solver`` and is registered by mode;
* a new solver is one new file: registering it makes ``solver.api.rank`` use it, with the
  options it declares and no other;
* every policy has the hooks ``players`` and ``warm_up`` (no caller needs ``getattr``);
* the result vocabulary and ``EXACT_TOL`` are defined once, and the budgets have one
  spelling (``budget_nodes``, ``budget_s``) in the package's code.
"""
from __future__ import annotations

import ast
import os
import re

import pytest

from paths import ROOT
from solver import api, registry


def test_every_builtin_solver_implements_the_interface():
    entries = api.solver_entries()
    assert set(entries) == {"expectimax", "open-hands", "clairvoyant", "duo-view"}
    for mode, entry in entries.items():
        solver = entry.factory(**({"table_bits": 10} if "table_bits" in entry.options
                                  else {}))
        assert isinstance(solver, api.Solver), mode
        for opt in ("line", "tree", "certify"):
            if opt in entry.options:
                assert callable(getattr(solver, opt if opt != "certify" else "certify_block"))
        if "memo" in entry.options:
            assert callable(solver.load_memo) and callable(solver.save_memo)


@pytest.fixture
def toy_mode():
    """A solver registered by a test, as a new file would: one class, no list to edit."""

    @api.register_solver("toy", players=(1,), options=("view",),
                         doc="every action in [1/4, 3/4]")
    class Toy(api.SolverBase):
        def rank(self, state, budget_nodes=None, budget_s=None, *, on_progress=None,
                 reserve_s=0.0):
            acts = [api.ActionValue(state.action_to_string(a), 0.25, 0.75, action_id=a)
                    for a in state.legal_actions()]
            r = api.Ranking("p", "toy", acts, nodes=len(acts))
            api.finish(r)
            return r
    yield Toy
    registry._SOLVERS.pop("toy", None)


POS = ("mode=solo phase=play hand=Os,Am,Gk,Ls,Lk row=Am,Os doors=DO,DO,DA,DA,DG,DG,DL "
       "deck=* discard=Os,Os,Os,Os,Os,Os,Os,Om,Om,Om,Om,Ok,Ok,Ok,As,As,As,As,As,As,As,"
       "As,Am,Am,Ak,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gs,Gs,Gm,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,"
       "N,N,N,N,N,N,N limbo=-")


def test_a_new_solver_is_one_registration(toy_mode):
    r = api.rank(POS, mode="toy", budget_s=1.0)
    assert r.mode == "toy" and r.best is None and r.actions[0].value is None
    assert r.leader and r.criterion.startswith("highest lo")
    with pytest.raises(api.OptionError) as e:
        api.rank(POS, mode="toy", memo="x.memo")
    assert e.value.option == "memo" and "only in expectimax" in str(e.value)
    with pytest.raises(api.OptionError):
        api.rank(POS, mode="no-such-mode")


def test_every_policy_has_its_hooks():
    for name, entry in api.policy_entries().items():
        if entry.factory.__module__.split(".")[0] not in ("solver", "engine"):
            continue                         # policies registered by other tests
        p = api.make_policy(name)
        assert p.players is None or set(p.players) <= {1, 2}, name
        assert callable(p.warm_up), name
    assert api.make_policy("duo-rollout").players == (2,)


def _py_files(*folders):
    for folder in folders:
        for d, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def test_the_vocabulary_is_defined_once():
    defined: dict[str, list] = {}
    for path in _py_files("solver", "onirim"):
        tree = ast.parse(open(path).read())
        for node in tree.body:
            names = []
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for n in names:
                if n in ("Ranking", "ActionValue", "Interval", "EXACT_TOL", "bounds",
                         "finish", "sort_actions", "proven_best"):
                    defined.setdefault(n, []).append(os.path.relpath(path, ROOT))
    assert defined and all(v == [os.path.join("solver", "results.py")]
                           for v in defined.values()), defined


def test_budgets_have_one_spelling():
    bad = re.compile(r"\b(node_budget|time_budget_s)\b")
    found = [f"{os.path.relpath(p, ROOT)}:{i}" for p in _py_files("solver", "onirim")
             for i, line in enumerate(open(p), 1) if bad.search(line)]
    assert not found, found
