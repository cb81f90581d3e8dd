"""Fit the playouts' value function (solver/honest/value.py) and write its weights.

    python -m benchmarks.learn_value [--games 200000] [--key 0x5EED0F] [--every 3] [--write]

Plays ``--games`` whole games of the ``learned-base`` policy from the setup in the kernel
(game g on stream word(key, g): keys of their own, apart from every evaluation deal), takes
the state at every ``--every``-th decision, and pairs its features
(``solver.honest.value.FEATURES``) with the game's result.  A logistic regression (Newton's
method, numpy, a small ridge) then fits P(win | features): the learned base's chance of
winning from the state.  States where a colour can no longer gain its Doors are left out (the
value is 0 there by rule).  A quarter of the games are held out: the script prints the
log-loss and the calibration (predicted against observed, by tenths) on them, beside the
log-loss of a constant.  ``--write`` writes the weights to solver/honest/value_weights.py;
``--json`` prints the summary as JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
from numba import njit

from solver.honest.greedy import BASES, base_action
from solver.honest.playouts import MAX_DECISIONS, to_decision
from solver.honest.state import NS, apply_action, new_game, word
from solver.honest.value import FEATURES, NFV, features

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_FILE = os.path.join(HERE, "..", "solver", "honest", "value_weights.py")


@njit
def sample_rows(n, key0, every, base, X, y, game_of, S, f, yscale, max_steps, start, to_dec,
                feats, base_act, apply):
    """Rows of (features, result * ``yscale``) from ``n`` whole base games of one kernel,
    whose functions are passed in (``start`` a new game, ``to_dec`` its ``to_decision``,
    ``feats`` its value function's features, ``base_act`` and ``apply`` its base policy and
    turn): the solo kernel here, the two-player one in ``benchmarks/learn_duo_value.py``.
    Game g uses stream word(key0, g); every ``every``-th decision is taken.  Returns how many
    rows were written (at most X.shape[0])."""
    cap = X.shape[0]
    m = 0
    for g in range(n):
        start(S)
        key = word(key0, g)
        ctr = 0
        steps = 0
        first = m
        res = 0
        while steps <= max_steps:
            r, ctr = to_dec(S, key, ctr)
            if r >= 0:
                res = r
                break
            if (steps + g) % every == 0 and m < cap and feats(S, f):
                for i in range(f.shape[0]):
                    X[m, i] = f[i]
                game_of[m] = g
                m += 1
            apply(S, base_act(S, base))
            steps += 1
        for i in range(first, m):
            y[i] = res * yscale
    return m


def sample(games: int, key: int, every: int, base: str = "learned-base"):
    cap = games * 60 // every + 1000
    X = np.zeros((cap, NFV))
    y = np.zeros(cap)
    game_of = np.zeros(cap, dtype=np.int64)
    m = sample_rows(np.int64(games), np.uint64(key), np.int64(every), np.int64(BASES[base]),
                    X, y, game_of, np.empty(NS, dtype=np.int64), np.empty(NFV), 1.0,
                    np.int64(MAX_DECISIONS), new_game, to_decision, features, base_action,
                    apply_action)
    return X[:m], y[:m], game_of[:m]


def fit(X, y, ridge=1e-3, iters=30):
    """Logistic regression by Newton's method; returns the weights."""
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        g = X.T @ (p - y) + ridge * len(y) * w
        Hm = (X * (p * (1 - p))[:, None]).T @ X + ridge * len(y) * np.eye(X.shape[1])
        step = np.linalg.solve(Hm, g)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def logloss(p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def summary(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    base = float(np.mean(y))
    calib = []
    for k in range(10):
        sel = (p >= k / 10) & (p < (k + 1) / 10 + (k == 9))
        if sel.any():
            calib.append({"predicted": [k / 10, (k + 1) / 10], "states": int(sel.sum()),
                          "mean_predicted": round(float(p[sel].mean()), 4),
                          "observed": round(float(y[sel].mean()), 4)})
    return {"states": int(len(y)), "logloss": round(logloss(p, y), 5),
            "logloss_constant": round(logloss(np.full_like(y, base), y), 5),
            "win_share": round(base, 4), "calibration": calib}


def write_weights(w, command, path=WEIGHTS_FILE):
    """Replace the ``VWEIGHTS`` line of the weights module at ``path`` (its head is kept)."""
    text = open(path, encoding="utf-8").read()
    head = text[:text.index("VWEIGHTS = ")]
    vals = ", ".join(f"{x:.6g}" for x in w)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head + f"VWEIGHTS = ({vals})\n# {command}\n")


def fit_arguments(ap, games: int, key: int, out: str, reads: str) -> None:
    """The flags of a value function's fit (this script and ``learn_duo_value``): --games,
    --key, --every, --ridge, --write, --out (default ``out``, the weights module that
    ``reads`` reads) and --json."""
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--key", type=lambda s: int(s, 0), default=key)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--ridge", type=float, default=1e-4)
    ap.add_argument("--write", action="store_true",
                    help="write the weights (fit on every state) into --out; without it "
                         "nothing is written")
    ap.add_argument("--out", default=out, metavar="PATH",
                    help=f"the weights module --write rewrites (default: the package's "
                         f"{os.path.relpath(out, os.path.join(HERE, '..'))}, which {reads} "
                         f"reads)")
    ap.add_argument("--json", action="store_true")


def bad_fit_arguments(a, prog: str) -> bool:
    """True (after one line on stderr) if the fit's numbers are out of range."""
    if a.games < 100 or a.every < 1 or a.ridge < 0:
        print(f"{prog}: --games >= 100, --every >= 1 and --ridge >= 0", file=sys.stderr)
        return True
    return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learn_value",
                                 description=__doc__.split("\n\n")[0])
    fit_arguments(ap, 200_000, 0x5EED0F, WEIGHTS_FILE, "seq-rollout's horizon")
    a = ap.parse_args(argv)
    if bad_fit_arguments(a, "learn_value"):
        return 2
    X, y, game_of = sample(a.games, a.key, a.every)
    test = game_of % 4 == 3
    w = fit(X[~test], y[~test], a.ridge)
    out = {"command": "python -m benchmarks.learn_value " + " ".join(argv or sys.argv[1:]),
           "games": a.games, "key": hex(a.key), "every": a.every, "ridge": a.ridge,
           "weights": dict(zip(FEATURES, [round(float(x), 6) for x in w])),
           "train": summary(w, X[~test], y[~test]), "held_out": summary(w, X[test], y[test])}
    if a.write:
        w_all = fit(X, y, a.ridge)
        write_weights(w_all, out["command"], a.out)
        out["written"] = dict(zip(FEATURES, [round(float(x), 6) for x in w_all]))
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{out['held_out']['states']} held-out states: log-loss "
              f"{out['held_out']['logloss']} (a constant: {out['held_out']['logloss_constant']})")
        print_calibration(out)
    return 0


def print_calibration(out: dict) -> None:
    """The held-out calibration by tenths and the weights, as text (both fits' summaries)."""
    for c in out["held_out"]["calibration"]:
        print(f"  predicted {c['predicted']}: {c['states']} states, mean "
              f"{c['mean_predicted']}, observed {c['observed']}")
    print("weights:", out["weights"])


if __name__ == "__main__":
    sys.exit(main())
