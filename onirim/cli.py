"""``onirim`` command line: a dispatcher over sub-command modules.

Each sub-command lives in its own module ``onirim.cmd_<name>`` that defines
``add_arguments(parser)`` and ``run(args) -> int``.  Modules are imported lazily, so ``onirim
show`` never pays for compiling numba kernels.

Every bad input ends with exactly one line on stderr, ``onirim: error: <field>: <problem>``,
and exit status 2; no traceback is ever printed for input the user gave.  argparse's own
messages are rewritten to that form (:func:`usage_message`), and whatever the user typed is
echoed cut short (:func:`one_line`): a 100 KB position does not come back in full.
"""
from __future__ import annotations

import _thread
import argparse
import contextlib
import importlib
import os
import platform
import re
import signal
import sys
import threading
from importlib import metadata

from engine.errors import OnirimError

from . import __version__
from engine.notation import clip

COMMANDS = {
    "play": "play a game in the terminal",
    "show": "draw a position and print its canonical notation",
    "demo": "run the main job on a small default",
    "winrate": "solve many deals and report the win rate",
    "verify": "re-check stored results against the engine",
    "best": "rank every legal action of a position",
    "bench": "run the throughput benchmarks",
    "bound": "an upper bound on honest play by information relaxation",
    "serve": "the analysis board in the browser (a local web server)",
}


class UsageError(Exception):
    """Bad command-line usage: printed as one line, exit status 2."""


def policy_from_args(name: str, arg_pairs):
    """The policy of ``--policy NAME --policy-arg K=V ...`` for a run whose games are stored
    (``winrate``, ``bound``): a bad argument is a :class:`UsageError` under ``--policy-arg``,
    an unknown name under ``--policy``, and a policy that would read the clock is refused
    (a stored game depends only on its configuration and seeds: docs/POLICIES.md)."""
    from solver.api import make_policy, parse_policy_args, policy_entries
    from solver.errors import PolicyError
    from solver.runs.runner import clock_problem
    try:
        pargs = parse_policy_args(arg_pairs)
    except PolicyError as e:
        raise UsageError(f"--policy-arg: {e}") from None
    try:
        policy = make_policy(name, **pargs)
    except Exception as e:   # PolicyError, or a policy that refuses its arguments
        # an unknown name is about --policy; anything else about its arguments
        field = "--policy-arg" if name in policy_entries() else "--policy"
        raise UsageError(f"{field}: {e}") from None
    problem = clock_problem(policy.config)
    if problem is not None:
        raise UsageError(f"--policy-arg: {problem}")
    return policy


def _option_name(name: str) -> str:
    """argparse's name of an argument (``--seed``, ``-s/--seed``, ``COMMAND``) as a field."""
    parts = name.split("/")
    longs = [p for p in parts if p.startswith("--")]
    name = longs[0] if longs else parts[0]
    return "command" if name == "COMMAND" else name


def usage_message(message: str) -> str:
    """argparse's error message as ``<field>: <problem>``."""
    m = re.match(r"argument (\S+): (.*)", message, re.S)
    if m:
        return f"{_option_name(m.group(1))}: {m.group(2)}"
    m = re.match(r"the following arguments are required: (.*)", message, re.S)
    if m:
        names = [_option_name(x.strip()) for x in m.group(1).split(",")]
        more = f" (also missing: {', '.join(names[1:])})" if names[1:] else ""
        return f"{names[0]}: missing; this argument is required{more}"
    m = re.match(r"unrecognized arguments: (.*)", message, re.S)
    if m:
        extra = m.group(1).split()
        first = extra[0] if extra else "arguments"
        kind = "option" if first.startswith("-") else "argument"
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        return f"{first}: unknown {kind}{more}"
    m = re.match(r"ambiguous option: (\S+) could match (.*)", message, re.S)
    if m:
        return f"{m.group(1)}: ambiguous option, could be {m.group(2)}"
    m = re.match(r"one of the arguments (.*) is required", message, re.S)
    if m:
        return f"{_option_name(m.group(1).split()[0])}: one of {m.group(1)} is required"
    return f"arguments: {message}"


def one_line(message: str, word_limit: int = 80, limit: int = 400) -> str:
    """``message`` on one line, every over-long word (echoed input) cut short, and the whole
    cut to about ``limit`` characters."""
    words = []
    for w in str(message).split():
        tail = w[-1] if len(w) > word_limit and w[-1] in ":,;)" else ""
        words.append(clip(w[:len(w) - len(tail)], word_limit) + tail)
    text = " ".join(words)
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text) - limit} more characters)"
    return text


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise UsageError(usage_message(message))


def version_text() -> str:
    """``onirim --version``: the package, Python and the numeric libraries (no import)."""
    libs = []
    for name in ("numba", "numpy"):
        try:
            libs.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            libs.append(f"{name} not installed")
    return f"onirim {__version__} (Python {platform.python_version()}, {', '.join(libs)})"


def _module(name):
    try:
        return importlib.import_module(f"onirim.cmd_{name}")
    except ModuleNotFoundError as e:
        if e.name == f"onirim.cmd_{name}":
            return None
        raise


def build_parser(only: str | None = None):
    """The argument parser.  With ``only``, just that sub-command's module is imported (so
    ``onirim show`` never imports numba); the others are listed by name."""
    parser = _Parser(prog="onirim", description="Onirim engine and solver")
    parser.add_argument("--version", action="version", version=version_text(),
                        help="print the version (and those of Python, numba, numpy) and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        mod = _module(name)
        if mod is None:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def fail(message: str) -> int:
    print(f"onirim: error: {one_line(message)}", file=sys.stderr)
    return 2


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def _unraisable(u) -> None:
    """``sys.unraisablehook`` while a command runs: what Python reports as "Exception ignored"
    (an exception inside a finaliser, ``__del__``, which cannot propagate).

    - A KeyboardInterrupt there is a Ctrl-C or SIGTERM that arrived while a finaliser ran:
      Python would print it and drop it, and the command would run on.  It is delivered
      again (``_thread.interrupt_main``) from a timer thread 10 ms later, once this hook has
      returned (raised inside the hook, it would be dropped again), so the command stops as
      for any other moment.
    - An AttributeError from an llvmlite finaliser follows such an interrupt: one that came
      while llvmlite closed an LLVM object leaves it half closed, and its ``__del__`` fails
      later.  Seen in a fresh clone's test run, as ten lines of traceback after ``onirim
      bound``'s one "interrupted" line (tests/cli/test_faults.py); it is noise and is dropped.
    Anything else goes to Python's own hook."""
    kind = u.exc_type or type(None)
    if issubclass(kind, KeyboardInterrupt):
        for sig in (signal.SIGTERM, signal.SIGINT):
            if callable(signal.getsignal(sig)):
                timer = threading.Timer(0.01, _thread.interrupt_main, (sig,))
                timer.daemon = True
                timer.start()
                return
    if (issubclass(kind, AttributeError)
            and str(getattr(u.object, "__module__", "")).startswith("llvmlite")):
        return
    sys.__unraisablehook__(u)


@contextlib.contextmanager
def sigterm_as_interrupt():
    """While active (in the main thread), SIGTERM raises KeyboardInterrupt as Ctrl-C does:
    every command then stops on either with one line and status 130 (and an interrupt that
    lands in a finaliser is not lost: :func:`_unraisable`)."""
    try:
        old = signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:          # not the main thread: leave signals alone
        yield
        return
    old_hook, sys.unraisablehook = sys.unraisablehook, _unraisable
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)
        sys.unraisablehook = old_hook


def main(argv=None) -> int:
    try:
        with sigterm_as_interrupt():
            return _main(argv)
    except KeyboardInterrupt:   # a signal as the command ended: its line is said already
        return 130


def _main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in argv if not a.startswith("-")), None)
    try:        # Ctrl-C while the command's modules load: the same one line, status 130
        parser = build_parser(first if first in COMMANDS else "")
        args = parser.parse_args(argv)
    except UsageError as e:
        return fail(str(e))
    except SystemExit as e:       # --help, --version: printed, then argparse exits
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print("onirim: interrupted", file=sys.stderr)
        return 130
    if not getattr(args, "command", None):
        # no command is a usage error: the help goes to stderr, with status 2
        parser.print_help(file=sys.stderr)
        return 2
    if not hasattr(args, "_run"):
        return fail(f"the command {args.command!r} is not available in this build")
    try:
        return int(args._run(args) or 0)
    except (OnirimError, UsageError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("onirim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def entry() -> int:
    """The console script ``onirim``: :func:`main`, and an interrupted command (status 130,
    its one line said) leaves with status 130 as ``python -m onirim`` does
    (``onirim/__main__.py`` says why Python's own exit may not)."""
    code = main()
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return code
