"""`python -m keystone COMMAND ...`: the project's command line.

Each command lives in its own module under `keystone/cli/` with a `main(argv) -> int`; the table
below names them all, so a command is an ordinary import that tools can follow.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NamedTuple

from keystone.cli import cards, objectives, play, render, replay, score, simulate, store


class Command(NamedTuple):
    main: Callable[[list[str]], int]
    summary: str


COMMANDS = {
    "cards": Command(cards.main, "Print every card (87 species, 8 wilds); --json for machines."),
    "objectives": Command(objectives.main, "Print the ten secret objective cards; --json for machines."),
    "simulate": Command(simulate.main, "Play seeded games with random or bot moves and check invariants."),
    "score": Command(score.main, "Score boards given as JSON (a file, or - for standard input)."),
    "render": Command(render.main, "Draw pictures; --demo DIR writes a gallery of every picture."),
    "play": Command(play.main, "Play a game in the terminal against a bot or hot-seat."),
    "replay": Command(replay.main, "Draw a finished saved game turn by turn as an animated GIF."),
    "store": Command(store.main, "Look after the bot's database: `store copy FROM TO` moves it (SQLite, PostgreSQL)."),
}
HELP = {"-h", "--help", "help"}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in HELP or args[0] not in COMMANDS:
        if args and args[0] not in HELP:
            print(f"Unknown command {args[0]!r}.", file=sys.stderr)
        print("usage: python -m keystone COMMAND [options]\n")
        for name, command in COMMANDS.items():
            print(f"  {name:<11} {command.summary}")
        return 0 if not args or args[0] in HELP else 2
    try:
        return COMMANDS[args[0]].main(args[1:])
    except BrokenPipeError:
        # The reader (`| head`) stopped early; that is not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
