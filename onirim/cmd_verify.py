"""``onirim verify``: re-check the results stored by ``onirim winrate``.

* Every stored clairvoyant WIN certificate (its action line) is replayed in the reference
  engine from the deal's seed and must end in a win.
* Every stored LOSS must carry its re-solve recipe (node budget, table size); the deal is
  solved again with it and must come out LOSS.  A LOSS without a usable recipe, or whose
  re-solve cannot decide, is *unverified*; one whose re-solve wins has *failed*.
* A deal stored as WIN and as LOSS is a contradiction.
* Every stored honest game is replayed in the engine from its seed: its actions must be legal
  and end the game with the stored result, Doors and number of decisions.

Exit status 1 if any check fails or any LOSS is unverified, 0 otherwise.
"""
from __future__ import annotations

import json
import os

from onirim.cli import UsageError


def add_arguments(p) -> None:
    p.add_argument("--db", default="onirim-results.sqlite",
                   help="SQLite results file (default ./onirim-results.sqlite)")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def replay_honest(seed: int, actions, players: int = 1) -> tuple[bool, int, int] | str:
    """Replay an honest game's action strings from deal ``seed``: (won, doors, decisions),
    or a message saying why it cannot be replayed."""
    from engine import Game
    from engine.errors import OnirimError
    s = Game(players).new_initial_state(seed)
    for i, text in enumerate(actions):
        try:
            s.apply_action(s.string_to_action(text))
        except OnirimError as e:
            return f"step {i + 1} ({text!r}): {e}"
    if not s.is_terminal():
        return f"the game is not over after {len(actions)} actions"
    return s.won(), len(s.all_doors()), len(actions)


def run(args) -> int:
    """Ctrl-C or SIGTERM stops the check with one line and status 130 (it writes nothing)."""
    from onirim.results_file import sigterm_as_interrupt
    with sigterm_as_interrupt():
        return _verify(args)


def _verify(args) -> int:
    from engine import Game
    from solver.clairvoyant.solve import check_loss, replay_line
    from solver.runs.db import DBError, ResultsDB

    if not str(args.db).strip():
        raise UsageError("--db: needs a file name (an empty path is not a database)")
    if not os.path.isfile(args.db):
        raise UsageError(f"--db: no results database at {args.db!r}")
    try:
        db = ResultsDB(args.db, readonly=True)
        rows = list(db.rows())
        honest = list(db.honest_rows())
        db.close()
    except DBError as e:
        raise UsageError(f"--db: {e}") from None
    except Exception as e:
        raise UsageError(f"--db: cannot read database {args.db!r}: {e}") from None

    counts = {"rows": len(rows), "deals": len({(r["mode"], r["players"], r["seed"])
                                               for r in rows}),
              "wins": 0, "wins_verified": 0, "losses": 0, "losses_verified": 0,
              "losses_unverified": 0, "unknown": 0, "failed": 0, "contradictions": 0,
              "honest_games": len(honest), "honest_verified": 0}
    failures = []
    unverified = []
    by_seed: dict = {}
    for r in rows:
        res = r["result"]
        by_seed.setdefault((r["mode"], r["players"], r["seed"]), set()).add(res)
        try:
            cert = json.loads(r["certificate"])
        except ValueError as e:
            cert = e
        if res == "WIN":
            counts["wins"] += 1
            if isinstance(cert, list):
                try:
                    ok, msg = replay_line(Game(r["players"]).new_initial_state(r["seed"]),
                                          cert)
                except Exception as e:  # malformed certificate
                    ok, msg = False, f"unreadable certificate ({e})"
            else:
                ok, msg = False, "unreadable certificate (not a list of actions)"
            if ok:
                counts["wins_verified"] += 1
            else:
                counts["failed"] += 1
                failures.append(f"seed {r['seed']}: WIN certificate: {msg}")
        elif res == "LOSS":
            counts["losses"] += 1
            if r["players"] == 2:     # no two-player re-solve check is written yet
                status, msg = "unverified", "two-player LOSS: no re-solve check yet"
            else:
                status, msg = check_loss(Game(1).new_initial_state(r["seed"]), cert)
            if status == "verified":
                counts["losses_verified"] += 1
            elif status == "failed":
                counts["failed"] += 1
                failures.append(f"seed {r['seed']}: stored LOSS, but {msg}")
            else:
                counts["losses_unverified"] += 1
                unverified.append(f"seed {r['seed']}: LOSS unverified: {msg}")
        else:
            counts["unknown"] += 1
    for (mode, _players, seed), results in sorted(by_seed.items()):
        if "WIN" in results and "LOSS" in results:
            counts["contradictions"] += 1
            failures.append(f"seed {seed}: stored as WIN and as LOSS ({mode})")
    for g in honest:
        try:
            actions = json.loads(g["actions"])
            got = replay_honest(g["seed"], actions, g["players"]) if isinstance(actions, list) \
                else "unreadable actions"
        except Exception as e:
            got = f"unreadable actions ({e})"
        want = (g["won"], g["doors"], g["decisions"])
        if got == want:
            counts["honest_verified"] += 1
        else:
            counts["failed"] += 1
            why = got if isinstance(got, str) else (
                f"replays to won={got[0]} doors={got[1]} decisions={got[2]}, stored "
                f"won={want[0]} doors={want[1]} decisions={want[2]}")
            failures.append(f"honest seed {g['seed']} (policy {g['policy_hash']}): {why}")
    ok = not failures and not unverified
    if args.json:
        print(json.dumps({**counts, "ok": ok, "failures": failures, "unverified": unverified}))
    else:
        print(f"{args.db}: {counts['rows']} clairvoyant rows ({counts['deals']} deals); "
              f"WIN {counts['wins']} ({counts['wins_verified']} certificates replay to a win), "
              f"LOSS {counts['losses']} ({counts['losses_verified']} re-solved to a loss, "
              f"{counts['losses_unverified']} unverified), UNKNOWN {counts['unknown']}")
        if honest:
            print(f"  honest games {counts['honest_games']} ({counts['honest_verified']} "
                  "replay to their stored result)")
        for f in failures:
            print(f"  FAILED {f}")
        for u in unverified:
            print(f"  UNVERIFIED {u}")
        if ok:
            print("all results verified")
        else:
            print(f"{len(failures)} check(s) failed, {len(unverified)} result(s) unverified")
    return 0 if ok else 1
