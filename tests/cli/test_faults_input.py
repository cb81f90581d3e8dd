"""Inputs that used to end in a traceback or in an inconsistent form: deeply nested JSON and
huge seeds are one line and exit 2; plain ``onirim`` is a usage error (the help on stderr,
status 2); a missing optional extra names the extra; a policy with a time budget may not store
games; Ctrl-C while the command loads is one line and status 130."""
from __future__ import annotations

import subprocess
import sys

import pytest

from onirim.cli import main

DEEP = '{"a":' * 5000
SOLO = ("mode=solo phase=play hand=Os,Om,Om,Ok,Gm row=- doors=- deck=* discard=- limbo=-")


def run_main(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_error_line(rc, err, *needles):
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("onirim: error: "), (rc, err)
    for n in needles:
        assert n in lines[0], (n, lines[0])
    assert len(lines[0]) < 500


def test_deeply_nested_json_is_one_line(capsys):
    rc, out, err = run_main(capsys, "show", DEEP)
    one_error_line(rc, err, "json:")


@pytest.mark.parametrize("text", [
    "{\"mode\": \"solo\", \"seed\": 1" + "0" * 5000 + "}",
    SOLO + " seed=1" + "0" * 5000,
    SOLO + " seed=" + "9" * 21,
])
def test_a_huge_seed_is_one_line(capsys, text):
    rc, out, err = run_main(capsys, "show", text)
    one_error_line(rc, err)
    assert "seed" in err or "json" in err


def test_parse_refuses_a_huge_seed_before_int():
    from engine.errors import PositionError
    from engine.notation import parse_position
    with pytest.raises(PositionError, match="out of range"):
        parse_position(SOLO + " seed=1" + "0" * 5000 + " shuffles=0")


def test_plain_onirim_is_a_usage_error_with_the_help_on_stderr(capsys):
    rc, out, err = run_main(capsys)
    assert rc == 2 and out == "" and "usage: onirim" in err and "winrate" in err


@pytest.mark.parametrize("module, extra", [("onirim.openspiel", "openspiel"),
                                           ("onirim.gym", "gym")])
def test_a_missing_extra_is_named(module, extra):
    code = ("import sys\nsys.modules['pyspiel'] = None\nsys.modules['gymnasium'] = None\n"
            "from engine.errors import OnirimError\n"
            f"try:\n    import {module}\nexcept ImportError as e:\n"
            "    assert isinstance(e, OnirimError) and isinstance(e, ModuleNotFoundError)\n"
            "    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"onirim[{extra}]" in r.stdout and "pip install" in r.stdout, r.stdout


def test_a_time_budget_may_not_store_games(tmp_path, capsys):
    db = tmp_path / "w.sqlite"
    rc, out, err = run_main(capsys, "winrate", "--mode", "honest", "--policy", "endgame",
                            "--policy-arg", "budget_s=0.5", "--deals", "1", "--db", str(db))
    one_error_line(rc, err, "--policy-arg:", "budget_s")
    assert not db.exists()


def test_clock_problem_finds_a_budget_at_any_depth():
    from solver.runs.runner import clock_problem
    assert clock_problem({"budget_s": 0.0, "base": "greedy"}) is None
    assert clock_problem({"budget_s": 0.25}) is not None
    assert clock_problem({"base_config": {"budget_s": 1}}) is not None
    assert clock_problem({"base": "endgame:unknown=8,budget_s=2"}) is not None
    assert clock_problem({"base": "endgame:budget_s=0"}) is None


def test_ctrl_c_while_loading_is_one_line(capsys, monkeypatch):
    from onirim import cli

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "build_parser", interrupted)
    rc, out, err = run_main(capsys, "winrate", "--deals", "1")
    assert rc == 130 and err.strip() == "onirim: interrupted"


@pytest.mark.parametrize("flag, value", [("--threads", "0"), ("--threads", "65"),
                                         ("--table-bits", "9"), ("--table-bits", "31")])
def test_threads_and_table_bits_errors_name_their_field(capsys, flag, value):
    rc, out, err = run_main(capsys, "best", SOLO, flag, value)
    one_error_line(rc, err, f"{flag}: must be from")


def test_a_signal_as_the_command_ends_is_status_130(capsys, monkeypatch):
    """A KeyboardInterrupt that escapes the command (a second signal as it ends) is still
    status 130, not Python's death by SIGINT."""
    from onirim import cli

    def late(argv):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "_main", late)
    assert cli.main(["verify", "--db", "x"]) == 130
