"""Shared pieces of the benchmark scripts: machine description, result files, tables.

Every figure is written with the machine and the versions it was measured on.  Ratios are
always measured side by side in one run (the machines here are shared and noisy).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import sys
import time

from benchmarks.positions import late_position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # the source tree
RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here,
                             capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=here, capture_output=True, text=True, timeout=5)
        if out.returncode == 0:
            return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def machine_info() -> dict:
    info = {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": git_commit(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    for mod in ("numba", "numpy"):
        try:
            info[mod] = __import__(mod).__version__
        except ImportError:
            info[mod] = None
    try:
        info["loadavg"] = list(os.getloadavg())
    except OSError:
        info["loadavg"] = None
    return info


def write_json(name: str, data: dict, directory: str | None = None) -> str:
    directory = directory or RESULTS_DIR
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def write_stamped(prefix: str, data: dict) -> str:
    """write_json to ``<prefix>-<UTC date-time>.json`` in the results directory (one file
    per run, never overwritten by a later one)."""
    return write_json(f"{prefix}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json", data)


class ResultFile:
    """The result file of a long benchmark, rewritten (atomically) after every position,
    so that an interrupted run keeps what it finished.  ``resume``: the file of an
    interrupted run, to be continued; ``options``: what must match for that (a dict
    stored in the file).  ``open`` returns None after one line on stderr when the file
    cannot be resumed (the caller then exits with status 2)."""

    def __init__(self, path: str | None, data: dict):
        self.path = path
        self.data = data

    @classmethod
    def open(cls, prog: str, benchmark: str, prefix: str, options: dict,
             resume: str | None = None, save: bool = True):
        if resume is None:
            path = None
            if save:
                stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
                path = os.path.join(RESULTS_DIR, f"{prefix}-{stamp}.json")
            return cls(path, {"benchmark": benchmark, "options": options,
                              "complete": False, "positions": []})
        try:
            with open(resume) as f:
                data = json.load(f)
            if not isinstance(data, dict) or data.get("benchmark") != benchmark:
                raise ValueError(f"not a {prog} result")
            if data.get("options") != options:
                raise ValueError(f"made with other options ({data.get('options')})")
        except (OSError, ValueError) as e:
            print(f"{prog}: --resume {resume}: {e}", file=sys.stderr)
            return None
        data.setdefault("positions", [])
        return cls(resume, data)

    @property
    def rows(self) -> list:
        return self.data["positions"]

    def run_seeds(self, seeds, cards: int, measure, report=None) -> list:
        """The loop of the benchmarks over late-game positions: for each seed not in the
        file yet, ``late_position(seed, cards)`` (skipped when None), the row ``{"seed",
        "cards", "position"}`` updated with ``measure(state)``, saved at once, then
        ``report(row)``.  Returns every row, the resumed ones first."""
        from engine.notation import format_position
        done = {r["seed"] for r in self.rows}
        for seed in seeds:
            if seed in done:
                continue
            state = late_position(seed, cards)
            if state is None:
                continue
            row = {"seed": seed, "cards": cards, "position": format_position(state)}
            row.update(measure(state))
            self.rows.append(row)
            self.save()
            if report is not None:
                report(row)
        return self.rows

    def save(self, **fields) -> None:
        """Update the stored fields (and the machine description), then rewrite the
        file (nothing is written when the run saves nothing)."""
        self.data.update(fields)
        self.data["machine"] = machine_info()
        if self.path is not None:
            write_json(os.path.basename(self.path), self.data,
                       os.path.dirname(os.path.abspath(self.path)))

    def finish(self, **fields) -> None:
        """The last save: the run's summary fields, and ``"complete": true``."""
        self.save(**fields, complete=True)
        if self.path is not None:
            print("wrote", self.path)


def add_seed_options(ap, default_seeds) -> None:
    """The options of the benchmarks that measure late-game positions by seed:
    ``--seeds``, ``--cards``, ``--threads``, ``--resume FILE`` (``ResultFile``) and
    ``--no-save``."""
    ap.add_argument("--seeds", default=",".join(map(str, default_seeds)))
    ap.add_argument("--cards", type=int, default=15, help="unknown cards in the deck")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--resume", metavar="FILE", default=None,
                    help="the result file of an interrupted run (same options): skip its "
                         "seeds, add to it")
    ap.add_argument("--no-save", action="store_true")


def parse_seeds(text: str, prog: str) -> list[int] | None:
    """The integers of a comma-separated ``--seeds`` value, or None after one line on
    stderr saying what is wrong (the caller then exits with status 2)."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        print(f"{prog}: --seeds must be comma-separated integers", file=sys.stderr)
        return None


def percentiles(values) -> dict:
    """median, p90, p99 and max of a list of numbers (nearest-rank)."""
    xs = sorted(values)
    if not xs:
        return {"median": None, "p90": None, "p99": None, "max": None}

    def rank(q):
        i = max(0, min(len(xs) - 1, int(-(-q * len(xs) // 1)) - 1))
        return xs[i]
    mid = len(xs) // 2
    median = xs[mid] if len(xs) % 2 else 0.5 * (xs[mid - 1] + xs[mid])
    return {"median": median, "p90": rank(0.90), "p99": rank(0.99), "max": xs[-1]}


def table(rows, headers=("figure", "value")) -> str:
    rows = [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(out)
