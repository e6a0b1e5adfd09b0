"""`python -m keystone store copy FROM TO`: move the bot's games to another database.

FROM and TO are each a SQLite file's path or a `postgresql://` URL (as KEYSTONE_DB takes them).
Everything is copied (games and their moves, campaigns, results, ratings, daily challenges, turn
clocks, settings) with the same ids, into a TO that must be new or empty, and every started game
in TO must pass the replay audit before the copy counts: a copy refused, failed or stopped at any
moment leaves TO without a record, and the same command runs again. Run again onto a TO that
already holds exactly FROM's records (a copy made earlier), it checks that copy and says so. Stop
the bot first. A refusal or a failed check is one sentence on standard error and exit status 2
(Ctrl-C: status 130); a server's password is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from keystone.cli.options import Parser, parse
from keystone.store import StoreError
from keystone.store.copy import Copied, copy_store, where

INTERRUPTED = 130
"""The exit status of a program stopped by Ctrl-C (128 + SIGINT), as shells report it."""


def parser() -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone store", description="Look after the bot's database.")
    actions = made.add_subparsers(dest="action", required=True, metavar="ACTION")
    copy = actions.add_parser("copy", help="copy every record into a new, empty database and check it by replay",
                              description="Copy every record into a new, empty database and check it by replay.")
    copy.add_argument("source", metavar="FROM", help="a SQLite file or a postgresql:// URL")
    copy.add_argument("target", metavar="TO", help="a new SQLite file, or an empty PostgreSQL database's URL")
    return made


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(parser(), argv)
    if isinstance(args, int):
        return args
    try:
        copied = asyncio.run(copy_store(args.source, args.target))
    except StoreError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"The copy was stopped before it was complete, so it wrote no record to {where(args.target)}; run "
              "the same command again.", file=sys.stderr)
        return INTERRUPTED
    print(summary(copied, where(args.source), where(args.target)))
    return 0


def summary(copied: Copied, source: str, target: str) -> str:
    rows = copied.rows
    if copied.already:
        return (f"Nothing copied: {target} already holds every record of {source}, as a complete copy does; "
                f"checked it again: all {copied.audited} started games pass the replay audit.")
    return (f"Copied {rows['games']} games ({rows['actions']} moves), {rows['results']} results, "
            f"{rows['campaign']} campaign records, {rows['ratings']} ratings and {rows['daily_games']} daily "
            f"challenges from {source} to {target}; all {copied.audited} started games passed the replay audit.")


if __name__ == "__main__":
    raise SystemExit(main())
