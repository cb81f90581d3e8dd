"""The modules generated from a template (solver/specialise.py: the deal-mode turn, written once
in solver/deal_turn_template.py, one module per player count) are current: each is regenerated
here and compared byte for byte, a stale one refuses to import, and the generator folds what it
should and refuses what it cannot fold."""
from __future__ import annotations

import ast
import os

import pytest

import solver
from solver import specialise
from solver.specialise import TemplateError


def test_every_generated_module_is_current():
    """A template edited without ``python -m solver.specialise`` fails here."""
    assert specialise.stale() == []
    for template, value, target in specialise.TARGETS:
        with open(os.path.join(os.path.dirname(solver.__file__), target), encoding="utf-8") as f:
            text = f.read()
        assert text == specialise.generated(template, value)
        assert specialise.parse_header(text)[1:3] == (f"solver/{template}", value)


def test_each_count_keeps_only_its_own_layout():
    from solver.clairvoyant import deal_turn as solo
    from solver.duo import deal_turn as duo
    assert (solo.PLAYERS, duo.PLAYERS) == (1, 2)
    for module, own, other in ((solo, "solver.clairvoyant.deal_kernel", "solver.duo"),
                               (duo, "solver.duo.kernel", "solver.clairvoyant.deal_kernel.HAND")):
        with open(module.__file__, encoding="utf-8") as f:
            text = f.read()
        assert "PLAYERS ==" not in text and f"from {own} import" in text
        assert other not in text
    assert solo._set_phase.py_func.__module__ == "solver.clairvoyant.deal_kernel"
    assert duo._set_phase.py_func.__module__ == "solver.duo.kernel"


SOURCE = '''"""doc"""
PLAYERS = 0
if PLAYERS == 1:
    from a import x
else:
    from b import x


def f(s):
    if PLAYERS == 2:
        p = 1
    if s > 0:
        s += 1
    elif PLAYERS != 1 and not PLAYERS > 2:
        s += 2
    else:
        s += 3
    return s * (7 if PLAYERS == 1 else 8) + PLAYERS
'''


def _text(tree):
    return ast.unparse(tree)


def test_the_generator_folds_tests_on_the_count():
    one = _text(specialise.specialise(SOURCE, 1))
    two = _text(specialise.specialise(SOURCE, 2))
    assert "PLAYERS = 1" in one and "from a import x" in one and "from b" not in one
    assert "p = 1" not in one and "s += 2" not in one and "s += 3" in one
    assert "s * 7 + PLAYERS" in one
    assert "PLAYERS = 2" in two and "from b import x" in two and "from a" not in two
    assert "p = 1" in two and "s += 2" in two and "s += 3" not in two
    assert "s * 8 + PLAYERS" in two
    for text in (one, two):
        assert "if PLAYERS" not in text and "PLAYERS ==" not in text
        compile(text, "<generated>", "exec")


def test_a_block_left_empty_gets_pass():
    text = _text(specialise.specialise("PLAYERS = 0\nfor i in x:\n    if PLAYERS == 2:\n"
                                       "        y()\n", 1))
    assert "for i in x:\n    pass" in text


@pytest.mark.parametrize("bad", [
    "PLAYERS = 0\nif PLAYERS == n:\n    pass\n",          # not a constant test
    "PLAYERS = 0\nPLAYERS = 1\n",                          # assigned twice
    "x = 1\n",                                             # never assigned
    "PLAYERS = n\n",                                       # not an integer
])
def test_the_generator_refuses_what_it_cannot_fold(bad):
    with pytest.raises(TemplateError):
        specialise.specialise(bad, 1)


def test_a_stale_generated_module_refuses_to_import(tmp_path):
    template, value, target = specialise.TARGETS[0]
    text = specialise.generated(template, value)
    good = tmp_path / "good.py"
    good.write_text(text)
    specialise.check_current(str(good))             # current: no error
    stale = tmp_path / "stale.py"
    stale.write_text(text.replace(specialise.digest(template), "0" * 16, 1))
    with pytest.raises(ImportError, match="python -m solver.specialise"):
        specialise.check_current(str(stale))
    plain = tmp_path / "plain.py"
    plain.write_text("x = 1\n")
    with pytest.raises(ImportError):
        specialise.check_current(str(plain))


def test_the_digest_covers_the_template_and_the_generator(tmp_path, monkeypatch):
    template = specialise.TARGETS[0][0]
    before = specialise.digest(template)
    for name in (template, "specialise.py"):
        copy = tmp_path / name
        copy.write_bytes(open(os.path.join(os.path.dirname(solver.__file__), name), "rb").read())
    monkeypatch.setattr(specialise, "_DIR", str(tmp_path))
    assert specialise.digest(template) == before
    for name in (template, "specialise.py"):
        path = tmp_path / name
        path.write_bytes(path.read_bytes() + b"\n# edited\n")
        assert specialise.digest(template) != before
        before = specialise.digest(template)


def test_the_cache_stamp_of_a_turn_user_covers_the_template_and_the_generator():
    """numba's cache=True checks only the caller's file; solver/__init__.py stamps it with
    every kernel file it reaches, and a generated module brings in what it is made from."""
    for user in ("clairvoyant/search.py", "duo/search.py", "clairvoyant/playouts.py"):
        stamp = solver.stamp_files(user)
        assert {"deal_turn_template.py", "specialise.py"} <= set(stamp), stamp
    assert solver.generated_from("duo/deal_turn.py") == ("specialise.py",
                                                         "deal_turn_template.py")
    assert solver.generated_from("duo/kernel.py") == ()
