"""The paper (papers/onirim): traceability of every number, the records, and the build.

The check runs without typst or matplotlib; the PDF test runs only if typst is importable.
"""
from __future__ import annotations

import copy
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import rows as rows_module
from papers import build, check
import paths

ROOT = Path(paths.ROOT)


def test_check_passes_on_the_committed_paper():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "papers.check"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "papers.check: ok" in r.stdout


def test_hand_typed_numbers_are_caught():
    text = "\n".join([
        "The greedy policy wins 12.5% of deals.",              # a number typed by hand
        "It wins #num.gp_solo_rate of #num.gp_solo_deals.",  # named values
        "ruling B3 and rulings 2 to 4, and D5.",              # references, allowed
        "// a comment may say 42",
        '#exp("certify-thirteen") and a width: 80%',
        "a count of 1,188,311 nodes",
    ])
    problems = check.hand_typed_numbers(text)
    assert len(problems) == 2, problems
    assert "'12.5%'" in problems[0] and ":1:" in problems[0]
    assert "'1,188,311'" in problems[1] and ":6:" in problems[1]


def test_undefined_names_and_experiments_are_caught():
    numbers = '#let num = (\n  gp_solo_rate: "11.0%",  // x\n)\n'
    text = '#num.gp_solo_rate #num.no_such_value #exp("honest-ladder") #exp("nowhere")'
    problems = check.undefined_names(text, numbers, {"honest-ladder": {}})
    assert len(problems) == 2, problems
    assert "no_such_value" in problems[0] and "nowhere" in problems[1]


# The rows files as read, by their bytes: each check reads every rows file (5 MB of gzipped
# JSON lines, 40 files, some twice), which was three quarters of a check's 10 s of CPU, and
# the tests below run the check 25 times on copies whose rows mostly equal the committed
# ones.  A copy with the same bytes gives the same rows (each call gets its own row dicts);
# an edited file is read again.
_ROWS_READ: dict = {}
_READ = rows_module.read


def _read_rows_once(name_or_path, directory=None):
    p = Path(name_or_path)
    if p.suffix != ".gz":
        p = rows_module.path_of(str(name_or_path), directory)
    if not p.exists():
        return _READ(p)                 # its own error
    key = hashlib.sha256(p.read_bytes()).hexdigest()
    if key not in _ROWS_READ:
        _ROWS_READ[key] = _READ(p)
    return [dict(r) for r in _ROWS_READ[key]]


def _copy_paper(tmp_path, monkeypatch):
    """A copy of the paper, the README, the result files and the rows, patched in, so that a
    test can edit any of them."""
    from benchmarks import experiments
    from benchmarks import rows
    from papers import readme, rowdata
    dst = tmp_path / "onirim"
    shutil.copytree(build.PAPER, dst, ignore=shutil.ignore_patterns("build", "*.pdf", "*.svg"))
    monkeypatch.setattr(build, "PAPER", dst)
    monkeypatch.setattr(build, "DATA", dst / "data")
    monkeypatch.setattr(build, "TABLES", dst / "tables")
    monkeypatch.setattr(build, "FIGURES", dst / "figures")
    monkeypatch.setattr(build, "SOURCE", dst / "onirim.typ")
    res = tmp_path / "results"
    shutil.copytree(build.RESULTS, res)
    monkeypatch.setattr(build, "RESULTS", res)
    monkeypatch.setattr(rowdata, "RESULTS", res)
    monkeypatch.setattr(rows, "ROWS_DIR", res / "rows")
    monkeypatch.setattr(rows, "read", _read_rows_once)
    monkeypatch.setattr(experiments, "read", _read_rows_once)
    shutil.copy(readme.README, tmp_path / "README.md")
    monkeypatch.setattr(readme, "README", tmp_path / "README.md")
    shutil.copy(readme.RESULTS_PAGE, tmp_path / "RESULTS.md")
    monkeypatch.setattr(readme, "RESULTS_PAGE", tmp_path / "RESULTS.md")
    return dst


def _edit(path: Path, old: str, new: str, count: int = 1) -> str:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))
    return text


@pytest.fixture
def paper(tmp_path, monkeypatch):
    dst = _copy_paper(tmp_path, monkeypatch)
    assert check.check() == []
    return dst


def test_check_fails_on_a_number_changed_by_hand_and_passes_again(paper):
    numbers = paper / "tables" / "numbers.typ"
    good = numbers.read_text()
    line = next(ln for ln in good.splitlines() if ln.strip().startswith("cv_deals:"))
    numbers.write_text(good.replace(line, line.replace('"', '"9', 1)))
    problems = check.check()
    assert len(problems) == 1 and "numbers.typ" in problems[0], problems
    numbers.write_text(good)
    table = paper / "tables" / "endgame.typ"
    text = table.read_text()
    row = next(ln for ln in text.splitlines() if ln.startswith('  "'))   # the first size
    cells = row.split(", ")
    cells[2] = f'"{int(cells[2].strip(chr(34))) + 1}"'                  # one more exact
    table.write_text(text.replace(row, ", ".join(cells)))
    problems = check.check()
    assert any("endgame.typ" in p for p in problems), problems
    shutil.copy(build.ROOT / "papers/onirim/tables/endgame.typ", table)
    src = paper / "onirim.typ"
    text = _edit(src, "wins #num.gp_solo_rate of solo", "wins 11.0% of solo")
    problems = check.check()
    assert len(problems) == 1 and "'11.0%'" in problems[0], problems
    src.write_text(text)
    assert check.check() == []


def test_editing_a_stored_row_fails_the_check(paper):
    """(a) A result changed in the raw rows: one greedy deal turned from a loss into a win."""
    import gzip
    from benchmarks import rows
    path = rows.path_of("greedy")
    with gzip.open(path, "rt") as f:
        lines = f.readlines()
    k = next(i for i, ln in enumerate(lines) if '"won": false' in ln)
    lines[k] = lines[k].replace('"won": false', '"won": true')
    with gzip.open(path, "wt") as f:
        f.writelines(lines)
    problems = check.check()
    assert any("numbers.typ" in p for p in problems), problems
    assert any("honest-ladder.json" in p for p in problems), problems
    assert any("RESULTS.md" in p for p in problems), problems       # greedy's row there


def test_editing_a_stored_result_file_fails_the_check(paper):
    """(a) A game count changed in a result file the paper reads (the two-player
    differential run; the rows are tested below), and a figure changed in a benchmark's
    result file."""
    res = build.RESULTS
    name = build.DUO_DIFF_SOURCE
    _edit(res / name, '"games": 4326', '"games": 4327')
    problems = check.check()
    assert any("duo-diff.json" in p for p in problems), problems
    shutil.copy(build.ROOT / "benchmarks/results" / name, res / name)
    assert check.check() == []
    _edit(res / "strategy-graph-20261130-010956.json", '"seed": 56', '"seed": 57')
    assert any("strategy-graph.json" in p for p in check.check())


def test_swapping_two_named_values_in_the_text_fails_the_check(paper):
    """(b) #num.ladder_best_lo for _hi and back: the pair is out of order."""
    src = paper / "onirim.typ"
    text = src.read_text()
    src.write_text(text.replace("#num.ladder_best_lo to #num.ladder_best_hi",
                                "#num.ladder_best_hi to #num.ladder_best_lo", 1))
    problems = check.check()
    assert any("ladder_best_hi must follow" in p or "ladder_best_lo must be followed" in p
               for p in problems), problems
    # the rendered order is checked too: a point value outside its interval
    assert check.misordered("#num.a (#num.b to #num.c)", {"a": "9.0%", "b": "1.0%",
                                                           "c": "2.0%"})
    assert check.misordered("[#num.b, #num.c]", {"b": "3.0%", "c": "2.0%"})
    assert not check.misordered("#num.a (#num.b to #num.c)", {"a": "1.5%", "b": "1.0%",
                                                               "c": "2.0%"})


def test_editing_a_generated_record_fails_the_check(paper):
    """(c) A generated record (computed from rows) edited by hand."""
    rec = paper / "data" / "honest-ladder.json"
    _edit(rec, '"wins": ', '"wins": 1')
    problems = check.check()
    assert any("honest-ladder.json" in p for p in problems), problems
    rec2 = paper / "data" / "clairvoyant-winrate.json"
    shutil.copy(build.ROOT / "papers/onirim/data/honest-ladder.json", rec)
    _edit(rec2, '"losses": 0', '"losses": 1')
    assert any("clairvoyant-winrate.json" in p for p in check.check())


def test_a_number_written_as_a_word_fails_the_check(paper):
    """(d) A named value replaced by words, in the paper and in the README."""
    src = paper / "onirim.typ"
    text = _edit(src, "wins #num.cv_wins of the first #num.cv_deals deals*",
                 "wins every one of the first hundred thousand deals*")
    problems = check.check()
    assert any("number written as a word" in p and "hundred" in p for p in problems), problems
    src.write_text(text)
    from papers import readme
    _edit(readme.README, "An honest policy decides from", "Twice in three games, an honest "
          "policy decides from")
    problems = check.check()
    assert any("README.md" in p and "Twice" in p for p in problems), problems


def test_readme_numbers_outside_blocks_or_changed_fail_the_check(paper):
    from papers import readme
    text = _edit(readme.README, "An honest policy decides from", "An honest policy (66.85%) "
                 "decides from")
    problems = check.check()
    assert any("README.md" in p and "66.85%" in p for p in problems), problems
    readme.README.write_text(text)
    m = readme.BLOCK.search(text)
    body = m.group(2)
    digit = next(ch for ch in body if ch.isdigit())
    readme.README.write_text(text.replace(body, body.replace(digit, str((int(digit) + 1) % 10),
                                                             1)))
    assert any("README.md" in p for p in check.check())


def test_results_page_numbers_outside_blocks_or_changed_fail_the_check(paper):
    """docs/RESULTS.md is generated and checked like the README's blocks: a figure typed
    outside a block, or a figure changed inside one, fails the check."""
    from papers import readme
    text = _edit(readme.RESULTS_PAGE, "Honest policies, sorted by win rate.",
                 "Honest policies (the best wins 91.5%), sorted by win rate.")
    problems = check.check()
    assert any("RESULTS.md" in p and "91.5%" in p for p in problems), problems
    readme.RESULTS_PAGE.write_text(text)
    assert check.check() == []
    readme.RESULTS_PAGE.write_text(text.replace("| 88.95% [87.50, 90.25] |",
                                                "| 89.95% [87.50, 90.25] |"))
    assert any("RESULTS.md" in p for p in check.check())


def test_a_record_written_by_hand_needs_a_reason(paper):
    (paper / "data" / "greedy-by-hand.json").write_text(
        '{"name": "greedy-by-hand", "title": "t", "source": "README", "command": null, '
        '"commit": null, "machine": null, "date": null, "status": "final"}\n')
    problems = check.check()
    assert any("greedy-by-hand" in p for p in problems), problems


def test_pending_figures_are_computed_from_the_files(paper, monkeypatch):
    """A row whose rows file is absent is pending (marked, listed); a stored one is not."""
    from benchmarks import rows
    recs = build.load_records()
    pend = {r["policy"] for r in recs["honest-ladder"]["rows"] if r["pending"]}
    for r in recs["honest-ladder"]["rows"]:
        assert r["pending"] == (not rows.path_of(
            next(x[1] for x in build.rowdata.LADDER if x[0] == r["policy"])).exists())
    (rows.path_of("greedy")).unlink()
    recs2 = {**recs, "honest-ladder": build.rowdata.ladder_record(build.REGRET_SOURCES)}
    now = {r["policy"] for r in recs2["honest-ladder"]["rows"] if r["pending"]}
    assert now == pend | {"greedy"}
    vals = build.numbers_values(recs2)
    assert vals["gp_solo_wins"][0].endswith(build.PENDING_MARK)
    assert "gp_solo_wins" in build.pending_values(recs2)
    assert any("honest-ladder.json" in p for p in check.check())


def test_make_paper_checks_before_it_builds():
    text = (ROOT / "Makefile").read_text()
    recipe = text[text.index("\npaper:"):]
    recipe = recipe[: recipe.index("\n\n")] if "\n\n" in recipe else recipe
    assert recipe.index("papers.check") < recipe.index("papers.build")


def test_records_have_the_required_fields():
    recs = build.load_records()
    assert build.validate_records(recs) == []
    for name in build.EXTRACTED:
        assert recs[name]["extracted_by"] in ("papers/build.py", "papers/rowdata.py")
    hand = [n for n in recs if n not in build.EXTRACTED]
    assert set(hand) <= set(build.HAND_RECORDS)


def test_ladder_rows_carry_their_provenance_and_cpu_time():
    recs = build.load_records()
    need = {"policy", "config", "deals", "seed_first", "wins", "decisions", "clock", "cpu_s",
            "wall_s", "regret", "command", "source", "commit", "machine", "date", "pending"}
    for name in ("honest-ladder", "duo-honest-ladder"):
        for r in recs[name]["rows"]:
            want = need if name == "honest-ladder" else need - {"regret"}
            assert want <= set(r), want - set(r)
            assert 0 <= r["wins"] <= r["deals"]
            assert (r["clock"] == "cpu") == (not r["pending"])
            if not r["pending"]:
                assert r["source"].startswith("benchmarks/results/rows/")
                assert r["policy_seed"] is not None and r["cpu_s"] > 0


def test_every_time_in_the_tables_names_its_cpu_model():
    """Rows measured on different CPU models sit in one table: each time names its model, read
    from the row's runs (papers/records.cpu_label), in the README's and the results page's
    tables."""
    from papers import readme
    from papers.records import cpu_label, cpu_short
    assert cpu_short("Intel(R) Xeon(R) Processor") == "Intel Xeon"
    assert cpu_short("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz") == "Intel Core i7-8700"
    assert cpu_label({"cpus": ["AMD EPYC", "Intel(R) Xeon(R) Processor"]}) == \
        "AMD EPYC + Intel Xeon"
    assert cpu_label({"machine": {"cpu": "AMD EPYC"}}) == "AMD EPYC"
    assert cpu_label({}) == "not recorded"
    recs = build.load_records()
    duo = readme.block_duo(recs).splitlines()
    rows = recs["duo-honest-ladder"]["rows"]
    for r in rows:
        if not r["pending"]:
            assert r["cpus"] == [r["machine"]["cpu"]] or len(r["cpus"]) > 1
        line = next(x for x in duo if f"`{readme.experiment_of(r)}`," in x)
        assert f"| {cpu_label(r)} |" in line, line
    full = readme.block_ladder_full(recs)
    for r in recs["honest-ladder"]["rows"]:
        line = next(x for x in full.splitlines() if x.startswith(f"| `{readme.experiment_of(r)}`"))
        assert f"| {cpu_label(r)} |" in line, line


def test_example_game_lines_replay_in_the_engine():
    ex = build.example_lines(build.load_records())
    assert ex["clairvoyant_won"]
    cv = ex["clairvoyant"]
    assert cv[-1][1] == 8 and all(0 <= p[1] <= 8 for p in cv)
    assert len(ex["greedy"]) == len(ex["greedy_line"]) + 1


def test_pdf_builds():
    typst = pytest.importorskip("typst")
    pdf = typst.compile(str(build.SOURCE), root=str(build.PAPER), ignore_system_fonts=True)
    assert pdf[:5] == b"%PDF-"
    pages = typst.compile(str(build.SOURCE), root=str(build.PAPER), format="png", ppi=8)
    assert isinstance(pages, list) and len(pages) >= 6
