"""Does numba's on-disk cache keep a function that takes other jitted functions as arguments?

docs/DUO.md ("The search") says why the solo and two-player searches keep a loop each instead
of one loop that takes the kernel's functions as arguments: such a function is not served from
the cache.  This script shows it on the numba installed here.  It writes a small module into a
temporary folder (two jitted functions ``f`` and ``g`` and ``run(fn, n)`` that calls ``fn``,
all ``cache=True``), imports it in two fresh processes one after the other, and prints, for
each process, ``run``'s cache hits and misses and the seconds its two calls took::

    python -m benchmarks.cache_callbacks [--json]

A cached function would show misses in the first process and hits in the second.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

MODULE = textwrap.dedent("""
    from numba import njit

    @njit(cache=True)
    def f(x):
        return x + 1

    @njit(cache=True)
    def g(x):
        return x * 2

    @njit(cache=True)
    def run(fn, n):
        s = 0
        for i in range(n):
            s += fn(i)
        return s
""")

PROBE = textwrap.dedent("""
    import json, time, cbmod
    t = time.perf_counter()
    cbmod.run(cbmod.f, 10)
    cbmod.run(cbmod.g, 10)
    st = cbmod.run.stats
    print(json.dumps({"hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values()),
                      "seconds": round(time.perf_counter() - t, 3)}))
""")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import numba
    with tempfile.TemporaryDirectory() as d:
        Path(d, "cbmod.py").write_text(MODULE)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", PROBE], cwd=d, capture_output=True,
                                 text=True, check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    res = {"numba": numba.__version__, "processes": runs,
           "cached": runs[1]["hits"] > 0 and runs[1]["misses"] == 0}
    if args.json:
        print(json.dumps(res))
    else:
        for i, r in enumerate(runs, 1):
            print(f"process {i}: run() cache hits {r['hits']}, misses {r['misses']}, "
                  f"{r['seconds']} s")
        print(f"numba {res['numba']}: a function taking jitted functions as arguments is "
              f"{'served from' if res['cached'] else 'NOT served from'} the cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
