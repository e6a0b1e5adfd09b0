from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from keystone.store import Store
from tests.fakediscord.fixtures import bot_runner, fake_discord  # noqa: F401
from tests.postgres_fixtures import (  # noqa: F401
    postgres_schema_url,
    postgres_server,
    postgres_session_database,
    postgres_url,
)

STORE_THREAD = "_connection_worker_thread"


def _store_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if STORE_THREAD in t.name and t.is_alive()}


@pytest.fixture(autouse=True)
def no_store_left_open() -> Iterator[None]:
    """An unclosed database keeps a worker thread alive, and the test run would never exit."""
    before = _store_threads()
    yield
    leaked = _store_threads() - before
    for thread in leaked:
        thread.join(timeout=2)
    still = [t for t in leaked if t.is_alive()]
    assert not still, f"{len(still)} database connection(s) left open: close every Store a test opens"


KEEP_ALIVE_THREAD = "keep-alive-handler"


def _keep_alive_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith(KEEP_ALIVE_THREAD) and t.is_alive()}


@pytest.fixture(autouse=True)
def no_heartbeat_left_running() -> Iterator[None]:
    """discord.py beats each gateway connection's heart from a thread of its own. A connection the
    fake server dropped (a resume, a bot killed mid-test) can leave that thread behind, and 41 s
    later it tries the test's closed event loop and raises during some unrelated later test; so
    stop every heartbeat a test started when it ends."""
    before = _keep_alive_threads()
    yield
    for thread in _keep_alive_threads() - before:
        stop = getattr(thread, "stop", None)
        if callable(stop):
            stop()
        thread.join(timeout=2)



BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store test keeps its games: a new SQLite file, then a new PostgreSQL schema (to the
    store, as good as a new database)."""
    if request.param == "sqlite":
        return str(tmp_path / "k.db")
    return str(request.getfixturevalue("postgres_schema_url"))


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:
    """A store on a real database whose clock ticks one second per reading, so orders are exact."""
    ticks = iter(range(1_000_000))
    s = await Store.open(store_target, clock=lambda: float(next(ticks)))
    yield s
    await s.close()


_exit_status: list[int] = [0]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _exit_status[0] = int(exitstatus)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leaked connections were already reported as errors; do not also hang the run on them."""
    if _store_threads():
        import os
        import sys

        sys.stdout.write("\nDatabase connections were left open (reported above); exiting without waiting.\n")
        sys.stdout.flush()
        os._exit(_exit_status[0] or 1)
