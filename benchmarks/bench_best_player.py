"""``onirim best``'s advice, followed move by move: how often does it win?

Plays solo deals under honest information (``solver.honest.play.play_honest``: the player's
view at every decision, deal mode, so deal ``s`` is the same deal as in every other honest
row).  At every decision the view goes to ``solver.api.rank`` in mode ``expectimax``, as
``onirim best`` sends it, under ``--budget-nodes N`` (deterministic) or ``--budget-s T``;
the proven best action is played, else the leader (``solver.advice``: the decision of the
strongest policy the budget affords, among the actions the bounds do not prove worse).  The
policies' stream is ``best``'s own (a hash of the position), not the decision stream of the
rows it is paired with: the games are not replays of the default policy's.

One row per deal (``benchmarks/rows.py``: the run's command, commit, machine; per deal
``won``, ``doors``, ``decisions``, ``proven`` (the decisions with a proven best action),
``leaders`` (the decisions played by each policy's leader), ``cpu_s``, ``wall_s``, ``load``,
``max_decision_cpu_s``), in ``benchmarks/results/rows/NAME.jsonl.gz`` when NAME is an
experiment of ``benchmarks/experiments.py`` (kind ``best-player``: ``python -m
benchmarks.experiments run NAME`` plays the same deals with the same parameters, and
docs/RESULTS.md shows them), else in ``benchmarks/results/NAME.jsonl.gz``.  A run resumes:
the deals stored are skipped.  ``--pair`` prints the paired comparison (sign test) with the
default policy's and ``strongest``'s stored rows on the same deals
(``bench_frontier.pair``).

    python -m benchmarks.bench_best_player --budget-nodes 20 --table-bits 16 --deals 500
    python -m benchmarks.bench_best_player --budget-s 10 --deals 100 --name best-s10
    python -m benchmarks.bench_best_player --control --deals 500     # the default on best's stream
    python -m benchmarks.bench_best_player --pair best-nodes-20
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time

from benchmarks.best_player import make_player, params, play_deal
from benchmarks.rows import ROWS_DIR, RowWriter

# the rows of a run that is no experiment of benchmarks/experiments.py (rows/ holds only
# theirs): the same format beside the other result files
OTHER_DIR = ROWS_DIR.parent


def rows_dir(name: str):
    """Where the rows of ``name`` are: ``rows/`` for an experiment, else ``OTHER_DIR``."""
    from benchmarks.experiments import EXPERIMENTS
    return ROWS_DIR if name in EXPERIMENTS else OTHER_DIR


DEFAULT_ROWS = "endgame8-seq-n1024-h32-stop-learned"     # the default policy's rows
STRONGEST_ROWS = "endgame12p-seq-n4096-h32-stop-learned"  # strongest's rows


def play(name, budget_nodes, budget_s, first, deals, argv, quiet=False,
         table_bits=None, control=False) -> int:
    from benchmarks.experiments import _load, git_state, machine
    commit, clean = git_state()
    p = params(budget_nodes, budget_s, table_bits, control, deals, first)
    header = {"command": shlex.join(argv), "commit": commit, "clean_tree": clean,
              "machine": machine(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
              "params": {**p, "kind": "best-player"},
              "timing": "cpu_s: CPU time of this process (time.process_time) over the deal; "
                        "wall_s: wall time over the same span; load: 1-minute load average "
                        "at its end; one process, one core; compile time excluded"}
    written = 0
    with RowWriter(name, header, rows_dir(name)) as out:
        todo = [s for s in range(first, first + deals) if s not in out.done]
        player = make_player(p) if todo else None
        for s in todo:
            c0, t0 = time.process_time(), time.perf_counter()
            row = play_deal(player, s)
            row.update(cpu_s=round(time.process_time() - c0, 6),
                       wall_s=round(time.perf_counter() - t0, 6), load=_load())
            out.add(row)
            written += 1
            if not quiet:
                print(f"deal {s}: {'won' if row['won'] else 'lost'} ({row['decisions']} "
                      f"decisions, {row['cpu_s']:.1f} s CPU)", file=sys.stderr, flush=True)
    return written


def report(name) -> dict:
    """The rows' win rate and cost, and the paired comparison with the default's and
    strongest's rows on the same deals."""
    from benchmarks.bench_frontier import ms_per_decision, pair
    from benchmarks.rows import by_seed, read
    from solver.stats import wilson
    data = {name: by_seed(read(name, rows_dir(name)))}
    for other in (DEFAULT_ROWS, STRONGEST_ROWS):
        data[other] = by_seed(read(other))
    rows = list(data[name].values())
    w = sum(bool(r["won"]) for r in rows)
    dec = sum(r["decisions"] for r in rows)
    out = {"name": name, "deals": len(rows), "wins": w,
           "win_rate": w / len(rows) if rows else None,
           "ci95": list(wilson(w, len(rows))) if rows else None,
           "cpu_ms_per_decision": ms_per_decision(rows),
           "max_decision_cpu_s": max((r["max_decision_cpu_s"] for r in rows), default=None),
           "proven_share": sum(r["proven"] for r in rows) / dec if dec else None,
           "mean_load": sum(r["load"] for r in rows) / len(rows) if rows else None,
           "pairs": [pair(data, name, DEFAULT_ROWS), pair(data, name, STRONGEST_ROWS)]}
    return out


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_best_player",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget-nodes", type=int)
    ap.add_argument("--budget-s", type=float)
    ap.add_argument("--first", type=int, default=0, help="first deal seed (default 0)")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--table-bits", type=int, help="onirim best --table-bits (default: its "
                    "own, a 2^20-entry table filled at every call; a small node budget fits "
                    "2^16)")
    ap.add_argument("--name", help="rows name (default best-nodes-N or best-sT)")
    ap.add_argument("--pair", metavar="NAME", help="print the paired report of stored rows")
    ap.add_argument("--control", action="store_true", help="the control: the default policy "
                    "alone on best's stream (rows best-control unless --name)")
    ap.add_argument("--quiet", action="store_true")
    return ap


def params_of(args) -> dict:
    """The parameters a command line plays (:func:`params`)."""
    return params(args.budget_nodes, args.budget_s, args.table_bits, args.control,
                  args.deals, args.first)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.pair:
        import json
        try:
            print(json.dumps(report(args.pair), indent=1))
        except FileNotFoundError as e:
            print(f"bench_best_player: error: {e}", file=sys.stderr)
            return 2
        return 0
    if args.control:
        argv = ["python", "-m", "benchmarks.bench_best_player"] + list(
            sys.argv[1:] if argv is None else argv)
        n = play(args.name or "best-control", None, None, args.first, args.deals, argv,
                 args.quiet, control=True)
        print(f"{n} deals stored in {args.name or 'best-control'}")
        return 0
    if (args.budget_nodes is None) == (args.budget_s is None):
        print("bench_best_player: error: give --budget-nodes or --budget-s", file=sys.stderr)
        return 2
    if args.deals < 1 or args.first < 0:
        print("bench_best_player: error: --deals must be >= 1 and --first >= 0",
              file=sys.stderr)
        return 2
    name = args.name or (f"best-nodes-{args.budget_nodes}" if args.budget_nodes is not None
                         else f"best-s{args.budget_s:g}")
    argv = ["python", "-m", "benchmarks.bench_best_player"] + list(
        sys.argv[1:] if argv is None else argv)
    n = play(name, args.budget_nodes, args.budget_s, args.first, args.deals, argv, args.quiet,
             args.table_bits)
    print(f"{n} deals stored in {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
