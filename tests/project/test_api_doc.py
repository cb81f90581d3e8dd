"""docs/API.md runs as written: its Python blocks are executed in order, in one namespace, as
a reader would paste them into a notebook; each block's own asserts check what it prints."""
from __future__ import annotations

import re
from pathlib import Path

from paths import ROOT


def blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_page_has_an_example_of_each_task():
    text = (_doc()).read_text()
    code = blocks(text)
    assert len(code) >= 5
    joined = "\n".join(code)
    for call in ("api.rank(", "make_policy(", "play_honest(", "rows.read(", "process_time()"):
        assert call in joined, call


def test_every_block_runs(capsys):
    ns: dict = {"__name__": "api_doc"}
    for i, code in enumerate(blocks(_doc().read_text())):
        exec(compile(code, f"docs/API.md block {i + 1}", "exec"), ns)
    out = capsys.readouterr().out
    assert "best: discard Gk" in out
    assert "games/s" in out


def test_a_broken_block_fails():
    """The runner is not a no-op: a block whose assert fails raises."""
    import pytest
    with pytest.raises(AssertionError):
        exec(compile("assert 1 + 1 == 3", "block", "exec"), {})


def _doc() -> Path:
    return Path(ROOT) / "docs" / "API.md"
