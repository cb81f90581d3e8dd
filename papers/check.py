"""Traceability check of the paper: every number in the text traces to a record.

    python -m papers.check

It fails (exit status 1, one line per problem) when

* the text ``papers/onirim/onirim.typ`` holds a digit typed by hand, outside comments, named
  values (``#num.key``), experiment names (``#exp("...")``) and the few reference patterns
  listed in ``ALLOWED`` (ruling names such as ``SPEC ruling 3`` or ``D5``, layout widths);
* the text uses a named value that ``tables/numbers.typ`` does not define, or cites an
  experiment that has no record in ``papers/onirim/data/``;
* a generated file (``tables/numbers.typ``, ``tables/*.typ``, or a record extracted from
  ``benchmarks/results/``) differs from what ``papers/build.py`` generates from the records now,
  for example because a number in it was changed by hand;
* a record lacks one of the fields every record must have (command, commit, machine, date...).

It needs neither typst nor matplotlib, and runs in about a second.
"""
from __future__ import annotations

import re
import sys

from papers import build

# Digits that are references, not measurements.  Each pattern is matched against the text
# after comments, named values and experiment names are removed.
ALLOWED = [
    (re.compile(r"\brulings? \d+(?: (?:to|and) \d+)?"), "a ruling of the SPEC, by number"),
    (re.compile(r"\bD\d\b"), "a two-player ruling name (D1 to D8)"),
    (re.compile(r"\bwidth: \d+%"), "a figure's layout width"),
]

NUM_USE = re.compile(r"#num\.([A-Za-z_][A-Za-z0-9_]*)")
NUM_ARG = re.compile(r"\bnum\.([A-Za-z_][A-Za-z0-9_]*)")
EXP_USE = re.compile(r'#exp\("([^"]*)"\)')
NUM_DEF = re.compile(r"^\s+([A-Za-z_][A-Za-z0-9_]*): ", re.M)


def _strip_comment(line: str) -> str:
    # A line comment starts with // at the start or after whitespace (not in a URL).
    m = re.search(r"(^|\s)//", line)
    return line[: m.start()] if m else line


def hand_typed_numbers(text: str) -> list[str]:
    """Lines of ``text`` with a digit that is not a named value or an allowed reference."""
    problems = []
    in_block = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_block:
            if "*/" not in line:
                continue
            line, in_block = line.split("*/", 1)[1], False
        if "/*" in line:
            line, in_block = line.split("/*", 1)[0], "*/" not in line.split("/*", 1)[1]
        line = _strip_comment(line)
        line = NUM_USE.sub("", line)
        line = NUM_ARG.sub("", line)
        line = EXP_USE.sub("", line)
        for pat, _why in ALLOWED:
            line = pat.sub("", line)
        if re.search(r'(#num\.\w+|#exp\("[^"]*"\));', raw):
            problems.append(f"onirim.typ:{no}: a ';' right after a named value is eaten by "
                            f"typst (write \\;): {raw.strip()!r}")
        for m in re.finditer(r"[0-9]+(?:[.,][0-9]+)*%?", line):
            problems.append(f"onirim.typ:{no}: number typed by hand: {m.group(0)!r} in "
                            f"{raw.strip()!r}")
    return problems


def undefined_names(text: str, numbers_typ: str, records: dict) -> list[str]:
    defined = set(NUM_DEF.findall(numbers_typ))
    problems = []
    for no, line in enumerate(text.splitlines(), 1):
        code = _strip_comment(line)
        for key in sorted(set(NUM_ARG.findall(code))):  # also matches every #num.key
            if key not in defined:
                problems.append(f"onirim.typ:{no}: #num.{key} is not defined in "
                                f"tables/numbers.typ")
        for name in EXP_USE.findall(code):
            if name not in records:
                problems.append(f"onirim.typ:{no}: experiment {name!r} has no record in "
                                f"papers/onirim/data/")
    return problems


def stale_files() -> list[str]:
    problems = []
    for path, want in build.generated_texts().items():
        rel = path.relative_to(build.PAPER.parent.parent) if path.is_relative_to(
            build.PAPER.parent.parent) else path
        if not path.exists():
            problems.append(f"{rel}: missing (run python -m papers.build)")
            continue
        have = path.read_text()
        if have == want:
            continue
        for no, (a, b) in enumerate(zip(have.splitlines(), want.splitlines()), 1):
            if a != b:
                problems.append(f"{rel}:{no}: differs from what the records give: "
                                f"{a.strip()!r}, expected {b.strip()!r}")
                break
        else:
            problems.append(f"{rel}: differs from what the records give (length)")
    return problems


def check() -> list[str]:
    records = build.load_records()
    problems = build.validate_records(records)
    text = build.SOURCE.read_text()
    problems += hand_typed_numbers(text)
    numbers = build.TABLES / "numbers.typ"
    problems += undefined_names(text, numbers.read_text() if numbers.exists() else "", records)
    problems += stale_files()
    return problems


def main() -> int:
    problems = check()
    for p in problems:
        print(f"papers.check: {p}", file=sys.stderr)
    if problems:
        print(f"papers.check: FAILED, {len(problems)} problem(s)", file=sys.stderr)
        return 1
    n = len(build.numbers_spec())
    print(f"papers.check: ok: every number of the text is one of {n} named values, "
          f"and the generated files match the {len(build.load_records())} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
