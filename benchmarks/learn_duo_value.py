"""Fit the two-player playouts' value function (solver/duo/value.py) and write its weights.

    python -m benchmarks.learn_duo_value [--base team] [--games 100000] [--key 0xD0E5EED]
                                         [--every 3] [--write]

Plays ``--games`` whole two-player games from the setup in the kernel, both seats by the
base policy ``--base`` (the playouts' base: ``team`` for the open game, ``plus2`` for the
silent one; game g on stream word(key, g): keys of their own, apart from every evaluation
deal), takes the state at every ``--every``-th decision (both hands known: the state of a
playout, whose partner hand is already dealt), and pairs its features
(``solver.duo.value.FEATURES``) with the Doors in play at the game's end over 8.  A logistic
regression on that share (Newton's method, numpy, a small ridge:
:func:`benchmarks.learn_value.fit`, which takes a fractional target as it is) fits the
expected share of Doors the base ends with from the state.  States where a colour can no
longer gain its Doors are left out (the value is 0 there by rule).  A quarter of the games
are held out: the script prints the log-loss (of the share) and the calibration (predicted
against observed share, by tenths) on them beside a constant's, and the mean absolute error
in Doors.  ``--write`` writes the base's weights (fit on every state) into
solver/duo/value_weights.py; ``--json`` prints the summary as JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from benchmarks.learn_value import (bad_fit_arguments, fit, fit_arguments, print_calibration,
                                    sample_rows, summary)
from solver.duo.info_greedy import BASES, base_action
from solver.duo.info_playouts import MAX_DECISIONS, to_decision
from solver.duo.info_state import NS, apply_action, new_game
from solver.duo.value import FEATURES, NFV, features

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_FILE = os.path.join(HERE, "..", "solver", "duo", "value_weights.py")


def sample(games: int, key: int, every: int, base: str):
    cap = games * 120 // every + 1000
    X = np.zeros((cap, NFV))
    y = np.zeros(cap)
    game_of = np.zeros(cap, dtype=np.int64)
    m = sample_rows(np.int64(games), np.uint64(key), np.int64(every), np.int64(BASES[base]),
                    X, y, game_of, np.empty(NS, dtype=np.int64), np.empty(NFV), 1.0 / 8.0,
                    np.int64(MAX_DECISIONS), new_game, to_decision, features, base_action,
                    apply_action)
    return X[:m], y[:m], game_of[:m]


def doors_error(w, X, y) -> float:
    """Mean absolute error of the predicted Doors at the end (8 p against 8 y)."""
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return round(float(np.mean(np.abs(8 * p - 8 * y))), 4)


def write_weights(base: str, w, command: str, path: str = WEIGHTS_FILE) -> None:
    """Set the base's line ``DUO_VWEIGHTS["base"] = (...)`` (and the command under it) in the
    weights module at ``path``, keeping the other bases' lines."""
    lines = open(path, encoding="utf-8").read().splitlines()
    tag = f'DUO_VWEIGHTS["{base}"] = '
    out = []
    skip = False
    for line in lines:
        if skip:
            skip = False
            if line.startswith("# python -m"):
                continue
        if line.startswith(tag):
            skip = True
            continue
        out.append(line)
    vals = ", ".join(f"{x:.6g}" for x in w)
    out += [f"{tag}({vals})", f"# {command}"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learn_duo_value",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="team", choices=sorted(BASES))
    fit_arguments(ap, 100_000, 0xD0E5EED, WEIGHTS_FILE, "duo-krollout's horizon")
    a = ap.parse_args(argv)
    if bad_fit_arguments(a, "learn_duo_value"):
        return 2
    X, y, game_of = sample(a.games, a.key, a.every, a.base)
    test = game_of % 4 == 3
    w = fit(X[~test], y[~test], a.ridge)
    out = {"command": "python -m benchmarks.learn_duo_value " + " ".join(argv or sys.argv[1:]),
           "base": a.base, "games": a.games, "key": hex(a.key), "every": a.every,
           "ridge": a.ridge, "weights": dict(zip(FEATURES, [round(float(x), 6) for x in w])),
           "train": summary(w, X[~test], y[~test]), "held_out": summary(w, X[test], y[test]),
           "held_out_doors_error": doors_error(w, X[test], y[test]),
           "held_out_doors_error_constant": doors_error(
               np.eye(NFV)[0] * np.log(y[~test].mean() / (1 - y[~test].mean())), X[test],
               y[test])}
    if a.write:
        w_all = fit(X, y, a.ridge)
        write_weights(a.base, w_all, out["command"], a.out)
        out["written"] = dict(zip(FEATURES, [round(float(x), 6) for x in w_all]))
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        h = out["held_out"]
        print(f"base {a.base}: {h['states']} held-out states: log-loss {h['logloss']} "
              f"(a constant: {h['logloss_constant']}); mean |error| "
              f"{out['held_out_doors_error']} Doors (a constant: "
              f"{out['held_out_doors_error_constant']}); mean share {h['win_share']}")
        print_calibration(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
