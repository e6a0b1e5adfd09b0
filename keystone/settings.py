"""Runtime settings, read from the environment and a `.env` file beside bot.py.

Environment variables win over the file. Blank values count as unset, so `DEV_GUILD_ID=`
in a copied `.env.example` is harmless. Bad values fail with a sentence naming the variable
(see `describe_error`) rather than a traceback.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    BeforeValidator,
    Field,
    NonNegativeInt,
    PositiveInt,
    SecretStr,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENV_FILE = PROJECT_ROOT / ".env"
DEFAULT_DATABASE = "./keystone.db"
"""Where games are stored when KEYSTONE_DB is not set."""

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LOG_LEVELS: tuple[LogLevel, ...] = get_args(LogLevel)
LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = get_args(LogFormat)


def default_render_workers() -> int:
    """Picture workers when KEYSTONE_RENDER_WORKERS is not set: one a core, at most two (each holds
    about 65 MB). The bot's own process needs only a few milliseconds a move once pictures are
    drawn elsewhere (bench/bench_painter.py), so a core of its own would mostly wait."""
    return min(2, os.cpu_count() or 1)


def _unset_if_blank(value: object) -> object:
    """Whitespace alone counts as unset, like the empty values `env_ignore_empty` drops."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


Blank = BeforeValidator(_unset_if_blank)
HttpUrlText = Annotated[str, StringConstraints(pattern=r"^https?://")]
WebSocketUrlText = Annotated[str, StringConstraints(pattern=r"^wss?://")]


class Settings(BaseSettings):
    """Everything the bot process needs to know before it connects.

    Each description finishes the sentence "NAME should be ..." that `describe_error` prints.
    """

    model_config = SettingsConfigDict(
        env_file=DEFAULT_ENV_FILE, env_file_encoding="utf-8", extra="ignore", case_sensitive=False,
        env_ignore_empty=True, str_strip_whitespace=True,
    )

    discord_token: Annotated[SecretStr | None, Blank] = None
    keystone_db: Annotated[str, Field(min_length=1, description=f"a file path such as {DEFAULT_DATABASE} or a "
                                                                "postgresql://user:password@host/database URL")] = (
        DEFAULT_DATABASE
    )
    dev_guild_id: Annotated[PositiveInt | None, Blank, Field(
        description="the numeric id of your test server "
                    "(right-click the server with Developer Mode on, then Copy Server ID)")] = None
    log_level: Annotated[LogLevel, BeforeValidator(_upper),
                         Field(description=f"one of {', '.join(LOG_LEVELS)}")] = "INFO"
    log_format: Annotated[LogFormat, BeforeValidator(_lower), Field(
        description=f"one of {', '.join(LOG_FORMATS)} (json: one JSON object a line)")] = "text"
    discord_api_base_url: Annotated[HttpUrlText | None, Blank,
                                    Field(description="a URL starting with http:// or https://")] = None
    discord_gateway_url: Annotated[WebSocketUrlText | None, Blank,
                                   Field(description="a URL starting with ws:// or wss://")] = None
    keystone_shard_count: Annotated[PositiveInt | None, Blank, Field(
        description="how many shards the bot runs in all, a whole number from 1 up, the same in every process")] = None
    keystone_shards: Annotated[tuple[int, ...] | None, NoDecode, Field(
        description="the shards this process runs, as a range such as 0-3 or a list such as 0,2,5, "
                    "each below KEYSTONE_SHARD_COUNT")] = None

    @field_validator("keystone_shards", mode="before")
    @classmethod
    def _shard_ids(cls, value: object, info: ValidationInfo) -> object:
        """"0-3", "0,2,5" or "0-1,6" as sorted shard numbers, each below the shard count.

        Checked here, where the count (validated first) is known, so a huge range is refused
        before it is spelled out; a count that was itself refused is reported on its own.
        """
        value = _unset_if_blank(value)
        if value is None or "keystone_shard_count" not in info.data:
            return None
        count = info.data["keystone_shard_count"]
        if count is None:
            raise ValueError("KEYSTONE_SHARD_COUNT is not set")
        parts = value.split(",") if isinstance(value, str) else value
        ids: set[int] = set()
        for part in parts if isinstance(parts, list | tuple) else [parts]:
            low, high = _shard_range(part)
            if high >= count:
                raise ValueError(f"{high} is not below {count}")
            ids.update(range(low, high + 1))
        return tuple(sorted(ids))

    @property
    def sharded(self) -> bool:
        """Whether the bot runs as shards (a shard count is set); if not, it is one process, unsharded."""
        return self.keystone_shard_count is not None
    keystone_render_workers: Annotated[NonNegativeInt | None, Blank, Field(
        description="a whole number of worker processes to draw pictures in (0 draws in threads)")] = None
    keystone_clock_scale: Annotated[Annotated[float, Field(gt=0, le=1)] | None, Blank, Field(
        description="a number above 0 and at most 1 (1: turns take the time their pace says)")] = None
    keystone_metrics_port: Annotated[Annotated[int, Field(ge=0, le=65535)] | None, Blank, Field(
        description="a port number up to 65535 for /metrics and /healthz (0: any free one; blank: not served)")] = None
    keystone_metrics_host: Annotated[str | None, Blank, Field(
        description="the address /metrics and /healthz listen on, such as 127.0.0.1")] = None

    @property
    def metrics_host(self) -> str:
        """Where /metrics and /healthz listen: this machine only unless KEYSTONE_METRICS_HOST says otherwise."""
        return self.keystone_metrics_host or "127.0.0.1"

    @property
    def clock_scale(self) -> float:
        """Turn clocks run this much of their pace's time: for trying reminders and turns run out on a
        real clock in minutes rather than days (tests, a demonstration server); 1 (unset) in real use."""
        return 1.0 if self.keystone_clock_scale is None else self.keystone_clock_scale

    @property
    def database(self) -> str:
        """Where games are kept: a SQLite file's path, or a PostgreSQL server's `postgresql://` URL."""
        return self.keystone_db

    def database_password(self) -> str | None:
        """The password inside a server URL, which logs must never show."""
        return urlsplit(self.keystone_db).password

    @property
    def render_workers(self) -> int:
        """Processes to draw pictures in: KEYSTONE_RENDER_WORKERS, or a default that suits the machine."""
        return default_render_workers() if self.keystone_render_workers is None else self.keystone_render_workers

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))

    def token(self) -> str | None:
        """The bot token in plain text, or None when it is not configured."""
        return self.discord_token.get_secret_value() if self.discord_token else None


def _shard_range(part: object) -> tuple[int, int]:
    """One shard ("3") or range ("0-3") as its first and last number."""
    if isinstance(part, int) and not isinstance(part, bool) and part >= 0:
        return part, part
    first, dash, last = str(part).strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
        raise ValueError(f"{str(part).strip() or 'an empty part'!r} is neither a number nor a range")
    low, high = int(first), int(last) if dash else int(first)
    if high < low:
        raise ValueError(f"the range {low}-{high} runs backwards")
    return low, high


def load_settings(env_file: Path | None = DEFAULT_ENV_FILE, **overrides: object) -> Settings:
    """Read settings from the environment and `env_file` (None: environment only); `overrides`
    (from the command line) win over both."""
    return Settings(_env_file=env_file, **overrides)  # type: ignore[arg-type]


def describe_error(error: ValidationError) -> str:
    """One readable sentence per invalid setting, naming the environment variable."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        found = Settings.model_fields.get(field)
        reason = (problem.get("ctx") or {}).get("error") if problem["type"] == "value_error" else None
        if found is not None and found.description:
            because = f" ({reason})" if reason is not None else ""
            lines.append(f"{field.upper()} should be {found.description}{because}.")
        else:
            lines.append(f"{field.upper() or 'Settings'}: {str(problem['msg']).rstrip('.')}.")
    return " ".join(lines)
