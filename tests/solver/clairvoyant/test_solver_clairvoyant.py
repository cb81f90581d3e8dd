"""The public API: solve_state / solve_deal, certificates, budgets, any decision phase."""
import random
import time

import pytest

from engine import Game, OnirimError, format_position, parse_position
from solver.clairvoyant import solve as CV
from solver.clairvoyant.solve import ClairvoyantSolver, replay_line, solve_state


def test_deals_are_won_with_certificates_that_replay():
    sv = ClairvoyantSolver(tt_mb=8)
    for seed in range(12):
        s = Game(1).new_initial_state(seed)
        t0 = time.perf_counter()
        r = sv.solve_state(s)
        wall = time.perf_counter() - t0
        assert r.result in ("WIN", "LOSS", "UNKNOWN")
        if r.result == "WIN":
            # the strings are docs/NOTATION.md section 4 strings, as the engine formats them
            ok, msg = replay_line(Game(1).new_initial_state(seed), r.line)
            assert ok, msg
            t = Game(1).new_initial_state(seed)
            for a, text in zip(r.actions, r.line):
                assert t.action_to_string(a) == text
                t.apply_action(t.string_to_action(text))
            assert t.won()
        else:
            assert r.line == []
        # the reported time is the search's own wall time: positive, and within the call's
        # (not a speed figure: a time counted twice, or in the wrong unit, fails this)
        assert r.nodes > 0 and 0 < r.seconds <= wall


def test_solve_state_signature_and_any_phase():
    rnd = random.Random(3)
    seen = set()
    for seed in range(60):
        s = Game(1).new_initial_state(seed)
        r = CV.solve_deal(seed)
        if r.result != "WIN":
            continue
        # walk part of the winning line: every position on it is won
        k = rnd.randrange(len(r.actions))
        for a in r.actions[:k]:
            s.apply_action(a)
        p = parse_position(format_position(s))
        seen.add(p.phase)
        r2 = solve_state(p, budget_nodes=2_000_000, budget_s=None)
        assert r2.result == "WIN"
        ok, msg = replay_line(p, r2.line)
        assert ok, msg
        if len(seen) == 4:
            break
    assert {"play", "prophecy"} <= seen


def test_terminal_and_lost_positions():
    s = Game(1).new_initial_state(0)
    r = CV.solve_deal(0)
    for a in r.actions:
        s.apply_action(a)
    assert s.won()
    assert solve_state(s).result == "WIN" and solve_state(s).line == []
    # a Door discarded by a prophecy: lost at once, without search (bound B1)
    import random
    rnd = random.Random(0)
    found = 0
    for seed in range(200):
        t = Game(1).new_initial_state(seed)
        while not t.is_terminal() and found < 3:
            if t.phase == "prophecy" and any(12 <= c < 16 for c in t.deck[:5]):
                door = [a for a in t.legal_actions()
                        if t.action_to_string(a).startswith("prophecy discard=D")]
                t.apply_action(door[0])
                if not t.is_terminal():
                    r = solve_state(parse_position(format_position(t)))
                    assert r.result == "LOSS" and r.nodes == 0
                    found += 1
                break
            acts = t.legal_actions()
            keys = [a for a in acts if 24 <= a < 48 and (a - 24) % 3 == 2]
            t.apply_action(rnd.choice(keys or acts))
        if found >= 3:
            break
    assert found >= 3


def test_budget_gives_unknown_and_is_deterministic():
    sv = ClairvoyantSolver(tt_mb=4, beam_widths=())
    a = sv.solve_deal(1, budget_nodes=3000)
    b = sv.solve_deal(1, budget_nodes=3000)
    assert a.result == b.result
    assert a.nodes == b.nodes <= 3000
    if a.result == "UNKNOWN":
        assert a.nodes == 3000


def test_time_budget_stops():
    sv = ClairvoyantSolver(tt_mb=4, beam_widths=())
    r = sv.solve_deal(1, budget_nodes=None, budget_s=0.3)
    assert r.result in ("WIN", "UNKNOWN", "LOSS")
    assert r.seconds < 5


@pytest.mark.parametrize("kw", [dict(budget_nodes=-1), dict(budget_nodes=10**22),
                                dict(budget_nodes=1.5), dict(budget_s=float("inf")),
                                dict(budget_s=1e308), dict(budget_s=0.0),
                                dict(budget_s=float("nan"))])
def test_bad_budgets_raise_budget_error(kw):
    """Budgets the kernel cannot count (solver/budgets.py) raise BudgetError, an OnirimError,
    before the search starts (``inf`` and 1e308 seconds once overflowed the int64 deadline
    with a traceback)."""
    from solver.errors import BudgetError
    sv = ClairvoyantSolver(tt_mb=4, beam_widths=())
    with pytest.raises(BudgetError):
        sv.solve_deal(1, **kw)
    assert sv.solve_deal(1, budget_nodes=3000).nodes <= 3000     # still usable


def test_refuses_chance_mode_and_duo():
    with pytest.raises(OnirimError):
        solve_state(Game(1).new_initial_state())
    with pytest.raises(OnirimError):
        solve_state(Game(2).new_initial_state(3))


def test_broken_certificate_is_caught():
    r = CV.solve_deal(2)
    assert r.result == "WIN"
    ok, _ = replay_line(Game(1).new_initial_state(2), r.line[:-1])
    assert not ok
    ok, _ = replay_line(Game(1).new_initial_state(3), r.line)
    assert not ok
