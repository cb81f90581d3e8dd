"""Behaviour and speed of one source tree, to compare two trees (a refactoring changes neither).

It imports the tree on PYTHONPATH, so run it as a script, once per tree, e.g. with the old
tree unpacked by ``git archive OLD | tar -x -C /tmp/before``::

    PYTHONPATH=/tmp/before python benchmarks/before_after.py cv 0 10000
    PYTHONPATH=.           python benchmarks/before_after.py cv 0 10000
    PYTHONPATH=<tree> python benchmarks/before_after.py ex 41:13 103:13 56:15 70:15
    PYTHONPATH=<tree> python benchmarks/before_after.py speed      # alternate the trees

``duo A B``     two-player clairvoyant solves of deals A..B-1 (400,000 nodes each): results,
                nodes and a digest of every deal's (result, nodes, line);
``honest N``    N greedy and N greedy-plus playouts of the honest kernel: what playout_batch
                reports of them;
``cv A B``      clairvoyant solve of deals A..B-1: wins, total nodes and a digest of every
                deal's (result, nodes, line);
``ex [--nodes B] [--bits K] S:N ...``  the expectimax value of ``late_position(S, N)`` (one
                thread, a 2^K memo, K = 22 by default, a fresh solver per position) as exact hex floats, its node count,
                and a digest of the ranking's bounds; with ``--nodes B`` the value and the
                ranking each stop after B expanded nodes (no probes, no estimates), and the
                budgeted bounds are compared bit for bit (the hardest positions take many
                minutes with one thread and a small memo);
``policies [N]`` the honest kernels through their policies (in-kernel rollout games, then
                ``rollout`` and ``seq-rollout`` on deals 0..N-1, N = 3 by default): wins,
                a digest of every game's actions and CPU seconds;
``deal-playouts N R``  the deal-mode greedy playouts of seeds 0..N-1 and random ones of
                0..R-1: wins, decisions and a sha256 of every game's actions and final phase
                (before-after-dealgreedy-20261204.json used N = 100000, R = 10000);
``speed``       kernel greedy playouts/s (20,000 deals), clairvoyant nodes/s (deals
                1000..1399, no certificate check), expectimax nodes/s (seed 56, 15 cards),
                each after its compilation, per second of wall time and of CPU time.
``report OUT BEFORE AFTER``  compare the outputs of two trees, kept in folders BEFORE and
                AFTER as ``cv.json``, ``ex.jsonl`` and ``speed.jsonl`` (one line per run,
                the runs of the two trees alternated), and write them with the
                comparison and the machine to OUT (JSON).  Exit status 1 if a value, a
                node count or a digest differs.
"""
import hashlib
import json
import os
import sys
import time


def cv(a, b):
    from solver.clairvoyant.solve import ClairvoyantSolver
    sv = ClairvoyantSolver()
    sv.solve_deal(0)   # compile / load
    h = hashlib.sha256()
    out = {"WIN": 0, "LOSS": 0, "UNKNOWN": 0}
    nodes = 0
    t0 = time.perf_counter()
    for seed in range(a, b):
        r = sv.solve_deal(seed)
        out[r.result] += 1
        nodes += r.nodes
        h.update(f"{seed} {r.result} {r.nodes} {' '.join(r.line)}\n".encode())
    print(json.dumps({"deals": [a, b], **out, "nodes": nodes, "digest": h.hexdigest()[:16],
                      "seconds": round(time.perf_counter() - t0, 2)}))


def duo(a, b, budget=400_000):
    """Two-player clairvoyant solves of deals a..b-1 (node budget ``budget`` each): the
    results, total nodes and a digest of every deal's (result, nodes, line)."""
    from engine.game import Game
    from solver.duo.search import DuoSolver
    sv = DuoSolver()
    sv.solve_state(Game(2).new_initial_state(0), budget_nodes=1000)   # compile / load
    h = hashlib.sha256()
    out = {"WIN": 0, "LOSS": 0, "UNKNOWN": 0}
    nodes = 0
    t0 = time.perf_counter()
    for seed in range(a, b):
        r = sv.solve_state(Game(2).new_initial_state(seed), budget_nodes=budget)
        out[r.result] += 1
        nodes += r.nodes
        h.update(f"{seed} {r.result} {r.nodes} {' '.join(r.line)}\n".encode())
    print(json.dumps({"deals": [a, b], "budget": budget, **out, "nodes": nodes,
                      "digest": h.hexdigest()[:16],
                      "seconds": round(time.perf_counter() - t0, 2)}))


def honest(n):
    """``n`` greedy and ``n`` greedy-plus playouts of the information-state kernel from the
    setup (keys 0 ..): wins and a digest of every game's (won, steps)."""
    from solver.honest import kernel as HK
    out = {}
    for base in ("greedy", "greedy-plus"):
        HK.playout_batch(10, key=0, base=base)      # compile / load
        r = HK.playout_batch(n, key=0, base=base)
        out[base] = {k: (v if isinstance(v, (int, float, str)) else repr(v))
                     for k, v in r.items() if k not in ("seconds", "games_per_s")}
    print(json.dumps({"games": n, **out}))


def ex(specs, budget=None, bits=22):
    from benchmarks.bench_expectimax import late_position
    from engine.notation import format_position
    from solver.expectimax.solver import Expectimax
    for spec in specs:
        seed, cards = (int(x) for x in spec.split(":"))
        st = late_position(seed, cards)
        sv = Expectimax(bits, threads=1)
        t0 = time.perf_counter()
        iv = sv.value(st, budget_nodes=budget)
        dt = time.perf_counter() - t0
        value_nodes = sv.nodes
        rk = sv.rank(st, budget_nodes=budget, probes=False, estimate=False)
        acts = [(a.action, a.lo.hex(), a.hi.hex()) for a in rk.actions]
        h = hashlib.sha256(json.dumps(acts).encode()).hexdigest()[:16]
        print(json.dumps({"seed": seed, "cards": cards, "deck": st.deck_size(),
                          "lo": iv.lo.hex(), "hi": iv.hi.hex(), "value": iv.lo,
                          "value_nodes": value_nodes,
                          "exact": iv.lo == iv.hi, "budget": budget, "rank_nodes": sv.nodes,
                          "rank_digest": h, "actions": len(acts),
                          "seconds": round(dt, 2),
                          "position_digest":
                              hashlib.sha256(format_position(st).encode()).hexdigest()[:12]}))
        sys.stdout.flush()


def speed():
    """Rates per second of wall time and per second of CPU time (``time.process_time``, all
    threads of the process): on a machine shared with other jobs the wall time includes the
    time the process waited for a core, the CPU time does not, so its ratios are the
    steadier ones."""
    from solver.clairvoyant import playouts as KP
    from benchmarks.bench_expectimax import late_position
    from solver.clairvoyant.solve import ClairvoyantSolver
    from solver.expectimax.solver import Expectimax
    KP.compile_all()
    sv = ClairvoyantSolver()
    sv.solve_deal(0)
    st = late_position(56, 15)
    Expectimax(20, threads=1).value(late_position(63, 12))
    res = {}

    def clocks():
        return time.perf_counter(), time.process_time()

    def rate(name, count, t0):
        t1 = clocks()
        res[name] = count / (t1[0] - t0[0])
        res[name.replace("_per_s", "_per_cpu_s")] = count / (t1[1] - t0[1])
    t0 = clocks()
    r = KP.run_batch(range(20000), "greedy")
    rate("kernel_playouts_per_s", r["games"], t0)
    nodes = 0
    t0 = clocks()
    for seed in range(1000, 1400):
        nodes += sv.solve_deal(seed, verify=False).nodes
    rate("clairvoyant_nodes_per_s", nodes, t0)
    ex = Expectimax(22, threads=1)
    t0 = clocks()
    ex.value(st)
    rate("expectimax_nodes_per_s", ex.nodes, t0)
    res["expectimax_nodes"] = ex.nodes
    res["clairvoyant_nodes"] = nodes
    res["playout_games"] = r["games"]
    res["loadavg"] = list(os.getloadavg())
    print(json.dumps(res))


def policies(deals):
    """The honest kernels through their policies: in-kernel rollout games (16 playouts per
    action, 300 chance-mode games), then ``rollout`` (n=64) and ``seq-rollout`` (n=256) on
    deals 0..deals-1 under honest information.  Wins and a digest of every game's actions
    (equal in two trees when the policies decide alike), CPU seconds of each part after the
    warm-ups."""
    import hashlib
    from solver.api import make_policy
    from solver.honest import playouts as PL
    from solver.honest.play import play_honest
    PL.policy_games(2, n=0)
    PL.policy_games(2, n=4)
    pols = {"rollout": make_policy("rollout", n=64), "seq_rollout": make_policy("seq-rollout",
                                                                               n=256)}
    for pol in pols.values():
        pol.warm_up()
    res = {}
    c = time.process_time()
    res["greedy_games_wins"] = int(PL.policy_games(200_000, key=7, n=0).sum())
    res["greedy_games_cpu_s"] = time.process_time() - c
    c = time.process_time()
    res["r16_games_wins"] = int(PL.policy_games(300, key=7, n=16).sum())
    res["r16_games_cpu_s"] = time.process_time() - c
    for name, pol in pols.items():
        c = time.process_time()
        h = hashlib.sha256()
        wins = 0
        for d in range(deals):
            g = play_honest(pol, d)
            wins += g.won
            h.update(repr((g.won, g.actions)).encode())
        res[name + "_cpu_s"] = time.process_time() - c
        res[name + "_wins"] = wins
        res[name + "_digest"] = h.hexdigest()[:16]
    res["loadavg"] = list(os.getloadavg())
    print(json.dumps(res))


def deal_playouts(n, r):
    """The deal-mode playouts (``solver.clairvoyant.playouts``) of seeds 0..n-1 with greedy and
    0..r-1 with random: wins, decisions, a sha256 of one line per game (seed, final phase,
    actions) and what ``run_batch`` counts of the same seeds."""
    from solver.clairvoyant import playouts
    playouts.compile_all()
    out = {}
    for pol, k in (("greedy", n), ("random", r)):
        h = hashlib.sha256()
        wins = dec = 0
        for s in range(k):
            acts, ph = playouts.playout(s, pol)
            h.update(f"{s}:{ph}:{','.join(map(str, acts))}\n".encode())
            wins += ph == "won"
            dec += len(acts)
        out[pol] = {"games": k, "wins": wins, "decisions": dec, "sha256": h.hexdigest(),
                    "run_batch": playouts.run_batch(range(k), pol)}
    print(json.dumps(out, default=int))


def _lines(path):
    with open(path) as f:
        return [json.loads(x) for x in f if x.strip()]


def report(out, before, after):
    import statistics
    from benchmarks.harness import machine_info, write_json
    res = {"machine": machine_info(), "trees": {"before": before, "after": after}}
    same = True
    trees = (("before", before), ("after", after))
    cv = {k: _lines(os.path.join(d, "cv.json")) for k, d in trees}
    keys = ("deals", "WIN", "LOSS", "UNKNOWN", "nodes", "digest")
    cv_same = [{k: r[k] for k in keys} for r in cv["before"]] == \
        [{k: r[k] for k in keys} for r in cv["after"]]
    same &= cv_same
    res["cv"] = {**cv, "identical": cv_same}
    ex = {k: _lines(os.path.join(d, "ex.jsonl")) for k, d in trees}
    drop = ("seconds",)
    rows = []
    for b, a in zip(ex["before"], ex["after"]):
        eq = {k: v for k, v in b.items() if k not in drop} == \
            {k: v for k, v in a.items() if k not in drop}
        rows.append({"seed": b["seed"], "identical": eq, "before": b, "after": a})
        same &= eq
    same &= len(ex["before"]) == len(ex["after"])
    res["ex"] = {"rows": rows, "positions": len(rows),
                 "identical": all(r["identical"] for r in rows)
                 and len(ex["before"]) == len(ex["after"])}
    sp = {k: _lines(os.path.join(d, "speed.jsonl")) for k, d in trees}
    ratios = {}
    for m in ("kernel_playouts_per_s", "clairvoyant_nodes_per_s", "expectimax_nodes_per_s",
              "kernel_playouts_per_cpu_s", "clairvoyant_nodes_per_cpu_s",
              "expectimax_nodes_per_cpu_s"):
        rs = [a[m] / b[m] for b, a in zip(sp["before"], sp["after"]) if m in a and m in b]
        if not rs:
            continue
        ratios[m] = {"after_over_before": rs, "median": statistics.median(rs),
                     "before": [b[m] for b in sp["before"]], "after": [a[m] for a in sp["after"]]}
    res["speed"] = {"pairs": min(len(sp["before"]), len(sp["after"])), "ratios": ratios,
                    "runs": sp}
    res["identical"] = same
    print(write_json(os.path.basename(out), res, os.path.dirname(out) or "."))
    print(json.dumps({"identical": same, "cv": cv_same, "ex": res["ex"]["identical"],
                      "speed_median_ratios": {m: round(r["median"], 3)
                                              for m, r in ratios.items()}}))
    return 0 if same else 1


if __name__ == "__main__":
    if sys.argv[1] == "cv":
        cv(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "ex":
        args = sys.argv[2:]
        budget = None
        bits = 22
        while args[:1] in (["--nodes"], ["--bits"]):
            if args[0] == "--nodes":
                budget = int(args[1])
            else:
                bits = int(args[1])
            args = args[2:]
        ex(args, budget, bits)
    elif sys.argv[1] == "duo":
        duo(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "honest":
        honest(int(sys.argv[2]))
    elif sys.argv[1] == "deal-playouts":
        deal_playouts(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "policies":
        policies(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    elif sys.argv[1] == "report":
        sys.exit(report(*sys.argv[2:5]))
    else:
        speed()
