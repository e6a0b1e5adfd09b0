"""Run the Keystone bot on Discord (`python bot.py`), or play in the terminal (`python bot.py --local`).

Settings come from the environment and a `.env` file beside this script (see `.env.example`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import logging
import sys
import textwrap
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from keystone.settings import Settings, describe_error, load_settings

ENV_FILE = Path(__file__).resolve().with_name(".env")
PYPROJECT = Path(__file__).resolve().with_name("pyproject.toml")
DISTRIBUTION = "keystone-bot"
REDACTED = "[redacted]"
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

NO_TOKEN_HELP = textwrap.fill(
    "No Discord bot token is set, so the bot cannot log in. To get one, open the Discord developer "
    "portal (https://discord.com/developers/applications), choose your application (or create one), "
    "open Bot and press Reset Token. Put the token in a file named .env next to bot.py as "
    "DISCORD_TOKEN=your-token (see .env.example), then run python bot.py --invite: it prints the link "
    "that adds the bot to your server with the permissions it needs. To play without Discord, run: "
    "python bot.py --local",
    width=100,
)


class RedactingFilter(logging.Filter):
    """Replaces secrets in every record (message, arguments, traceback, stack) before any output."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = f"{record.msg} {record.args}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def configure_logging(
    level: int | str, token: str | None, stream: TextIO | None = None, *others: str | None, form: str = "text"
) -> logging.Handler:
    """Log to stderr at `level`, with the token (and `others`: the database password) redacted
    from everything that passes; as text, or one JSON object a line naming the game, server and
    channel a line is about (`form` "json", LOG_FORMAT)."""
    from keystone.app.logs import Ids, JsonFormatter

    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(LOG_FORMAT))
    secrets = [s for s in (token, *others) if s]
    if secrets:
        handler.addFilter(RedactingFilter(*secrets))
    handler.addFilter(Ids())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    return handler


def run_local(argv: Sequence[str]) -> int:
    """Hand over to the terminal game (imported only here, so the bot never loads it)."""
    from keystone.cli import play

    return play.main(list(argv))


def version(pyproject: Path = PYPROJECT) -> str:
    """This bot's version, written in one place: `[project] version` in pyproject.toml.

    Run from a checkout (as `python bot.py` is), the pyproject.toml beside this script is read: it
    describes the code that runs, even if an older copy was once installed into the environment.
    Without it, the installed package's metadata (made from that same field) answers.
    """
    try:
        with pyproject.open("rb") as file:
            project = tomllib.load(file).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        project = {}
    if project.get("name") == DISTRIBUTION and isinstance(project.get("version"), str):
        return str(project["version"])
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(prog="bot.py", description="Run the Keystone: North America Discord bot.")
    made.add_argument("--version", action="version", version=f"{DISTRIBUTION} {version()}",
                      help="print the version and exit")
    made.add_argument("--local", action="store_true",
                      help="play in the terminal without Discord; further options go to the terminal game "
                      "(see --local --help)")
    made.add_argument("--invite", action="store_true",
                      help="print the link that adds the bot to a server with the permissions it needs, and exit")
    made.add_argument("--shards", metavar="IDS",
                      help="run these shards in this process, a range such as 0-3 or a list such as 0,2,5 "
                      "(overrides KEYSTONE_SHARDS)")
    made.add_argument("--shard-count", metavar="N",
                      help="how many shards the bot runs in all, across every process (overrides KEYSTONE_SHARD_COUNT)")
    return made


def database_problem(target: str) -> str | None:
    """The sentence that refuses the database (a file, or a server that does not answer), or None
    when it can be used; writes nothing.

    Checked before connecting, so a bad KEYSTONE_DB is reported before Discord is involved.
    """
    from keystone.store import Store, StoreError

    try:
        asyncio.run(Store.check(target))
    except StoreError as error:
        return str(error)
    return None


def run_bot(settings: Settings, token: str) -> int:
    """Check the database, then connect to Discord and serve until interrupted."""
    problem = database_problem(settings.database)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    import discord
    from discord.http import Route

    from cogs.bot import CONNECTION_ERRORS, DiscordUnreachable, apply_overrides, create_bot
    from cogs.stopping import serve

    apply_overrides(settings)
    bot = create_bot(settings)
    try:
        asyncio.run(serve(bot, token))  # SIGTERM or Ctrl-C stops it gracefully (cogs/stopping.py)
    except KeyboardInterrupt:  # before the signal handlers were in place
        return 0
    except discord.LoginFailure:
        print("Discord did not accept DISCORD_TOKEN. Reset the token in the developer portal "
              "(Applications -> Bot -> Reset Token) and put the new one in .env.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused a privileged intent this bot asked for; check the Bot page of the "
              "developer portal.", file=sys.stderr)
        return 2
    except DiscordUnreachable as error:
        print(error, file=sys.stderr)
        return 2
    except (*CONNECTION_ERRORS, discord.DiscordServerError) as error:
        print(DiscordUnreachable(Route.BASE, "DISCORD_API_BASE_URL", error), file=sys.stderr)
        return 2
    return 0


def print_invite(token: str | None) -> int:
    """Print the invite link of the token's application. Its id is read from the token itself, so
    Discord is not asked and the link can be made before the bot ever connects."""
    if token is None:
        print("No Discord bot token is set, so there is no application to invite: put DISCORD_TOKEN=your-token "
              "in .env (see .env.example), then run python bot.py --invite again.", file=sys.stderr)
        return 2
    from cogs.permissions import application_id, invite_url

    app_id = application_id(token)
    if app_id is None:
        print("DISCORD_TOKEN does not look like a bot token (its first part should be the bot's id); copy it "
              "again from the developer portal (Applications -> Bot -> Reset Token).", file=sys.stderr)
        return 2
    print(invite_url(app_id))
    return 0


def main(argv: Sequence[str] | None = None, env_file: Path | None = ENV_FILE) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if "--local" in given:  # every other option, --help included, belongs to the terminal game
        given.remove("--local")
        return run_local(given)
    options = parser().parse_args(given)  # --help, or a refusal of options the bot does not know
    flags = {"keystone_shards": options.shards, "keystone_shard_count": options.shard_count}
    try:
        settings = load_settings(env_file, **{name: value for name, value in flags.items() if value is not None})
    except ValidationError as exc:
        print(f"The settings are not valid. {describe_error(exc)} See .env.example.", file=sys.stderr)
        return 2
    token = settings.token()
    configure_logging(settings.log_level_number, token, None, settings.database_password(), form=settings.log_format)
    if options.invite:
        return print_invite(token)
    if token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    return run_bot(settings, token)


if __name__ == "__main__":
    raise SystemExit(main())
