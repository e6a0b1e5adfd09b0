"""The application service against the in-memory store: who may act, refusals, stale presses, bots."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from keystone.app import Actor, GameService, Reply, Where
from keystone.app.bots import simple_action
from keystone.app.controls import MAX_OPTIONS
from keystone.engine import GameState, legal_actions
from keystone.store import Store

HERE = Where(channel_id=10, guild_id=1)
ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")


@pytest.fixture(autouse=True)
async def close_stores(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Every test here opens in-memory stores; close them all so no worker thread outlives it."""
    opened: list[Store] = []
    real_open = Store.open

    async def tracking_open(*args: object, **kwargs: object) -> Store:
        store = await real_open(*args, **kwargs)  # type: ignore[arg-type]
        opened.append(store)
        return store

    monkeypatch.setattr(Store, "open", tracking_open)
    yield
    for store in opened:
        await store.close()


async def started(seed: int = 7) -> GameService:
    service = GameService(await Store.open(":memory:"), seeds=lambda: seed)
    assert (await service.new(HERE, ANN)).ok
    assert (await service.lobby(HERE, BOB, "join")).ok
    reply = await service.lobby(HERE, ANN, "start")
    assert reply.ok and reply.mention == [ANN.user_id]
    return service


async def state(service: GameService) -> GameState:
    found = await service.state_here(HERE)
    assert found is not None
    return found[1]


async def test_third_user_is_refused_privately_and_nothing_changes() -> None:
    service = await started()
    before = (await state(service)).version
    for reply in (await service.lobby(HERE, CID, "join"), await service.act(HERE, CID, "skill 1")):
        assert reply.public is None and reply.private
    reply = await service.act(HERE, BOB, "skill 1")
    assert reply.public is None and "Ann's turn" in (reply.private or "")
    assert (await state(service)).version == before


async def test_full_lobby_and_host_only_start() -> None:
    service = GameService(await Store.open(":memory:"), seeds=lambda: 1)
    await service.new(HERE, ANN)
    await service.lobby(HERE, BOB, "join")
    assert "full" in ((await service.lobby(HERE, CID, "join")).private or "")
    assert "Only the player" in ((await service.lobby(HERE, BOB, "start")).private or "")
    assert "already has a game" in ((await service.new(HERE, CID)).private or "")


async def test_illegal_and_stale_actions_change_nothing() -> None:
    service = await started()
    st = await state(service)
    bad = await service.act(HERE, ANN, "take 9 A1")
    assert not bad.ok and bad.private
    stale = await service.act(HERE, ANN, "skill 1", version=st.version + 5)
    assert not stale.ok and "moved on" in (stale.private or "") and stale.private_files
    assert (await state(service)).version == st.version


async def test_select_prefix_asks_for_the_cell_then_applies() -> None:
    service = await started()
    st = await state(service)
    slot = next(str(a) for a in legal_actions(st) if str(a).startswith("take ")).rsplit(" ", 1)[0]
    ask = await service.choose(HERE, ANN, gid(service), st.version, slot)
    assert ask.public is None and ask.step and ask.private_controls, "a step of the turn, nothing applied yet"
    assert (await state(service)).version == st.version
    options = ask.private_controls[0].options
    assert 0 < len(options) <= MAX_OPTIONS and all(o.value.startswith(slot + " ") for o in options)
    done = await service.choose(HERE, ANN, gid(service), st.version, options[0].value)
    assert done.ok and (await state(service)).version > st.version
    told = [done, *done.more]
    assert all(name == "turn.png" and png.startswith(b"\x89PNG") for m in told for name, png, _ in m.files)


def gid(service: GameService) -> int:
    return 1


async def play_out(service: GameService) -> list[Reply]:
    """Both humans always play the cheap policy until the game ends."""
    replies: list[Reply] = []
    for _ in range(400):
        found = await service.state_here(HERE)
        if found is None:
            return replies
        record, st = found
        actor = ANN if record.seats[st.current].user_id == ANN.user_id else BOB
        reply = await service.act(HERE, actor, str(simple_action(st)))
        assert reply.ok, reply.private
        replies.append(reply)
    raise AssertionError("the game did not end")


async def test_full_game_ends_with_score_sheet_and_objectives_stay_private() -> None:
    service = await started(seed=3)
    st = await state(service)
    secrets = [(await service.objective(HERE, who)).private or "" for who in (ANN, BOB)]
    assert all("objective" in s for s in secrets) and st.seats[0].objective is not None
    replies = await play_out(service)
    last = [*replies[-1].more][-1]
    assert [name for name, _, _ in last.files] == ["scores.png"]
    assert "Final scores" in (last.public or "")
    for reply in replies:
        for message in (reply, *reply.more):
            assert "secret objective (card" not in (message.public or "")
            assert message.mention in ([], [ANN.user_id], [BOB.user_id])
            assert len(message.files) <= 1, "one picture per message"


async def test_bot_seat_plays_its_turns() -> None:
    service = GameService(await Store.open(":memory:"), seeds=lambda: 5)
    await service.new(HERE, ANN)
    await service.lobby(HERE, ANN, "bot")
    assert (await service.lobby(HERE, ANN, "start")).ok
    record, st = await service.state_here(HERE) or (None, None)
    assert st is not None and st.current == 0
    reply = await service.act(HERE, ANN, str(simple_action(st)))
    assert reply.ok
    after = await state(service)
    # Either Ann's turn continues (a Wild could be bought) or the bot has already moved and it is Ann's again.
    assert after.current == 0 and after.version >= st.version + 1


async def test_dm_new_starts_a_solo_game_at_once() -> None:
    service = GameService(await Store.open(":memory:"), seeds=lambda: 2)
    reply = await service.new(Where(channel_id=99), ANN)
    assert reply.ok and "objective" in (reply.private or "")
    assert "objective (card" not in (reply.public or "")


async def test_autocomplete_offers_slots_cells_and_skills() -> None:
    service = await started()
    takes = await service.suggest(HERE, ANN, "take")
    assert takes and all(" - " in label and "costs" in label for label, _ in takes)
    cells = await service.suggest(HERE, ANN, "cell", "a")
    assert [v for _, v in cells] == ["A1", "A2", "A3", "A4"]
    skills = await service.suggest(HERE, ANN, "skill")
    assert skills and all(v.isdigit() for _, v in skills)


async def test_resigning_ranks_the_resigner_last_and_frees_the_channel() -> None:
    service = await started()
    st = await state(service)
    await service.act(HERE, ANN, str(simple_action(st)))
    reply = await service.resign(HERE, BOB)
    assert reply.ok and "Bob resigned" in (reply.public or "") and "Ann wins" in (reply.public or "")
    assert any(name == "scores.png" for name, _, _ in reply.files)
    assert await service.state_here(HERE) is None
    assert (await service.new(HERE, CID)).ok


async def test_a_resignation_ends_the_game_in_the_engine_and_the_sheet_says_so(caplog: pytest.LogCaptureFixture) -> None:
    """It used to end the game in the store only: a 640x60 placeholder picture and a traceback."""
    service = await started()
    st = await state(service)
    await service.act(HERE, ANN, str(simple_action(st)))
    reply = await service.resign(HERE, ANN)
    sheet = {name: png for name, png, _ in reply.files}["scores.png"]
    with Image.open(io.BytesIO(sheet)) as image:
        assert image.width > 640 and image.height > 300
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "Bob wins" in (reply.public or "")
    game = (await service.store.verify_game(1)).state
    assert game.phase == "over" and game.resigned == 0
    assert (await service.store.user_stats(ANN.user_id)).wins == 0
    assert (await service.store.user_stats(BOB.user_id)).wins == 1


async def test_resign_is_not_a_move_a_button_can_carry() -> None:
    service = await started()
    before = (await state(service)).version
    reply = await service.act(HERE, ANN, "resign 2")
    assert not reply.ok and "/keystone resign" in (reply.private or "")
    assert (await state(service)).version == before


async def test_unexpected_failure_is_an_apology_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = await started()
    st = await state(service)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service.store, "commit_moves", broken)
    reply = await service.act(HERE, ANN, str(simple_action(st)))
    assert not reply.ok and "Sorry" in (reply.private or "")
    assert any("game 1" in r.getMessage() for r in caplog.records)
    monkeypatch.undo()
    assert (await state(service)).version == st.version


async def test_a_control_pressed_in_another_channel_is_refused() -> None:
    """A seated player's button, replayed from another channel, used to be applied."""
    service = await started()
    st = await state(service)
    elsewhere = Where(channel_id=99, guild_id=1)
    move = str(simple_action(st))
    for reply in (await service.act(elsewhere, ANN, move, game_id=1, version=st.version),
                  await service.choose(elsewhere, ANN, 1, st.version, move),
                  await service.show_choices(elsewhere, ANN, 1, st.version),
                  await service.lobby(elsewhere, CID, "join", game_id=1)):
        assert not reply.ok and reply.public is None
        assert "another channel" in (reply.private or "")
    assert (await state(service)).version == st.version
    assert (await service.act(HERE, ANN, move, game_id=1, version=st.version)).ok
