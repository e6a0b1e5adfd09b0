"""Undo through the service: the player to act takes back this turn's action, logged as `undo`."""

from __future__ import annotations

import random

from keystone.app import Actor, GameService, Where, ids
from keystone.app.bots import simple_action
from keystone.app.service import MOVED_ON
from keystone.engine import GameState, dump_state, legal_actions, new_game
from keystone.engine.history import rebuild
from keystone.store import Store

HERE = Where(channel_id=10, guild_id=1)
ANN, BOB = Actor(1, "Ann"), Actor(2, "Bob")


async def started(store: Store, seed: int = 7) -> GameService:
    service = GameService(store, seeds=lambda: seed)
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


async def test_undo_at_the_start_of_ones_own_turn_says_there_is_nothing_to_take_back() -> None:
    """It used to answer "The turn has passed to Bob", to Bob himself."""
    async with await Store.open(":memory:") as store:
        service = await started(store)
        while (found := await service.state_here(HERE)) is not None and found[1].current == 0:
            assert (await service.act(HERE, ANN, str(simple_action(found[1])))).ok
        nothing = await service.undo(HERE, BOB)
        assert nothing.public is None and nothing.private == "There is nothing to take back this turn."


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


async def test_a_step_offers_undo_exactly_when_an_undo_would_be_allowed() -> None:
    """Whatever the actions (random, skills first; seed 0 deals the drawing skill 1), the Undo button is on
    the step message iff the log's history allows an undo, and it carries the game's current version."""
    async with await Store.open(":memory:") as store:
        service = await started(store, seed=0)
        record = await store.get_active_game(HERE.channel_id)
        assert record is not None
        offered: list[bool] = []
        while (found := await service.state_here(HERE)) is not None:
            now = found[1]
            actor = ANN if now.current == 0 else BOB
            legal = [str(a) for a in legal_actions(now)]
            eager = [n for n in legal if n.split()[0] in ("skill", "draw", "place", "pile")]
            reply = await service.act(HERE, actor, random.Random(now.version).choice(eager or legal))
            assert reply.ok
            if not reply.step:
                continue
            after = await state(service)
            history = rebuild(new_game(after.config, after.seed, ["Ann", "Bob"]), await store.log(record.id))
            undo = [c for c in reply.private_controls if c.label == "Undo"]
            assert bool(undo) == (history.why_not_undo() is None)
            assert all(c.custom_id == ids.undo_id(record.id, after.version) for c in undo)
            offered.append(bool(undo))
        assert True in offered and False in offered, "both kinds of step came up"


async def test_undo_from_a_button_at_an_old_version_is_told_the_game_moved_on() -> None:
    async with await Store.open(":memory:") as store:
        service = await started(store)
        start = await state(service)
        record = await store.get_active_game(HERE.channel_id)
        assert record is not None
        assert (await service.act(HERE, ANN, f"skill {start.skills[0].number}")).ok
        stale = await service.undo(HERE, ANN, game_id=record.id, version=start.version)
        assert (stale.private or "").startswith(MOVED_ON) and (await state(service)).version == 1
        fresh = await service.undo(HERE, ANN, game_id=record.id, version=1)
        assert (fresh.private or "").startswith("Taken back:") and (await state(service)).version == 2
