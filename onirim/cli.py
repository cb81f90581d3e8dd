"""``onirim`` command line: a dispatcher over sub-command modules.

Each sub-command lives in its own module ``onirim.cmd_<name>`` that defines
``add_arguments(parser)`` and ``run(args) -> int``.  Modules are imported lazily, so ``onirim
show`` never pays for compiling numba kernels.

Every bad input ends with exactly one line on stderr, ``onirim: error: ...``, and exit status 2;
no traceback is ever printed for input the user gave.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import OnirimError

COMMANDS = {
    "play": "play a game in the terminal",
    "show": "draw a position and print its canonical notation",
    "demo": "run the main job on a small default",
    "winrate": "solve many deals and report the win rate",
    "verify": "re-check stored results against the engine",
    "best": "rank every legal action of a position",
    "bench": "run the throughput benchmarks",
}


class UsageError(Exception):
    """Bad command-line usage: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message}")


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
    print(f"onirim: error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS else "")
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return fail(str(e).removeprefix("onirim: "))
    if not getattr(args, "command", None):
        parser.print_help()
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
