"""The daily challenge through the service: one seeded solo game per UTC day, played in a direct
message, one attempt each, and a server's board of the day that nobody sees before finishing."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Reply, Where
from keystone.app.bots import simple_action
from keystone.app.daily import NOT_LISTED, board_text, day_of, seed_for
from keystone.engine import GameState, dump_state
from keystone.store import DailyBoard, DailyGame, Store

NOON = datetime(2026, 12, 1, 12, tzinfo=UTC).timestamp()
DAY = 24 * 3600.0
SERVER, OTHER_SERVER = Where(channel_id=10, guild_id=1), Where(channel_id=20, guild_id=2)
ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")
DM = {ANN.user_id: Where(101), BOB.user_id: Where(102), CID.user_id: Where(103)}


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "daily.db") as opened:
        yield opened


def service_on(store: Store, clock: Callable[[], float]) -> GameService:
    return GameService(store, seeds=lambda: 1, clock=clock)


async def from_server(service: GameService, actor: Actor, where: Where = SERVER) -> Reply:
    return await service.daily(where, actor, DM[actor.user_id].channel_id)


async def running(service: GameService, actor: Actor) -> GameState:
    found = await service.state_here(DM[actor.user_id])
    assert found is not None, "a daily game runs in the direct message"
    return found[1]


async def play_to_end(service: GameService, actor: Actor) -> list[Reply]:
    """Play the direct message's game to its end with plain legal moves; every reply on the way."""
    replies: list[Reply] = []
    for _ in range(500):
        found = await service.state_here(DM[actor.user_id])
        if found is None:
            return replies
        reply = await service.act(DM[actor.user_id], actor, str(simple_action(found[1])))
        assert reply.ok, reply.private
        replies.append(reply)
    raise AssertionError("the daily game did not end")


def texts(reply: Reply) -> list[str]:
    """Every word a reply shows, alt texts included."""
    out = [reply.public or "", reply.private or ""]
    out += [words for _, _, words in [*reply.files, *reply.private_files]]
    out += [c.label for c in [*reply.controls, *reply.private_controls]]
    out += [o.label for c in [*reply.controls, *reply.private_controls] for o in c.options]
    return out + [t for more in reply.more for t in texts(more)]


def setup_of(state: GameState) -> str:
    """The whole starting state but the player's name: what must be the same for everyone."""
    return dump_state(state).replace(state.seats[0].name, "PLAYER")


async def test_the_game_is_the_same_for_everyone_on_a_day_and_differs_across_days(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    assert (await from_server(service, ANN)).public
    assert (await service.daily(DM[BOB.user_id], BOB)).public
    ann, bob = await running(service, ANN), await running(service, BOB)
    assert setup_of(ann) == setup_of(bob) and ann.seed == bob.seed
    assert ann.config.players == 1 and ann.config.rules == "second-edition" and not ann.config.expansions
    clock.now += DAY
    assert (await service.daily(DM[CID.user_id], CID)).public
    tomorrow = await running(service, CID)
    assert tomorrow.seed != ann.seed and setup_of(tomorrow) != setup_of(ann)


async def test_the_seed_comes_from_the_secret_not_from_the_date(store: Store, tmp_path: Path) -> None:
    secret = await store.daily_secret()
    assert seed_for(secret, "2026-12-01") == seed_for(secret, "2026-12-01")
    seeds = {seed_for(secret, f"2026-12-{d:02}") for d in range(1, 32)}
    assert len(seeds) == 31, "a different game every day"
    assert seed_for(bytes(32), "2026-12-01") != seed_for(secret, "2026-12-01"), "the date alone does not fix it"
    async with await Store.open(tmp_path / "elsewhere.db") as other:
        here, there = service_on(store, Clock()), service_on(other, Clock())
        await here.daily(DM[ANN.user_id], ANN)
        await there.daily(DM[ANN.user_id], ANN)
        assert (await running(here, ANN)).seed != (await running(there, ANN)).seed
        await there.abandon(DM[ANN.user_id], ANN)


async def test_the_day_changes_at_midnight_utc(store: Store) -> None:
    midnight = datetime(2026, 12, 2, tzinfo=UTC).timestamp()
    assert day_of(midnight - 1) == "2026-12-01" and day_of(midnight) == "2026-12-02"
    clock = Clock(midnight - 1)
    service = service_on(store, clock)
    await service.daily(DM[ANN.user_id], ANN)
    await play_to_end(service, ANN)
    assert "already played the daily challenge of 2026-12-01" in ((await service.daily(DM[ANN.user_id], ANN)).private
                                                                  or "")
    clock.now = midnight
    assert "2026-12-02" in ((await service.daily(DM[ANN.user_id], ANN)).public or "")


async def test_from_a_server_it_begins_in_the_dm_resumes_then_tells_the_score(store: Store) -> None:
    service = service_on(store, Clock())
    begun = await from_server(service, ANN)
    assert begun.private == ("Your daily challenge of 2026-12-01 has begun in our direct messages: "
                             "https://discord.com/channels/@me/101")
    assert "**Daily challenge of 2026-12-01**" in (begun.public or "") and "to play" in (begun.public or "")
    assert {name for name, _, _ in begun.files} >= {"field.png"} and len(begun.files) == 2, "Field and objective"
    assert begun.controls and await store.plays_daily_for(1, ANN.user_id)
    await service.act(DM[ANN.user_id], ANN, str(simple_action(await running(service, ANN))))
    again = await from_server(service, ANN)
    assert "still running in our direct messages" in (again.private or "")
    assert "goes on from here" in (again.public or "") and len(again.files) == 2 and again.controls
    in_dm = await service.daily(DM[ANN.user_id], ANN)
    assert in_dm.private is None and "goes on from here" in (in_dm.public or "")
    final = (await play_to_end(service, ANN))[-1]
    last = final.more[-1] if final.more else final
    assert "Final score: Ann" in (last.public or "") and "result for the daily challenge" in (last.public or "")
    mine = await store.daily_game("2026-12-01", ANN.user_id)
    assert mine is not None and mine.score is not None
    done = await from_server(service, ANN)
    assert done.public is None and f"you scored {mine.score} points" in (done.private or "")
    assert (await service.daily(DM[ANN.user_id], ANN)).public is None, "one attempt a day"


async def test_another_game_in_the_dm_makes_the_daily_wait_naming_it(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    assert (await service.new(DM[ANN.user_id], ANN)).ok
    refused = await from_server(service, ANN)
    assert refused.public is None
    assert refused.private == ("A game is running in our direct messages; finish it (or end it with "
                               "`/keystone abandon` there), then ask for the daily challenge again.")
    assert await store.daily_game("2026-12-01", ANN.user_id) is None, "the attempt is not spent"
    await service.abandon(DM[ANN.user_id], ANN)
    assert (await from_server(service, ANN)).public
    clock.now += DAY
    late = await service.daily(DM[ANN.user_id], ANN)
    assert late.private is not None and "Your daily challenge of 2026-12-01 is still running" in late.private
    assert "today's (2026-12-02) can begin" in late.private


async def test_nobody_sees_the_board_before_finishing_their_own(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    await from_server(service, ANN)
    await from_server(service, BOB)
    await from_server(service, CID, OTHER_SERVER)
    for actor in (ANN, BOB, CID):
        refused = await service.daily_board(SERVER, actor)
        assert refused.public is None and "first" in (refused.private or "")
    await play_to_end(service, ANN)
    board = await service.daily_board(SERVER, ANN)
    score = (await store.daily_game("2026-12-01", ANN.user_id)).score  # type: ignore[union-attr]
    assert board.public is None and f"1. **Ann**: {score} points" in (board.private or "")
    assert "1 player is still playing." in (board.private or "") and "Cid" not in (board.private or "")
    bob_sees = await service.daily_board(SERVER, BOB)
    assert bob_sees.private == "Finish your daily challenge of 2026-12-01 first; then the board of the day is yours to see."
    dave = Actor(4, "Dave")
    assert "No spoilers" in ((await service.daily_board(SERVER, dave)).private or "")
    clock.now += DAY
    yesterday = await service.daily_board(SERVER, dave, "yesterday")
    assert "**Daily challenge of 2026-12-01**" in (yesterday.private or "") and NOT_LISTED in (yesterday.private or "")
    assert f"1. Ann: {score} points" in (yesterday.private or ""), "a past day is shown to anyone done with it"
    assert "Finish your daily challenge of 2026-12-01" in ((await service.daily_board(SERVER, BOB, "yesterday")).private
                                                          or "")
    assert "belongs to a server" in ((await service.daily_board(DM[ANN.user_id], ANN)).private or "")


async def test_an_abandoned_daily_spends_the_attempt_and_opens_the_board(store: Store) -> None:
    service = service_on(store, Clock())
    await from_server(service, BOB)
    assert (await service.abandon(DM[BOB.user_id], BOB)).public
    assert "it was abandoned" in ((await from_server(service, BOB)).private or "")
    board = await service.daily_board(SERVER, BOB)
    assert "Nobody here has finished" in (board.private or "")


async def test_the_secret_and_seed_never_appear_in_any_message(store: Store) -> None:
    service = service_on(store, Clock())
    replies = [await from_server(service, ANN), await service.daily(DM[ANN.user_id], ANN)]
    replies += await play_to_end(service, ANN)
    replies += [await from_server(service, ANN), await service.daily_board(SERVER, ANN),
                await service.game_log(DM[ANN.user_id], ANN)]
    secret = await store.daily_secret()
    seed = seed_for(secret, "2026-12-01")
    forms = {secret.hex(), secret.hex().upper(), base64.b64encode(secret).decode(), repr(secret)[2:-1], str(seed)}
    shown = "\n".join(t for reply in replies for t in texts(reply))
    assert shown and not [form for form in forms if form in shown]


async def test_a_player_from_a_dm_joins_a_servers_board_by_asking_there(store: Store) -> None:
    service = service_on(store, Clock())
    await service.daily(DM[ANN.user_id], ANN)
    await play_to_end(service, ANN)
    before = await service.daily_board(SERVER, ANN)
    assert "Nobody here has finished" in (before.private or "") and NOT_LISTED in (before.private or "")
    assert "already played" in ((await from_server(service, ANN)).private or "")
    after = await service.daily_board(SERVER, ANN)
    assert "1. **Ann**" in (after.private or "") and NOT_LISTED not in (after.private or "")


def test_the_board_shares_places_on_equal_scores_and_lists_resignations_last() -> None:
    def game(user: int, score: int, resigned: bool = False) -> DailyGame:
        return DailyGame("2026-12-01", user, user, 100 + user, "finished", score, resigned, 1.0, f"P{user}")

    board = DailyBoard("2026-12-01", (game(1, 60), game(2, 60), game(3, 41), game(4, 1), game(5, 70, True)), 2)
    assert board_text(board, 3).splitlines() == [
        "**Daily challenge of 2026-12-01**: this server's board",
        "1. P1: 60 points", "1. P2: 60 points", "3. **P3**: 41 points", "4. P4: 1 point",
        "- P5: resigned (70 points)", "2 players are still playing."]


async def test_another_players_stats_leave_out_a_daily_the_asker_may_still_play(store: Store) -> None:
    clock = Clock()
    service = service_on(store, clock)
    await from_server(service, ANN)
    await play_to_end(service, ANN)
    ann_mine = (await service.stats(SERVER, ANN)).private or ""
    assert "Solo" in ann_mine, "one's own record always counts today's daily"
    before = (await service.stats(SERVER, BOB, ANN.user_id, "Ann")).private or ""
    assert "Solo" not in before, "Bob has not played today's daily, so Ann's score of it stays hidden"
    await from_server(service, BOB)
    await play_to_end(service, BOB)
    after = (await service.stats(SERVER, BOB, ANN.user_id, "Ann")).private or ""
    assert "Solo" in after
    clock.now += DAY
    assert "Solo" in ((await service.stats(SERVER, CID, ANN.user_id, "Ann")).private or ""), \
        "yesterday's daily is no spoiler for someone who never began it"
