"""Crash safety: a worker process committing moves is killed with SIGKILL at random moments.

After every kill the reopened database must hold every change the worker reported as committed,
plus at most the one it was committing when it died, and every game must replay to its snapshot.
Workers are forked from a warm server process (see the worker's docstring) and two databases are
hammered side by side, so the test stays quick on two cores.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from keystone.store import Store
from keystone.store.migrate import latest

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 15  # per database at least; two databases, so 30 kills
MAX_ROUNDS = 60
"""On a busy machine workers commit less per round, so rounds go on until each has committed ENOUGH."""
ENOUGH = 100
Change = tuple[int, int]  # (game, version); version 0 is the game's creation


@dataclass
class Target:
    """One database under test and everything its workers have reported so far."""

    path: Path
    known: set[Change] = field(default_factory=set)
    reported: int = 0
    unreported: int = 0
    pid: int = 0
    output: Path | None = None

    def spawn(self, server: ForkServer, number: int) -> None:
        self.output = self.path.with_suffix(f".{number}.out")
        self.pid = server.run(self.path, number * 1000, self.output)

    def lines(self) -> list[str]:
        assert self.output is not None
        return self.output.read_text().splitlines()

    def kill(self, server: ForkServer) -> None:
        pid, self.pid = self.pid, 0
        os.kill(pid, signal.SIGKILL)
        status = server.reap(pid)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the worker stopped by itself"

    def printed(self) -> set[Change]:
        changes: set[Change] = set()
        for line in self.lines():
            words = line.split()
            if words and words[0] == "created":
                changes.add((int(words[1]), 0))
            elif words and words[0] == "moved":
                changes.add((int(words[1]), int(words[2])))
        return changes


class ForkServer:
    """The worker script in `--fork-server` mode: one warm interpreter that forks each worker."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.store_crash_worker", "--fork-server"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, text=True,
        )

    def ask(self, line: str, answer: str) -> int:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        words = self.process.stdout.readline().split()
        assert words and words[0] == answer, f"the fork server did not answer {line!r}"
        return int(words[1])

    def run(self, path: Path, seed: int, output: Path) -> int:
        return self.ask(f"run {path} {seed} {output}", "pid")

    def reap(self, pid: int) -> int:
        return self.ask(f"reap {pid}", "status")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def wait_until_ready(target: Target, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while "ready" not in target.lines():
        assert time.monotonic() < deadline, "the worker never opened the database"
        time.sleep(0.005)


def stored_changes(path: Path) -> set[Change]:
    with sqlite3.connect(path) as db:
        games = {(r[0], 0) for r in db.execute("SELECT id FROM games")}
        return games | {(r[0], r[1]) for r in db.execute("SELECT game_id, version FROM actions")}


async def verify_all(path: Path) -> int:
    """Reopen as the bot would after a crash; every game must pass the full replay audit."""
    store = await Store.open(path)
    try:
        assert await store.schema_version() == latest()
        games = [g for status in ("active", "finished") for g in await store.list_games(status)]
        for game in games:
            loaded = await store.verify_game(game.id)
            assert len(await store.log(game.id)) == loaded.state.version
        assert len(await store.list_games("active")) <= 1
        return len(games)
    finally:
        await store.close()


def check_after_kill(target: Target) -> None:
    printed = target.printed()
    if not target.path.exists():
        assert not printed
        return
    asyncio.run(verify_all(target.path))
    stored = stored_changes(target.path)
    assert printed <= stored, f"committed changes were lost: {sorted(printed - stored)}"
    extra = stored - target.known - printed
    assert len(extra) <= 1, f"changes appeared that were never committed: {sorted(extra)}"
    target.reported += len(printed)
    target.unreported += len(extra)
    target.known = stored


def test_killed_workers_never_lose_or_invent_a_commit(tmp_path: Path) -> None:
    rng = random.Random(20240601)
    targets = [Target(tmp_path / "a.db"), Target(tmp_path / "b.db")]
    server = ForkServer()
    try:
        for number in range(MAX_ROUNDS):
            if number >= ROUNDS and all(t.reported > ENOUGH for t in targets):
                break
            for target in targets:
                target.spawn(server, number)
            early = number % 4 == 0  # sometimes kill while the worker is still opening or migrating
            if early:
                time.sleep(rng.uniform(0.0, 0.02))
            else:
                for target in targets:
                    wait_until_ready(target)
            for target in targets:
                if not early:
                    time.sleep(rng.uniform(0.0, 0.12))
                target.kill(server)
            for target in targets:
                check_after_kill(target)
    finally:
        for target in targets:  # never leave a worker running if a check failed
            if target.pid:
                target.kill(server)
        server.close()
    assert all(t.reported > ENOUGH for t in targets), "the workers committed too little to prove anything"
