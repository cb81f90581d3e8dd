"""Honest policies side by side: the same deals played by several configurations in one
process, alternating deal by deal (A B A B), so their CPU per decision is compared under the
same load; each deal's row (seed, won, decisions, CPU and wall seconds) is appended to
``OUT/LABEL.jsonl`` as it finishes, and a run resumes where it stopped.

    python -m benchmarks.side_by_side run OUT FIRST LAST LABEL=POLICY[:k=v,k=v] ... [--players 2]
                                          [--talk open]
    python -m benchmarks.side_by_side summary OUT LABEL ... [--vs EXPERIMENT]

``run`` plays deals FIRST .. LAST-1 with policy seed 1 (the experiments' games:
``benchmarks/experiments.py``); ``summary`` prints each label's wins and CPU per decision on
the deals every label has, paired deal by deal against the first label and, with ``--vs``,
against an experiment's stored rows (``benchmarks.rows``), and each label's CPU per decision
over the first label's (the side-by-side ratio).  CPU: ``time.process_time`` of the process
over the deal, as the experiments' ``cpu_s``.
"""
from __future__ import annotations

import argparse
import json
import os
import time

POLICY_SEED = 1


def parse_config(spec: str) -> tuple[str, str, dict]:
    """``LABEL=POLICY[:k=v,k=v]`` -> (label, policy, config); values are numbers where they
    read as numbers.  A value that names a policy with its own arguments (``k=NAME:k=v,...``,
    as duo-open-switch's ``base``) takes the rest of the text: it comes last."""
    label, _, pol = spec.partition("=")
    name, _, args = pol.partition(":")
    if not label or not name:
        raise SystemExit(f"side_by_side: {spec!r} is not LABEL=POLICY[:k=v,...]")
    config = {}
    parts = list(filter(None, args.split(",")))
    for i, kv in enumerate(parts):
        k, _, v = kv.partition("=")
        if ":" in v:
            config[k] = ",".join([v] + parts[i + 1:])
            break
        for kind in (int, float):
            try:
                v = kind(v)
                break
            except ValueError:
                continue
        config[k] = v
    return label, name, config


def read_rows(out: str, label: str) -> dict:
    """The rows of ``label`` in ``out``, by seed."""
    path = os.path.join(out, f"{label}.jsonl")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["seed"]: r for r in map(json.loads, f)}


def run(out: str, first: int, last: int, specs: list[str], players: int = 2,
        talk: str = "none") -> None:
    from solver.runs import runner
    os.makedirs(out, exist_ok=True)
    workers = []
    for spec in specs:
        label, name, config = parse_config(spec)
        job = runner.honest_job(name, config, players, POLICY_SEED, talk)
        workers.append((label, runner.get_worker(job), set(read_rows(out, label))))
    for seed in range(first, last):
        for label, worker, have in workers:
            if seed in have:
                continue
            c0, t0 = time.process_time(), time.perf_counter()
            r = worker.play(seed)
            row = {"seed": seed, "won": r["won"], "decisions": r["decisions"],
                   "cpu_s": round(time.process_time() - c0, 6),
                   "wall_s": round(time.perf_counter() - t0, 6)}
            with open(os.path.join(out, f"{label}.jsonl"), "a") as f:
                f.write(json.dumps(row) + "\n")


def ms_per_decision(rows: dict, seeds) -> float:
    return 1000 * sum(rows[s]["cpu_s"] for s in seeds) / sum(rows[s]["decisions"]
                                                               for s in seeds)


def paired(a: dict, b: dict, seeds) -> tuple[int, int]:
    """(deals won by ``a`` only, deals won by ``b`` only)."""
    return (sum(1 for s in seeds if a[s]["won"] and not b[s]["won"]),
            sum(1 for s in seeds if b[s]["won"] and not a[s]["won"]))


def summary(out: str, labels: list[str], vs: str | None = None) -> list[str]:
    rows = {label: read_rows(out, label) for label in labels}
    seeds = sorted(set.intersection(*(set(r) for r in rows.values())))
    ref = None
    if vs:
        from benchmarks.rows import read
        ref = {r["seed"]: r for r in read(vs)}
        seeds = [s for s in seeds if s in ref]
    if not seeds:
        return ["no deal played by every label"]
    lines = [f"{len(seeds)} deals, {seeds[0]} .. {seeds[-1]}"]
    first = rows[labels[0]]
    for label in labels:
        a = rows[label]
        line = (f"{label}: {sum(a[s]['won'] for s in seeds)} won, "
                f"{ms_per_decision(a, seeds):.2f} ms CPU per decision")
        if label != labels[0]:
            g, lost = paired(a, first, seeds)
            ratio = ms_per_decision(a, seeds) / ms_per_decision(first, seeds)
            line += f"; against {labels[0]} +{g} / -{lost}, CPU ratio {ratio:.3f}"
        if ref is not None:
            g, lost = paired(a, ref, seeds)
            line += f"; against {vs}'s rows ({sum(ref[s]['won'] for s in seeds)} won) " \
                    f"+{g} / -{lost}"
        lines.append(line)
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.side_by_side",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play the deals, alternating the configurations")
    r.add_argument("out")
    r.add_argument("first", type=int)
    r.add_argument("last", type=int)
    r.add_argument("configs", nargs="+", metavar="LABEL=POLICY[:k=v,...]")
    r.add_argument("--players", type=int, default=2, choices=(1, 2))
    r.add_argument("--talk", default="none", choices=("none", "open"),
                   help="the two-player game's mode (docs/DUO.md): none, the silent game, or "
                        "open")
    s = sub.add_parser("summary", help="wins, CPU per decision, paired counts")
    s.add_argument("out")
    s.add_argument("labels", nargs="+")
    s.add_argument("--vs", default=None, help="an experiment whose stored rows to pair with")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        run(a.out, a.first, a.last, a.configs, a.players, a.talk)
    else:
        print("\n".join(summary(a.out, a.labels, a.vs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
