"""Another process writing to a bot's database: `python -m tests.backup_writer DB STOP` commits random
moves into every running game, each on its own, until the file STOP appears. A game's last move is
never made, so every game stays running. (Light on imports, so it starts writing soon.)"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

from keystone.engine import is_over
from keystone.store import StaleVersion, Store
from tests.store_helpers import random_move


async def keep_writing(db: str, stop: Path) -> None:
    rng = random.Random(time.time())
    async with await Store.open(db) as store:
        while not stop.exists():
            for record in await store.list_games("active"):
                state = (await store.load_game(record.id)).state
                text, new = random_move(state, rng)
                if is_over(new):
                    continue
                try:
                    await store.commit_action(record.id, state.version, state.current, text, new)
                except StaleVersion:
                    continue


if __name__ == "__main__":
    asyncio.run(keep_writing(sys.argv[1], Path(sys.argv[2])))
