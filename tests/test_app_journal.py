"""The Field Journal, co-op, bot levels and resign-to-bot in the game service (no Discord)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keystone.app import Actor, GameService, Where
from keystone.app.journal import ENVELOPE_NEWS, RECOMMENDED_MARK, page_lines, unlock_lines
from keystone.engine import GameState, campaign
from keystone.engine.coop import acting_player
from keystone.store import Store
from tests.journal_helpers import WINNING_SEED, take_greedy

DM = Where(channel_id=500)
HERE = Where(channel_id=10, guild_id=1)
ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")


Make = Callable[..., Awaitable[GameService]]


@pytest.fixture
async def service_for() -> AsyncIterator[Make]:
    """Services on in-memory stores, each with a fixed seed; every store is closed afterwards."""
    opened: list[Store] = []

    async def make(seed: int = WINNING_SEED) -> GameService:
        opened.append(await Store.open(":memory:"))
        return GameService(opened[-1], seeds=lambda: seed)

    yield make
    for store in opened:
        await store.close()


async def state_at(service: GameService, where: Where) -> GameState:
    found = await service.state_here(where)
    assert found is not None
    return found[1]


async def play_out(service: GameService, where: Where, number: int, people: dict[int, Actor]) -> str:
    """Play the game here with the greedy taker, each move by whoever decides; the last public text."""
    cache: dict[object, float] = {}
    last = ""
    for _ in range(200):
        found = await service.state_here(where)
        if found is None:
            return last
        record, state = found
        seat = record.seats[acting_player(state)]
        assert seat.user_id is not None
        reply = await service.act(where, people[seat.user_id], str(take_greedy(number, state, cache)))
        assert reply.ok, reply.private
        last = [reply, *reply.more][-1].public or ""
    raise AssertionError("the assignment did not end")


async def test_first_assignment_won_records_stars_and_recommends_the_second(service_for: Make) -> None:
    service = await service_for()
    started = await service.journal_start(DM, ANN)
    assert started.ok and "Assignment 1: First Light" in (started.public or "")
    status = await service.journal_status(DM, ANN)
    assert "in progress" in (status.private or "")
    verdict = await play_out(service, DM, 1, {ANN.user_id: ANN})
    second = campaign.assignment(2).title
    assert "complete with" in verdict and f"Next recommended: assignment 2, {second}" in verdict
    assert "unlocked" not in verdict
    progress = await service.store.campaign_progress(ANN.user_id)
    assert progress.completed == [1] and progress.assignments[1].stars >= 1
    assert (await service.journal_start(DM, ANN)).public is not None
    assert "Assignment 2" in ((await service.journal_status(DM, ANN)).private or "")


async def test_any_assignment_may_be_started_and_no_number_starts_the_recommended(service_for: Make) -> None:
    service = await service_for()
    skipped = await service.journal_start(DM, ANN, 7)
    assert skipped.ok and "Assignment 7:" in (skipped.public or ""), "nothing is locked"
    await service.journal_abandon(DM, ANN)
    for won in (1, 2, 4):
        await service.store.record_assignment_result(ANN.user_id, won, 1, 60)
    recommended = await service.journal_start(DM, ANN)
    assert recommended.ok and "Assignment 3:" in (recommended.public or "")


async def test_losing_keeps_the_assignment_open_and_records_the_attempt(service_for: Make) -> None:
    service = await service_for(seed=3)  # the greedy taker falls short with this seed
    await service.journal_start(DM, ANN, 1)
    verdict = await play_out(service, DM, 1, {ANN.user_id: ANN})
    assert "not complete" in verdict and "Try again with `/journal start number:1`" in verdict
    progress = await service.store.campaign_progress(ANN.user_id)
    assert progress.completed == [] and progress.assignments[1].attempts == 1


async def test_the_page_and_journal_status_name_exactly_the_cards_with_a_radio_collar(service_for: Make) -> None:
    service = await service_for()
    exactly = ("The cards with a radio collar are exactly these: Woodland Caribou, Alaskan Moose, Arctic Wolf, "
               "Northwestern Gray Wolf, Grizzly Bear, Polar Bear, Wolverine, Canada Lynx, Musk Ox, Dall Sheep and "
               "Mountain Goat.")
    page = (await service.journal_start(DM, ANN, 9)).public or ""
    status = (await service.journal_status(DM, ANN)).private or ""
    assert exactly in page and exactly in status
    assert "species with a radio collar" in status and "Red Wolf" not in page + status
    assert "wolves" not in page and "bears" not in page


async def test_journal_status_and_abandon_need_an_assignment_here(service_for: Make) -> None:
    service = await service_for()
    assert "no game" in ((await service.journal_status(DM, ANN)).private or "")
    await service.new(DM, ANN)
    assert "not a Field Journal" in ((await service.journal_abandon(DM, ANN)).private or "")
    await service.abandon(DM, ANN)
    await service.journal_start(DM, ANN, 1)
    assert "abandoned" in ((await service.journal_abandon(DM, ANN)).public or "")
    assert (await service.store.campaign_progress(ANN.user_id)).assignments == {}


async def test_journal_list_offers_every_assignment_with_stars_and_marks_the_recommended(service_for: Make) -> None:
    service = await service_for()
    await service.store.record_assignment_result(ANN.user_id, 1, 2, 70)
    await service.store.record_assignment_result(ANN.user_id, 3, 0, 40)
    text = (await service.journal_list(ANN)).private or ""
    lines = text.splitlines()
    assert lines[1].startswith(f"Recommended next: assignment 2, {campaign.assignment(2).title}")
    rows = {int(line[1:3]): line for line in lines if line.startswith("`")}
    assert sorted(rows) == list(range(1, 21)), "every assignment is offered"
    assert rows[1].endswith("\u2605\u2605\u2606 best 70")
    assert rows[2].endswith(f"\u2606\u2606\u2606 {RECOMMENDED_MARK}")
    assert rows[3].endswith("\u2606\u2606\u2606, 1 attempt") and rows[20].endswith("\u2606\u2606\u2606")
    assert [n for n, line in rows.items() if RECOMMENDED_MARK in line] == [2]
    assert "locked" not in text and "stays sealed" in text and len(text) <= 2000


@given(st.sets(st.integers(1, 20)), st.integers(1, 20))
def test_win_news_names_the_recommended_next_assignment(before: set[int], number: int) -> None:
    news = " ".join(unlock_lines(number, True, before))
    after = before | {number}
    if len(after) == 20:
        assert news == "You have won all 20 assignments of the Field Journal."
    else:
        following = campaign.recommended(after)
        assert news == (f"Next recommended: assignment {following}, {campaign.assignment(following).title} "
                        "(`/journal start`).")


def test_every_page_fits_one_message() -> None:
    for a in campaign.assignments():
        page = "\n".join(page_lines(a.number, coop=True))
        assert a.title in page and len(page) < 1500


async def test_envelope_opens_when_the_last_assignment_starts_and_stays_open(tmp_path: Path) -> None:
    path = tmp_path / "ks.db"
    async with await Store.open(path) as store:
        service = GameService(store, seeds=lambda: WINNING_SEED)
        refused = await service.new(DM, ANN, envelope=True)
        assert not refused.ok and "opens at the start of assignment 20" in (refused.private or "")
        started = await service.journal_start(DM, ANN, 20)
        assert started.ok and ENVELOPE_NEWS in (started.public or "")
        assert "abandoned" in ((await service.journal_abandon(DM, ANN)).public or "")
    async with await Store.open(path) as store:
        service = GameService(store, seeds=lambda: WINNING_SEED)
        assert (await store.campaign_progress(ANN.user_id)).assignments == {}, "abandoning records no result"
        assert "sealed envelope is open" in ((await service.journal_list(ANN)).private or "")
        assert (await service.new(DM, ANN, envelope=True)).ok
        assert (await state_at(service, DM)).config.expansions == [campaign.ENVELOPE]


async def test_envelope_opens_for_partners_seated_when_the_last_assignment_starts(service_for: Make) -> None:
    service = await service_for()
    assert (await service.new(HERE, BOB, mode="coop", assignment=20)).ok
    await service.lobby(HERE, CID, "join")
    before = await service.new(Where(channel_id=11, guild_id=1), CID, envelope=True)
    assert not before.ok, "a lobby that has not started opens nothing"
    await service.lobby(HERE, BOB, "start")
    for person in (BOB, CID):
        assert (await service.new(Where(channel_id=20 + person.user_id, guild_id=1), person, envelope=True)).ok
    assert not (await service.new(DM, ANN, envelope=True)).ok, "only for the people at that table"


async def test_bad_new_options_are_refused_politely(service_for: Make) -> None:
    service = await service_for()
    for kwargs in ({"mode": "coop", "players": 3, "assignment": 1}, {"assignment": 21}, {"players": 5},
                   {"mode": "coop", "opponent": "easy"}):
        reply = await service.new(HERE, ANN, **kwargs)
        assert not reply.ok and reply.private and reply.private.endswith(".")
    assert "server channel" in ((await service.new(DM, ANN, mode="coop")).private or "")
    assert await service.store.get_active_game(HERE.channel_id) is None


async def test_coop_partners_alternate_and_share_the_assignment_result(service_for: Make) -> None:
    service = await service_for()
    assert (await service.new(HERE, ANN, mode="coop", assignment=1)).ok
    await service.lobby(HERE, BOB, "join")
    start = await service.lobby(HERE, ANN, "start")
    assert start.mention == [ANN.user_id] and "shared board" in (start.public or "")
    wrong = await service.act(HERE, BOB, "take 1 A1")
    assert not wrong.ok and "Ann decides this turn" in (wrong.private or "")
    verdict = await play_out(service, HERE, 1, {ANN.user_id: ANN, BOB.user_id: BOB})
    assert "Ann: Next recommended: assignment 2" in verdict and "Bob: Next recommended: assignment 2" in verdict
    for person in (ANN, BOB):
        assert (await service.store.campaign_progress(person.user_id)).completed == [1]


async def test_coop_turns_go_to_the_partners_in_turn(service_for: Make) -> None:
    service = await service_for()
    await service.new(HERE, ANN, mode="coop")
    await service.lobby(HERE, BOB, "join")
    await service.lobby(HERE, ANN, "start")
    people = [ANN, BOB]
    for turn in range(4):
        state = await state_at(service, HERE)
        assert len(state.seats) == 1 and acting_player(state) == turn % 2
        wrong = await service.act(HERE, people[(turn + 1) % 2], f"take 6 {'ABCD'[turn]}1")
        assert not wrong.ok and f"{people[turn % 2].name} decides" in (wrong.private or "")
        reply = await service.act(HERE, people[turn % 2], f"take 6 {'ABCD'[turn]}1")
        assert reply.ok, reply.private
        if (await state_at(service, HERE)).phase == "after":
            reply = await service.act(HERE, people[turn % 2], "endturn")
        assert reply.mention == [people[(turn + 1) % 2].user_id]


async def test_coop_is_played_by_exactly_two_partners(service_for: Make) -> None:
    service = await service_for()
    for players in (1, 3, 4):
        for assignment in (None, 1):
            reply = await service.new(HERE, ANN, mode="coop", players=players, assignment=assignment)
            assert not reply.ok and reply.private == "Co-op is played by two partners sharing one board."
    assert await service.store.get_active_game(HERE.channel_id) is None
    assert (await service.new(HERE, ANN, mode="coop", players=2)).ok


async def test_opponent_level_seats_that_bot_and_in_a_dm_starts_at_once(service_for: Make) -> None:
    service = await service_for()
    lobby = await service.new(HERE, ANN, opponent="hard")
    assert "hard bot" in (lobby.public or "") and "Seated (2/2)" in (lobby.public or "")
    record = await service.store.get_active_game(HERE.channel_id)
    assert record is not None and record.seats[1].bot_level == 2
    solo = await service.new(DM, ANN, opponent="easy")
    assert solo.ok and solo.mention == [ANN.user_id]
    record = await service.store.get_active_game(DM.channel_id)
    assert record is not None and record.status == "active" and record.seats[1].bot_level == 0


async def test_resign_hands_the_seat_to_a_bot_with_three_and_ends_with_two(service_for: Make) -> None:
    service = await service_for()
    await service.new(HERE, ANN, players=3)
    await service.lobby(HERE, BOB, "join")
    await service.lobby(HERE, CID, "join")
    await service.lobby(HERE, ANN, "start")
    resigned = await service.resign(HERE, BOB)
    assert resigned.ok and "bot plays on" in (resigned.public or "")
    record = await service.store.get_active_game(HERE.channel_id)
    assert record is not None and record.status == "active" and record.seats[1].is_bot
    assert not (await service.act(HERE, BOB, "take 1 A1")).ok
    assert (await service.act(HERE, ANN, "take 1 A1")).ok
    if (await state_at(service, HERE)).phase == "after":
        await service.act(HERE, ANN, "endturn")
    log = (await service.game_log(HERE, CID)).private or ""
    assert "Bot for Bob" in log, "the bot played the resigned seat's turn"
    await service.resign(HERE, CID)
    ended = await service.resign(HERE, ANN)
    assert "the game ends here" in (ended.public or "")
    assert await service.store.get_active_game(HERE.channel_id) is None
