"""`store backup`, `store check` and `store prune`: looking after the bot's own database.

Each finds the database as the bot does (KEYSTONE_DB from the environment or `.env`) unless
`--db` names one, says what it did in a sentence or two on standard output, and refuses with one
sentence on standard error and exit status 2; a server's password is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from collections.abc import Coroutine
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from keystone.app.stats import with_summaries
from keystone.settings import describe_error, load_settings
from keystone.store import Store, StoreError
from keystone.store.audit import audit_all
from keystone.store.backend import is_url
from keystone.store.backup import BackedUp, backup_sqlite, postgres_commands
from keystone.store.copy import where
from keystone.store.prune import Pruned, unsummarised
from keystone.store.prune import prune as prune_store

INTERRUPTED = 130
"""The exit status of a program stopped by Ctrl-C (128 + SIGINT), as shells report it."""
DATABASE_HELP = ("a SQLite file or a postgresql:// URL (default: KEYSTONE_DB from the environment or .env, "
                 "the bot's own database)")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class Refused(Exception):
    """One sentence for standard error; exit status 2."""


def day(text: str) -> date:
    """A `--finished-before` day: YYYY-MM-DD, a real date."""
    try:
        if DAY.match(text.strip()):
            return date.fromisoformat(text.strip())
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a day such as 2026-11-01 (year, month, day)")


def database(given: str | None) -> str:
    """`--db`, or the bot's KEYSTONE_DB."""
    if given:
        return given
    try:
        return load_settings().database
    except ValidationError as error:
        raise Refused(describe_error(error)) from None


def _run(work: Coroutine[Any, Any, int], stopped: str) -> int:
    """Run a command's body: a refusal is one sentence (status 2), Ctrl-C says what was left (130)."""
    try:
        return asyncio.run(work)
    except (Refused, StoreError) as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(stopped, file=sys.stderr)
        return INTERRUPTED


# --------------------------------------------------------------------------- backup


def backup(given: str | None, file: str) -> int:
    return _run(_backup(given, file), "The backup was stopped before it was complete, so no file was written; "
                                      "run the same command again.")


async def _backup(given: str | None, file: str) -> int:
    source = database(given)
    if is_url(source):
        dump, restore = postgres_commands(source, file)
        print(f"Make the backup with PostgreSQL's own tool (it takes a consistent copy while the bot runs; it "
              f"asks for the password, or reads PGPASSWORD or ~/.pgpass):\n  {dump}\nTo restore it, stop the bot "
              f"and run (it replaces everything in that database):\n  {restore}")
        raise Refused(f"No backup was made: {where(source)} is a PostgreSQL database, which pg_dump backs up; "
                      "run the command above.")
    made = await backup_sqlite(source, file)
    print(backed_up(made, source))
    return 0


def backed_up(made: BackedUp, source: str) -> str:
    return (f"Backed up {source} to {made.path} ({_size(made.size)}, {counted(made.games, 'game')}) in "
            f"{made.seconds:.1f} s; the copy passed SQLite's integrity check and opens at schema version "
            f"{made.schema}. Check its games with: python -m keystone store check --db {made.path}")


# --------------------------------------------------------------------------- check


def check(given: str | None) -> int:
    return _run(_check(given), "The check was stopped before it was complete; nothing was changed.")


async def _check(given: str | None) -> int:
    target = database(given)
    failed = checked = pruned = 0
    async with await _open(target) as store:
        async for audited in audit_all(store):
            checked += 1
            pruned += audited.pruned
            if audited.problem is not None:
                failed += 1
                print(f"Game {audited.game_id} ({audited.status}): {audited.problem}.")
    kept = f" ({pruned} of them pruned: only their final state could be checked)" if pruned else ""
    reach = "reaches its" if checked - failed == 1 else "reach their"
    print(f"Checked {counted(checked, 'started game')} in {where(target)}: {checked - failed} {reach} saved "
          f"state{kept}, {failed} {'does' if failed == 1 else 'do'} not.")
    return 1 if failed else 0


async def _open(target: str) -> Store:
    if not is_url(target):
        if not Path(target).is_file() or Path(target).stat().st_size == 0:
            raise Refused(f"There is no database at {target} (the file is missing or empty); nothing was changed.")
        await Store.check(target)  # refuses a missing, damaged or foreign file before anything is written
    return await Store.open(target)


# --------------------------------------------------------------------------- prune


def prune(given: str | None, before: date, *, apply: bool) -> int:
    return _run(_prune(given, before, apply), "The prune was stopped part-way: the games it finished with were "
                                              "pruned whole and the others untouched; run the same command again.")


async def _prune(given: str | None, before: date, apply: bool) -> int:
    today = datetime.now(UTC).date()
    if before > today:
        raise Refused(f"Nothing was pruned: {before.isoformat()} is after today ({today.isoformat()}, UTC), and "
                      "games that end today may still be replayed; give today's date or an earlier one.")
    target = database(given)
    moment = datetime(before.year, before.month, before.day, tzinfo=UTC).timestamp()
    async with await _open(target) as store:
        if apply:
            await with_summaries(store, await unsummarised(store, moment))  # statistics read them from the moves
        started = time.monotonic()
        done = await prune_store(store, moment, apply=apply)
    print(pruned_text(done, before, where(target), time.monotonic() - started))
    return 0


def pruned_text(done: Pruned, before: date, target: str, seconds: float) -> str:
    what = (f"the move logs of {counted(done.games, 'game')} ({counted(done.moves, 'move')}) that ended before "
            f"{before.isoformat()} and {counted(done.posts, 'delivered post')} ({_size(done.post_bytes)}, "
            "their pictures mostly)")
    if not done.done:
        return (f"Would remove {what} from {target}; results, ratings, statistics and history stay. Nothing was "
                "changed: add --yes to remove them (back up first: they come back only from a backup).")
    return (f"Removed {what} from {target} in {seconds:.1f} s; results, ratings, statistics and history stay, "
            "and those games can no longer be replayed.")


def _size(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB" if count >= 100_000 else f"{count / 1000:.1f} kB"


def counted(count: int, noun: str) -> str:
    """"1 game", "2 games": an operator's English, counted."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
