"""The raw rows (benchmarks/rows.py) and the experiments that write them
(benchmarks/experiments.py): format, resume after a cut, and what each row carries."""
import gzip
import math

import pytest

from benchmarks import experiments
from benchmarks import rows as rows_mod


def _writer(tmp_path, run=None):
    return rows_mod.RowWriter("t", run or {"command": "c", "commit": "abc", "clean_tree": True,
                                    "machine": {}, "params": {}}, tmp_path)


def test_rows_carry_their_run_and_a_resumed_run_appends(tmp_path):
    with _writer(tmp_path) as w:
        for s in range(3):
            w.add({"seed": s, "won": s == 1, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    with _writer(tmp_path, {"command": "c2", "commit": "def", "clean_tree": False,
                            "machine": {}, "params": {}}) as w:
        assert w.done == {0, 1, 2}
        w.add({"seed": 3, "won": False, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    rows = rows_mod.read(rows_mod.path_of("t", tmp_path))
    assert [r["seed"] for r in rows] == [0, 1, 2, 3]
    assert [r["run"]["commit"] for r in rows] == ["abc"] * 3 + ["def"]
    assert rows[0]["run"]["command"] == "c" and rows[3]["run"]["run"] == 2


def test_a_file_cut_mid_write_keeps_its_complete_rows_and_resumes(tmp_path):
    w = _writer(tmp_path)
    for s in range(50):
        w.add({"seed": s, "won": True, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    w._f.flush()
    path = rows_mod.path_of("t", tmp_path)
    data = path.read_bytes()           # as if killed: no gzip trailer
    w._f = None
    path.write_bytes(data[:-3])
    runs, rows = rows_mod.read_lines(path)
    assert 40 <= len(rows) <= 50 and [r["seed"] for r in rows] == list(range(len(rows)))
    with _writer(tmp_path) as w2:
        assert w2.done == set(range(len(rows)))
        w2.add({"seed": 99, "won": False, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    with gzip.open(path, "rt") as f:           # whole again
        assert sum(1 for _ in f) == 1 + len(rows) + 2     # two run lines, the rows
    assert rows_mod.read(path)[-1]["seed"] == 99


def test_repair_makes_a_cut_file_whole_with_the_same_lines(tmp_path):
    w = _writer(tmp_path)
    for s in range(30):
        w.add({"seed": s, "won": s % 2 == 0, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    w._f.flush()
    path = rows_mod.path_of("t", tmp_path)
    data = path.read_bytes()           # as if committed while the run was still writing
    w._f = None
    path.write_bytes(data)
    assert not rows_mod.whole(path)
    before = rows_mod.read(path)
    assert rows_mod.repair(path) is True and rows_mod.whole(path)
    assert rows_mod.read(path) == before and len(before) == 30
    assert rows_mod.repair(path) is False     # a whole file is left as it is
    assert rows_mod.main(["repair", "no-such-experiment"]) == 2


def test_every_committed_row_file_is_a_complete_gzip_stream():
    """A file committed while its run was still writing reads correctly here but not with
    other tools: ``python -m benchmarks.rows repair`` before committing.  Files with
    uncommitted changes (a run writing now) are not checked."""
    import subprocess
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--", str(rows_mod.ROWS_DIR)],
                               cwd=rows_mod.ROOT, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("git is not available")
    changed = {line[3:].strip().rsplit("/", 1)[-1] for line in dirty.splitlines()}
    cut = [p.name for p in sorted(rows_mod.ROWS_DIR.glob("*" + rows_mod.SUFFIX))
           if p.name not in changed and not rows_mod.whole(p)]
    assert cut == [], f"cut mid-write (python -m benchmarks.rows repair): {cut}"


def test_a_seed_stored_twice_with_other_results_is_refused(tmp_path):
    with _writer(tmp_path) as w:
        w.add({"seed": 1, "won": True, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
        w.add({"seed": 1, "won": False, "cpu_s": 0.1, "wall_s": 0.2, "load": 1.0})
    with pytest.raises(ValueError, match="seed 1"):
        rows_mod.by_seed(rows_mod.read(rows_mod.path_of("t", tmp_path)))


def test_an_experiment_writes_one_row_per_deal_and_resumes(tmp_path):
    assert experiments.run("greedy", deals=3, directory=tmp_path, quiet=True) == 3
    assert experiments.run("greedy", deals=5, directory=tmp_path, quiet=True) == 2
    assert experiments.run("greedy", deals=5, directory=tmp_path, quiet=True) == 0
    rows = rows_mod.read(rows_mod.path_of("greedy", tmp_path))
    assert [r["seed"] for r in rows] == [0, 1, 2, 3, 4]
    for r in rows:
        assert {"won", "doors", "decisions", "cpu_s", "wall_s", "load"} <= set(r)
        assert r["cpu_s"] > 0 and r["wall_s"] > 0
        run = r["run"]
        assert run["params"]["policy"] == "greedy" and run["params"]["policy_seed"] == 1
        assert run["command"].startswith("python -m benchmarks.experiments run greedy")
        assert run["commit"] and "cpu" in run["machine"]
    # the same games as onirim winrate's worker plays
    from solver.api import make_policy
    from solver.honest import play_honest
    g = play_honest(make_policy("greedy"), 4)
    assert (g.won, g.doors, g.decisions) == (rows[4]["won"], rows[4]["doors"],
                                             rows[4]["decisions"])


def test_every_ladder_row_of_the_paper_has_an_experiment():
    from papers import rowdata
    names = {e for _, e, *_ in rowdata.LADDER} | {e for _, e, _ in rowdata.DUO_LADDER}
    assert names | {"clairvoyant", "diff-kernel"} <= set(experiments.EXPERIMENTS)


def test_shards_played_apart_merge_into_the_rows_of_one_run(tmp_path):
    """Two shards (seeds 0 and 1 modulo 2) in two directories, merged: the same seeds and
    results as one unsharded run, each shard's header kept; the same shard merged again adds
    nothing, and a seed of another run stored already is refused, the file as it was."""
    a, b, one = tmp_path / "a", tmp_path / "b", tmp_path / "one"
    assert experiments.run("greedy", deals=5, directory=a, quiet=True, shard=(0, 2)) == 3
    assert experiments.run("greedy", deals=5, directory=b, quiet=True, shard=(1, 2)) == 2
    assert experiments.run("greedy", deals=5, directory=one, quiet=True) == 5
    ra = rows_mod.read(rows_mod.path_of("greedy", a))
    assert [r["seed"] for r in ra] == [0, 2, 4]
    assert ra[0]["run"]["command"].endswith("--deals 5 --shard 0/2")
    dest = rows_mod.path_of("greedy", tmp_path / "m")
    assert rows_mod.merge(dest, rows_mod.path_of("greedy", a), rows_mod.path_of("greedy", b)) == 5
    merged = rows_mod.by_seed(rows_mod.read(dest))
    ref = rows_mod.by_seed(rows_mod.read(rows_mod.path_of("greedy", one)))
    assert sorted(merged) == [0, 1, 2, 3, 4]
    for s in ref:
        assert (merged[s]["won"], merged[s]["doors"], merged[s]["decisions"]) == \
            (ref[s]["won"], ref[s]["doors"], ref[s]["decisions"])
    assert {merged[s]["run"]["run"] for s in merged} == {1, 2}
    assert merged[1]["run"]["command"].endswith("--shard 1/2")
    before = dest.read_bytes()
    assert rows_mod.merge(dest, rows_mod.path_of("greedy", b)) == 0       # the same run again: nothing
    assert dest.read_bytes() == before
    with pytest.raises(ValueError, match="stored already"):  # the same seeds, another run
        rows_mod.merge(dest, rows_mod.path_of("greedy", one))
    assert dest.read_bytes() == before
    assert rows_mod.main(["merge", str(dest), str(rows_mod.path_of("greedy", one))]) == 2


def test_shards_resumed_from_stored_rows_merge_only_their_new_rows(tmp_path):
    """Shards played in copies of a tree that already held some rows carry those rows' run:
    the merge skips it (the same header and rows as the destination's) and adds only the
    shards' new rows; a carried run whose rows differ is refused, the file unchanged."""
    import shutil
    m, a, b = tmp_path / "m", tmp_path / "a", tmp_path / "b"
    assert experiments.run("greedy", deals=3, directory=m, quiet=True) == 3
    dest = rows_mod.path_of("greedy", m)
    for d in (a, b):
        d.mkdir()
        shutil.copy(dest, rows_mod.path_of("greedy", d))
    assert experiments.run("greedy", deals=7, directory=a, quiet=True, shard=(0, 2)) == 2   # 4, 6
    assert experiments.run("greedy", deals=7, directory=b, quiet=True, shard=(1, 2)) == 2   # 3, 5
    assert rows_mod.merge(dest, rows_mod.path_of("greedy", a), rows_mod.path_of("greedy", b)) == 4
    merged = rows_mod.by_seed(rows_mod.read(dest))
    assert sorted(merged) == list(range(7))
    assert {merged[s]["run"]["run"] for s in merged} == {1, 2, 3}
    # a copy whose carried run was altered is not the destination's run: refused
    runs, rows = rows_mod.read_lines(rows_mod.path_of("greedy", a))
    rows[0] = {**rows[0], "won": not rows[0]["won"]}
    rows_mod._rewrite(rows_mod.path_of("greedy", a), runs, rows)
    before = dest.read_bytes()
    with pytest.raises(ValueError, match="stored already"):
        rows_mod.merge(dest, rows_mod.path_of("greedy", a))
    assert dest.read_bytes() == before


@pytest.mark.parametrize("bad", ["2/2", "x", "1/0", "1", "=-1/2"])
def test_a_bad_shard_is_one_line_and_status_2(bad, capsys):
    argv = ["run", "greedy", "--shard" + bad] if bad.startswith("=") else \
        ["run", "greedy", "--shard", bad]
    assert experiments.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--shard" in err[0]
    assert experiments.parse_shard("1/3") == (1, 3)


def test_check_replays_stored_deals_and_finds_a_row_that_differs(tmp_path, capsys):
    """`experiments check` replays stored seeds with this tree's code: rows it just wrote
    agree; a row whose result was changed is reported, with exit status 1 from the CLI."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert experiments.run("greedy", deals=4, directory=a, quiet=True) == 4
    r = experiments.check("greedy", deals=4, directory=a, say=lambda _m: None)
    assert (r["checked"], r["same"], r["differ"]) == (4, 4, [])
    stored = rows_mod.read("greedy", a)
    with rows_mod.RowWriter("greedy", dict(stored[0]["run"]), b) as w:
        for row in stored:
            row = {k: v for k, v in row.items() if k != "run"}
            if row["seed"] == 2:
                row["doors"] = (row["doors"] + 1) % 9
                row["won"] = row["doors"] == 8
            w.add(row)
    r = experiments.check("greedy", deals=4, every=2, directory=b, say=lambda _m: None)
    assert r["checked"] == 2 and r["same"] == 1 and [d[0] for d in r["differ"]] == [2]


def test_check_of_an_experiment_without_rows_is_one_line_and_status_2(tmp_path, capsys,
                                                                       monkeypatch):
    monkeypatch.setattr(rows_mod, "ROWS_DIR", tmp_path)
    assert experiments.main(["check", "greedy", "--deals", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no rows stored" in err[0]
    assert experiments.main(["check", "greedy", "--deals", "0"]) == 2


def test_compare_pairs_two_experiments_deal_by_deal(tmp_path, capsys, monkeypatch):
    """`experiments compare A B`: the seeds both stored, each one's wins, the deals only one
    of them won, and the paired difference's standard error, counted by hand here."""
    run = {"command": "c", "commit": "abc", "clean_tree": True, "machine": {}, "params": {}}
    won_a = [True, True, False, False, True, False]
    won_b = [True, False, True, True, True]            # seed 5 not stored for b
    for name, won in (("greedy", won_a), ("duo-greedy", won_b)):
        with rows_mod.RowWriter(name, dict(run), tmp_path) as w:
            for s, x in enumerate(won):
                w.add({"seed": s, "won": x, "decisions": 10, "cpu_s": 0.01 * (1 + s),
                       "wall_s": 0.1, "load": 1.0})
    r = experiments.compare("greedy", "duo-greedy", directory=tmp_path)
    assert (r["deals"], r["wins_a"], r["wins_b"], r["gained"], r["lost"]) == (5, 3, 4, 2, 1)
    # d = 0, -1, +1, +1, 0: mean 0.2, mean of squares 0.6
    assert r["diff"] == pytest.approx(0.2) and r["se"] == pytest.approx((0.56 / 5) ** 0.5)
    # seeds 0-4 both: CPU 0.15 s over 50 decisions each, 3 ms per decision
    assert r["ms_a"] == pytest.approx(3.0) and r["ms_b"] == pytest.approx(3.0)
    monkeypatch.setattr(rows_mod, "ROWS_DIR", tmp_path)
    assert experiments.main(["compare", "greedy", "duo-greedy"]) == 0
    out = capsys.readouterr().out
    assert "5 deals stored by both" in out and "+20.00 points" in out
    assert experiments.main(["compare", "greedy", "duo-k8"]) == 2      # nothing stored
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no rows stored" in err[0]


def _store(tmp_path, name, won):
    run = {"command": "c", "commit": "abc", "clean_tree": True, "machine": {}, "params": {}}
    with rows_mod.RowWriter(name, dict(run), tmp_path) as w:
        for s, x in enumerate(won):
            w.add({"seed": s, "won": bool(x), "decisions": 10, "cpu_s": 0.01, "wall_s": 0.1,
                   "load": 1.0})


def test_spread_of_seeds_counted_by_hand(tmp_path, capsys, monkeypatch):
    """`experiments spread A B ...`: the rates, their sample variance, and the variance that
    independent deals would give (sum of k/(k-1) p(1-p) over the deals, over n^2), counted by
    hand on three experiments of four deals."""
    names = ("greedy", "duo-greedy", "duo-k8")
    table = ([1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0])     # rates 0.5, 0.25, 0.75
    for name, won in zip(names, table):
        _store(tmp_path, name, won)
    r = experiments.spread(list(names), directory=tmp_path)
    assert r["deals"] == 4 and r["wins"] == [2, 1, 3]
    assert r["observed_sd"] == pytest.approx(0.25)              # variance 0.0625
    # deals: p = 1, 2/3, 1/3, 0; k/(k-1) p(1-p) = 0, 1/3, 1/3, 0; over 16: 1/24
    assert r["expected_sd"] ** 2 == pytest.approx(1 / 24)
    assert r["ratio"] == pytest.approx(1.5)
    assert r["p_value"] == pytest.approx(math.exp(-1.5))       # chi-square, 2 df: exp(-x/2)
    monkeypatch.setattr(rows_mod, "ROWS_DIR", tmp_path)
    assert experiments.main(["spread", *names]) == 0
    assert "variance ratio 1.50" in capsys.readouterr().out
    _store(tmp_path, "duo-k32", table[0])       # the same deals as greedy, deal by deal
    same = experiments.spread(["greedy", "duo-k32"], directory=tmp_path)
    assert same["observed_sd"] == same["expected_sd"] == 0.0
    assert same["ratio"] is None and same["p_value"] is None
    assert experiments.main(["spread", "greedy", "duo-k32"]) == 0
    assert "no ratio" in capsys.readouterr().out
    assert experiments.main(["spread", "greedy"]) == 2
    assert experiments.main(["spread", "greedy", "duo-k128"]) == 2  # nothing stored
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("experiments: error:") for line in err)


def test_spread_tells_a_shared_seed_effect_from_independent_deals(tmp_path):
    """Eight 'seeds' over 3,000 deals: drawn independently deal by deal, the variance ratio
    is near 1 and not significant; with each seed's own shift of every deal's chance (a
    stream shared by all deals), it is far above 1."""
    import random
    rnd = random.Random(5)
    p = [rnd.random() for _ in range(3000)]
    names = ["greedy", "duo-greedy", "duo-k8", "duo-k32", "duo-k128", "duo-k512",
             "duo-k2048", "duo-plus2"]
    for name in names:
        _store(tmp_path / "ind", name, [rnd.random() < q for q in p])
    for name in names:
        shift = rnd.choice((-0.06, 0.06))
        _store(tmp_path / "shared", name, [rnd.random() < min(1.0, max(0.0, q + shift))
                                           for q in p])
    ind = experiments.spread(names, directory=tmp_path / "ind")
    shared = experiments.spread(names, directory=tmp_path / "shared")
    assert 0.3 < ind["ratio"] < 2.5 and ind["p_value"] > 0.01
    assert shared["ratio"] > 5 and shared["p_value"] < 1e-3
