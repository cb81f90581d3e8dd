"""benchmarks/bench_playouts.py: its digests are what its A/B comparison trusts, so they must
be the same for the same work and change when the work changes."""
import json
from types import SimpleNamespace

import pytest

from benchmarks import bench_playouts as BP


def _run(games, k, deals=(7000, 7002)):
    return BP.cmd_run(SimpleNamespace(games=games, k=k, deals=list(deals)))


def test_the_same_work_gives_the_same_digests_and_other_work_others():
    a, b = _run(300, 3), _run(300, 3)
    for part in ("greedy-keep-doors", "learned-base"):
        assert a["base_games"][part]["digest"] == b["base_games"][part]["digest"]
        assert 0 < a["base_games"][part]["wins"] < 300
    assert a["decisions"]["digest"] == b["decisions"]["digest"]
    assert a["decisions"]["decisions"] == 6
    # more games or other decisions: other digests (the digest sees the outcomes)
    c = _run(301, 2)
    assert c["base_games"]["learned-base"]["digest"] != a["base_games"]["learned-base"]["digest"]
    assert c["decisions"]["digest"] != a["decisions"]["digest"]


def test_the_command_prints_one_json_line(capsys):
    assert BP.main(["run", "--games", "200", "--k", "0"]) == 0
    r = json.loads(capsys.readouterr().out.strip())
    assert set(r["base_games"]) == {"greedy-keep-doors", "learned-base"} and "decisions" not in r


@pytest.mark.slow
def test_ab_of_one_tree_with_itself_is_identical(capsys):
    args = SimpleNamespace(a=".", b=".", pairs=1, games=200, k=1, deals=[7000, 7001])
    assert BP.cmd_ab(args) == 0


def test_a_pair_without_measurable_cpu_has_no_ratio_and_the_median_skips_it():
    """A small run can take less CPU than the clock resolves: that pair's ratio is unknown
    (None), not a division by zero, and the median is over the other pairs."""
    assert BP.cpu_ratios([0.002, 0.001, 0.003], [0.001, 0.0, 0.003]) == ([2.0, None, 1.0], 1.5)
    assert BP.cpu_ratios([0.001], [0.0]) == ([None], None)
