"""The policy example of docs/POLICIES.md runs as written: it registers, passes the honesty
check of tests/engine/test_view.py, parses its arguments by type, and plays honest games."""
from __future__ import annotations

import os
import random
import re

import pytest

from engine import Game
from engine.view import player_view
from solver import api
from solver.honest.play import decision_stream, play_honest
from paths import ROOT

DOC = os.path.join(ROOT, "docs", "POLICIES.md")


@pytest.fixture(scope="module")
def example():
    blocks = re.findall(r"```python\n(.*?)```", open(DOC).read(), re.S)
    code = blocks[0]
    assert len([ln for ln in code.splitlines() if ln.strip()]) <= 20
    ns: dict = {}
    exec(compile(code, DOC, "exec"), ns)
    yield ns
    api._REGISTRY.pop("series-first", None)


def test_the_example_registers_and_plays(example):
    p = api.make_policy("series-first", keys="yes")
    assert p.config == {"keys": True}
    games = [play_honest(p, s) for s in range(30)]
    assert all(g.decisions > 0 for g in games)
    with pytest.raises(api.PolicyError):
        api.make_policy("series-first", keys="maybe")


def test_the_example_is_honest(example):
    p = api.make_policy("series-first")
    rnd = random.Random(2)
    for seed in range(5):
        s = Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            a = p.act(player_view(s), decision_stream(seed, i))
            t = s.clone()
            k = len(player_view(s).deck)
            rest = t.deck[k:]
            rnd.shuffle(rest)
            t.deck[k:] = rest
            assert p.act(player_view(t), decision_stream(seed, i)) == a
            s.apply_action(a)
            i += 1
