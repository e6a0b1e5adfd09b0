"""What a log line is about, and log lines a machine can read (`LOG_FORMAT=json`).

Work on a game (`_locked` in `keystone.app.context`), an interaction (`cogs.common.run`) or a server
(`cogs.permissions`) runs inside `about(...)`: every line logged meanwhile, in that task and the
tasks it starts, carries the game's, server's and channel's ids (not lines logged in other threads,
such as the database driver's). `Ids` copies them onto each record;
`JsonFormatter` writes one JSON object a line with them. Secrets are taken out earlier, by the
redacting filter bot.py puts first on the handler, from the message and the traceback alike.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Final

FIELDS: Final = {"game": "game_id", "guild": "guild_id", "channel": "channel_id"}
"""What a line can be about -> the record attribute (and JSON key) that carries its id."""

_about: ContextVar[dict[str, int] | None] = ContextVar("log_about", default=None)
"""The ids of the innermost `about`, shared (not copied) with the tasks started inside it, so what
they learn (`also`) reaches the lines their starter logs afterwards, such as an answer's."""


def _known(game: int | None, guild: int | None, channel: int | None) -> dict[str, int]:
    given = {"game": game, "guild": guild, "channel": channel}
    return {k: v for k, v in given.items() if v is not None}


@contextmanager
def about(*, game: int | None = None, guild: int | None = None, channel: int | None = None) -> Iterator[None]:
    """Lines logged inside are about these (None leaves one as it was)."""
    token = _about.set({**(_about.get() or {}), **_known(game, guild, channel)})
    try:
        yield
    finally:
        _about.reset(token)


def also(*, game: int | None = None, guild: int | None = None, channel: int | None = None) -> None:
    """Tell the innermost `about` more (ids learnt inside it, such as the game an interaction is
    about once the service found it); outside any `about`, nothing."""
    found = _about.get()
    if found is not None:
        found.update(_known(game, guild, channel))


def current() -> Mapping[str, int]:
    """What lines logged here and now are about."""
    return MappingProxyType(_about.get() or {})


class Ids(logging.Filter):
    """Copies what the line is about onto the record (`record.game_id` ...), unless it names its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_about.get() or {}).items():
            if getattr(record, FIELDS[key], None) is None:
                setattr(record, FIELDS[key], value)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the ids the line is
    about, and the traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": record.getMessage(),
        }
        for name in FIELDS.values():
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False, default=str)
