from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.fakediscord.fixtures import bot_runner, fake_discord  # noqa: F401

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
