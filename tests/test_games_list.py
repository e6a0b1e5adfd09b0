"""`/keystone games` below Discord: the store's queries for open games and the service's list."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from keystone.app import Actor, GameService, Where
from keystone.app.bots import simple_action
from keystone.app.listing import EMPTY, MESSAGE_LIMIT, NO_SERVER
from keystone.engine import GameConfig
from keystone.store import SeatInfo, Store
from keystone.store.games import USERS_OPEN_GAMES
from keystone.store.migrate import migrations
from tests.store_helpers import play, query, start_game

ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")
TABLE, OTHER, LOBBY = Where(10, 1), Where(20, 1), Where(30, 1)
DM = Where(77)
ELSEWHERE = Where(40, 2)



# --------------------------------------------------------------------------- the store


async def test_open_games_for_user_lists_only_their_lobbies_and_running_games_latest_first(store: Store) -> None:
    running = await start_game(store, channel_id=100)
    lobby = await store.create_lobby(guild_id=None, channel_id=200, kind="competitive", host_id=1,
                                     host_name="Ada", config=GameConfig(players=2))
    others = await store.create_lobby(guild_id=9, channel_id=300, kind="competitive", host_id=5,
                                      host_name="Eve", config=GameConfig(players=2))
    abandoned = await start_game(store, channel_id=400)
    await store.abandon_game(abandoned.id)
    finished = await start_game(store, channel_id=500)
    await play(store, finished.id, 10_000, random.Random(3))
    assert (await store.get_game(finished.id)).status == "finished"
    assert [g.id for g in await store.open_games_for_user(1)] == [lobby.id, running.id]
    await play(store, running.id, 1, random.Random(1))
    assert [g.id for g in await store.open_games_for_user(1)] == [running.id, lobby.id], "latest activity first"
    assert [g.id for g in await store.open_games_for_user(5)] == [others.id]
    assert await store.open_games_for_user(42) == []


async def test_a_seat_handed_to_a_bot_leaves_the_list(store: Store) -> None:
    game = await start_game(store, channel_id=100, players=3)
    await store.replace_seat(game.id, 2, SeatInfo.bot(1, "Bot for Cyd"))
    assert await store.open_games_for_user(3) == []
    assert [g.id for g in await store.open_games_for_user(2)] == [game.id]


async def test_open_games_in_server_lists_that_servers_open_games_only(store: Store) -> None:
    first = await start_game(store, channel_id=100)
    lobby = await store.create_lobby(guild_id=9, channel_id=200, kind="competitive", host_id=5,
                                     host_name="Eve", config=GameConfig(players=2))
    await store.create_lobby(guild_id=8, channel_id=300, kind="competitive", host_id=1,
                             host_name="Ada", config=GameConfig(players=2))
    await store.create_lobby(guild_id=None, channel_id=400, kind="competitive", host_id=1,
                             host_name="Ada", config=GameConfig(players=2))
    gone = await start_game(store, channel_id=500)
    await store.abandon_game(gone.id)
    assert [g.id for g in await store.open_games_in_server(9)] == [lobby.id, first.id]


def test_the_users_query_starts_from_their_seats(tmp_path: Path) -> None:
    """The list must not read every open game: SQLite's plan starts from `seats_by_user`."""
    db = sqlite3.connect(tmp_path / "plan.db")
    for migration in migrations():
        for statement in migration.statements():
            db.execute(statement)
    sql = f"SELECT g.id {USERS_OPEN_GAMES}"
    plan = [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, (1,))]
    db.close()
    assert plan[0].startswith("SEARCH m USING COVERING INDEX seats_by_user"), plan


# --------------------------------------------------------------------------- the service


async def tables(store: Store) -> GameService:
    """Ann hosts a game at TABLE (her turn), Bob hosts one at OTHER (his turn), Ann opens a lobby for
    three at LOBBY and plays solo in a direct message; a game in another server has only Cid."""
    service = GameService(store, seeds=lambda: 7)
    for where, host, guest in ((TABLE, ANN, BOB), (OTHER, BOB, ANN)):
        assert (await service.new(where, host)).ok
        assert (await service.lobby(where, guest, "join")).ok
        assert (await service.lobby(where, host, "start")).ok
    assert (await service.new(LOBBY, ANN, players=3)).ok
    assert (await service.new(DM, ANN)).ok
    assert (await service.new(ELSEWHERE, CID)).ok
    return service


def lines_of(text: str | None) -> list[str]:
    assert text is not None
    return text.splitlines()[1:]


async def test_my_turns_come_first_marked_then_the_rest_latest_first(store: Store) -> None:
    service = await tables(store)
    reply = await service.games(TABLE, ANN)
    assert reply.public is None and reply.private is not None
    assert reply.private.startswith("**Your games** (4; your turn in 2):")
    lines = lines_of(reply.private)
    assert [line.split(" · ")[0] for line in lines] == ["\u27a4 direct message", "\u27a4 <#10>", "\u2022 <#30>",
                                                         "\u2022 <#20>"]
    assert lines[0] == "\u27a4 direct message · Ann · **your turn** · round 1 · [jump](https://discord.com/channels/@me/77)"
    assert lines[1] == ("\u27a4 <#10> · Ann, Bob · **your turn** · round 1 · 24 hours left · "
                        "[jump](https://discord.com/channels/1/10)")
    assert lines[2] == "\u2022 <#30> · Ann · lobby, waiting for 2 more · [jump](https://discord.com/channels/1/30)"
    assert lines[3] == ("\u2022 <#20> · Bob, Ann · Bob to play · round 1 · 24 hours left · "
                        "[jump](https://discord.com/channels/1/20)")


async def test_the_round_and_whose_turn_follow_the_play(store: Store) -> None:
    service = await tables(store)
    for actor in (ANN, BOB):
        found = await service.state_here(TABLE)
        assert found is not None
        turn = found[1].turn
        while found is not None and found[1].turn == turn:
            assert (await service.act(TABLE, actor, str(simple_action(found[1])))).ok
            found = await service.state_here(TABLE)
        line = next(line for line in lines_of((await service.games(TABLE, ANN)).private) if "<#10>" in line)
        assert ("Ann, Bob · Bob to play · round 1" if actor is ANN else "Ann, Bob · **your turn** · round 2") in line


async def test_a_full_lobby_waits_for_its_host(store: Store) -> None:
    service = await tables(store)
    await service.lobby(LOBBY, BOB, "join")
    await service.lobby(LOBBY, CID, "join")
    line = next(line for line in lines_of((await service.games(LOBBY, CID)).private) if "<#30>" in line)
    assert "Ann, Bob, Cid · lobby, full: waiting for the host to start" in line


async def test_someone_in_no_game_is_pointed_to_new(store: Store) -> None:
    service = await tables(store)
    reply = await service.games(TABLE, Actor(9, "Dee"))
    assert reply.private == EMPTY["mine"] and "`/keystone new`" in reply.private


async def test_server_scope_lists_this_servers_games_and_is_refused_in_a_dm(store: Store) -> None:
    service = await tables(store)
    reply = await service.games(TABLE, CID, "server")
    assert reply.private is not None and reply.private.startswith("**Games in this server** (3):")
    assert [line.split(" · ")[0] for line in lines_of(reply.private)] == ["\u2022 <#30>", "\u2022 <#20>",
                                                                          "\u2022 <#10>"]
    mine_first = lines_of((await service.games(TABLE, BOB, "server")).private)
    assert mine_first[0].startswith("\u27a4 <#20>"), "my turn first in the server list too"
    refused = await service.games(DM, ANN, "server")
    assert refused.public is None and refused.private == NO_SERVER
    empty = await service.games(Where(50, 3), ANN, "server")
    assert empty.private == EMPTY["server"]


async def test_a_long_list_is_cut_to_one_message_and_says_how_many_more(store: Store) -> None:
    service = GameService(store)
    for channel in range(100, 160):
        assert (await service.new(Where(channel, 1), Actor(1, "A" * 100), players=4)).ok
    text = (await service.games(Where(100, 1), ANN)).private
    assert text is not None and len(text) <= MESSAGE_LIMIT
    shown = len(lines_of(text)) - 1
    assert text.endswith(f"\n...and {60 - shown} more games not shown.") and 0 < shown < 60


async def test_one_unreadable_game_does_not_hide_the_others(store: Store) -> None:
    await tables(store)
    await query(store, "UPDATE games SET snapshot = '{}' WHERE channel_id = 10")
    lines = lines_of((await GameService(store).games(TABLE, ANN)).private)
    assert len(lines) == 4
    assert "Ann, Bob · running (its turn could not be read)" in next(line for line in lines if "<#10>" in line)


async def test_a_long_server_list_reads_enough_states_for_every_line_it_shows(store: Store) -> None:
    for channel in range(100, 160):
        await start_game(store, channel_id=channel)
    text = (await GameService(store).games(Where(5, 9), Actor(7, "Gus"), "server")).private
    assert text is not None and text.startswith("**Games in this server** (60):")
    shown = lines_of(text)[:-1]
    assert len(shown) > 10 and all("· Ada to play · round 1 ·" in line for line in shown), shown
    assert text.endswith(f"...and {60 - len(shown)} more games not shown.")
