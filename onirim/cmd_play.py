"""``onirim play [--seed S] [--players 1|2]``: play a game of Onirim in the terminal.

The game is a seeded deal (deal mode), so the same seed always gives the same game; without
``--seed`` a random seed is chosen and printed.  At each decision the board is drawn and the
legal moves are listed, numbered, fitted to the terminal's width.  Input, one per line:

* a move number, or a move as its action string (``play Os``, ``discard Ak``, ``door key``,
  ``nightmare reveal``, ``prophecy discard=N keep=Os,Am,Gk,Lk``; case does not matter; in a
  prophecy ``discard=N keep=...`` is enough);
* ``undo`` (back to the previous decision) in analysis mode only (``--analysis``): taking a
  move back after seeing the card it drew is not honest play, so a game started without
  the flag refuses it and says how to turn it on; ``hint`` (near the end of a game
  ``onirim best``'s answer: the move proven best, else its leader; otherwise the default
  policy; a move not proven best is said to be a heuristic), ``position`` (the
  player's view in the notation of ``docs/NOTATION.md``, ready for ``onirim best``),
  ``board`` (draw the board again), ``help`` (commands, card legend, Nightmare options),
  ``quit``.

After each move, indented lines tell what the automatic part of the turn did, from the
engine's own steps (``State.apply_action_logged``): the cards actually drawn, the Doors and
Nightmares set aside in limbo, what a reveal discarded, the Doors gained or lost, and the
shuffles.  End of input quits cleanly.  A bad line gets a one-line message and the prompt
again.  The deal's seed fixes the whole deck order, so it stays off the player's screen
during the game; it is printed when the game ends (or is abandoned), with the command that
replays it.  See ``docs/PLAY.md``.
"""
from __future__ import annotations

import argparse
import secrets
import shutil
import sys
import time
from collections import Counter

from engine import cards as card_codes
from engine.errors import IllegalActionError, OnirimError
from engine.game import Game
from engine.rng import MAX_SEED
from engine.rules import PROPHECY_SIZE
from engine.view import known_top, player_view

from .render import codes, render, wrap

# The hint asks onirim best (solver.api.rank) when the deck holds at most this many cards,
# for EXACT_HINT_S seconds (compile time excluded): its proven best move, else its leader.
EXACT_HINT_DECK = 15
EXACT_HINT_S = 2.0
MIN_WIDTH, DEFAULT_WIDTH = 40, 80

LEGEND = """\
Cards (docs/NOTATION.md):
  Locations: colour letter, then symbol.  O = Observatory (red),
    A = Aquarium (blue), G = Garden (green), L = Library (brown);
    s = Sun, m = Moon, k = Key.  Example: Os = red Sun, Lk = brown Key.
  Doors: D + colour letter: DO DA DG DL (two of each; all 8 must be in play).
  N = Nightmare (10 of them)."""

NIGHTMARE_HELP = """\
When a Nightmare is drawn, choose one penalty:
  nightmare key Ak    discard a Key from your hand (no prophecy)
  nightmare door DO   move one of your Doors in play to limbo (it is shuffled
                      back into the deck at the end of the turn)
  nightmare reveal    reveal the top 5 cards: Locations are discarded, Doors
                      and Nightmares go to limbo
  nightmare redraw    discard your whole hand and draw 5 new Locations; Doors
                      and Nightmares met go to limbo (no Key may be used)"""

HELP = f"""\
Commands:
  <number>   make the move with that number
  <move>     make a move by its action string: play Os, discard Ak, door key,
             door limbo, nightmare reveal, prophecy discard=N keep=Os,Am,Gk,Lk
             (keep= lists the new top of the deck first; in a prophecy,
             discard=N keep=... is enough)
  undo       take back the last move (repeatable; analysis mode only:
             onirim play --analysis)
  hint       a suggested move: with {EXACT_HINT_DECK} cards or fewer in the deck, onirim
             best's answer within {EXACT_HINT_S:g} s (the move proven best, else the move
             of the strongest policy those seconds afford); earlier, the default
             policy's move (the hint says which, and whether it is proven)
  position   your view of the position, to paste into: onirim best "..."
  board      draw the board again
  help       this text
  quit       stop the game
Goal: get all 8 Doors in play before the deck runs out.  A card played to the
row must not share its symbol with the last card of the row; three cards of
one colour in a row find a Door of that colour.  Discarding a Key triggers a
prophecy: look at the top 5 cards, discard one, put the others back in the
order you choose.
{LEGEND}
{NIGHTMARE_HELP}"""


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
    parser.add_argument("--talk", choices=("none", "open"), default=None,
                        help="two players: the mode chosen before the game (docs/DUO.md): "
                             "none, the silent game (default), or open, hands face up; the "
                             "hints and the printed view know what that mode lets a player "
                             "know of its partner's hand")
    parser.add_argument("--analysis", action="store_true",
                        help="analysis mode: 'undo' takes moves back, so you can see a drawn "
                             "card and play differently; this breaks honest play (default off)")


def terminal_width() -> int:
    """The terminal's width (COLUMNS, else the terminal, else 80), at least MIN_WIDTH."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def columns(items: list[str], width: int, indent: int = 0) -> list[str]:
    """``items`` in as many columns (filled top to bottom) as fit in ``width``."""
    if not items:
        return []
    cell = max(len(x) for x in items) + 2
    cols = max(1, (width - indent + 2) // cell)
    rows = -(-len(items) // cols)
    out = []
    for r in range(rows):
        out.append(" " * indent + "".join(items[r + c * rows].ljust(cell)
                                          for c in range(cols)
                                          if r + c * rows < len(items)).rstrip())
    return out


def moves_table(labels: list[str], width: int = DEFAULT_WIDTH) -> list[str]:
    """Numbered moves; one a line when they are few, in columns when there are many.  The
    orderings of a prophecy are grouped by the card discarded (``keep=`` is top first)."""
    items = [f"{i:>3}) {s}" for i, s in enumerate(labels, 1)]
    if labels and labels[0].startswith("prophecy discard="):
        groups: dict[str, list[str]] = {}
        for i, s in enumerate(labels, 1):
            disc, keep = s.removeprefix("prophecy discard=").split(" keep=")
            groups.setdefault(disc, []).append(f"{i:>3}) {keep.replace(',', ' ')}")
        out = wrap("(prophecy discard=X keep=...; keep lists the new top of the deck first)",
                   width)
        for disc, keeps in groups.items():
            lost = ("  (a discarded Door never comes back: the game can no longer be won)"
                    if card_codes.is_door(card_codes.INDEX[disc]) else "")
            out.extend(wrap(f"discard {disc}, keep (top first):{lost}", width, "  "))
            out.extend(columns(keeps, width, indent=2))
        return out
    if len(items) <= 12:
        return items
    return columns(items, width)


def describe(before, after, log, action_name: str) -> list[str]:
    """What a move did, told from the engine's steps (``log``) and the piles' changes."""
    out = []
    revealed_discard = Counter(c for ev, c in log if ev == "reveal-discard")
    to_discard = Counter(after.discard) - Counter(before.discard) - revealed_discard
    if to_discard:
        out.append("to the discard pile: " + codes(sorted(to_discard.elements())))
    gained = Counter(after.all_doors()) - Counter(before.all_doors())
    lost = Counter(before.all_doors()) - Counter(after.all_doors())
    series = [c for ev, c in log if ev == "series-door"]
    for d in sorted(gained.elements()):
        how = "the series found it in the deck" if d in series else "with its Key"
        out.append(f"Door gained: {card_codes.CODES[d]} ({how})")
    if lost:
        out.append("Door sent to limbo: " + codes(sorted(lost.elements())))
    # the draws, in order; a run of one kind of event goes on one line
    redraw = action_name == "nightmare redraw"
    runs: list[tuple[str, list[int]]] = []
    for ev, c in log:
        kind = "reveal" if ev.startswith("reveal-") else ev
        if runs and runs[-1][0] == kind and kind in ("draw", "limbo", "reveal"):
            runs[-1][1].append(c)
        else:
            runs.append((kind, [c]))
    reveal_events = iter([(ev, c) for ev, c in log if ev.startswith("reveal-")])
    for kind, cards in runs:
        if kind == "draw":
            out.append("drew " + codes(cards))
        elif kind == "limbo":
            if redraw:
                why = "set aside: the hand is being redrawn"
            elif after.players == 2 and all(c in after.doors[before.turn] for c in cards):
                why = "you already have a Door of that colour"
            else:
                why = "no usable Key of its colour in hand"
            out.append(f"drew {codes(cards)}: to limbo ({why})")
        elif kind == "reveal":
            evs = [next(reveal_events) for _ in cards]
            gone = [c for ev, c in evs if ev == "reveal-discard"]
            aside = [c for ev, c in evs if ev == "reveal-limbo"]
            parts = []
            if gone:
                parts.append(f"{codes(gone)} to the discard pile")
            if aside:
                parts.append(f"{codes(aside)} to limbo")
            out.append(f"revealed {codes(cards)}: " + ", ".join(parts))
        elif kind == "door":
            out.append(f"drew a Door, {codes(cards)}: you hold its Key (decide below)")
        elif kind == "nightmare":
            out.append("drew a Nightmare, N (choose its penalty below)")
        elif kind == "shuffle":
            n = cards[0]
            out.append(f"limbo ({n} card{'s' if n != 1 else ''}) shuffled back into the deck"
                       if n else "the deck was shuffled")
    if after.phase == "lost":
        out.append("a card must be drawn and the deck is empty: the game is lost")
    if after.players == 2 and not after.is_terminal() and after.turn != before.turn:
        out.append(f"player {after.turn}'s turn")
    return out


class Hinter:
    """The ``hint`` command.  Solo, with at most ``deck_max`` cards in the deck: one query of
    ``onirim best`` (``solver.api.rank``, mode expectimax, ``limit_s`` seconds): its proven
    best action when the exact search proves one; else its leader, the decision of the
    strongest policy those seconds afford among the actions not proven worse, with that
    policy's own search estimates (``solver.advice``: the default policy at least), named as
    the ranking names it.  That is one search: the default policy is not asked again.  With
    a larger deck (or a position the exact search refuses): the default honest policy
    (``solver.policies.DEFAULT_HONEST_POLICY`` with ``DEFAULT_HONEST_ARGS``, the strongest
    measured at 10 ms of CPU per decision or less; ``greedy`` if it is not registered).
    Two players: the default policy of the game being played (silent or open:
    ``solver.duo.view_rank.default_duo_policy``) from the view of the player to move.  A hint not proven best says it is a heuristic.
    All see only the player's view.  Compiling the search (once per install) happens before
    its clock starts."""

    def __init__(self, say, deck_max: int = EXACT_HINT_DECK, limit_s: float = EXACT_HINT_S):
        self.say = say
        self.deck_max = deck_max
        self.limit_s = limit_s
        self._solver = None
        self._policy = None
        self._duo_policy: dict = {}     # by the game's talk mode

    def _exact(self, view):
        """``onirim best``'s ranking of ``view`` (``solver.api.rank``, mode expectimax, one
        solver kept between hints so that its memo is reused, ``limit_s`` seconds): the
        ranking, its proven best row (None if unproven) and its seconds."""
        from solver import api
        if self._solver is None:
            self._notice("expectimax", "the exact search")
            self._solver = api.make_solver("expectimax", table_bits=20)
        ranking = api.rank(view, "expectimax", budget_s=self.limit_s, solver=self._solver)
        acts = ranking.actions
        top = max(acts, key=lambda a: a.lo)
        if all(top.lo >= a.hi - 1e-15 for a in acts if a is not top):
            return ranking, top, ranking.seconds
        return ranking, None, ranking.seconds

    @staticmethod
    def _leader(ranking):
        """The ranking's leader when a policy chose it (``solver.advice``: its
        ``extra["estimates"]`` name the policy and its search), as (action string, the words
        naming it); else None (no policy leader: an interrupted ranking)."""
        est = (getattr(ranking, "extra", None) or {}).get("estimates") or {}
        if est.get("estimator") != "policy" or not getattr(ranking, "leader", None):
            return None
        how = (" (its own exact end-game search proves it best)" if est.get("how") == "exact"
               else "")
        return ranking.leader, (f"heuristic: the move {est.get('policy')} plays here{how}, "
                                f"onirim best's leader (estimates: {est.get('search')})")

    def _notice(self, family: str, what: str) -> None:
        """Before a first use that must compile (numba's cache says so), say so and how
        long it takes (measured); never wait in silence."""
        from onirim.precompile import FAMILIES, family_ready
        if family_ready(family) is False:
            self.say(f"(compiling {what}, once per install: about {FAMILIES[family][1]} s of "
                     "CPU measured, longer on a busy machine; 'python -m onirim.precompile' "
                     "compiles it ahead)")

    def policy(self):
        if self._policy is None:
            from solver.api import make_default_policy, make_policy, policy_entries
            from solver.policies import DEFAULT_HONEST_POLICY
            strong = DEFAULT_HONEST_POLICY
            name = strong if strong in policy_entries() else "greedy"
            if name == strong:
                self._notice("honest", f"the {strong} policy's playouts")
                self._notice("expectimax", f"the {strong} policy's exact search")
                self._policy = make_default_policy()
                self._policy.warm_up()    # compile or load now, before the hint is timed
            else:
                self._policy = make_policy(name)
        return self._policy

    def duo_policy(self, talk: str = "none"):
        """The two-player hint's policy: the default policy of the game ``talk``
        (``solver.duo.view_rank.default_duo_policy``: duo-kcut-switch silent, duo-open-switch
        open), deciding from the view of the player to move; compiled or loaded before the
        first hint is timed."""
        if talk not in self._duo_policy:
            from solver.api import default_policy_name, make_policy
            name = default_policy_name(2, talk)
            self._notice("duo-honest", f"the {name} policy's playouts")
            self._duo_policy[talk] = make_policy(name)
            self._duo_policy[talk].warm_up()
        return self._duo_policy[talk]

    def hint(self, state, stream: int, talk: str = "none") -> tuple[int, str]:
        """(action, the words that say where it comes from); ``talk``: the two-player game's
        mode."""
        view = player_view(state, talk=talk)
        if state.players == 2:
            p = self.duo_policy(talk)
            game = "open game" if talk == "open" else "silent game"
            return (p.act(view, stream), f"heuristic: {p.name} policy from player "
                                         f"{state.turn}'s view, {game} (no exact search for "
                                         "two players); not proven best")
        note = ""
        if state.deck_size() <= self.deck_max:
            try:
                ranking, top, seconds = self._exact(view)
            except (OnirimError, ValueError) as e:
                ranking, top, seconds, note = None, None, 0.0, (f"; the exact search "
                                                                f"refused it: {e}")
            if top is not None and top.hi == 0.0:
                return (state.string_to_action(top.action),
                        f"exact: no move can win any more ({seconds:.1f} s)")
            if top is not None:
                value = (f"wins with probability {top.lo:.4f}" if top.hi - top.lo <= 1e-15
                         else f"wins with probability {top.lo:.4f} to {top.hi:.4f}")
                return (state.string_to_action(top.action), f"exact: proven best, {value} "
                                       f"({seconds:.1f} s)")
            if not note:
                note = f"; the exact search did not settle it in {self.limit_s:g} s"
                lead = self._leader(ranking)
                if lead is not None:
                    return (state.string_to_action(lead[0]),
                            f"{lead[1]}, not proven best{note}")
        from solver.policies import policy_label
        p = self.policy()
        return (p.act(view, stream), f"heuristic: {policy_label(p)} policy, not proven "
                                     f"best{note}")


class Session:
    """One interactive game: the state and the undo stack."""

    def __init__(self, players: int, seed: int, inp=None, out=None, width: int | None = None,
                 analysis: bool = False, talk: str = "none"):
        self.game = Game(players)
        self.talk = talk
        self.seed = seed
        self.analysis = analysis
        self.state = self.game.new_initial_state(seed)
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.width = max(MIN_WIDTH, width) if width else terminal_width()
        self.undo_stack: list = []
        self.echo = not _isatty(self.inp)
        self.hinter = Hinter(self.say_wrapped)     # its notices fit the terminal too

    # -------------------------------------------------------------- output helpers
    def say(self, text: str = "") -> None:
        try:
            print(text, file=self.out)
        except UnicodeEncodeError:        # a terminal that cannot show what the user typed
            enc = getattr(self.out, "encoding", None) or "ascii"
            print(text.encode(enc, "replace").decode(enc), file=self.out)
        self.out.flush()

    def say_wrapped(self, text: str) -> None:
        for part in wrap(text, self.width):
            self.say(part)

    def draw_board(self) -> None:
        self.say()
        for line in render(self.state, deck_shown=known_top(self.state), width=self.width,
                           show_seed=False):
            self.say(line)

    def labels(self) -> list[str]:
        s = self.state
        return [s.action_to_string(a) for a in s.legal_actions()]

    def list_moves(self) -> None:
        s = self.state
        if s.phase == "prophecy":
            self.say(f"Moves (revealed, top first: {codes(s.deck[:min(PROPHECY_SIZE, s.deck_size())])}):")
        else:
            self.say("Moves:")
        for line in moves_table(self.labels(), self.width):
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
        if self.state.phase == "prophecy" and want.startswith("discard="):
            want = "prophecy " + want
        for a in legal:
            if self.state.action_to_string(a).lower() == want:
                return a
        return None

    # -------------------------------------------------------------- moves
    def apply(self, action: int) -> None:
        s = self.state
        before = s.clone()
        self.undo_stack.append(before)
        name = s.action_to_string(action)
        log = s.apply_action_logged(action)
        who = f"player {before.turn}: " if s.players == 2 else ""
        self.say(f"-> {who}{name}")
        for line in describe(before, s, log, name):
            for part in wrap(line, self.width - 3):
                self.say(f"   {part}")

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.state = self.undo_stack.pop()
        return True

    def show_hint(self) -> None:
        s = self.state
        action, why = self.hinter.hint(s, _stream(self.seed, len(s.history())), self.talk)
        n = s.legal_actions().index(action) + 1
        for part in wrap(f"hint: {n}) {s.action_to_string(action)}  [{why}]", self.width):
            self.say(part)

    def show_position(self) -> None:
        s = self.state
        text = s.observation_string(talk=self.talk)
        if s.players == 2:
            game = ("open game: your partner's hand is face up" if self.talk == "open" else
                    "silent game: ? = a card of your partner's hand you did not see it take")
            self.say(f"Your view (player {s.turn}, {game}; * = the deck's cards of unknown "
                     "order):")
        else:
            self.say("Your view (* = the deck's cards of unknown order); to ask the solver:")
        self.say(f'onirim best "{text}"')

    # -------------------------------------------------------------- main loop
    def replay_line(self) -> str:
        flag = f" --players {self.game.players}" if self.game.players == 2 else ""
        flag += " --talk open" if self.talk == "open" else ""
        return f"Seed {self.seed} (replay with: onirim play --seed {self.seed}{flag})"

    def end(self, text: str) -> int:
        """The game is over or abandoned: now the seed may be shown."""
        self.say(text)
        self.say(self.replay_line())
        return 0

    def run(self) -> int:
        self.say("Onirim: a new game (the seed is shown when it ends).")
        if self.game.players == 2:
            self.say_wrapped("The open game: both hands face up, free talk." if self.talk ==
                             "open" else "The silent game: no word about your own cards; "
                             "a player knows of its partner's hand only what it saw it take.")
        if self.analysis:
            self.say_wrapped("Analysis mode: 'undo' takes moves back. You can see a drawn card "
                             "and play differently: this is not honest play.")
        self.say("Type a move number or a move; 'help' lists the commands.")
        while True:
            self.draw_board()
            if self.state.is_terminal():
                return self.finish()
            self.list_moves()
            while True:
                line = self.prompt()
                if line is None:
                    return self.end("End of input: game abandoned.")
                cmd = line.strip()
                low = cmd.lower()
                if not cmd:
                    continue
                if low in ("quit", "q", "exit"):
                    return self.end("Game abandoned.")
                if low in ("help", "h", "?"):
                    self.say(HELP)
                    continue
                if low == "hint":
                    self.show_hint()
                    continue
                if low in ("position", "pos"):
                    self.show_position()
                    continue
                if low in ("board", "b"):
                    break
                if low in ("undo", "u"):
                    if not self.analysis:
                        self.say_wrapped("undo is off: taking a move back after seeing the "
                                         "card it drew is not honest play. To analyse a "
                                         "game, start it with onirim play --analysis (undo "
                                         "then works).")
                        continue
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
                    self.say(f"Not a legal move or command: {_clip(cmd)!r} (type a number from "
                             f"1 to {len(self.state.legal_actions())}, a move, or help)")
                    continue
                self.apply(action)
                break

    def finish(self) -> int:
        s = self.state
        moves = len(self.undo_stack)
        doors = len(s.all_doors())
        if s.won():
            return self.end(f"You won: all 8 Doors are in play after {moves} decisions.")
        return self.end(f"You lost: the deck ran out with {doors} of 8 Doors in play "
                        f"after {moves} decisions.")


def _stream(seed: int, i: int) -> int:
    from solver.honest import DEFAULT_POLICY_SEED, decision_stream
    return decision_stream(DEFAULT_POLICY_SEED, i)   # independent of the deal (docs/WINRATE.md)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run(args) -> int:
    talk = getattr(args, "talk", None)
    if talk is not None and args.players != 2:
        from onirim.cli import UsageError
        raise UsageError(f"--talk {talk}: the open and silent games are two-player modes "
                         "(--players 2)")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    return Session(args.players, seed, analysis=args.analysis, talk=talk or "none").run()
