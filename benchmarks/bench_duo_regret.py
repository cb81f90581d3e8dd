"""Regret of ``onirim best``'s leader in the open game (two players, hands face up) against the
exact open-hands expectimax, on end-game positions (issue 47, item 5; docs/DUO_EXPECTIMAX.md
section 8).  The two-player form of ``benchmarks.bench_regret`` (docs/REGRET.md), whose
helpers it uses: the fixture format, the cache of exact rows, regret, bounds and statistics.

Two steps, each a subcommand::

    python -m benchmarks.bench_duo_regret select    # tests/fixtures/duo_regret_positions.txt
    python -m benchmarks.bench_duo_regret run --best-nodes 20000 [--resume]

**The positions** (``select``): deals ``--seed``, ``--seed`` + 1, ... (300000 on: no overlap
with the deals 0-1999 of the win-rate tables) are played by two players in the open game
(``--talk open``) by ``duo-open-switch`` over ``duo-krollout`` (``SELECT_ARGS``: the open game's default
when they were selected), decision ``i``
getting the stream ``decision_stream(seed, i)`` (``bench_regret.candidates``).  A decision is
a candidate if the mover's view has ``--min-unknown`` to ``--max-unknown`` deck cards of unknown
order, two or more legal actions, and is not already lost for certain (the open-hands search
proves an upper bound of 0 within 2,000 nodes).  From each deal with candidates one is taken,
index ``bench_regret.pick_index(seed, n)`` among its ``n``; deals without one give none.  Each
line holds the seed, the decision index, the unknown count and the mover's open view in the
notation: both hands, the shared cards and the board listed, the deck as its known top cards
then ``*`` (a seeded position's notation would not keep which top cards the player has seen).
``onirim best --talk open`` reads that text as the same open view (tested).

**Exact values** (``run``): every legal action of the mover's open view
(``player_view(state, talk="open")``) is ranked by the numba open-hands search
(``solver.duo.open_search.OpenSearch``, memo cleared per position) under ``--cap-nodes``
nodes.  In the open game that value is the exact honest value (docs/DUO_EXPECTIMAX.md).  Each
answer is appended to ``<out>/duo-regret-exact.jsonl`` as it finishes; ``--resume`` continues
the file and solves a cached position again only if it is open and the cap is larger.  A
position left open is reported, counted and left out of the statistics.

**The choices scored**: ``onirim best --talk open --json`` on the position (the command's
own code path, ``onirim.cli.main``), under each ``--best-nodes N`` / ``--best-s T`` (and
``--best-default``: no budget flag, the command's default), its ``best`` if one is proven,
else its ``leader``; and each ``--policy`` (default ``duo-open-switch`` and ``duo-krollout``)
at the view and the decision's stream.  Regret = the exact value of the best action minus the
exact value of the chosen one.  Per choice: the mean with a bootstrap 95% interval, the zero
regret count, CPU and wall seconds per position, and one row per position; the JSON goes to
``<out>/duo-regret-<time>.json`` with the command, commit, machine and load.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

from benchmarks import bench_regret as solo
from benchmarks.harness import machine_info
from engine.errors import OnirimError
from engine.notation import parse_position
from engine.view import player_view
from solver.api import EXACT_TOL, make_policy, parse_policy_args
from solver.honest.play import decision_stream

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "duo_regret_positions.txt")
CACHE_NAME = "duo-regret-exact.jsonl"
SELECT_POLICY = "duo-open-switch"
# the positions were selected with the switch over duo-krollout on greedy-plus, the open game's
# default then (today's default plays the team base): named, so that select still gives them
SELECT_ARGS = {"base": "duo-krollout"}
DEFAULT_POLICIES = ("duo-open-switch", "duo-krollout")
TALK = "open"


def open_view(text: str):
    """The mover's view, in the open game, of the two-player position ``text`` (a fixture
    line's open view reads back as itself)."""
    return player_view(parse_position(text), talk=TALK)


# ----------------------------------------------------------------------------- positions
def make_lost_check(solver=None):
    """``check(view)``: True if the open view cannot be won whatever the team does (the
    open-hands search proves an upper bound of 0 within 2,000 nodes)."""
    from solver.duo.open_search import OpenSearch
    solver = OpenSearch(table_bits=14) if solver is None else solver

    def check(view):
        solver.clear()
        return solver.value(view, budget_nodes=2000).hi <= 0.0
    return check


def select_positions(count: int, seed0: int, lo: int, hi: int, policy_name=SELECT_POLICY,
                     max_deals: int | None = None, policy_args=None):
    """At most one open-game decision per deal (module doc): [(seed, decision index, unknown
    cards, the mover's open view)], deals ``seed0`` on, until ``count`` positions or
    ``max_deals``."""
    args = dict(SELECT_ARGS) if policy_args is None and policy_name == SELECT_POLICY \
        else dict(policy_args or {})
    policy = make_policy(policy_name, **args)
    policy.warm_up()
    check = make_lost_check()
    out, seed = [], seed0
    while len(out) < count and (max_deals is None or seed < seed0 + max_deals):
        cands = list(solo.candidates(seed, lo, hi, check, policy=policy, players=2, talk=TALK))
        if cands:
            i, v = cands[solo.pick_index(seed, len(cands))]
            out.append((seed, i, solo.unknown_cards(v), v))
        seed += 1
    return out, seed


# ----------------------------------------------------------------------------- exact values
def exact_row(solver, seed: int, i: int, text: str, cap_nodes: int) -> dict:
    """Every action of the open view of ``text`` ranked by the open-hands search on a cleared
    memo under ``cap_nodes`` nodes; the JSON line cached for it."""
    view = open_view(text)
    solver.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    r = solver.rank(view, budget_nodes=cap_nodes)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    acts = [{"action": a.action, "id": a.action_id, "lo": a.lo, "hi": a.hi}
            for a in r.actions]
    return {"seed": seed, "decision": i, "unknown": solo.unknown_cards(view),
            "phase": view.phase, "position": text, "actions": acts,
            "exact": all(a["hi"] - a["lo"] <= EXACT_TOL for a in acts),
            "nodes": r.nodes, "seconds": dt, "cpu_seconds": cpu, "cap_nodes": cap_nodes,
            "loadavg": list(os.getloadavg())}


def solve_all(positions, cache_path: str, cap_nodes: int, cached_only: bool = False,
              table_bits: int = 21, say=None, max_minutes: float | None = None) -> dict:
    """The cache after ranking every position not yet cached (or cached open under a smaller
    cap), each appended to ``cache_path`` as it finishes."""
    from solver.duo.open_search import OpenSearch, warm_up
    cache = solo.load_cache(cache_path)
    if cached_only:
        return cache
    warm_up()
    solver = OpenSearch(table_bits=table_bits)
    t_start = time.perf_counter()
    for k, (seed, i, u, text) in enumerate(positions):
        row = cache.get(text)
        if row is not None and (row["exact"] or row["cap_nodes"] >= cap_nodes):
            continue
        row = exact_row(solver, seed, i, text, cap_nodes)
        solo.append_row(cache_path, row)
        cache[text] = row
        if say is not None:
            say(f"[{k + 1}/{len(positions)}] seed {seed} decision {i}: {u} unknown, "
                f"{row['phase']}, {len(row['actions'])} actions, "
                f"{'exact' if row['exact'] else 'OPEN'} {row['cpu_seconds']:.2f} s CPU, "
                f"{row['nodes']} nodes")
        if max_minutes and time.perf_counter() - t_start > 60 * max_minutes:
            if say is not None:
                say("stopping: --max-minutes reached (run again with --resume)")
            break
    return cache


# ----------------------------------------------------------------------------- the choices
def best_answer(text: str, flags, root: str | None = None) -> dict:
    """``onirim best TEXT --talk open --json`` plus ``flags`` (a budget), run through the
    command's own entry (``onirim.cli.main``), or with ``root`` as the command itself in a
    process of its own in that source tree (``python -m onirim best ...`` there: another
    commit's answer, CPU of the child process, its start-up included): the proven best action
    if the answer names one, else its leader.  {action (id), name, how ("best" or "leader"),
    cpu, wall}."""
    argv = ["best", text, "--talk", TALK, "--json", "--no-progress", *flags]
    t0 = time.perf_counter()
    if root is None:
        from onirim.cli import main as cli_main
        out, err = io.StringIO(), io.StringIO()
        c0 = time.process_time()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli_main(argv)
        cpu, stdout, stderr = time.process_time() - c0, out.getvalue(), err.getvalue()
    else:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "onirim", *argv], cwd=root,
                              capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        status, stdout, stderr = done.returncode, done.stdout, done.stderr
    wall = time.perf_counter() - t0
    if status != 0:
        raise RuntimeError(f"onirim {' '.join(argv)}: status {status}: {stderr}")
    answer = json.loads(stdout)
    name = answer["best"] if answer["best"] is not None else answer.get("leader")
    view = open_view(text)
    ids = {view.action_to_string(a): a for a in view.legal_actions()}
    return {"action": ids[name], "name": name,
            "how": "best" if answer["best"] is not None else "leader", "cpu": cpu,
            "wall": wall}


def policy_answer(policy, row: dict) -> dict:
    """The policy's action at the position's open view and its decision's stream."""
    view = open_view(row["position"])
    t0, c0 = time.perf_counter(), time.process_time()
    act = policy.act(view, decision_stream(row["seed"], row["decision"]))
    return {"action": act, "name": view.action_to_string(act), "how": "policy",
            "cpu": time.process_time() - c0, "wall": time.perf_counter() - t0}


def choosers(a):
    """[(label, function of a cached row -> answer dict)] of the command line's choices."""
    out = []
    where = "" if a.best_root is None else f" (in {a.best_root})"
    budgets = ([[f"--budget-nodes {n}", ["--budget-nodes", str(n)]] for n in a.best_nodes or []]
               + [[f"--budget-s {t:g}", ["--budget-s", str(t)]] for t in a.best_s or []]
               + ([["(default budget)", []]] if a.best_default else []))
    for label, flags in budgets:
        out.append((f"best {label}{where}",
                    lambda r, flags=flags: best_answer(r["position"], flags, a.best_root)))
    specs = a.policies if a.policies is not None else [[p, []] for p in DEFAULT_POLICIES]
    for name, args in specs:
        try:
            pol = make_policy(name, **parse_policy_args(args))
        except OnirimError as e:
            solo.fail("--policy", str(e))
        pol.warm_up()
        out.append((solo._label(name, args, [lb for lb, _ in out]),
                    lambda r, pol=pol: policy_answer(pol, r)))
    return out


def score(label: str, choose, exact_rows, open_rows, say=None) -> dict:
    """One choice's regret on the exact rows (one row per position: action, regret, how, CPU,
    wall, load), its summary, and bounds on the mean over the open rows too."""
    per, regs = [], []
    for r in exact_rows:
        ans = choose(r)
        g = solo.regret_of(r, ans["action"])
        regs.append(g)
        per.append({"seed": r["seed"], "decision": r["decision"], "unknown": r["unknown"],
                    "action": ans["name"], "how": ans["how"], "regret": g,
                    "cpu_seconds": ans["cpu"], "wall_seconds": ans["wall"],
                    "loadavg": os.getloadavg()[0]})
        if say is not None:
            say(f"{label}: seed {r['seed']}: {ans['name']} ({ans['how']}) regret {g:.5f} "
                f"{ans['cpu']:.2f} s CPU")
    blo, bhi = list(regs), list(regs)
    for r in open_rows:
        lo, hi = solo.regret_bounds(r, choose(r)["action"])
        blo.append(lo)
        bhi.append(hi)
    cpus = [p["cpu_seconds"] for p in per]
    by_u = {}
    for p in per:
        by_u.setdefault(str(p["unknown"]), []).append(p["regret"])
    return {"all": solo.summarize(regs),
            "contested": solo.summarize([g for r, g in zip(exact_rows, regs)
                                         if solo.contested(r)]),
            "zero_regret": int(sum(g <= solo.ZERO for g in regs)),
            "with_open_mean_bounds": ([float(np.mean(blo)), float(np.mean(bhi))]
                                      if blo else None),
            "proven_by_best": sum(p["how"] == "best" for p in per),
            "cpu_seconds": ({"mean": float(np.mean(cpus)), "median": float(np.median(cpus)),
                             "p90": float(np.percentile(cpus, 90)), "max": float(max(cpus))}
                            if cpus else None),
            "mean_by_unknown": {u: {"n": len(v), "mean": float(np.mean(v))}
                                for u, v in sorted(by_u.items(), key=lambda x: int(x[0]))},
            "rows": per}


def summary_line(label: str, e: dict) -> str:
    s = e["all"]
    if not s["n"]:
        return f"{label}: no exact position"
    lo, hi = s["ci95_bootstrap"]
    return (f"{label:34s} mean regret {s['mean']:.4f} [{lo:.4f}, {hi:.4f}] zero "
            f"{e['zero_regret']}/{s['n']} proven {e['proven_by_best']} CPU s/position "
            f"{e['cpu_seconds']['mean']:.3f}")


# ----------------------------------------------------------------------------- command line
def cmd_select(a) -> int:
    t0 = time.perf_counter()
    rows, end = select_positions(a.positions, a.seed, a.min_unknown, a.max_unknown,
                                 max_deals=a.max_deals)
    header = (f"Open-game regret positions (benchmarks/bench_duo_regret.py, "
              f"docs/DUO_EXPECTIMAX.md section 8): made by\n"
              f"  python -m benchmarks.bench_duo_regret select --positions {a.positions} "
              f"--seed {a.seed} --min-unknown {a.min_unknown} --max-unknown {a.max_unknown}"
              + (f" --max-deals {a.max_deals}" if a.max_deals else "") + "\n"
              f"deals {a.seed}..{end - 1} played by {SELECT_POLICY} in the open game (two "
              f"players, --talk open); one decision per deal among those whose view has "
              f"{a.min_unknown}..{a.max_unknown} unknown deck cards, >= 2 legal actions, not "
              f"already lost.\ncolumns: seed, decision index (its stream is "
              f"solver.honest.play.decision_stream(seed, i)), unknown cards, the mover's open "
              f"view (player_view(state, talk='open'): both hands known, the deck order not)")
    solo.write_fixture(rows, a.out, header)
    print(f"{len(rows)} positions from deals {a.seed}..{end - 1} -> {a.out} "
          f"({time.perf_counter() - t0:.1f} s)")
    return 0


def cmd_run(a) -> int:
    try:
        positions = solo.read_fixture(a.positions_file)
    except (OSError, ValueError) as e:
        solo.fail("--positions-file", str(e))
    if a.limit is not None:
        positions = positions[:a.limit]
    if a.shard is not None:
        k, n = a.shard
        positions = positions[k::n]
    os.makedirs(a.out, exist_ok=True)
    cache_path = os.path.join(a.out, CACHE_NAME)
    if (os.path.exists(cache_path) and os.path.getsize(cache_path) and not a.resume
            and not a.cached_only):
        solo.fail("--out", f"{cache_path} exists: pass --resume to continue it, or remove it")
    say = None if a.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    chooser_list = choosers(a)
    try:
        cache = solve_all(positions, cache_path, a.cap_nodes, a.cached_only, a.table_bits,
                          say, a.max_minutes)
    except KeyboardInterrupt:
        print("interrupted: every finished position is cached (run again with --resume)",
              file=sys.stderr)
        return 130
    rows = [cache[t] for _, _, _, t in positions if t in cache]
    exact = [r for r in rows if r["exact"]]
    opened = [r for r in rows if not r["exact"]]
    cpu = [r["cpu_seconds"] for r in rows]
    result = {"bench": "duo-regret", "talk": TALK,
              "command": " ".join(["python", "-m", "benchmarks.bench_duo_regret"] + a.argv),
              "machine": machine_info(), "positions_file": os.path.relpath(a.positions_file),
              "positions": len(positions), "solved": len(rows), "exact": len(exact),
              "open": [{"seed": r["seed"], "decision": r["decision"], "unknown": r["unknown"]}
                       for r in opened],
              "cap_nodes": a.cap_nodes,
              "row_caps": sorted({r["cap_nodes"] for r in rows}), "contested": sum(map(solo.contested, exact)),
              "best_root": None if a.best_root is None else {
                  "path": a.best_root, "commit": subprocess.run(
                      ["git", "rev-parse", "--short", "HEAD"], cwd=a.best_root,
                      capture_output=True, text=True).stdout.strip()},
              "timing": solo.timing_table(rows),
              "exact_cpu_seconds": ({"mean": float(np.mean(cpu)),
                                     "median": float(np.median(cpu)),
                                     "max": float(max(cpu))} if cpu else None),
              "choices": {}}
    lines = [f"{len(exact)} exact positions of {len(positions)} ({result['contested']} "
             f"contested), {len(opened)} open (node caps of the cached rows: "
             f"{', '.join(map(str, result['row_caps']))})"]
    for label, choose in chooser_list:
        entry = score(label, choose, exact, [] if a.no_open_bounds else opened,
                      None if a.quiet else say)
        result["choices"][label] = entry
        lines.append(summary_line(label, entry))
    labels = list(result["choices"])
    for lb in labels[1:]:
        ref = [p["regret"] for p in result["choices"][labels[0]]["rows"]]
        x = [p["regret"] for p in result["choices"][lb]["rows"]]
        if ref:
            pair = solo.paired(ref, x)
            pair["against"] = labels[0]
            result["choices"][lb]["paired"] = pair
            lines.append(f"{lb}: {pair['mean_reduction']:+.4f} lower than {labels[0]} "
                         f"[{pair['ci95_bootstrap'][0]:.4f}, {pair['ci95_bootstrap'][1]:.4f}]"
                         f", better on {pair['better']}, worse on {pair['worse']}")
    path = solo.write_result(a.out, "duo-regret", result, tag=a.tag)
    print("\n".join(lines))
    print(f"-> {path}")
    return 0


def _shard(text: str):
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N") from None
    if not 0 <= k < n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be from 0 to N - 1")
    return k, n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_duo_regret", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select", help="pick the positions (writes the fixture)")
    s.add_argument("--positions", type=int, default=240)
    s.add_argument("--seed", type=int, default=300_000, help="first deal")
    s.add_argument("--min-unknown", type=int, default=5)
    s.add_argument("--max-unknown", type=int, default=7)
    s.add_argument("--max-deals", type=int, default=None, help="stop after this many deals")
    s.add_argument("--out", default=FIXTURE)
    r = sub.add_parser("run", help="exact values, then the regret of each choice")
    r.add_argument("--positions-file", default=FIXTURE)
    r.add_argument("--cap-nodes", type=int, default=4_000_000,
                   help="node budget of a position's exact ranking (open beyond)")
    r.add_argument("--table-bits", type=int, default=21,
                   help="the exact search's memo: 2**B rows of 64 bytes")
    r.add_argument("--best-nodes", type=int, action="append", metavar="N",
                   help="score onirim best --talk open --budget-nodes N (repeatable)")
    r.add_argument("--best-s", type=float, action="append", metavar="T",
                   help="score onirim best --talk open --budget-s T (repeatable)")
    r.add_argument("--best-default", action="store_true",
                   help="score onirim best --talk open under its default budget")
    r.add_argument("--best-root", metavar="DIR",
                   help="run each onirim best as a process of its own in the source tree DIR "
                        "(e.g. a checkout of another commit)")
    r.add_argument("--policy", action=solo._PolicyAction, dest="policies", metavar="NAME",
                   help=f"a policy to score (default: {', '.join(DEFAULT_POLICIES)})")
    r.add_argument("--policy-arg", action=solo._PolicyArgAction, dest="policies",
                   metavar="K=V", help="an argument of the --policy before it")
    r.add_argument("--out", default=solo.OUT_DIR)
    r.add_argument("--tag", default="", help="appended to the result file's name")
    r.add_argument("--resume", action="store_true", help="continue the cached exact values")
    r.add_argument("--cached-only", action="store_true",
                   help="solve nothing: score the positions already cached")
    r.add_argument("--limit", type=int, help="only the first N positions")
    r.add_argument("--max-minutes", type=float, help="stop solving after this long")
    r.add_argument("--shard", type=_shard, metavar="K/N",
                   help="only positions K, K + N, K + 2N, ... (0 <= K < N), e.g. to solve in "
                        "two processes with two --out directories, whose caches then join")
    r.add_argument("--quiet", action="store_true")
    r.add_argument("--no-open-bounds", action="store_true",
                   help="ask the choices at the exact positions only (no bounds on the mean "
                        "over the open ones: saves asking best where it is slowest)")
    a = ap.parse_args(argv)
    a.argv = list(sys.argv[1:] if argv is None else argv)
    for name in ("positions", "cap_nodes", "limit", "max_deals"):
        value = getattr(a, name, None)
        if value is not None and value < 1:
            solo.fail("--" + name.replace("_", "-"), "must be at least 1")
    for n in getattr(a, "best_nodes", None) or []:
        if n < 1:
            solo.fail("--best-nodes", "must be at least 1")
    for t in getattr(a, "best_s", None) or []:
        if not t > 0:
            solo.fail("--best-s", "must be a positive number of seconds")
    return {"select": cmd_select, "run": cmd_run}[a.cmd](a)


if __name__ == "__main__":
    raise SystemExit(main())
