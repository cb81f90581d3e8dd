"""Honest play: playout throughput, the differential check, and win-rate ladders.

Subcommands (``python -m benchmarks.bench_honest SUB --help``):

``throughput`` (the default)
    Whole greedy games per second on one core, side by side in one run, in ``--rounds``
    alternating slices: the information-state kernel (chance-mode games from the setup,
    solver.honest.kernel) as it is now and as it was at git ``--before`` (default: before the
    throughput work; the same streams, so the same games and wins), the deal-mode kernel of
    solver/clairvoyant/playouts.py (seeded deals) and the engine (engine.policy.play_game on
    seeded deals).  Games/s is given per CPU second of this process (``cpu``; what one core
    does when the machine is shared) and per wall second.  Also a breakdown of the kernel's
    time (decisions and draws per game, ns per draw).  JSON to ``.bench-results/``.

``--diff-steps N`` (with ``throughput`` or alone: ``diff``)
    The engine-versus-kernel differential run of N steps (the conformance harness, solver.conformance).

``ablation``
    Games/s of CPU of the information-state kernel and of copies of it with one throughput
    change undone each (NRT reference counting in playout, rule-by-rule greedy play, new_game
    filled card by card), plus the kernel at ``--before``, in alternating rounds.

``ladder``
    Win rate of a registered policy through solver.honest.play.play_honest (real deals, honest
    view): deals S .. S+N-1, one JSON line per deal appended to ``--out`` (default
    ``.bench-results/ladder-<policy>-<config hash>.jsonl``), deals already in the file are
    skipped, so an interrupted run resumes.  Prints the Wilson 95% interval and the seconds
    per decision.  One process (the machine is shared).

``report FILE...``
    The ladder table (policy, configuration, deals, win rate, Wilson interval, s/decision)
    of ladder result files.

``kernel``
    Win rates of the level-1 rollout policy inside the kernel (chance-mode games from the
    setup, no engine): the fast tuning loop.  Each game g uses stream word(key, g).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from benchmarks.harness import machine_info, table, write_json

OUT_DIR = ".bench-results"


def _wilson(k, n):
    from solver.stats import wilson
    return wilson(k, n)


# ----------------------------------------------------------------------------- throughput
def _timed(fn):
    c0 = time.process_time()
    w0 = time.perf_counter()
    r = fn()
    return r, time.process_time() - c0, time.perf_counter() - w0


def breakdown(games: int = 20_000, HK=None, base: int | None = None) -> dict:
    """Decisions and draws per game, and ns per draw, of the kernel's playouts of greedy (or of
    base policy number ``base`` of ``HK.base_action``, ``solver.honest.greedy.BASES``); ns per
    new_game, per decision and per state copy, each measured alone (the decisions and the
    copies over the first 3,000 decision states of the same games, repeated 300 times).
    ``HK`` may be an older kernel (``load_kernel_at``), which may have no ``base_action``.
    With ``base`` given, the ``greedy_*`` fields are that base's (their names kept for the
    stored files)."""
    import numpy as np
    from numba import njit

    if HK is None:
        from solver.honest import kernel as HK
    if base is None:
        _act = HK.greedy
    else:
        _b = np.int64(base)

        @njit(_nrt=False)
        def _act(S):
            return HK.base_action(S, _b)

    @njit(_nrt=False)      # as solver.honest.kernel.playout: no reference counting per step
    def _count(n, S):
        dec = 0
        dr = 0
        for g in range(n):
            HK.new_game(S)
            key = HK.word(np.uint64(7), g)
            ctr = 0
            while True:
                HK.advance(S)
                p = S[HK.PH]
                if p == HK.P_WON or p == HK.P_LOST:
                    break
                if p >= HK.P_SETUP:
                    t = HK.draw_unknown(S, key, ctr)
                    ctr += 1
                    HK._drawn(S, t)
                    dr += 1
                    continue
                HK.apply_action(S, _act(S))
                dec += 1
        return dec, dr

    @njit(_nrt=False)
    def _draws(n, S):
        acc = 0
        for g in range(n):
            HK.new_game(S)
            key = HK.word(np.uint64(7), g)
            for i in range(70):
                acc += HK.draw_unknown(S, key, i)
        return acc

    @njit(_nrt=False)
    def _new_games(n, S):
        acc = 0
        for i in range(n):
            HK.new_game(S)
            acc += S[HK.ARR + i % 76]
        return acc

    @njit
    def _record(n, out):
        """The first decision states of the games 0.. (stream 7) into out's rows."""
        S = np.zeros(HK.NS, dtype=np.int64)
        k = 0
        for g in range(n):
            HK.new_game(S)
            key = HK.word(np.uint64(7), g)
            ctr = 0
            while k < out.shape[0]:
                HK.advance(S)
                p = S[HK.PH]
                if p == HK.P_WON or p == HK.P_LOST:
                    break
                if p >= HK.P_SETUP:
                    t = HK.draw_unknown(S, key, ctr)
                    ctr += 1
                    HK._drawn(S, t)
                    continue
                out[k, :] = S
                k += 1
                HK.apply_action(S, _act(S))
        return k

    @njit
    def _decide(states, k, reps):
        acc = 0
        for _ in range(reps):
            for i in range(k):
                acc += _act(states[i])
        return acc

    @njit(_nrt=False)
    def _copies(states, k, reps, S):
        acc = 0
        for _ in range(reps):
            for i in range(k):
                src = states[i]
                for j in range(HK.NS):
                    S[j] = src[j]
                acc += S[HK.PH]
        return acc

    S = np.zeros(HK.NS, dtype=np.int64)
    states = np.zeros((3000, HK.NS), dtype=np.int64)
    _count(2, S)
    _draws(2, S)
    _new_games(2, S)
    k = _record(1000, states)
    _decide(states, 2, 1)
    _copies(states, 2, 1, S)
    (dec, dr), cpu, _ = _timed(lambda: _count(games, S))
    _, cpu_d, _ = _timed(lambda: _draws(games, S))
    _, cpu_n, _ = _timed(lambda: _new_games(1_000_000, S))
    _, cpu_g, _ = _timed(lambda: _decide(states, k, 300))
    _, cpu_c, _ = _timed(lambda: _copies(states, k, 300, S))
    return {"games": games, "decisions_per_game": dec / games, "draws_per_game": dr / games,
            "ns_per_game_cpu": cpu / games * 1e9,
            "ns_per_draw_cpu": cpu_d / (70 * games) * 1e9,
            "ns_per_step_cpu": cpu / (dec + dr) * 1e9,
            "ns_per_new_game_cpu": cpu_n / 1e6 * 1e9,
            "greedy_states": k,
            "ns_per_greedy_decision_cpu": cpu_g / (300 * k) * 1e9,
            "ns_per_state_copy_cpu": cpu_c / (300 * k) * 1e9, "base": base}


BEFORE_REF = "000c4b9"    # main before the throughput work (issue 18, item 1)


def load_kernel_at(ref: str, out_dir: str = OUT_DIR):
    """The honest kernel (solver/honest/kernel.py) as it was at git ``ref``, imported as a module of its own (a
    copy under ``out_dir``, the git-ignored scratch folder by default, numba-cached there), for
    a side-by-side measurement; None (and a reason) when git cannot give it."""
    import importlib.util
    import subprocess

    from benchmarks.harness import ROOT
    try:
        r = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True,
                           text=True, check=True)
        sha = r.stdout.strip()
        # solver/honest/kernel.py since issue 26 moved it; solver/honest_kernel.py before
        for where in ("solver/honest/kernel.py", "solver/honest_kernel.py"):
            got = subprocess.run(["git", "show", f"{sha}:{where}"], cwd=ROOT,
                                 capture_output=True, text=True)
            if got.returncode == 0:
                src = got.stdout
                break
        else:
            raise subprocess.CalledProcessError(got.returncode, got.args, stderr=got.stderr)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, f"git cannot give the honest kernel at {ref!r}: {e}"
    os.makedirs(out_dir, exist_ok=True)
    name = f"honest_kernel_at_{sha}"
    path = os.path.join(out_dir, name + ".py")
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != src:                      # rewritten only when it changed (keeps numba's cache)
        with open(path, "w") as f:
            f.write(src)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod, sha


def throughput(kernel_games: int, engine_games: int, old_games: int, rounds: int = 4,
               before: str | None = BEFORE_REF) -> dict:
    """Greedy games per second, side by side in ``rounds`` alternating slices (A B A B): the
    information-state kernel as it is now ("after"), as it was at git ``before`` (same
    streams, so the same games), the deal-mode kernel and the engine.  ``kernel_games``,
    ``engine_games`` and ``old_games`` are totals over the rounds."""
    from engine import Game
    from engine.policy import play_game
    from solver.honest import kernel as HK

    t0 = time.perf_counter()
    HK.compile_all()
    sides = {"info-state kernel": HK}
    before_sha = None
    if before:
        mod, info = load_kernel_at(before)
        if mod is None:
            print(f"bench_honest: no 'before' row: {info}", file=sys.stderr)
        else:
            mod.compile_all()
            before_sha = info
            sides[f"info-state kernel at {info}"] = mod
    KP = None
    if old_games:
        from solver.clairvoyant import playouts as KP
        KP.compile_all()
    compile_s = time.perf_counter() - t0
    game = Game(1)
    rows = {name: {"games": 0, "wins": 0, "cpu_s": 0.0, "wall_s": 0.0, "per_round": []}
            for name in list(sides) + (["deal-mode kernel"] if KP else []) + ["engine"]}
    kg = max(1, kernel_games // rounds)
    eg = max(1, engine_games // rounds)
    og = max(1, old_games // rounds) if KP else 0

    def _engine(seeds):
        wins = 0
        for s in seeds:
            st, _ = play_game(game, s)
            wins += st.won()
        return {"games": len(seeds), "wins": wins}

    def _add(name, r, cpu, wall):
        row = rows[name]
        row["games"] += r["games"]
        row["wins"] += r["wins"]
        row["cpu_s"] += cpu
        row["wall_s"] += wall
        row["per_round"].append(round(r["games"] / cpu))
    for i in range(rounds):
        # the kernels alternate their order from round to round: A B, B A, ...
        order = list(sides) if i % 2 == 0 else list(sides)[::-1]
        for name in order:
            M = sides[name]
            # round i: kg games of stream 12345 + i, the same on both kernel sides
            r, cpu, wall = _timed(lambda: M.playout_batch(kg, key=12345 + i))
            _add(name, r, cpu, wall)
        if KP:
            r, cpu, wall = _timed(lambda: KP.run_batch(range(i * og, (i + 1) * og), "greedy"))
            _add("deal-mode kernel", r, cpu, wall)
        r, cpu, wall = _timed(lambda: _engine(range(i * eg, (i + 1) * eg)))
        _add("engine", r, cpu, wall)
    for v in rows.values():
        v["games_per_s_cpu"] = v["games"] / v["cpu_s"]
        v["games_per_s_wall"] = v["games"] / v["wall_s"]
        v["win_rate"] = v["wins"] / v["games"]
    eng = rows["engine"]["games_per_s_cpu"]
    now = rows["info-state kernel"]["games_per_s_cpu"]
    out = {"compile_or_load_s": compile_s, "rows": rows, "rounds": rounds,
           "kernel_vs_engine": now / eng, "before_ref": before, "before_commit": before_sha}
    if before_sha:
        b = rows[f"info-state kernel at {before_sha}"]
        out["after_vs_before"] = now / b["games_per_s_cpu"]
        # the same streams: the same games, so the same wins (a check, not a timing)
        out["same_games_as_before"] = b["wins"] == rows["info-state kernel"]["wins"]
    return out


def cmd_throughput(args) -> int:
    out = {"benchmark": "honest-throughput", "machine": machine_info(),
           "target_games_per_s": 400_000,
           "command": "python -m benchmarks.bench_honest " + " ".join(sys.argv[1:])}
    out.update(throughput(args.games, args.engine_games, args.old_games, args.rounds,
                          args.before or None))
    out["breakdown"] = breakdown(min(args.games, 50_000))
    if out.get("before_commit"):
        # the pieces measured alone, in the kernel at --before (its game loop as above would
        # run without reference counting, which its own playout did not: not comparable)
        b = breakdown(20_000, sys.modules[f"honest_kernel_at_{out['before_commit']}"])
        out["alone_before"] = {k: b[k] for k in ("ns_per_new_game_cpu",
                                                 "ns_per_greedy_decision_cpu", "greedy_states")}
    if args.diff_steps:
        out["differential"] = _diff(args.diff_steps, args.diff_seed)
    try:
        out["machine"]["loadavg_end"] = list(os.getloadavg())
    except OSError:
        pass
    rows = [(name, f"{v['games']:,}", f"{v['games_per_s_cpu']:,.0f}",
             " ".join(f"{x:,}" for x in v["per_round"]),
             f"{v['games_per_s_wall']:,.0f}", f"{v['win_rate']:.4f}")
            for name, v in out["rows"].items()]
    print(table(rows, ("greedy games", "games", "games/s (cpu)", "per round (cpu)",
                       "games/s (wall)", "win rate")))
    b = out["breakdown"]
    print(f"kernel: {b['decisions_per_game']:.1f} decisions and {b['draws_per_game']:.1f} draws "
          f"per game, {b['ns_per_game_cpu']:.0f} ns per game, {b['ns_per_step_cpu']:.1f} ns "
          f"per step, {b['ns_per_draw_cpu']:.1f} ns per draw (cpu)")
    print(f"alone (cpu): new_game {b['ns_per_new_game_cpu']:.1f} ns, a greedy decision "
          f"{b['ns_per_greedy_decision_cpu']:.1f} ns (over {b['greedy_states']:,} recorded "
          f"decision states, in cache)"
          + (f"; at {out['before_commit']}: {out['alone_before']['ns_per_new_game_cpu']:.1f} "
             f"and {out['alone_before']['ns_per_greedy_decision_cpu']:.1f} ns"
             if out.get("alone_before") else ""))
    print(f"kernel / engine: {out['kernel_vs_engine']:.0f}x; compile or cache load "
          f"{out['compile_or_load_s']:.1f} s (not counted)")
    if out.get("before_commit"):
        print(f"kernel now / at {out['before_commit']}: {out['after_vs_before']:.3f}x "
              f"(same games: {out['same_games_as_before']}); target "
              f"{out['target_games_per_s']:,} games/s of CPU: "
              f"{'met' if out['rows']['info-state kernel']['games_per_s_cpu'] >= 400_000 else 'NOT met'}"
              f"; load {out['machine']['loadavg']} -> {out['machine'].get('loadavg_end')}")
    if args.diff_steps:
        print(f"differential: {out['differential']}")
    path = write_json(f"honest-throughput-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json",
                      out, args.out_dir)
    print(f"written: {path}")
    return 0


# Each variant undoes one of the throughput changes in a copy of the current kernel's source.
ABLATIONS = {
    "with NRT reference counting in playout": [
        ("@njit(cache=True, _nrt=False)\ndef playout(", "@njit(cache=True)\ndef playout(")],
    "rule-by-rule greedy play (_greedy_play_ref)": [
        ("@njit(cache=True)\ndef _greedy_play_ref(S):",
         "@njit(cache=True, inline=\"always\")\ndef _greedy_play_ref(S):"),
        ("        return _greedy_play(S)\n", "        return _greedy_play_ref(S)\n")],
    "new_game filled card by card": [
        ("    for i in range(NS):\n        S[i] = INITIAL[i]\n",
         "    for i in range(NS):\n        S[i] = 0\n    n = 0\n    for t in range(17):\n"
         "        S[U + t] = COUNTS[t]\n        for _ in range(COUNTS[t]):\n"
         "            S[ARR + n] = t\n            n += 1\n    S[UTOT] = 76\n"
         "    S[LAST] = NO_CARD\n    S[DRAWN] = -1\n    S[PH] = P_SETUP\n")],
}


def load_variant(label: str, out_dir: str = OUT_DIR):
    """The current kernel with one change undone (ABLATIONS[label]), as a module of its own."""
    import importlib.util

    from solver.honest import kernel as HK
    with open(HK.__file__) as f:
        src = f.read()
    for old, new in ABLATIONS[label]:
        if src.count(old) != 1:
            raise RuntimeError(f"ablation {label!r}: the kernel source changed ({old[:40]!r})")
        src = src.replace(old, new)
    name = "honest_kernel_without_" + str(list(ABLATIONS).index(label))
    path = os.path.join(out_dir, name + ".py")
    os.makedirs(out_dir, exist_ok=True)
    old_src = open(path).read() if os.path.exists(path) else None
    if old_src != src:
        with open(path, "w") as f:
            f.write(src)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def cmd_ablation(args) -> int:
    """Games/s of CPU of the current kernel and of each variant with one change undone (and
    the kernel at --before), in alternating rounds; same streams, so the same games."""
    from solver.honest import kernel as HK
    machine = machine_info()            # the load at the start
    sides = {"current kernel": HK}
    for label in ABLATIONS:
        sides["current, " + label] = load_variant(label)
    if args.before:
        mod, sha = load_kernel_at(args.before)
        if mod is not None:
            sides[f"kernel at {sha}"] = mod
    for M in sides.values():
        M.compile_all()
    kg = max(1, args.games // args.rounds)
    res = {name: {"games": 0, "wins": 0, "cpu_s": 0.0, "per_round": []} for name in sides}
    for i in range(args.rounds):
        order = list(sides) if i % 2 == 0 else list(sides)[::-1]
        for name in order:
            r, cpu, _ = _timed(lambda: sides[name].playout_batch(kg, key=777 + i))
            v = res[name]
            v["games"] += r["games"]
            v["wins"] += r["wins"]
            v["cpu_s"] += cpu
            v["per_round"].append(round(r["games"] / cpu))
    base = res["current kernel"]["games"] / res["current kernel"]["cpu_s"]
    for v in res.values():
        v["games_per_s_cpu"] = v["games"] / v["cpu_s"]
        v["vs_current"] = v["games_per_s_cpu"] / base
    out = {"benchmark": "honest-throughput-ablation", "machine": machine,
           "command": "python -m benchmarks.bench_honest " + " ".join(sys.argv[1:]),
           "rounds": args.rounds, "rows": res,
           "same_games": len({v["wins"] for v in res.values()}) == 1}
    try:
        out["machine"]["loadavg_end"] = list(os.getloadavg())
    except OSError:
        pass
    print(table([(n, f"{v['games']:,}", f"{v['games_per_s_cpu']:,.0f}", f"{v['vs_current']:.3f}",
                  " ".join(f"{x:,}" for x in v["per_round"]), v["wins"])
                 for n, v in res.items()],
                ("greedy games", "games", "games/s (cpu)", "/ current", "per round", "wins")))
    print(f"same games on every side: {out['same_games']}; load {out['machine']['loadavg']} -> "
          f"{out['machine'].get('loadavg_end')}")
    path = write_json(f"honest-ablation-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json",
                      out, args.out_dir)
    print(f"written: {path}")
    return 0


def _diff(steps, seed):
    """The honest kernel against the engine through the package's one conformance harness
    (``solver.conformance``): steps, games, decisions and chance outcomes checked."""
    from solver import conformance
    t0 = time.perf_counter()
    r = conformance.run(conformance.ADAPTERS["honest"](), steps, seed=seed)
    return {"steps": r.steps, "games": r.games, "decisions": r.decisions, "chance": r.chance,
            "mismatches": r.mismatches, "mismatch": None if r.mismatch is None
            else str(r.mismatch), "seconds": time.perf_counter() - t0, "seed": seed}


def cmd_diff(args) -> int:
    n = _diff(args.diff_steps, args.diff_seed)
    print(json.dumps(n))
    return 0


# ----------------------------------------------------------------------------- ladder
def _read_done(path):
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    d = json.loads(line)
                except json.JSONDecodeError:
                    continue        # a line cut by a kill: that deal is played again
                done[d["seed"]] = d
    return done


def summary(rows: list) -> dict:
    n = len(rows)
    k = sum(1 for r in rows if r["won"])
    dec = sum(r["decisions"] for r in rows)
    sec = sum(r["seconds"] for r in rows)
    lo, hi = _wilson(k, n)
    return {"deals": n, "wins": k, "win_rate": k / n if n else None, "ci95": [lo, hi],
            "decisions": dec, "seconds": sec, "s_per_decision": sec / dec if dec else None}


def cmd_ladder(args) -> int:
    from solver.api import config_hash, make_policy, parse_policy_args
    from solver.honest.play import play_honest

    policy = make_policy(args.policy, **parse_policy_args(args.policy_arg))
    h = config_hash(policy)
    path = args.out or os.path.join(OUT_DIR, f"ladder-{args.policy}-{h}.jsonl")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    done = _read_done(path)
    seeds = range(args.seed, args.seed + args.deals)
    todo = [s for s in seeds if s not in done]
    print(f"{args.policy} {policy.config} hash {h}: {len(seeds) - len(todo)} deals done, "
          f"{len(todo)} to play -> {path}", flush=True)
    # warm-up (numba compile or cache load; not counted in any deal's seconds)
    from engine import Game
    from engine.view import player_view
    warm = Game(1).new_initial_state(seed=0)
    policy.act(player_view(warm), 0)
    with open(path, "a") as f:
        for i, s in enumerate(todo):
            g = play_honest(policy, s)
            row = {"seed": s, "won": g.won, "doors": g.doors, "decisions": g.decisions,
                   "seconds": round(g.seconds, 4), "policy": args.policy,
                   "config": policy.config, "config_hash": h}
            f.write(json.dumps(row) + "\n")
            f.flush()
            done[s] = row
            if args.progress and (i + 1) % args.progress == 0:
                sm = summary([done[x] for x in seeds if x in done])
                print(f"  {sm['deals']} deals: {sm['win_rate']:.3f} "
                      f"[{sm['ci95'][0]:.3f}, {sm['ci95'][1]:.3f}], "
                      f"{sm['s_per_decision']:.4f} s/decision", flush=True)
    sm = summary([done[s] for s in seeds])
    sm.update({"policy": args.policy, "config": policy.config, "config_hash": h,
               "seed": args.seed, "file": path, "machine": machine_info()})
    print(json.dumps(sm))
    return 0


def cmd_report(args) -> int:
    """The ladder table of the given result files (one row per file)."""
    out = []
    for path in args.files:
        rows = list(_read_done(path).values())
        if not rows:
            continue
        if args.deals:
            rows = [r for r in rows if r["seed"] < args.deals]
        sm = summary(rows)
        seeds = sorted(r["seed"] for r in rows)
        cfg = rows[0].get("config", {})
        out.append({"policy": rows[0].get("policy"), "config": cfg,
                    "config_hash": rows[0].get("config_hash"), "file": path,
                    "seeds": f"{seeds[0]}..{seeds[-1]}", **sm})
    out.sort(key=lambda r: r["s_per_decision"] or 0)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(table([(r["policy"], " ".join(f"{k}={v}" for k, v in r["config"].items()
                                        if k in ("n", "z", "base", "level")),
                  r["deals"], r["seeds"], f"{r['win_rate']:.3f}",
                  f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]",
                  f"{r['s_per_decision']:.4f}") for r in out],
                ("policy", "config", "deals", "seeds", "win rate", "Wilson 95%",
                 "s/decision")))
    return 0


# ----------------------------------------------------------------------------- kernel
def cmd_kernel(args) -> int:
    from solver.honest import kernel as HK

    HK.policy_games(1, 0, 2)
    rows = []
    for cfg in args.configs:
        try:
            n, z = cfg.split(",")
            n, z = int(n), float(z)
        except ValueError:
            print(f"onirim: error: config: {cfg!r} is not n,z", file=sys.stderr)
            return 2
        r, cpu, wall = _timed(lambda: HK.policy_games(args.games, args.key, n, z,
                                                      args.screen, args.keep, args.base))
        k = int(r.sum())
        lo, hi = _wilson(k, args.games)
        rows.append({"n": n, "z": z, "base": args.base, "games": args.games, "wins": k,
                     "win_rate": k / args.games, "ci95": [lo, hi],
                     "cpu_s_per_game": cpu / args.games, "key": args.key})
        print(json.dumps(rows[-1]), flush=True)
    if args.json_out:
        write_json(args.json_out, {"benchmark": "honest-kernel-ladder", "rows": rows,
                                   "machine": machine_info()}, args.out_dir)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench_honest", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd")

    def common_tp(p):
        p.add_argument("--games", type=int, default=500_000, help="kernel games")
        p.add_argument("--engine-games", type=int, default=300)
        p.add_argument("--old-games", type=int, default=20_000,
                       help="deal-mode kernel games (0: skip)")
        p.add_argument("--diff-steps", type=int, default=0)
        p.add_argument("--diff-seed", type=int, default=0)
        p.add_argument("--rounds", type=int, default=4,
                       help="alternating slices (A B A B ...) the totals are split into")
        p.add_argument("--before", default=BEFORE_REF, metavar="REF",
                       help="git ref of the kernel to measure beside the current one "
                            f"(default {BEFORE_REF}, before the throughput work; '' to skip)")
        p.add_argument("--out-dir", default=OUT_DIR)

    common_tp(ap)
    common_tp(sub.add_parser("throughput"))
    ab = sub.add_parser("ablation")
    ab.add_argument("--games", type=int, default=400_000, help="games per side (total)")
    ab.add_argument("--rounds", type=int, default=4)
    ab.add_argument("--before", default=BEFORE_REF, metavar="REF")
    ab.add_argument("--out-dir", default=OUT_DIR)
    d = sub.add_parser("diff")
    d.add_argument("--diff-steps", type=int, default=1_000_000)
    d.add_argument("--diff-seed", type=int, default=0)
    la = sub.add_parser("ladder")
    la.add_argument("--policy", default="rollout")
    la.add_argument("--policy-arg", action="append", default=[])
    la.add_argument("--deals", type=int, default=200)
    la.add_argument("--seed", type=int, default=0)
    la.add_argument("--out", default=None)
    la.add_argument("--progress", type=int, default=20)
    rp = sub.add_parser("report")
    rp.add_argument("files", nargs="+", help="ladder .jsonl files")
    rp.add_argument("--deals", type=int, default=0, help="only seeds below this (0: all)")
    rp.add_argument("--json", action="store_true")
    k = sub.add_parser("kernel")
    k.add_argument("configs", nargs="+", help="n,z pairs (n = 0: greedy)")
    k.add_argument("--games", type=int, default=400)
    k.add_argument("--key", type=int, default=99)
    k.add_argument("--screen", type=int, default=16)
    k.add_argument("--keep", type=int, default=6)
    k.add_argument("--base", default="greedy", choices=["greedy", "greedy-plus"])
    k.add_argument("--json-out", default=None)
    k.add_argument("--out-dir", default=OUT_DIR)
    args = ap.parse_args(argv)
    if getattr(args, "rounds", 1) is not None and getattr(args, "rounds", 1) < 1:
        print("onirim: error: rounds: must be >= 1", file=sys.stderr)
        return 2
    for name in ("games", "engine_games", "old_games", "diff_steps", "deals"):
        if getattr(args, name, 0) is not None and getattr(args, name, 0) < 0:
            print(f"onirim: error: {name.replace('_', '-')}: must be >= 0", file=sys.stderr)
            return 2
    try:
        if args.cmd in (None, "throughput"):
            return cmd_throughput(args)
        if args.cmd == "diff":
            return cmd_diff(args)
        if args.cmd == "ablation":
            return cmd_ablation(args)
        if args.cmd == "ladder":
            return cmd_ladder(args)
        if args.cmd == "report":
            return cmd_report(args)
        return cmd_kernel(args)
    except Exception as e:   # policy errors and the like: one line, no traceback
        from engine.errors import OnirimError
        if isinstance(e, OnirimError):
            print(f"onirim: error: {e}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
