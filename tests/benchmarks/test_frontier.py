"""benchmarks.bench_frontier: the frontier table and the paired comparison of two rows."""
from benchmarks import bench_frontier as F


def _rows(wins, cpu=0.01, decisions=10):
    return {s: {"won": w, "cpu_s": cpu, "decisions": decisions, "load": 1.0,
                "run": {"commit": "x"}} for s, w in enumerate(wins)}


def test_pair_counts_only_the_deals_that_differ():
    a = _rows([1, 1, 1, 0, 0, 1, 1])
    b = _rows([1, 0, 0, 0, 1, 0], cpu=0.02)          # one deal fewer: 6 common deals
    r = F.pair({"a": a, "b": b}, "a", "b")
    assert r["common_deals"] == 6 and r["seeds"] == [0, 5]
    assert (r["won_by_a_only"], r["won_by_b_only"]) == (3, 1)
    assert abs(r["sign_z"] - 2 / 2) < 1e-12
    # exact two-sided: P(X <= 1) * 2 for X ~ Bin(4, 1/2) = 2 * 5/16
    assert abs(r["p_two_sided"] - 10 / 16) < 1e-12
    assert r["rows"]["a"]["wins"] == 4 and r["rows"]["b"]["wins"] == 2
    assert abs(r["rows"]["b"]["ms_per_decision"] - 2.0) < 1e-9
    same = F.pair({"a": a, "b": a}, "a", "b")
    assert same["won_by_a_only"] == same["won_by_b_only"] == 0 and same["p_two_sided"] == 1.0


def test_pair_of_a_missing_row_is_one_line(capsys):
    rc = F.main(["--pair", "no-such-row,greedy"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--pair" in err


def test_the_frontier_drops_a_dearer_weaker_policy():
    data = {"cheap": _rows([1, 0, 1, 0], cpu=0.001), "dear_weak": _rows([1, 0, 0, 0]),
            "dear_strong": _rows([1, 1, 1, 1], cpu=0.1)}
    rows, common = F.table(data, min_deals=1)
    front = {r["policy"]: r["frontier"] for r in rows}
    assert common == [0, 1, 2, 3]
    assert front == {"cheap": True, "dear_weak": False, "dear_strong": True}


def test_side_by_side_costs_reorder_the_frontier(tmp_path, capsys):
    # by the rows' own CPU "dear_strong" is 100 times dearer; a side-by-side run says it costs
    # only 0.5 of "cheap": then "cheap" is off the side-by-side frontier
    data = {"cheap": _rows([1, 0, 1, 0], cpu=0.001), "dear_strong": _rows([1, 1, 1, 1], cpu=0.1),
            "unmeasured": _rows([0, 0, 0, 0])}
    rows, _ = F.table(data, min_deals=1)
    F.add_cost(rows, {"policies": {"cheap": {"ratio_to_ref": 1.0},
                                   "dear_strong": {"ratio_to_ref": 0.5}}})
    by = {r["policy"]: r for r in rows}
    assert by["cheap"]["frontier"] and by["dear_strong"]["frontier"]
    assert not by["cheap"]["sbs_frontier"] and by["dear_strong"]["sbs_frontier"]
    assert by["unmeasured"]["ratio_to_ref"] is None and not by["unmeasured"]["sbs_frontier"]
    rc = F.main(["--cost", str(tmp_path / "missing.json")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--cost" in err


def test_the_frontier_table_of_the_docs_is_the_commands_output(capsys):
    """docs/POLICIES.md's frontier table is what its command prints from the stored rows
    (nothing typed by hand): rerun `python -m benchmarks.bench_frontier --min-deals 2000
    --cost benchmarks/results/cost-20261205-060222.json --markdown` and paste it after new
    rows."""
    from pathlib import Path

    from benchmarks import bench_frontier
    root = Path(__file__).resolve().parents[2]
    assert bench_frontier.main(["--min-deals", "2000", "--cost", str(
        root / "benchmarks/results/cost-20261205-060222.json"), "--markdown"]) == 0
    table = capsys.readouterr().out.strip()
    doc = (root / "docs/POLICIES.md").read_text()
    start = doc.index(table.splitlines()[0])
    assert doc[start:doc.index("\n\n", start)] == table
