"""``onirim play [--seed S] [--players 1|2]``: play a game of Onirim in the terminal.

The game is a seeded deal (deal mode), so the same seed always gives the same game; without
``--seed`` a random seed is chosen and printed.  At each decision the board is drawn and the
legal moves are listed, numbered.  Input, one per line:

* a move number, or a move as its action string (``play Os``, ``discard Ak``, ``door key``,
  ``nightmare reveal``, ``prophecy discard=N keep=Os,Am,Gk,Lk``; case does not matter);
* ``undo`` (back to the previous decision), ``hint`` (the greedy policy's choice), ``board``
  (draw the board again), ``help``, ``quit``.

End of input quits cleanly.  A bad line gets a one-line message and the prompt again.
"""
from __future__ import annotations

import argparse
import secrets
import sys
from collections import Counter

from engine.errors import IllegalActionError
from engine.game import Game
from engine.policy import greedy_action
from engine.rng import MAX_SEED

from .render import WIDTH, codes, render

HELP = """\
Commands:
  <number>          make the move with that number
  <move>            make a move by its action string, e.g. play Os, discard Ak, door key,
                    nightmare reveal, prophecy discard=N keep=Os,Am,Gk,Lk
  undo              take back the last move (repeatable)
  hint              show what the built-in greedy policy would do
  board             draw the board again
  help              this text
  quit              stop the game
Goal: get all 8 Doors in play before the deck runs out.  A card played to the row must not
share its symbol (Sun, Moon, Key) with the last card of the row; three cards of one colour in
a row find a Door of that colour.  Discarding a Key triggers a prophecy."""


def seed_arg(text: str) -> int:
    """argparse type of a deal seed: an integer from 0 to 2**64-1."""
    try:
        n = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: expected a whole number "
                                         "from 0 to 2**64-1") from None
    if not 0 <= n <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"seed {n} is out of range 0 .. 2**64-1")
    return n


def add_arguments(parser):
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="deal seed, 0 .. 2**64-1 (default: a random one, printed)")
    parser.add_argument("--players", type=int, choices=(1, 2), default=1,
                        help="1 (solo, default) or 2 (two-player cooperative)")


def moves_table(labels: list[str]) -> list[str]:
    """Numbered moves, in columns when there are many."""
    items = [f"{i:>3}) {s}" for i, s in enumerate(labels, 1)]
    if len(items) <= 12:
        return items
    width = max(len(x) for x in items) + 2
    cols = max(1, WIDTH // width)
    rows = -(-len(items) // cols)
    out = []
    for r in range(rows):
        out.append("".join(items[r + c * rows].ljust(width)
                           for c in range(cols) if r + c * rows < len(items)).rstrip())
    return out


class Session:
    """One interactive game: the state, the undo stack and what the players know of the deck."""

    def __init__(self, players: int, seed: int, inp=None, out=None):
        self.game = Game(players)
        self.seed = seed
        self.state = self.game.new_initial_state(seed)
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.known = 0            # cards on top of the deck known from a prophecy
        self.undo_stack: list[tuple] = []
        self.echo = not _isatty(self.inp)

    # -------------------------------------------------------------- output helpers
    def say(self, text: str = "") -> None:
        try:
            print(text, file=self.out)
        except UnicodeEncodeError:        # a terminal that cannot show what the user typed
            enc = getattr(self.out, "encoding", None) or "ascii"
            print(text.encode(enc, "replace").decode(enc), file=self.out)

    def shown_top(self) -> int:
        if self.state.phase == "prophecy":
            return min(5, self.state.deck_size())
        return self.known

    def draw_board(self) -> None:
        self.say()
        for line in render(self.state, deck_shown=self.shown_top()):
            self.say(line)

    def labels(self) -> list[str]:
        s = self.state
        return [s.action_to_string(a) for a in s.legal_actions()]

    def list_moves(self) -> None:
        self.say("Moves:")
        for line in moves_table(self.labels()):
            self.say(line)

    def prompt(self) -> str | None:
        s = self.state
        who = f"player {s.turn}" if s.players == 2 else "you"
        self.out.write(f"{who}> ")
        self.out.flush()
        try:
            line = self.inp.readline()
        except UnicodeDecodeError:
            self.say()
            self.say("Unreadable input (not valid text).")
            return ""                     # re-prompt
        if not line:
            self.say()
            return None
        # undecodable bytes (kept as surrogates by some streams) become '?'
        line = line.rstrip("\r\n").encode("utf-8", "surrogateescape").decode(
            "utf-8", "replace").replace("\ufffd", "?")
        if self.echo:
            self.say(line)
        return line

    # -------------------------------------------------------------- input
    def parse_move(self, text: str):
        """The action integer named by ``text`` (a number or an action string), else None."""
        legal = self.state.legal_actions()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise IllegalActionError(f"no move number {n}: choose 1 to {len(legal)}")
        want = " ".join(text.split()).lower()
        for a in legal:
            if self.state.action_to_string(a).lower() == want:
                return a
        return None

    # -------------------------------------------------------------- moves
    def apply(self, action: int) -> None:
        s = self.state
        before = s.clone()
        self.undo_stack.append((before, self.known))
        name = s.action_to_string(action)
        if s.phase == "prophecy":
            kn, size = min(5, s.deck_size()) - 1, s.deck_size() - 1
        else:
            kn, size = self.known, s.deck_size()
        s.apply_action(action)
        if s.shuffles != before.shuffles:
            self.known = 0
        else:
            self.known = max(0, kn - (size - s.deck_size()))
        who = f"player {before.turn}: " if s.players == 2 else ""
        self.say(f"-> {who}{name}")
        for line in self.events(before, s):
            self.say(f"   {line}")

    def events(self, before, after) -> list[str]:
        """What the automatic part of the turn did, told from the piles' changes."""
        out = []
        p = before.turn
        held_before = Counter(before.hands[p] + before.shared)
        held_after = Counter(after.hands[p] + after.shared)
        drawn = held_after - held_before
        if drawn:
            out.append("drew " + codes(sorted(drawn.elements())))
        found = Counter(after.all_doors()) - Counter(before.all_doors())
        lost = Counter(before.all_doors()) - Counter(after.all_doors())
        if found:
            out.append("Door gained: " + codes(sorted(found.elements())))
        if lost:
            out.append("Door sent to limbo: " + codes(sorted(lost.elements())))
        gone = Counter(after.discard) - Counter(before.discard)
        if gone:
            out.append("to the discard pile: " + codes(sorted(gone.elements())))
        n = after.shuffles - before.shuffles
        if n:
            out.append("the deck was shuffled" + (f" ({n} times)" if n > 1 else ""))
        if after.players == 2 and not after.is_terminal() and after.turn != before.turn:
            out.append(f"player {after.turn}'s turn")
        return out

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.state, self.known = self.undo_stack.pop()
        return True

    # -------------------------------------------------------------- main loop
    def run(self) -> int:
        flag = f" --players {self.game.players}" if self.game.players == 2 else ""
        self.say(f"Onirim: seed {self.seed} (replay with: onirim play --seed {self.seed}{flag})")
        self.say("Type a move number or a move; 'help' lists the commands.")
        while True:
            self.draw_board()
            if self.state.is_terminal():
                return self.finish()
            self.list_moves()
            while True:
                line = self.prompt()
                if line is None:
                    self.say("End of input: game abandoned.")
                    return 0
                cmd = line.strip()
                low = cmd.lower()
                if not cmd:
                    continue
                if low in ("quit", "q", "exit"):
                    self.say("Game abandoned.")
                    return 0
                if low in ("help", "h", "?"):
                    self.say(HELP)
                    continue
                if low == "hint":
                    a = greedy_action(self.state)
                    n = self.state.legal_actions().index(a) + 1
                    self.say(f"hint: {n}) {self.state.action_to_string(a)}")
                    continue
                if low in ("board", "b"):
                    break
                if low in ("undo", "u"):
                    if self.undo():
                        self.say("Undone.")
                        break
                    self.say("Nothing to undo.")
                    continue
                try:
                    action = self.parse_move(cmd)
                except IllegalActionError as e:
                    self.say(str(e))
                    continue
                if action is None:
                    self.say(f"Not a legal move or command: {cmd!r} (type a number from 1 to "
                             f"{len(self.state.legal_actions())}, a move, or help)")
                    continue
                self.apply(action)
                break

    def finish(self) -> int:
        s = self.state
        moves = len(self.undo_stack)
        doors = len(s.all_doors())
        if s.won():
            self.say(f"You won: all 8 Doors are in play after {moves} decisions.")
        else:
            self.say(f"You lost: the deck ran out with {doors} of 8 Doors in play "
                     f"after {moves} decisions.")
        return 0


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run(args) -> int:
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    return Session(args.players, seed).run()
