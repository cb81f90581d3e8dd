"""Regret of honest policies against the exact expectimax, on a fixed set of end-game
positions (docs/REGRET.md).

Three steps, each a subcommand::

    python -m benchmarks.bench_regret select            # writes tests/fixtures/regret_positions.txt
    python -m benchmarks.bench_regret run --policy greedy --policy endgame [--resume]
    python -m benchmarks.bench_regret timing            # exact ranking time against unknown cards

``select`` plays deals with the greedy policy under honest information and picks at most one
decision per deal (the rule is in :func:`select_positions`).  ``run`` ranks every legal action
of every position exactly (``Expectimax.rank``), caching each answer as one JSON line the
moment it is done, then asks each ``--policy`` (any registered policy, with its
``--policy-arg k=v``) for its action at the same view and decision stream as in the game, and
reports the regret: exact value of the best action minus exact value of the chosen one.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from benchmarks.harness import machine_info
from engine import Game, rng
from engine.errors import OnirimError
from engine.notation import format_position, parse_position
from engine.view import player_view
from solver.api import EXACT_TOL, PolicyError, make_policy, parse_policy_args
from solver.policies.endgame import (_WARM_POSITION, DEFAULT_NODES, EndgameSwitch,
                            proven_best_actions)
from solver.honest.play import decision_stream

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "regret_positions.txt")
OUT_DIR = ".bench-results"
CACHE_NAME = "regret-exact.jsonl"
# stream index of the per-deal choice among the candidate decisions (far above any shuffle
# and any policy stream of solver.honest)
_PICK_STREAM = 1 << 42
ZERO = 1e-12          # a regret at most this is zero (values are sums of probabilities)


def write_result(out_dir: str, prefix: str, result: dict, indent: int = 1,
                 tag: str = "") -> str:
    """Write ``result`` as ``out_dir/PREFIX-<UTC stamp>TAG.json`` (through a temporary file, so
    that no partial file is left); its path."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = os.path.join(out_dir, f"{prefix}-{stamp}{tag}.json")
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=indent, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)
    return path


def fail(field: str, problem: str) -> None:
    print(f"onirim: error: {field}: {problem}", file=sys.stderr)
    raise SystemExit(2)


# ----------------------------------------------------------------------------- positions
def unknown_cards(view) -> int:
    """Cards of the deck whose order the player does not know."""
    return sum(view.unknown)


def candidates(seed: int, lo: int, hi: int, lost_check=None, policy=None, players: int = 1,
               talk: str = "none"):
    """The decisions of deal ``seed`` played by ``policy`` (default greedy) under honest
    information (``players``; two-player: the game ``talk``) whose view has ``lo..hi`` unknown
    cards and at least two legal actions, and that are not already lost for certain
    (``lost_check(view)`` True).  Yields (decision index, view)."""
    policy = make_policy("greedy") if policy is None else policy
    s = Game(players).new_initial_state(seed=seed)
    i = 0
    while not s.is_terminal():
        v = player_view(s, talk=talk) if players == 2 else player_view(s)
        if (lo <= unknown_cards(v) <= hi and len(v.legal_actions()) >= 2
                and not (lost_check and lost_check(v))):
            yield i, v
        s.apply_action(policy.act(v, decision_stream(seed, i)))
        i += 1


def make_lost_check():
    """``check(view)``: True if the view cannot be won whatever the player does (the
    expectimax proves an upper bound of 0 within 2,000 nodes)."""
    from solver.expectimax.solver import Expectimax
    ex = Expectimax(table_bits=16)

    def check(view):
        ex.clear()
        return ex.value(view, budget_nodes=2000).hi <= 0.0
    return check


def pick_index(seed: int, n: int) -> int:
    """Which of a deal's ``n`` candidates is taken: a fixed hash of the deal."""
    return rng.word(rng.stream_key(seed, _PICK_STREAM), 0) % n


def select_positions(count: int, seed0: int = 0, lo: int = 10, hi: int = 14):
    """The regret positions: deals ``seed0``, ``seed0 + 1``, ... in order; for each deal,
    the candidate decisions (see :func:`candidates`), and one of them chosen by
    :func:`pick_index`; deals without a candidate give none.  Stops at ``count``.
    Returns [(seed, decision index, unknown cards, view)]."""
    check = make_lost_check()
    out = []
    seed = seed0
    while len(out) < count:
        cands = list(candidates(seed, lo, hi, check))
        if cands:
            i, v = cands[pick_index(seed, len(cands))]
            out.append((seed, i, unknown_cards(v), v))
        seed += 1
    return out


def write_fixture(rows, path: str, header: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for line in header.splitlines():
            f.write(f"# {line}\n")
        for seed, i, u, v in rows:
            f.write(f"{seed}\t{i}\t{u}\t{format_position(v)}\n")
    os.replace(tmp, path)


def read_fixture(path: str):
    """[(seed, decision index, unknown cards, position text)] of a positions file."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4:
                raise ValueError(f"{path}:{n}: expected seed, decision, unknown, position")
            out.append((int(parts[0]), int(parts[1]), int(parts[2]), parts[3]))
    return out


# ----------------------------------------------------------------------------- exact values
def exact_row(solver, seed: int, i: int, text: str, cap_s: float | None) -> dict:
    """Rank every action of position ``text`` on a cleared memo (under ``cap_s`` seconds
    at most); the JSON line cached for it."""
    view = parse_position(text)
    solver.clear()
    t0 = time.perf_counter()
    # estimate=False: under a time budget, rank() would otherwise keep part of the cap for
    # playout estimates (EXACT_SHARE), so the exact search would get less than cap_s
    r = solver.rank(view, budget_s=cap_s, probes=False, estimate=False)
    dt = time.perf_counter() - t0
    acts = [{"action": a.action, "id": a.action_id, "lo": a.lo, "hi": a.hi}
            for a in r.actions]
    return {"seed": seed, "decision": i, "unknown": unknown_cards(view), "phase": view.phase,
            "position": text, "actions": acts,
            "exact": all(a["hi"] - a["lo"] <= EXACT_TOL for a in acts),
            "nodes": r.nodes, "seconds": dt, "cap_s": cap_s}


def load_cache(path: str) -> dict:
    """Position text -> cached row (the last line for a position wins); a torn last line
    (an interrupted write) is ignored."""
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[row["position"]] = row
    return rows


def append_row(path: str, row: dict) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def regret_of(row: dict, action_id: int) -> float:
    """Exact value of the best action minus exact value of ``action_id`` (row exact)."""
    vals = {a["id"]: a["lo"] for a in row["actions"]}
    if action_id not in vals:
        raise ValueError(f"action {action_id} is not legal at {row['position']}")
    return max(vals.values()) - vals[action_id]


def regret_bounds(row: dict, action_id: int) -> tuple[float, float]:
    """Sound bounds on the regret of ``action_id`` from the row's bounds (exact rows: both
    equal :func:`regret_of`).  The regret is max(0, max over the other actions b of v(b) -
    v(a)), and each v lies in [lo, hi]."""
    acts = {a["id"]: a for a in row["actions"]}
    if action_id not in acts:
        raise ValueError(f"action {action_id} is not legal at {row['position']}")
    me = acts[action_id]
    others = [a for i, a in acts.items() if i != action_id]
    if not others:
        return 0.0, 0.0
    return (max(0.0, max(a["lo"] for a in others) - me["hi"]),
            max(0.0, max(a["hi"] for a in others) - me["lo"]))


def contested(row: dict) -> bool:
    """Not every action has the same value: a decision that matters."""
    vals = [a["lo"] for a in row["actions"]]
    return max(vals) - min(vals) > ZERO


# ----------------------------------------------------------------------------- statistics
def summarize(regrets, boot: int = 10_000, boot_seed: int = 0) -> dict:
    """Mean, 95th percentile, share of zero regrets, and a 95% interval on the mean
    (bootstrap percentile interval, ``boot`` resamples with numpy seed ``boot_seed``; the
    normal interval mean +- 1.96 s/sqrt(n) beside it)."""
    x = np.asarray(regrets, dtype=float)
    n = len(x)
    if n == 0:
        return {"n": 0}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    g = np.random.default_rng(boot_seed)
    means = x[g.integers(0, n, size=(boot, n))].mean(axis=1)
    return {"n": n, "mean": mean, "p95": float(np.percentile(x, 95)),
            "max": float(x.max()), "zero_share": float(np.mean(x <= ZERO)),
            "ci95_bootstrap": [float(np.percentile(means, 2.5)),
                               float(np.percentile(means, 97.5))],
            "ci95_normal": [mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)]}


def paired(ref, x, boot: int = 10_000, boot_seed: int = 0) -> dict:
    """Regret ``ref`` minus regret ``x`` position by position: its mean, a bootstrap 95%
    interval (``boot`` resamples of the positions, numpy seed ``boot_seed``), and on how
    many positions ``x`` does better or worse."""
    d = np.asarray(ref, dtype=float) - np.asarray(x, dtype=float)
    g = np.random.default_rng(boot_seed)
    means = d[g.integers(0, len(d), size=(boot, len(d)))].mean(axis=1)
    return {"mean_reduction": float(d.mean()),
            "ci95_bootstrap": [float(np.percentile(means, 2.5)),
                               float(np.percentile(means, 97.5))],
            "better": int((d > ZERO).sum()), "worse": int((d < -ZERO).sum())}


def timing_table(rows) -> dict:
    """Exact ranking time by unknown cards: n, median, p90, max seconds, share exact."""
    by = {}
    for r in rows:
        by.setdefault(r["unknown"], []).append(r)
    out = {}
    for u in sorted(by):
        t = np.array([r["seconds"] for r in by[u]])
        out[str(u)] = {"n": len(t), "median_s": float(np.median(t)),
                       "p90_s": float(np.percentile(t, 90)), "max_s": float(t.max()),
                       "median_nodes": float(np.median([r["nodes"] for r in by[u]])),
                       "exact_share": float(np.mean([r["exact"] for r in by[u]]))}
    return out


def switch_table(rows) -> dict:
    """The end-game switch's search by unknown cards: n, median, p90, max seconds, share
    of positions where it proved a best action within its node budget."""
    by = {}
    for r in rows:
        by.setdefault(r["unknown"], []).append(r)
    out = {}
    for u in sorted(by):
        t = np.array([r["switch_seconds"] for r in by[u]])
        out[str(u)] = {"n": len(t), "median_s": float(np.median(t)),
                       "p90_s": float(np.percentile(t, 90)), "max_s": float(t.max()),
                       "proven_share": float(np.mean([r["switch_proven"] for r in by[u]]))}
    return out


# ----------------------------------------------------------------------------- command line
class _PolicyAction(argparse.Action):
    def __call__(self, parser, ns, value, option_string=None):
        lst = list(getattr(ns, "policies", None) or [])
        lst.append([value, []])
        ns.policies = lst


class _PolicyArgAction(argparse.Action):
    def __call__(self, parser, ns, value, option_string=None):
        lst = getattr(ns, "policies", None)
        if not lst:
            fail("--policy-arg", "must follow a --policy")
        lst[-1][1].append(value)


def _label(name, args, taken=()):
    """The policy's name in tables and JSON, with its arguments; a repeat gets #2, #3..."""
    base = name + ("" if not args else "(" + ",".join(args) + ")")
    label, k = base, 1
    while label in taken:
        k += 1
        label = f"{base}#{k}"
    return label


def cmd_select(a) -> int:
    t0 = time.perf_counter()
    rows = select_positions(a.positions, a.seed, a.min_unknown, a.max_unknown)
    last = rows[-1][0] if rows else a.seed
    header = (f"Regret positions (docs/REGRET.md): made by\n"
              f"  python -m benchmarks.bench_regret select --positions {a.positions} "
              f"--seed {a.seed} --min-unknown {a.min_unknown} --max-unknown {a.max_unknown}\n"
              f"deals {a.seed}..{last} played by greedy under honest information; one "
              f"decision per deal among those with {a.min_unknown}..{a.max_unknown} unknown "
              f"cards, >= 2 legal actions, not already lost.\n"
              f"columns: seed, decision index (its stream is "
              f"solver.honest.play.decision_stream(seed, i)), unknown cards, the player's view")
    write_fixture(rows, a.out, header)
    print(f"{len(rows)} positions from deals {a.seed}..{last} -> {a.out} "
          f"({time.perf_counter() - t0:.1f} s)")
    return 0


def _warm(solver) -> None:
    """Compile (or load) the kernels before any position is timed."""
    solver.rank(parse_position(_WARM_POSITION), budget_nodes=2000, probes=False)
    solver.clear()


def cmd_run(a) -> int:
    from solver.expectimax.solver import Expectimax
    try:
        positions = read_fixture(a.positions_file)
    except (OSError, ValueError) as e:
        fail("--positions-file", str(e))
    if a.limit is not None:
        positions = positions[:a.limit]
    policies = []
    for name, args in a.policies or []:
        try:
            pol = make_policy(name, **parse_policy_args(args))
        except OnirimError as e:
            fail("--policy", str(e))
        policies.append((_label(name, args, [lb for lb, _ in policies]), pol))
    os.makedirs(a.out, exist_ok=True)
    cache_path = os.path.join(a.out, CACHE_NAME)
    if (os.path.exists(cache_path) and os.path.getsize(cache_path) and not a.resume
            and not a.cached_only):
        fail("--out", f"{cache_path} exists: pass --resume to continue it, or remove it")
    cache = load_cache(cache_path)
    solver = Expectimax()
    _warm(solver)
    done = 0
    t_start = time.perf_counter()
    try:
        for k, (seed, i, u, text) in enumerate(positions):
            row = cache.get(text)
            if row is not None and (row["exact"] or (row["cap_s"] or 0) >= (a.cap_s or 1e18)):
                continue
            if a.cached_only:
                continue
            row = exact_row(solver, seed, i, text, a.cap_s)
            append_row(cache_path, row)
            cache[text] = row
            done += 1
            if not a.quiet:
                print(f"[{k + 1}/{len(positions)}] seed {seed} decision {i}: {u} unknown, "
                      f"{row['phase']}, {len(row['actions'])} actions, "
                      f"{'exact' if row['exact'] else 'OPEN'} {row['seconds']:.2f} s",
                      file=sys.stderr, flush=True)
            if a.max_minutes and time.perf_counter() - t_start > 60 * a.max_minutes:
                print("stopping: --max-minutes reached (run again with --resume)",
                      file=sys.stderr)
                break
    except KeyboardInterrupt:
        print("interrupted: every finished position is cached (run again with --resume)",
              file=sys.stderr)
        return 130
    rows = [cache[t] for _, _, _, t in positions if t in cache]
    exact = [r for r in rows if r["exact"]]
    result = {"bench": "regret", "command": " ".join([os.path.basename(sys.executable),
                                                      "-m", "benchmarks.bench_regret"]
                                                     + sys.argv[1:]),
              "machine": machine_info(), "positions_file": os.path.relpath(a.positions_file),
              "positions": len(positions), "solved": len(rows), "exact": len(exact),
              "open": [{"seed": r["seed"], "decision": r["decision"],
                        "unknown": r["unknown"]} for r in rows if not r["exact"]],
              "cap_s": a.cap_s, "contested": sum(1 for r in exact if contested(r)),
              "timing": timing_table(rows), "policies": {}}
    lines = [f"{len(exact)} exact positions of {len(positions)} "
             f"({result['contested']} contested), {len(rows) - len(exact)} open"]
    for label, pol in policies:
        regs, regs_c, secs, cpus = [], [], [], []
        per = []
        act_of = {}
        for r in exact:
            view = parse_position(r["position"])
            t0, c0 = time.perf_counter(), time.process_time()
            act = pol.act(view, decision_stream(r["seed"], r["decision"]))
            secs.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            act_of[r["position"]] = act
            g = regret_of(r, act)
            regs.append(g)
            if contested(r):
                regs_c.append(g)
            per.append([r["seed"], r["decision"], view.action_to_string(act), g])
        # every solved position, the open ones too: bounds on the mean regret over them
        blo, bhi = [], []
        for r in rows:
            if r["exact"]:
                g = regret_of(r, act_of[r["position"]])
                blo.append(g)
                bhi.append(g)
            else:
                view = parse_position(r["position"])
                a_ = pol.act(view, decision_stream(r["seed"], r["decision"]))
                lo_, hi_ = regret_bounds(r, a_)
                blo.append(lo_)
                bhi.append(hi_)
        entry = {"name": pol.name, "config": pol.config, "all": summarize(regs),
                 "with_open_mean_bounds": ([float(np.mean(blo)), float(np.mean(bhi))]
                                           if rows else None),
                 "contested": summarize(regs_c),
                 "decision_seconds": {"median": float(np.median(secs)) if secs else None,
                                      "p90": float(np.percentile(secs, 90)) if secs else None,
                                      "max": float(max(secs)) if secs else None},
                 # CPU seconds of this process (one thread): less sensitive to the load of a
                 # shared machine than the wall clock above
                 "decision_cpu_seconds": {
                     "median": float(np.median(cpus)) if cpus else None,
                     "p90": float(np.percentile(cpus, 90)) if cpus else None,
                     "max": float(max(cpus)) if cpus else None,
                     "mean": float(np.mean(cpus)) if cpus else None},
                 "decisions": per}
        by_u = {}
        for r, g in zip(exact, regs):
            by_u.setdefault(str(r["unknown"]), []).append(g)
        entry["mean_by_unknown"] = {u: {"n": len(v), "mean": float(np.mean(v))}
                                    for u, v in sorted(by_u.items(), key=lambda x: int(x[0]))}
        result["policies"][label] = entry
        s, c = entry["all"], entry["contested"]
        if s["n"]:
            lines.append(f"{label:28s} mean {s['mean']:.5f} "
                         f"[{s['ci95_bootstrap'][0]:.5f}, {s['ci95_bootstrap'][1]:.5f}] "
                         f"p95 {s['p95']:.5f} zero {s['zero_share']:.3f}"
                         + (f" | contested mean {c['mean']:.5f} zero {c['zero_share']:.3f}"
                            if c["n"] else "")
                         + (" | with open: mean in [{:.5f}, {:.5f}]".format(
                             *entry["with_open_mean_bounds"])
                            if len(rows) > len(exact) else ""))
    # each policy against the first one, position by position (same positions)
    labels = [lb for lb, _ in policies]
    if len(labels) > 1 and exact:
        ref = np.array([d[3] for d in result["policies"][labels[0]]["decisions"]])
        for lb in labels[1:]:
            x = np.array([d[3] for d in result["policies"][lb]["decisions"]])
            pair = paired(ref, x)
            pair["against"] = labels[0]
            result["policies"][lb]["paired"] = pair
            lines.append(f"{lb}: mean regret {pair['mean_reduction']:+.5f} lower than "
                         f"{labels[0]} [{pair['ci95_bootstrap'][0]:.5f}, "
                         f"{pair['ci95_bootstrap'][1]:.5f}], better on {pair['better']}, "
                         f"worse on {pair['worse']}")
    path = write_result(a.out, "regret", result, indent=2)
    if a.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print("\n".join(lines))
        print(f"-> {path}")
    return 0


def cmd_timing(a) -> int:
    """Exact ranking time against unknown cards, on greedy positions (one per deal and
    unknown count, the first decision of the deal with that count and >= 2 actions, not
    already lost), each on a cleared memo, under a cap."""
    from solver.expectimax.solver import Expectimax
    solver = Expectimax()
    _warm(solver)
    check = make_lost_check()
    switch = EndgameSwitch(None, unknown=99, budget_nodes=a.switch_nodes)
    rows = []
    for seed in range(a.seed, a.seed + a.deals):
        seen = set()
        for i, v in candidates(seed, a.min_unknown, a.max_unknown, check):
            u = unknown_cards(v)
            if u in seen:
                continue
            seen.add(u)
            r = exact_row(solver, seed, i, format_position(v), a.cap_s)
            # the end-game switch's own search: node budget, fixed memo, cleared
            t0 = time.perf_counter()
            rk = switch.search(v)
            r["switch_seconds"] = time.perf_counter() - t0
            r["switch_proven"] = bool(proven_best_actions(rk.actions))
            rows.append(r)
            print(f"seed {seed} decision {i}: {u} unknown {r['phase']} "
                  f"{r['seconds']:.3f} s {r['nodes']} nodes"
                  f"{'' if r['exact'] else ' OPEN'}; switch {r['switch_seconds']:.3f} s "
                  f"{'proven' if r['switch_proven'] else 'open'}", file=sys.stderr, flush=True)
    result = {"bench": "regret-timing", "machine": machine_info(),
              "command": " ".join(["python", "-m", "benchmarks.bench_regret"] + sys.argv[1:]),
              "cap_s": a.cap_s, "deals": [a.seed, a.seed + a.deals - 1],
              "switch_nodes": a.switch_nodes, "timing": timing_table(rows),
              "switch": switch_table(rows),
              "rows": [{k: r[k] for k in ("seed", "decision", "unknown", "phase", "seconds",
                                          "nodes", "exact", "switch_seconds",
                                          "switch_proven")} for r in rows]}
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"regret-timing-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
    print(json.dumps({"exact": result["timing"], "switch": result["switch"]}, indent=1))
    print(f"-> {path}")
    return 0


def cmd_games(a) -> int:
    """Play deals ``seed .. seed + deals - 1`` with each policy under honest information
    (solver.honest.play.play_honest: the same deals for every policy) and compare the wins deal
    by deal with the first policy's."""
    from solver.honest.play import play_honest
    pols = []
    for name, args in a.policies or []:
        try:
            pols.append((_label(name, args, [lb for lb, _ in pols]),
                         make_policy(name, **parse_policy_args(args))))
        except OnirimError as e:
            fail("--policy", str(e))
    if not pols:
        fail("--policy", "give at least one")
    wins = {lb: [] for lb, _ in pols}
    secs = {lb: 0.0 for lb, _ in pols}
    for seed in range(a.seed, a.seed + a.deals):
        for lb, pol in pols:
            g = play_honest(pol, seed)
            wins[lb].append(bool(g.won))
            secs[lb] += g.seconds
    ref = pols[0][0]
    out = {"bench": "regret-games", "machine": machine_info(),
           "command": " ".join(["python", "-m", "benchmarks.bench_regret"] + a.argv),
           "deals": [a.seed, a.seed + a.deals - 1], "policies": {}}
    from solver.stats import wilson
    for lb, pol in pols:
        w = sum(wins[lb])
        only = sum(x and not y for x, y in zip(wins[lb], wins[ref]))
        ref_only = sum(y and not x for x, y in zip(wins[lb], wins[ref]))
        out["policies"][lb] = {"name": pol.name, "config": pol.config, "wins": w,
                               "win_rate": w / a.deals, "ci95": list(wilson(w, a.deals)),
                               f"wins_only_this_vs_{ref}": only,
                               f"wins_only_{ref}": ref_only, "seconds": secs[lb]}
        print(f"{lb:28s} wins {w}/{a.deals}  ({only} deals won only by it, {ref_only} only "
              f"by {ref}), {secs[lb]:.1f} s")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"regret-games-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
    print(f"-> {path}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_regret", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select", help="pick the positions (writes the fixture)")
    s.add_argument("--positions", type=int, default=300)
    s.add_argument("--seed", type=int, default=0, help="first deal")
    s.add_argument("--min-unknown", type=int, default=10)
    s.add_argument("--max-unknown", type=int, default=14)
    s.add_argument("--out", default=FIXTURE)
    r = sub.add_parser("run", help="exact values, then each policy's regret")
    r.add_argument("--positions-file", default=FIXTURE)
    r.add_argument("--policy", action=_PolicyAction, dest="policies", metavar="NAME")
    r.add_argument("--policy-arg", action=_PolicyArgAction, dest="policies", metavar="K=V",
                   help="an argument of the --policy before it")
    r.add_argument("--out", default=OUT_DIR)
    r.add_argument("--resume", action="store_true", help="continue the cached exact values")
    r.add_argument("--cap-s", type=float, default=120.0,
                   help="seconds at most per position's exact ranking (open beyond)")
    r.add_argument("--limit", type=int, help="only the first N positions")
    r.add_argument("--max-minutes", type=float, help="stop solving after this long")
    r.add_argument("--cached-only", action="store_true",
                   help="solve nothing: report on the positions already cached")
    r.add_argument("--json", action="store_true")
    r.add_argument("--quiet", action="store_true")
    t = sub.add_parser("timing", help="exact ranking time against unknown cards")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--deals", type=int, default=20)
    t.add_argument("--min-unknown", type=int, default=6)
    t.add_argument("--max-unknown", type=int, default=12)
    t.add_argument("--cap-s", type=float, default=30.0)
    t.add_argument("--switch-nodes", type=int, default=DEFAULT_NODES,
                   help="node budget of the end-game switch's search")
    t.add_argument("--out", default=OUT_DIR)
    gm = sub.add_parser("games", help="honest games of each policy on the same deals")
    gm.add_argument("--seed", type=int, default=0)
    gm.add_argument("--deals", type=int, default=200)
    gm.add_argument("--policy", action=_PolicyAction, dest="policies", metavar="NAME")
    gm.add_argument("--policy-arg", action=_PolicyArgAction, dest="policies", metavar="K=V")
    gm.add_argument("--out", default=OUT_DIR)
    a = ap.parse_args(argv)
    a.argv = list(sys.argv[1:] if argv is None else argv)
    for name in ("positions", "deals"):
        if getattr(a, name, 1) is not None and getattr(a, name, 1) < 1:
            fail(f"--{name}", "must be at least 1")
    if getattr(a, "cap_s", None) is not None and not a.cap_s > 0:
        fail("--cap-s", "must be a positive number of seconds")
    return {"select": cmd_select, "run": cmd_run, "timing": cmd_timing,
            "games": cmd_games}[a.cmd](a)


if __name__ == "__main__":
    raise SystemExit(main())
