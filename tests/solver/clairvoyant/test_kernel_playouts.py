"""The numba playouts of solver/clairvoyant/playouts.py against the engine.

* a kernel deal starts exactly where the engine's does;
* the kernel greedy policy takes exactly the actions of engine.policy.greedy_action, both on
  whole greedy games and at every decision of random games (which reach far more prophecies
  and nightmares than greedy play does);
* random kernel playouts make only legal moves (replayed in the engine) and end where the
  engine ends.
"""
from __future__ import annotations

import collections

import pytest

pytest.importorskip("numba")

from engine import Game  # noqa: E402
from engine import game as game_rules  # noqa: E402
from engine.policy import greedy_action, play_game  # noqa: E402

KP = pytest.importorskip("solver.clairvoyant.playouts")
from solver.clairvoyant import deal_kernel as deal  # noqa: E402

GREEDY_SEEDS = range(50)
RANDOM_SEEDS = range(100, 130)


def _kind(a: int) -> str:
    if a < game_rules.DISCARD:
        return "play"
    if a < game_rules.SWAP:
        return "discard"
    if game_rules.PROPHECY <= a < game_rules.DOOR_KEY:
        return "prophecy"
    if a < game_rules.NM_KEY:
        return "door"
    if a < game_rules.NM_DOOR:
        return "nightmare key"
    if a < game_rules.NM_REVEAL:
        return "nightmare door"
    return "nightmare reveal" if a == game_rules.NM_REVEAL else "nightmare redraw"


def test_kernel_deal_matches_engine_setup():
    game = Game(1)
    for seed in list(range(40)) + [2**63 + 5, 2**64 - 1]:
        assert KP.initial_state(seed) == deal.engine_view(game.new_initial_state(seed)), seed


def test_greedy_playouts_take_the_engine_greedy_actions():
    game = Game(1)
    results = collections.Counter()
    for seed in GREEDY_SEEDS:
        final, strings = play_game(game, seed, greedy_action)
        actions, phase = KP.playout(seed, "greedy")
        want = final.history()
        if actions != want:
            i = next((i for i, (x, y) in enumerate(zip(actions, want)) if x != y),
                     min(len(actions), len(want)))
            pytest.fail(f"seed {seed}: the kernel greedy leaves the engine's line at decision "
                        f"{i} (engine {strings[i] if i < len(strings) else 'end'!r}, kernel "
                        f"{actions[i] if i < len(actions) else 'end'})")
        assert phase == final.phase
        results[phase] += 1
    assert results["won"] > 0 and results["lost"] > 0   # both endings were compared


def test_greedy_matches_engine_at_every_decision_of_random_games():
    """Along random engine games, the kernel greedy answers as greedy_action does."""
    import random
    game = Game(1)
    kinds = collections.Counter()
    for seed in RANDOM_SEEDS:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            want = greedy_action(state)
            got = KP.greedy_at(state)
            assert got == want, (f"seed {seed}, phase {state.phase}: kernel "
                                 f"{got} vs engine {state.action_to_string(want)!r} at {state}")
            kinds[_kind(want)] += 1
            state.apply_action(rng.choice(state.legal_actions()))
    # the comparison reached every kind of greedy decision
    for k in ("play", "discard", "prophecy", "door", "nightmare key", "nightmare reveal"):
        assert kinds[k] > 0, (k, kinds)


def test_random_playouts_are_legal_and_end_properly():
    game = Game(1)
    lines = set()
    for seed in RANDOM_SEEDS:
        for stream in (0, 1):
            actions, phase = KP.playout(seed, "random", stream=stream)
            lines.add(tuple(actions))
            state = game.new_initial_state(seed)
            for i, a in enumerate(actions):
                assert not state.is_terminal(), f"seed {seed}: moves after the end"
                assert a in state.legal_actions(), \
                    f"seed {seed} stream {stream}: illegal action {a} at decision {i}"
                state.apply_action(a)
            assert state.is_terminal(), f"seed {seed}: the kernel stopped before the end"
            assert phase == state.phase in ("won", "lost")
    assert len(lines) == 2 * len(RANDOM_SEEDS)   # seeds and streams give different games


def test_random_playouts_are_reproducible():
    assert KP.playout(7, "random", stream=3) == KP.playout(7, "random", stream=3)


def test_batch_counts_agree_with_single_playouts():
    seeds = list(range(20))
    for policy in ("random", "greedy"):
        singles = [KP.playout(s, policy) for s in seeds]
        r = KP.run_batch(seeds, policy)
        assert r == {"games": len(seeds), "steps": sum(len(a) for a, _ in singles),
                     "wins": sum(p == "won" for _, p in singles), "failed": 0}


def test_greedy_batch_never_fails():
    r = KP.run_batch(range(1000, 3000), "greedy")
    assert r["failed"] == 0 and r["games"] == 2000
    assert 0 < r["wins"] < r["games"]


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        KP.playout(0, "clever")


def _position(**fields):
    """A deal-mode solo position; every card not listed goes to the discard pile."""
    from engine import cards
    from engine.notation import parse_position
    listed = collections.Counter()
    for key in ("hand", "row", "doors", "deck", "limbo", "drawn"):
        for code in fields.get(key, "").split(","):
            if code and code != "-":
                listed[code] += 1
    rest = []
    for code, n in zip(cards.CODES, cards.COUNTS):
        rest += [code] * (n - listed[code])
    text = " ".join(f"{k}={v or '-'}" for k, v in fields.items())
    return parse_position(f"mode=solo {text} discard={','.join(rest) or '-'} seed=5 shuffles=3")


@pytest.mark.parametrize("fields", [
    # prophecy: only Doors revealed, ties between Doors of equal value keep the revealed order
    dict(phase="prophecy", hand="Os,Am,Ak,Gs", row="Os,Am", doors="-", deck="DG,DO,DA",
         limbo="-"),
    dict(phase="prophecy", hand="Os,Am,Ls,Gs", row="Os", doors="-", deck="DL,DG", limbo="-"),
    dict(phase="prophecy", hand="Os,Am,Gk,Gs", row="Os,Am", doors="DA,DA", deck="DO,DG,DL",
         limbo="-"),
    # prophecy: Nightmares, Locations of the open series, unneeded colours, a lone card
    dict(phase="prophecy", hand="Os,Om,Ak,Gs", row="Am,Os", doors="DO,DO",
         deck="Os,N,Gm,Am,N,Ls,Lm", limbo="-"),
    dict(phase="prophecy", hand="Os,Om,Ak,Gs", row="As,Om", doors="-",
         deck="Os,Ls,Gm,Am,Os,Ls,Lm", limbo="-"),
    dict(phase="prophecy", hand="Ls,Lm,Lk,Gs", row="Ls,Gm", doors="DG", deck="Lm", limbo="-"),
    # nightmare: no Key; deck sizes around 10 and 6; Doors in play or not; needed colours or not
    dict(phase="nightmare", drawn="N", hand="Os,Om,As", row="Gs", doors="DA",
         deck="Os,Os,Gm,Am,Ls,Lm,Ls,Gs,Gs,As", limbo="-"),
    dict(phase="nightmare", drawn="N", hand="Os,Om,As", row="Gs", doors="DA,DG",
         deck="Os,Os,Gm,Am,Ls,Lm,Ls", limbo="-"),
    dict(phase="nightmare", drawn="N", hand="Os,Om,As", row="Gs", doors="DA,DG",
         deck="Os,Os,Gm,Am,Ls", limbo="-"),
    dict(phase="nightmare", drawn="N", hand="Os,Om", row="Gs", doors="DO,DO,DG",
         deck="Os,Os,Gm,Am,Ls,Lm,Ls", limbo="-"),
    dict(phase="nightmare", drawn="N", hand="Os,Ok,Ak,Lk", row="Gs,Lm", doors="DL",
         deck="Os,Os,Gm", limbo="-"),
    # a drawn Door with its Key in hand
    dict(phase="door", drawn="DG", hand="Os,Gk,As", row="Gs", doors="-", deck="Os,Ls",
         limbo="-"),
    # play: a complete series, an open series of an unneeded colour, series of two
    dict(phase="play", hand="Os,Om,As,Am,Gk", row="Os,Om,Os", doors="-", deck="Ls,Lm,Gs",
         limbo="-"),
    dict(phase="play", hand="Os,Om,As,Am,Gk", row="Om,Os", doors="DO,DO", deck="Ls,Lm,Gs",
         limbo="-"),
    dict(phase="play", hand="Ls,Ok,As,Ak,Gk", row="Gs,Gm", doors="-", deck="Ls,Lm,Gs",
         limbo="-"),
])
def test_greedy_matches_engine_on_made_positions(fields):
    state = _position(**fields)
    want = greedy_action(state)
    assert KP.greedy_at(state) == want, state.action_to_string(want)
