"""``onirim best "<position>"``: rank every legal action by its probability of winning.

Parsing only (the output: ``onirim/best_output.py``): :func:`solver.api.rank` does the rest (the mode's solver, compiling
before the clock, ``--memo``, the budget, Ctrl-C and SIGTERM).  The text fits 80 columns;
``--json`` is one whole line.
"""
from __future__ import annotations

import json
import sys

from onirim.best_output import Bars, print_table
from onirim.cli import UsageError
from solver.budgets import check_nodes, check_seconds

DEFAULT_BUDGET_S = 60.0


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
    arg("--talk", choices=("none", "open"), default=None,
        help="two-player positions: rank from the view of the player to move in the game "
             "the players chose (docs/DUO.md): none, the silent game (the partner's cards "
             "unknown unless the view lists them; the default for a view written with ? or "
             "view=), or open, hands face up (the deck order unknown).  A full two-player "
             "position without --talk is ranked for the open-hands team, as before")
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
        raise UsageError(f"--table-bits: must be from 10 to 30, not {args.table_bits}")
    if args.table_bits is not None and args.mode in (None, "expectimax"):
        from solver.expectimax.solver import check_table_memory
        check_table_memory(args.table_bits, "--table-bits")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads: must be from 1 to 64, not {args.threads}")
    default = DEFAULT_BUDGET_S if args.budget_nodes is None else None
    return args.budget_nodes, default if args.budget_s is None else args.budget_s


def run(args) -> int:
    from solver import api

    budget_nodes, budget_s = _budgets(args)
    _check_paths(args)
    bars = Bars(args, budget_s)
    saved = "" if args.memo is None else f"; memo saved to {args.memo}"
    position, mode = _player_view(args)
    talk = _talk(args, position, mode)
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
    if talk is not None:
        ranking.extra["talk"] = talk
        game = "open game (hands face up)" if talk == "open" else "silent game"
        ranking.extra["information"] = f"{game}; {ranking.extra.get('information', '')}"
    if args.tree and ranking.graph is not None:
        import networkx as nx
        try:
            nx.write_graphml(ranking.graph, args.tree)
        except OSError as e:
            raise UsageError(f"--tree: cannot write {args.tree}: {e.strerror}") from None
    if args.json:
        print(json.dumps(ranking.to_json()))
    else:
        print_table(ranking)
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
    goes to ``api.rank`` as it is.  The JSON form of either (an argument that starts with
    ``{``, docs/NOTATION.md section 2.5) is read as ``onirim show`` reads it."""
    from engine.errors import PlayerViewError
    from engine.notation import parse_view
    from engine.view import is_duo_view
    if args.position.lstrip().startswith("{"):
        from .cmd_show import load_position
        try:
            state = load_position(args.position)    # show's reading: one line if bad
        except PlayerViewError as e:
            state = e.view
        if not is_duo_view(state):
            view = _talk_view(args, state)
            if view is None:
                return state, args.mode
            state = view
    elif "?" not in args.position and " view=" not in f" {args.position}":
        from engine.errors import OnirimError
        from engine.notation import parse_position
        try:
            state = _talk_view(args, parse_position(args.position))
        except OnirimError:
            state = None                  # api.rank says what is wrong with it
        if state is None:
            return args.position, args.mode
    else:
        state = parse_view(args.position)
    if not is_duo_view(state):
        return args.position, args.mode
    if args.mode not in (None, "duo-view"):
        raise UsageError(f"--mode {args.mode}: a two-player player's view (the partner's "
                         "cards written ?) is ranked by mode duo-view")
    return state, "duo-view"


def _talk_view(args, state):
    """With ``--talk``: the view, in that mode, of the player to move in the full two-player
    position ``state`` (None without ``--talk``, or for the open game's exact search, mode
    open-hands, which ranks the position itself; a solo position is refused with one line)."""
    if args.talk is None or (args.talk == "open" and args.mode == "open-hands"):
        return None
    if state.players != 2:
        raise UsageError(f"--talk {args.talk}: a two-player position or view only")
    from engine.view import player_view
    return player_view(state, talk=args.talk)


def _talk(args, position, mode):
    """The two-player game's mode the ranking is for (None: not a player's view of one)."""
    from engine.view import is_duo_view
    if mode == "open-hands" and args.talk == "open":
        return "open"
    if mode == "duo-view":
        if args.talk == "open" and position.hidden:
            raise UsageError(f"--talk open: this view hides {position.hidden} partner card(s) "
                             "(?); an open-game view lists them all")
        return args.talk or "none"
    if args.talk is not None and not is_duo_view(position):
        raise UsageError(f"--talk {args.talk}: a two-player position or view only (and "
                         "--talk open for mode open-hands)")
    return None


def _check_paths(args) -> None:
    """Refuse a --tree or --memo path that cannot be written before the search."""
    from solver.expectimax.memo_file import check_writable, path_problem
    problem = None if args.tree is None else path_problem(args.tree)
    if problem is not None:
        raise UsageError(f"--tree: {problem}")
    if args.memo is not None:
        check_writable(args.memo, "--memo")
