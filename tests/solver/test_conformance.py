"""Every kernel against engine/, through the one harness (solver.conformance), and the
harness itself: a planted disagreement of each kind (fields, legal decisions, chance
outcomes, a step that diverges) must be reported, with the step where it happened."""
from __future__ import annotations

import json

import pytest

from solver import conformance as CF

STEPS = 3000


@pytest.mark.parametrize("name", sorted(CF.ADAPTERS))
def test_kernel_conforms_to_the_engine(name):
    res = CF.run(CF.ADAPTERS[name](), STEPS, seed=20261201)
    assert res.mismatch is None, str(res.mismatch)
    assert res.steps == STEPS and res.games > 5
    assert res.decisions > 0
    # the walk reaches every decision phase of the game
    assert {"play", "prophecy", "door", "nightmare"} <= set(res.phases)
    if name in ("duo", "duo-honest"):
        assert "draft" in res.phases
    if name in ("honest", "expectimax", "duo-honest"):
        assert res.chance > 0
    else:
        assert res.chance == 0
    if name == "expectimax":
        assert res.checks["one-card draws"] > 0 and res.checks["multi-card draws"] > 0
        assert res.checks["prophecy orders"] > 0


class PerturbedFields(CF.KernelAdapter):
    """The clairvoyant kernel, with one field of its state misreported at one step."""

    def __init__(self, at):
        super().__init__()
        self.at = at
        self.calls = 0

    def fields(self, ks):
        f = super().fields(ks)
        self.calls += 1
        if self.calls == self.at:
            f["shuffles"] += 1
        return f


def test_a_perturbed_field_is_reported_at_its_step():
    res = CF.run(PerturbedFields(at=400), 1000, seed=3)
    m = res.mismatch
    assert m is not None and m.what == "fields"
    # the 400th state checked: each finished game had one state more (its end) than steps
    assert m.step == 400 - 1 - m.game
    assert list(m.diff) == ["shuffles"]
    k, e = m.diff["shuffles"]
    assert k == e + 1
    assert len(m.history) > 0 and m.position


class DivergentStep(CF.HonestAdapter):
    """The honest kernel, which once plays the other legal action than the engine's."""

    def __init__(self, at):
        super().__init__()
        self.at = at
        self.decisions = 0

    def step(self, ks, a):
        self.decisions += 1
        if self.decisions >= self.at:
            others = [b for b in self.legal(ks) if b != a]
            if others:
                self.at = 10**9
                a = others[0]
        return super().step(ks, a)


def test_a_kernel_that_takes_another_step_is_caught():
    res = CF.run(DivergentStep(at=50), 2000, seed=5)
    assert res.mismatch is not None
    assert res.mismatch.what in ("fields", "legal")
    assert res.decisions >= 49


class DroppedChild(CF.ExpectimaxAdapter):
    """The expectimax kernel, losing one child of a Nightmare (say, a bug in an option)."""

    def legal(self, ks):
        kids = super().legal(ks)
        if ks[0] == self.K.NIGHTMARE:
            kids = set(sorted(kids)[1:])
        return kids


def test_a_missing_child_is_caught():
    res = CF.run(DroppedChild(), 3000, seed=7)
    assert res.mismatch is not None and res.mismatch.what == "legal"
    assert res.mismatch.phase == "nightmare"
    missing_in_kernel, extra_in_kernel = res.mismatch.diff["legal"]
    assert len(extra_in_kernel) == 1 and not missing_in_kernel


class SkewedOutcomes(CF.ExpectimaxAdapter):
    """The expectimax kernel with the probabilities of a draw shifted between outcomes
    (they still sum to 1)."""

    def __init__(self, multi):
        super().__init__()
        self.multi = multi

    def _kernel_outcomes(self, ks):
        rows, cp = super()._kernel_outcomes(ks)
        if (len(cp) > 2) and (ks[0] in (self.K.REVEAL, self.K.FORESEE)) == self.multi:
            cp = cp.copy()
            d = min(cp[0], cp[1]) / 2
            cp[0] -= d
            cp[1] += d
        return rows, cp


@pytest.mark.parametrize("multi", [False, True])
def test_wrong_draw_probabilities_are_caught(multi):
    res = CF.run(SkewedOutcomes(multi), 3000, seed=11)
    assert res.mismatch is not None and res.mismatch.what == "chance", res.line()


def test_the_prophecy_check_sees_a_wrong_discard():
    """At a prophecy the kernel's children are compared before advancing; a child that
    discards another card than the one it claims is reported."""
    class WrongDiscard(CF.ExpectimaxAdapter):
        def legal(self, ks):
            kids = super().legal(ks)
            if ks[0] == self.K.PROPHECY:
                k = sorted(kids)[0]
                kids = (kids - {k}) | {(k[0], k[1] + 1, *k[2:])}   # one more unknown card
            return kids

    res = CF.run(WrongDiscard(), 3000, seed=13)
    assert res.mismatch is not None and res.mismatch.what == "legal"
    assert res.mismatch.phase == "prophecy"


def test_command_line(capsys, monkeypatch):
    assert CF.main(["--kernel", "honest", "--steps", "300", "--seed", "2", "--json"]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["kernel"] == "honest" and line["steps"] == 300 and line["mismatches"] == 0

    class Broken(PerturbedFields):
        def __init__(self):
            super().__init__(at=10)
    monkeypatch.setitem(CF.ADAPTERS, "kernel", Broken)
    assert CF.main(["--kernel", "kernel", "--steps", "100"]) == 1
    out = capsys.readouterr().out
    assert "1 mismatches" in out and "shuffles" in out


def test_dict_diff_lists_every_differing_key():
    assert CF.dict_diff({"a": 1, "b": [1]}, {"a": 1, "b": [2], "c": 0}) == {
        "b": ([1], [2]), "c": (None, 0)}
