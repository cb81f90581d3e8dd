"""Where a kernel family's compile time goes: numba's compile events, per function.

``python -m onirim.precompile`` compiles each kernel family once per install; this benchmark
runs one family's precompile work in this process, into the numba cache directory given (it
must be empty for a cold compile: numba loads whatever is cached there), and records every
``numba:compile`` event: how many times each function was compiled (one per signature), the
wall seconds spent in it including the functions it compiled on the way
(``incl``) and without them (``self``).  A function inlined by numba (``inline="always"``)
is typed again at every call site, so its cost shows in its callers' ``self`` time::

    python -m benchmarks.bench_compile honest --cache-dir /tmp/cold-honest
    python -m benchmarks.bench_compile expectimax --cache-dir /tmp/cold-ex --top 15 --json

The cache directory is set before numba is imported (``NUMBA_CACHE_DIR``), so this must run
as its own process.  The JSON (``--json``) holds the family, its CPU seconds, the machine and
load, and the per-function rows.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_compile",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("family", help="a family of onirim.precompile (e.g. honest, expectimax)")
    p.add_argument("--cache-dir", required=True,
                   help="numba cache directory (empty for a cold compile)")
    p.add_argument("--top", type=int, default=25, help="functions shown (by self time)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    a = p.parse_args(argv)
    if "numba" in sys.modules:
        print("bench_compile: numba is already imported; run as its own process",
              file=sys.stderr)
        return 2
    os.makedirs(a.cache_dir, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = os.path.abspath(a.cache_dir)

    from numba.core import event

    from onirim import precompile
    if a.family not in precompile.FAMILIES:
        print(f"bench_compile: unknown family {a.family!r} "
              f"(one of: {', '.join(precompile.FAMILIES)})", file=sys.stderr)
        return 2

    stack: list[list] = []
    rows: dict[str, dict] = {}

    class Recorder(event.Listener):
        def on_start(self, ev):
            f = ev.data["dispatcher"].py_func
            stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, t0, child = stack.pop()
            d = time.perf_counter() - t0
            r = rows.setdefault(name, {"function": name, "compiles": 0, "incl_s": 0.0,
                                       "self_s": 0.0})
            r["compiles"] += 1
            r["incl_s"] += d
            r["self_s"] += d - child
            if stack:
                stack[-1][2] += d

    event.register("numba:compile", Recorder())
    load0 = os.getloadavg()[0]
    c0, t0 = time.process_time(), time.perf_counter()
    precompile.FAMILIES[a.family][0]()
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    top = sorted(rows.values(), key=lambda r: -r["self_s"])
    from benchmarks.harness import machine_info
    out = {"family": a.family, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
           "load_before": load0, "load_after": os.getloadavg()[0],
           "functions_compiled": len(rows),
           "rows": [{k: (round(v, 2) if isinstance(v, float) else v) for k, v in r.items()}
                    for r in top],
           "machine": machine_info()}
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"{a.family}: {cpu:.1f} s of CPU, {wall:.1f} s wall, {len(rows)} functions "
          f"compiled (load {load0:.1f})")
    print(f"{'self s':>8} {'incl s':>8} {'n':>3}  function")
    for r in top[:a.top]:
        print(f"{r['self_s']:8.1f} {r['incl_s']:8.1f} {r['compiles']:3d}  {r['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
