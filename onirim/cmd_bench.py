"""``onirim bench [--quick] [--json] [--out DIR] [--sections LIST] [--no-plots]``.

Runs the throughput benchmarks of ``benchmarks/bench_all.py``, prints a table (or, with
``--json``, the JSON) and writes ``bench-quick.json`` or ``bench-full.json`` (and PNG figures
when matplotlib is installed) under ``--out`` (default ``.bench-results/`` in the current
folder, which git ignores: a run never writes into the repository unless asked to).  See
docs/PERFORMANCE.md for what each figure means.
"""
from __future__ import annotations

import os

from onirim.cli import UsageError

SECTIONS = ("playouts", "solver", "expectimax")
DEFAULT_OUT = ".bench-results"     # git-ignored


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true",
                   help="short run for CI (about a minute once the numba kernels are compiled: "
                        "make install or python -m onirim.precompile)")
    p.add_argument("--json", action="store_true", help="print the JSON instead of the table")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"directory for the JSON and figures (default {DEFAULT_OUT})")
    p.add_argument("--sections", default=",".join(SECTIONS), metavar="LIST",
                   help="comma-separated sections to run: " + ", ".join(SECTIONS)
                   + " (default all; figures of the others are null)")
    p.add_argument("--no-plots", action="store_true", help="do not draw the PNG figures")


def _sections(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise UsageError("--sections: needs at least one section")
    for s in names:
        if s not in SECTIONS:
            raise UsageError(f"--sections: unknown section {s!r} (choose from: "
                             f"{', '.join(SECTIONS)})")
    return names


# the kernel families each section runs (onirim.precompile)
SECTION_FAMILIES = {"playouts": ("playouts", "honest"), "solver": ("clairvoyant",),
                    "expectimax": ("expectimax",)}


def _compile_notices(sections) -> None:
    """Before the run, one line on stderr for each family the sections need that numba's
    cache does not hold yet (compiling it comes first), with its measured compile time."""
    import sys
    from onirim.precompile import compile_notice
    for fam in dict.fromkeys(f for s in sections for f in SECTION_FAMILIES[s]):
        line = compile_notice(fam)
        if line is not None:
            print(line, file=sys.stderr, flush=True)


def _bench_all():
    try:
        from benchmarks import bench_all
    except ImportError as e:
        raise UsageError(f"bench: needs the benchmarks package ({e})") from None
    return bench_all


def run(args) -> int:
    sections = _sections(args.sections)
    if args.out is not None:
        out = os.path.abspath(args.out)
        if os.path.exists(out) and not os.path.isdir(out):
            raise UsageError(f"--out: {args.out!r} is not a directory")
        parent = os.path.dirname(out)
        if not os.path.isdir(parent):
            # as --db, --tree and --memo: the folder that holds the output must exist
            raise UsageError(f"--out: cannot write {args.out}: folder {parent} does not exist")
        try:
            if not os.path.isdir(out):
                os.mkdir(out)
        except OSError as e:
            raise UsageError(f"--out: cannot create {args.out!r} ({e.strerror})") from None
    else:
        out = None
    bench_all = _bench_all()
    _compile_notices(sections)
    result = bench_all.run(quick=args.quick, sections=sections)
    return bench_all.finish(result, out, args.json, plots=not args.no_plots)
