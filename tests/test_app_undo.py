"""Undo through the service: the player to act takes back this turn's action, logged as `undo`."""

from __future__ import annotations

from keystone.app import Actor, GameService, Where
from keystone.engine import GameState, dump_state
from keystone.store import Store

HERE = Where(channel_id=10, guild_id=1)
ANN, BOB = Actor(1, "Ann"), Actor(2, "Bob")


async def started(store: Store) -> GameService:
    service = GameService(store, seeds=lambda: 7)
    assert (await service.new(HERE, ANN)).ok
    assert (await service.lobby(HERE, BOB, "join")).ok
    assert (await service.lobby(HERE, ANN, "start")).ok
    return service


async def state(service: GameService) -> GameState:
    found = await service.state_here(HERE)
    assert found is not None
    return found[1]


async def test_undo_then_act_again_and_the_log_replays() -> None:
    async with await Store.open(":memory:") as store:
        service = await started(store)
        start = await state(service)
        skill = f"skill {start.skills[0].number}"
        used = await service.act(HERE, ANN, skill)
        assert used.ok and used.public is None
        back = await service.undo(HERE, ANN)
        assert back.ok and back.public is None and back.private_controls
        assert (back.private or "").startswith(f"Taken back: Ann uses skill {start.skills[0].number}")
        now = await state(service)
        assert now.version == 2 and now.phase == "main" and not now.skills[0].exhausted
        assert (await service.act(HERE, ANN, skill)).ok
        record = await store.get_active_game(HERE.channel_id)
        assert record is not None and await store.log(record.id) == [skill, "undo", skill]
        assert dump_state((await store.verify_game(record.id)).state) == dump_state(await state(service))


async def test_undo_is_refused_out_of_turn_and_at_the_start_of_a_turn() -> None:
    async with await Store.open(":memory:") as store:
        service = await started(store)
        nothing = await service.undo(HERE, ANN)
        assert nothing.private == "There is nothing to take back this turn."
        start = await state(service)
        assert (await service.act(HERE, ANN, f"skill {start.skills[0].number}")).ok
        out_of_turn = await service.undo(HERE, BOB)
        assert out_of_turn.public is None and "Ann's turn" in (out_of_turn.private or "")
        assert (await state(service)).version == 1


async def test_a_taken_back_action_is_left_out_of_the_turns_public_message() -> None:
    async with await Store.open(":memory:") as store:
        service = await started(store)
        start = await state(service)
        assert (await service.act(HERE, ANN, f"skill {start.skills[0].number}")).ok
        assert (await service.undo(HERE, ANN)).ok
        slot = max(i for i, f in enumerate(start.field) if f is not None)
        told = await service.act(HERE, ANN, f"take {slot + 1} A1")
        assert (await state(service)).turn == 1, "a take with little synergy ends the turn"
        assert told.public is not None and "Ann took" in told.public and "uses skill" not in told.public
