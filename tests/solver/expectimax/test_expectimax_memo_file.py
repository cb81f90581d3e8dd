"""Saving and loading the expectimax memo (solver/expectimax/memo_file.py, docs/EXPECTIMAX.md section 4b),
``onirim best --memo``, and a search stopped by Ctrl-C (it must leave only sound entries)."""
import json
import os
import signal
import threading
import time
import zlib

import numpy as np
import pytest

from benchmarks.bench_expectimax import late_position
from engine.errors import OnirimError
from solver.errors import MemoFileError
from engine.notation import format_position
from onirim.cli import main
from solver import api
from solver.expectimax import memo_file
from solver.expectimax import Expectimax

SMALL = late_position(63, 12)      # 7,369 nodes, value 0.0352
MEDIUM = late_position(63, 14)     # 2.7 M nodes, about 2 s with one thread


def rows(solver):
    """The memo's entries as a dict: key words -> (work, lo, hi)."""
    k = solver.keys[solver.keys[:, 0] != -1]
    v = k.view(np.float64)
    return {tuple(r[:4]): (int(r[4]), float(f[5]), float(f[6])) for r, f in zip(k, v)}


def snapshot(solver):
    return (solver.table_bits, zlib.crc32(solver.keys.tobytes()), solver.stored)


def partial(bits=16, nodes=2000, state=SMALL):
    s = Expectimax(bits)
    iv = s.value(state, budget_nodes=nodes)
    assert not iv.exact
    return s


def test_save_and_load_keep_every_entry(tmp_path):
    a = partial()
    path = str(tmp_path / "a.memo")
    n = a.save_memo(path)
    assert n == len(rows(a)) > 1000
    assert memo_file.verify(path)["rows"] == n
    b = Expectimax(16)
    assert b.load_memo(path) == n
    assert rows(b) == rows(a)
    # loading the same file again changes nothing (an entry meets itself: same interval)
    b.load_memo(path)
    assert rows(b) == rows(a)


def test_a_resumed_search_gives_the_same_bits_with_less_work(tmp_path):
    fresh = Expectimax(16)
    exact = fresh.value(SMALL)
    assert exact.exact
    path = str(tmp_path / "a.memo")
    partial(nodes=4000).save_memo(path)
    b = Expectimax(16)
    b.load_memo(path)
    iv = b.value(SMALL)
    assert iv.exact and (iv.lo, iv.hi) == (exact.lo, exact.hi)
    assert b.nodes < fresh.nodes - 2000


def test_a_growing_table_makes_room_and_a_small_fixed_one_stays_exact(tmp_path):
    path = str(tmp_path / "a.memo")
    a = Expectimax(20)
    a.value(MEDIUM, budget_nodes=300_000)
    n = a.save_memo(path)
    g = Expectimax(max_table_bits=24)        # starts at 2^20, grows for the file
    assert g.load_memo(path) == n
    assert g.table_bits >= 20 and (1 << g.table_bits) >= 4 * n
    assert rows(g) == rows(a)
    tiny = Expectimax(8)                     # 256 rows: most entries are dropped
    held = tiny.load_memo(path)
    got = rows(tiny)
    assert held <= 256 and held == len(got)
    full = rows(a)
    assert all(full[k] == v for k, v in got.items())
    # the survivors are the costliest entries of their windows: more work than average
    assert np.mean([w for w, _, _ in got.values()]) > np.mean([w for w, _, _ in full.values()])
    exact = Expectimax(16).value(SMALL)
    iv = tiny.value(SMALL)
    assert (iv.lo, iv.hi) == (exact.lo, exact.hi)


def test_loading_keeps_the_intersection_of_two_sound_intervals(tmp_path):
    a = partial(nodes=1500)
    first = str(tmp_path / "first.memo")
    a.save_memo(first)
    before = rows(a)
    a.value(SMALL)                              # now exact: intervals shrink
    after = rows(a)
    second = str(tmp_path / "second.memo")
    a.save_memo(second)
    c = Expectimax(16)
    c.load_memo(first)
    c.load_memo(second)
    got = rows(c)
    shrunk = 0
    for k, (w, lo, hi) in after.items():
        lo0, hi0 = before.get(k, (0, 0.0, 1.0))[1:]
        assert got[k][1:] == (max(lo, lo0), min(hi, hi0))
        assert got[k][0] == max(w, before.get(k, (0,))[0])
        shrunk += (lo, hi) != (lo0, hi0)
    assert shrunk > 100


# ------------------------------------------------------------------------- bad files
def _rewrite(path, header=None, data=None):
    """Write a memo file with the given header fields and data bytes (the CRC recomputed
    unless the header sets it)."""
    with open(path, "rb") as f:
        raw = f.read()
    off = len(memo_file.MAGIC) + memo_file.HEADER_BYTES
    h = json.loads(raw[len(memo_file.MAGIC):off])
    body = raw[off:] if data is None else data
    h["crc32"] = zlib.crc32(body)
    h.update(header or {})
    with open(path, "wb") as f:
        f.write(memo_file.MAGIC + memo_file._header_line(h) + body)


def _flip(path, offset_from_end):
    with open(path, "r+b") as f:
        f.seek(-offset_from_end, os.SEEK_END)
        b = f.read(1)
        f.seek(-offset_from_end, os.SEEK_END)
        f.write(bytes([b[0] ^ 0x10]))


def _impossible(path):
    with open(path, "rb") as f:
        raw = f.read()
    off = len(memo_file.MAGIC) + memo_file.HEADER_BYTES
    a = np.frombuffer(raw[off:], dtype="<i8").reshape(-1, 7).copy()
    a[3, 5:7] = np.array([0.75, 0.25]).view(np.int64)        # lo > hi
    _rewrite(path, data=a.tobytes())


BAD = {
    "not a memo file": (lambda p: open(p, "wb").write(b"hello\n" * 200), "not an onirim"),
    "truncated": (lambda p: os.truncate(p, os.path.getsize(p) - 10), "truncated"),
    "too long": (lambda p: open(p, "ab").write(b"\0" * 56), "too long"),
    "header cut": (lambda p: os.truncate(p, 100), "truncated"),
    "header damaged": (lambda p: _rewrite(p, header={"format": 99}), "damaged header"),
    "a data byte flipped": (lambda p: _flip(p, 1000), "CRC-32"),
    "another kernel": (lambda p: _rewrite(p, header={"fingerprint": "0" * 64}),
                       "another version"),
    "an impossible entry": (_impossible, "impossible entry"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_refused_and_changes_nothing(tmp_path, case):
    path = str(tmp_path / "bad.memo")
    partial().save_memo(path)
    spoil, words = BAD[case]
    spoil(path)
    with open(path, "rb") as f:
        content = f.read()
    s = partial(nodes=500)
    before = snapshot(s)
    with pytest.raises(MemoFileError, match=words) as e:
        s.load_memo(path)
    assert isinstance(e.value, OnirimError) and "\n" not in str(e.value)
    assert snapshot(s) == before
    with open(path, "rb") as f:
        assert f.read() == content


def test_a_file_replaced_during_a_load_cannot_slip_in_unchecked_rows(tmp_path):
    """The load checks the file, then reads it again to insert the rows: both passes read
    the same open file, so a save that replaces it in between (by renaming, as saves do)
    changes nothing in what is inserted."""
    path = str(tmp_path / "a.memo")
    a = partial()
    a.save_memo(path)
    other = str(tmp_path / "other.memo")
    with open(other, "wb") as f:
        f.write(b"not checked\n" * 100)
    got = []
    memo_file.load(path, lambda header: os.replace(other, path), got.append)
    inserted = np.concatenate(got)
    k = a.keys[a.keys[:, 0] != -1, :7]
    assert sorted(map(bytes, inserted)) == sorted(map(bytes, k))


def test_missing_and_unwritable_paths(tmp_path):
    s = partial(nodes=500)
    with pytest.raises(MemoFileError, match="cannot read"):
        s.load_memo(str(tmp_path / "nothing.memo"))
    with pytest.raises(MemoFileError, match="does not exist"):
        s.save_memo(str(tmp_path / "no" / "such" / "x.memo"))
    with pytest.raises(MemoFileError, match="folder"):
        s.save_memo(str(tmp_path))


def test_an_interrupted_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "a.memo")
    partial(nodes=500).save_memo(path)
    with open(path, "rb") as f:
        old = f.read()
    calls = []

    def crc_then_interrupt(buf, crc=0):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(memo_file.zlib, "crc32", crc_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        partial(nodes=3000).save_memo(path)
    assert calls
    with open(path, "rb") as f:
        assert f.read() == old
    assert os.listdir(tmp_path) == ["a.memo"]          # no temporary file left behind


def test_the_fingerprint_follows_the_kernel_source(tmp_path, monkeypatch):
    from solver.expectimax import kernel
    fp = memo_file.fingerprint()
    assert fp == memo_file.fingerprint() and len(fp) == 64
    copy = tmp_path / "kernel.py"
    with open(kernel.__file__, "rb") as f:
        copy.write_bytes(f.read() + b"\n# an edit\n")
    monkeypatch.setattr(kernel, "__file__", str(copy))
    assert memo_file.fingerprint() != fp


# ---------------------------------------------------------------------------- Ctrl-C
def test_ctrl_c_stops_the_search_cleanly_and_leaves_sound_entries():
    """A SIGINT while the kernel runs used to surface as a SystemError with a traceback (it
    was raised inside the kernel's clock call).  Now the search stops, KeyboardInterrupt is
    raised after it, and every entry it left is sound: the search then goes on to the exact
    value of a fresh solver, bit for bit."""
    Expectimax(10).value(SMALL)                    # compile / load the kernels first
    s = Expectimax(22)
    timer = threading.Timer(0.3, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT))
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.value(MEDIUM, budget_s=60)
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < 10
    assert 0 < s.nodes < 2_500_000                 # stopped early
    iv = s.value(MEDIUM)
    fresh = Expectimax(22).value(MEDIUM)
    assert iv.exact and (iv.lo, iv.hi) == (fresh.lo, fresh.hi)


def test_sigterm_counts_as_an_interrupt():
    with pytest.raises(KeyboardInterrupt):
        with api._TermAsInterrupt():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


# ----------------------------------------------------------------------------- the CLI
def test_cli_memo_saves_loads_and_does_not_change_values(tmp_path, capsys):
    pos = format_position(SMALL)
    path = str(tmp_path / "m.memo")
    assert main(["best", pos, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["best", pos, "--json", "--memo", path]) == 0
    first = json.loads(capsys.readouterr().out)
    n = memo_file.verify(path)["rows"]
    assert n > 1000
    assert main(["best", pos, "--memo", path]) == 0
    out = capsys.readouterr().out
    # the text is wrapped to the terminal, and a long path may be split inside a word
    assert "".join(f"{n:,} entries loaded from {path}".split()) in "".join(out.split())
    assert main(["best", pos, "--json", "--memo", path]) == 0
    again = json.loads(capsys.readouterr().out)
    for o in (first, again):
        assert o["actions"] == plain["actions"] and o["best"] == plain["best"]
    assert again["nodes"] < first["nodes"]        # the loaded entries were used


def test_cli_interrupt_saves_the_memo_and_the_same_command_resumes(tmp_path, capsys,
                                                                   monkeypatch):
    from solver.expectimax.solver import Expectimax as E
    pos = format_position(SMALL)
    path = str(tmp_path / "m.memo")
    real_rank = E.rank

    def rank_then_ctrl_c(self, state, *a, **kw):
        self.value(state, budget_nodes=3000)        # some work, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(E, "rank", rank_then_ctrl_c)
    assert main(["best", pos, "--json", "--memo", path]) == 130
    cap = capsys.readouterr()
    assert cap.out == ""
    assert cap.err.count("\n") == 1 and "memo saved to" in cap.err
    n = memo_file.verify(path)["rows"]
    assert n > 1000
    monkeypatch.setattr(E, "rank", real_rank)
    assert main(["best", pos, "--json", "--memo", path]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main(["best", pos, "--json"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert resumed["actions"] == fresh["actions"]
    assert resumed["nodes"] < fresh["nodes"]
    # without --memo, Ctrl-C is the usual one line and exit status 130
    monkeypatch.setattr(E, "rank", rank_then_ctrl_c)
    assert main(["best", pos, "--json"]) == 130
    assert capsys.readouterr().err == "onirim: interrupted\n"


@pytest.mark.parametrize("make, extra, words", [
    (lambda p: open(p, "wb").write(b"junk"), [], "not an onirim"),
    (None, ["--mode", "clairvoyant"], "only in expectimax"),
    ("folder", [], "does not exist"),
])
def test_cli_bad_memo_is_one_line_and_exit_2(tmp_path, capsys, make, extra, words):
    path = str(tmp_path / "m.memo")
    if make == "folder":
        path = str(tmp_path / "nowhere" / "m.memo")
    elif make is not None:
        make(path)
    content = open(path, "rb").read() if os.path.exists(path) else None
    assert main(["best", format_position(SMALL), "--memo", path] + extra) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.count("\n") == 1 and words in cap.err
    assert (open(path, "rb").read() if os.path.exists(path) else None) == content
