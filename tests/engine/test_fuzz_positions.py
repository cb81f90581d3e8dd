"""Mutation fuzzing of the position notation (docs/NOTATION.md section 2).

Positions met in seeded games (solo and two-player, deal and chance mode, every phase) are
mutated at random: a card code replaced, inserted or removed, a field's value replaced, a field
dropped or added, a character changed.  For every mutant the parser either raises a
PositionError (any other exception fails the test) or returns a state that behaves like one
the game can reach:

* it prints in canonical notation that parses back to the same text, and its JSON form too;
* every non-terminal state on a random playout from it has a legal action (or, at a chance
  node, outcomes whose probabilities sum to 1), and every action string parses back.

The run found a two-player ``phase=draft`` with 2 cards left in the centre (the draft is over
by then, ruling D1) that had no legal action.  Deterministic: fixed seeds.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import Game, OnirimError, format_position, from_json, parse_position, to_json
from engine import cards
from rulekit import random_playout, random_step

VALUES = ["play", "door", "nightmare", "prophecy", "foresee", "reveal", "redraw", "refill",
          "setup", "won", "lost", "draft", "0", "1", "5", "-1", "99999999999999999999999",
          "solo", "duo", "-", "*", ""]
EXTRA = ["drawn=N", "drawn=DO", "drawn=Os", "left=3", "left=0", "seed=5", "shuffles=2",
         "turn=1", "turn=0", "phase=door", "deck=*", "shared=Os,Os"]
CODES = list(cards.CODES) + ["*", "-", "x", "", "N", "Ok", "DO"]
STATS: Counter = Counter()     # mutants tried, accepted and refused (all seeds)


def _games(rnd: random.Random, n: int) -> list[str]:
    out = []
    for seed in range(n):
        for players in (1, 2):
            s = Game(players).new_initial_state(seed=seed if seed % 2 else None)
            for s in random_playout(s, rnd):
                if s.is_terminal() or rnd.random() < 0.05:
                    out.append(format_position(s))
    return out


def _mutate(rnd: random.Random, text: str) -> str:
    toks = text.split()
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(toks))
        key, _, val = toks[i].partition("=")
        vals = val.split(",")
        r = rnd.random()
        if r < 0.25:
            vals[rnd.randrange(len(vals))] = rnd.choice(CODES)
            toks[i] = key + "=" + ",".join(vals)
        elif r < 0.4:
            vals.insert(rnd.randrange(len(vals) + 1), rnd.choice(CODES))
            toks[i] = key + "=" + ",".join(vals)
        elif r < 0.55:
            if len(vals) > 1:
                del vals[rnd.randrange(len(vals))]
            toks[i] = key + "=" + ",".join(vals)
        elif r < 0.65:
            if rnd.random() < 0.5:       # half of these change the phase
                i = next((j for j, t in enumerate(toks) if t.startswith("phase=")), i)
                key = toks[i].partition("=")[0]
            toks[i] = key + "=" + rnd.choice(VALUES)
        elif r < 0.75:
            del toks[i]
            toks = toks or ["mode=solo"]
        elif r < 0.85:
            toks.append(rnd.choice(EXTRA))
        else:
            p = rnd.randrange(len(toks[i]) + 1)
            toks[i] = toks[i][:p] + rnd.choice(["", ",", "=", " ", "\u00e9", "\x00", "1"]) \
                + toks[i][p + 1:]
    return " ".join(toks)


def _check_accepted(s, rnd: random.Random) -> None:
    text = format_position(s)
    assert format_position(parse_position(text)) == text
    assert format_position(from_json(json.dumps(to_json(s)))) == text
    for _ in range(400):
        if s.is_terminal():
            return
        if s.is_chance_node():
            outs = s.chance_outcomes()
            assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9, format_position(s)
        else:
            assert s.legal_actions(), f"no legal action in {format_position(s)}"
        a = random_step(s, rnd)
        if not s.is_chance_node():
            assert s.string_to_action(s.action_to_string(a)) == a
        s.apply_action(a)


@pytest.mark.parametrize("seed", [0, 1])
def test_mutated_positions_are_refused_or_playable(seed):
    rnd = random.Random(seed)
    base = _games(rnd, 30)
    accepted = refused = 0
    for _ in range(20000):
        text = _mutate(rnd, rnd.choice(base))
        try:
            s = parse_position(text)
        except OnirimError:
            refused += 1
            continue
        accepted += 1
        try:
            _check_accepted(s, rnd)
        except OnirimError as e:   # an accepted position must not fail later
            pytest.fail(f"{text!r}: {e}")
    STATS["mutants"] += accepted + refused
    STATS["accepted"] += accepted
    STATS["refused"] += refused
    # the mutations must exercise both sides
    assert accepted > 1000 and refused > 10000, (accepted, refused)
