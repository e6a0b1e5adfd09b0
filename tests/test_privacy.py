"""Forgetting a person or a server, on SQLite and PostgreSQL: afterwards no row of any table holds
their id or name, results and others' ratings stay as they were, a running game plays on with a bot
in the forgotten seat, and a server the bot left is forgotten 30 days later unless it comes back."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator

import pytest

from keystone.app import Actor, GameService, Reply, Where, ids, markdown
from keystone.app.clock import DAY
from keystone.app.privacy import CONFIRM_TIME
from keystone.app.scheduler import Scheduler
from keystone.engine import GameConfig, new_game
from keystone.store import Outgoing, SeatInfo, Store
from keystone.store.backend import IntegrityViolation
from tests.clock_helpers import T0, Time, game_here, posted, whole_turn
from tests.store_helpers import play, query

GUILD = 880_412_555_120_496_641
OTHER_GUILD = 912_004_377_651_200_013
HERE = Where(channel_id=880_412_555_990_331_402, guild_id=GUILD)
LOBBY = Where(channel_id=880_412_556_104_877_066, guild_id=GUILD)
ELSEWHERE = Where(channel_id=912_004_377_700_118_529, guild_id=OTHER_GUILD)
DM = Where(channel_id=402_117_600_118_338_560)
ZOE = Actor(402_117_593_775_300_621, "Zoë 🦊 *Ёлка* 山田", locale="de")
LUK = Actor(318_556_402_991_043_585, "Łukasz Ńowak")
MAR = Actor(511_390_227_846_154_242, "Мария 李 🌲", can_manage_server=True)


@pytest.fixture
def time() -> Time:
    return Time()


@pytest.fixture
async def service(store_target: str, time: Time) -> AsyncIterator[GameService]:
    made = GameService(await Store.open(store_target, clock=time), seeds=lambda: 11, clock=time)
    yield made
    await made.store.close()


async def tables(store: Store) -> list[str]:
    if store.database.dialect.name == "sqlite":
        rows = await query(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    else:
        rows = await query(store, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return sorted(str(r[0]) for r in rows)


async def holding(store: Store, *needles: str) -> list[str]:
    """Every (table, value) in the whole database whose text holds one of `needles`."""
    found = []
    for table in await tables(store):
        for row in await query(store, f"SELECT * FROM {table}"):
            for value in row:
                text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
                found += [f"{table}: {text[:80]}" for n in needles if n in text]
    return found


def spellings(actor: Actor) -> tuple[str, ...]:
    """The person's id and name as any row could hold them: as typed, escaped for Markdown, in JSON."""
    name = actor.name
    return (str(actor.user_id), name, markdown.plain(name), json.dumps(name)[1:-1], "Ёлка", "Zoë")


async def finished_game(store: Store, channel_id: int, *people: Actor) -> int:
    """A rated game between these people, played to its end with random moves."""
    seats = [SeatInfo.human(p.user_id, p.name) for p in people]
    state = new_game(GameConfig(players=len(seats)), 5, [s.name for s in seats])
    record = await store.create_game(guild_id=GUILD, channel_id=channel_id, kind="competitive",
                                     host_id=people[0].user_id, seats=seats, state=state)
    final = await play(store, record.id, 500, random.Random(3))
    assert final.phase == "over"
    return record.id


async def start_here(service: GameService, where: Where, host: Actor, *others: Actor) -> int:
    assert (await service.new(where, host, players=1 + len(others))).ok
    for actor in others:
        assert (await service.lobby(where, actor, "join")).ok
    assert (await posted(service, await service.lobby(where, host, "start"))).ok
    return (await game_here(service, where)).id


async def confirm(service: GameService, asked: Reply) -> tuple[int, int, int]:
    """The (asker, target, time) a confirmation button carries."""
    [control] = asked.private_controls
    match = ids.FORGET.fullmatch(control.custom_id)
    assert match is not None and control.style == "danger"
    return int(match["asker"]), int(match["target"]), int(match["asked"])


async def ratings(store: Store, but: int) -> list[tuple[object, ...]]:
    return await query(store, "SELECT player, mu, sigma, games FROM ratings WHERE player <> ? ORDER BY player",
                       (f"user:{but}",))


async def test_forget_me_leaves_no_trace_keeps_results_and_hands_running_games_to_a_bot(
    service: GameService, time: Time
) -> None:
    store = service.store
    await finished_game(store, 880_412_557_000_000_001, ZOE, LUK)
    await finished_game(store, 880_412_557_000_000_002, LUK, MAR)
    running = await start_here(service, HERE, ZOE, LUK, MAR)
    resigned = await start_here(service, ELSEWHERE, LUK, ZOE, MAR)
    assert (await service.resign(ELSEWHERE, ZOE)).ok, "a bot named after her plays on there"
    assert (await service.new(LOBBY, ZOE, players=3)).ok and (await service.lobby(LOBBY, MAR, "join")).ok
    await service.notify(ZOE, True)
    assert "Deutsch" in ((await service.set_language(DM, ZOE, "de", "me")).private or "")
    assert (await service.daily(HERE, ZOE, dm_channel_id=DM.channel_id)).ok
    await store.post([Outgoing("ksprivacy0dm", json.dumps({"text": "hi"}), user_id=ZOE.user_id)])
    time.now += 3.217
    others = await ratings(store, ZOE.user_id)
    results = await query(store, "SELECT count(*), sum(score) FROM results")
    changes = await query(store, "SELECT count(*) FROM rating_changes")
    assert len(others) == 2 and await holding(store, *spellings(ZOE))

    before = await store.get_game(running)
    playing = await service.state_here(HERE)
    assert playing is not None and before.seats[playing[1].current].user_id == ZOE.user_id, "her turn"
    asked = await service.ask_forget_me(ZOE)
    assert asked.private is not None and "Forschungstagebuch" in asked.private, "in her own language"
    asker, _, at = await confirm(service, asked)
    refused = await service.forget_me(LUK, asker, at)
    assert refused.private is not None and "someone else" in refused.private and refused.public is None
    assert await store.notify(ZOE.user_id), "someone else's press changed nothing"
    time.now += CONFIRM_TIME + 1
    assert "abgelaufen" in ((await service.forget_me(ZOE, asker, at)).private or "")
    assert await store.notify(ZOE.user_id), "a stale press changed nothing"
    asker, _, at = await confirm(service, await service.ask_forget_me(ZOE))
    done = await service.forget_me(ZOE, asker, at)
    assert done.private is not None and "vergessen" in done.private

    assert await holding(store, *spellings(ZOE)) == []
    assert await ratings(store, ZOE.user_id) == others, "nobody else's rating moved"
    assert await query(store, "SELECT count(*), sum(score) FROM results") == results
    assert await query(store, "SELECT count(*) FROM rating_changes") == changes
    for game_id in (running, resigned):
        verified = await store.verify_game(game_id)  # its whole log replays to the renamed snapshot
        assert [s.name for s in verified.state.seats].count("a former player") == 1
    assert {g.id for g in await store.list_games("active")} == {running, resigned}, "her daily game ended"
    record = await store.get_game(running)
    [bot] = [s for s in record.seats if s.is_bot]
    assert record.status == "active" and bot.name == "Bot for a former player"
    assert record.version > before.version and record.host_id == LUK.user_id, "her turn was due: the bot played it"
    owed = await query(store, "SELECT body FROM outbox WHERE channel_id = ? AND sent_at IS NULL", (HERE.channel_id,))
    assert any("forget them" in str(b) for (b,) in owed), "the channel is told, through the outbox"
    lobby = await store.get_active_game(LOBBY.channel_id)
    assert lobby is not None
    assert [s.user_id for s in lobby.seats] == [MAR.user_id] and lobby.host_id == MAR.user_id
    game = await service.state_here(HERE)
    assert game is not None
    deciding = game[0].seats[game[1].current]
    assert not deciding.is_bot, "the bot played its turn if it was due; a person decides now"
    actor = next(a for a in (LUK, MAR) if a.user_id == deciding.user_id)
    assert (await whole_turn(service, HERE, actor)).ok, "the game plays on"
    again = await service.forget_me(ZOE, asker, at)
    assert again.private == done.private and await holding(store, *spellings(ZOE)) == []
    with pytest.raises(IntegrityViolation, match="append-only"):  # only the digests may be rewritten
        await query(store, "UPDATE actions SET notation = 'take 1 A1' WHERE game_id = ?", (running,))


async def test_a_person_whose_only_game_they_resigned_from_is_forgotten_there_too(service: GameService) -> None:
    game = await start_here(service, ELSEWHERE, MAR, LUK, ZOE)
    assert (await service.resign(ELSEWHERE, LUK)).ok
    needles = (str(LUK.user_id), LUK.name, "Łukasz")
    assert await holding(service.store, *needles)
    asker, _, at = await confirm(service, await service.ask_forget_me(LUK))
    assert (await service.forget_me(LUK, asker, at)).private is not None
    assert await holding(service.store, *needles) == []
    assert [s.name for s in (await service.store.verify_game(game)).record.seats][1] == "Bot for a former player"


async def test_forget_server_ends_its_games_and_keeps_results_without_its_ids(
    service: GameService, time: Time
) -> None:
    store = service.store
    await finished_game(store, HERE.channel_id, LUK, MAR)
    await start_here(service, HERE, LUK, MAR)
    assert "Deutsch" in ((await service.set_language(HERE, MAR, "de", "server")).private or "")
    assert (await service.daily(HERE, LUK, dm_channel_id=DM.channel_id)).ok
    outside = await start_here(service, ELSEWHERE, LUK, MAR)
    results = await query(store, "SELECT count(*), sum(score) FROM results")
    before = await ratings(store, 0)

    assert (await service.ask_forget_server(HERE, LUK)).private_controls == [], "not a server manager"
    assert (await service.ask_forget_server(DM, MAR)).private_controls == []
    asker, target, at = await confirm(service, await service.ask_forget_server(HERE, MAR))
    assert target == GUILD
    assert (await service.forget_server(HERE, LUK, asker, target, at)).private_controls == []
    assert (await service.forget_server(ELSEWHERE, MAR, asker, target, at)).private is not None
    assert await holding(store, str(GUILD)), "refused presses changed nothing"
    done = await service.forget_server(HERE, MAR, asker, target, at)
    assert done.private is not None and "1" in done.private

    assert await holding(store, str(GUILD), str(HERE.channel_id)) == []
    assert await query(store, "SELECT count(*), sum(score) FROM results") == results
    assert await ratings(store, 0) == before
    assert await store.get_active_game(HERE.channel_id) is None
    assert (await store.get_game(outside)).status == "active", "another server's game runs on"
    assert (await store.chosen_languages(MAR.user_id, GUILD))[1] is None


class Courier:
    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None: ...

    async def to_user(self, user_id: int, text: str, nonce: str) -> None: ...

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        return False


async def test_a_server_left_is_forgotten_by_the_scheduler_30_days_later_unless_the_bot_comes_back(
    service: GameService, time: Time
) -> None:
    store = service.store
    scheduler = Scheduler(service, Courier())
    await start_here(service, HERE, LUK, MAR)
    await start_here(service, ELSEWHERE, LUK, MAR)
    assert await service.servers_present({OTHER_GUILD}) == 1, "removed from GUILD while offline"
    await service.server_left(OTHER_GUILD)
    time.now = T0 + 10 * DAY
    await service.server_back(OTHER_GUILD)
    await service.server_left(GUILD)  # told twice: the first removal counts
    time.now = T0 + 30 * DAY - 1.5
    await scheduler.tick()
    assert await holding(store, str(GUILD)), "not yet"
    time.now = T0 + 30 * DAY + 0.25
    await scheduler.tick()
    assert await holding(store, str(GUILD)) == []
    time.now = T0 + 90 * DAY
    await scheduler.tick()
    assert await holding(store, str(OTHER_GUILD)), "back in that server: nothing of it is forgotten"
