"""`python -m keystone COMMAND ...`: the project's command line.

Each command lives in its own module under `keystone/cli/` with a `main(argv) -> int`; the table
below names them all, so a command is an ordinary import that tools can follow. `--lang de` lists
them in German (and the commands that speak to people take it too).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from keystone.cli import cards, learn, objectives, play, render, replay, score, simulate, store, words
from keystone.cli.options import asked_language, command_list, unknown_command

COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "cards": cards.main,
    "objectives": objectives.main,
    "simulate": simulate.main,
    "score": score.main,
    "render": render.main,
    "play": play.main,
    "learn": learn.main,
    "replay": replay.main,
    "store": store.main,
    "words": words.main,
}
"""Each command's `main`; what it does, in each language, is the cli catalogue's `cli.command.<name>`."""
HELP = {"-h", "--help", "help"}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    lang = asked_language(args)
    if args and args[0].split("=")[0] == "--lang":  # `python -m keystone --lang de`: the list, in German
        args = args[1:] if "=" in args[0] else args[2:]
    if not args or args[0] in HELP or args[0] not in COMMANDS:
        if args and args[0] not in HELP:
            print(unknown_command(args[0], lang), file=sys.stderr)
        print(command_list(COMMANDS, lang))
        return 0 if not args or args[0] in HELP else 2
    try:
        return COMMANDS[args[0]](args[1:])
    except BrokenPipeError:
        # The reader (`| head`) stopped early; that is not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
