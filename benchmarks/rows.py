"""The raw rows of an experiment: one small format, one writer, one reader.

Every published figure is computed from rows in ``benchmarks/results/rows/NAME.jsonl.gz``
(gzip-compressed JSON lines).  A file holds one or more *runs* (a run is one invocation of
the command; an interrupted run that is resumed appends a new run), each followed by its
rows:

* a run line: ``{"run": K, "experiment": NAME, "command": "...", "commit": "abc1234",
  "clean_tree": true, "machine": {...}, "started": "2026-12-02T14:01:00+00:00",
  "params": {...}}`` -- the command that reproduces the rows, the commit and machine it ran
  on, and the experiment's parameters (deals, policy and its configuration, policy seed...);
* a row line: ``{"r": K, "seed": S, ..., "cpu_s": c, "wall_s": w, "load": l}`` -- one deal
  (or position, or chunk of steps), the run ``K`` it belongs to, its result fields, the CPU
  time of this process and the wall time spent on it (compile time excluded: each runner warms
  its kernels before the first row), and the one-minute load average when it finished.

:func:`read` gives every row with its run attached (``row["run"]`` is the run's dict);
the paper's build (``papers/build.py``), its check (``papers/check.py``), the README's check
and the benchmarks all read rows through it.  :class:`RowWriter` appends rows and flushes
each one, so a run killed at any moment loses at most the row it was playing; on reopening,
a file cut mid-write is rewritten with its complete lines before anything is appended.
"""
from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS_DIR = ROOT / "benchmarks" / "results" / "rows"
SUFFIX = ".jsonl.gz"


def path_of(name: str, directory: Path | str | None = None) -> Path:
    return Path(directory or ROWS_DIR) / f"{name}{SUFFIX}"


def _lines(path: Path):
    """The complete JSON lines of ``path`` (a file cut mid-write yields its complete part)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            while True:
                try:
                    line = f.readline()
                except (EOFError, zlib.error, gzip.BadGzipFile):
                    return
                if not line:
                    return
                if not line.endswith("\n"):
                    return          # the last line was being written
                yield json.loads(line)
    except FileNotFoundError:
        return


def read_lines(path: Path | str) -> tuple[dict[int, dict], list[dict]]:
    """(runs by number, rows in file order) of one rows file, rows without their run."""
    runs: dict[int, dict] = {}
    rows: list[dict] = []
    for obj in _lines(Path(path)):
        if "run" in obj and "r" not in obj:
            runs[obj["run"]] = obj
        else:
            rows.append(obj)
    return runs, rows


def read(name_or_path: str | Path, directory: Path | str | None = None) -> list[dict]:
    """Every row of an experiment, each with ``row["run"]`` its run (command, commit,
    machine, params).  ``name_or_path``: an experiment name or a file path."""
    p = Path(name_or_path)
    if p.suffix != ".gz":
        p = path_of(str(name_or_path), directory)
    if not p.exists():
        raise FileNotFoundError(f"{p}: no rows stored")
    runs, rows = read_lines(p)
    out = []
    for r in rows:
        run = runs.get(r["r"])
        if run is None:
            raise ValueError(f"{p}: a row of run {r['r']} comes before that run's header")
        out.append({**r, "run": run})
    return out


def by_seed(rows: list[dict]) -> dict[int, dict]:
    """The rows keyed by seed; a seed stored twice must have the same result fields."""
    out: dict[int, dict] = {}
    for r in rows:
        s = r["seed"]
        if s in out:
            a = {k: v for k, v in out[s].items() if k not in TIMING and k not in ("r", "run")}
            b = {k: v for k, v in r.items() if k not in TIMING and k not in ("r", "run")}
            if a != b:
                raise ValueError(f"seed {s} stored twice with different results: {a} != {b}")
            continue
        out[s] = r
    return out


TIMING = ("cpu_s", "wall_s", "load")


def whole(path: Path | str) -> bool:
    """True if the file is a complete gzip stream.  A run that is still writing, or was
    killed, leaves its last member without its end: every reader here skips the cut tail,
    but other tools (``gzip -t``, ``zcat``) report an error."""
    try:
        with gzip.open(path, "rb") as f:
            while f.read(1 << 20):
                pass
        return True
    except (EOFError, zlib.error, gzip.BadGzipFile):
        return False


def _rewrite(path: Path, runs, rows) -> None:
    """Write the file again from its complete lines, runs in order, each with its rows."""
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        for k in sorted(runs):
            f.write(json.dumps(runs[k], sort_keys=True) + "\n")
            for r in rows:
                if r["r"] == k:
                    f.write(json.dumps(r, sort_keys=True) + "\n")
    os.replace(tmp, path)


def repair(path: Path | str) -> bool:
    """Make a file cut mid-write a complete gzip stream again, with the same complete lines
    (nothing is added or dropped but the cut tail); returns True if it was rewritten.  Do not
    run it on a file that a run is still writing."""
    path = Path(path)
    if whole(path):
        return False
    runs, rows = read_lines(path)
    _rewrite(path, runs, rows)
    return True


class RowWriter:
    """Append rows of one experiment to its file, one flushed gzip line per row.

    ``done`` holds the seeds already stored (by any earlier run), so a caller plays only the
    others.  The first :meth:`add` writes the run line (so a run that stores nothing leaves no
    trace)."""

    def __init__(self, name: str, run: dict, directory: Path | str | None = None):
        self.path = path_of(name, directory)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        runs, rows = read_lines(self.path)
        if self.path.exists():
            self._repair(runs, rows)
        self.done = {r["seed"] for r in rows}
        self.run = {"run": max(runs, default=0) + 1, "experiment": name, **run}
        self._f = None

    def _repair(self, runs, rows) -> None:
        """Rewrite the file from its complete lines (a cut gzip member cannot be appended to)."""
        if not whole(self.path):
            _rewrite(self.path, runs, rows)

    def add(self, row: dict) -> None:
        if self._f is None:
            self._f = gzip.open(self.path, "at", encoding="utf-8")
            self._f.write(json.dumps(self.run, sort_keys=True) + "\n")
        self._f.write(json.dumps({"r": self.run["run"], **row}, sort_keys=True) + "\n")
        self._f.flush()
        self.done.add(row["seed"])

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _header(run: dict) -> str:
    """A run's header without its number (the number differs between copies of a file)."""
    return json.dumps({k: v for k, v in run.items() if k != "run"}, sort_keys=True)


def _body(row: dict) -> str:
    """A row without its run number."""
    return json.dumps({k: v for k, v in row.items() if k != "r"}, sort_keys=True)


def merge(dest: Path | str, *sources: Path | str) -> int:
    """Append the runs and rows of ``sources`` (files of the same experiment played elsewhere,
    say the shards of ``experiments run --shard``) to ``dest``; returns the rows added.

    Each source run keeps its header (command, commit, machine) under a new run number after
    ``dest``'s last; a seed already stored in ``dest`` (or in an earlier source) must not come
    again: the merge refuses the whole set and leaves ``dest`` as it was.  One exception: a
    source that resumed from a copy of ``dest`` (a shard played in a worktree of a commit that
    held part of the rows) carries ``dest``'s runs; a source run whose header equals one of
    ``dest``'s and whose every row is stored in ``dest`` as it is there (the same run) is
    skipped, not refused (so merging the same shard twice adds nothing, and leaves ``dest`` as
    it was).  A run that shares a header but differs in any row is refused."""
    dest = Path(dest)
    runs, rows = read_lines(dest)
    name = next(iter(runs.values()))["experiment"] if runs else None
    seen = {r["seed"] for r in rows}
    # dest's own runs: header (without its number) -> its rows by seed (without the number)
    own = {_header(h): {r["seed"]: _body(r) for r in rows if r["r"] == k}
           for k, h in runs.items()}
    added = 0
    n_runs = len(runs)
    for src in sources:
        s_runs, s_rows = read_lines(Path(src))
        if not s_runs:
            raise ValueError(f"{src}: no runs stored")
        for k in sorted(s_runs):
            exp = s_runs[k]["experiment"]
            if name is not None and exp != name:
                raise ValueError(f"{src}: rows of {exp}, not of {name}")
            name = exp
            same = own.get(_header(s_runs[k]))
            if same is not None and all(same.get(r["seed"]) == _body(r)
                                        for r in s_rows if r["r"] == k):
                continue            # dest's own run, carried by a resumed source
            new_k = max(runs, default=0) + 1
            runs[new_k] = {**s_runs[k], "run": new_k}
            for r in s_rows:
                if r["r"] != k:
                    continue
                if r["seed"] in seen:
                    raise ValueError(f"{src}: seed {r['seed']} is stored already")
                seen.add(r["seed"])
                rows.append({**r, "r": new_k})
                added += 1
    if added or len(runs) > n_runs:
        dest.parent.mkdir(parents=True, exist_ok=True)
        _rewrite(dest, runs, rows)
    return added


def main(argv=None) -> int:
    """``python -m benchmarks.rows repair [NAME ...]``: rewrite the row files cut mid-write
    (all of ``benchmarks/results/rows/`` by default) as complete gzip streams.
    ``python -m benchmarks.rows merge NAME FILE ...``: append the runs and rows of FILEs (the
    same experiment's rows played in other trees, e.g. shards) to NAME's rows (NAME may be a
    rows file's path)."""
    import sys
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["merge"] and len(args) >= 3:
        dest = Path(args[1]) if args[1].endswith(SUFFIX) else path_of(args[1])
        try:
            n = merge(dest, *args[2:])
        except (ValueError, FileNotFoundError, KeyError) as e:
            print(f"rows: error: {e}", file=sys.stderr)
            return 2
        print(f"merged {n} rows into {dest}")
        return 0
    if not args or args[0] != "repair":
        print("usage: python -m benchmarks.rows repair [NAME ...] | merge NAME FILE ...",
              file=sys.stderr)
        return 2
    paths = ([path_of(n) for n in args[1:]] if args[1:]
             else sorted(ROWS_DIR.glob("*" + SUFFIX)))
    for p in paths:
        if not p.exists():
            print(f"rows: error: no rows stored for {p.name}", file=sys.stderr)
            return 2
        if repair(p):
            print(f"repaired {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
