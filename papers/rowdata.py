"""Records of the paper computed from the raw per-deal rows of ``benchmarks/results/rows/``.

Every win rate of the paper and the README is counted here from the rows that
``python -m benchmarks.experiments`` writes (format and reader: ``benchmarks/rows.py``).  A
figure whose rows are not stored at a commit of this tree yet is *pending*: its row comes from
an older summary file, carries ``"pending": true`` and the reason, and every number drawn from
it is printed with the mark ``PENDING_MARK`` (the text says what the mark means).  Which
figures are pending is thus computed from the files, never typed: storing the rows of a
pending figure makes it current at the next build.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from benchmarks import rows as rows_mod

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

PENDING_MARK = "\u2020"     # a dagger
PENDING_NOTE = ("from an earlier commit; its per-deal rows were not stored, and the policies' "
                "random numbers have changed since (policy seed); rerun pending")

# The solo ladder: (label, experiment of benchmarks/experiments.py, label in the old summary
# benchmarks/results/honest-ladder.json, regret label in the regret result files).
LADDER = (
    ("greedy", "greedy", "greedy", "greedy"),
    ("greedy-plus", "greedy-plus", "greedy-plus", "greedy-plus"),
    ("rollout n=4", "rollout-n4", "rollout n=4", None),
    ("rollout n=16", "rollout-n16", "rollout n=16", None),
    ("rollout n=64", "rollout-n64", "rollout n=64", "rollout"),
    ("rollout n=256", "rollout-n256", "rollout n=256", "rollout(n=256)"),
    ("rollout n=1024", "rollout-n1024", "rollout n=1024", None),
    # issue 29: the stronger base policy and the sequential rollout over it (no old summary)
    ("greedy-keep-doors", "greedy-keep-doors", None, None),
    ("seq-rollout n=256", "seq-n256", None, None),
    ("seq-rollout n=1024", "seq-n1024", None, None),
    ("seq-rollout n=4096", "seq-n4096", None, None),
    ("seq-rollout n=16384", "seq-n16384", None, None),
    ("endgame over seq-rollout n=1024", "endgame-seq-n1024", None, None),
    ("seq-rollout n=1024 stop=0.01", "seq-n1024-stop", None, None),
    ("endgame at 8 over seq-rollout n=1024 stop=0.01", "endgame8-seq-n1024-stop", None, None),
    ("endgame over seq-rollout n=4096", "endgame-seq-n4096", None, None),
    ("late-l2 over seq-rollout n=4096", "late-l2-seq-n4096", None, None),
    # issue 29, third stop: a looser stop, the learned base, information-set search
    ("endgame at 8 over seq-rollout n=1024 stop=0.05", "endgame8-seq-n1024-stop05", None, None),
    ("learned-base", "learned-base", None, None),
    ("seq-rollout n=512 stop=0.01 over learned-base", "seq-n512-stop-learned", None, None),
    ("seq-rollout n=1024 stop=0.01 over learned-base", "seq-n1024-stop-learned", None, None),
    ("endgame at 8 over seq-rollout n=128 over learned-base", "endgame8-seq-n128-stop-learned",
     None, None),
    ("endgame at 8 over seq-rollout n=512 over learned-base", "endgame8-seq-n512-stop-learned",
     None, None),
    ("endgame at 8 over seq-rollout n=768 over learned-base", "endgame8-seq-n768-stop-learned",
     None, None),
    ("endgame at 8 over seq-rollout n=1024 over learned-base",
     "endgame8-seq-n1024-stop-learned", None, None),
    ("ismcts 2,000 iterations", "ismcts-i2000", None, None),
    ("ismcts 8,000 iterations", "ismcts-i8000", None, None),
    # issue 29, fourth stop: a larger cap over the learned base; the second learned base
    ("endgame at 8 over seq-rollout n=4096 over learned-base",
     "endgame8-seq-n4096-stop-learned", None, None),
    ("learned-base-2", "learned-base-2", None, None),
    ("endgame at 8 over seq-rollout n=768 over learned-base-2",
     "endgame8-seq-n768-stop-learned2", None, None),
    # issue 29, fifth stop: a wider exact end game over the strongest rollout
    ("endgame at 12 (400,000 nodes, pruned) over seq-rollout n=4096 over learned-base",
     "endgame12p-seq-n4096-stop-learned", None, None),
    ("endgame at 14 (400,000 nodes, pruned) over seq-rollout n=4096 over learned-base",
     "endgame14p-seq-n4096-stop-learned", None, None),
    ("endgame at 8 over seq-rollout n=256 over learned-base", "endgame8-seq-n256-stop-learned",
     None, None),
    ("endgame at 12 (400,000 nodes, pruned) over seq-rollout n=16384 over learned-base",
     "endgame12p-seq-n16384-stop-learned", None, None),
    # issue 29, sixth stop: a screen for wide decisions; n=384 on the learned base (the screen
    # over n=768 was stopped at 743 deals, not consecutive seeds: docs/POLICIES.md gives it)
    ("endgame at 8 over seq-rollout n=512 screen=16 keep=4 over learned-base",
     "endgame8-seq-n512-stop-learned-screen16", None, None),
    ("endgame at 8 over seq-rollout n=384 over learned-base", "endgame8-seq-n384-stop-learned",
     None, None),
    # issue 29, eighth stop: a budget by deck size; the value function for the playouts' tails
    ("endgame at 8 over seq-rollout n=512 (256 while the deck holds 50 or more) over "
     "learned-base", "endgame8-seq-n512-early256-stop-learned", None, None),
    ("endgame at 8 over seq-rollout n=256 horizon=16 over learned-base",
     "endgame8-seq-n256-h16-stop-learned", None, None),
    ("endgame at 8 over seq-rollout n=1024 horizon=16 over learned-base",
     "endgame8-seq-n1024-h16-stop-learned", None, None),
    ("endgame at 8 over seq-rollout n=1024 horizon=32 over learned-base",
     "endgame8-seq-n1024-h32-stop-learned", None, None),
    ("endgame at 12 (400,000 nodes, pruned) over seq-rollout n=4096 horizon=32 over "
     "learned-base", "endgame12p-seq-n4096-h32-stop-learned", None, None),
)
LEGACY_LADDER = "honest-ladder.json"
LEGACY_LADDER_COMMIT = "56437ff"
# The two-player ladder: (label, experiment, label in benchmarks/results/duo-honest-ladder.json).
# The old summary's row "duo-rollout, shared prophecy" is not an honest row (it let a player
# use its partner's prophecy) and is not carried over.
DUO_LADDER = (
    ("greedy", "duo-greedy", "greedy"),
    ("duo-greedy-plus", "duo-greedy-plus", "duo-greedy-plus"),
    # the pure-Python duo-rollout (n=6; about 2 CPU-hours for 2,000 deals) is superseded by
    # the compiled duo-krollout below: shown only once its rows are stored (the old summary's
    # figure, from an earlier commit without rows, is not carried over)
    ("duo-rollout", "duo-rollout", None),
    # issue 30: the compiled two-player rollout (solver/duo/rollout.py), n playouts per action
    ("duo-krollout n=8", "duo-k8", None),
    ("duo-krollout n=32", "duo-k32", None),
    ("duo-krollout n=128", "duo-k128", None),
    ("duo-krollout n=512", "duo-k512", None),
    ("duo-krollout n=2048", "duo-k2048", None),
    # the base plus2 and the rollout over it (docs/DUO_BASES.md, "A stronger base: plus2")
    ("duo-plus2", "duo-plus2", None),
    ("duo-krollout2 n=192 over plus2", "duo-k2-192", None),
    ("duo-krollout2 n=1024 over plus2", "duo-k2-1024", None),
    # the silent game's end-game rule over duo-krollout2 n=192 (docs/DUO.md, "The silent
    # game's end-game rule (a heuristic)")
    ("duo-silent-switch over duo-krollout2 n=192", "duo-silent-switch", None),
    # the playouts cut at 24 draws by the two-player value function (docs/DUO_BASES.md, "A
    # value function for the two-player playouts' tails"): duo-kcut; the end-game rule over
    # it, duo-kcut-switch, was the silent game's default (with every prophecy order: below)
    ("duo-krollout2 n=384 over plus2, horizon 24 (duo-kcut)", "duo-k2-h24-384", None),
    ("duo-silent-switch over duo-kcut (duo-kcut-switch before)", "duo-silent-switch-kcut", None),
    # the default with four times its playouts (n=1536, screen 192): the frontier past 10 ms
    ("duo-silent-switch over duo-kcut n=1536", "duo-silent-switch-kcut-1536", None),
    # every order of a prophecy's cards tried (docs/DUO_LEVERS.md): the silent default since
    ("duo-silent-switch over duo-kcut, every prophecy order (duo-kcut-switch)",
     "duo-silent-switch-kcut-orders", None),
)
# the experiments whose rows are the two games' default policies (solver/duo/rollout.py:
# DEFAULT_DUO_POLICY, and DEFAULT_OPEN_POLICY over OPEN_BASE; tests/solver/duo/test_duo_value.py
# checks that they name the same configurations)
DUO_DEFAULT = "duo-silent-switch-kcut-orders"
OPEN_DEFAULT = "duo-open-learned-u9-orders"
# The open game's rows (--talk open, the partner's hand known): (label, experiment); shown once
# stored, with mode "open".
DUO_OPEN = (
    ("duo-krollout n=512, open game", "duo-k512-open"),
    ("duo-open-switch, open game", "duo-open-switch"),
    ("duo-open-switch on the team base, open game", "duo-open-team"),
    ("duo-open-switch over duo-krollout n=320 on plus2, open game", "duo-open-plus2"),
    ("duo-open-switch over duo-krollout n=640 on plus2, horizon 24, open game",
     "duo-open-p2-h24"),
    ("duo-open-switch over duo-krollout n=2560 on plus2, horizon 24, open game",
     "duo-open-p2-h24-2560"),
    ("duo-open-switch from 9 unknown cards under 300,000 nodes over duo-krollout n=640 on "
     "plus2, horizon 24, open game", "duo-open-p2-h24-u9"),
    ("duo-open-switch from 10 unknown cards under 1,000,000 nodes over duo-krollout n=640 on "
     "plus2, horizon 24, open game", "duo-open-p2-h24-u10"),
    ("duo-open-switch from 10 unknown cards under 1,000,000 nodes over duo-krollout n=2560 on "
     "plus2, horizon 24, open game", "duo-open-p2-h24-2560-u10"),
    ("duo-open-switch from 9 unknown cards under 300,000 nodes over duo-krollout n=640 on "
     "learned, horizon 24, open game", "duo-open-learned-u9"),
    ("duo-open-switch from 10 unknown cards under 1,000,000 nodes over duo-krollout n=2560 on "
     "learned, horizon 24, open game", "duo-open-learned-2560-u10"),
    # every order of a prophecy's cards tried (docs/DUO_LEVERS.md): the open default since
    ("duo-open-switch from 9 unknown cards under 300,000 nodes over duo-krollout n=640 on "
     "learned, horizon 24, every prophecy order, open game", "duo-open-learned-u9-orders"),
)
LEGACY_DUO = "duo-honest-ladder.json"
LEGACY_DUO_COMMIT = "499f7a5"


_CACHE: dict = {}


def stored(name: str) -> list[dict] | None:
    """The rows of experiment ``name``, one per seed, or None if none are stored.  Read once
    per file version (path, size, modification time): the check reads them several times."""
    p = rows_mod.path_of(name)
    if not p.exists():
        return None
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        rows = list(rows_mod.by_seed(rows_mod.read(p)).values())
        _CACHE.clear() if len(_CACHE) > 128 else None
        _CACHE[key] = sorted(rows, key=lambda r: r["seed"]) or None
    return _CACHE[key]


def _runs(rows: list[dict]) -> list[dict]:
    seen = {}
    for r in rows:
        run = r["run"]
        seen.setdefault(run["run"], run)
    return [seen[k] for k in sorted(seen)]


def _timing(rows: list[dict]) -> dict:
    loads = [r["load"] for r in rows if r.get("load", -1) >= 0]
    return {"cpu_s": round(sum(r["cpu_s"] for r in rows), 6),
            "wall_s": round(sum(r["wall_s"] for r in rows), 6),
            "load_min": min(loads) if loads else None,
            "load_median": statistics.median(loads) if loads else None,
            "load_max": max(loads) if loads else None}


def provenance(rows: list[dict], name: str) -> dict:
    runs = _runs(rows)
    commits = sorted({r["commit"] for r in runs})
    return {"source": f"benchmarks/results/rows/{name}{rows_mod.SUFFIX}",
            "command": "; ".join(sorted({r["command"] for r in runs})),
            "equivalent": runs[0].get("equivalent"),
            "commit": ", ".join(commits),
            "clean_tree": all(r["clean_tree"] for r in runs),
            "machine": {k: v for k, v in runs[0]["machine"].items()
                        if k in ("cpu", "cores", "python", "numba", "numpy")},
            # every CPU model the runs used: tables name it beside each time (rows measured
            # on two models compare their times only roughly)
            "cpus": sorted({r["machine"]["cpu"] for r in runs}),
            "date": min(r["started"] for r in runs)[:10],
            "run_count": len(runs), "pending": False}


def honest_row(label: str, name: str, rows: list[dict]) -> dict:
    p = rows[0]["run"]["params"]
    seeds = [r["seed"] for r in rows]
    return {"policy": label, "name": p["policy"], "config": p["config"],
            "policy_seed": p["policy_seed"], "players": p["players"],
            "deals": len(rows), "deals_planned": p["deals"], "seed_first": min(seeds),
            "seed_last": max(seeds), "contiguous": seeds == list(range(min(seeds),
                                                                       max(seeds) + 1)),
            "wins": sum(bool(r["won"]) for r in rows),
            "decisions": sum(r["decisions"] for r in rows),
            "mean_doors": sum(r["doors"] for r in rows) / len(rows),
            "clock": "cpu", **_timing(rows), **provenance(rows, name)}


def _regret(regret_files: list[str]) -> dict:
    out = {}
    for name in regret_files:
        d = json.loads((RESULTS / name).read_text())
        for label, pol in d["policies"].items():
            out[label] = {"positions": pol["all"]["n"], "mean": pol["all"]["mean"],
                          "ci95": pol["all"]["ci95_bootstrap"],
                          "source": f"benchmarks/results/{name}"}
    return out


def ladder_record(regret_files: list[str]) -> dict:
    legacy = json.loads((RESULTS / LEGACY_LADDER).read_text())
    old = {r["label"]: r for r in legacy["rows"]}
    regret = _regret(regret_files)
    out_rows = []
    for label, name, old_label, rlabel in LADDER:
        rows = stored(name)
        if rows:
            row = honest_row(label, name, rows)
        elif old_label is None:      # a new row with nothing stored yet: not in the ladder
            continue
        else:
            o = old[old_label]
            row = {"policy": label, "name": o["policy"],
                   "config": {"n": o["policy_config"]["n"]} if o["policy"] == "rollout" else {},
                   "policy_seed": None, "players": 1, "deals": o["deals"],
                   "deals_planned": o["deals"], "seed_first": o["seed_first"],
                   "seed_last": o["seed_first"] + o["deals"] - 1, "contiguous": True,
                   "wins": o["wins"], "decisions": o["decisions"], "mean_doors": o["mean_doors"],
                   "clock": "wall", "cpu_s": None, "wall_s": o["seconds"],
                   "load_min": None, "load_median": None, "load_max": None,
                   "source": f"benchmarks/results/{LEGACY_LADDER}", "command": o["command"],
                   "equivalent": None, "commit": LEGACY_LADDER_COMMIT, "clean_tree": None,
                   "machine": {k: legacy["machine"][k] for k in ("cpu", "cores", "python",
                                                                 "numba", "numpy")},
                   "date": legacy["machine"]["date"][:10], "run_count": 1, "pending": True,
                   "pending_note": PENDING_NOTE + "; its seconds are wall time of --jobs 2 on "
                                                  "a loaded machine, not CPU time"}
        row["regret"] = regret.get(rlabel) if rlabel else None
        out_rows.append(row)
    return _ladder_record("honest-ladder", "The honest ladder: win rate and compute per "
                          "decision of each policy", out_rows)


def duo_ladder_record() -> dict:
    legacy = json.loads((RESULTS / LEGACY_DUO).read_text())
    old = {r["label"]: r for r in legacy["rows"]}
    out_rows = []
    for label, name, old_label in DUO_LADDER:
        rows = stored(name)
        if rows:
            row = {**honest_row(label, name, rows), "mode": "honest"}
        elif old_label is None:      # a new row with nothing stored yet: not in the ladder
            continue
        else:
            o = old[old_label]
            row = {"policy": label, "name": o["policy"], "mode": "honest",
                   "config": o.get("policy_config") or {}, "policy_seed": None, "players": 2,
                   "deals": o["deals"], "deals_planned": o["deals"],
                   "seed_first": o["seed_first"], "seed_last": o["seed_first"] + o["deals"] - 1,
                   "contiguous": True, "wins": o["wins"], "decisions": o.get("decisions"),
                   "mean_doors": o.get("mean_doors"), "clock": "wall", "cpu_s": None,
                   "wall_s": o.get("seconds"), "load_min": None, "load_median": None,
                   "load_max": None, "source": f"benchmarks/results/{LEGACY_DUO}",
                   "command": o["command"], "equivalent": None, "commit": LEGACY_DUO_COMMIT,
                   "clean_tree": None,
                   "machine": {k: legacy["machine"][k] for k in ("cpu", "cores", "python",
                                                                 "numba", "numpy")},
                   "date": legacy["machine"]["date"][:10], "run_count": 1, "pending": True,
                   "pending_note": PENDING_NOTE + "; seconds are wall time of --jobs 2 on a "
                                                  "loaded machine, not CPU time"}
        out_rows.append(row)
    for label, name in DUO_OPEN:
        rows = stored(name)
        if rows:
            out_rows.append({**honest_row(label, name, rows), "mode": "open"})
    return _ladder_record("duo-honest-ladder",
                          "The two-player ladder: win rates of honest policies", out_rows)


def _ladder_record(name: str, title: str, out_rows: list) -> dict:
    """A ladder's record around its rows: the commits, machine and date of the rows that are
    current (not pending), and whether any row is still pending."""
    cur = [r for r in out_rows if not r["pending"]]
    return {
        "name": name,
        "title": title,
        "source": sorted({r["source"] for r in out_rows}),
        "extracted_by": "papers/rowdata.py",
        "command": "python -m benchmarks.experiments run NAME (one per row, resumable)",
        "commit": ", ".join(sorted({r["commit"] for r in cur})) or None,
        "clean_tree": all(r["clean_tree"] for r in cur) if cur else None,
        "machine": cur[0]["machine"] if cur else None,
        "date": min(r["date"] for r in cur) if cur else None,
        "status": "final" if not any(r["pending"] for r in out_rows) else "preliminary",
        "rows": out_rows,
    }


def experiment_named(policy: str, config: dict) -> str:
    """The solo honest experiment whose policy and arguments are these (the tests tie the
    default and ``strongest`` to theirs)."""
    from benchmarks.experiments import EXPERIMENTS
    names = [n for n, e in EXPERIMENTS.items() if e.kind == "honest"
             and e.params.get("policy") == policy and e.params.get("config") == config]
    if len(names) != 1:
        raise ValueError(f"no single experiment plays {policy} {config}: {names}")
    return names[0]


def solo_named() -> dict[str, str]:
    """The experiments of the default policy and of ``strongest``."""
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    from solver.policies.endgame import STRONGEST_ARGS
    return {"default": experiment_named(DEFAULT_HONEST_POLICY, dict(DEFAULT_HONEST_ARGS)),
            "strongest": experiment_named("endgame", dict(STRONGEST_ARGS))}


def best_player_row(name: str, rows: list[dict], params: dict, planned: int,
                    others: dict[str, str]) -> dict:
    """One best-player experiment (``benchmarks/bench_best_player.py``): its deals, wins,
    cost, the decisions proven by best's exact search and those played by each policy's
    leader; then its pairs with the rows of ``others`` (label -> experiment) on the same
    deals (deals won by one of the two only, the two-sided sign test:
    ``bench_frontier.pair``)."""
    from benchmarks.bench_frontier import pair
    seeds = [r["seed"] for r in rows]
    leaders: dict[str, int] = {}
    for r in rows:
        for k, v in r["leaders"].items():
            leaders[k] = leaders.get(k, 0) + v
    out = {"policy": ("the default policy alone on best's stream (the control)"
                      if params.get("control") else
                      f"`onirim best --budget-nodes {params['budget_nodes']}`"),
           "experiment": name, "control": bool(params.get("control")),
           "budget_nodes": params.get("budget_nodes"), "table_bits": params.get("table_bits"),
           "deals": len(rows), "deals_planned": planned, "seed_first": min(seeds),
           "seed_last": max(seeds),
           "contiguous": seeds == list(range(min(seeds), max(seeds) + 1)),
           "wins": sum(bool(r["won"]) for r in rows),
           "decisions": sum(r["decisions"] for r in rows),
           "proven": sum(r["proven"] for r in rows), "leaders": dict(sorted(leaders.items())),
           "no_leader": sum(r["no_leader"] for r in rows),
           "max_decision_cpu_s": max(r["max_decision_cpu_s"] for r in rows),
           **_timing(rows), **provenance(rows, name), "pairs": []}
    data = {name: rows_mod.by_seed(rows)}
    for who, other in others.items():
        theirs = stored(other)
        if not theirs:
            continue
        data[other] = rows_mod.by_seed(theirs)
        pr = pair(data, name, other)
        out["pairs"].append({
            "with": who, "experiment": other, "common_deals": pr["common_deals"],
            "wins": pr["rows"][name]["wins"], "their_wins": pr["rows"][other]["wins"],
            "won_by_it_only": pr["won_by_a_only"], "won_by_them_only": pr["won_by_b_only"],
            "p_two_sided": pr["p_two_sided"]})
    return out


def best_player_record() -> dict:
    """``onirim best``'s advice followed move by move: every experiment of kind
    ``best-player`` with rows stored, each paired with the default's and ``strongest``'s rows
    on the same deals."""
    from benchmarks.experiments import EXPERIMENTS
    out_rows = []
    controls = [n for n, e in EXPERIMENTS.items()
                if e.kind == "best-player" and e.params["control"] and stored(n)]
    for name, e in EXPERIMENTS.items():
        rows = stored(name) if e.kind == "best-player" else None
        if rows:
            others = {**solo_named(), **({} if e.params["control"] else
                                         {"control": c for c in controls[:1]})}
            out_rows.append(best_player_row(name, rows, e.params, e.deals, others))
    if not out_rows:
        raise FileNotFoundError("no best-player rows stored (python -m benchmarks.experiments "
                                "run best-nodes-20)")
    return _ladder_record("best-player", "onirim best's advice followed move by move, paired "
                          "with the default policy's and strongest's rows", out_rows)


def _pct(xs, q):
    s = sorted(xs)
    k = max(1, -(-q * len(s) // 100))
    return s[int(k) - 1]


def _solved(rows: list[dict]) -> dict:
    """The deal counts of a clairvoyant experiment's rows: planned and stored deals, the
    seed range and whether it has no gap, wins, losses and deals left undecided."""
    seeds = [r["seed"] for r in rows]
    res = [r["result"] for r in rows]
    return {"deals": len(rows), "deals_planned": rows[0]["run"]["params"]["deals"],
            "seed_first": min(seeds), "seed_last": max(seeds),
            "contiguous": seeds == list(range(min(seeds), max(seeds) + 1)),
            "wins": res.count("WIN"), "losses": res.count("LOSS"),
            "unknown": res.count("UNKNOWN")}


def clairvoyant_record() -> dict:
    rows = stored("clairvoyant")
    if not rows:
        raise FileNotFoundError("benchmarks/results/rows/clairvoyant.jsonl.gz: no rows stored "
                                "(python -m benchmarks.experiments run clairvoyant)")
    cpu = [r["cpu_s"] for r in rows]
    slow = max(rows, key=lambda r: r["cpu_s"])
    most = max(rows, key=lambda r: r["nodes"])
    return {
        "name": "clairvoyant-winrate",
        "title": "Clairvoyant win rate, every WIN line replayed in engine/ by the solver",
        "extracted_by": "papers/rowdata.py", **provenance(rows, "clairvoyant"),
        "status": "final",
        "numbers": {
            **_solved(rows),
            "budget_nodes": rows[0]["run"]["params"]["budget_nodes"],
            "nodes": sum(r["nodes"] for r in rows), **_timing(rows),
            "deal_cpu_median": statistics.median(cpu), "deal_cpu_p99": _pct(cpu, 99),
            "deal_cpu_max": slow["cpu_s"], "deal_cpu_max_seed": slow["seed"],
            "deal_wall_median": statistics.median(r["wall_s"] for r in rows),
            "most_nodes": most["nodes"], "most_nodes_seed": most["seed"],
            "deal_cpu_hist": _log_hist(cpu),
        },
    }


def duo_clairvoyant_record() -> dict:
    """The two-player clairvoyant team over its per-deal rows (a first pass at the node
    budget, a deal left undecided solved again at the retry budget in the same row)."""
    rows = stored("duo-clairvoyant")
    if not rows:
        raise FileNotFoundError("benchmarks/results/rows/duo-clairvoyant.jsonl.gz: no rows "
                                "stored (python -m benchmarks.experiments run duo-clairvoyant)")
    params = rows[0]["run"]["params"]
    cpu = [r["cpu_s"] for r in rows]
    return {
        "name": "duo-clairvoyant",
        "title": "Two-player clairvoyant win rate, every WIN line replayed in engine/",
        "extracted_by": "papers/rowdata.py", **provenance(rows, "duo-clairvoyant"),
        "status": "final",
        "numbers": {
            **_solved(rows), "seed": rows[0]["seed"],
            "retried": sum(1 for r in rows if r["retried"]),
            "node_budget": params["budget_nodes"], "retry_budget": params["retry_budget"],
            "deal_nodes": sum(r["nodes"] for r in rows), **_timing(rows),
            "deal_cpu_seconds": {"median": statistics.median(cpu), "p99": _pct(cpu, 99),
                                 "max": max(cpu)},
        },
    }


def _log_hist(xs, bins=40):
    """A histogram of positive values on log-spaced bins: (edges, counts), for the figure."""
    import math
    lo, hi = math.log10(min(xs)), math.log10(max(xs))
    if hi <= lo:
        hi = lo + 1e-9
    edges = [10 ** (lo + (hi - lo) * i / bins) for i in range(bins + 1)]
    counts = [0] * bins
    for x in xs:
        k = min(bins - 1, int((math.log10(x) - lo) / (hi - lo) * bins))
        counts[k] += 1
    return {"edges": [round(e, 9) for e in edges], "counts": counts}


def diff_kernel_record() -> dict:
    rows = stored("diff-kernel")
    if not rows:
        raise FileNotFoundError("benchmarks/results/rows/diff-kernel.jsonl.gz: no rows stored "
                                "(python -m benchmarks.experiments run diff-kernel)")
    return {
        "name": "diff-kernel",
        "title": "The solo kernel against the engine, state by state, on random legal actions",
        "extracted_by": "papers/rowdata.py", **provenance(rows, "diff-kernel"),
        "status": "final",
        "numbers": {"chunks": len(rows), "steps": sum(r["steps"] for r in rows),
                    "games": sum(r["games"] for r in rows),
                    "agree": all(r["agree"] for r in rows), **_timing(rows)},
    }


# the information-relaxation bound (issue 31, docs/BOUND.md): experiment name -> key
BOUND = (("bound-switch12", "switch12"), ("bound-switch12-stop8", "switch12_stop8"))
_Z95, _Z95_ONE_SIDED = 1.959963984540054, 1.6448536269514722


def _mean_ci(xs: list[float]) -> tuple[float, list[float], float]:
    """Mean, normal 95% interval and one-sided 95% upper limit of per-deal values."""
    import math
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    return m, [m - _Z95 * se, m + _Z95 * se], m + _Z95_ONE_SIDED * se


def bound_row(name: str, rows: list[dict]) -> dict:
    """One bound configuration from its per-deal rows: the bound (mean of the inner values),
    its interval and one-sided upper limit, the policy's own wins on the same deals and the
    paired gap.  With W = 0 an unfinished inner search is counted at 1 (its upper end), so
    the bound stays sound; the count is reported."""
    from solver.stats import wilson
    p = rows[0]["run"]["params"]
    vals = [1.0 if not r["finished"] else float(r["value"]) for r in rows]
    won = [1.0 if r["policy_won"] else 0.0 for r in rows]
    mean, ci, upper = _mean_ci(vals)
    gap, gap_ci, _ = _mean_ci([v - w for v, w in zip(vals, won)])
    seeds = [r["seed"] for r in rows]
    return {"name": name, "w": p["w"], "stop": p["stop"], "switch": p["switch"],
            "policy": p["policy"], "config": p["config"], "policy_seed": p["policy_seed"],
            "deals": len(rows), "deals_planned": p["deals"], "seed_first": min(seeds),
            "seed_last": max(seeds),
            "contiguous": seeds == list(range(min(seeds), max(seeds) + 1)),
            "bound": mean, "ci95": ci, "upper95": upper,
            "unfinished": sum(1 for r in rows if not r["finished"]),
            "inexact": sum(r["inexact"] for r in rows),
            "policy_wins": int(sum(won)), "policy_rate": sum(won) / len(rows),
            "policy_wilson95": list(wilson(int(sum(won)), len(rows))),
            "gap": gap, "gap_ci95": gap_ci, "clock": "cpu", **_timing(rows),
            **provenance(rows, name)}


def bound_record() -> dict:
    out = {}
    for name, key in BOUND:
        rows = stored(name)
        if not rows:
            raise FileNotFoundError(f"benchmarks/results/rows/{name}{rows_mod.SUFFIX}: no rows stored "
                                    f"(python -m benchmarks.experiments run {name})")
        out[key] = bound_row(name, rows)
    first = out[BOUND[0][1]]
    return {
        "name": "bound",
        "title": "Information-relaxation upper bounds after rollout's opening (W = 0)",
        "source": [r["source"] for r in out.values()],
        "extracted_by": "papers/rowdata.py",
        "command": "python -m benchmarks.experiments run NAME (one per row, resumable)",
        "commit": ", ".join(sorted({r["commit"] for r in out.values()})),
        "clean_tree": all(r["clean_tree"] for r in out.values()),
        "machine": first["machine"], "date": min(r["date"] for r in out.values()),
        "status": "final",
        "numbers": out,
    }


# The rule verification (issue 28): one row per check of benchmarks/rule_verification.py.
RULE_VERIFICATION = "rule-verification"


def rule_verification_record() -> dict:
    """The counts of the rule verification, from the rows of each check run for real: every
    check of the test suite (its verdict, its counts, its CPU and wall time) and the parts of
    the long differential run stored so far.  A check whose row is missing raises: its counts
    exist nowhere else."""
    from benchmarks.rule_verification import CHECKS, LONG_DIFF_PARTS, LONG_DIFF_STEPS
    rows = stored(RULE_VERIFICATION)
    if not rows:
        raise FileNotFoundError(f"benchmarks/results/rows/{RULE_VERIFICATION}{rows_mod.SUFFIX}: no "
                                f"rows stored (python -m benchmarks.experiments run "
                                f"{RULE_VERIFICATION})")
    by = {r["check"]: r for r in rows}
    for r in rows:
        if CHECKS[r["seed"]].name != r["check"]:
            raise ValueError(f"{RULE_VERIFICATION}: row {r['seed']} is check {r['check']!r}, "
                             f"the registry says {CHECKS[r['seed']].name!r}")
    tests = [c.name for c in CHECKS if c.run is None]
    missing = [n for n in tests if n not in by]
    if missing:
        raise FileNotFoundError(f"{RULE_VERIFICATION}: no row for the checks {missing} "
                                f"(python -m benchmarks.experiments run {RULE_VERIFICATION})")
    checks = {}
    for r in rows:
        checks[r["check"]] = {"passed": r["passed"], "counts": r["counts"],
                              "tests_passed": r.get("tests_passed"),
                              "tests_failed": r.get("tests_failed", []),
                              "command": r["command"], "cpu_s": r["cpu_s"],
                              "wall_s": r["wall_s"], "load": r["load"]}
    c = lambda name, k: by[name]["counts"][k]  # noqa: E731
    parts = sorted((r for r in rows if r["check"].startswith("diff-long-")),
                   key=lambda r: r["seed"])
    return {
        "name": RULE_VERIFICATION,
        "title": "Counts of the rule verification: invariants, differential tests, "
                 "soundness, brute force, fuzzing, golden games; each check run",
        "extracted_by": "papers/rowdata.py", **provenance(rows, RULE_VERIFICATION),
        "status": "final",
        "numbers": {
            "checks_stored": len(rows), "checks_planned": len(CHECKS),
            "all_passed": all(r["passed"] for r in rows),
            "failed": sorted(r["check"] for r in rows if not r["passed"]),
            "invariant_playouts": c("invariants", "playouts"),
            "invariant_steps": c("invariants", "steps"),
            "independent_model_games": c("invariants", "reference_games"),
            "independent_model_steps": c("invariants", "reference_steps"),
            "golden_games": c("golden", "games"),
            "golden_actions": c("golden", "actions"),
            "diff_steps_make_test": c("diff-make-test", "steps"),
            "diff_games_make_test": c("diff-make-test", "games"),
            "soundness_positions": c("soundness", "positions"),
            "soundness_rule_sets": c("soundness", "rule_sets"),
            "brute_force_positions": c("brute-force", "positions"),
            "brute_force_agree": c("brute-force", "agree"),
            "brute_force_tolerance": c("brute-force", "tolerance"),
            "brute_force_max_error": c("brute-force", "max_abs_error"),
            "fuzz_mutants": c("fuzz", "mutants"),
            "fuzz_accepted": c("fuzz", "accepted"),
            "fuzz_refused": c("fuzz", "refused"),
            "fuzz_cpu_s": by["fuzz"]["cpu_s"], "fuzz_wall_s": by["fuzz"]["wall_s"],
            "diff_long_parts": LONG_DIFF_PARTS, "diff_long_target": LONG_DIFF_STEPS,
            "diff_long_parts_stored": len(parts),
            "diff_long_steps": sum(r["counts"]["steps"] or 0 for r in parts),
            "diff_long_games": sum(r["counts"]["games"] or 0 for r in parts),
            "diff_long_cpu_s": round(sum(r["cpu_s"] for r in parts), 6),
            **_timing(rows),
            "checks": checks,
        },
    }
