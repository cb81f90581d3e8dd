"""Numbers written as words: the one reader that ``papers/check.py`` (the paper's text) and
``papers/readme.py`` (the README and ``docs/RESULTS.md``) both apply, each with its own list of
allowed phrases."""
from __future__ import annotations

import re

_WORD_RE = re.compile(
    r"\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|half|halves|"
    r"twice|thrice|\w+fold|thirds?|quarters?|percent)\b", re.I)


def number_words(line: str, allowed, lo: int = 0, hi: int | None = None) -> list[str]:
    """The number words of ``line[lo:hi]`` not inside an allowed phrase (a phrase may reach
    outside ``lo:hi``: the caller passes the neighbouring lines as context)."""
    hi = len(line) if hi is None else hi
    spans = []
    for pat, _why in allowed:
        spans += [m.span() for m in re.finditer(pat, line)]
    out = []
    for m in _WORD_RE.finditer(line):
        if not (lo <= m.start() < hi):
            continue
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            out.append(m.group(0))
    return out
