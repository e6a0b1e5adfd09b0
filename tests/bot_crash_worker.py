"""Crash-test worker: a person's move against a bot is saved, then the process dies by SIGKILL.

`python -m tests.bot_crash_worker DB_PATH CHANNEL GUILD USER` starts a game against an easy bot
for USER in CHANNEL (GUILD 0 means a direct message) and plays the person's moves until the bot
must answer; the moment the bot starts to think, the process kills itself, as a power cut would,
after the person's move was committed and before the bot's reply was.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app import moves as service_module
from keystone.app.bots import simple_action
from keystone.engine import GameState
from keystone.store import Store


def die(state: GameState, level: int) -> None:
    """Stands in for the bot: the process ends here, between the two moves."""
    sys.stdout.write(f"killed at version {state.version}\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


async def run(path: str, channel: int, guild: int, user: int) -> None:
    store = await Store.open(path)
    service = GameService(store, seeds=lambda: 3)
    where = Where(channel_id=channel, guild_id=guild or None)
    person = Actor(user, "Ana")
    assert (await service.new(where, person, opponent="easy")).ok
    if guild:
        assert (await service.lobby(where, person, "start")).ok
    # The service calls the bot through its own import of `bot_action`; setattr fails loudly if that name goes.
    pytest.MonkeyPatch().setattr(service_module, "bot_action", die)
    for _ in range(20):
        found = await service.state_here(where)
        assert found is not None
        await service.act(where, person, str(simple_action(found[1])))
    raise SystemExit("the bot never had to answer")


if __name__ == "__main__":
    db, channel_id, guild_id, user_id = sys.argv[1:5]
    asyncio.run(run(db, int(channel_id), int(guild_id), int(user_id)))
