"""The rule verification's counts, measured: each check run for real, one row per check.

    python -m benchmarks.experiments run rule-verification      # the missing checks
    python -m benchmarks.rule_verification list                  # the checks and their commands

The paper's section "Rule verification" and the README's "Tests" section give counts: how many
random playouts the invariants were checked on, how many steps the kernel and the engine were
compared over, how many positions the expectimax kernel agreed with a brute force on...  Each
count here comes from running the check itself, never from a number typed in a text:

* the checks of the test suite are run through pytest, in this process, on the test files
  that hold them (``CHECKS``: the same tests ``make test`` runs, not a copy of their code),
  and the counts are read from what those tests counted while they ran (each test module's
  ``STATS``);
* the long differential run is ``benchmarks.diff_kernel.check_steps``, the loop of
  ``python -m benchmarks.diff_kernel --steps 10000000 --jobs 20`` (its comparison is the
  test's), one row per job, so that an interrupted run keeps the parts it finished.

Each check is one row of ``benchmarks/results/rows/rule-verification.jsonl.gz`` (written by
``python -m benchmarks.experiments``, which records the command, commit, machine and, per
row, the CPU time of this process, the wall time and the load): its verdict (``passed``:
every selected test passed, or the long run found no disagreement), its counts, and the
command that reruns it alone.  The run resumes: a check already stored is not run again.
Timing includes loading the numba kernels from their cache, as in ``make test``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

LONG_DIFF_STEPS = 10_000_000    # the long run's target (a game is finished past it)
LONG_DIFF_SEED = 0
LONG_DIFF_PARTS = 20            # stored as 20 rows, the 20 jobs of --jobs 20


@dataclass
class Check:
    name: str
    what: str
    tests: tuple = ()                       # pytest node ids (the test suite's own tests)
    counts: Callable = None     # (STATS of each test module, the modules; by file name) -> counts
    cost: str = ""
    run: Callable[[], dict] | None = None   # a check outside the test suite
    command: str = ""


def _pytest_command(tests) -> str:
    return "python -m pytest -p no:xdist -p no:cacheprovider " + " ".join(tests)


def _invariants(st, mods):
    s = st["test_invariants.py"]
    return {"playouts": s["playouts"], "steps": s["steps"],
            "reference_games": s["reference_playouts"], "reference_steps": s["reference_steps"],
            "chance_vs_deal_games": s["chance_vs_deal_playouts"],
            "illegal_refused": s["illegal_refused"],
            "string_round_trips": s["string_round_trips"]}


def _golden(st, mods):
    s = st["test_golden.py"]
    return {"games": s["games"], "actions": s["actions"]}


def _diff_test(st, mods):
    s = st["test_kernel_diff.py"]
    return {"steps": s["steps"], "games": s["games"], "parsed_steps": s["parsed_steps"]}


def _soundness(st, mods):
    s = st["test_solver_pruning.py"]
    per_rule = {k: v for k, v in s.items() if k.startswith("flags_")}
    return {"positions": min(per_rule.values()) if per_rule else 0,
            "rule_sets": len(per_rule), "beam_positions": s["beam_positions"]}


def _brute_force(st, mods):
    mod = mods["test_expectimax_agreement.py"]
    s = st["test_expectimax_agreement.py"]
    return {"positions": mod.AGREEMENT_POSITIONS, "agree": s["agree"],
            "tolerance": mod.TOLERANCE, "max_abs_error": s["max_abs_error"]}


def _fuzz(st, mods):
    s = st["test_fuzz_positions.py"]
    return {"mutants": s["mutants"], "accepted": s["accepted"], "refused": s["refused"]}


def _long_diff_part(k: int) -> Callable[[], dict]:
    """Job ``k`` of ``python -m benchmarks.diff_kernel --steps 10000000 --jobs 20``: its steps
    from seed ``k * 10**9`` (the long run in parts, so that a part stored is never rerun)."""
    def run() -> dict:
        from benchmarks.diff_kernel import check_steps
        check_steps((200, 999 * 10**9))     # the kernel loaded before the part's own work
        r = check_steps((LONG_DIFF_STEPS // LONG_DIFF_PARTS, LONG_DIFF_SEED + k * 10**9))
        if not r["ok"]:
            return {"passed": False, "counts": {"steps": None, "games": None, "part": k},
                    "failure": {x: r[x] for x in ("seed", "position") if x in r}}
        return {"passed": True, "counts": {"steps": r["steps"], "games": r["games"], "part": k,
                                           "parts": LONG_DIFF_PARTS,
                                           "target_steps": LONG_DIFF_STEPS}}
    return run


CHECKS = [
    Check("invariants", "invariants after every action of hypothesis-driven playouts, and the "
          "independent model of the rules replayed against the engine",
          ("tests/engine/test_invariants.py",), _invariants, "about 3 CPU-minutes"),
    Check("golden", "the golden playthroughs, compared action by action",
          ("tests/engine/test_golden.py",), _golden, "a second"),
    Check("diff-make-test", "the kernel against the engine, state by state, as in make test",
          ("tests/solver/clairvoyant/test_kernel_diff.py",), _diff_test, "about 1 CPU-minute"),
    Check("soundness", "each pruning rule and the transposition table against the unpruned "
          "search on positions near the end of real deals",
          ("tests/solver/clairvoyant/test_solver_pruning.py",), _soundness,
          "about 1 CPU-minute"),
    Check("brute-force", "the expectimax kernel, pruning on and off, against an independent "
          "brute force in exact fractions",
          ("tests/solver/expectimax/test_expectimax_agreement.py"
           "::test_kernel_agrees_with_brute_force",), _brute_force, "about 1.5 CPU-minutes"),
    Check("fuzz", "mutated positions: refused with a position error, or playable",
          ("tests/engine/test_fuzz_positions.py",), _fuzz, "about 20 CPU-seconds"),
] + [
    Check(f"diff-long-{k:02d}", f"part {k + 1} of {LONG_DIFF_PARTS} of the long differential "
          f"run: the kernel against the engine, state by state", run=_long_diff_part(k),
          cost="about 2 CPU-minutes",
          command=f"python -m benchmarks.diff_kernel --steps {LONG_DIFF_STEPS} --seed "
                  f"{LONG_DIFF_SEED} --jobs {LONG_DIFF_PARTS} (job {k})")
    for k in range(LONG_DIFF_PARTS)
]
BY_NAME = {c.name: c for c in CHECKS}


def command_of(c: Check) -> str:
    return c.command or _pytest_command(c.tests)


class _Collector:
    """A pytest plugin: the outcome of every test and the ``STATS`` of every test module."""

    def __init__(self):
        self.outcomes: dict[str, str] = {}
        self.stats: dict[str, dict] = {}
        self.modules: dict[str, object] = {}

    def pytest_collection_finish(self, session):
        for item in session.items:
            mod = getattr(item, "module", None)
            if mod is not None:
                self.modules[mod.__file__.rsplit("/", 1)[-1]] = mod

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.when == "call":
            self.outcomes.setdefault(report.nodeid, report.outcome)
        elif report.skipped:
            self.outcomes[report.nodeid] = "skipped"

    def pytest_sessionfinish(self, session):
        for fname, mod in self.modules.items():
            self.stats[fname] = dict(getattr(mod, "STATS", {}) or {})


def _run_tests(c: Check) -> dict:
    import pytest
    from benchmarks.rows import ROOT
    col = _Collector()
    args = ["-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
            "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
            *[str(ROOT / t) for t in c.tests]]
    code = pytest.main(args, plugins=[col])
    failed = sorted(k for k, v in col.outcomes.items() if v == "failed")
    passed = sum(v == "passed" for v in col.outcomes.values())
    counts = c.counts(col.stats, col.modules) if col.stats else {}
    return {"passed": int(code) == 0 and not failed and passed > 0, "exit_code": int(code),
            "tests_passed": passed, "tests_failed": failed,
            "tests_skipped": sum(v == "skipped" for v in col.outcomes.values()),
            "counts": counts}


def play(index: int) -> dict:
    """Run check number ``index`` of ``CHECKS`` in this process; its row (without timing)."""
    c = CHECKS[index]
    r = c.run() if c.run is not None else _run_tests(c)
    return {"seed": index, "check": c.name, "what": c.what, "command": command_of(c), **r}


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m benchmarks.rule_verification",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("cmd", choices=["list"])
    ap.parse_args(argv)
    for c in CHECKS:
        print(f"{c.name:<15} {c.cost:<24} {command_of(c)}")
    print("run them (resumable): python -m benchmarks.experiments run rule-verification")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
