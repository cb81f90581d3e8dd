"""OpenSpiel's MCTS as an outside baseline of honest Onirim (issue 21).

``open_spiel.python.algorithms.mcts.MCTSBot`` plays honest solo games of the same deals as
``solver.honest.play.play_honest`` (deal ``seed`` of ``engine.rng``, the deal of ``onirim winrate``).
At each decision the bot searches from a chance-mode ``python_onirim`` state built from
``engine.view.player_view(real_state)``: it cannot see the deck order, and every draw below
the root is a chance node sampled with the engine's probabilities.  The chosen action is
applied to the real seeded state.

Rows: rollout evaluator (``random``: OpenSpiel's ``RandomRolloutEvaluator``, one rollout;
``greedy``: one rollout with ``engine.policy.greedy_action`` at every decision) times the
number of simulations per decision.  UCT constant 2 (OpenSpiel's example value), MCTS-Solver
on, uniform prior.  The bot's random state at decision ``i`` of deal ``s`` is seeded with
``solver.honest.play.decision_stream(s, i)``, so a game is a pure function of (row, deal): runs are
reproducible and can be split or resumed.  A decision with a single legal action is taken
without a search (the bot could only return that action); ``searched`` counts the others, and
``s_per_decision`` is the search time divided by them.

Output: one JSON line per finished deal in ``.bench-results/openspiel_mcts/<row>.jsonl``
(appended and flushed as each deal ends; a rerun skips the deals already there), and a summary
table (wins, Wilson 95% interval, seconds per searched decision) with the machine.

    python benchmarks/bench_openspiel_mcts.py --rows random:10,greedy:10 --deals 100 --seed 0
    python benchmarks/bench_openspiel_mcts.py --summary        # the table of what is stored
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from benchmarks.harness import machine_info
from engine.game import Game
from engine.policy import greedy_action
from engine.view import player_view
from solver.honest.play import decision_stream, play_honest
from solver.stats import wilson

OUT_DIR = os.path.join(".bench-results", "openspiel_mcts")
UCT_C = 2.0


def _row_key(evaluator: str, sims: int) -> str:
    return f"mcts-{evaluator}-{sims}"


def _die(msg: str):
    print(f"onirim: error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def parse_rows(text: str) -> list[tuple[str, int]]:
    rows = []
    for part in text.split(","):
        try:
            ev, sims = part.strip().split(":")
            sims = int(sims)
        except ValueError:
            _die(f"--rows: {part!r} is not EVALUATOR:SIMS")
        if ev not in ("random", "greedy") or sims < 2:
            # MCTSBot expands the root's children on its second simulation only
            _die(f"--rows: {part!r}: evaluator random|greedy, sims >= 2")
        rows.append((ev, sims))
    return rows


def make_greedy_evaluator():
    """An MCTS evaluator whose rollout plays ``engine.policy.greedy_action`` (uniform prior)."""
    from open_spiel.python.algorithms import mcts

    class GreedyRolloutEvaluator(mcts.Evaluator):
        def __init__(self, random_state):
            self._rs = random_state

        def evaluate(self, state):
            s = state.engine.clone()        # a chance-mode position: its own player's view
            while not s.is_terminal():
                if s.is_chance_node():
                    acts, probs = zip(*s.chance_outcomes())
                    s.apply_action(int(self._rs.choice(acts, p=probs)))
                else:
                    s.apply_action(greedy_action(s))
            return np.array(s.returns())

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            acts = state.legal_actions()
            return [(a, 1.0 / len(acts)) for a in acts]

    return GreedyRolloutEvaluator


def play_mcts(seed: int, evaluator: str, sims: int) -> dict:
    """Play deal ``seed`` honestly with MCTSBot; the per-deal JSON record."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from onirim.openspiel import OnirimState
    game = pyspiel.load_game("python_onirim")
    greedy_cls = make_greedy_evaluator()
    real = Game(1).new_initial_state(seed=seed)
    i = searched = 0
    search_s = 0.0
    t0 = time.perf_counter()
    while not real.is_terminal():
        legal = real.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        else:
            rs = np.random.RandomState(decision_stream(seed, i) % (2 ** 32))
            ev = (mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
                  if evaluator == "random" else greedy_cls(rs))
            bot = mcts.MCTSBot(game, UCT_C, sims, ev, solve=True, random_state=rs)
            root = OnirimState(game, player_view(real))
            t = time.perf_counter()
            a = int(bot.step(root))
            search_s += time.perf_counter() - t
            searched += 1
            if a not in legal:
                raise RuntimeError(f"deal {seed}: MCTS chose illegal action {a}")
        real.apply_action(a)
        i += 1
    return {"seed": seed, "won": real.won(), "doors": len(real.all_doors()), "decisions": i,
            "searched": searched, "search_seconds": round(search_s, 4),
            "seconds": round(time.perf_counter() - t0, 4)}


class _Greedy:
    """The greedy policy (``make_policy("greedy")`` plays the same function)."""

    name = "greedy"

    def act(self, view, stream):
        return greedy_action(view)


def _path(row: str) -> str:
    return os.path.join(OUT_DIR, f"{row}.jsonl")


def load_done(row: str) -> dict[int, dict]:
    done = {}
    try:
        with open(_path(row)) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:   # a line cut by a kill: the deal is replayed
                    continue
                done[rec["seed"]] = rec
    except FileNotFoundError:
        pass
    return done


def run_row(evaluator: str, sims: int, seeds, stop_at: float | None) -> None:
    row = _row_key(evaluator, sims)
    os.makedirs(OUT_DIR, exist_ok=True)
    done = load_done(row)
    _end_cut_line(_path(row))
    with open(_path(row), "a") as f:
        for s in seeds:
            if s in done:
                continue
            if stop_at is not None and time.time() > stop_at:
                print(f"{row}: time limit reached before deal {s}", file=sys.stderr)
                return
            rec = play_mcts(s, evaluator, sims)
            rec.update(row=row, evaluator=evaluator, sims=sims, uct_c=UCT_C)
            f.write(json.dumps(rec) + "\n")
            f.flush()
            os.fsync(f.fileno())
            print(f"{row} deal {s}: {'won' if rec['won'] else 'lost'} doors={rec['doors']} "
                  f"{rec['seconds']:.1f}s", file=sys.stderr)


def _end_cut_line(path: str) -> None:
    """A line cut by a kill has no newline: end it, so the next record starts a line."""
    try:
        with open(path, "rb+") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                f.write(b"\n")
    except FileNotFoundError:
        pass


def summary(seed_lo: int | None = None, seed_hi: int | None = None) -> list[dict]:
    rows = []
    if not os.path.isdir(OUT_DIR):
        return rows
    for name in sorted(os.listdir(OUT_DIR)):
        if not name.endswith(".jsonl"):
            continue
        row = name[:-6]
        recs = [r for s, r in sorted(load_done(row).items())
                if (seed_lo is None or s >= seed_lo) and (seed_hi is None or s < seed_hi)]
        if not recs:
            continue
        n = len(recs)
        wins = sum(r["won"] for r in recs)
        searched = sum(r["searched"] for r in recs)
        ss = sum(r["search_seconds"] for r in recs)
        seeds = [r["seed"] for r in recs]
        lo, hi = wilson(wins, n)
        greedy = [play_honest(_Greedy(), s) for s in seeds]
        rows.append({"row": row, "evaluator": recs[0]["evaluator"], "sims": recs[0]["sims"],
                     "deals": n, "seeds": _ranges(seeds), "wins": wins, "win_rate": wins / n,
                     "ci95": [lo, hi], "mean_doors": sum(r["doors"] for r in recs) / n,
                     "s_per_decision": ss / searched if searched else None,
                     "searched_decisions": searched,
                     "greedy_wins_same_deals": sum(g.won for g in greedy),
                     "greedy_mean_doors_same_deals": sum(g.doors for g in greedy) / n})
    rows.sort(key=lambda r: (r["evaluator"], r["sims"]))
    return rows


def _ranges(seeds) -> str:
    seeds = sorted(seeds)
    out, start, prev = [], None, None
    for s in seeds:
        if start is None:
            start = prev = s
        elif s == prev + 1:
            prev = s
        else:
            out.append(f"{start}-{prev}" if prev > start else str(start))
            start = prev = s
    if start is not None:
        out.append(f"{start}-{prev}" if prev > start else str(start))
    return ",".join(out)


def print_table(rows: list[dict]) -> None:
    print("| row | deals (seeds) | wins | win rate | Wilson 95% | mean Doors | "
          "s / searched decision | greedy on the same deals: wins, mean Doors |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        spd = f"{r['s_per_decision']:.3f}" if r["s_per_decision"] is not None else "-"
        print(f"| {r['row']} | {r['deals']} ({r['seeds']}) | {r['wins']} | "
              f"{r['win_rate']:.3f} | [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | "
              f"{r['mean_doors']:.2f} | {spd} | {r['greedy_wins_same_deals']}, "
              f"{r['greedy_mean_doors_same_deals']:.2f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", default="random:10,greedy:10",
                    help="comma-separated EVALUATOR:SIMS (evaluator random or greedy)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stop-after-s", type=float, default=None,
                    help="start no new deal after this many seconds (resume later)")
    ap.add_argument("--summary", action="store_true", help="print the stored rows only")
    ap.add_argument("--json", default=None, help="also write the summary and machine here")
    args = ap.parse_args(argv)
    if args.deals < 0 or args.seed < 0:
        _die("--deals/--seed: must be non-negative")
    if not args.summary:
        stop_at = time.time() + args.stop_after_s if args.stop_after_s else None
        for ev, sims in parse_rows(args.rows):
            run_row(ev, sims, range(args.seed, args.seed + args.deals), stop_at)
    rows = summary()
    print_table(rows)
    machine = machine_info()
    try:
        import pyspiel
        machine["open_spiel"] = pyspiel.__version__ if hasattr(pyspiel, "__version__") else None
    except ImportError:
        pass
    print(json.dumps(machine))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "machine": machine, "uct_c": UCT_C}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
