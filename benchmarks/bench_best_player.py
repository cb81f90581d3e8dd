"""``onirim best``'s advice, followed move by move: how often does it win?

Plays solo deals under honest information (``solver.honest.play.play_honest``: the player's
view at every decision, deal mode, so deal ``s`` is the same deal as in every other honest
row).  At every decision the view goes to ``solver.api.rank`` in mode ``expectimax``, as
``onirim best`` sends it, under ``--budget-nodes N`` (deterministic) or ``--budget-s T``;
the proven best action is played, else the leader (``solver.advice``: the decision of the
strongest policy the budget affords, among the actions the bounds do not prove worse).  The
policies' stream is ``best``'s own (a hash of the position), not the decision stream of the
rows it is paired with: the games are not replays of the default policy's.

One row per deal in ``benchmarks/results/NAME.jsonl.gz`` (``benchmarks/rows.py``: the
run's command, commit, machine; per deal ``won``, ``doors``, ``decisions``, ``proven`` (the
decisions with a proven best action), ``leaders`` (the decisions played by each policy's
leader), ``cpu_s``, ``wall_s``, ``load``, ``max_decision_cpu_s``).  A run resumes: the deals
stored are skipped.  ``--pair`` prints the paired comparison (sign test) with the default
policy's and ``strongest``'s stored rows on the same deals (``bench_frontier.pair``).

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

from benchmarks.rows import ROWS_DIR, RowWriter

# Not experiments of benchmarks/experiments.py (rows/ holds only theirs): the same row format
# beside the other result files, read with benchmarks.rows.read(name, BEST_DIR).
BEST_DIR = ROWS_DIR.parent

DEFAULT_ROWS = "endgame8-seq-n1024-h32-stop-learned"     # the default policy's rows
STRONGEST_ROWS = "endgame12p-seq-n4096-h32-stop-learned"  # strongest's rows
POLICY_SEED = 1          # the policy seed of the rows paired with (best ignores the stream)


class BestPlayer:
    """A policy that plays ``onirim best``'s answer: the proven best action, else the
    leader.  ``stats`` counts per game: decisions proven, leaders by policy, the largest
    CPU time of one decision."""

    name = "best"
    config: dict = {}
    players = (1,)

    def __init__(self, budget_nodes=None, budget_s=None, table_bits=None):
        self.budget_nodes, self.budget_s = budget_nodes, budget_s
        self.table_bits = table_bits
        self.reset()

    def reset(self):
        self.stats = {"proven": 0, "leaders": {}, "max_decision_cpu_s": 0.0, "no_leader": 0}

    def warm_up(self):
        from engine.game import Game
        from engine.view import player_view
        from solver import api
        api.rank(player_view(Game(1).new_initial_state(seed=10**9)), "expectimax",
                 budget_nodes=10)

    def act(self, view, stream):
        from solver import api
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        c0 = time.process_time()
        r = api.rank(view, "expectimax", budget_nodes=self.budget_nodes,
                     budget_s=self.budget_s, table_bits=self.table_bits)
        st = self.stats
        st["max_decision_cpu_s"] = max(st["max_decision_cpu_s"], time.process_time() - c0)
        if r.best is not None:
            st["proven"] += 1
            name = r.best
        elif r.leader is not None:
            pol = (r.extra.get("estimates") or {}).get("policy", "lo")
            st["leaders"][pol] = st["leaders"].get(pol, 0) + 1
            name = r.leader
        else:                           # no advice: the first row (counted)
            st["no_leader"] += 1
            name = r.actions[0].action
        return next(a.action_id for a in r.actions if a.action == name)


class DefaultAtBestStream:
    """The control: the default policy alone, on ``best``'s stream (a hash of the position,
    ``solver.advice.position_stream``) instead of the decision stream, with no exact search
    of ``best``'s own and no pruning by its bounds (``--control``)."""

    name = "default-at-best-stream"
    config: dict = {}
    players = (1,)

    def __init__(self):
        from solver.api import make_default_policy
        self.policy = make_default_policy()
        self.reset()

    def reset(self):
        self.stats = {"proven": 0, "leaders": {}, "max_decision_cpu_s": 0.0, "no_leader": 0}

    def warm_up(self):
        self.policy.warm_up()

    def act(self, view, stream):
        from solver.advice import position_stream
        c0 = time.process_time()
        a = self.policy.act(view, position_stream(view))
        st = self.stats
        st["max_decision_cpu_s"] = max(st["max_decision_cpu_s"], time.process_time() - c0)
        return a


def play(name, budget_nodes, budget_s, first, deals, argv, quiet=False,
         table_bits=None, control=False) -> int:
    from benchmarks.experiments import _load, git_state, machine
    from solver.honest.play import play_honest
    commit, clean = git_state()
    header = {"command": shlex.join(argv), "commit": commit, "clean_tree": clean,
              "machine": machine(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
              "params": {"kind": "best-player", "players": 1, "budget_nodes": budget_nodes,
                         "budget_s": budget_s, "seed_first": first, "deals": deals,
                         "policy_seed": POLICY_SEED, "mode": "expectimax",
                         "table_bits": table_bits},
              "timing": "cpu_s: CPU time of this process (time.process_time) over the deal; "
                        "wall_s: wall time over the same span; load: 1-minute load average "
                        "at its end; one process, one core; compile time excluded"}
    player = DefaultAtBestStream() if control else BestPlayer(budget_nodes, budget_s,
                                                              table_bits)
    if control:
        header["params"]["kind"] = "best-player-control"
    written = 0
    with RowWriter(name, header, BEST_DIR) as out:
        todo = [s for s in range(first, first + deals) if s not in out.done]
        if todo:
            player.warm_up()
        for s in todo:
            player.reset()
            c0, t0 = time.process_time(), time.perf_counter()
            g = play_honest(player, s, policy_seed=POLICY_SEED)
            row = {"seed": s, "won": g.won, "doors": g.doors, "decisions": g.decisions,
                   "proven": player.stats["proven"], "leaders": player.stats["leaders"],
                   "no_leader": player.stats["no_leader"],
                   "max_decision_cpu_s": round(player.stats["max_decision_cpu_s"], 4),
                   "cpu_s": round(time.process_time() - c0, 6),
                   "wall_s": round(time.perf_counter() - t0, 6), "load": _load()}
            out.add(row)
            written += 1
            if not quiet:
                print(f"deal {s}: {'won' if g.won else 'lost'} ({g.decisions} decisions, "
                      f"{row['cpu_s']:.1f} s CPU)", file=sys.stderr, flush=True)
    return written


def report(name) -> dict:
    """The rows' win rate and cost, and the paired comparison with the default's and
    strongest's rows on the same deals."""
    from benchmarks.bench_frontier import ms_per_decision, pair
    from benchmarks.rows import by_seed, read
    from solver.stats import wilson
    data = {name: by_seed(read(name, BEST_DIR))}
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


def main(argv=None) -> int:
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
    args = ap.parse_args(argv)
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
