"""``onirim verify``: re-check the results stored by ``onirim winrate``.

Every stored WIN certificate (its action line) is replayed in the reference engine from the
deal's seed and must end in a win; a seed that one run stored as WIN and another as LOSS is a
contradiction.  Exit status 1 if any check fails, 0 otherwise.
"""
from __future__ import annotations

import json
import os

from onirim.cli import UsageError


def add_arguments(p) -> None:
    p.add_argument("--db", default="onirim-results.sqlite",
                   help="SQLite results file (default ./onirim-results.sqlite)")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args) -> int:
    from engine import Game
    from solver.clairvoyant import replay_line
    from solver.db import DBError, ResultsDB

    if not os.path.isfile(args.db):
        raise UsageError(f"no results database at {args.db!r}")
    try:
        db = ResultsDB(args.db, readonly=True)
        rows = list(db.rows())
        db.close()
    except DBError as e:
        raise UsageError(str(e)) from None
    except Exception as e:
        raise UsageError(f"cannot read database {args.db!r}: {e}") from None

    counts = {"rows": len(rows), "wins": 0, "wins_verified": 0, "losses": 0, "unknown": 0,
              "failed": 0, "contradictions": 0}
    failures = []
    by_seed: dict = {}
    for r in rows:
        res = r["result"]
        by_seed.setdefault((r["mode"], r["seed"]), set()).add(res)
        if res == "WIN":
            counts["wins"] += 1
            try:
                line = json.loads(r["certificate"])
                ok, msg = replay_line(Game(1).new_initial_state(r["seed"]), line)
            except Exception as e:  # malformed certificate
                ok, msg = False, f"unreadable certificate ({e})"
            if ok:
                counts["wins_verified"] += 1
            else:
                counts["failed"] += 1
                failures.append(f"seed {r['seed']}: {msg}")
        elif res == "LOSS":
            counts["losses"] += 1
        else:
            counts["unknown"] += 1
    for (mode, seed), results in sorted(by_seed.items()):
        if "WIN" in results and "LOSS" in results:
            counts["contradictions"] += 1
            failures.append(f"seed {seed}: stored as WIN and as LOSS ({mode})")
    ok = not failures
    if args.json:
        print(json.dumps({**counts, "ok": ok, "failures": failures}))
    else:
        print(f"{args.db}: {counts['rows']} rows; WIN {counts['wins']} "
              f"({counts['wins_verified']} certificates replay to a win), "
              f"LOSS {counts['losses']}, UNKNOWN {counts['unknown']}")
        for f in failures:
            print(f"  FAILED {f}")
        print("all certificates verified" if ok else f"{len(failures)} check(s) failed")
    return 0 if ok else 1
