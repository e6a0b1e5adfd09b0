"""Runtime settings, read from the environment and a `.env` file beside bot.py.

Environment variables win over the file. Blank values count as unset, so `DEV_GUILD_ID=`
in a copied `.env.example` is harmless. Bad values fail with a sentence naming the variable
(see `describe_error`) rather than a traceback.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from pydantic import SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENV_FILE = PROJECT_ROOT / ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """Everything the bot process needs to know before it connects."""

    model_config = SettingsConfigDict(
        env_file=DEFAULT_ENV_FILE, env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = None
    keystone_db: str = "./keystone.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base_url: str | None = None
    discord_gateway_url: str | None = None

    @field_validator("discord_token", "dev_guild_id", "discord_api_base_url", "discord_gateway_url",
                     mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _guild_id_is_a_snowflake(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip() or None
        if isinstance(value, str) and not value.isdigit():
            raise ValueError("DEV_GUILD_ID should be the numeric id of your test server "
                             "(right-click the server with Developer Mode on, then Copy Server ID)")
        return value

    @field_validator("dev_guild_id")
    @classmethod
    def _guild_id_positive(cls, value: int | None) -> int | None:
        if value is not None and value <= 0:
            raise ValueError("DEV_GUILD_ID should be a positive server id")
        return value

    @field_validator("keystone_db")
    @classmethod
    def _db_path_given(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("KEYSTONE_DB should be a file path such as ./keystone.db")
        return value.strip()

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        level = str(value).strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL should be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("discord_api_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("DISCORD_API_BASE_URL should start with http:// or https://")
        return value.rstrip("/") if value else value

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("ws://", "wss://")):
            raise ValueError("DISCORD_GATEWAY_URL should start with ws:// or wss://")
        return value

    @property
    def database_path(self) -> Path:
        return Path(self.keystone_db)

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
        name = str(problem["loc"][0]).upper() if problem["loc"] else "settings"
        message = str(problem["msg"]).removeprefix("Value error, ")
        if name not in message:
            message = f"{name}: {message}"
        lines.append(message.rstrip(".") + ".")
    return " ".join(lines)
