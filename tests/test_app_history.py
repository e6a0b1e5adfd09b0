"""History and replays in the service and the store: one's finished games newest first, and the
animated replay of a finished game, posted where it was played and privately anywhere else."""

from __future__ import annotations

import random

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app import history as words
from keystone.store import Store
from tests.render_helpers import frame_count
from tests.store_helpers import play, start_game

GAME_ROOM = Where(channel_id=100, guild_id=9)
ELSEWHERE = Where(channel_id=300, guild_id=9)
ADA, BROOK, CYD = Actor(1, "Ada"), Actor(2, "Brook"), Actor(3, "Cyd")


async def finished_game(store: Store, channel_id: int = 100, seed: int = 1, players: int = 2) -> int:
    """A game between users 1..players in `channel_id`, played to its end with random moves."""
    record = await start_game(store, channel_id=channel_id, seed=seed, players=players)
    state = await play(store, record.id, 10_000, random.Random(seed))
    assert state.phase == "over"
    return record.id


async def test_history_lists_my_finished_games_newest_first(store: Store) -> None:
    service = GameService(store)
    assert (await service.history(ADA)).private == words.EMPTY
    first = await finished_game(store, channel_id=100, seed=1)
    second = await finished_game(store, channel_id=200, seed=2, players=3)
    running = await start_game(store, channel_id=100, seed=3)
    mine = await store.finished_games_for_user(ADA.user_id)
    assert [g.record.id for g in mine] == [second, first]
    assert [g.record.id for g in await store.finished_games_for_user(CYD.user_id)] == [second]
    assert [g.record.id for g in await store.finished_games_for_user(ADA.user_id, limit=1)] == [second]
    reply = await service.history(ADA)
    assert reply.public is None and not reply.ok
    lines = (reply.private or "").splitlines()
    assert lines[0] == words.TITLE and len(lines) == 3
    newest = mine[0]
    assert lines[1] == (f"\u2022 <t:{int(newest.finished_at)}:d> · <#200> · competitive · Ada, Brook, Cyd · "
                        f"{words.result_words(newest)} · game {second}")
    assert f"of 3 · game {second}" in lines[1] and f"of 2 · game {first}" in lines[2]
    assert f"game {running.id}" not in (reply.private or "")
    assert [r.id for r in await store.finished_games_in_channel(100)] == [first]


def test_history_words() -> None:
    assert [words.game_number(t) for t in ("12", "#12", " game 12 ", "Game #7", "twelve", "1 2", "")] == [
        12, 12, 12, 7, None, None, None]
    assert [words.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


async def test_replay_is_public_where_the_game_was_played_and_private_elsewhere(store: Store) -> None:
    service = GameService(store)
    game = await finished_game(store)
    here = await service.replay(GAME_ROOM, BROOK, str(game))
    assert here.public == f"Game {game} turn by turn (Ada, Brook), with the final scores at the end."
    assert not here.private_files and len(here.files) == 1
    name, data, alt = here.files[0]
    assert name == f"replay-{game}.gif" and alt.startswith("An animation of every board")
    assert frame_count(data) > 2
    away = await service.replay(ELSEWHERE, ADA, f"#{game}")
    assert away.public is None and away.private == here.public and away.private_files == here.files
    watcher = await service.replay(GAME_ROOM, CYD, str(game))
    assert watcher.public is not None, "anyone in the game's channel may watch its replay"


async def test_replay_refusals_change_nothing_and_show_nothing(store: Store) -> None:
    service = GameService(store)
    game = await finished_game(store)
    running = await start_game(store, channel_id=400, seed=5)
    abandoned = await start_game(store, channel_id=500, seed=6)
    await store.abandon_game(abandoned.id)
    cases = {
        "twelve": words.NOT_A_NUMBER,
        "999": words.NOT_YOURS.format(number=999),
        str(running.id): words.NOT_FINISHED,
        str(abandoned.id): words.ABANDONED,
    }
    for typed, sentence in cases.items():
        reply = await service.replay(Where(channel_id=400, guild_id=9), ADA, typed)
        assert reply.private == sentence and reply.public is None and not reply.private_files
    for number in (game, running.id, abandoned.id, 999_999):
        stranger = await service.replay(ELSEWHERE, CYD, str(number))
        assert stranger.private == words.NOT_YOURS.format(number=number) and not stranger.private_files, \
            "an outsider learns nothing of a game: neither that it exists nor how it stands"


async def test_a_log_that_no_longer_replays_is_refused_politely(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(store)
    game = await finished_game(store)
    real_log = store.log

    async def shortened(game_id: int) -> list[str]:
        return (await real_log(game_id))[:-1]

    monkeypatch.setattr(store, "log", shortened)
    reply = await service.replay(GAME_ROOM, ADA, str(game))
    assert reply.private == words.CHANGED and not reply.files


async def test_replay_choices_offer_my_games_and_this_channels(store: Store) -> None:
    service = GameService(store)
    mine = await finished_game(store, channel_id=100, seed=1)
    theirs = await finished_game(store, channel_id=300, seed=2)
    offered = await service.suggest_replays(Where(channel_id=300, guild_id=9), CYD)
    assert [value for _, value in offered] == [str(theirs)]
    both = await service.suggest_replays(Where(channel_id=300, guild_id=9), ADA)
    assert [value for _, value in both] == [str(theirs), str(mine)]
    label = both[1][0]
    assert label.startswith(f"Game {mine} · ") and "Ada, Brook" in label and label.endswith(" of 2")
    assert [value for _, value in await service.suggest_replays(ELSEWHERE, ADA, f"game {mine}")] == [str(mine)]
