"""``python -m onirim.precompile``: the compile step that ``make test`` runs first.

It only fills numba's cache, so these tests check its plumbing: bad arguments, a family that
runs, and a family that fails being reported as failed (exit status 1) instead of passing
silently."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from onirim import precompile as P


def test_bad_jobs_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        P.main(["--jobs", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("--jobs must be at least 1, not 0")


def test_unknown_family_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        P.main(["--only", "nope"])
    assert e.value.code == 2


def test_one_family_compiles_and_reports_json():
    p = subprocess.run([sys.executable, "-m", "onirim.precompile", "--only", "playouts",
                        "--jobs", "1", "--json"], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["families"]["playouts"]["ok"] is True
    # the child's own CPU time, from the line it prints (a process that imports numba and
    # loads or compiles a kernel uses some: a lost or unread figure would be 0 or missing)
    rec = out["families"]["playouts"]
    assert isinstance(rec["cpu_s"], float) and rec["cpu_s"] > 0.0, rec
    assert out["jobs"] == 1


def test_a_failing_family_fails_the_run(monkeypatch):
    # the child process does not know this family: it exits with status 2, which the parent
    # must report as a failure with the child's last error line
    monkeypatch.setitem(P.FAMILIES, "broken", (None, 1))
    res = P.run(["broken"], 1, say=None)
    rec = res["families"]["broken"]
    assert rec["ok"] is False
    assert "invalid choice" in rec["error"]


def test_every_family_is_scheduled_longest_first(monkeypatch):
    started = []

    class Fake:
        def __init__(self, argv, **kw):
            started.append(argv[-1])
            self.returncode = 0

        def poll(self):
            return 0

        def communicate(self):
            return '{"family": "x", "cpu_s": 0.5}\n', ""

    monkeypatch.setattr(P.subprocess, "Popen", Fake)
    res = P.run(list(P.FAMILIES), 2, say=None)
    assert set(res["families"]) == set(P.FAMILIES)
    want = sorted(P.FAMILIES, key=lambda n: -P.FAMILIES[n][1])
    assert started == want
    assert all(r["cpu_s"] == 0.5 for r in res["families"].values())
