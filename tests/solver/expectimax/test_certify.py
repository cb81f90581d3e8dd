"""The engine replay that certifies an expectimax value (solver/expectimax/certify.py,
docs/EXPECTIMAX.md section 7).

The replay plays the strategy the kernel's values choose through the engine's own rules
and sums its win probability in exact fractions.  On positions the brute force finishes,
that fraction must be the brute force's exact value (the strategy is optimal), and a kernel
value made too high must be caught."""
from fractions import Fraction

import numpy as np
import pytest

import naive_expectimax as N
from benchmarks.bench_expectimax import late_position
from engine.notation import parse_position
from solver.expectimax import kernel
from solver.expectimax.certify import CertificateTooLarge, certify
from solver.expectimax.solver import Expectimax, encode

from test_expectimax_agreement import NAIVE_CAP, _walk
from test_expectimax_speedups import SEVEN, complete


def _exact(state, naive) -> Fraction:
    return naive[""] if state.is_chance_node() else max(naive.values())


# The random positions of seed 4242 with decks of up to 6 cards of which the brute force finishes
# the first 800 (test_expectimax_probe.py walks the first 300 of them).
CERTIFY_CANDIDATES = 1264


def test_certified_fraction_is_the_brute_force_value():
    """Every position of a random sample whose value is fractional (and the first 100
    others): the replay's fraction is the brute force's exact value.

    The sample: the first ``CERTIFY_CANDIDATES`` random positions, those the brute force
    finishes.  Past the first 100 positions of value 0 or 1 the kernel's exact value picks
    out the fractional ones before the brute force runs (the brute force of the skipped
    positions was nine tenths of this test's time, and its result was not used); the kernel's
    values are checked against the brute force on 1,000 other positions
    (test_expectimax_agreement.py), and here on every position the brute force runs on."""
    solver = Expectimax(16)
    checked = fractional = prophecies = 0
    for text in N.random_positions(4242, CERTIFY_CANDIDATES, max_deck=6):
        state = parse_position(text)
        kernel_value = None
        if checked - fractional >= 100:
            solver.clear()
            iv = solver.value(state)
            assert iv.exact, (text, iv)
            kernel_value = iv.lo
            if kernel_value in (0.0, 1.0):
                continue
        try:
            naive = ({"": N.value(state, NAIVE_CAP)} if state.is_chance_node()
                     else N.action_values(state, NAIVE_CAP))
        except N.NodeCap:
            continue
        want = _exact(state, naive)
        if kernel_value is not None:
            assert abs(kernel_value - float(want)) <= 1e-12, (text, kernel_value, want)
        if want in (0, 1) and checked - fractional >= 100:
            continue
        solver.clear()
        r = certify(solver, state)
        assert r["certified"] == want, (text, r)
        assert r["ok"] and r["agrees"] and r["unmatched"] == 0, (text, r)
        assert r["order_misses"] == 0 and r["order_fallbacks"] == 0, (text, r)
        checked += 1
        fractional += 0 < want < 1
        prophecies += r["prophecies"]
    print(f"{checked} positions certified, {fractional} fractional, {prophecies} prophecies")
    assert fractional >= 15 and prophecies >= 10, (fractional, prophecies)


def test_full_engine_key_gives_the_same_fraction():
    """The replay's short key drops the discard pile and the row before its last card;
    keyed on the engine's whole position instead, the fraction is the same."""
    solver = Expectimax(16)
    for text, state, naive in _walk(77, 40, max_deck=6):
        solver.clear()
        short = certify(solver, state)
        full = certify(solver, state, full_key=True)
        assert short["certified"] == full["certified"], text
        assert full["positions"] >= short["positions"]


def test_the_committed_order_is_found():
    """Only the order Lk, DL (then anything) wins for sure: the replay must commit to it,
    found from the kernel's deferred line on the first try."""
    text = complete(f"mode=solo phase=prophecy hand=Os,As,Gs,Ls row=- {SEVEN} "
                    "deck=Lk,DL,N,Om,N")
    r = certify(Expectimax(16), parse_position(text))
    assert r["certified"] == 1 and r["ok"], r
    assert r["prophecies"] >= 1 and r["order_fallbacks"] == 0 and r["order_misses"] == 0


def _row_of(solver, state):
    w = [np.int64(x) for x in encode(state)]
    st, *c = kernel.canonical(*w)
    keys = solver.keys
    hit = np.nonzero((keys[:, 0] == c[0]) & (keys[:, 1] == c[1]) & (keys[:, 2] == c[2])
                     & (keys[:, 3] == c[3]))[0]
    assert len(hit) == 1
    return hit[0]


def test_an_overvalued_root_is_caught():
    state = late_position(63, 10)
    solver = Expectimax(20)
    v = solver.value(state).lo
    assert 0 < v < 0.9
    row = _row_of(solver, state)
    solver.vals[row, 5] = solver.vals[row, 6] = v + 0.1     # the kernel now claims more
    r = certify(solver, state)
    assert r["claimed"] == pytest.approx(v + 0.1)
    assert not r["agrees"] and not r["ok"]
    assert float(r["certified"]) == pytest.approx(v, abs=1e-12)
    assert r["unmatched"] >= 1


def test_an_overvalued_position_below_the_root_is_caught():
    """The root's own value stays right, so the fractions agree; the decision whose value
    was raised is where no action reaches the kernel's value."""
    state = late_position(63, 10)
    solver = Expectimax(20)
    solver.value(state)
    # the position after the best first action
    ranking = solver.rank(state)
    child = state.clone()
    child.apply_action(state.string_to_action(ranking.actions[0].action))
    while child.is_chance_node():          # down to a decision the strategy reaches
        a, _ = max(child.chance_outcomes(), key=lambda o: o[1])
        child.apply_action(a)
    cv = solver.value(child).lo
    row = _row_of(solver, child)
    solver.vals[row, 5] = solver.vals[row, 6] = min(1.0, cv + 0.2)
    r = certify(solver, state)
    assert r["unmatched"] >= 1 and not r["ok"], r
    assert r["max_gap"] >= 0.19


def test_a_larger_position():
    r = Expectimax(22).certify(late_position(87, 12))
    assert r["ok"] and r["order_fallbacks"] == 0 and r["order_misses"] == 0, r
    assert 0.3 < r["certified"] < 0.7
    assert r["prophecies"] > 300


# Listed decks longer than 8 cards: the known cards past the eighth slot live in the fourth
# key word (docs/EXPECTIMAX.md section 2), a path that a coverage run showed no test encoded
# (prophecies know at most 5 cards; only a query can list more).  The brute force cannot
# finish these, so the engine certificate and the unpruned search are the references.
LONG_LISTED = [
    "mode=solo phase=play hand=Os,Gs,Ls,Ls,Lm row=Gm,Gs,Gm,As,Am,Ak,Lm,Ls,Lk,As,Ak,Am,Gs,Gm,"
    "Gk,Om,Os,Ok,Om doors=DO,DA,DA,DG,DG,DL discard=Os,Os,Os,Os,Om,Om,Ok,As,As,As,As,Am,Am,Ak,"
    "Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lk,Lk,N,N,N,N,N,N,N limbo=- deck=Gs,Os,Ok,Lm,Os,N,N,As,DO,*",
    "mode=solo phase=play hand=Os,Om,As,Gs,Ls row=Os,Ok,Os,Gm,Os,Om,Ls,Lm,As,Am,As,Om,Os,Gm,Gs,"
    "Gk,Ls,Lk doors=DO,DA,DA,DG,DG,DL discard=Os,Os,Os,Os,Om,Ok,As,As,As,As,Am,Ak,Ak,Ak,Gs,Gs,"
    "Gs,Gs,Gs,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lm,Lk,Lk,N,N,N,N,N,N,N limbo=- "
    "deck=N,Am,N,Ok,N,As,DL,Am,DO",
    "mode=solo phase=play hand=Os,Om,Ok,Ls,Lm row=Gs,Gk,Gs,Lm,Ls,Lk,Gs,Gk,Ls,Gm,Gs,Gm,Os,Lk,Os,"
    "Am,As,Ak,Om doors=DA,DA,DG,DL discard=Os,Os,Os,Os,Os,Om,Ok,As,As,As,As,As,As,Am,Am,Am,Ak,"
    "Ak,Gs,Gs,Gs,Gm,Gm,Ls,Ls,Ls,Lm,Lk,N,N,N,N,N,N,N limbo=- "
    "deck=DL,Lm,DO,Os,As,Om,DG,N,DO,N,N,Gk,*",
]


@pytest.mark.parametrize("text", LONG_LISTED)
def test_listed_decks_past_eight_cards_certify(text):
    state = parse_position(text)
    assert len(state.deck) >= 9 and encode(state)[3] != 0     # the fourth word is used
    r = Expectimax(20).certify(state)
    assert r["ok"] and 0 < r["certified"] < 1, r
    plain = Expectimax(20, prune=False).value(state)
    assert plain.exact and abs(plain.lo - r["claimed"]) <= 1e-12


def test_position_cap():
    with pytest.raises(CertificateTooLarge):
        Expectimax(20).certify(late_position(87, 12), max_positions=500)


# ----------------------------------------------------------------------------- the CLI
def _late_text():
    from benchmarks.bench_expectimax import positions
    from engine.notation import format_position
    return format_position(positions(10, 1, 80)[0][1])


def test_cli_certify(capsys):
    import json

    from onirim.cli import main
    text = _late_text()
    assert main(["best", text, "--certify", "--json", "--table-bits", "18"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["certificate"]
    assert c["ok"] is True and 0 < c["value"] < 1
    num, den = map(int, c["fraction"].split("/"))
    assert abs(num / den - out["actions"][0]["value"]) <= 1e-12
    assert c["positions"] > 1000
    assert main(["best", text, "--certify", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert max(len(x) for x in out.splitlines()) <= 80          # wrapped (issue 27 item 14)
    line = "certificate: " + " ".join(out.split("\ncertificate: ", 1)[1].split())
    assert line.startswith("certificate: the engine replays one optimal strategy")
    assert line.endswith("which equals the best action's value")


def test_cli_certify_under_a_budget_says_why_not(capsys):
    import json

    from onirim.cli import main
    assert main(["best", _late_text(), "--certify", "--json", "--budget-nodes", "50"]) == 0
    c = json.loads(capsys.readouterr().out)["certificate"]
    assert c["ok"] is None and "budget" in c["reason"]


def test_cli_certify_refuses_clairvoyant_mode(capsys):
    from onirim.cli import main
    assert main(["best", _late_text(), "--certify", "--mode", "clairvoyant"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("onirim: error: --certify") and err.count("\n") == 1


def test_cli_certify_exit_status_when_it_disagrees(capsys, monkeypatch):
    """A certificate that disagrees (a solver bug) is reported, with exit status 1."""
    from onirim.cli import main

    def lying(self, state, progress=None, **kw):
        r = certify(self, state)
        r["ok"] = r["agrees"] = False
        return r
    monkeypatch.setattr(Expectimax, "certify", lying)
    assert main(["best", _late_text(), "--certify", "--no-progress"]) == 1
    assert "DISAGREES" in capsys.readouterr().out
