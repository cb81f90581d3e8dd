"""benchmarks/learn_duo_value.py: the sampled rows are the two-player value function's
features with the games' Doors over 8, --write sets one base's line and keeps the others, and
bad arguments get one line and status 2."""
from __future__ import annotations

import numpy as np

from benchmarks import learn_duo_value as LDV
from solver.duo.value import NFV


def test_samples_are_features_of_decisions_with_their_games_doors():
    X, y, game_of = LDV.sample(200, 0x1234, 2, "team")
    assert X.shape[1] == NFV and len(X) == len(y) == len(game_of) > 1000
    assert set(np.unique(y * 8)) <= set(range(9)) and 0 < y.mean() < 1
    assert len(np.unique(y)) > 3
    assert np.all(X[:, 0] == 1.0) and np.all((X[:, 1] >= 1) & (X[:, 1] <= 8))
    for g in np.unique(game_of)[:50]:
        assert len(set(y[game_of == g])) == 1
    again = LDV.sample(200, 0x1234, 2, "team")
    assert np.array_equal(again[0], X) and np.array_equal(again[1], y)
    other = LDV.sample(200, 0x1234, 2, "plus2")
    assert not np.array_equal(other[1][:len(y)], y[:len(other[1])])


def test_write_sets_one_base_and_keeps_the_others(tmp_path):
    path = tmp_path / "w.py"
    path.write_text('"""head"""\nDUO_VWEIGHTS = {}\n')
    LDV.write_weights("team", [1.0, -2.5], "python -m x --base team", str(path))
    LDV.write_weights("plus2", [3.0, 4.0], "python -m x --base plus2", str(path))
    LDV.write_weights("team", [0.5, 0.25], "python -m x --base team --games 9", str(path))
    ns: dict = {}
    exec(path.read_text(), ns)
    assert ns["DUO_VWEIGHTS"] == {"team": (0.5, 0.25), "plus2": (3.0, 4.0)}
    assert path.read_text().count("# python -m") == 2


def test_bad_arguments_are_one_line_and_status_2(capsys):
    assert LDV.main(["--games", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "learn_duo_value" in err[0]
