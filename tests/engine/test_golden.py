"""Golden playthroughs: one seeded solo game and one seeded two-player game, played by the fixed
deterministic policy below, every action string and the notation after it, compared exactly
with tests/golden/solo_seed_<S>.txt and tests/golden/duo_seed_<S>.txt.

Any change of the rules, the generator (docs/RULINGS.md), the notation (section 3) or the
action strings (section 4) shows up here as a diff.  The seeds were picked (with
``--search``) so that the games contain Doors by series and by Key, Nightmares, a prophecy
and limbo shuffles.  To rewrite the files after an intended change::

    PYTHONPATH=.:tests .venv/bin/python tests/engine/test_golden.py --regen

and review the diff before committing.
"""
from __future__ import annotations

import os
import sys
from collections import Counter

from engine import Game, format_position, parse_position
from engine import cards
from paths import GOLDEN


SOLO_SEED = 173
DUO_SEED = 39
GOLDEN_DIR = GOLDEN
STATS: Counter = Counter()     # games and actions compared (python -m benchmarks.experiments
                               # run rule-verification stores them)


# --------------------------------------------------------------------------- the policy
def _split(text):
    """('play'|'discard', zone, code, swap) of a play/discard action string."""
    w = text.split()
    zone = 1 if w[1] == "shared" else 0
    code = w[2] if zone else w[1]
    swap = w[-1] if "swap" in w else None
    return w[0], zone, code, swap


def choose(s) -> str:
    """The fixed policy, as an action string.

    play phase:   1. continue the colour of the last card of the own row, a non-Key first;
                  2. else play a card of a colour held at least twice (non-Key first);
                  3. else, holding two Keys or more, discard the first Key (prophecy);
                  4. else discard a non-Key of the colour held least (lowest code order);
                     two-player: with an exchange that brings the row's colour into the own
                     cards if there is one;
                  5. else the first legal action.
    prophecy:     discard the first Nightmare revealed, else the first Location; keep the
                  others in their order.
    door:         use the Key.
    nightmare:    a Key if any; else reveal if the deck holds 10 cards or more; else move a
                  Door to limbo if any; else reveal.
    draft:        player 0 takes the first card in code order, player 1 the last.
    """
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    ph = s.phase
    if ph == "play":
        hand = s.active_hand()
        row = s.rows[s.turn]
        plays = [a for a in acts if a.startswith("play")]

        def nonkey_first(lst):
            return sorted(lst, key=lambda a: (_split(a)[2].endswith("k"), acts.index(a)))
        if row:
            col = cards.colour(row[-1])
            cont = [a for a in plays if cards.colour(cards.INDEX[_split(a)[2]]) == col]
            if cont:
                return nonkey_first(cont)[0]
        held = {}
        for c in hand:
            held[cards.colour(c)] = held.get(cards.colour(c), 0) + 1
        pairs = [a for a in plays if held[cards.colour(cards.INDEX[_split(a)[2]])] >= 2]
        if pairs:
            return nonkey_first(pairs)[0]
        keys = [c for c in hand if cards.is_key(c)]
        discards = [a for a in acts if a.startswith("discard")]
        if len(keys) >= 2:
            kd = [a for a in discards if _split(a)[2].endswith("k") and not _split(a)[3]]
            if kd:
                return kd[0]
        plain = [a for a in discards if not _split(a)[2].endswith("k")]
        if plain:
            least = min(plain, key=lambda a: (held[cards.colour(cards.INDEX[_split(a)[2]])],
                                              cards.INDEX[_split(a)[2]], a))
            _, zone, code, _ = _split(least)
            if s.players == 2 and row:
                col = cards.colour(row[-1])
                for a in plain:
                    w, z, c, sw = _split(a)
                    if (z, c) == (zone, code) and sw and \
                            cards.colour(cards.INDEX[sw.split("/")[1]]) == col and \
                            cards.colour(cards.INDEX[sw.split("/")[0]]) != col:
                        return a
            return [a for a in plain if _split(a)[:3] == _split(least)[:3]
                    and not _split(a)[3]][0]
        return acts[0]
    if ph == "prophecy":
        for want in ("N",) + cards.CODES[:12]:
            for a in acts:
                w = a.split()
                if w[1] == f"discard={want}":
                    top = s.deck[:min(5, s.deck_size())]
                    rest = [cards.CODES[c] for c in top]
                    rest.remove(want)
                    keep = ",".join(rest) or "-"
                    return f"prophecy discard={want} keep={keep}"
        return acts[0]
    if ph == "door":
        return [a for a in acts if a.startswith("door key")][0]
    if ph == "nightmare":
        keys = [a for a in acts if a.startswith("nightmare key")]
        if keys:
            return keys[0]
        if s.deck_size() >= 10:
            return "nightmare reveal"
        doors = [a for a in acts if a.startswith("nightmare door")]
        return doors[0] if doors else "nightmare reveal"
    if ph == "draft":
        return acts[0] if s.turn == 0 else acts[-1]
    return acts[0]


# --------------------------------------------------------------------------- transcript
def transcript(players: int, seed: int) -> str:
    s = Game(players).new_initial_state(seed=seed)
    mode = "solo" if players == 1 else "duo"
    lines = [f"# onirim golden playthrough: mode={mode} seed={seed}",
             "# policy: tests/engine/test_golden.py choose(); after each '> action' line, the position",
             format_position(s)]
    while not s.is_terminal():
        text = choose(s)
        s.apply_action(s.string_to_action(text))
        lines.append(f"> {text}")
        lines.append(format_position(s))
    lines.append(f"# result: {s.phase}, doors in play: {sum(len(d) for d in s.doors)}, "
                 f"actions: {len(s.history())}")
    return "\n".join(lines) + "\n"


def golden_path(players: int, seed: int) -> str:
    return os.path.join(GOLDEN_DIR, f"{'solo' if players == 1 else 'duo'}_seed_{seed}.txt")


def events(text: str) -> dict:
    acts = [ln[2:] for ln in text.splitlines() if ln.startswith("> ")]
    return {
        "prophecy": sum(a.startswith("prophecy") for a in acts),
        "door_key": sum(a.startswith("door key") for a in acts),
        "nightmare": sum(a.startswith("nightmare") for a in acts),
        "swap": sum("swap" in a for a in acts),
        "doors": int(text.rsplit("doors in play: ", 1)[1].split(",")[0]),
        "won": "result: won" in text,
    }


# --------------------------------------------------------------------------- tests
def _compare(players, seed):
    path = golden_path(players, seed)
    with open(path, encoding="utf-8") as f:
        want = f.read()
    got = transcript(players, seed)
    if got != want:
        gl, wl = got.splitlines(), want.splitlines()
        for i, (a, b) in enumerate(zip(gl, wl)):
            if a != b:
                raise AssertionError(f"{os.path.basename(path)} line {i + 1} differs:\n"
                                     f"  golden: {b}\n  engine: {a}")
        raise AssertionError(f"{os.path.basename(path)}: {len(wl)} lines, engine {len(gl)}")
    STATS["games"] += 1
    STATS["actions"] += sum(ln.startswith("> ") for ln in want.splitlines())


def test_golden_solo():
    """A whole seeded solo game, every action and position, compared exactly."""
    _compare(1, SOLO_SEED)


def test_golden_duo():
    """A whole seeded two-player game, every action and position, compared exactly."""
    _compare(2, DUO_SEED)


def test_golden_files_replay_and_are_interesting():
    """The golden files are self-consistent: each listed position parses to the state reached
    by replaying the listed actions from the seed, and the games show the events they were
    chosen for."""
    for players, seed in ((1, SOLO_SEED), (2, DUO_SEED)):
        with open(golden_path(players, seed), encoding="utf-8") as f:
            text = f.read()
        lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
        s = Game(players).new_initial_state(seed=seed)
        assert parse_position(lines[0]) == s
        for act, pos in zip(lines[1::2], lines[2::2]):
            assert act.startswith("> ")
            s.apply_action(s.string_to_action(act[2:]))
            assert parse_position(pos) == s
        assert s.is_terminal()
        ev = events(text)
        assert ev["prophecy"] and ev["nightmare"] and ev["door_key"] and ev["doors"] >= 3
        if players == 2:
            assert ev["swap"]


def _search(players, seeds):
    for seed in seeds:
        ev = events(transcript(players, seed))
        if ev["prophecy"] and ev["nightmare"] and ev["door_key"] and (
                players == 1 or ev["swap"]):
            print(players, seed, ev)


if __name__ == "__main__":
    if "--regen" in sys.argv:
        os.makedirs(GOLDEN_DIR, exist_ok=True)
        for players, seed in ((1, SOLO_SEED), (2, DUO_SEED)):
            with open(golden_path(players, seed), "w", encoding="utf-8") as f:
                f.write(transcript(players, seed))
            print("wrote", golden_path(players, seed))
    elif "--search" in sys.argv:
        _search(1, range(0, 200))
        _search(2, range(0, 200))
    else:
        print(__doc__)
