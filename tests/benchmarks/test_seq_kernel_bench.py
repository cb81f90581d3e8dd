"""benchmarks/bench_seq_kernel.py: paired settings on the same games, and bad input."""
from __future__ import annotations

import json

from benchmarks import bench_seq_kernel as B


def test_the_same_setting_twice_gives_the_same_games_and_another_differs(capsys):
    assert B.main(["--games", "4", "--key", "7", "--json", '{"n": 32}', '{"n": 32}',
                   '{"n": 32, "screen": 4, "keep": 2}']) == 0
    a, b, c = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert a["digest"] == b["digest"] and (b["won_by_it_only"], b["won_by_the_first_only"]) == (0, 0)
    assert a["wins"] - c["wins"] == c["won_by_the_first_only"] - c["won_by_it_only"]
    assert c["playouts_per_game"] != a["playouts_per_game"]     # the screen ran


def test_bad_settings_are_one_line_and_status_2(capsys):
    for argv in (['{"nope": 1}'], ["xx"], ["--base", "nope", "{}"], ["--games", "0", "{}"]):
        assert B.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(e.startswith("bench_seq_kernel:") for e in err)
