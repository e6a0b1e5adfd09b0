"""The store's application-facing API: lobbies, moves, finishing, logs, campaign and statistics."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keystone.engine import GameConfig, apply, apply_text, dump_state, is_over, legal_actions, new_game, replay
from keystone.store import (
    ChannelBusy,
    GameNotFound,
    InvalidInput,
    LobbyError,
    SchemaError,
    SeatInfo,
    SeatResult,
    StaleVersion,
    Store,
    StoreError,
    WrongStatus,
)
from keystone.store.backend import IntegrityViolation
from keystone.store.migrate import latest
from tests.store_helpers import play, query, random_move, results_for, start_game


async def lobby(store: Store, channel_id: int = 100, kind: str = "competitive") -> int:
    record = await store.create_lobby(
        guild_id=9, channel_id=channel_id, kind=kind, host_id=1, host_name="Ada",  # type: ignore[arg-type]
        config=GameConfig(players=1 if kind == "solo" else 2, coop=kind == "coop"),
    )
    return record.id


async def table_counts(store: Store) -> dict[str, object]:
    return {t: (await query(store, f"SELECT count(*) FROM {t}"))[0][0]
            for t in ("games", "seats", "actions", "results", "campaign")}


# --------------------------------------------------------------------------- opening


async def test_open_creates_wal_database_at_latest_schema(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "new.db")
    assert await store.schema_version() == latest()
    await store.close()
    with sqlite3.connect(tmp_path / "new.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_game_survives_close_and_reopen(store_target: str) -> None:
    store = await Store.open(store_target)
    game = await start_game(store)
    state = await play(store, game.id, 12, random.Random(3))
    await store.close()
    again = await Store.open(store_target)
    loaded = await again.load_game(game.id, replay=True)
    assert dump_state(loaded.state) == dump_state(state)
    assert (await again.get_active_game(100)) == loaded.record
    await again.close()


async def test_a_missing_folder_is_reported_plainly(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="folder .* does not exist; create it"):
        await Store.open(tmp_path / "no such folder" / "k.db")


async def test_closed_store_refuses_politely(store: Store) -> None:
    await asyncio.gather(store.close(), store.close())
    with pytest.raises(StoreError, match="closed"):
        await store.get_active_game(100)


# --------------------------------------------------------------------------- lobbies


async def test_lobby_join_leave_and_start(store: Store) -> None:
    game_id = await lobby(store)
    record = await store.join_lobby(game_id, SeatInfo.human(2, "Brook"))
    assert [s.name for s in record.seats] == ["Ada", "Brook"]
    state = new_game(record.config, 11, ["Brook", "Ada"])
    started = await store.start_game(game_id, state, seat_order=[1, 0])
    assert started.status == "active" and started.seed == 11
    assert [s.user_id for s in started.seats] == [2, 1]
    assert (await store.load_game(game_id)).state.seats[0].name == "Brook"


async def test_joining_twice_or_a_full_lobby_is_refused(store: Store) -> None:
    game_id = await lobby(store)
    with pytest.raises(LobbyError, match="already"):
        await store.join_lobby(game_id, SeatInfo.human(1, "Ada again"))
    for i in range(3):
        await store.join_lobby(game_id, SeatInfo.bot(i, f"Bot {i}"))
    with pytest.raises(LobbyError, match="full"):
        await store.join_lobby(game_id, SeatInfo.human(5, "Eve"))
    assert len((await store.get_game(game_id)).seats) == 4


async def test_solo_lobby_has_one_seat(store: Store) -> None:
    game_id = await lobby(store, kind="solo")
    with pytest.raises(LobbyError, match="full"):
        await store.join_lobby(game_id, SeatInfo.human(2, "Brook"))


async def test_host_leaving_passes_the_lobby_on(store: Store) -> None:
    game_id = await lobby(store)
    await store.join_lobby(game_id, SeatInfo.bot(1, "Bot"))
    await store.join_lobby(game_id, SeatInfo.human(2, "Brook"))
    record = await store.leave_lobby(game_id, 1)
    assert record.host_id == 2
    assert [s.name for s in record.seats] == ["Bot", "Brook"]


async def test_last_person_leaving_abandons_the_lobby_and_frees_the_channel(store: Store) -> None:
    game_id = await lobby(store)
    await store.join_lobby(game_id, SeatInfo.bot(1, "Bot"))
    record = await store.leave_lobby(game_id, 1)
    assert record.status == "abandoned"
    assert await store.get_active_game(100) is None
    assert await lobby(store) != game_id


async def test_leaving_without_a_seat_or_after_start_is_refused(store: Store) -> None:
    game_id = await lobby(store)
    with pytest.raises(LobbyError, match="do not have a seat"):
        await store.leave_lobby(game_id, 77)
    await store.join_lobby(game_id, SeatInfo.human(2, "Brook"))
    await store.start_game(game_id, new_game(GameConfig(), 1, ["Ada", "Brook"]))
    with pytest.raises(WrongStatus):
        await store.leave_lobby(game_id, 2)
    with pytest.raises(WrongStatus):
        await store.join_lobby(game_id, SeatInfo.human(3, "Cyd"))


async def test_start_with_wrong_player_count_changes_nothing(store: Store) -> None:
    game_id = await lobby(store)
    before = await store.get_game(game_id)
    with pytest.raises(InvalidInput, match="2 player"):
        await store.start_game(game_id, new_game(GameConfig(players=2), 1, ["Ada", "X"]))
    assert await store.get_game(game_id) == before


async def test_one_open_game_per_channel(store: Store) -> None:
    await lobby(store, channel_id=100)
    with pytest.raises(ChannelBusy):
        await lobby(store, channel_id=100)
    with pytest.raises(ChannelBusy):
        await start_game(store, channel_id=100)
    assert (await store.get_active_game(100)) is not None
    await lobby(store, channel_id=101)
    assert len(await store.list_games("lobby")) == 2


async def test_database_itself_refuses_a_second_open_game(store: Store) -> None:
    await lobby(store, channel_id=100)
    with pytest.raises(IntegrityViolation):
        await query(
            store,
            "INSERT INTO games (channel_id, kind, ruleset, config, host_id, status, created_at, updated_at) "
            "VALUES (100, 'solo', 'x', '{}', 1, 'active', 0, 0)",
        )


# --------------------------------------------------------------------------- moves


async def test_database_itself_refuses_a_stale_move(store: Store) -> None:
    game = await start_game(store, seed=3)
    await play(store, game.id, 2, random.Random(3))
    before = await table_counts(store)
    with pytest.raises(IntegrityViolation, match="stale"):
        await query(
            store,
            "INSERT INTO move_commits (game_id, expected_version, seed, seat, notation, snapshot, state_hash, "
            "created_at) VALUES (?, 1, 3, 0, 'endturn', '{}', ?, 0)",
            (game.id, b"\0"),
        )
    assert await table_counts(store) == before
    assert (await store.load_game(game.id)).state.version == 2




async def test_moves_are_logged_in_canonical_notation_and_replay(store: Store) -> None:
    game = await start_game(store, seed=4)
    state = await play(store, game.id, 25, random.Random(8))
    log = await store.log(game.id)
    assert len(log) == state.version == 25
    assert dump_state(replay(game.config, 4, ["Ada", "Brook"], log)) == dump_state(state)
    entries = await store.log_entries(game.id)
    assert [e.version for e in entries] == list(range(1, 26))


async def test_commit_stores_canonical_text(store: Store) -> None:
    game = await start_game(store, seed=4)
    state = (await store.load_game(game.id)).state
    text, _ = random_move(state, random.Random(1))
    loud = "  " + text.upper() + " "
    new, _ = apply_text(state, loud)
    await store.commit_action(game.id, 0, 0, loud, new)
    assert await store.log(game.id) == [text]


async def test_stale_commit_changes_nothing(store: Store) -> None:
    game = await start_game(store)
    state = await play(store, game.id, 3, random.Random(1))
    before = await table_counts(store)
    old = replay(game.config, 1, ["Ada", "Brook"], (await store.log(game.id))[:2])
    _, new = random_move(old, random.Random(5))
    with pytest.raises(StaleVersion) as caught:
        await store.commit_action(game.id, 2, old.current, "endturn", new)
    assert caught.value.current == 3 and "moved on" in str(caught.value)
    assert await table_counts(store) == before
    assert dump_state((await store.load_game(game.id)).state) == dump_state(state)


@pytest.mark.parametrize(
    ("seat", "text", "message"),
    [(5, None, "seat"), (3, None, "Seat 4 is not part"), (0, "fly away", "don't know"), (0, 7, "notation")],
)
async def test_bad_commit_input_changes_nothing(
    store: Store, seat: int, text: object, message: str
) -> None:
    game = await start_game(store)
    state = (await store.load_game(game.id)).state
    move, new = random_move(state, random.Random(2))
    before = await table_counts(store)
    with pytest.raises(InvalidInput, match=message):
        await store.commit_action(game.id, 0, seat, move if text is None else text, new)  # type: ignore[arg-type]
    assert await table_counts(store) == before
    assert (await store.get_game(game.id)).version == 0


async def test_commit_refuses_a_state_that_is_not_one_move_ahead(store: Store) -> None:
    game = await start_game(store)
    state = (await store.load_game(game.id)).state
    with pytest.raises(InvalidInput, match="one move ahead"):
        await store.commit_action(game.id, 0, 0, "endturn", state)


async def test_commit_refuses_a_state_of_another_game(store: Store) -> None:
    game = await start_game(store, seed=1)
    other = new_game(GameConfig(), 2, ["Ada", "Brook"])
    move, new = random_move(other, random.Random(2))
    with pytest.raises(InvalidInput, match="different game"):
        await store.commit_action(game.id, 0, 0, move, new)


async def test_commit_to_a_lobby_or_missing_game_is_refused(store: Store) -> None:
    game_id = await lobby(store)
    state = new_game(GameConfig(), 1, ["Ada", "Brook"])
    move, new = random_move(state, random.Random(2))
    with pytest.raises(WrongStatus, match="not started"):
        await store.commit_action(game_id, 0, 0, move, new)
    with pytest.raises(GameNotFound):
        await store.commit_action(999, 0, 0, move, new)
    with pytest.raises(WrongStatus, match="not started"):
        await store.load_game(game_id)


async def test_a_click_that_lost_to_the_final_move_hears_the_game_moved_on(store: Store) -> None:
    game = await start_game(store, seed=2)
    final = await play(store, game.id, 10_000, random.Random(2))
    log = await store.log(game.id)
    earlier = replay(game.config, 2, ["Ada", "Brook"], log[:-1])
    rival = legal_actions(earlier)[-1]  # even the very same move is stale once the game moved on
    new, _ = apply(earlier, rival)
    with pytest.raises(StaleVersion):
        await store.commit_action(game.id, earlier.version, earlier.current, str(rival), new,
                                  results=results_for(new) if is_over(new) else None)
    assert (await store.get_game(game.id)).version == final.version


async def test_commit_to_an_abandoned_game_is_refused(store: Store) -> None:
    game = await start_game(store)
    state = (await store.load_game(game.id)).state
    move, new = random_move(state, random.Random(2))
    await store.abandon_game(game.id)
    with pytest.raises(WrongStatus, match="over"):
        await store.commit_action(game.id, 0, 0, move, new)
    assert await store.log(game.id) == []


async def test_untrusted_text_is_stored_verbatim(store: Store) -> None:
    name = "Robert'); DROP TABLE games;--"
    game_id = (await store.create_lobby(
        guild_id=None, channel_id=5, kind="competitive", host_id=1, host_name=name, config=GameConfig()
    )).id
    record = await store.get_game(game_id)
    assert record.seats[0].name == name and record.guild_id is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"channel_id": -1}, "between"),
        ({"channel_id": True}, "whole number"),
        ({"host_name": "  "}, "needs a name"),
        ({"host_name": "a\x00b"}, "control"),
        ({"host_name": "x" * 101}, "at most"),
        ({"kind": "poker"}, "one of"),
        ({"kind": "solo"}, "exactly one player"),
        ({"assignment": 21}, "between 1 and 20"),
        ({"assignment": 3}, "solo or co-op"),
    ],
)
async def test_bad_lobby_input_is_refused_with_a_sentence(
    store: Store, kwargs: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {"guild_id": 9, "channel_id": 100, "kind": "competitive", "host_id": 1,
                               "host_name": "Ada", "config": GameConfig()}
    with pytest.raises(InvalidInput, match=message):
        await store.create_lobby(**{**args, **kwargs})  # type: ignore[arg-type]
    assert (await table_counts(store))["games"] == 0


# --------------------------------------------------------------------------- finishing


async def test_finishing_move_records_results_and_frees_the_channel(store: Store) -> None:
    game = await start_game(store, seed=2)
    state = await play(store, game.id, 10_000, random.Random(2))
    assert is_over(state)
    record = await store.get_game(game.id)
    assert record.status == "finished" and await store.get_active_game(100) is None
    expected = results_for(state)
    stats = await store.user_stats(1)
    assert stats.games == 1 and stats.best_score == expected[0].score
    assert stats.wins == int(expected[0].won)
    assert (await store.load_game(game.id, replay=True)).state.version == state.version


async def test_results_are_required_exactly_when_the_game_ends(store: Store) -> None:
    game = await start_game(store)
    state = (await store.load_game(game.id)).state
    move, new = random_move(state, random.Random(2))
    with pytest.raises(InvalidInput, match="results"):
        await store.commit_action(game.id, 0, 0, move, new, results=results_for(new))


async def test_finish_and_abandon_need_an_open_game(store: Store) -> None:
    game = await start_game(store)
    record = await store.finish_game(game.id, [SeatResult(0, 50, 1, True), SeatResult(1, 40, 2, False)])
    assert record.status == "finished"
    with pytest.raises(WrongStatus):
        await store.abandon_game(game.id)
    other = await start_game(store, channel_id=200)
    assert (await store.abandon_game(other.id)).status == "abandoned"
    assert (await store.user_stats(2)).games == 1


@pytest.mark.parametrize(
    "results",
    [
        [SeatResult(0, 50, 1, True)],
        [SeatResult(0, 50, 1, True), SeatResult(0, 40, 2, False)],
        [SeatResult(0, 50, 1, True), SeatResult(1, 40, 3, False)],
        [SeatResult(0, 50, 1, True, stars=2), SeatResult(1, 40, 2, False)],
    ],
)
async def test_bad_results_change_nothing(store: Store, results: list[SeatResult]) -> None:
    game = await start_game(store)
    with pytest.raises(InvalidInput):
        await store.finish_game(game.id, results)
    assert (await store.get_game(game.id)).status == "active"
    assert (await store.user_stats(1)).games == 0


async def test_finishing_a_journal_game_records_the_campaign(store: Store) -> None:
    seats = [SeatInfo.human(7, "Ada")]
    state = new_game(GameConfig(players=1), 3, ["Ada"])
    game = await store.create_game(guild_id=None, channel_id=70, kind="solo", host_id=7, seats=seats,
                                   state=state, assignment=4)
    await store.finish_game(game.id, [SeatResult(0, 61, 1, True, stars=2)])
    progress = await store.campaign_progress(7)
    assert progress.assignments[4].stars == 2 and progress.assignments[4].best_score == 61
    assert progress.completed == [4]


# --------------------------------------------------------------------------- campaign


async def test_campaign_validates_input(store: Store) -> None:
    with pytest.raises(InvalidInput, match="stars"):
        await store.record_assignment_result(1, 1, 4, 10)
    with pytest.raises(InvalidInput, match="assignment"):
        await store.record_assignment_result(1, 0, 1, 10)
    assert (await store.campaign_progress(1)).assignments == {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(-5, 120)), min_size=1, max_size=12))
async def test_campaign_keeps_the_best_result_per_assignment(
    tmp_path_factory: pytest.TempPathFactory, attempts: list[tuple[int, int, int]]
) -> None:
    store = await Store.open(tmp_path_factory.mktemp("c") / "c.db", durable=False)
    for assignment, stars, score in attempts:
        await store.record_assignment_result(42, assignment, stars, score)
    progress = await store.campaign_progress(42)
    await store.close()
    for number in {a for a, _, _ in attempts}:
        mine = [(s, sc) for a, s, sc in attempts if a == number]
        best = progress.assignments[number]
        assert (best.stars, best.best_score) == max(mine)
        assert best.attempts == len(mine)
        assert best.completed == any(s > 0 for s, _ in mine)
    assert progress.total_stars == sum(
        max(s for a, s, _ in attempts if a == n) for n in {a for a, _, _ in attempts}
    )
