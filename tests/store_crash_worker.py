"""Crash-test worker: plays random games into a store as fast as it can until it is killed.

`python -m tests.store_crash_worker DB_PATH SEED` runs one worker. It continues whatever game the
database holds (so each run also exercises recovery from the previous kill) and prints one line
per committed change, flushed only after the commit returned: `ready`, `created GAME`,
`moved GAME VERSION`.

`python -m tests.store_crash_worker --fork-server` imports everything once, then serves lines on
stdin: `run DB_PATH SEED OUT_PATH` forks a worker writing to OUT_PATH and answers `pid N`;
`reap N` waits for that worker and answers `status S` (its raw wait status). Forking a warm
interpreter keeps dozens of kills fast. The server never opens a database or starts a thread,
so each forked worker begins clean.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from keystone.engine import is_over
from keystone.store import Store
from tests.store_helpers import random_move, results_for, start_game

CHANNEL = 100


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def run(path: Path, seed: int) -> None:
    store = await Store.open(path)
    say("ready")
    while True:
        record = await store.get_active_game(CHANNEL)
        if record is None:
            record = await start_game(store, channel_id=CHANNEL, seed=random.Random(seed).randrange(10**6))
            seed += 1
            say(f"created {record.id}")
        state = (await store.load_game(record.id)).state
        while not is_over(state):
            rng = random.Random(f"{record.id}-{state.version}")
            text, new = random_move(state, rng)
            results = results_for(new) if is_over(new) else None
            await store.commit_action(record.id, state.version, state.current, text, new, results=results)
            say(f"moved {record.id} {new.version}")
            state = new


def fork_worker(path: str, seed: str, out: str) -> int:
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)  # exists before anyone reads it
    pid = os.fork()
    if pid:
        os.close(fd)
        return pid
    try:  # the child: stdout goes to OUT_PATH, then play until killed
        os.dup2(fd, 1)
        os.close(fd)
        asyncio.run(run(Path(path), int(seed)))
    finally:
        os._exit(1)


def serve() -> None:
    for line in sys.stdin:
        words = line.split()
        if words[0] == "run":
            say(f"pid {fork_worker(*words[1:4])}")
        elif words[0] == "reap":
            say(f"status {os.waitpid(int(words[1]), 0)[1]}")


if __name__ == "__main__":
    if sys.argv[1] == "--fork-server":
        serve()
    else:
        asyncio.run(run(Path(sys.argv[1]), int(sys.argv[2])))
