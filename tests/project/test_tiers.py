"""The test tiers of tests/conftest.py: every test named slow exists (a renamed or removed test
must leave the list, not linger in it), and the ``slow`` marker is registered."""
from __future__ import annotations

import ast
import os

import conftest

def _source_root() -> str:
    """The folder that holds pyproject.toml (wherever this test file sits under tests/)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, "pyproject.toml")):
        d = os.path.dirname(d)
    return d


ROOT = _source_root()
TESTS = os.path.join(ROOT, "tests")


def _test_files() -> dict[str, str]:
    out = {}
    for folder, _, files in os.walk(TESTS):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                out[f] = os.path.join(folder, f)
    return out


def test_every_slow_test_exists():
    files = _test_files()
    missing = []
    for name, tests in conftest.SLOW.items():
        if name not in files:
            missing.append(name)
            continue
        with open(files[name]) as f:
            defs = {n.name for n in ast.walk(ast.parse(f.read()))
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        missing += [f"{name}::{t}" for t in tests if t.split("[")[0] not in defs]
    assert not missing, f"tests/conftest.py names tests that do not exist: {missing}"


def test_marking_rule():
    assert conftest.is_slow("test_cli.py", "test_demo_solver_job")
    assert not conftest.is_slow("test_cli.py", "test_demo_solver_job_x")
    assert not conftest.is_slow("test_rules.py", "test_demo_solver_job")
    assert conftest.is_slow("test_bench.py", "anything", fixtures=("tmp_path", "quick_result"))
    # every parametrization, or one
    assert conftest.is_slow("test_fuzz_positions.py", "test_mutated_positions_are_refused_or_playable[3]")
    assert conftest.is_slow("test_view.py", "test_no_policy_decision_depends_on_the_hidden_order[rollout]")
    assert not conftest.is_slow("test_view.py", "test_no_policy_decision_depends_on_the_hidden_order[greedy]")


def test_the_slow_marker_is_registered():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        text = f.read()
    assert '"slow:' in text.split("[tool.pytest.ini_options]")[1]
