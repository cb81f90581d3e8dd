"""Save and load the expectimax memo (``Expectimax.save_memo`` / ``load_memo``), so that a long
query can be stopped and resumed, and related queries can share their work across processes
(``onirim best --memo FILE``; docs/EXPECTIMAX.md section 4b).

Why a loaded entry is safe to use.  An entry is a full packed position (four words, compared
exactly) with an interval that contains its exact value (section 3, "Intervals": the
invariant holds whatever the window, budget, deadline, probe or thread that produced it).
That meaning does not depend on the query, the process or the table, so an entry stays true
in any later search, under one condition: the packing and the rules it encodes must be the
same.  The file therefore records a fingerprint of the code that defines them (the kernel's
sources, ``solver.expectimax.kernel`` and every module it gathers, and ``encode``), and a
file with another fingerprint is refused.  A damaged file could flip a value, so the data
carries a CRC-32, and the whole file is checked (size, CRC, and every row's interval within
[0, 1]) before a single entry goes into the table: a bad file raises ``MemoFileError`` and
leaves the solver as it was.

File layout (little-endian):

* line 1: ``onirim-expectimax-memo`` and a newline;
* line 2: a JSON object padded with spaces to ``HEADER_BYTES`` - 1 bytes, then a newline:
  ``format`` (1), ``fingerprint`` (hex SHA-256), ``rows``, ``columns`` (7), ``crc32`` (of
  the data), and for the reader's information ``table_bits``, ``written`` (UTC) and
  ``nodes`` (expanded by the solver that wrote it);
* the data: ``rows`` rows of 7 ``int64``: the four key words, the work, and ``lo``, ``hi``
  as the bits of ``float64`` (the memo's own row without its sequence lock).

Writes go to a temporary file in the same folder, which replaces the target only once it is
complete and flushed to disk: an interrupted save leaves the old file as it was.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
import time
import zlib

import numba as nb
import numpy as np

from engine import rules

from .encode import PHASE_CODES, encode  # the module itself is shadowed by the function in the package
from . import kernel
from solver.errors import MemoFileError
from .table import _slot

MAGIC = b"onirim-expectimax-memo\n"
HEADER_BYTES = 512
FORMAT = 1
COLUMNS = 7
CHUNK_ROWS = 1 << 20          # rows handled at a time (56 MiB), so memory stays flat


def fingerprint() -> str:
    """Hex SHA-256 of what gives a memo entry its meaning: the kernel's sources (packing,
    canonical forms, rules: ``expectimax_kernel`` and its parts ``kernel.PARTS``), the rules
    vocabulary it compiles in (``engine.rules``) and the encoder of engine states."""
    h = hashlib.sha256()
    for path in [kernel.__file__] + [m.__file__ for m in kernel.PARTS]:
        with open(path, "rb") as f:
            h.update(f.read())
    with open(rules.__file__, "rb") as f:
        h.update(f.read())
    h.update(inspect.getsource(encode).encode())
    h.update(repr(sorted(PHASE_CODES.items())).encode())
    return h.hexdigest()


def _le(a: np.ndarray) -> np.ndarray:
    return a if sys.byteorder == "little" else a.byteswap()


def path_problem(path: str) -> str | None:
    """Why ``path`` cannot be written as a file (checked before long work, so that it is not
    lost at the end), or None.  Also used by ``onirim best --tree``."""
    if not str(path).strip():
        return "needs a file name"
    if os.path.isdir(path):
        return f"{path} is a folder, not a file"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"cannot write {path}: folder {folder} does not exist"
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        return f"cannot write {path}: permission denied"
    return None


def check_writable(path: str, what: str = "memo") -> None:
    """Raise MemoFileError now if ``path`` cannot be written later."""
    problem = path_problem(path)
    if problem is not None:
        raise MemoFileError(f"{what}: {problem}")


def save(keys: np.ndarray, path: str, table_bits: int, nodes: int) -> int:
    """Write every entry of the memo table ``keys`` (no search may be running) to ``path``,
    atomically.  Returns the number of entries written."""
    check_writable(path)
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    # the header is written again at the end, with the rows and the CRC (its length is
    # fixed), so the table is read once
    header = {"format": FORMAT, "fingerprint": fingerprint(), "rows": 0,
              "columns": COLUMNS, "crc32": 0, "table_bits": int(table_bits),
              "nodes": int(nodes),
              "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC + _header_line(header))
            crc = 0
            written = 0
            for i in range(0, keys.shape[0], CHUNK_ROWS):
                blk = keys[i:i + CHUNK_ROWS]
                sel = _le(np.ascontiguousarray(blk[blk[:, 0] != -1, :COLUMNS]))
                buf = memoryview(sel).cast("B")
                crc = zlib.crc32(buf, crc)
                f.write(buf)
                written += sel.shape[0]
            header["rows"] = written
            header["crc32"] = crc
            f.seek(len(MAGIC))
            f.write(_header_line(header))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        _remove(tmp)
        raise MemoFileError(f"memo: cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        _remove(tmp)
        raise
    return written


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _header_line(header: dict) -> bytes:
    text = json.dumps(header, sort_keys=True).encode()
    if len(text) > HEADER_BYTES - 1:      # pragma: no cover - the fields are bounded
        raise MemoFileError("memo: header too long")
    return text.ljust(HEADER_BYTES - 1) + b"\n"


def _read_header(f, path: str) -> dict:
    """The header of an open memo file, checked (magic, format, fingerprint, size); raises
    MemoFileError."""
    size = os.fstat(f.fileno()).st_size
    f.seek(0)
    head = f.read(len(MAGIC) + HEADER_BYTES)
    if not head.startswith(MAGIC):
        raise MemoFileError(f"memo: {path} is not an onirim expectimax memo file")
    line = head[len(MAGIC):]
    if len(line) != HEADER_BYTES or not line.endswith(b"\n"):
        raise MemoFileError(f"memo: {path} is truncated (incomplete header)")
    try:
        header = json.loads(line.decode())
        rows = header["rows"]
        ok = (isinstance(header, dict) and header.get("format") == FORMAT
              and header.get("columns") == COLUMNS and type(rows) is int and rows >= 0
              and type(header.get("crc32")) is int
              and isinstance(header.get("fingerprint"), str))
    except (ValueError, UnicodeDecodeError, KeyError, TypeError):
        ok = False
    if not ok:
        raise MemoFileError(f"memo: {path} has a damaged header (or another format)")
    if header["fingerprint"] != fingerprint():
        raise MemoFileError(f"memo: {path} was written by another version of the expectimax "
                            "kernel; its entries may mean other positions (delete it, or "
                            "use another file)")
    expect = len(MAGIC) + HEADER_BYTES + rows * COLUMNS * 8
    if size != expect:
        raise MemoFileError(f"memo: {path} is {'truncated' if size < expect else 'too long'} "
                            f"({size:,} bytes, {expect:,} expected for {rows:,} entries)")
    return header


def _chunks(f, path: str, rows: int):
    """The data of an open, checked file, CHUNK_ROWS rows at a time, as (n, 7) int64
    arrays."""
    f.seek(len(MAGIC) + HEADER_BYTES)
    left = rows
    while left:
        n = min(left, CHUNK_ROWS)
        a = np.fromfile(f, dtype="<i8", count=n * COLUMNS)
        if a.size != n * COLUMNS:
            raise MemoFileError(f"memo: {path} changed while it was being read")
        yield a.astype(np.int64, copy=False).reshape(n, COLUMNS)
        left -= n


def _verify(f, path: str) -> dict:
    header = _read_header(f, path)
    crc = 0
    for a in _chunks(f, path, header["rows"]):
        crc = zlib.crc32(memoryview(_le(np.ascontiguousarray(a))).cast("B"), crc)
        v = a[:, 5:7].view(np.float64)
        bad = ((a[:, :5] < 0).any() or not np.isfinite(v).all()
               or (v[:, 0] < -1e-9).any() or (v[:, 0] > v[:, 1] + 1e-9).any()
               or (v[:, 1] > 1 + 1e-9).any())
        if bad:
            raise MemoFileError(f"memo: {path} holds an impossible entry (damaged file)")
    if crc != header["crc32"]:
        raise MemoFileError(f"memo: {path} is damaged (CRC-32 mismatch)")
    return header


def _open(path: str):
    try:
        return open(path, "rb")
    except OSError as e:
        raise MemoFileError(f"memo: cannot read {path}: {e.strerror or e}") from None


def verify(path: str) -> dict:
    """Check the whole file: header, size, CRC, and every row (key words >= 0, work >= 0,
    0 <= lo <= hi <= 1 up to rounding).  Returns the header; raises MemoFileError."""
    with _open(path) as f:
        return _verify(f, path)


def load(path: str, prepare, insert) -> dict:
    """Check the whole file, then call ``prepare(header)`` and feed its rows to
    ``insert(rows)`` chunk by chunk.  The file is opened once for both passes, so a save
    that replaces it meanwhile (by renaming, as ``save`` does) cannot slip unchecked rows
    in.  Returns the header; raises MemoFileError before ``prepare`` if the file is bad."""
    with _open(path) as f:
        try:
            header = _verify(f, path)
            prepare(header)
            for rows in _chunks(f, path, header["rows"]):
                insert(rows)
        except OSError as e:
            raise MemoFileError(f"memo: cannot read {path}: {e.strerror or e}") from None
    return header


@nb.njit(cache=True)
def _merge(rows, rows_f, keys, vals):
    """Put the rows of a file into the memo table (no search running).  A key already in the
    table keeps the intersection of the two intervals (both are sound) and the larger work;
    a new key takes the first empty slot of its probe window, else the entry of the window
    that cost the least work if that cost less than its own, else it is dropped (a table
    too small loses work, never a value).  Returns (added, replaced, dropped)."""
    added = 0
    replaced = 0
    dropped = 0
    for r in range(rows.shape[0]):
        w0, w1, w2, w3 = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
        t = _slot(keys, w0, w1, w2, w3)
        if keys[t, 0] == w0 and keys[t, 1] == w1 and keys[t, 2] == w2 and keys[t, 3] == w3:
            if rows_f[r, 5] > vals[t, 5]:
                vals[t, 5] = rows_f[r, 5]
            if rows_f[r, 6] < vals[t, 6]:
                vals[t, 6] = rows_f[r, 6]
            if rows[r, 4] > keys[t, 4]:
                keys[t, 4] = rows[r, 4]
            continue
        if keys[t, 0] == -1:
            added += 1
        elif keys[t, 4] < rows[r, 4]:
            replaced += 1
        else:
            dropped += 1
            continue
        for j in range(5):
            keys[t, j] = rows[r, j]
        vals[t, 5] = rows_f[r, 5]
        vals[t, 6] = rows_f[r, 6]
    return added, replaced, dropped


def merge(rows: np.ndarray, keys: np.ndarray, vals: np.ndarray):
    rows = np.ascontiguousarray(rows)
    return _merge(rows, rows.view(np.float64), keys, vals)
