"""Run a module under ``perf record`` with names for numba's compiled code.

``perf`` shows numba's JIT code as bare addresses: the code lives in anonymous memory, with no
symbol table.  This runner runs a module as ``python -m`` would, then at exit writes
``/tmp/perf-PID.map`` (the map file perf reads for such code): every global function of every
compiled or cache-loaded numba library of the process, at its loaded address, with its size
from the library's object code (``nm -S``).  The reference counting shows as ``NRT_incref`` and
``NRT_decref``, each library having its own copy.

    perf record -g -o perf.data python -m benchmarks.perf_numba onirim winrate --mode honest \\
        --players 2 --talk open --policy duo-krollout --policy-arg base=team --deals 5 \\
        --db /tmp/perf.sqlite
    perf report -i perf.data --no-children --sort dso,sym

Only the samples' own functions are named: numba's code keeps no frame pointers, so the
call chains through it are not reliable.  Needs ``nm`` (binutils).
"""
from __future__ import annotations

import atexit
import gc
import os
import runpy
import subprocess
import sys
import tempfile

from numba.core import codegen

_set_object = codegen.CPUCodeLibrary._set_compiled_object


def _keep_object(self, value):
    """numba drops a library's object code once loaded: keep a copy for the map."""
    self._perf_object = bytes(value)
    return _set_object(self, value)


def _symbols(obj: bytes) -> list[tuple[int, str]]:
    """(size, name) of the global functions of an object file."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
        path = f.name
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True,
                             text=True, check=False).stdout
    finally:
        os.unlink(path)
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TW":
            rows.append((int(parts[1], 16), parts[3]))
    return rows


def write_map() -> int:
    """Write /tmp/perf-PID.map for every numba library alive; returns the symbols written."""
    from numba.core.dispatcher import Dispatcher
    rows = {}
    seen = set()
    for disp in [o for o in gc.get_objects() if isinstance(o, Dispatcher)]:
        for cres in list(disp.overloads.values()):
            lib = cres.library
            obj = getattr(lib, "_perf_object", None) or getattr(lib, "_compiled_object", None)
            if id(lib) in seen or not obj:
                continue
            seen.add(id(lib))
            engine = lib._codegen._engine
            for size, name in _symbols(obj):
                addr = engine.get_function_address(name)
                if addr:
                    rows[addr] = (size, name)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for addr in sorted(rows):
            size, name = rows[addr]
            f.write(f"{addr:x} {size:x} {name}\n")
    return len(rows)


def main() -> None:
    if len(sys.argv) < 2:
        print("usage: python -m benchmarks.perf_numba MODULE [ARGS ...]", file=sys.stderr)
        sys.exit(2)
    codegen.CPUCodeLibrary._set_compiled_object = _keep_object
    atexit.register(lambda: print(f"perf_numba: {write_map()} symbols in "
                                  f"/tmp/perf-{os.getpid()}.map", file=sys.stderr))
    sys.argv = sys.argv[1:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
