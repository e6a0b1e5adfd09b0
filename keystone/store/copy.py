"""Moving house: copy every record from one store to another (SQLite to PostgreSQL, or back).

Every table is copied row for row with its ids, in one transaction on the target (all or
nothing), into a target that must be empty. PostgreSQL's id sequence is then moved past the
copied ids, so the next game gets a new number. Finally every started game in the target must
pass the full replay audit (`verify_game`), and every table must hold as many rows as the source's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from keystone.store.backend import Connection, is_url, shown
from keystone.store.errors import StoreError
from keystone.store.store import Store


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    key: tuple[str, ...]
    """The primary key, which orders the rows read in batches."""
    rest: tuple[str, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return self.key + self.rest


TABLES = (  # parents before the rows that refer to them
    Table("games", ("id",), ("guild_id", "channel_id", "kind", "assignment", "ruleset", "config", "host_id",
                             "status", "seed", "names", "snapshot", "version", "state_hash", "created_at",
                             "updated_at", "pace", "paused_at", "language")),
    Table("seats", ("game_id", "position"), ("user_id", "bot_level", "name", "missed", "away", "missed_turn")),
    Table("actions", ("game_id", "version"), ("seat", "notation", "state_hash", "created_at")),
    Table("results", ("game_id", "position"), ("user_id", "score", "place", "won", "finished_at", "best_line",
                                               "best_line_points", "habitats")),
    Table("campaign", ("user_id", "assignment"), ("stars", "best_score", "attempts", "completed_at", "updated_at")),
    Table("ratings", ("player",), ("mu", "sigma", "games", "updated_at")),
    Table("rating_changes", ("game_id", "position"), ("player", "place", "mu_before", "sigma_before", "mu_after",
                                                      "sigma_after")),
    Table("resignations", ("game_id", "position"), ("user_id",)),
    Table("clocks", ("game_id",), ("turn", "seat", "started_at", "remind_at", "deadline", "reminded",
                                 "claimed_until")),
    Table("user_settings", ("user_id",), ("notify", "language")),
    Table("away_votes", ("game_id", "seat", "turn", "voter_id"), ()),
    Table("daily_secret", ("id",), ("secret", "created_at")),
    Table("daily_games", ("day", "user_id"), ("game_id", "score", "resigned", "finished_at")),
    Table("daily_servers", ("guild_id", "user_id"), ("joined_at",)),
    Table("server_settings", ("guild_id",), ("language",)),
    Table("outbox", ("id",), ("key", "queue", "game_id", "guild_id", "channel_id", "user_id", "body", "for_turn",
                              "created_at", "held_until", "attempts", "next_at", "sent_at", "gave_up")),
)
"""Every table but `schema_version`, which the target's own migrations write."""
BATCH = 500
RESET_IDS = tuple(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) "
                  f"FROM {table}" for table in ("games", "outbox"))
"""PostgreSQL only: the next new game's (and post's) id follows the copied ones (SQLite takes max(id) + 1 by itself)."""


class CopyRefused(StoreError):
    """The copy was not started (nothing was written), or its check failed (the sentence says which)."""


@dataclass(frozen=True, slots=True)
class Copied:
    rows: dict[str, int]
    audited: int
    """Started games that passed the replay audit in the target."""


def where(target: str) -> str:
    return shown(target) if is_url(target) else target


async def copy_store(source: str, target: str) -> Copied:
    """Copy everything from `source` into the empty `target` (paths or `postgresql://` URLs) and check it."""
    if where(source) == where(target):
        raise CopyRefused("The source and the target are the same database; name two different ones.")
    if not is_url(source) and not Path(source).is_file():
        raise CopyRefused(f"There is no database at {source} to copy from.")
    async with await Store.open(source) as origin, await Store.open(target) as copy:
        async with copy.database.connection() as db:
            held = [await count(db, table.name) for table in TABLES]
        if any(held):
            raise CopyRefused(f"The database {where(target)} already holds games or other records; copy "
                                  "only into a new, empty database, so nothing there is mixed up or lost.")
        rows = await _copy_rows(origin, copy)
        return Copied(rows, await _check(origin, copy, rows))


async def count(db: Connection, table: str) -> int:
    return int((await db.fetch(f"SELECT count(*) FROM {table}"))[0][0])


async def _copy_rows(origin: Store, copy: Store) -> dict[str, int]:
    rows: dict[str, int] = {}
    async with copy.database.transaction() as writer:
        for table in TABLES:
            rows[table.name] = 0
            marks = ", ".join("?" for _ in table.columns)
            insert = f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})"
            select = (f"SELECT {', '.join(table.columns)} FROM {table.name} "
                      f"ORDER BY {', '.join(table.key)} LIMIT ? OFFSET ?")
            while True:
                async with origin.database.connection() as reader:
                    batch = await reader.fetch(select, (BATCH, rows[table.name]))
                if not batch:
                    break
                await writer.executemany(insert, batch)
                rows[table.name] += len(batch)
        if writer.dialect.name == "postgresql":
            for reset in RESET_IDS:
                await writer.fetch(reset)
    return rows


async def _check(origin: Store, copy: Store, rows: dict[str, int]) -> int:
    """The row counts agree on both sides, and every started game in the copy passes the replay audit."""
    async with origin.database.connection() as db:
        for table in TABLES:
            if await count(db, table.name) != rows[table.name]:
                raise CopyRefused(f"The {table.name} table changed while it was being copied; stop the bot "
                                  "and copy again into a new, empty database.")
    async with copy.database.connection() as db:
        started = [int(r[0]) for r in await db.fetch("SELECT id FROM games WHERE snapshot IS NOT NULL ORDER BY id")]
    for game_id in started:
        await copy.verify_game(game_id)
    return len(started)
