"""Traceability check of the paper: every number in the text traces to a record.

    python -m papers.check

It fails (exit status 1, one line per problem) when

* the text ``papers/onirim/onirim.typ`` holds a digit typed by hand, outside comments, named
  values (``#num.key``), experiment names (``#exp("...")``) and the few reference patterns
  listed in ``ALLOWED`` (ruling names such as ``B3`` or ``D5``, layout widths);
* the text uses a named value that ``tables/numbers.typ`` does not define, or cites an
  experiment that has no record in ``papers/onirim/data/``;
* a generated file (``tables/numbers.typ``, ``tables/*.typ``, or a record extracted from
  ``benchmarks/results/``) differs from what ``papers/build.py`` generates from the records now,
  for example because a number in it was changed by hand;
* a record lacks one of the fields every record must have (command, commit, machine, date...).

* two named values of a pair (``_lo`` and ``_hi``, ``_min`` and ``_max``, ...) are not
  written as a pair, in order, with the same stem (so swapping ``#num.x_lo`` and ``#num.x_hi``
  fails), or the text, with its named values filled in, states an interval out of order
  (``A to B`` or ``[A, B]`` with A > B, or ``R (A to B)`` with R outside);
* the text or a results section of the README writes a number as a word (``twenty``,
  ``hundred``, ``twice``...) outside the phrases listed in ``WORDS`` (facts of the rules and
  of the method, each with its reason);
* a record of ``data/`` is written by hand without a reason in ``build.HAND_RECORDS``;
* the example game's certificate line does not replay to a win in ``engine/``;
* the README's generated blocks differ from what the records give, or one of its results
  sections holds a digit outside those blocks and outside code (``papers/readme.py``).

Every record but the few written by hand is recomputed here from the stored results, the
per-deal rows included (``benchmarks/results/rows/``), so a changed row, a changed result
file or a changed generated file each make the check fail.  It also lists the pending figures
(values from an older commit whose rows are not stored; ``papers/rowdata.py``).  It needs
neither typst nor matplotlib.
"""
from __future__ import annotations

import re
import sys

from papers import build
from papers.words import _WORD_RE, number_words  # noqa: F401  (the text rules' reader)

# Digits that are references, not measurements.  Each pattern is matched against the text
# after comments, named values and experiment names are removed.
ALLOWED = [
    (re.compile(r"\brulings? \d+(?: (?:to|and) \d+)?"), "a ruling, by number"),
    (re.compile(r"\bB(?:10|[1-9])\b"), "a base ruling's name (B1 to B10, docs/RULINGS.md)"),
    (re.compile(r"\bD\d\b"), "a two-player ruling name (D1 to D8)"),
    (re.compile(r"\bwidth: \d+%"), "a figure's layout width"),
]

NUM_USE = re.compile(r"#num\.([A-Za-z_][A-Za-z0-9_]*)")
NUM_ARG = re.compile(r"\bnum\.([A-Za-z_][A-Za-z0-9_]*)")
EXP_USE = re.compile(r'#exp\("([^"]*)"\)')
NUM_DEF = re.compile(r"^\s+([A-Za-z_][A-Za-z0-9_]*): ", re.M)

# ------------------------------------------------------------------------- number words
# Number words the paper may use: facts of the rules or of the method, never a measurement.
WORDS = [
    (r"\btwo-player\b", "the game's two-player variant"),
    (r"\b[Tt]wo players\b", "the two-player variant"),
    (r"\bone[- ]player\b", "a one-player search problem"),
    (r"\b[Oo]ne (?:step|core|run|layer|conformance|row|point|optimal|card|per|colour|of four|"
     r"to the end|of them|test|solo|and|way)\b", "the method or the rules"),
    (r"\bone of four\b", "the four Nightmare penalties (rules)"),
    (r"\bfour (?:penalties|colours|kernels)\b", "the rules / the four kernel families"),
    (r"\bin four\s+colours\b", "the rules"),
    (r"\bthe four\s+\"errors\b", "the tutorial's list"),
    (r"\b[Tt]hree (?:information|consecutive|assumptions)\b", "the rules / the method"),
    (r"\bunder three assumptions\b", "the method"),
    (r"\bthe three\s+information\b", "the method"),
    (r"\bfive (?:Locations|cards|Doors)\b", "the rules"),
    (r"\bof five\s+Locations\b", "the rules"),
    (r"\btop five\b", "the rules (a prophecy)"),
    (r"\beight (?:Doors|rulings)\b", "the rules"),
    (r"\bfor eight Doors\b", "the rules"),
    (r"\bfixes ten solo\b", "the base rulings B1 to B10"),
    (r"\btwo (?:threads|bots|answers|public|disagree|ends)\b", "the method"),
    (r"\bthe two\b", "a pair named just before"),
    (r"\bhas two\s+answers\b", "the question"),
    (r"\bworth one half\b", "a probability of one half, the threshold of a likely win"),
    (r"\bbelow one\b", "the probability one"),
    (r"\bequal to one\b", "the probability one"),
    (r"\b(?:upper|lower) half\b", "the two halves of a certificate"),
    (r"\bexactly zero\b", "a value of zero"),
    (r"\bevery one of\b", "every deal"),
    (r"\bdiscards one\b", "the rules"),
    (r"\bplays one\b", "the rules"),
    (r"\bthe one with\b", "the best action"),
    (r"\bwhat one\b", "'one' as a pronoun"),
    (r"\bsolo one\b", "'one' as a pronoun"),
    (r"\bclairvoyant one\b", "'one' as a pronoun"),
    (r"\ba one-move\b", "another program's look-ahead"),
    (r"\bplayed twice\b", "the example deal, played by two players"),
    (r"\bany deal twice\b", "no deal solved again"),
    (r"\bone deal\b", "the example"),
    (r"\bone memo\b", "the method"),
    (r"\b[Oo]ne implementation\b", "the method"),
    (r"\bone experiment\b", "the method"),
    (r"\bone process\b", "the method"),
    (r"\bone policy seed\b", "the method"),
    (r"\bone seed\b", "the method"),
    (r"\bone solo, one two-player\b", "the two golden games"),
    (r"\bcostlier one\b", "'one' as a pronoun"),
    (r"\bempty\s+one\b", "'one' as a pronoun"),
    (r"\bTwo cautions\b", "the two points that follow"),
    (r"\bTwo public programs\b", "the two programs named next"),
    (r"\bthe one reference\b", "the reference engine"),
]


def _uncommented(text: str):
    """(line number, raw line, line without its typst comments) of the text, skipping lines
    inside /* ... */ blocks."""
    in_block = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_block:
            if "*/" not in line:
                continue
            line, in_block = line.split("*/", 1)[1], False
        if "/*" in line:
            line, in_block = line.split("/*", 1)[0], "*/" not in line.split("/*", 1)[1]
        yield no, raw, _strip_comment(line)


def _code_free(text: str):
    """(line number, line) of the text, comments, raw code and named values removed."""
    for no, _raw, line in _uncommented(text):
        line = re.sub(r"`[^`]*`", "", line)
        line = re.sub(r'#\w+\("[^"]*"', "", line)          # file names, experiment names
        line = re.sub(r"@[\w-]+", "", line)                # labels and citations
        yield no, line


def words_in_text(text: str) -> list[str]:
    problems = []
    joined = list(_code_free(text))
    for k, (no, line) in enumerate(joined):
        # a phrase may run over from the line before or on to the next
        prev = joined[k - 1][1].strip() + " " if k > 0 else ""
        nxt = " " + joined[k + 1][1].strip() if k + 1 < len(joined) else ""
        body = line.strip()
        ctx = prev + body + nxt
        for w in number_words(ctx, WORDS, len(prev), len(prev) + len(body)):
            problems.append(f"onirim.typ:{no}: number written as a word: {w!r} in "
                            f"{line.strip()!r}")
    return sorted(set(problems))


# ------------------------------------------------------------------------- pairs, order
PAIRS = [("_lo", "_hi"), ("_min", "_max"), ("_vmin", "_vmax"), ("_smin", "_smax"),
         ("_rmin", "_rmax"), ("_seed_first", "_seed_last"), ("_load_min", "_load_max"),
         ("_unknown_min", "_unknown_max"), ("_size_min", "_size_max")]


def unpaired(text: str, defined: set[str]) -> list[str]:
    """A named value with a pair suffix whose other half is defined must be followed (lo) or
    preceded (hi) by that other half, with the same stem: swapping two named values breaks
    this."""
    uses = [(m.start(), m.group(1)) for m in NUM_ARG.finditer(text)]
    problems = []
    for i, (pos, key) in enumerate(uses):
        for a, b in PAIRS:
            if key.endswith(a) and key[: -len(a)] + b in defined:
                want = key[: -len(a)] + b
                if i + 1 >= len(uses) or uses[i + 1][1] != want:
                    problems.append(f"onirim.typ:{text.count(chr(10), 0, pos) + 1}: "
                                    f"#num.{key} must be followed by #num.{want}")
            elif key.endswith(b) and key[: -len(b)] + a in defined:
                want = key[: -len(b)] + a
                if i == 0 or uses[i - 1][1] != want:
                    problems.append(f"onirim.typ:{text.count(chr(10), 0, pos) + 1}: "
                                    f"#num.{key} must follow #num.{want}")
    return problems


_UNITS = {"%": 1e-2, "\u00a0ms": 1e-3, "\u00a0µs": 1e-6, "\u00a0s": 1.0, "\u00a0k": 1e3,
          "\u00a0M": 1e6, "": 1.0}
_NUMV = r"(-?\d[\d,]*(?:\.\d+)?(?:e-?\d+)?)(%|\u00a0ms|\u00a0µs|\u00a0s|\u00a0k|\u00a0M)?" + \
        r"(?:\u2020)?"


def _val(num: str, unit: str | None) -> float:
    return float(num.replace(",", "")) * _UNITS[unit or ""]


def rendered(text: str, values: dict[str, str]) -> str:
    """The text with every named value replaced by its printed value."""
    return NUM_USE.sub(lambda m: values.get(m.group(1), "?"), text)


def misordered(text: str, values: dict[str, str]) -> list[str]:
    """Intervals the text states out of order once its named values are filled in."""
    t = rendered(text, values)
    problems = []
    pats = [re.compile(_NUMV + r" to " + _NUMV), re.compile(r"\[" + _NUMV + r", " + _NUMV + r"\]")]
    for pat in pats:
        for m in pat.finditer(t):
            a, b = _val(m.group(1), m.group(2)), _val(m.group(3), m.group(4))
            if a > b:
                no = t.count("\n", 0, m.start()) + 1
                problems.append(f"onirim.typ (filled in):{no}: interval out of order: "
                                f"{m.group(0)!r}")
    point = re.compile(_NUMV + r" \((?:[^()]*?)" + _NUMV + r" to " + _NUMV + r"\)")
    for m in point.finditer(t):
        r_ = _val(m.group(1), m.group(2))
        a, b = _val(m.group(3), m.group(4)), _val(m.group(5), m.group(6))
        if m.group(2) == m.group(4) == m.group(6) and not a <= r_ <= b:
            no = t.count("\n", 0, m.start()) + 1
            problems.append(f"onirim.typ (filled in):{no}: {m.group(1)} lies outside its "
                            f"interval: {m.group(0)!r}")
    return problems


def example_replays(recs) -> list[str]:
    ex = build.example_lines(recs)
    if not ex["clairvoyant_won"]:
        return [f"data/example-game.json: the clairvoyant line of deal {ex['seed']} does not "
                f"replay to a win in engine/"]
    return []


def gaps(recs) -> list[str]:
    """Row sets the text describes as seeds first..last must hold every seed in between."""
    problems = []
    for name in ("honest-ladder", "duo-honest-ladder"):
        for r in recs.get(name, {}).get("rows", []):
            if not r.get("contiguous", True):
                problems.append(f"{name}: row {r['policy']}: its deals are not consecutive "
                                f"seeds (finish the run)")
    cv = recs.get("clairvoyant-winrate", {}).get("numbers", {})
    if cv and not cv.get("contiguous", True):
        problems.append("clairvoyant-winrate: its deals are not consecutive seeds")
    return problems


def hand_records(recs) -> list[str]:
    problems = [f"data/{f}: a record the build neither extracts nor lists in "
                f"build.HAND_RECORDS" for f in build.stray_records()]
    for name, r in recs.items():
        if name not in build.EXTRACTED and name not in build.HAND_RECORDS:
            problems.append(f"data/{name}.json: written by hand without a reason")
    return problems


def _strip_comment(line: str) -> str:
    # A line comment starts with // at the start or after whitespace (not in a URL).
    m = re.search(r"(^|\s)//", line)
    return line[: m.start()] if m else line


def hand_typed_numbers(text: str) -> list[str]:
    """Lines of ``text`` with a digit that is not a named value or an allowed reference."""
    problems = []
    for no, raw, line in _uncommented(text):
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
    from papers import readme
    records = build.load_records()
    problems = build.validate_records(records)
    problems += hand_records(records)
    problems += gaps(records)
    text = build.SOURCE.read_text()
    problems += hand_typed_numbers(text)
    problems += words_in_text(text)
    numbers = build.TABLES / "numbers.typ"
    problems += unpaired(text, set(NUM_DEF.findall(numbers.read_text()))
                         if numbers.exists() else set())
    problems += undefined_names(text, numbers.read_text() if numbers.exists() else "", records)
    stale = stale_files()
    problems += stale
    if not stale:          # the records are those of the results: fill the text in with them
        vals = {k: v for k, (v, _n) in build.numbers_values(records).items()}
        problems += misordered(text, vals)
        problems += example_replays(records)
    problems += readme.stray_numbers(readme.README.read_text())
    if readme.RESULTS_PAGE.exists():
        problems += readme.stray_numbers_results(readme.RESULTS_PAGE.read_text())
    else:
        problems.append("docs/RESULTS.md: missing (the full results page)")
    return problems


def main() -> int:
    problems = check()
    for p in problems:
        print(f"papers.check: {p}", file=sys.stderr)
    if problems:
        print(f"papers.check: FAILED, {len(problems)} problem(s)", file=sys.stderr)
        return 1
    n = len(build.numbers_spec())
    recs = build.load_records()
    pend = build.pending_values(recs)
    rows = [f"{r['policy']} ({name})" for name in ("honest-ladder", "duo-honest-ladder")
            for r in recs[name]["rows"] if r.get("pending")]
    print(f"papers.check: ok: every number of the text is one of {n} named values, the "
          f"generated files and the README's blocks match the {len(recs)} records computed "
          f"from the stored results now")
    print(f"papers.check: pending (marked {build.PENDING_MARK}, listed in tables/pending.typ): "
          f"{len(pend)} named values; rows {', '.join(rows) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
