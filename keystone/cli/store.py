"""`python -m keystone store copy FROM TO`: move the bot's games to another database.

FROM and TO are each a SQLite file's path or a `postgresql://` URL (as KEYSTONE_DB takes them).
Everything is copied (games and their moves, campaigns, results, ratings, daily challenges, turn
clocks, settings) with the same ids, into a TO that must be new or empty, and every started game
in TO must pass the replay audit before the copy counts: a copy refused, failed or stopped at any
moment leaves TO without a record, and the same command runs again. Run again onto a TO that
already holds exactly FROM's records (a copy made earlier), it checks that copy and says so. Stop
the bot first. A refusal or a failed check is one sentence on standard error and exit status 2
(Ctrl-C: status 130); a server's password is never printed.

`backup FILE`, `check` and `prune --finished-before DATE` look after the database the bot uses:
KEYSTONE_DB from the environment or the `.env` file beside bot.py, as the bot reads it, unless
`--db` names another (a SQLite file or a `postgresql://` URL). They may run while the bot runs:
- `backup` makes a checked copy of a SQLite file with SQLite's online backup (never over an
  existing file); for PostgreSQL it makes nothing and prints the `pg_dump` and `pg_restore`
  commands instead (status 2, since no file was made).
- `check` replays every started game and prints one line per game that does not reach its saved
  state, then a summary; status 1 when any does not.
- `prune` removes the move logs and delivered posts (their pictures) of games that ended before
  DATE, keeping results, ratings and statistics. It is a dry run that only counts unless `--yes`
  is given: what it removes cannot be brought back except from a backup, and a dry run shows how
  much that is first, without a question a scheduled job could not answer.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from keystone.cli.options import Parser, parse
from keystone.cli.upkeep import DATABASE_HELP, backup, check, day, prune
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
    saved = actions.add_parser(
        "backup", help="make a checked copy of the database while the bot runs",
        description="Copy the SQLite database with SQLite's online backup while the bot runs, check the copy and "
                    "give it the name FILE (never over an existing file). For PostgreSQL, print the pg_dump and "
                    "pg_restore commands instead.")
    saved.add_argument("file", metavar="FILE", help="the new backup file")
    checked = actions.add_parser(
        "check", help="replay every game and list those that do not reach their saved state",
        description="Replay every started game from its seed and moves; print one line for each game that does "
                    "not reach its saved state, then a summary. Exit status 1 when any does not.")
    pruned = actions.add_parser(
        "prune", help="remove old ended games' moves and delivered pictures, keeping their results",
        description="Remove the move logs and delivered posts (with their pictures) of games that ended before "
                    "DATE; results, ratings, statistics and history stay, running games are never touched. "
                    "Without --yes it only counts what it would remove.")
    pruned.add_argument("--finished-before", dest="before", metavar="DATE", required=True, type=day,
                        help="a day such as 2026-11-01 (UTC): games that ended before it, not later than today")
    pruned.add_argument("--yes", action="store_true", help="remove them (without it: a dry run that changes nothing)")
    for action in (saved, checked, pruned):
        action.add_argument("--db", metavar="DATABASE", help=DATABASE_HELP)
    return made


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(parser(), argv)
    if isinstance(args, int):
        return args
    if args.action == "backup":
        return backup(args.db, args.file)
    if args.action == "check":
        return check(args.db)
    if args.action == "prune":
        return prune(args.db, args.before, apply=args.yes)
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
