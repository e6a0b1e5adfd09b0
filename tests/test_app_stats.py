"""`/keystone stats` and `/keystone leaderboard` through the service, on real SQLite files."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app.bots import simple_action
from keystone.app.stats import (
    NO_SERVER,
    NOBODY_RATED,
    TOP,
    board_summary,
    favourite_sentence,
    leaderboard_text,
)
from keystone.engine import GameConfig, GameState, apply, is_over, legal_actions, new_game
from keystone.engine.results import final_scores
from keystone.store import BoardSummary, PlayerRating, PlayerResult, SeatInfo, SeatResult, Store
from tests.store_helpers import query

HERE = Where(channel_id=10, guild_id=1)
DM = Where(channel_id=77)
ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "k.db")
    yield GameService(store, seeds=lambda: 7)
    await store.close()


def played_out(players: int, seed: int) -> GameState:
    """A whole game of random legal moves."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players), seed, ["Ann", "Bob", "Cid", "Dee"][:players])
    while not is_over(state):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


async def ann_resigns_to_bob(service: GameService, where: Where = HERE, turns: int = 0) -> None:
    """Ann and Bob start a game and play `turns` turns (the rightmost card each time); then Ann
    resigns, so Bob wins."""
    assert (await service.new(where, ANN)).ok
    assert (await service.lobby(where, BOB, "join")).ok
    assert (await service.lobby(where, ANN, "start")).ok
    while (found := await service.state_here(where)) is not None and found[1].turn < turns:
        record, state = found
        actor = ANN if record.seats[state.current].user_id == ANN.user_id else BOB
        assert (await service.act(where, actor, str(simple_action(state)))).ok
    assert (await service.resign(where, ANN)).ok


@pytest.mark.parametrize("seed", [3, 11])
def test_a_board_summary_is_the_scoring_modules_best_line_and_the_boards_habitats(seed: int) -> None:
    state = played_out(2, seed)
    for board in range(2):
        summary = board_summary(state, board)
        sheet = final_scores(state)[board]
        lines = [*sheet.rows, *sheet.columns]
        assert summary.best_line_points == max(line.points for line in lines)
        assert summary.best_line == next(line.line for line in lines if line.points == summary.best_line_points)
        cards = sum(p is not None for p in state.seats[board].board)
        assert cards <= sum(summary.habitats.values()) <= 4 * cards


async def test_stats_after_a_game_show_each_players_record_privately(service: GameService) -> None:
    await ann_resigns_to_bob(service, turns=6)
    bob = await service.stats(HERE, BOB)
    assert bob.public is None and bob.private is not None
    assert "**Your Keystone record**" in bob.private
    assert "Competitive: 1 game, 1 win, mean score" in bob.private
    assert "Best row or column:" in bob.private and "Favourite habitat:" in bob.private
    assert "Field Journal: 0 stars of 60, 0 of 20 assignments won." in bob.private
    assert "Rating: " in bob.private and "after 1 rated game." in bob.private
    ann = await service.stats(HERE, BOB, ANN.user_id, "Ann")
    assert ann.private is not None and "**Ann's Keystone record**" in ann.private
    assert "Competitive: 1 game, 0 wins" in ann.private and "Favourite habitat:" in ann.private
    final = (await service.store.load_game(1)).state
    assert f" ({board_summary(final, 0).best_line}).\n" in ann.private
    winner, loser = await service.store.user_rating(BOB.user_id), await service.store.user_rating(ANN.user_id)
    assert winner is not None and loser is not None and winner.shown > 1000 > loser.shown


async def test_someone_with_no_games_gets_a_friendly_sentence(service: GameService) -> None:
    mine = await service.stats(DM, CID)
    assert mine.private is not None and mine.private.startswith("You have not finished a game yet.")
    theirs = await service.stats(HERE, ANN, CID.user_id, "Cid")
    assert theirs.private == "Cid has not finished a game yet, so there is nothing to show."


async def test_solo_journal_and_coop_are_shown_apart_from_competitive(service: GameService) -> None:
    store = service.store
    summary = BoardSummary("Column 2", 30, {"forest": 2, "desert": 6, "wetland": 0, "arctic": 1})
    solo = await store.create_game(guild_id=None, channel_id=70, kind="solo", host_id=1,
                                   seats=[SeatInfo.human(1, "Ann")], state=new_game(GameConfig(players=1), 1, ["Ann"]))
    await store.finish_game(solo.id, [SeatResult(0, 52, 1, True, summary=summary)])
    coop_state = new_game(GameConfig(players=2, coop=True), 2, ["Ann & Bob"])
    coop = await store.create_game(guild_id=1, channel_id=71, kind="coop", host_id=1, state=coop_state,
                                   seats=[SeatInfo.human(1, "Ann"), SeatInfo.human(2, "Bob")])
    await store.finish_game(coop.id, [SeatResult(0, 44, 1, True), SeatResult(1, 44, 1, True)])
    await store.record_assignment_result(1, 1, 2, 40)
    text = (await service.stats(DM, ANN)).private or ""
    assert "Competitive" not in text
    assert "Solo and Field Journal: 1 game, mean score 52.0, best 52." in text
    assert "Co-op: 1 game, mean score 44.0, best 44." in text
    assert "Best row or column: 30 points (Column 2)." in text
    assert "Field Journal: 2 stars of 60, 1 of 20 assignments won." in text
    assert "Rating: none yet" in text


async def test_a_game_finished_before_summaries_is_summarised_from_its_snapshot_once(service: GameService) -> None:
    store = service.store
    config = GameConfig(players=2)
    played = await store.create_game(
        guild_id=1, channel_id=11, kind="competitive", host_id=1, state=new_game(config, 5, ["Ann", "Bob"]),
        seats=[SeatInfo.human(1, "Ann"), SeatInfo.human(2, "Bob")],
    )
    loaded = await store.load_game(played.id)
    current = loaded.state
    rng = random.Random(5)
    while not is_over(current):
        action = rng.choice(legal_actions(current))
        new, _ = apply(current, action)
        final = [SeatResult(0, 10, 1, True), SeatResult(1, 5, 2, False)] if is_over(new) else None
        await store.commit_action(played.id, current.version, current.current, str(action), new, results=final)
        current = new
    assert [r.summary for r in await store.player_results(1)] == [None]
    text = (await service.stats(HERE, ANN)).private or ""
    kept = [r.summary for r in await store.player_results(1)] + [r.summary for r in await store.player_results(2)]
    assert kept == [board_summary(current, 0), board_summary(current, 1)]
    best = kept[0]
    assert best is not None and f"({best.best_line})" in text


def result_with(habitats: dict[str, int]) -> PlayerResult:
    return PlayerResult(1, 0, "competitive", None, 50, 1, True, 1.0, BoardSummary("Row A", 5, habitats))


def test_the_favourite_habitat_counts_every_board_and_a_tie_goes_to_the_first_in_game_order() -> None:
    boards = [result_with({"forest": 1, "arctic": 4}), result_with({"desert": 3, "arctic": 0})]
    assert favourite_sentence(boards) == "Favourite habitat: Arctic (4 cards placed)."
    tied = [result_with({"wetland": 2, "desert": 2, "arctic": 2})]
    assert favourite_sentence(tied) == "Favourite habitat: Desert (2 cards placed)."
    assert favourite_sentence([result_with({})]) is None


async def test_the_leaderboard_is_public_in_a_server_and_refused_in_a_dm(service: GameService) -> None:
    refused = await service.leaderboard(HERE, ANN)
    assert refused.public is None and refused.private == NOBODY_RATED
    await ann_resigns_to_bob(service)
    board = await service.leaderboard(HERE, CID)
    assert board.private is None and board.public is not None and board.mention == []
    lines = board.public.splitlines()
    assert lines[1].startswith(f"1. <@{BOB.user_id}>: ") and lines[2].startswith(f"2. <@{ANN.user_id}>: ")
    dm = await service.leaderboard(DM, ANN)
    assert dm.public is None and dm.private == NO_SERVER


async def test_a_bot_opponent_is_rated_by_its_level_and_listed(service: GameService) -> None:
    assert (await service.new(HERE, ANN, opponent="hard")).ok
    assert (await service.lobby(HERE, ANN, "start")).ok
    assert (await service.resign(HERE, ANN)).ok
    board = (await service.leaderboard(HERE, ANN)).public or ""
    assert board.splitlines()[1].startswith("1. Hard bot: ") and f"2. <@{ANN.user_id}> (you): " in board


async def test_a_seat_handed_to_a_bot_remembers_the_person_who_resigned(service: GameService) -> None:
    assert (await service.new(HERE, ANN, players=3)).ok
    for who in (BOB, CID):
        assert (await service.lobby(HERE, who, "join")).ok
    assert (await service.lobby(HERE, ANN, "start")).ok
    assert (await service.resign(HERE, BOB)).ok
    rows = await query(service.store, "SELECT game_id, position, user_id FROM resignations")
    assert rows == [(1, 1, BOB.user_id)]


def rated(n: int) -> PlayerRating:
    return PlayerRating(f"user:{n}", 40.0 - n, 2.0, n)


def test_the_board_shows_the_top_ten_and_the_askers_own_line_below_them() -> None:
    ratings = [rated(n) for n in range(1, 15)]
    text = leaderboard_text(ratings, asker=13)
    lines = text.splitlines()
    assert len(lines) == 1 + TOP + 2 and lines[-2] == "..."
    assert lines[-1] == f"13. <@13> (you): {ratings[12].shown} (13 rated games)"
    assert lines[1] == f"1. <@1>: {ratings[0].shown} (1 rated game)"
    assert len(leaderboard_text(ratings, asker=99).splitlines()) == 1 + TOP
    assert "..." not in leaderboard_text(ratings, asker=11)
