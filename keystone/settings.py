"""Runtime settings, read from the environment and a `.env` file beside bot.py.

Environment variables win over the file. Blank values count as unset, so `DEV_GUILD_ID=`
in a copied `.env.example` is harmless. Bad values fail with a sentence naming the variable
(see `describe_error`) rather than a traceback.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal, get_args
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, PositiveInt, SecretStr, StringConstraints, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENV_FILE = PROJECT_ROOT / ".env"
DEFAULT_DATABASE = "./keystone.db"
"""Where games are stored when KEYSTONE_DB is not set."""

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LOG_LEVELS: tuple[LogLevel, ...] = get_args(LogLevel)


def _unset_if_blank(value: object) -> object:
    """Whitespace alone counts as unset, like the empty values `env_ignore_empty` drops."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


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
    discord_api_base_url: Annotated[HttpUrlText | None, Blank,
                                    Field(description="a URL starting with http:// or https://")] = None
    discord_gateway_url: Annotated[WebSocketUrlText | None, Blank,
                                   Field(description="a URL starting with ws:// or wss://")] = None

    @property
    def database(self) -> str:
        """Where games are kept: a SQLite file's path, or a PostgreSQL server's `postgresql://` URL."""
        return self.keystone_db

    def database_password(self) -> str | None:
        """The password inside a server URL, which logs must never show."""
        return urlsplit(self.keystone_db).password

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))

    def token(self) -> str | None:
        """The bot token in plain text, or None when it is not configured."""
        return self.discord_token.get_secret_value() if self.discord_token else None


def load_settings(env_file: Path | None = DEFAULT_ENV_FILE) -> Settings:
    """Read settings from the environment and `env_file` (None: environment only)."""
    return Settings(_env_file=env_file)


def describe_error(error: ValidationError) -> str:
    """One readable sentence per invalid setting, naming the environment variable."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        found = Settings.model_fields.get(field)
        if found is not None and found.description:
            lines.append(f"{field.upper()} should be {found.description}.")
        else:
            lines.append(f"{field.upper() or 'Settings'}: {str(problem['msg']).rstrip('.')}.")
    return " ".join(lines)
