"""``python -m onirim.precompile``: the compile step that ``make test`` runs first.

It only fills numba's cache, so these tests check its plumbing: bad arguments, a family that
runs, and a family that fails being reported as failed (exit status 1) instead of passing
silently."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from onirim import precompile


def test_bad_jobs_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        precompile.main(["--jobs", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("--jobs must be at least 1, not 0")


def test_unknown_family_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        precompile.main(["--only", "nope"])
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
    monkeypatch.setitem(precompile.FAMILIES, "broken", (None, 1))
    res = precompile.run(["broken"], 1, say=None)
    rec = res["families"]["broken"]
    assert rec["ok"] is False
    assert "invalid choice" in rec["error"]


def test_a_family_whose_probe_stays_out_of_the_cache_fails_the_run(monkeypatch, capsys):
    # the family compiled without error, but the function family_ready reads was never
    # compiled by its warm-up: every command would then announce a compile again (seen in a
    # fresh clone: the honest family's probe was no longer called by its warm-up)
    monkeypatch.setattr(precompile, "run", lambda names, jobs, say=None: {
        "families": {n: {"ok": True, "wall_s": 0.1, "cpu_s": 0.1, "error": None}
                     for n in names}, "wall_s": 0.1, "jobs": jobs})
    monkeypatch.setattr(precompile, "family_ready", lambda n: n != "honest")
    assert precompile.main(["--only", "honest", "--only", "bound"]) == 1
    out = capsys.readouterr().out
    assert "honest FAILED: compiled, but solver.honest.kernel.estimate_all is not" in out
    assert "bound FAILED" not in out
    monkeypatch.setattr(precompile, "family_ready", lambda n: True)
    assert precompile.main(["--only", "honest"]) == 0


def _fake_children(monkeypatch):
    """Replace the child processes of ``precompile.run`` by fakes that finish when first polled.
    Returns ``started``: (family, the families finished when it started), in start order."""
    started, finished = [], []

    class Fake:
        def __init__(self, argv, **kw):
            started.append((argv[-1], list(finished)))
            self.name = argv[-1]
            self.returncode = 0

        def poll(self):
            finished.append(self.name)
            return 0

        def communicate(self):
            return '{"family": "x", "cpu_s": 0.5}\n', ""

    monkeypatch.setattr(precompile.subprocess, "Popen", Fake)
    return started


def test_every_family_is_scheduled_longest_first(monkeypatch):
    started = _fake_children(monkeypatch)
    res = precompile.run(list(precompile.FAMILIES), 2, say=None)
    assert set(res["families"]) == set(precompile.FAMILIES)
    assert all(r["cpu_s"] == 0.5 for r in res["families"].values())
    # longest first, except that a family waits until its prerequisites (P.AFTER) have
    # finished: each start is the longest family not started yet whose prerequisites had
    # finished at that moment
    left = sorted(precompile.FAMILIES, key=lambda n: -precompile.FAMILIES[n][1])
    for name, done in started:
        assert all(d in done for d in precompile.AFTER.get(name, ())), (name, done)
        ready = [n for n in left if all(d in done for d in precompile.AFTER.get(n, ()))]
        assert name == ready[0], (name, ready)
        left.remove(name)
    assert not left


def test_a_family_waits_for_its_prerequisites(monkeypatch):
    """With AFTER = {x: (y,)}, x (the longest) does not start before y has finished, even
    with a free process; without y in the run, x starts first."""
    fams = {"x": (None, 100), "y": (None, 50), "z": (None, 30)}
    monkeypatch.setattr(precompile, "FAMILIES", fams)
    monkeypatch.setattr(precompile, "AFTER", {"x": ("y",)})
    # y 0-50 and z 0-30 side by side, then x 50-150
    assert precompile.estimate_wall(["x", "y", "z"], 2) == 150
    # without y: x 0-100 beside z 0-30
    assert precompile.estimate_wall(["x", "z"], 2) == 100
    started = _fake_children(monkeypatch)
    precompile.run(["x", "y", "z"], 2, say=None)
    assert [name for name, _ in started] == ["y", "z", "x"]
    assert "y" in dict(started)["x"]


# ------------------------------------------------------------- issue 27, item 1: compile once
def _makefile_rules():
    from paths import ROOT
    import os
    rules, cur = {}, None
    with open(os.path.join(ROOT, "Makefile")) as f:
        for line in f:
            if line[:1] not in ("\t", "#", "\n", " ") and ":" in line and "=" not in line:
                cur, deps = line.split(":", 1)
                rules[cur.strip()] = {"deps": deps.split(), "recipe": []}
            elif line.startswith("\t") and cur:
                rules[cur.strip()]["recipe"].append(line.strip())
    return rules


def test_make_install_and_demo_compile_every_family_first():
    """The first `make demo` (and `make install`) compiles every family, in parallel; the
    demo used to compile only the clairvoyant family, so each other command compiled on its
    first use."""
    rules = _makefile_rules()
    assert any("-m onirim.precompile --jobs" in r for r in rules["install"]["recipe"])
    assert "install" in rules["demo"]["deps"]


def test_estimate_follows_the_schedule():
    fams = {"a": (None, 150), "b": (None, 115), "c": (None, 100), "d": (None, 90),
            "e": (None, 45)}
    old = dict(precompile.FAMILIES)
    precompile.FAMILIES.clear()
    precompile.FAMILIES.update(fams)
    try:
        # a 0-150, b 0-115; c 115-215; d 150-240; e 215-260
        assert precompile.estimate_wall(list(fams), 2) == 260
        assert precompile.estimate_wall(list(fams), 1) == 500
    finally:
        precompile.FAMILIES.clear()
        precompile.FAMILIES.update(old)


def test_a_cold_start_says_what_it_compiles_and_how_long(monkeypatch, capsys):
    compiled = set()          # numba's cache as the fake run fills it

    def fake_run(names, jobs, say=None):
        compiled.update(names)
        return {"families": {n: {"ok": True} for n in names}, "wall_s": 0.0, "jobs": jobs}
    monkeypatch.setattr(precompile, "family_ready", lambda name: name in compiled)
    monkeypatch.setattr(precompile, "run", fake_run)
    assert precompile.main(["--jobs", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    minutes = round(precompile.estimate_wall(list(precompile.FAMILIES), 2) / 60)
    assert first.startswith(f"precompile: compiling {len(precompile.FAMILIES)} numba kernel families, "
                            "2 at a time")
    assert f"about {minutes} min" in first and "(measured)" in first


def test_every_family_has_a_cache_probe():
    assert set(precompile._PROBES) == set(precompile.FAMILIES)
    for name in precompile.FAMILIES:
        assert precompile.family_ready(name) in (True, False)        # the probe resolves


def test_a_command_that_must_compile_says_so_first(monkeypatch, capsys):
    """`onirim bench` and the hint of `onirim play` announce a compile before the wait,
    with the family's measured time (the hint used to block for half a minute silently)."""
    from onirim import cmd_bench
    from onirim.cmd_play import Hinter
    monkeypatch.setattr(precompile, "family_ready", lambda name: False)
    cmd_bench._compile_notices(["playouts", "solver"])
    err = capsys.readouterr().err.splitlines()
    assert [x.split(" family")[0].rsplit(" ", 1)[1] for x in err] == ["playouts", "honest",
                                                                       "clairvoyant"]
    assert all(f"about {precompile.FAMILIES[n][1]} s of CPU measured" in x
               for x, n in zip(err, ("playouts", "honest", "clairvoyant")))
    said = []
    h = Hinter(said.append)
    import solver.api as api
    monkeypatch.setattr(api, "make_policy", lambda name, **k: type("F", (), {"name": name,
                                                                      "warm_up": lambda s: None})())
    h.policy()
    from solver.policies import DEFAULT_HONEST_POLICY
    assert said and said[0].startswith(f"(compiling the {DEFAULT_HONEST_POLICY} policy's "
                                       "playouts, once per install: about")
