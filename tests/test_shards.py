"""Shards: the settings that choose them, Discord's rule for which shard owns a game (in Python and
in the store's SQL, which must agree), and schedulers that each serve only their own shards' games
while sharing one SQLite file, so nothing due is handled twice or left out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import ValidationError

import bot as bot_py
from keystone.app import Actor, GameService, Reply, Where
from keystone.app.clock import HOUR
from keystone.app.scheduler import Scheduler
from keystone.engine import GameConfig, new_game
from keystone.settings import Settings, describe_error, load_settings
from keystone.store import SeatInfo, Shards, Store, shard_of
from tests.clock_helpers import T0, Time, posted

ANN, BOB = Actor(1, "Ann"), Actor(2, "Bob")
ON_0, ON_1 = 5, (1 << 22) + 5
"""Server ids on shard 0 and shard 1 of two."""
SNOWFLAKES = [None, 1, (1 << 22) - 1, 1 << 22, 41771983423143937, 197038439483310086, 1184513463826616421,
              (1 << 62) + 12345, (1 << 63) - 1]
"""Server ids from the smallest to real ones of every age; None is a direct message."""



class Outbox:
    def __init__(self) -> None:
        self.channels: list[int] = []

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        self.channels.append(channel_id)

    async def to_user(self, user_id: int, text: str, nonce: str) -> None:
        pass

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        return False  # no interaction answers here


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


# ------------------------------------------------------------------ settings


@pytest.mark.parametrize(("shards", "count", "ids"), [
    ("0-3", 8, (0, 1, 2, 3)), ("0,2,5", 8, (0, 2, 5)), (" 6 , 1-2 ", 8, (1, 2, 6)), ("", 4, None), ("0", 1, (0,)),
])
def test_shards_are_a_range_or_a_list_within_the_count(shards: str, count: int, ids: tuple[int, ...] | None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYSTONE_SHARDS", shards)
    monkeypatch.setenv("KEYSTONE_SHARD_COUNT", str(count))
    loaded = load_settings(None)
    assert loaded.sharded and loaded.keystone_shards == ids and loaded.keystone_shard_count == count


def test_without_a_shard_count_the_bot_is_not_sharded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYSTONE_SHARD_COUNT", " ")
    loaded = load_settings(None)
    assert not loaded.sharded and loaded.keystone_shards is None


SHARDS_SHOULD_BE = ("KEYSTONE_SHARDS should be the shards this process runs, as a range such as 0-3 or a list "
                    "such as 0,2,5, each below KEYSTONE_SHARD_COUNT")


@pytest.mark.parametrize(("shards", "count", "sentence"), [
    ("8", "8", f"{SHARDS_SHOULD_BE} (8 is not below 8)."),
    ("0-99999999999", "8", f"{SHARDS_SHOULD_BE} (99999999999 is not below 8)."),
    ("3-1", "8", f"{SHARDS_SHOULD_BE} (the range 3-1 runs backwards)."),
    ("one", "8", f"{SHARDS_SHOULD_BE} ('one' is neither a number nor a range)."),
    ("-1", "8", f"{SHARDS_SHOULD_BE} ('-1' is neither a number nor a range)."),
    ("0,,1", "8", f"{SHARDS_SHOULD_BE} ('an empty part' is neither a number nor a range)."),
    ("0-3", "", f"{SHARDS_SHOULD_BE} (KEYSTONE_SHARD_COUNT is not set)."),
    ("0", "0", "KEYSTONE_SHARD_COUNT should be how many shards the bot runs in all, a whole number from 1 up, "
               "the same in every process."),
    ("", "many", "KEYSTONE_SHARD_COUNT should be how many shards the bot runs in all, a whole number from 1 up, "
                 "the same in every process."),
])
def test_bad_shard_settings_are_one_sentence_naming_the_variable(shards: str, count: str, sentence: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYSTONE_SHARDS", shards)
    monkeypatch.setenv("KEYSTONE_SHARD_COUNT", count)
    with pytest.raises(ValidationError) as caught:
        load_settings(None)
    assert describe_error(caught.value) == sentence


def test_the_command_line_flags_override_the_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KEYSTONE_SHARDS", "0-7")
    monkeypatch.setenv("KEYSTONE_SHARD_COUNT", "8")
    seen: list[Settings] = []

    def run_bot(given: Settings, token: str) -> int:
        seen.append(given)
        return 0

    monkeypatch.setattr(bot_py, "run_bot", run_bot)
    monkeypatch.setattr(bot_py, "configure_logging", lambda *given, **named: None)
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    assert bot_py.main(["--shards", "4-5", "--shard-count", "6"], env_file=None) == 0
    assert [(s.keystone_shards, s.keystone_shard_count) for s in seen] == [((4, 5), 6)]
    assert bot_py.main(["--shards", "6"], env_file=None) == 0
    assert [(s.keystone_shards, s.keystone_shard_count) for s in seen][1:] == [((6,), 8)]
    assert bot_py.main(["--shard-count", "4"], env_file=None) == 2
    assert "(7 is not below 4). See .env.example." in capsys.readouterr().err


# ------------------------------------------------------------------ which shard owns a game


def test_a_server_belongs_to_discords_shard_and_a_direct_message_to_shard_0() -> None:
    assert [shard_of(g, 2) for g in (None, ON_0, ON_1)] == [0, 0, 1]
    assert shard_of(41771983423143937, 5) == 9959216934 % 5 == 4, "its timestamp (the id >> 22) picks the shard"
    assert shard_of(1184513463826616421, 7) == 6
    owner = Shards.of([1, 3], 4)
    assert [owner.owns(g) for g in (None, 1 << 22, 2 << 22, 3 << 22, 7 << 22)] == [False, True, False, True, True]
    assert Shards.of(None, 3).ids == {0, 1, 2}


async def test_the_stores_sql_finds_the_same_owner_as_the_rule(store_target: str) -> None:
    """On both databases: the SQL form of the rule is plain integer arithmetic on each."""
    async with await Store.open(store_target) as store:
        for channel, guild in enumerate(SNOWFLAKES, start=100):
            await robot_due(store, guild, channel)
        for count in (1, 2, 3, 8):
            for shard in range(count):
                found = {g.guild_id for g in await store.list_games("active", shards=Shards.of([shard], count))}
                assert found == {g for g in SNOWFLAKES if shard_of(g, count) == shard}, (shard, count)
        assert len(await store.list_games("active")) == len(SNOWFLAKES), "without shards, every game"


# ------------------------------------------------------------------ schedulers sharing one database


async def robot_due(store: Store, guild_id: int | None, channel_id: int) -> int:
    """A running game whose first turn is a bot's and was never played (as after a crash)."""
    seats = [SeatInfo.bot(1, "Robo"), SeatInfo.human(ANN.user_id, ANN.name)]
    state = new_game(GameConfig(players=2), 3, [s.name for s in seats])
    record = await store.create_game(guild_id=guild_id, channel_id=channel_id, kind="competitive",
                                     host_id=ANN.user_id, seats=seats, state=state)
    return record.id


async def timed_game(service: GameService, where: Where) -> None:
    """Ann and Bob's game at the default pace (the reminder half way through a day)."""
    assert (await service.new(where, ANN, players=2)).ok
    assert (await service.lobby(where, BOB, "join")).ok
    assert (await posted(service, await service.lobby(where, ANN, "start"))).ok


@pytest.fixture
async def database(store_target: str) -> AsyncIterator[tuple[str, Time]]:
    """A database (SQLite or PostgreSQL) with bot turns due on each shard of two and in a direct
    message, and a timed game on each shard (shard 0's an hour older, so its reminder comes first)."""
    time, path = Time(), store_target
    service = GameService(await Store.open(path, clock=time), seeds=lambda: 7, clock=time)
    for guild, channel in ((ON_0, 20), (ON_1, 21), (None, 22)):
        await robot_due(service.store, guild, channel)
    await timed_game(service, Where(channel_id=10, guild_id=ON_0))
    time.now += HOUR
    await timed_game(service, Where(channel_id=11, guild_id=ON_1))
    await service.store.close()
    yield path, time


async def test_schedulers_on_complementary_shards_serve_every_game_once(database: tuple[str, Time]) -> None:
    path, time = database
    outboxes = {0: Outbox(), 1: Outbox()}
    schedulers = {
        shard: Scheduler(GameService(await Store.open(path, clock=time), seeds=lambda: 7, clock=time),
                         outboxes[shard], shards=Shards.of([shard], 2))
        for shard in (0, 1)
    }
    try:
        for scheduler in schedulers.values():
            await scheduler.tick()
        assert sorted(outboxes[0].channels) == [20, 22], "shard 0 plays its server's and the direct message's"
        assert outboxes[1].channels == [21]
        assert [await s.wait() for s in schedulers.values()] == [30.0, 30.0]
        remind_0, remind_1 = T0 + 12 * HOUR, T0 + 13 * HOUR
        time.now = remind_1 - 10
        assert [await s.service.store.next_due(shards=s.shards) for s in schedulers.values()] == [remind_0, remind_1]
        time.now = remind_1
        for scheduler in [*schedulers.values(), *schedulers.values()]:
            await scheduler.tick()
        assert outboxes[0].channels[2:] == [10] and outboxes[1].channels[1:] == [11], "each reminder once"
        time.now = T0 + 26 * HOUR
        for scheduler in schedulers.values():
            await scheduler.tick()
        assert outboxes[0].channels[3:] == [10] and outboxes[1].channels[2:] == [11], "each turn run out once"
    finally:
        for scheduler in schedulers.values():
            await scheduler.service.store.close()


async def test_a_limit_never_starves_a_shard(database: tuple[str, Time]) -> None:
    path, time = database
    async with await Store.open(path, clock=time) as store:
        now = T0 + 13 * HOUR
        assert [d.clock.remind_at for d in await store.due_clocks(now, limit=1)] == [T0 + 12 * HOUR]
        [due] = await store.due_clocks(now, limit=1, shards=Shards.of([1], 2))
        assert (await store.get_game(due.game_id)).guild_id == ON_1, "shard 0's earlier reminder does not hide it"
