"""`python -m keystone play` (and `python bot.py --local`): a whole game in the terminal.

Play against a bot (easy, normal or hard) or pass the keyboard round (hot-seat, 1 to 4 players).
Moves use the same words as on Discord (`take 3 B2`, `skill 5`, `wild desert C1`, `endturn`,
`draw`, `place 1 B2`, `pile 2`, `move A1 B2`, `research C3`, `discard 4`, `skip`, `resolve 3`);
`board [name]`, `field`, `score`, `objective`, `help` and `quit` look around. Boards are drawn as
text, and `--images DIR` also writes the pictures the Discord bot would post.

Input and output are streams passed in, so a whole game can be scripted and tested.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, IllegalAction, apply, new_game, parse_action, player_view
from keystone.engine.bots import LEVELS, bot_seed, choose_action
from keystone.engine.events import Event
from keystone.engine.results import final_scores, view_scores
from keystone.engine.views import GameView
from keystone.render.common import PATTERN_LABEL
from keystone.render.palette import SYMBOL_LABEL
from keystone.render.text import text_board, text_scores, text_table

HARD_SECONDS = 2.0
"""The hard bot stops searching after this long, whatever its budget."""

HELP = """\
Your move, in the same words as on Discord:
  take SLOT CELL        take Field card SLOT (1 = leftmost) and place it on CELL (A1..D4)
  skill N               use active skill token N; `skill 0` resolves every exhausted token
  wild HABITAT CELL     buy a Wild card (forest, desert, wetland, arctic) once a turn
  endturn               end your turn when you may still buy a Wild card
  While a skill resolves: draw, place I CELL, pile I, move FROM TO, research CELL,
  discard SLOT, resolve N, skip.
Looking around:
  board [name]          a board (yours if no name)
  field                 the Field, skills, time, Wild cards and players
  score                 scores as the boards stand (hidden objectives do not count)
  objective             your secret objective
  help                  this list
  quit                  leave the game"""


@dataclass
class Table:
    """A game in progress and who sits where: a bot level per seat, or None for a person."""

    state: GameState
    seats: list[str | None]
    seed: int
    out: TextIO
    images: Path | None = None
    budget: int | None = None
    clock: Callable[[], float] = time.monotonic
    log: list[str] = field(default_factory=list)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    @property
    def view(self) -> GameView:
        """What the person at the keyboard may see: the seat to act, or the first person's seat."""
        return player_view(self.state, self.viewer)

    @property
    def viewer(self) -> int:
        if self.seats[self.state.current] is None:
            return self.state.current
        people = [i for i, level in enumerate(self.seats) if level is None]
        return people[0] if people else self.state.current


# --------------------------------------------------------------------------- showing things


def show_events(table: Table, events: Sequence[Event], actor: int) -> None:
    """Public events for everyone; private ones only when a person made them (they are at the keys)."""
    for event in events:
        if not event.private or table.seats[actor] is None:
            table.say(event.text)


def find_seat(view: GameView, name: str) -> int | None:
    wanted = name.strip().lower()
    for seat in view.seats:
        if seat.name.lower() == wanted or str(seat.index + 1) == wanted:
            return seat.index
    matches = [s.index for s in view.seats if s.name.lower().startswith(wanted)]
    return matches[0] if len(matches) == 1 else None


def objective_text(view: GameView) -> str:
    number = view.seats[view.viewer].objective if view.viewer is not None else None
    if number is None:
        return "You have no secret objective in this game."
    objective = load_catalog().objectives[number]
    goals = "; ".join(f"{'ABCD'[i]} {PATTERN_LABEL[g.pattern]} {SYMBOL_LABEL[g.symbol]}"
                      for i, g in enumerate(objective.goals))
    return f"Your secret objective is card {number}: {goals}. Goals met score 5, 10, 16 or 24."


def write_images(table: Table, final: bool = False) -> None:
    """Write the Field and every board as the keyboard's seat sees them (and the score sheet at the end)."""
    if table.images is None:
        return
    from keystone.render import render_board, render_scoresheet, render_table

    table.images.mkdir(parents=True, exist_ok=True)
    view = player_view(table.state, table.viewer)
    (table.images / "table.png").write_bytes(render_table(view))
    for seat in view.seats:
        (table.images / f"board-{seat.index + 1}.png").write_bytes(render_board(view, seat.index))
    if final:
        (table.images / "scores.png").write_bytes(render_scoresheet(view, final_scores(table.state)))


def look(table: Table, words: list[str]) -> bool:
    """Answer a looking-around command; False when the words are not one."""
    view = table.view
    match words:
        case ["help"]:
            table.say(HELP)
        case ["board"]:
            table.say(text_board(view, view.viewer if view.viewer is not None else view.current))
        case ["board", *name]:
            seat = find_seat(view, " ".join(name))
            if seat is None:
                names = ", ".join(s.name for s in view.seats)
                table.say(f"There is no player called {' '.join(name)!r}; the players are {names}.")
            else:
                table.say(text_board(view, seat))
        case ["field"] | ["table"]:
            table.say(text_table(view))
        case ["score"] | ["scores"]:
            table.say("If the game ended now (objectives you cannot see do not count):")
            table.say(text_scores(view_scores(view), [s.name for s in view.seats]))
        case ["objective"]:
            table.say(objective_text(view))
        case _:
            return False
    return True


# --------------------------------------------------------------------------- playing


def bot_move(table: Table) -> None:
    state = table.state
    level = table.seats[state.current]
    assert level is not None
    stop = table.clock() + HARD_SECONDS
    action = choose_action(state, level, bot_seed(table.seed, state), budget=table.budget,
                           deadline=lambda: table.clock() > stop)
    actor = state.current
    table.state, events = apply(state, action)
    table.log.append(str(action))
    show_events(table, events, actor)


def person_move(table: Table, line: str) -> bool:
    """Apply one typed move; False (and the engine's sentence) when it cannot be done."""
    actor = table.state.current
    try:
        action = parse_action(line)
        table.state, events = apply(table.state, action)
    except IllegalAction as exc:
        table.say(str(exc))
        return False
    table.log.append(str(action))
    show_events(table, events, actor)
    return True


def prompt(table: Table, fresh_turn: bool) -> None:
    view = table.view
    if fresh_turn:
        table.say("")
        table.say(text_table(view))
        table.say(text_board(view, view.current))
    elif view.phase != "main":
        table.say(text_table(view).splitlines()[0])
    table.out.write(f"{view.seats[view.current].name}> ")
    table.out.flush()


def replay_text(table: Table) -> str:
    moves = "; ".join(table.log) if table.log else "none yet"
    return f"To replay this game: seed {table.seed}, moves: {moves}"


def finish(table: Table) -> int:
    sheets = final_scores(table.state)
    view = player_view(table.state, table.viewer)
    table.say("")
    table.say(text_scores(sheets, [s.name for s in view.seats]))
    write_images(table, final=True)
    table.say(replay_text(table))
    return 0


def play(table: Table, stdin: TextIO) -> int:
    """The game loop: bots move on their own, people type until the game ends or they quit."""
    last_turn = -1
    write_images(table)
    while table.state.phase != "over":
        state = table.state
        if table.seats[state.current] is not None:
            bot_move(table)
            write_images(table)
            continue
        fresh = state.turn != last_turn
        last_turn = state.turn
        prompt(table, fresh)
        line = stdin.readline()
        if not line:
            table.say("\nNo more input; the game is left unfinished.")
            return 1
        words = line.strip().lower().split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            table.say(f"Game left unfinished. {replay_text(table)}")
            return 0
        if look(table, words):
            continue
        if person_move(table, line):
            write_images(table)
    return finish(table)


# --------------------------------------------------------------------------- setting up


def ask_opponent(stdin: TextIO, out: TextIO) -> str | None:
    """Ask until the answer is a bot level or a number of hot-seat players; None at end of input."""
    while True:
        out.write("Play against a bot (easy, normal, hard) or hot-seat (a number of players, 1-4)? ")
        out.flush()
        line = stdin.readline()
        if not line:
            return None
        answer = line.strip().lower()
        if answer in ("quit", "exit"):
            return None
        if answer in LEVELS or answer in {"1", "2", "3", "4"}:
            return answer
        out.write(f"{answer!r} is not one of easy, normal, hard, 1, 2, 3 or 4 (or quit).\n")


def seats_for(args: argparse.Namespace, choice: str) -> tuple[list[str | None], list[str]]:
    """Bot level (or None for a person) and name for every seat."""
    if choice in LEVELS:
        players = max(2, args.players or 2)
        seats: list[str | None] = [None] + [choice] * (players - 1)
    else:
        players = int(choice)
        seats = [None] * players
    given = [n.strip() for n in (args.names or "").split(",") if n.strip()]
    names: list[str] = []
    for i, level in enumerate(seats):
        if i < len(given):
            names.append(given[i])
        elif level is None:
            names.append("You" if choice in LEVELS else f"Player {i + 1}")
        else:
            names.append(f"{level.capitalize()} bot" + (f" {i}" if players > 2 else ""))
    return seats, names


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(prog="python -m keystone play", description="Play Keystone in the terminal.")
    made.add_argument("--vs", "--bot", dest="vs", choices=LEVELS, help="play against a bot of this level")
    made.add_argument("--hotseat", type=int, choices=[1, 2, 3, 4], help="people taking turns at one keyboard")
    made.add_argument("--players", type=int, choices=[2, 3, 4], help="seats in a game against bots (default 2)")
    made.add_argument("--names", help="comma-separated seat names, in seat order")
    made.add_argument("--seed", type=int, help="deal seed (the same seed deals the same game)")
    made.add_argument("--rules", choices=["second-edition", "first-edition"], default="second-edition")
    made.add_argument("--images", type=Path, help="also write PNG pictures of the game to this folder")
    made.add_argument("--budget", type=int, help="simulated turns the hard bot may try per move")
    return made


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = parser().parse_args(list(argv) if argv is not None else None)
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    choice = args.vs or (str(args.hotseat) if args.hotseat else None) or ask_opponent(inp, out)
    if choice is None:
        out.write("\nNo game chosen.\n")
        return 1
    seats, names = seats_for(args, choice)
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 31)
    state = new_game(GameConfig(players=len(seats), rules=args.rules), seed, names)
    table = Table(state, seats, seed, out, images=args.images, budget=args.budget)
    table.say(f"Keystone: {', '.join(names)}. Seed {seed}. Type `help` for the commands.")
    return play(table, inp)


if __name__ == "__main__":
    raise SystemExit(main())
