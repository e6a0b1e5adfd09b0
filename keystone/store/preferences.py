"""What people and servers chose: direct-message reminders and languages.

The `Preferences` half of the `Store` (see `keystone.store.store`): the user_settings and
server_settings tables, and the language of a server's open games.
"""

from __future__ import annotations

from keystone.i18n import Language
from keystone.store import validate
from keystone.store.base import StoreBase


class Preferences(StoreBase):
    """The user_settings and server_settings tables."""

    # ------------------------------------------------------------------ notices and languages

    async def notify(self, user_id: int) -> bool:
        """Whether this person wants their reminders by direct message too."""
        rows = await self._rows(
            "SELECT notify FROM user_settings WHERE user_id = ?", (validate.ident(user_id, "user id"),)
        )
        return bool(rows and rows[0][0])

    async def set_notify(self, user_id: int, on: bool) -> None:
        user_id, on = validate.ident(user_id, "user id"), validate.flag(on, "to notify")
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, notify) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, int(on)),
            )

    async def chosen_languages(self, user_id: int, guild_id: int | None) -> tuple[Language | None, Language | None]:
        """The language this person chose for their private answers, and the one this server chose
        for its public messages (None where nothing was chosen, and for the server of a direct message)."""
        user_id, guild_id = validate.ident(user_id, "user id"), validate.optional_ident(guild_id, "server id")
        rows = await self._rows(
            "SELECT (SELECT language FROM user_settings WHERE user_id = ?), "
            "(SELECT language FROM server_settings WHERE guild_id = ?)", (user_id, guild_id or 0),
        )
        return validate.language(rows[0][0]), validate.language(rows[0][1])

    async def set_language(self, user_id: int, lang: Language | None) -> None:
        """Keep this person's language for private answers; None goes back to their Discord locale."""
        await self._keep_language("user_settings", "user_id", validate.ident(user_id, "user id"), lang)

    async def set_server_language(self, guild_id: int, lang: Language | None) -> None:
        """Keep this server's language for public messages; None goes back to the server's Discord locale."""
        await self._keep_language("server_settings", "guild_id", validate.ident(guild_id, "server id"), lang)

    async def set_games_language(self, guild_id: int, lang: Language) -> None:
        """The language of the public messages of this server's open games (its lobbies and running games)."""
        guild_id, lang = validate.ident(guild_id, "server id"), validate.language(lang) or "en"
        async with self._db.transaction() as db:
            await db.execute("UPDATE games SET language = ? WHERE guild_id = ? AND status IN ('lobby', 'active')",
                             (lang, guild_id))

    async def _keep_language(self, table: str, key: str, owner: int, lang: Language | None) -> None:
        lang = validate.language(lang)
        async with self._db.transaction() as db:
            await db.execute(
                f"INSERT INTO {table} ({key}, language) VALUES (?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET language = excluded.language",
                (owner, lang),
            )
