"""PNG figures of a benchmark result (optional: needs matplotlib, ``pip install -e '.[plots]'``).

* ``bench-deal-seconds[-quick].png``: the distribution of the clairvoyant solver's time per
  deal (histogram on logarithmic bins, with the median, p90, p99 and max marked);
* ``bench-expectimax-size[-quick].png``: expectimax time against the number of unknown cards in
  the deck (logarithmic time axis).

:func:`plot_all` never raises for missing data or a missing matplotlib: it returns the files it
wrote and a note saying what it skipped and why.
"""
from __future__ import annotations

import math
import os


def _matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def _suffix(result: dict) -> str:
    return "-quick" if result.get("quick") else ""


def _title_tail(result: dict) -> str:
    m = result.get("machine", {})
    return f"{m.get('cpu', '?')}, commit {m.get('commit', '?')}"


def plot_deal_seconds(plt, result: dict, path: str) -> bool:
    per = result.get("clairvoyant_per_deal") or {}
    ds = result.get("clairvoyant_deal_seconds") or {}
    # plot the clock the percentiles were taken on: the list whose maximum matches theirs
    lists = {k: [x for x in per.get(k, []) if isinstance(x, (int, float)) and x > 0]
             for k in ("seconds", "cpu_seconds")}
    lists = {k: v for k, v in lists.items() if v}
    if not lists:
        return False
    named = {"cpu": "cpu_seconds", "wall": "seconds"}.get(
        result.get("clairvoyant_deal_seconds_clock"))
    if named in lists:
        clock = named
    else:
        want = ds.get("max") if isinstance(ds.get("max"), (int, float)) else None
        clock = min(lists, key=lambda k: abs(max(lists[k]) - want) if want else k != "seconds")
    secs = lists[clock]
    lo, hi = min(secs), max(secs)
    if hi <= lo:
        hi = lo * 1.01 + 1e-9
    nb = max(10, min(60, int(math.sqrt(len(secs))) * 2))
    edges = [lo * (hi / lo) ** (i / nb) for i in range(nb + 1)]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(secs, bins=edges, color="#4c72b0")
    ax.set_xscale("log")
    for name, style in (("median", "-"), ("p90", "--"), ("p99", "-."), ("max", ":")):
        v = ds.get(name)
        if isinstance(v, (int, float)) and v > 0:
            ax.axvline(v, color="#c44e52", linestyle=style, label=f"{name} {v * 1e3:.1f} ms")
    ax.set_xlabel(("CPU" if clock == "cpu_seconds" else "wall-clock")
                  + " seconds per deal (clairvoyant solve, one core)")
    ax.set_ylabel("deals")
    first, last = per.get("seed_first"), per.get("seed_last")
    ax.set_title(f"Clairvoyant time per deal, seeds {first}..{last} ({len(secs)} deals)\n"
                 f"{_title_tail(result)}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_size_vs_time(plt, result: dict, path: str) -> bool:
    rows = result.get("expectimax_size_vs_time") or []
    pts = sorted((r["size"], r["seconds"]) for r in rows
                 if isinstance(r, dict) and isinstance(r.get("seconds"), (int, float))
                 and r["seconds"] > 0 and isinstance(r.get("size"), (int, float)))
    if not pts:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color="#55a868",
            label="median" if any("median_seconds" in r for r in rows) else "seconds")
    mx = sorted((r["size"], r["max_seconds"]) for r in rows if isinstance(r, dict)
                and isinstance(r.get("max_seconds"), (int, float)) and r["max_seconds"] > 0
                and isinstance(r.get("size"), (int, float)))
    if mx:
        ax.plot([p[0] for p in mx], [p[1] for p in mx], "s--", color="#c44e52", label="max")
    open_sizes = [r for r in rows if isinstance(r, dict) and isinstance(r.get("solved"), int)
                  and isinstance(r.get("positions"), int) and r["solved"] < r["positions"]
                  and isinstance(r.get("seconds"), (int, float)) and r["seconds"] > 0]
    if open_sizes:
        ax.plot([r["size"] for r in open_sizes], [r["seconds"] for r in open_sizes], "kx",
                markersize=9, label="not all positions solved in the limit")
    limit = result.get("expectimax_limit_s")
    if isinstance(limit, (int, float)) and limit > 0:
        ax.axhline(limit, color="grey", linestyle=":", label=f"time limit {limit:g} s")
    ax.legend(fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("unknown cards in the deck")
    ax.set_ylabel("seconds per position (expectimax)")
    ax.set_title(f"Expectimax time against unknown-deck size\n{_title_tail(result)}",
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_all(result: dict, out_dir: str) -> dict:
    """Write the figures of ``result`` under ``out_dir``: {"files": [...], "note": str|None}."""
    plt = _matplotlib()
    if plt is None:
        return {"files": [], "note": "matplotlib is not installed (pip install -e '.[plots]'); "
                                     "no figures"}
    os.makedirs(out_dir, exist_ok=True)
    files, skipped = [], []
    sfx = _suffix(result)
    for fn, name, what in (
            (plot_deal_seconds, f"bench-deal-seconds{sfx}.png", "no per-deal times"),
            (plot_size_vs_time, f"bench-expectimax-size{sfx}.png",
             "no expectimax size-versus-time data")):
        path = os.path.join(out_dir, name)
        if fn(plt, result, path):
            files.append(path)
        else:
            skipped.append(f"{name} skipped ({what})")
    return {"files": files, "note": "; ".join(skipped) or None}
