"""The throwaway cluster the PostgreSQL tests use really serves, and each test gets its own database."""

from __future__ import annotations

import asyncpg


async def test_a_fresh_database_is_empty_and_writable(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        tables = await connection.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        await connection.execute("CREATE TABLE probe (n integer)")
        await connection.execute("INSERT INTO probe VALUES (7)")
        assert tables == 0
        assert await connection.fetchval("SELECT n FROM probe") == 7
    finally:
        await connection.close()
