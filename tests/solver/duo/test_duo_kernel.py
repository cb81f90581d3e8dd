"""Differential test: the duo kernel and the engine agree state by state (two-player games).

Random legal actions (chosen from the engine's list) are applied to both; after every step the
decoded kernel state must equal the engine's (both hands, shared cards, last row card and
series length of both rows, both players' Doors, limbo, the whole deck in order, phase, drawn
card, active player, shuffle count), and the legal action lists must be equal
(``tests/duo_kit.py``: ``differential``).  ``python -m benchmarks.bench_duo --diff-steps N``
runs the same loop for many more steps.
"""
import random

import numpy as np
import pytest

from engine import Game, format_position, parse_position
from engine.errors import OnirimError
from solver.duo import deal_turn as duo_turn
from solver.duo import kernel as DK
import duo_kit


def test_duo_diff_10k_uniform_steps():
    g, n, ph = duo_kit.differential(10_000, 0, random.Random(20261201))
    assert n >= 10_000 and g > 10
    # every phase of the game was met, so the comparison covered each rule path
    assert {"draft", "play", "prophecy", "door", "nightmare", "lost"} <= ph


def test_duo_diff_10k_play_biased_steps():
    """Biased to plays: longer games, more series, Doors and shuffles."""
    g, n, ph = duo_kit.differential(10_000, 10**6, random.Random(20261202), bias=True)
    assert n >= 10_000 and g > 10
    assert {"draft", "play", "prophecy", "door", "nightmare"} <= ph


def test_duo_diff_catches_a_wrong_kernel(monkeypatch):
    """The comparison can fail: a decode that loses the active player is caught."""
    real = DK.decode

    def bad(st, perms, s_root):
        d = real(st, perms, s_root)
        d["turn"] = 0
        return d
    monkeypatch.setattr(duo_turn, "decode", bad)      # the name KernelState.decode calls
    with pytest.raises(AssertionError):
        duo_kit.differential(2_000, 0, random.Random(1))


def compare(s, ks, where):
    ev, kv = DK.engine_view(s), ks.decode()
    if s.phase == "won":
        ev["deck"] = kv["deck"] = None
    assert ev == kv, (where, format_position(s), ev, kv)
    la = s.legal_actions()
    assert ks.legal_actions() == la, (where, format_position(s))
    return la


def test_duo_diff_from_parsed_positions():
    """Roots taken mid-game and round-tripped through the notation (any decision phase,
    prophecy-ordered decks, limbo and a drawn card)."""
    rnd = random.Random(11)
    phases = set()
    for seed in range(150):
        s = Game(2).new_initial_state(seed)
        for _ in range(rnd.randrange(1, 150)):
            if s.is_terminal():
                break
            la = s.legal_actions()
            plays = [a for a in la if a < 24]
            s.apply_action(rnd.choice(plays if plays and rnd.random() < 0.6 else la))
        if s.is_terminal():
            continue
        s = parse_position(format_position(s))
        phases.add(s.phase)
        ks = duo_turn.kernel_state(s)
        for _ in range(40):
            la = compare(s, ks, seed)
            if not la:
                break
            a = rnd.choice(la)
            s.apply_action(a)
            ks.apply(a)
    assert {"play", "draft"} <= phases


def test_duo_encode_refuses_solo_and_chance_mode():
    with pytest.raises(OnirimError):
        DK.encode(Game(1).new_initial_state(3))
    with pytest.raises(OnirimError):
        DK.encode(Game(2).new_initial_state())


def test_duo_packing_words_stay_non_negative():
    """Every word fits 63 bits (no field spills into the sign bit), whatever the position."""
    rnd = random.Random(5)
    for seed in range(30):
        s = Game(2).new_initial_state(seed)
        ks = duo_turn.kernel_state(s)
        while ks.legal_actions():
            assert (ks.st >= 0).all()
            ks.apply(rnd.choice(ks.legal_actions()))
        assert (ks.st >= 0).all() and ks.st.dtype == np.int64
