"""The records' shared vocabulary: Wilson intervals, the formats of every printed number,
and the facts derived from the records (the ladder rows with their intervals, the best rows,
the regret rows, the end-game sample, the example game).

``papers/build.py`` (the paper's numbers and tables) and ``papers/readme.py`` (the generated
blocks of the README and of ``docs/RESULTS.md``) both read the records through this module,
so neither imports the other's module back: ``build`` -> ``readme`` -> ``records``.
"""
from __future__ import annotations

import json
import math
import re
import statistics
from typing import Any, Callable

from papers import rowdata  # noqa: F401  (readme reads records.rowdata)
from papers.rowdata import PENDING_MARK  # noqa: F401  (re-exported)

NBSP = "\u00a0"  # between a number and its unit


# --------------------------------------------------------------------------- statistics
def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson 95 % interval, the project's own (solver.stats.wilson)."""
    from solver.stats import wilson as _wilson
    return _wilson(wins, n)


def percentile(xs, q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(xs)
    k = max(1, math.ceil(q / 100 * len(s)))
    return s[k - 1]


# --------------------------------------------------------------------------- formatting
def fint(x) -> str:
    return f"{int(round(x)):,}"


def fdec(d: int) -> Callable[[float], str]:
    return lambda x: f"{x:,.{d}f}"


def fpct(d: int) -> Callable[[float], str]:
    return lambda x: f"{100 * x:.{d}f}%"


def fval(x: float) -> str:
    """A probability: 0 and 1 exactly, two significant figures below 0.001, else 4 decimals."""
    if abs(x) < 1e-12:
        return "0"
    if abs(x - 1) < 1e-12:
        return "1"
    return f"{x:.2g}" if x < 0.001 else f"{x:.4f}"


def fpct_auto(x: float) -> str:
    """A percentage with one decimal, or two significant figures below 1 %."""
    return f"{100 * x:.2g}%" if 0 < x < 0.01 else f"{100 * x:.1f}%"


def fsi(x: float) -> str:
    """A count in k or M, three significant figures."""
    for div, unit in ((1e6, NBSP + "M"), (1e3, NBSP + "k")):
        if x >= div:
            v = x / div
            return f"{v:.3g}{unit}" if v < 1000 else f"{v:,.0f}{unit}"
    return f"{x:.3g}"


def fsec(x: float) -> str:
    """Seconds with a unit: ms below one second."""
    if x < 1:
        return f"{1000 * x:.1f}{NBSP}ms"
    if x < 100:
        return f"{x:.1f}{NBSP}s"
    return f"{x:,.0f}{NBSP}s"


def fus(x: float) -> str:
    return f"{1e6 * x:.1f}{NBSP}µs"


def ftime(x: float) -> str:
    """A time per decision: µs below a millisecond, else as fsec."""
    return fus(x) if x < 1e-3 else fsec(x)


def fbreak(label: str) -> str:
    """A policy label that may wrap after its commas (zero-width spaces)."""
    return label.replace(",", ",\u200b")


def fstr(x) -> str:
    return str(x)


# --------------------------------------------------------------------------- derived facts
class Pend:
    """A value drawn from a pending figure (``papers/rowdata.py``): it is printed with
    ``PENDING_MARK`` and listed, with ``why``, in the generated table of pending figures."""

    def __init__(self, v, why: str):
        self.v, self.why = v, why


def _pend(row: dict, v):
    """``v``, marked pending if it comes from a pending row."""
    return Pend(v, row["pending_note"]) if row.get("pending") else v


def _rated(r: dict) -> dict:
    lo, hi = wilson(r["wins"], r["deals"])
    secs = r["cpu_s"] if r["clock"] == "cpu" else r["wall_s"]
    per = secs / r["decisions"] if r.get("decisions") and secs else None
    return {**r, "rate": r["wins"] / r["deals"], "lo": lo, "hi": hi, "per_decision": per}


def cpu_short(cpu: str) -> str:
    """A CPU model as a table names it: ``Intel(R) Xeon(R) Processor`` is ``Intel Xeon``."""
    s = re.sub(r"\((R|TM)\)|\bProcessor\b|\bCPU\b|@.*$", " ", cpu)
    return " ".join(s.split()) or cpu


def cpu_label(row: dict) -> str:
    """The CPU model(s) a row's times were measured on (its runs' ``cpus``, else its
    ``machine``), short; "not recorded" when neither says."""
    cpus = row.get("cpus") or [(row.get("machine") or {}).get("cpu")]
    names = [cpu_short(c) for c in cpus if c]
    return " + ".join(dict.fromkeys(names)) or "not recorded"


def ladder_rows(recs) -> list[dict]:
    return [_rated(r) for r in recs["honest-ladder"]["rows"]]


def ladder_row(recs, label: str) -> dict:
    return next(r for r in ladder_rows(recs) if r["policy"] == label)


# what each kind of ladder row is, by its registered policy (the sentence after "The
# strongest row is X,"; a policy with no entry fails the build)
POLICY_WHAT = {
    "greedy": "a rule-based policy",
    "greedy-plus": "a rule-based policy",
    "greedy-keep-doors": "a rule-based policy",
    "rollout": "one step of rollout policy improvement over a rule-based base policy, with "
               "common random numbers across actions",
    "seq-rollout": "one step of rollout policy improvement over a rule-based base policy, "
                   "with common random numbers across actions",
    "endgame": "one step of rollout policy improvement over a rule-based base policy, with "
               "the exact search's proven best move once few cards are unknown",
    "late-l2": "one step of rollout policy improvement over a rule-based base policy, and two "
               "nested levels of rollouts once few cards are unknown",
}


# a row whose policy plays the learned base somewhere (its own name, or inside ``base``)
LEARNED_WHAT = {
    "learned-base": "a rule-based policy whose play-phase weights were fitted by a "
                    "cross-entropy search over its own win rate",
    "learned-base-2": "a rule-based policy whose play, prophecy and Nightmare weights were "
                      "fitted by a cross-entropy search over its own win rate",
    "seq-rollout": "one step of rollout policy improvement over a base policy with weights "
                   "fitted by a cross-entropy search, with common random numbers across actions",
    "endgame": "one step of rollout policy improvement over a base policy with weights fitted "
               "by a cross-entropy search, with the exact search's proven best move once few "
               "cards are unknown",
}
POLICY_WHAT["ismcts"] = ("information-set Monte Carlo tree search over the player's view, "
                         "with playouts of a rule-based base policy at its leaves")


def policy_what(row: dict) -> str:
    """What the ladder row's policy is (POLICY_WHAT, LEARNED_WHAT for the learned base)."""
    if row["name"].startswith("learned-base") or "learned-base" in json.dumps(
            row.get("config") or {}):
        return LEARNED_WHAT[row["name"]]
    return POLICY_WHAT[row["name"]]


def ladder_best(recs, current_only: bool = False) -> dict | None:
    rows = [r for r in ladder_rows(recs) if not (current_only and r["pending"])]
    return max(rows, key=lambda x: x["rate"], default=None)


def endgame(recs) -> dict:
    ps = recs["expectimax-fifteen"]["numbers"]["positions"]
    lim = 10.0
    secs = [p["seconds"] for p in ps]
    fast = [p for p in ps if p["seconds"] <= lim]
    likely = [p for p in ps if p["lo"] >= 0.5]
    return {
        "n": len(ps), "exact": sum(p["exact"] for p in ps), "fast": len(fast),
        "fast_ci": wilson(len(fast), len(ps)), "median": statistics.median(secs),
        "max": max(secs), "vmin": min(p["lo"] for p in ps), "vmax": max(p["lo"] for p in ps),
        "likely": len(likely), "likely_slow": sum(p["seconds"] > lim for p in likely),
        "target_s": lim,
    }


def largest_all_exact(rows) -> dict:
    best = None
    for r in rows:
        if r["solved"] == r["positions"]:
            best = r
        else:
            break
    return best


def strategy_stats(recs) -> dict:
    ps = recs["strategy-graph"]["numbers"]["positions"]
    ratios = [p["stored"] / p["strategy_positions"] for p in ps]
    return {"n": len(ps), "smin": min(p["strategy_positions"] for p in ps),
            "smax": max(p["strategy_positions"] for p in ps),
            "rmin": min(ratios), "rmax": max(ratios)}


def cert_stats(recs, name) -> dict:
    ps = recs[name]["numbers"]["positions"]
    return {"n": len(ps), "ok": sum(p["ok"] and p["agrees"] for p in ps),
            "vmin": min(p["certified"] for p in ps), "vmax": max(p["certified"] for p in ps),
            "rmin": min(p["replay_positions"] for p in ps),
            "rmax": max(p["replay_positions"] for p in ps),
            "prophecies": sum(p["prophecies"] for p in ps),
            "fallbacks": sum(p["order_fallbacks"] for p in ps),
            "replay_max": max(p["replay_s"] for p in ps),
            "solve_max": max(p["solve_s"] for p in ps)}


NOT_MEASURED = "not measured"


def _opt(fmt: Callable[[Any], str]) -> Callable[[Any], str]:
    """A format that writes NOT_MEASURED for a value the records do not hold (None)."""
    return lambda x: NOT_MEASURED if x is None else fmt(x)


def regret_best(recs) -> dict:
    """The regret row with the lowest mean regret."""
    return min(recs["regret"]["rows"], key=lambda r: r["mean"])


def regret_row(recs, label: str) -> dict:
    return next(r for r in recs["regret"]["rows"] if r["policy"] == label)


def duo_ladder_rows(recs) -> list[dict]:
    """The rows of the two-player ladder with their Wilson intervals."""
    return [_rated(r) for r in recs["duo-honest-ladder"]["rows"]]


def duo_best(recs, mode: str = "honest", current: bool = False) -> dict | None:
    """The row of the two-player ladder of ``mode`` ("honest": the silent game, "open") with
    the highest win rate, among the rows not pending if ``current``; None if there is none."""
    rows = [r for r in duo_ladder_rows(recs)
            if r["mode"] == mode and not (current and r["pending"])]
    return max(rows, key=lambda r: r["rate"], default=None)


def example_lines(recs) -> dict:
    """Replay deal ``seed`` with the clairvoyant certificate and with the greedy policy."""
    from engine import Game
    from engine.policy import play_game
    ex = recs["example-game"]["numbers"]
    seed = ex["seed"]
    game = Game(1)

    def trace(actions):
        st = game.new_initial_state(seed)
        pts = [(0, len(st.all_doors()), len(st.rows[0]), st.deck_size())]
        for i, a in enumerate(actions, 1):
            st.apply_action(st.string_to_action(a))
            pts.append((i, len(st.all_doors()), len(st.rows[0]), st.deck_size()))
        return st, pts

    cst, cpts = trace(ex["clairvoyant_line"])
    _, gline = play_game(game, seed)
    gst, gpts = trace(gline)
    return {"seed": seed, "clairvoyant": cpts, "clairvoyant_won": cst.won(),
            "greedy": gpts, "greedy_won": gst.won(), "greedy_line": gline}
