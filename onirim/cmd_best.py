"""``onirim best "<position>"``: rank every legal action by its probability of winning.

Parsing and printing only: :func:`solver.api.rank` does the rest (the mode's solver, compiling
before the clock, ``--memo``, the budget, Ctrl-C and SIGTERM).  The text fits 80 columns;
``--json`` is one whole line.
"""
from __future__ import annotations

import json
import re
import sys
import textwrap
import time

from onirim.cli import UsageError
from solver.budgets import check_nodes, check_seconds

DEFAULT_BUDGET_S = 60.0
WIDTH = 80             # the text output fits this many columns


def add_arguments(p):
    from solver.api import solver_entries
    arg = p.add_argument
    arg("position", help="the position, in the notation of docs/NOTATION.md")
    arg("--mode", choices=tuple(solver_entries()), default=None,
        help="information model (default: expectimax for a solo position, open-hands for a "
             "two-player one: both hands known, the deck order unknown)")
    arg("--budget-s", type=float, default=None, metavar="T",
        help=f"time budget in seconds (default {DEFAULT_BUDGET_S:g} unless --budget-nodes is "
             "given), counted once the kernels are loaded and --memo is read; the answer "
             "comes within T plus the slack of docs/EXPECTIMAX.md section 'Budgets'; values "
             "left open are sound bounds")
    arg("--budget-nodes", type=int, default=None, metavar="N",
        help="node budget for the whole query")
    arg("--json", action="store_true", help="print the ranking as JSON, one line")
    arg("--tree", metavar="FILE.graphml", default=None,
        help="write the explored graph near the position (networkx GraphML)")
    arg("--table-bits", type=int, default=None, metavar="B",
        help="expectimax memo table of 2**B entries, fixed, 64 bytes of memory each; B is "
             "refused if that is more than the memory available (default: 2**20 entries, "
             "growing 4 times at a time once full, up to half the memory available)")
    arg("--view", action="store_true",
        help="rank from the player's view of the position: the order of a listed deck is "
             "hidden (its cards become unknown), except the revealed top cards in phase "
             "prophecy.  A position with seed= is always ranked from the player's view")
    arg("--no-progress", action="store_true",
        help="no progress bar (shown on standard error when it is a terminal, no --json)")
    arg("--threads", type=int, default=1, metavar="N",
        help="expectimax searches sharing the memo (default 1; values do not change; the "
             "speed-up measured: docs/EXPECTIMAX.md section 'Threads')")
    arg("--memo", metavar="FILE", default=None,
        help="expectimax: load the memo from FILE if it exists, and save it there at the "
             "end, also when interrupted (Ctrl-C, SIGTERM): the same command then resumes "
             "where it stopped, and related positions reuse the work (docs/EXPECTIMAX.md "
             "section 4b); entries take 64 bytes of memory each, as under --table-bits, "
             "and 56 bytes in the file (the row without its lock word)")
    arg("--certify", action="store_true",
        help="expectimax: replay one optimal strategy through the engine's rules and sum "
             "its win probability in exact fractions; it must equal the best action's "
             "value (docs/EXPECTIMAX.md section 7; not bounded by the budgets: up to about "
             "2 minutes at 15 unknown cards).  Adds 'certificate' to the JSON; exit "
             "status 1 if it disagrees")


def _budgets(args):
    check_seconds(args.budget_s, "--budget-s")
    check_nodes(args.budget_nodes, "--budget-nodes")
    if args.table_bits is not None and not 10 <= args.table_bits <= 30:
        raise UsageError("--table-bits must be from 10 to 30")
    if args.table_bits is not None and args.mode in (None, "expectimax"):
        from solver.expectimax.solver import check_table_memory
        check_table_memory(args.table_bits, "--table-bits")
    if not 1 <= args.threads <= 64:
        raise UsageError("--threads must be from 1 to 64")
    default = DEFAULT_BUDGET_S if args.budget_nodes is None else None
    return args.budget_nodes, default if args.budget_s is None else args.budget_s


def run(args) -> int:
    from solver import api

    budget_nodes, budget_s = _budgets(args)
    _check_paths(args)
    bars = _Bars(args, budget_s)
    saved = "" if args.memo is None else f"; memo saved to {args.memo}"
    position, mode = _player_view(args)
    try:
        ranking = api.rank(position, mode, budget_nodes=budget_nodes,
                           budget_s=budget_s, threads=args.threads,
                           table_bits=args.table_bits, memo=args.memo, view=args.view,
                           line=not args.json, tree=bool(args.tree), certify=args.certify,
                           on_progress=bars.report, on_certify=bars.certify,
                           say=lambda m: print(f"onirim: {m}", file=sys.stderr, flush=True))
    except api.OptionError as e:
        flag = "--" + e.option.replace("_", "-")
        raise UsageError(f"{flag}{'' if e.value is None else ' ' + e.value}: "
                         f"{e.problem}") from None
    except KeyboardInterrupt:            # before there was anything to show
        print(f"onirim: interrupted{saved}", file=sys.stderr)
        return 130
    finally:
        bars.close()
    if args.tree and ranking.graph is not None:
        import networkx as nx
        try:
            nx.write_graphml(ranking.graph, args.tree)
        except OSError as e:
            raise UsageError(f"--tree: cannot write {args.tree}: {e.strerror}") from None
    if args.json:
        print(json.dumps(ranking.to_json()))
    else:
        _print_table(ranking)
    if ranking.interrupted:
        print(f"onirim: interrupted: the ranking printed is what was found so far{saved}",
              file=sys.stderr)
        return 130
    cert = ranking.extra.get("certificate")
    return 1 if cert is not None and cert["ok"] is False else 0


def _player_view(args):
    """(position, mode): a two-player player's view (the partner's cards written ``?``, as
    ``onirim play --players 2`` prints it) is parsed as that view and ranked by mode
    ``duo-view`` (solver/duo/view_rank.py: that player's information only); any other text
    goes to ``api.rank`` as it is."""
    if "?" not in args.position:
        return args.position, args.mode
    from engine.notation import parse_view
    from engine.view import is_duo_view
    state = parse_view(args.position)
    if not is_duo_view(state):
        return args.position, args.mode
    if args.mode not in (None, "duo-view"):
        raise UsageError(f"--mode {args.mode}: a two-player player's view (the partner's "
                         "cards written ?) is ranked by mode duo-view")
    return state, "duo-view"


def _check_paths(args) -> None:
    """Refuse a --tree or --memo path that cannot be written before the search."""
    from solver.expectimax.memo_file import check_writable, path_problem
    problem = None if args.tree is None else path_problem(args.tree)
    if problem is not None:
        raise UsageError(f"--tree: {problem}")
    if args.memo is not None:
        check_writable(args.memo, "--memo")


# ------------------------------------------------------------------------- progress
BAR_FORMAT = "{n_fmt}/{total_fmt} actions exact |{bar}| {desc}"


class _Bars:
    """tqdm bars on standard error (a terminal, no --json or --no-progress): actions exact
    out of all, the round, the nodes and the time against the budget; then --certify's."""

    def __init__(self, args, budget_s):
        self.on = not (args.json or args.no_progress or not sys.stderr.isatty())
        self.t0, self.budget_s, self.bar, self.cert = time.perf_counter(), budget_s, None, None

    def report(self, exact, total, nodes, rnd):
        if self.on and self.bar is None:
            from tqdm import tqdm
            tqdm.monitor_interval = 0
            self.bar = tqdm(total=total, file=sys.stderr, dynamic_ncols=True, leave=False,
                            bar_format=BAR_FORMAT)
        if self.on:
            self.bar.total, self.bar.n = total, exact
            t = time.perf_counter() - self.t0
            budget = "" if self.budget_s is None else f"/{self.budget_s:g}"
            what = "probes" if rnd == 0 else f"round {rnd}"
            # the status goes in ``desc``: tqdm writes ``postfix`` after a comma of its own
            self.bar.set_description_str(f"{what}, {nodes:,} nodes, {t:.0f}{budget} s",
                                         refresh=False)
            self.bar.refresh()

    def certify(self, n):
        if self.on and self.cert is None:
            from tqdm import tqdm
            self.close()
            self.cert = tqdm(file=sys.stderr, leave=False, unit=" positions", desc="certify")
        if self.on:
            self.cert.update(n - self.cert.n)

    def close(self):
        for b in (self.bar, self.cert):
            if b is not None:
                b.close()


# ------------------------------------------------------------------------- the table
def _num(x) -> str:
    return "-" if x is None else f"{x:8.6f}"


class _Wrapper(textwrap.TextWrapper):
    """Breaks at spaces and after commas (a position's card lists), never inside a word."""
    wordsep_simple_re = re.compile(r"(\s+|(?<=,)(?=\S))")


def _say(out, text: str, indent: str = "  ") -> None:
    """``text`` wrapped to WIDTH columns, continuation lines indented."""
    w = _Wrapper(WIDTH, subsequent_indent=indent, break_on_hyphens=False)
    out.write("\n".join(w.wrap(text)) + "\n")


def _print_table(r) -> None:
    """The ranking as a table of at most WIDTH columns.  ``value`` is shown only when exact
    (``-`` otherwise); the estimate columns only when there are estimates.  A long action
    (a prophecy's order) goes on a line of its own above its numbers."""
    out = sys.stdout
    _say(out, f"position: {r.position}", "    ")
    out.write(f"mode: {r.mode}\n")
    for label, text in (("view", r.view_note), ("information", r.extra.get("information"))):
        if text:
            _say(out, f"{label}: {text}")
    est = any(a.estimate is not None for a in r.actions)
    cols = f"{'value':>8}  {'lo':>8}  {'hi':>8}  exact"
    if est:
        cols += f"  {'estimate':>8}  {'ci95':<14}"
    room = WIDTH - 5 - len(cols) - 2          # "  1  " + action + "  " + the numbers
    w = max([len(a.action) for a in r.actions if len(a.action) <= room] + [6])
    out.write(f"{'#':>3}  {'action':<{w}}  {cols}".rstrip() + "\n")
    for i, a in enumerate(r.actions, 1):
        nums = (f"{_num(a.value if a.exact else None):>8}  {a.lo:8.6f}  {a.hi:8.6f}  "
                f"{'yes' if a.exact else 'no ':<5}")
        if est:
            ci = "-" if a.ci95 is None else f"[{a.ci95[0]:.3f}, {a.ci95[1]:.3f}]"
            nums += f"  {_num(a.estimate):>8}  {ci:<14}"
        if len(a.action) > w:                 # its own line, the numbers under it
            out.write(f"{i:>3}  {a.action}\n")
            out.write(f"{'':>3}  {'':<{w}}  {nums}".rstrip() + "\n")
        else:
            out.write(f"{i:>3}  {a.action:<{w}}  {nums}".rstrip() + "\n")
    _print_verdict(out, r, est)
    for i, step in enumerate(r.line):
        _say(out, ("line: " if i == 0 else "      ") + step, "        ")
    out.write(f"nodes: {r.nodes}  seconds: {r.seconds:.3f}\n")
    notes = ("interrupted: the search was stopped (Ctrl-C or SIGTERM); the bounds above are "
             "what it proved before, sound" if r.interrupted else None, r.memo_note,
             _certificate(r.extra.get("certificate")))
    for note in filter(None, notes):
        _say(out, note)


def _print_verdict(out, r, est) -> None:
    if r.best is not None:
        _say(out, f"best: {r.best}")
    else:
        out.write("best: undecided (no action's lo reaches every other's hi)\n")
        _say(out, f"leader: {r.leader}, by {r.criterion}" if r.leader else r.criterion)
    if est:
        d = r.extra.get("estimates", {})
        _say(out, f"estimates: the winning chance of {d.get('policy', 'greedy')} play after "
                  f"the action ({d.get('playouts_per_action', '?')} playouts per action, "
                  f"{d.get('method', '?')}), {d.get('interval', '95%')} interval; an "
                  "estimate of that policy's value, not a bound on the best play's")


def _certificate(c) -> str | None:
    if c is None or c["ok"] is None:
        return None if c is None else f"certificate: none ({c['reason']})"
    verdict = ("equals the best action's value" if c["ok"]
               else f"DISAGREES with the value claimed ({c['claimed']:.12g})")
    return (f"certificate: the engine replays one optimal strategy ({c['positions']:,} "
            f"positions, {c['seconds']:.1f} s): it wins with probability {c['fraction']} = "
            f"{c['value']:.12g}, which {verdict}")
