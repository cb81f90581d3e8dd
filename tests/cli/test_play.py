"""``onirim play`` beyond the basics of tests/cli/test_cli.py: what a move says it did (from the
engine's own steps, ``State.apply_action_logged``), the prophecy's orderings at 80 columns,
the ``position`` command, the hint (exact near the end, else a named heuristic) and the help.
"""
from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest

from engine import Game, parse_position
from engine import cards
from engine.game import NM_REDRAW, NM_REVEAL
from engine.policy import greedy_action, random_action
from engine.view import player_view
from duo_kit import redeal_unseen
from honest_kit import permute_unseen
from onirim.cmd_play import HELP, Hinter, Session, describe, moves_table
from solver.api import policy_entries

DRAWS = ("draw", "limbo", "door", "nightmare", "reveal-discard", "reveal-limbo")


def _steps(players, seeds, policy="greedy", limit=400):
    """(state before, action) along games: greedy, or random (which meets every Nightmare
    option, redraws and reveals included)."""
    for seed in seeds:
        rnd = random.Random(seed)
        s = Game(players).new_initial_state(seed)
        n = 0
        while not s.is_terminal() and n < limit:
            a = greedy_action(s) if policy == "greedy" else random_action(s, rnd)
            yield s.clone(), a
            s.apply_action(a)
            n += 1


def _after_decision_hand(state, a):
    """The active player's held cards once the decision itself is made, before any draw."""
    held = Counter(state.active_hand())
    text = state.action_to_string(a)
    if state.phase == "play":                 # solo: play Os / discard Os
        held[cards.INDEX[text.split()[-1]]] -= 1
    elif text.startswith("door key"):
        held[cards.key_of(cards.colour(state.drawn))] -= 1
    elif text.startswith("nightmare key"):
        held[cards.INDEX[text.split()[-1]]] -= 1
    elif a == NM_REDRAW:
        held = Counter()
    return +held


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_logged_draws_account_for_every_card(policy):
    """The log is checked against the piles: the Locations it says were drawn are exactly
    what the hand gained, and every card that left the deck is in it."""
    kinds = Counter()
    for s, a in _steps(1, range(12), policy):
        t = s.clone()
        log = t.apply_action_logged(a)
        u = s.clone()
        u.apply_action(a)
        assert t == u and t.history() == u.history()          # same rules, same result
        kinds.update(ev for ev, _ in log)
        drawn = Counter(c for ev, c in log if ev == "draw")
        assert drawn == Counter(t.hands[0]) - _after_decision_hand(s, a) or \
            t.is_terminal() and t.phase == "lost"
        out_of_deck = sum(1 for ev, _ in log if ev in DRAWS + ("series-door",))
        back = sum(n for ev, n in log if ev == "shuffle")
        prophecy = 1 if s.phase == "prophecy" else 0
        assert s.deck_size() - t.deck_size() == out_of_deck + prophecy - back
    # every kind of card movement the accounting above counts was met, the Door a completed
    # series takes from the deck included (seeds 0-11: greedy 57 times, random 8 times)
    assert kinds["draw"] and kinds["limbo"] and kinds["shuffle"] and kinds["series-door"]
    if policy == "random":
        assert kinds["reveal-discard"] and kinds["nightmare"]


def test_logged_state_is_a_plain_state_again():
    s = Game(1).new_initial_state(3)
    s.apply_action_logged(s.legal_actions()[0])
    assert type(s).__name__ == "State" and not hasattr(s, "_log")
    with pytest.raises(Exception):
        s.apply_action_logged(10 ** 6)
    assert type(s).__name__ == "State"


def _session(lines, seed, players=1, width=80):
    inp, out = io.StringIO("".join(f"{x}\n" for x in lines)), io.StringIO()
    Session(players, seed, inp=inp, out=out, width=width).run()
    return out.getvalue()


def test_drawing_the_card_just_discarded_is_shown():
    # seed 3: discarding Os draws another Os (a difference of hands showed nothing)
    out = _session(["2", "1", "3"], seed=3)
    part = out.split("-> discard Os\n")[1].split("\n\n")[0]
    assert "   drew Os" in part.splitlines()


def _find(policy, seeds, pred):
    for s, a in _steps(1, seeds, policy):
        if pred(s, a):
            return s, a
    pytest.fail("no such move in these games")


def test_redraw_lists_the_cards_actually_drawn():
    s, a = _find("random", range(40), lambda s, a: a == NM_REDRAW)
    t = s.clone()
    log = t.apply_action_logged(a)
    lines = describe(s, t, log, "nightmare redraw")
    drew = [x for x in lines if x.startswith("drew ") and "to limbo" not in x]
    aside = [x for x in lines if "to limbo (set aside: the hand is being redrawn)" in x]
    assert aside or not any(ev == "limbo" for ev, _ in log)
    shown = " ".join(x.removeprefix("drew ") for x in drew).split()
    if t.phase != "lost":
        assert Counter(shown) == Counter(cards.CODES[c] for c in t.hands[0])
    assert lines[0].startswith("to the discard pile: ")


def test_doors_sent_to_limbo_while_refilling_are_shown():
    def pred(s, a):
        t = s.clone()
        return any(ev == "limbo" and cards.is_door(c) for ev, c in t.apply_action_logged(a))
    s, a = _find("greedy", range(60), pred)
    t = s.clone()
    lines = describe(s, t, t.apply_action_logged(a), s.action_to_string(a))
    assert any(re.match(r"drew (D[OAGL] ?)+: to limbo \(no usable Key", x) for x in lines), lines


def test_reveal_shows_what_it_discards():
    s, a = _find("random", range(40), lambda s, a: a == NM_REVEAL and s.deck_size() >= 5)
    t = s.clone()
    log = t.apply_action_logged(a)
    lines = describe(s, t, log, "nightmare reveal")
    rev = [x for x in lines if x.startswith("revealed ")]
    assert len(rev) == 1
    gone = [cards.CODES[c] for ev, c in log if ev == "reveal-discard"]
    if gone:
        assert f"{' '.join(gone)} to the discard pile" in rev[0]
    # what the reveal discarded is not also reported as the decision's own discard
    first = lines[0]
    assert first == "to the discard pile: N"


def _prophecy_state(distinct=5):
    for s, a in _steps(1, range(200), "random"):
        if s.phase == "prophecy" and len(set(s.deck[:5])) == distinct == min(5, len(s.deck)):
            return s
    pytest.fail("no prophecy with 5 distinct cards")


def test_prophecy_orderings_fit_80_columns():
    s = _prophecy_state()
    labels = [s.action_to_string(a) for a in s.legal_actions()]
    assert len(labels) == 120
    lines = moves_table(labels, 80)
    assert max(len(x) for x in lines) <= 80
    nums = [int(n) for x in lines for n in re.findall(r"(\d+)\)", x)]
    assert sorted(nums) == list(range(1, 121))
    assert "top of the deck first" in lines[0]
    assert len(lines) <= 40          # 5 groups of 24, four to a line, and headers
    for width in (40, 60, 120):
        assert max(len(x) for x in moves_table(labels, width)) <= width


def test_prophecy_accepts_the_short_form():
    s = _prophecy_state()
    sess = Session(1, 0, inp=io.StringIO(), out=io.StringIO(), width=80)
    sess.state = s
    want = s.legal_actions()[7]
    text = s.action_to_string(want).removeprefix("prophecy ")
    assert sess.parse_move(text) == want
    assert sess.parse_move(text.upper()) == want


@pytest.mark.parametrize("seed", [1, 3])
def test_whole_game_fits_80_columns(seed, monkeypatch):
    from engine.policy import play_game
    _, moves = play_game(Game(1), seed)
    out = _session(["help", "hint"] + moves, seed=seed, width=80)
    long = [x for x in out.splitlines() if len(x) > 80]
    assert long == []


def test_two_player_game_fits_80_columns():
    from engine.policy import play_game
    _, moves = play_game(Game(2), 4)
    out = _session(moves[:60], seed=4, players=2, width=80)
    assert [x for x in out.splitlines() if len(x) > 80] == []


def test_help_has_the_legend_and_the_nightmare_options():
    out = _session(["help"], seed=1)
    for words in ("O = Observatory (red)", "A = Aquarium (blue)", "G = Garden (green)",
                  "L = Library (brown)", "s = Sun", "m = Moon", "k = Key", "DO DA DG DL",
                  "N = Nightmare", "nightmare key", "nightmare door", "nightmare reveal",
                  "nightmare redraw", "keep= lists the new top of the deck first"):
        assert words in out, words
    assert HELP in out


def test_position_command_prints_the_player_view():
    from engine.policy import play_game
    _, moves = play_game(Game(1), 34)
    for n in (0, 5, 17):
        out = _session(moves[:n] + ["position"], seed=34)
        line = [x for x in out.splitlines() if x.startswith('onirim best "')][-1]
        text = line.removeprefix('onirim best "').removesuffix('"')
        assert "seed=" not in text
        s = Game(1).new_initial_state(34)
        for m in moves[:n]:
            s.apply_action(m)
        assert parse_position(text) == player_view(s)


def test_position_command_two_player_hides_the_partner():
    out = _session(["position"], seed=2, players=2)
    line = [x for x in out.splitlines() if x.startswith('onirim best "mode=duo')][-1]
    assert "hand1=?,?,?" in line or "hand1=-" in line
    assert "seed=" not in line


def test_heuristic_hint_is_named_and_blind_to_the_hidden_deck():
    from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    name = (f"{DEFAULT_HONEST_POLICY} (base={DEFAULT_HONEST_ARGS['base']})"
            if DEFAULT_HONEST_POLICY in policy_entries() else "greedy")
    h = Hinter(lambda _: None)
    rnd = random.Random(3)
    for s, _ in _steps(1, range(3), limit=25):
        if s.deck_size() <= h.deck_max:
            continue
        a, why = h.hint(s, 11)
        assert why.startswith(f"heuristic: {name} policy, not proven best")
        assert h.hint(permute_unseen(s, rnd), 11) == (a, why)


def test_two_player_hint_is_the_duo_default_from_the_players_view():
    from solver.api import make_policy
    from solver.duo.rollout import DEFAULT_DUO_POLICY
    h = Hinter(lambda _: None)
    ref = make_policy(DEFAULT_DUO_POLICY)
    rnd = random.Random(4)
    changed = n = 0
    for s, _ in _steps(2, range(2), limit=14):
        if len(s.legal_actions()) < 2:
            continue
        a, why = h.hint(s, 11)
        assert why.startswith(f"heuristic: {DEFAULT_DUO_POLICY} policy from player {s.turn}'s "
                              "view") and "not proven best" in why
        assert a == ref.act(player_view(s), 11) and a in s.legal_actions()
        t = redeal_unseen(s, rnd)
        changed += t.hands[1 - s.turn] != s.hands[1 - s.turn] or t.deck != s.deck
        assert h.hint(t, 11) == (a, why)
        n += 1
    assert n >= 10 and changed >= n // 2


def test_two_player_hint_in_the_open_game_is_the_default_on_the_open_view():
    """--talk open: the hint decides from the open game's view (the partner's hand listed),
    says so, and a redeal of the deck alone changes nothing."""
    from solver.api import default_policy_name, make_policy
    h = Hinter(lambda _: None)
    ref = make_policy(default_policy_name(2, "open"))
    rnd = random.Random(5)
    n = 0
    for s, _ in _steps(2, range(2), limit=10):
        if len(s.legal_actions()) < 2:
            continue
        a, why = h.hint(s, 11, "open")
        assert "open game" in why and a == ref.act(player_view(s, talk="open"), 11)
        assert h.hint(redeal_unseen(s, rnd, "open"), 11, "open") == (a, why)
        n += 1
    assert n >= 5


def test_talk_needs_two_players(tmp_path):
    from winrate_kit import onirim
    r = onirim("play", "--talk", "open", cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--talk open" in lines[0] and "--players 2" in lines[0]


class _FakeRanking:
    def __init__(self, rows):
        self.actions, self.extra, self.criterion = rows, {}, None


class _Row:
    def __init__(self, action, lo, hi):
        self.action, self.lo, self.hi = action, lo, hi


def test_hint_uses_the_exact_answer_only_when_proven(monkeypatch):
    s = next(x for x, _ in _steps(1, [5], limit=400) if x.deck_size() <= 15
             and x.phase == "play")
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    h = Hinter(lambda _: None)
    seen = []

    from solver.api import SolverBase

    class Fake(SolverBase):       # a registered solver's interface (the hint calls api.rank)
        def __init__(self, rows):
            self.rows = rows

        def rank(self, view, budget_nodes=None, budget_s=None, *, on_progress=None,
                 reserve_s=0.0):
            seen.append((view, budget_s))
            return _FakeRanking(self.rows)

    h._solver = Fake([_Row(acts[-1], 0.7, 0.7)] + [_Row(x, 0.1, 0.6) for x in acts[:-1]])
    a, why = h.hint(s, 1)
    assert s.action_to_string(a) == acts[-1] and why.startswith("exact: proven best, wins "
                                                                "with probability 0.7000")
    assert seen[-1][1] == h.limit_s and seen[-1][0] == player_view(s)
    # overlapping bounds: not proven, so the hint falls back to the named heuristic
    h._solver = Fake([_Row(acts[-1], 0.5, 0.9)] + [_Row(x, 0.1, 0.6) for x in acts[:-1]])
    a, why = h.hint(s, 1)
    assert why.startswith("heuristic: ") and "did not settle it in 2 s" in why


@pytest.mark.slow
def test_hint_is_exact_near_the_end():
    """The real search (compiles once: up to two minutes on a cold numba cache)."""
    s = next(x for x, _ in _steps(1, [5], limit=400) if x.deck_size() <= 12
             and x.phase == "play")
    a, why = Hinter(lambda _: None).hint(s, 1)
    assert why.startswith("exact: "), why
    from solver.expectimax.solver import Expectimax
    r = Expectimax(table_bits=18).rank(player_view(s))
    best = max(r.actions, key=lambda x: x.lo)
    assert a == s.string_to_action(best.action) or any(
        x.lo == best.lo and s.string_to_action(x.action) == a for x in r.actions)


# ------------------------------------------------------------- issue 27, item 7: honest play
def test_the_seed_stays_off_the_screen_until_the_game_ends():
    """The seed fixes the whole deck order: it is not on the player's screen during the game
    (board titles, start), only in the line that ends it."""
    seed = 918_273_645
    moves = [s.action_to_string(a) for s, a in _steps(1, [seed], limit=30)]
    out = _session(moves[:20] + ["board", "position"], seed=seed)
    body, _, tail = out.rpartition("Game abandoned.")
    assert str(seed) not in out.replace(tail, "")
    assert f"Seed {seed} (replay with: onirim play --seed {seed})" in tail


def test_undo_is_refused_without_analysis_mode():
    """Without --analysis, a move cannot be taken back once its draw is seen."""
    out = _session(["1", "undo", "1"], seed=3)
    assert "undo is off" in out and "onirim play --analysis" in out
    assert "Undone." not in out
    assert out.count("\n-> ") == 2                 # both moves stand


def test_analysis_mode_says_it_breaks_honest_play():
    inp, out = io.StringIO("1\nundo\nquit\n"), io.StringIO()
    Session(1, 3, inp=inp, out=out, width=80, analysis=True).run()
    text = out.getvalue()
    assert "Analysis mode" in text and "not honest play" in text
    assert "Undone." in text


def test_two_player_position_is_the_contract_view_and_parses_back():
    """`position` in a two-player game prints the player's view with the partner's hand as
    `?` (one per card) and the unknown deck as `*`, ready for `onirim best`, and no stale
    note that best takes solo positions only."""
    from engine.notation import parse_view
    moves = [s.action_to_string(a) for s, a in _steps(2, [2], limit=20)]
    out = _session(moves[:12] + ["position"], seed=2, players=2)
    assert "solo positions only" not in out
    line = [x for x in out.splitlines() if x.startswith('onirim best "mode=duo')][-1]
    text = line.removeprefix('onirim best "').removesuffix('"')
    s = Game(2).new_initial_state(2)
    for m in moves[:12]:
        s.apply_action(s.string_to_action(m))
    other = 1 - s.turn
    known = [cards.CODES[c] for c in player_view(s).hands[other]]
    assert f"hand{other}={','.join(known + ['?'] * (3 - len(known)))} " in text
    assert "?" in text and "seed=" not in text
    assert parse_view(text) == player_view(s)
