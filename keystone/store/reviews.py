"""Reviews of finished games, kept once computed.

The `Reviews` half of the `Store` (see `keystone.store.store`): the reviews table. A review is
the app's own data (JSON, no words and no names: the words are made in the reader's language when
it is shown), one per seat of a finished game; a finished game never changes, so it is computed once.
"""

from __future__ import annotations

from keystone.store import validate
from keystone.store.base import StoreBase
from keystone.store.errors import InvalidInput
from keystone.store.models import MAX_SEATS

LAST_SEAT = max(MAX_SEATS.values()) - 1


class Reviews(StoreBase):
    """The reviews table."""

    async def review(self, game_id: int, seat: int) -> str | None:
        """The review kept for this seat of this game (its JSON text), or None."""
        game_id, seat = validate.ident(game_id, "game id"), validate.integer(seat, "seat", 0, LAST_SEAT)
        rows = await self._rows("SELECT body FROM reviews WHERE game_id = ? AND seat = ?", (game_id, seat))
        return str(rows[0][0]) if rows else None

    async def keep_review(self, game_id: int, seat: int, body: str) -> None:
        """Keep a computed review (a second one for the same seat replaces the first)."""
        game_id, seat = validate.ident(game_id, "game id"), validate.integer(seat, "seat", 0, LAST_SEAT)
        if not isinstance(body, str) or not body:
            raise InvalidInput("A review needs its data.")
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO reviews (game_id, seat, body, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET body = excluded.body, created_at = excluded.created_at",
                (game_id, seat, body, self._clock()),
            )
