"""engine/rules.py: the rules vocabulary is right, and it is defined once.

The last test reads the source of ``engine``, ``solver`` and ``benchmarks`` with ``ast`` and
fails if a module other than the three that own the vocabulary (``engine/cards.py``: card
types; ``engine/game.py``: action numbers; ``engine/rules.py``: sizes and phase numbers)
assigns one of its names from a literal, as the kernels used to (``NT = 17``,
``PH_WON = 4``, ``_DISCARD = 24``...).
"""
from __future__ import annotations

import ast
import dataclasses
import os
import re

import pytest

from engine import cards
from engine import game
from engine import rules

def _source_root() -> str:
    """The folder that holds pyproject.toml (wherever this test file sits under tests/)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, "pyproject.toml")):
        d = os.path.dirname(d)
    return d


ROOT = _source_root()


def test_the_solo_record_is_the_base_game():
    s = rules.SOLO
    assert (s.hand_size, s.doors_to_win, s.doors_per_colour, s.prophecy_size) == (5, 8, 2, 5)
    assert (s.colours, s.symbols, s.series_length) == (4, 3, 3)
    assert s.counts == cards.COUNTS and s.total_cards == 76 == cards.TOTAL_CARDS
    assert (s.num_types, s.num_location_types, s.first_door, s.nightmare) == (17, 12, 12, 16)
    assert [cards.CODES[t] for t in range(s.first_door, s.nightmare)] == ["DO", "DA", "DG", "DL"]
    assert cards.CODES[s.nightmare] == "N"
    # the module-level names are the record's values
    assert (rules.HAND_SIZE, rules.DOORS_TO_WIN, rules.PROPHECY_SIZE, rules.NUM_TYPES, rules.NIGHTMARE) == \
        (5, 8, 5, 17, 16)


def test_a_variant_is_a_new_record_and_impossible_ones_are_refused():
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.SOLO.hand_size = 6
    assert dataclasses.replace(rules.SOLO, hand_size=6).hand_size == 6
    with pytest.raises(ValueError, match="counts"):
        dataclasses.replace(rules.SOLO, counts=cards.COUNTS[:-1])
    with pytest.raises(ValueError, match="doors_to_win"):
        dataclasses.replace(rules.SOLO, doors_to_win=7)


def test_phase_numbers_are_one_numbering():
    assert sorted(rules.PHASE_NUMBER.values()) == list(range(10))
    assert rules.PH_PICK not in rules.PHASE_NUMBER.values() and rules.PH_SETUP not in rules.PHASE_NUMBER.values()
    assert rules.PH_PICK != rules.PH_SETUP
    # deal mode: the decision phases as in expectimax, then won and lost in 3 bits
    for i, name in enumerate(rules.DEAL_PHASE_NAMES[:4]):
        assert rules.PHASE_NUMBER[name] == i
    assert rules.DEAL_PHASE_NAMES[rules.DEAL_WON] == "won" and rules.DEAL_PHASE_NAMES[rules.DEAL_LOST] == "lost"
    assert max(rules.DEAL_WON, rules.DEAL_LOST) < 8
    assert rules.NUM_LOCATION_TYPES <= rules.NO_CARD < rules.NIGHTMARE       # never a Location


def test_the_kernels_use_the_vocabulary():
    from solver.expectimax import kernel as EK
    from solver.clairvoyant import deal_kernel as deal
    from solver.expectimax.encode import PHASE_CODES
    assert (deal.NT, deal.NLOC, deal.NIGHT, deal.EMPTY) == (17, 12, 16, 15)
    assert deal.PHASE_NAMES == rules.DEAL_PHASE_NAMES
    assert (deal.PH_WON, deal.PH_LOST) == (rules.DEAL_WON, rules.DEAL_LOST)
    assert list(deal.COUNTS) == list(cards.COUNTS)
    assert (deal.A_PLAY, deal.A_DISCARD, deal.A_DOOR_LIMBO) == (game.PLAY, game.DISCARD, game.DOOR_LIMBO)
    for name, number in PHASE_CODES.items():
        assert number == rules.PHASE_NUMBER["redraw" if name == "setup" else name]
    assert (EK.NIGHTMARE, EK.NM_CARD, EK.WON, EK.PICK) == (3, 16, 8, 10)


VOCAB = re.compile(
    r"^_?(NT|NUM_TYPES|NLOC|NUM_LOCATION_TYPES|NIGHT|NIGHTMARE|EMPTY|NO_CARD|FIRST_DOOR|"
    r"PH_[A-Z]+|PLAY|PROPHECY|DOOR|REFILL|REDRAW|REVEAL|FORESEE|WON|LOST|PICK|SETUP|"
    r"DEAL_WON|DEAL_LOST|PHASE_BYTE|PHASE_NAMES|DEAL_PHASE_NAMES|PHASE_NUMBER|"
    r"A_[A-Z_]+|DISCARD|SWAP|DOOR_KEY|DOOR_LIMBO|NM_KEY|NM_DOOR|NM_REVEAL|NM_REDRAW|DRAFT|"
    r"DRAW|HAND_SIZE|DOORS_PER_COLOUR|DOORS_TO_WIN|PROPHECY_SIZE)$")
OWNERS = {"engine/cards.py", "engine/game.py", "engine/rules.py", "engine/actions.py"}


def vocabulary_definitions(root: str = ROOT) -> dict[str, list[str]]:
    """file -> names of the vocabulary it assigns, at module level, from a literal (a
    number or a string anywhere in the value; ``A_PLAY = G.PLAY`` is an alias, not one)."""
    def names(t):
        if isinstance(t, ast.Name):
            return [t.id]
        if isinstance(t, (ast.Tuple, ast.List)):
            return [x for e in t.elts for x in names(e)]
        return []

    out = {}
    for pkg in ("engine", "solver", "benchmarks"):
        for f in sorted(os.listdir(os.path.join(root, pkg))):
            if not f.endswith(".py"):
                continue
            with open(os.path.join(root, pkg, f)) as fh:
                tree = ast.parse(fh.read())
            found = []
            for node in tree.body:
                if isinstance(node, ast.Assign):
                    literal = any(isinstance(n, ast.Constant) and not isinstance(n.value, bool)
                                  for n in ast.walk(node.value))
                    for t in node.targets:
                        found += [n for n in names(t) if VOCAB.match(n) and literal]
            if found:
                out[f"{pkg}/{f}"] = found
    return out


def test_the_vocabulary_is_defined_once():
    defs = vocabulary_definitions()
    elsewhere = {f: n for f, n in defs.items() if f not in OWNERS}
    assert not elsewhere, f"rules vocabulary redeclared outside {sorted(OWNERS)}: {elsewhere}"
    # and each name is defined by one owner only
    seen: dict[str, str] = {}
    for f, ns in defs.items():
        for n in ns:
            assert n not in seen, f"{n} defined in {seen[n]} and {f}"
            seen[n] = f
