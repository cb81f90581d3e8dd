"""`onirim bench`'s text table fits an 80-column terminal; `--json` stays whole (issue 27,
item 14).  The table is built from a result with long notes and errors, as a failed or a
full run gives them."""
from __future__ import annotations

import json

from benchmarks import bench_all as B


def _result():
    long_error = ("ModuleNotFoundError: No module named 'benchmarks.bench_expectimax' "
                  "(the section could not start; every figure of it is null)")
    r = {k: 12345.678 for k in B.PLAYOUT_KEYS}
    r.update({"quick": True, "seconds": 61.2,
              "machine": {"cpu": "AMD EPYC 7B13 64-Core Processor", "cores": 2,
                          "python": "3.11.7", "numba": "0.68.1", "commit": "8030d36"},
              "kernel_compile_seconds": 1.25, "honest_compile_seconds": 0.75,
              "playouts": {"honest_greedy": {"playouts_per_cpu_s": 526486.0}},
              "clairvoyant_deals": {"deals": 4, "results": {"WIN": 4}},
              "clairvoyant_deal_seconds": {"median": 0.03, "p90": 0.08, "p99": 0.2,
                                           "max": 0.4},
              "clairvoyant_deal_seconds_clock": "cpu",
              "expectimax_size_vs_time": [
                  {"size": 6, "seconds": 0.01, "max_seconds": 0.02, "positions": 2,
                   "solved": 2},
                  {"size": 9, "seconds": 0.4, "max_seconds": 5.0, "positions": 2,
                   "solved": 1}],
              "errors": {k: long_error for k in B.EXPECTIMAX_KEYS}})
    for k in B.EXPECTIMAX_KEYS:
        r[k] = None
    return r


def test_the_table_fits_80_columns_and_keeps_every_word():
    r = _result()
    table = B.format_table(r)
    lines = table.splitlines()
    assert max(len(x) for x in lines) <= 80, max(lines, key=len)
    words = " ".join(table.split())
    for figure, value, note in B.table_rows(r):
        assert figure in table
        assert " ".join(str(value).split()) in words
        assert " ".join(note.split()) in words, note
    assert "AMD EPYC 7B13 64-Core Processor" in words and "commit 8030d36" in words


def test_json_stays_whole(tmp_path, capsys):
    r = _result()
    B.finish(r, str(tmp_path), True, plots=False)
    out = capsys.readouterr().out
    assert json.loads(out) == json.loads(json.dumps(r))
