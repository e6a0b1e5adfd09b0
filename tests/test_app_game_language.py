"""The service routes each message to its reader's language: private answers in the asker's,
public ones in the channel's; with no interaction (the clock's posts) the language kept with the
game, resolved when its lobby opened and changed with the server's choice. Real SQLite, time moved by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app.clock import DAY, HOUR
from keystone.engine.coop import acting_player
from keystone.store import Store
from tests.clock_helpers import T0, Time

GERMAN_SERVER = Where(channel_id=10, guild_id=1, guild_locale="de")
ANN = Actor(1, "Ann", can_manage_server=True, locale="en-US")
BOB = Actor(2, "Bob", locale="de")


@pytest.fixture
def time() -> Time:
    return Time(T0)


@pytest.fixture
async def service(tmp_path: Path, time: Time) -> AsyncIterator[GameService]:
    made = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 7, clock=time)
    yield made
    await made.store.close()


async def test_each_reader_gets_their_language_and_the_clock_speaks_the_games(
    service: GameService, time: Time
) -> None:
    lobby = await service.new(GERMAN_SERVER, ANN, players=2)
    assert lobby.public is not None and lobby.public.startswith("Ann hat eine Lobby für 2 Spieler geöffnet")
    assert [c.label for c in lobby.controls][:4] == ["Beitreten", "Verlassen", "Bot dazu", "Starten"]
    assert (await service.lobby(GERMAN_SERVER, BOB, "join")).ok
    started = await service.lobby(GERMAN_SERVER, ANN, "start")
    assert started.public is not None and started.public.startswith("Das Spiel beginnt!")
    assert started.private is not None and started.private.startswith("Your secret objective (card")

    found = await service.state_here(GERMAN_SERVER)
    assert found is not None and found[0].language == "de"
    first = found[0].seats[acting_player(found[1])].name
    waiting = BOB if first == "Ann" else ANN
    refused = await service.act(GERMAN_SERVER, waiting, "take 6 A1")
    assert refused.private == ("Ann ist am Zug, nicht du." if waiting is BOB else "It is Bob's turn, not yours.")
    assert ((await service.objective(GERMAN_SERVER, BOB)).private or "").startswith("Dein geheimes Ziel")

    time.now = T0 + 12 * HOUR
    [reminder] = [p.reply.public for p in await service.due_work()]
    assert reminder is not None and "eine Erinnerung: Du bist hier noch am Zug" in reminder

    assert (await service.set_language(GERMAN_SERVER, ANN, "en", "server")).ok is False  # answered privately
    time.now = T0 + DAY
    told = [p.reply.public or "" for p in await service.due_work()]
    assert told and told[0].startswith(f"Time ran out for {first}, so a normal bot played this turn for them.")
