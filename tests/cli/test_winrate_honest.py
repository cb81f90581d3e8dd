"""`onirim winrate --mode honest`: results, --jobs 1 vs 2, resume after kill -9, errors, the
warm-up kept out of per-deal seconds, and `onirim verify` on honest games."""
import json
import os
import signal
import sqlite3
import subprocess
import time

import pytest

from onirim import cli
from winrate_kit import kill_9_then_resume, start, wait_for_rows
from solver.api import Param, register_policy
from solver.honest.play import play_honest
from solver.api import make_policy

SUMMARY = {"mode", "deals", "wins", "losses", "unknown", "win_rate", "ci95",
           "ci95_with_unknown", "seconds", "nodes", "policy", "policy_config", "policy_hash",
           "decisions", "seconds_per_decision", "mean_doors", "policy_seed", "policy_default",
           "cpu_seconds", "cpu_seconds_per_decision", "deals_without_cpu"}


def run_main(capsys, *args):
    """``onirim ARGS`` in this process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    rc = cli.main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def games(db):
    con = sqlite3.connect(db)
    out = {int(r[0]): r[1:] for r in con.execute(
        "SELECT seed, won, doors, decisions, actions, policy_hash FROM honest")}
    con.close()
    return out


def test_json_jobs_and_the_same_deals(tmp_path, capsys):
    db_a, db_b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                               "--deals", "30", "--seed", "40", "--db", db_a, "--json")
    assert rc == 0, err
    out = json.loads(stdout)
    assert set(out) == SUMMARY
    assert out["mode"] == "honest" and out["policy"] == "greedy" and out["policy_config"] == {}
    assert out["wins"] + out["losses"] == 30 and out["unknown"] == 0
    assert out["win_rate"] == out["wins"] / 30
    ga = games(db_a)
    assert sorted(ga) == list(range(40, 70))
    assert out["decisions"] == sum(g[2] for g in ga.values())
    assert out["mean_doors"] == sum(g[1] for g in ga.values()) / 30
    # CPU time is stored per game and summed over them (every game of this run has it)
    con = sqlite3.connect(db_a)
    cpu = [c for (c,) in con.execute("SELECT cpu_seconds FROM honest")]
    con.close()
    assert len(cpu) == 30 and all(c is not None and c >= 0 for c in cpu)
    assert out["deals_without_cpu"] == 0
    assert out["cpu_seconds"] == pytest.approx(sum(cpu), abs=1e-5)
    assert out["cpu_seconds_per_decision"] == pytest.approx(sum(cpu) / out["decisions"])
    # the stored games are those play_honest plays (deal S is the clairvoyant deal S)
    pol = make_policy("greedy")
    for seed in (40, 55):
        g = play_honest(pol, seed)
        assert (bool(ga[seed][0]), ga[seed][1], ga[seed][2]) == (g.won, g.doors, g.decisions)
    # two jobs: the same games
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                               "--deals", "30", "--seed", "40", "--jobs", "2", "--db", db_b,
                               "--json")
    assert rc == 0, err
    assert games(db_b) == ga
    ob = json.loads(stdout)
    assert {k: ob[k] for k in ("wins", "losses", "decisions", "mean_doors")} == \
        {k: out[k] for k in ("wins", "losses", "decisions", "mean_doors")}
    # a rerun plays nothing and reports the same
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                               "--deals", "30", "--seed", "40", "--db", db_a)
    assert rc == 0 and "30 already stored" in stdout and "wins " + str(out["wins"]) in stdout
    # another policy is stored apart; the policy table names both
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "random",
                               "--deals", "5", "--seed", "40", "--db", db_a, "--json")
    assert rc == 0, err
    con = sqlite3.connect(db_a)
    assert sorted(n for (n,) in con.execute("SELECT name FROM policies")) == ["greedy", "random"]
    assert con.execute("SELECT COUNT(*) FROM honest").fetchone()[0] == 35
    con.close()
    # verify replays every honest game, and catches a forged one
    rc, stdout, err = run_main(capsys, "verify", "--db", db_a, "--json")
    assert rc == 0, stdout + err
    vj = json.loads(stdout)
    assert vj["ok"] and vj["honest_games"] == vj["honest_verified"] == 35
    con = sqlite3.connect(db_a)
    con.execute("UPDATE honest SET won = 1 - won WHERE seed='41'")
    con.commit()
    con.close()
    rc, stdout, err = run_main(capsys, "verify", "--db", db_a)
    assert rc == 1 and "FAILED honest seed 41" in stdout


def test_kill_9_then_resume(tmp_path):
    n = 300
    cmd = ["winrate", "--mode", "honest", "--policy", "greedy", "--deals", str(n), "--seed",
           "7", "--db", "k.sqlite", "--json"]
    before, r, after = kill_9_then_resume(cmd, tmp_path, "k.sqlite", "honest", 3, 0.02, games)
    assert 3 <= len(before) < n
    assert r.returncode == 0, r.stderr
    assert sorted(after) == list(range(7, 7 + n))
    assert all(after[k] == before[k] for k in before)
    assert json.loads(r.stdout)["deals"] == n


@pytest.mark.parametrize("args, words", [
    (["--policy", "no-such-policy"], "unknown"),
    (["--policy", "greedy", "--policy-arg", "depth=3"], "no argument 'depth'"),
    (["--policy", "greedy", "--policy-arg", "depth"], "key=value"),
    (["--players", "2", "--policy-arg", "depth=3"], "no argument 'depth'"),   # the default's
    (["--policy", "greedy", "--budget-nodes", "100"], "--budget-nodes"),
    (["--policy", "greedy", "--tt-mb", "8"], "--tt-mb"),
])
def test_bad_input(tmp_path, capsys, args, words):
    rc, out, err = run_main(capsys, "winrate", "--mode", "honest", "--deals", "2", *args,
                            "--db", str(tmp_path / "e.sqlite"))
    assert rc == 2 and out == "", err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("onirim: error:") and words in lines[0], lines


# A policy that is slow until it is warmed up, like a numba policy before its compile.
_EVENTS = []


@register_policy("test-warm-up", doc="greedy, slow until warm_up() ran (tests only)")
class _SlowUntilWarm:
    COLD_S = 0.6

    def __init__(self):
        self.warm = False

    def warm_up(self):
        _EVENTS.append(("warm_up", os.getpid()))
        time.sleep(self.COLD_S)
        self.warm = True

    def act(self, view, stream):
        from engine.policy import greedy_action
        if not self.warm:
            time.sleep(self.COLD_S)
        return greedy_action(view)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_warm_up_is_not_timed(tmp_path, capsys, jobs):
    _EVENTS.clear()
    db = str(tmp_path / "w.sqlite")
    rc = cli.main(["winrate", "--mode", "honest", "--policy", "test-warm-up", "--deals", "3",
                   "--db", db, "--jobs", jobs, "--json"])
    assert rc == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 3 and out["policy"] == "test-warm-up"
    assert _EVENTS and _EVENTS[0][0] == "warm_up"     # in this process, before any deal
    con = sqlite3.connect(db)
    secs = [s for (s,) in con.execute("SELECT seconds FROM honest")]
    con.close()
    # an unwarmed policy would sleep COLD_S at every decision of the first deal
    assert len(secs) == 3 and max(secs) < _SlowUntilWarm.COLD_S


def test_ctrl_c_with_two_jobs_says_what_is_stored(tmp_path):
    cmd = ["winrate", "--mode", "honest", "--policy", "greedy", "--deals", "20000", "--seed",
           "0", "--jobs", "2", "--db", "c.sqlite"]
    p = start(cmd, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
              start_new_session=True)
    db = tmp_path / "c.sqlite"
    wait_for_rows(db, "honest", 5, poll=0.05)
    os.killpg(p.pid, signal.SIGINT)          # Ctrl-C: the whole foreground process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    # the one line of the interrupt, besides the notice of the file this run created
    lines = [ln for ln in err.strip().splitlines()
             if not ln.startswith("onirim: storing the results in the new file")]
    assert len(lines) == 1, lines
    stored = len(games(db))
    assert f"interrupted: {stored} of 20000 deals are stored in c.sqlite" in lines[0]
    resume = lines[0].split("resume with: ", 1)[1]
    assert resume.split()[:2] == ["onirim", "winrate"]
    assert resume.split()[2:] == cmd[1:]
    assert 5 <= stored < 20000


@register_policy("test-param", params=[Param("n", int, 2, "any number"),
                                       Param("mix", float, 0.5, "any fraction")],
                 doc="greedy with unused parameters (tests only)")
class _WithParams:
    def __init__(self, n=2, mix=0.5):
        self.n, self.mix = n, mix

    def act(self, view, stream):
        from engine.policy import greedy_action
        return greedy_action(view)


def test_policy_args_are_part_of_the_key(tmp_path, capsys):
    db = str(tmp_path / "p.sqlite")
    base = ["winrate", "--mode", "honest", "--policy", "test-param", "--deals", "4", "--seed",
            "3", "--db", db, "--json"]
    rc, out, err = run_main(capsys, *base, "--policy-arg", "n=5", "--jobs", "2")
    assert rc == 0, err
    j5 = json.loads(out)
    assert j5["policy_config"] == {"n": 5, "mix": 0.5}
    rc, out, err = run_main(capsys, *base, "--policy-arg", "n=5", "--policy-arg", "mix=0.50")
    assert rc == 0 and json.loads(out)["policy_hash"] == j5["policy_hash"]   # same config
    rc, out, err = run_main(capsys, *base, "--policy-arg", "n=6")
    j6 = json.loads(out)
    assert rc == 0 and j6["policy_hash"] != j5["policy_hash"]
    con = sqlite3.connect(db)
    assert dict(con.execute("SELECT hash, config FROM policies")) == {
        j5["policy_hash"]: '{"mix":0.5,"n":5}', j6["policy_hash"]: '{"mix":0.5,"n":6}'}
    assert con.execute("SELECT COUNT(*) FROM honest").fetchone()[0] == 8
    con.close()
    rc, out, err = run_main(capsys, *base, "--policy-arg", "n=five")
    assert rc == 2 and "is not int" in err and len(err.strip().splitlines()) == 1


def test_policy_seed_is_recorded_and_keys_its_own_games(tmp_path, capsys):
    """--policy-seed: stated in the JSON (default 1), part of the games' key in the database
    (two policy seeds never share stored games), and the same seed replays the same games."""
    db = str(tmp_path / "p.sqlite")
    base = ["winrate", "--mode", "honest", "--policy", "rollout", "--policy-arg", "n=4",
            "--deals", "3", "--seed", "20", "--db", db, "--json"]
    rc, out1, err = run_main(capsys, *base)
    assert rc == 0, err
    a = json.loads(out1)
    assert a["policy_seed"] == 1
    rc, out2, err = run_main(capsys, *base, "--policy-seed", "77")
    assert rc == 0, err
    b = json.loads(out2)
    assert b["policy_seed"] == 77 and b["policy_hash"] != a["policy_hash"]
    con = sqlite3.connect(db)
    n = {h: c for h, c in con.execute("SELECT policy_hash, COUNT(*) FROM honest "
                                      "GROUP BY policy_hash")}
    con.close()
    assert n == {a["policy_hash"]: 3, b["policy_hash"]: 3}
    # the stored games are play_honest's games with that policy seed
    ga = {k: v for k, v in games(db).items()}
    con = sqlite3.connect(db)
    stored = {(h, int(s)): json.loads(act) for h, s, act in con.execute(
        "SELECT policy_hash, seed, actions FROM honest")}
    con.close()
    pol = make_policy("rollout", n=4)
    for pseed, h in ((1, a["policy_hash"]), (77, b["policy_hash"])):
        g = play_honest(pol, 21, policy_seed=pseed)
        from solver.runs.runner import action_strings
        assert action_strings(21, g.actions) == stored[(h, 21)]
    assert ga


def test_policy_seed_out_of_range_is_one_line(tmp_path, capsys):
    rc, out, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                            "--deals", "2", "--db", str(tmp_path / "x.sqlite"),
                            "--policy-seed", "-3")
    assert rc == 2 and out == ""
    assert err.startswith("onirim: error: --policy-seed:") and err.count("\n") == 1


def test_without_a_policy_solo_plays_the_default_and_says_so(tmp_path, capsys):
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    db = str(tmp_path / "d.sqlite")
    # the default's preset arguments, and a user's pair added to them (a small base here)
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy-arg",
                               "unknown=4", "--deals", "2", "--seed", "3", "--db", db, "--json")
    assert rc == 0, err
    out = json.loads(stdout)
    assert out["policy"] == DEFAULT_HONEST_POLICY and out["policy_default"] is True
    assert out["policy_config"]["unknown"] == 4
    assert out["policy_config"]["base"] == DEFAULT_HONEST_ARGS["base"]
    # a user's pair replaces the preset of the same key
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy-arg",
                               "base=seq-rollout:n=8", "--deals", "1", "--seed", "3", "--db",
                               db, "--json")
    assert rc == 0 and json.loads(stdout)["policy_config"]["base"] == "seq-rollout:n=8"
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy-arg",
                               "unknown=4", "--deals", "2", "--seed", "3", "--db", db)
    assert rc == 0 and f"policy {DEFAULT_HONEST_POLICY}" in stdout and "the default" in stdout
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "greedy",
                               "--deals", "2", "--seed", "3", "--db", db, "--json")
    assert rc == 0 and json.loads(stdout)["policy_default"] is False


def test_without_a_policy_two_players_play_the_duo_default_and_say_so(tmp_path, capsys):
    from solver.duo.rollout import DEFAULT_DUO_POLICY
    assert DEFAULT_DUO_POLICY == "duo-kcut-switch"
    db = str(tmp_path / "e.sqlite")
    small = ["--policy-arg", "base=duo-kcut:n=8,screen=1"]
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--players", "2", *small,
                               "--deals", "2", "--seed", "3", "--db", db, "--json")
    assert rc == 0, err
    out = json.loads(stdout)
    assert out["players"] == 2 and out["deals"] == 2
    assert out["policy"] == DEFAULT_DUO_POLICY and out["policy_default"] is True
    assert out["policy_config"]["base"] == "duo-kcut:n=8,screen=1"
    assert out["policy_config"]["unknown"] == 6 and out["policy_config"]["margin"] == 0.05
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--players", "2", *small,
                               "--deals", "2", "--seed", "3", "--db", db)
    assert rc == 0 and f"policy {DEFAULT_DUO_POLICY}" in stdout and "the default" in stdout
    assert "2 already stored" in stdout           # the same configuration: the same rows
    rc, stdout, err = run_main(capsys, "winrate", "--mode", "honest", "--players", "2",
                               "--policy", "greedy", "--deals", "2", "--seed", "3", "--db", db,
                               "--json")
    assert rc == 0 and json.loads(stdout)["policy_default"] is False
