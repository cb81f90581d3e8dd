"""``onirim best "<position>"``: rank every legal action by its probability of winning.

Modes (SPEC section 6): ``expectimax`` (the default for solo positions; honest information,
docs/EXPECTIMAX.md), ``clairvoyant`` (the deck fully listed and ``seed`` given: every action
is a WIN or a LOSS; solo and two-player) and ``open-hands`` (the default for two-player
positions: both players' cards known to the team, the deck order unknown; an upper bound on
honest play, docs/DUO_EXPECTIMAX.md).

In expectimax mode the kernels are compiled (or loaded) and the memo allocated and loaded
before the clock starts; from then on ``--budget-s`` covers every phase: the probes, the
rounds, the estimates, the principal line and ``--tree`` (``--certify`` excepted).  ``best``
is an action only when it is proven best; otherwise it is undecided and ``leader`` names the
front runner with its criterion.  A seeded position (a live deal) is ranked from the player's
view; ``--view`` hides the order of a listed deck without a seed.
"""
from __future__ import annotations

import json
import os
import sys
import time

from onirim.cli import UsageError
from solver.budgets import check_nodes, check_seconds

DEFAULT_BUDGET_S = 60.0
LINE_SHARE = 0.1       # of --budget-s kept for the principal line and --tree (text output)
LINE_MAX_S = 2.0       # ... but at most this many seconds (and this many after the ranking
                       # under --budget-nodes alone)


def add_arguments(p):
    p.add_argument("position", help="the position, in the notation of docs/NOTATION.md")
    p.add_argument("--mode", choices=("expectimax", "clairvoyant", "open-hands"), default=None,
                   help="information model (default: expectimax for a solo position, "
                        "open-hands for a two-player one: both hands known, the deck order "
                        "unknown)")
    p.add_argument("--budget-s", type=float, default=None, metavar="T",
                   help=f"time budget in seconds (default {DEFAULT_BUDGET_S:g} unless "
                        "--budget-nodes is given); values left open are sound bounds")
    p.add_argument("--budget-nodes", type=int, default=None, metavar="N",
                   help="node budget for the whole query")
    p.add_argument("--json", action="store_true", help="print the JSON of docs/NOTATION.md")
    p.add_argument("--tree", metavar="FILE.graphml", default=None,
                   help="write the explored graph near the position (networkx GraphML)")
    p.add_argument("--table-bits", type=int, default=None, metavar="B",
                   help="expectimax memo table of 2**B entries, fixed; each entry takes 64 "
                        "bytes of memory, and B is refused if that is more than the memory "
                        "available (default: start at 2**20 entries, 64 MiB, and grow 4 "
                        "times at a time once full and overwriting, up to half the memory "
                        "available)")
    p.add_argument("--view", action="store_true",
                   help="expectimax: rank from the player's view of the position: the order "
                        "of a listed deck is hidden (its cards become unknown), except the "
                        "revealed top cards in phase prophecy.  A position with seed= is "
                        "always ranked from the player's view")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is shown on standard error when that is a "
                        "terminal and --json is not given)")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="expectimax searches sharing the memo (default 1; 2 on a 2-core "
                        "machine is about 1.6 times as fast; exact values do not change)")
    p.add_argument("--memo", metavar="FILE", default=None,
                   help="expectimax: load the memo from FILE if it exists, and save it there "
                        "at the end, also when interrupted (Ctrl-C, SIGTERM): the same "
                        "command then resumes where it stopped, and related positions reuse "
                        "the work (docs/EXPECTIMAX.md section 4b); entries take 64 bytes "
                        "of memory each, as under --table-bits, and 56 bytes in the file "
                        "(the row without its lock word)")
    p.add_argument("--certify", action="store_true",
                   help="expectimax: replay one optimal strategy through the engine's rules "
                        "and sum its win probability in exact fractions; it must equal the "
                        "best action's value (docs/EXPECTIMAX.md section 7; not bounded "
                        "by the budgets: up to about 2 minutes at 15 unknown cards).  Adds "
                        "'certificate' to the JSON; exit status 1 if it disagrees")


def _budgets(args):
    check_seconds(args.budget_s, "--budget-s")
    check_nodes(args.budget_nodes, "--budget-nodes")
    if args.table_bits is not None and not 10 <= args.table_bits <= 30:
        raise UsageError("--table-bits must be from 10 to 30")
    if args.table_bits is not None and args.mode in (None, "expectimax"):
        from solver.expectimax import check_table_memory
        check_table_memory(args.table_bits, "--table-bits")
    if args.view and args.mode == "clairvoyant":
        raise UsageError("--view: only in expectimax or open-hands mode (clairvoyant mode "
                         "knows the deck)")
    if not 1 <= args.threads <= 64:
        raise UsageError("--threads must be from 1 to 64")
    if args.memo is not None and args.mode not in (None, "expectimax"):
        raise UsageError("--memo: only in expectimax mode")
    if args.certify and args.mode not in (None, "expectimax"):
        raise UsageError("--certify: only in expectimax mode (a clairvoyant WIN is "
                         "replayed in the engine already)")
    budget_s = args.budget_s
    if budget_s is None and args.budget_nodes is None:
        budget_s = DEFAULT_BUDGET_S
    return args.budget_nodes, budget_s


def run(args) -> int:
    from engine.notation import parse_position

    budget_nodes, budget_s = _budgets(args)
    state = parse_position(args.position)
    mode = _resolve_mode(args, state)
    _check_tree_path(args.tree)
    memo = cert = None
    note = None
    if mode == "clairvoyant" and state.players == 2:
        ranking, graph = _clairvoyant_duo(state, budget_nodes, budget_s, bool(args.tree))
    elif mode == "clairvoyant":
        ranking, graph = _clairvoyant(state, budget_nodes, budget_s, bool(args.tree))
    elif mode == "open-hands":
        ranking, note = _open_hands(state, args, budget_nodes, budget_s)
        graph = None
    else:
        from solver.expectimax import Expectimax, check_decision, encode, prepare_kernels

        view, note = _view(state, args.view)
        check_decision(view)
        encode(view)
        # before the clock: compile or load the kernels (and load --memo FILE)
        prepare_kernels(say=lambda m: print(f"onirim: {m}", file=sys.stderr, flush=True))
        t_start = time.perf_counter()             # the clock: the memo table counts
        solver = Expectimax(args.table_bits, threads=args.threads)
        if args.memo is not None:
            t_load = time.perf_counter()
            loaded = _load_memo(solver, args.memo)
            t_start += time.perf_counter() - t_load
        else:
            loaded = None
        with _TermAsInterrupt(args.memo is not None):
            try:
                ranking, graph = _expectimax(solver, view, args, budget_nodes, budget_s,
                                             t_start)
                if args.certify:
                    cert = _certify(solver, view, ranking, args)
            except KeyboardInterrupt:
                if args.memo is None:
                    raise
                n = solver.save_memo(args.memo)
                print(f"onirim: interrupted; memo saved to {args.memo} ({n:,} entries): "
                      "the same command resumes from there", file=sys.stderr)
                return 130
            memo = f"memo: 2^{solver.table_bits} entries"
            if solver.grown:
                memo += f" (grown {solver.grown} times from 2^{solver.start_bits})"
            if args.memo is not None:
                n = solver.save_memo(args.memo)
                memo += (f"; {loaded:,} entries loaded from {args.memo}, {n:,} saved"
                         if loaded is not None else f"; {n:,} entries saved to {args.memo}")
        if note is not None:
            ranking.extra["view"] = "player"
    if args.tree:
        import networkx as nx
        try:
            nx.write_graphml(graph, args.tree)
        except OSError as e:
            raise UsageError(f"--tree: cannot write {args.tree}: {e.strerror}") from None
    if args.json:
        out = ranking.to_json()
        if cert is not None:
            out["certificate"] = cert
        print(json.dumps(out))
    else:
        _print_table(ranking, note)
        if memo:
            print(memo)
        if cert is not None:
            _print_certificate(cert)
    return 1 if cert is not None and cert["ok"] is False else 0


def _resolve_mode(args, state) -> str:
    """The mode for this position (the default depends on the player count), and the
    options each two-player mode refuses (one line, exit status 2)."""
    duo = state.players == 2
    mode = args.mode or ("open-hands" if duo else "expectimax")
    if duo and mode == "expectimax":
        raise UsageError("--mode expectimax: solo positions only (no honest two-player "
                         "expectimax is written); for a two-player position use --mode "
                         "open-hands (both hands known: an upper bound on honest play) or "
                         "--mode clairvoyant")
    if not duo and mode == "open-hands":
        raise UsageError("--mode open-hands: two-player positions only (mode=duo); a solo "
                         "position is ranked by --mode expectimax")
    if mode == "open-hands":
        for flag, given in (("--tree", args.tree), ("--memo", args.memo),
                            ("--certify", args.certify),
                            ("--table-bits", args.table_bits is not None),
                            ("--threads", args.threads != 1)):
            if given:
                raise UsageError(f"{flag}: not available in open-hands mode")
    return mode


def _open_hands(state, args, budget_nodes, budget_s):
    """--mode open-hands: the two-player open-hands expectimax (solver.duo_expectimax).
    Pure Python, nothing to compile: the clock starts at the search."""
    from solver.duo_expectimax import DuoExpectimax, check_duo_decision, open_hands

    hide = bool(args.view)
    view = open_hands(state, hide)
    check_duo_decision(view)
    note = None
    if state.seed is not None:
        note = _NOTE_SEED_DUO
    elif hide:
        note = _NOTE_VIEW
    ranking = DuoExpectimax().rank(view, budget_nodes, budget_s)
    if note is not None:
        ranking.extra["view"] = "team"
    return ranking, note


_NOTE_SEED_DUO = ("the team's, open hands (the position has a seed: ranked without the seed "
                  "and the deck order; both players' cards are known to the team)")

_NOTE_SEED = ("the player's (the position has a seed: ranked without the seed and the order "
              "of the deck cards the player has not seen)")
_NOTE_VIEW = "the player's (--view: the listed deck order hidden)"


def _view(state, hide: bool):
    """The chance-mode position expectimax ranks, and a note for the output (None: the
    position as given).  A seeded position is always the player's view; ``--view`` hides
    a listed deck's order otherwise.  Too long a listed deck without it is one line that
    says what to do."""
    from engine.errors import OnirimError
    from engine.view import player_view
    from solver import expectimax_kernel as K

    if state.seed is not None:
        return player_view(state), _NOTE_SEED
    if hide:
        k = min(5, state.deck_size()) if state.phase == "prophecy" else 0
        v = state.clone()
        for c in v.deck[k:]:
            v.unknown[c] += 1
        v.deck = v.deck[:k]
        return v, _NOTE_VIEW
    if len(state.deck) > K.MAX_PREFIX:
        raise OnirimError(f"deck: expectimax takes at most {K.MAX_PREFIX} listed (known) deck "
                          f"cards, not {len(state.deck)}; add --view to rank from the "
                          "player's view (the deck order hidden), or give seed= and use "
                          "--mode clairvoyant")
    return state, None


def _expectimax(solver, view, args, budget_nodes, budget_s, t0):
    """The ranking, the principal line (text output) and (with --tree) the graph near the
    position, all within --budget-s from ``t0`` (LINE_SHARE of it, at most LINE_MAX_S, is
    kept for the line and the tree)."""
    from engine.notation import format_position

    deadline = None if budget_s is None else t0 + budget_s
    want_line = not args.json
    reserve = 0.0
    if budget_s is not None and (want_line or args.tree):
        reserve = min(LINE_SHARE * budget_s, LINE_MAX_S)
    bar = _progress_bar(args, budget_s)
    try:
        left = None if budget_s is None else max(1e-6, deadline - time.perf_counter())
        ranking = solver.rank(view, budget_nodes, left,
                              position=format_position(view), reserve_s=reserve,
                              progress=None if bar is None else bar.report)
    finally:
        if bar is not None:
            bar.close()
    if deadline is None and budget_nodes is not None:
        # --budget-nodes alone: the line and the tree still end, LINE_MAX_S after the ranking
        deadline = time.perf_counter() + LINE_MAX_S
    if want_line and ranking.actions:
        first = ranking.actions[0]          # the proven best, or else the leader
        ranking.line = solver.line(view, node_budget=50_000, first=first.action,
                                   first_bounds=(first.lo, first.hi), deadline=deadline)
    graph = (solver.tree(view, node_budget=50_000, deadline=deadline) if args.tree
             else None)
    ranking.seconds = time.perf_counter() - t0
    return ranking, graph


def _load_memo(solver, path):
    """--memo: check that the file can be written later, and load it if it exists (a bad
    file is one line and exit status 2, and stays as it was).  The number loaded, or None."""
    if path is None:
        return None
    from solver import memo_file

    memo_file.check_writable(path, "--memo")
    if not os.path.exists(path):
        return None
    return solver.load_memo(path)


class _TermAsInterrupt:
    """While active, SIGTERM raises KeyboardInterrupt like Ctrl-C, so that the memo is saved
    before the process ends (the search itself stops within a few thousand nodes)."""

    def __init__(self, active: bool):
        self.active = active
        self.old = None

    def __enter__(self):
        import signal
        import threading
        if self.active and threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGTERM, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        import signal
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)
        return False


def _check_tree_path(path) -> None:
    """Refuse a --tree path that cannot be written before the search, not after it."""
    if path is None:
        return
    from solver.memo_file import path_problem
    problem = path_problem(path)
    if problem is not None:
        raise UsageError(f"--tree: {problem}")


def _certify(solver, state, ranking, args) -> dict:
    """The certificate block: the engine replay of one optimal strategy (solver.certify),
    or why there is none (a budget left the best action open)."""
    if not all(a.exact for a in ranking.actions):
        return {"ok": None, "reason": "a budget left values open: nothing exact to certify"}
    bar = None
    if not (args.json or args.no_progress or not sys.stderr.isatty()):
        from tqdm import tqdm
        bar = tqdm(file=sys.stderr, leave=False, unit=" positions", desc="certify")
    try:
        r = solver.certify(state, progress=None if bar is None
                           else (lambda n: bar.update(n - bar.n)))
    finally:
        if bar is not None:
            bar.close()
    v = r["certified"]
    return {"ok": r["ok"], "value": float(v), "fraction": f"{v.numerator}/{v.denominator}",
            "claimed": ranking.actions[0].value if ranking.actions else r["claimed"],
            "positions": r["positions"], "kernel_queries": r["queries"],
            "seconds": round(r["replay_s"], 3)}


def _print_certificate(c) -> None:
    if c["ok"] is None:
        print(f"certificate: none ({c['reason']})")
        return
    verdict = ("equals the best action's value" if c["ok"]
               else f"DISAGREES with the value claimed ({c['claimed']:.12g})")
    print(f"certificate: the engine replays one optimal strategy ({c['positions']:,} "
          f"positions, {c['seconds']:.1f} s): it wins with probability {c['fraction']} = "
          f"{c['value']:.12g}, which {verdict}")


BAR_FORMAT = "{n_fmt}/{total_fmt} actions exact |{bar}| {desc}"


class _Bar:
    """tqdm bar on standard error: actions exact out of all, with the round, the nodes
    and the time against the budget."""

    def __init__(self, budget_s):
        from tqdm import tqdm

        tqdm.monitor_interval = 0
        self.t0 = time.perf_counter()
        self.budget_s = budget_s
        self.bar = tqdm(total=None, file=sys.stderr, dynamic_ncols=True, leave=False,
                        bar_format=BAR_FORMAT)

    def report(self, exact, total, nodes, rnd):
        if self.bar.total != total:
            self.bar.total = total
        self.bar.n = exact
        t = time.perf_counter() - self.t0
        budget = "" if self.budget_s is None else f"/{self.budget_s:g}"
        what = "probes" if rnd == 0 else f"round {rnd}"
        # the status goes in ``desc``: tqdm writes ``postfix`` after a comma of its own
        self.bar.set_description_str(f"{what}, {nodes:,} nodes, {t:.0f}{budget} s",
                                     refresh=False)
        self.bar.refresh()

    def close(self):
        self.bar.close()


def _progress_bar(args, budget_s):
    if args.json or args.no_progress or not sys.stderr.isatty():
        return None
    return _Bar(budget_s)


def _num(x) -> str:
    return "-" if x is None else f"{x:8.6f}"


def _print_table(r, note=None) -> None:
    """The ranking as a table.  ``value`` is shown only when exact (``-`` otherwise); the
    estimate columns only when there are estimates."""
    out = sys.stdout
    out.write(f"position: {r.position}\nmode: {r.mode}\n")
    if note:
        out.write(f"view: {note}\n")
    if r.extra.get("information"):
        out.write(f"information: {r.extra['information']}\n")
    est = any(a.estimate is not None for a in r.actions)
    w = max([len(a.action) for a in r.actions] + [6])
    head = f"{'#':>3}  {'action':<{w}}  {'value':>8}  {'lo':>8}  {'hi':>8}  exact"
    if est:
        head += f"  {'estimate':>8}  {'ci95':<17}"
    out.write(head.rstrip() + "\n")
    for i, a in enumerate(r.actions, 1):
        row = (f"{i:>3}  {a.action:<{w}}  {_num(a.value if a.exact else None):>8}  "
               f"{a.lo:8.6f}  {a.hi:8.6f}  {'yes' if a.exact else 'no ':<5}")
        if est:
            ci = "-" if a.ci95 is None else f"[{a.ci95[0]:.3f}, {a.ci95[1]:.3f}]"
            row += f"  {_num(a.estimate):>8}  {ci:<17}"
        out.write(row.rstrip() + "\n")
    if r.best is not None:
        out.write(f"best: {r.best}\n")
    else:
        out.write(f"best: undecided (no action's lo reaches every other's hi); leader: "
                  f"{r.leader}, by {r.criterion}\n")
    if est:
        d = r.extra.get("estimates", {})
        out.write(f"estimates: the winning chance of {d.get('policy', 'greedy')} play after "
                  f"the action ({d.get('playouts_per_action', '?')} playouts per action, "
                  f"{d.get('method', '?')}), {d.get('interval', '95%')} interval; an "
                  "estimate of that policy's value, not a bound on the best play's\n")
    if r.line:
        out.write("line: " + "\n      ".join(r.line) + "\n")
    out.write(f"nodes: {r.nodes}  seconds: {r.seconds:.3f}\n")


# --------------------------------------------------------------------------- clairvoyant
def _clairvoyant(state, budget_nodes, budget_s, want_graph):
    """--mode clairvoyant on a solo deal (solver.clairvoyant.solve_state per action)."""
    from engine.errors import OnirimError
    from solver.clairvoyant_rank import clairvoyant_rank

    if state.players != 1:
        raise OnirimError("mode: clairvoyant handles solo positions only")
    try:
        from solver.clairvoyant import solve_state
    except ImportError as e:
        raise OnirimError(f"clairvoyant solver unavailable ({e})") from None

    def solve(child, per_nodes, per_s):
        kw = {"time_budget_s": per_s}
        if per_nodes is not None:
            kw["node_budget"] = per_nodes
        return solve_state(child, **kw)

    ranking = clairvoyant_rank(state, solve, budget_nodes, budget_s)
    return ranking, (_flat_graph(state, ranking) if want_graph else None)


def _clairvoyant_duo(state, budget_nodes, budget_s, want_graph):
    """--mode clairvoyant on a two-player deal (solver.duo_search.DuoSolver): each action is
    a WIN (a line replayed in the engine), a LOSS (the complete search exhausted) or open
    ([0, 1], a budget ran out).  The kernels are compiled (or loaded) before the clock."""
    from solver.clairvoyant_rank import check_clairvoyant, clairvoyant_rank

    check_clairvoyant(state)
    solver = _duo_solver()               # compiled or loaded: before the clock

    def solve(child, per_nodes, per_s):
        return solver.solve_state(child, node_budget=per_nodes, time_budget_s=per_s)

    ranking = clairvoyant_rank(state, solve, budget_nodes, budget_s)
    ranking.extra["players"] = 2
    if ranking.line:
        ranking.extra["line"] = ranking.line
    return ranking, (_flat_graph(state, ranking) if want_graph else None)


_DUO_SOLVER = None


def _duo_solver():
    """One DuoSolver per process, its kernels compiled or loaded by a small warm-up search
    (a few thousand nodes of deal 0), so that compiling never counts against --budget-s."""
    global _DUO_SOLVER
    if _DUO_SOLVER is None:
        from engine.game import Game
        from solver.duo_search import DuoSolver
        _DUO_SOLVER = DuoSolver(tt_mb=64)
        _DUO_SOLVER.solve_state(Game(2).new_initial_state(0), node_budget=2_000)
    return _DUO_SOLVER


def _flat_graph(state, ranking):
    """The root and one node per action (clairvoyant modes)."""
    import networkx as nx
    graph = nx.DiGraph()
    graph.add_node("n0", phase=state.phase, position=ranking.position, kind="decision",
                   label=state.phase)
    for i, av in enumerate(ranking.actions, 1):
        attrs = dict(lo=av.lo, hi=av.hi, exact=av.exact, kind="child",
                     label=f"{av.value:.0f}" if av.exact else "?")
        if av.exact:
            attrs["value"] = av.value
        graph.add_node(f"n{i}", **attrs)
        graph.add_edge("n0", f"n{i}", action=av.action)
    return graph
