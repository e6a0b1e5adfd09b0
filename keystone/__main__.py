"""`python -m keystone COMMAND ...`: the project's command line.

Each command lives in its own module under `keystone/cli/` with a `main(argv) -> int`.
"""

from __future__ import annotations

import importlib
import os
import sys

COMMANDS = {
    "cards": "Print every card (87 species, 8 wilds); --json for machines.",
    "objectives": "Print the ten secret objective cards; --json for machines.",
    "simulate": "Play seeded games with random or bot moves and check invariants.",
    "score": "Score boards given as JSON (a file, or - for standard input).",
    "render": "Draw pictures; --demo DIR writes a gallery of every picture.",
    "play": "Play a game in the terminal against a bot or hot-seat.",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in {"-h", "--help", "help"} or args[0] not in COMMANDS:
        if args and args[0] not in {"-h", "--help", "help"}:
            print(f"Unknown command {args[0]!r}.", file=sys.stderr)
        print("usage: python -m keystone COMMAND [options]\n")
        for name, text in COMMANDS.items():
            print(f"  {name:<11} {text}")
        return 0 if not args or args[0] in {"-h", "--help", "help"} else 2
    module = importlib.import_module(f"keystone.cli.{args[0]}")
    try:
        result: int = module.main(args[1:])
    except BrokenPipeError:
        # The reader (`| head`) stopped early; that is not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result


if __name__ == "__main__":
    raise SystemExit(main())
