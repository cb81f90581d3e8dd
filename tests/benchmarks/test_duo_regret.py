"""The open game's regret benchmark (benchmarks/bench_duo_regret.py): its selection rule on a
few deals, and a run on two positions under small budgets (docs/DUO_EXPECTIMAX.md section 8)."""
from __future__ import annotations

import json
import os

import pytest

from benchmarks import bench_duo_regret as D
from benchmarks import bench_regret as solo
from engine.notation import format_position

# two fixture deals whose exact ranking takes a few thousand nodes at most, each with actions
# of different values: 300027 (a Nightmare, 6 unknown cards) and 300053 (5 unknown cards)
QUICK = (300027, 300053)


@pytest.fixture(scope="module")
def fixture_rows():
    return solo.read_fixture(D.FIXTURE)


def test_select_on_two_deals_is_the_fixtures_rule(fixture_rows):
    rows, end = D.select_positions(2, 300027, 5, 7, max_deals=2)
    assert end == 300029 and len(rows) == 2
    by_seed = {s: (i, u, t) for s, i, u, t in fixture_rows}
    for seed, i, u, view in rows:
        assert 5 <= u <= 7 and len(view.legal_actions()) >= 2
        text = format_position(view)
        assert by_seed[seed] == (i, u, text)          # the committed fixture's line
        back = D.open_view(text)                     # best --talk open reads the same view
        assert format_position(back) == text and back.legal_actions() == view.legal_actions()
        assert back.hidden == 0
    assert len({s for s, _, _, _ in rows}) == len(rows)


def test_fixture_is_one_position_per_deal_in_range(fixture_rows):
    seeds = [s for s, _, _, _ in fixture_rows]
    assert seeds == sorted(set(seeds)) and seeds[0] >= 300_000
    assert all(5 <= u <= 7 for _, _, u, _ in fixture_rows)


def test_run_on_two_positions(tmp_path, fixture_rows):
    lines = [r for r in fixture_rows if r[0] in QUICK]
    assert len(lines) == 2
    pos = tmp_path / "positions.txt"
    solo.write_fixture([(s, i, u, D.open_view(t)) for s, i, u, t in lines], str(pos), "test")
    out = tmp_path / "out"
    argv = ["run", "--positions-file", str(pos), "--out", str(out), "--cap-nodes", "200000",
            "--table-bits", "16", "--best-nodes", "2000", "--policy", "duo-krollout",
            "--quiet"]
    assert D.main(argv) == 0
    cache = os.path.join(out, D.CACHE_NAME)
    rows = [json.loads(x) for x in open(cache)]
    assert len(rows) == 2 and all(r["exact"] for r in rows)
    (result,) = [json.load(open(out / f)) for f in os.listdir(out) if f.endswith(".json")]
    assert result["exact"] == 2 and result["contested"] == 2
    best = result["choices"]["best --budget-nodes 2000"]
    assert [r["seed"] for r in best["rows"]] == list(QUICK)
    for r in best["rows"]:
        # best proves its answer at these positions: its regret is then 0
        assert r["how"] == "best" and r["regret"] == 0.0
    assert best["all"]["mean"] == 0.0 and best["zero_regret"] == 2
    # a deliberately wrong choice: the worst action of each position
    gaps = [max(a["lo"] for a in r["actions"]) - min(a["lo"] for a in r["actions"])
            for r in rows]
    wrong = D.score("worst", lambda r: {"action": min(r["actions"], key=lambda a: a["lo"])["id"],
                                        "name": "worst", "how": "test", "cpu": 0.0,
                                        "wall": 0.0}, rows, [])
    assert min(gaps) > 0 and wrong["zero_regret"] == 0
    assert abs(wrong["all"]["mean"] - sum(gaps) / 2) <= 1e-12
    # resumed: nothing is solved again
    assert D.main(argv + ["--resume"]) == 0
    assert len(open(cache).read().splitlines()) == 2


def test_bad_arguments_exit_2(capsys):
    for argv in (["run", "--cap-nodes", "0"], ["run", "--shard", "2/2"],
                 ["select", "--positions", "0"]):
        with pytest.raises(SystemExit) as e:
            D.main(argv)
        assert e.value.code == 2
