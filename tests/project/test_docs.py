"""The docs stand alone and read as a front page plus a reference:

* the README is a front page: at most 220 lines, what the package is in its first lines, the
  two commands (``make demo``, ``make test``) in its first 30 lines, no line over 400
  characters, at most 6 commit hashes, and a map of every page of docs/;
* every reference page of docs/ opens with what it is for and stays under 800 lines; lab
  notes live in docs/notes/, dated in their name and labelled as notes;
* docs/RESULTS.md holds the full ladder: every stored solo and two-player experiment;
* a clone can follow every page: no issue numbers and no citation of the contract file that
  only the developers have, in the README and in docs/ (notes included), and at most 10 such
  citations in the code's comments and docstrings across the tree;
* no figure of the benchmark run of commit 93efaa6 is left.
"""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from paths import ROOT

ROOT = Path(ROOT)
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# The contract's name, spelled so that this file does not count itself.
CONTRACT = re.compile(r"\b" + "SP" + r"EC\b")
ISSUE = re.compile(r"\bissues? #?\d+|\(#\d+\)", re.I)
HASH = re.compile(r"(?<![\w/.-])[0-9a-f]{7,40}(?![\w/-])")
CODE_FOLDERS = ("engine", "solver", "onirim", "benchmarks", "tests", "papers")


def reference_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def note_pages() -> list[Path]:
    return sorted((DOCS / "notes").glob("*.md"))


def commit_hashes(text: str) -> set[str]:
    """Distinct words that look like commit hashes: 7 to 40 hex digits with at least one
    digit and one letter (so neither ``1000000`` nor ``decade`` counts)."""
    return {h for h in HASH.findall(text) if re.search(r"\d", h) and re.search(r"[a-f]", h)}


def long_lines(text: str, limit: int = 400) -> list[int]:
    return [no for no, line in enumerate(text.splitlines(), 1) if len(line) > limit]


def opens_with_purpose(text: str) -> bool:
    """A title, then prose (not a heading, a table, a list or code) before any section."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        return False
    body = [ln for ln in lines[1:] if ln.strip()]
    return bool(body) and not body[0].startswith(("#", "|", "```", "* ", "- "))


def comment_citations(source: str) -> int:
    """Citations of the contract file in comments and strings (docstrings) of one module."""
    n = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                n += len(CONTRACT.findall(tok.string))
    except (tokenize.TokenError, IndentationError):
        n += len(CONTRACT.findall(source))
    return n


# ------------------------------------------------------------------------------ README
def test_readme_is_a_front_page():
    text = README.read_text()
    lines = text.splitlines()
    assert len(lines) <= 220, len(lines)
    first = " ".join(lines[:8])
    assert "Onirim" in first and "research package" in first, lines[:8]
    head = "\n".join(lines[:30])
    assert "make demo" in head and "make test" in head
    assert not long_lines(text), long_lines(text)
    hashes = commit_hashes(text)
    assert len(hashes) <= 6, sorted(hashes)


def test_readme_maps_every_docs_page():
    text = README.read_text()
    pages = [p.name for p in reference_pages()] + ["WEB.md"]
    missing = [p for p in pages if f"docs/{p}" not in text]
    assert not missing, missing
    assert "docs/notes/" in text


# ------------------------------------------------------------------------------ docs/
def test_reference_pages_open_with_their_purpose_and_are_short():
    long = {p.name: n for p in reference_pages() if (n := len(p.read_text().splitlines())) > 800}
    assert not long, long
    bad = [p.name for p in reference_pages() if not opens_with_purpose(p.read_text())]
    assert not bad, bad


def test_notes_are_dated_and_labelled():
    notes = note_pages()
    assert notes
    for p in notes:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md", p.name), p.name
        head = "\n".join(p.read_text().splitlines()[:4])
        assert head.startswith("# Notes") and "not a reference" in head, p.name


def test_results_page_holds_the_full_ladder():
    import json
    text = (DOCS / "RESULTS.md").read_text()
    data = ROOT / "papers" / "onirim" / "data"
    names = []
    for rec in ("honest-ladder", "duo-honest-ladder"):
        for row in json.loads((data / f"{rec}.json").read_text())["rows"]:
            names.append(Path(row["source"]).name.split(".")[0])
    assert len(names) >= 40
    missing = [n for n in names if f"`{n}`" not in text]
    assert not missing, missing
    for section in ("## The solo ladder", "## Two players", "## Clairvoyant",
                    "## Rule verification", "## Throughput"):
        assert section in text, section


def test_no_issue_numbers_and_no_contract_citations_in_the_docs():
    pages = [README, *reference_pages(), *note_pages()]
    bad = {p.name: ISSUE.findall(p.read_text()) + CONTRACT.findall(p.read_text())
           for p in pages}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


def test_at_most_ten_contract_citations_in_the_code():
    counts = {}
    for folder in CODE_FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            if ".venv" in path.parts or "__pycache__" in path.parts:
                continue
            n = comment_citations(path.read_text())
            if n:
                counts[str(path.relative_to(ROOT))] = n
    assert sum(counts.values()) <= 10, counts


def test_no_figure_of_the_old_benchmark_run():
    old = "93efaa6"
    pages = [README, *reference_pages()]
    assert not [p.name for p in pages if old in p.read_text()]
    import json
    bench = json.loads((ROOT / "papers" / "onirim" / "data" / "bench-full.json").read_text())
    assert bench["commit"] != old


# ----------------------------------------------------------------------- the checkers
def test_the_checkers_can_fail():
    assert commit_hashes("commits 3456db1, 93efaa6 and 1000000, a decade, `abc1234`") == {
        "3456db1", "93efaa6", "abc1234"}
    assert long_lines("a\n" + "x" * 401) == [2]
    assert opens_with_purpose("# T\n\nThis page is for x.\n## A\n")
    assert not opens_with_purpose("# T\n\n## A\n")
    assert not opens_with_purpose("# T\n\n| a | b |\n")
    assert comment_citations("x = 1  # see " + "SP" + "EC section 6\n") == 1
    assert comment_citations('"""The ' + "SP" + 'EC."""\nSPECIAL = 1\n') == 1
    assert ISSUE.findall("as issue 29 asks (#12)") == ["issue 29", "(#12)"]
