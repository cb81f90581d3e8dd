"""benchmarks/bench_trees.py and benchmarks/perf_numba.py: the A/B runner's digests must be the
same for the same work and change when the work changes; the perf map must name numba's code
at the addresses it runs from."""
import os
import shutil

import numpy as np
import pytest
from numba import njit

from benchmarks import bench_trees as BT
from benchmarks import perf_numba


def test_expectimax_work_gives_the_same_digest_for_the_same_positions_only():
    a, b = BT.expectimax_part(11, 2), BT.expectimax_part(11, 2)
    assert a["digest"] == b["digest"] and a["nodes"] == b["nodes"] > 0
    c = BT.expectimax_part(11, 3)
    assert c["positions"] == 3 and c["digest"] != a["digest"]


def test_duo_work_gives_the_same_digest_for_the_same_views_only():
    policy = "duo-krollout2:n=16,screen=4"
    a, b = BT.duo_part(policy, 3), BT.duo_part(policy, 3)
    assert a["digest"] == b["digest"] and a["views"] == 3
    c = BT.duo_part(policy, 4)
    assert c["digest"] != a["digest"]


def test_duo_views_are_open_only_when_asked():
    silent = BT.duo_views(2, "none")
    open_ = BT.duo_views(2, "open")
    assert [v.hidden for v in open_] == [0, 0]
    assert any(v.hidden > 0 for v in silent)


@njit
def _probe_kernel(a):
    return a.sum() + 1


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
def test_the_perf_map_names_a_compiled_function_at_its_address(monkeypatch):
    from numba.core import codegen
    monkeypatch.setattr(codegen.CPUCodeLibrary, "_set_compiled_object", perf_numba._keep_object)
    assert _probe_kernel(np.arange(3)) == 4
    lib = _probe_kernel.overloads[_probe_kernel.signatures[0]].library
    name = _probe_kernel.overloads[_probe_kernel.signatures[0]].fndesc.mangled_name
    assert perf_numba.write_map() > 0
    path = f"/tmp/perf-{os.getpid()}.map"
    try:
        rows = [line.split() for line in open(path)]
    finally:
        os.unlink(path)
    hits = [r for r in rows if r[2] == name]
    assert hits and int(hits[0][0], 16) == lib.get_pointer_to_function(name)
    assert int(hits[0][1], 16) > 0
