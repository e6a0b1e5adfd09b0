"""pytest fixtures for PostgreSQL: one server per run, a fresh database (or schema) per test.

    def test_something(postgres_url):   # postgresql://keystone@127.0.0.1:PORT/t_...
        ...

`postgres_schema_url` is cheaper (a new schema in one database per test process, where a new
database costs a tenth of a second): the same as a new database to the store, which keeps
everything in the connection's current schema.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg
import pytest

from tests.postgres_cluster import REQUIRE_VARIABLE, SERVER_URL_VARIABLE, Cluster, NoServerPrograms


def _run_apart(work: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine on its own loop in a thread, whatever loop the test itself uses."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, work).result()


async def _admin(server: str, statement: str) -> None:
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server's URL: KEYSTONE_TEST_POSTGRES's, or a throwaway cluster's; else skip."""
    given = os.environ.get(SERVER_URL_VARIABLE)
    if given:
        yield given
        return
    try:
        cluster = Cluster.start()
    except NoServerPrograms as missing:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty database on the server, dropped after the test."""
    yield from _new_database(postgres_server)


def _new_database(server: str) -> Iterator[str]:
    """A new database's URL, the database dropped (whoever is still connected) when done."""
    name = f"t_{uuid.uuid4().hex}"
    _run_apart(_admin(server, f'CREATE DATABASE "{name}"'))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        _run_apart(_admin(server, f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def postgres_session_database(postgres_server: str) -> Iterator[str]:
    """One database for this test process's schemas, dropped at the end."""
    yield from _new_database(postgres_server)


@pytest.fixture
def postgres_schema_url(postgres_session_database: str) -> str:
    """A URL whose connections work in a new, empty schema (asyncpg passes `search_path` to the server)."""
    name = f"t_{uuid.uuid4().hex}"
    _run_apart(_admin(postgres_session_database, f'CREATE SCHEMA "{name}"'))
    return f"{postgres_session_database}?search_path={name}"
