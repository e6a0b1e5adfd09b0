"""End to end: `/undo` and the step message's Undo button take back a `/take` whose turn waits for
End turn, before any card is drawn."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from keystone.app import Where
from keystone.app.service import MOVED_ON
from keystone.engine import GameState
from tests.discord_helpers import make_bot, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.harness import InteractionResult
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord

SEED = 1
"""With this seed the fifth rightmost take leaves 10 synergy: the turn waits for a possible Wild."""


async def solo_game(fake: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
                    ) -> tuple[FakeUser, FakeChannel, Callable[[], Awaitable[GameState]]]:
    """Alice's seeded solo game in her direct message, and a way to read its state."""
    bot = make_bot(tmp_path / "ks.db")
    await bot_runner.start(bot)
    service = service_of(bot)
    service._seeds = lambda: SEED
    alice = fake.user("alice")
    dm = fake.dm_channel(alice)
    await fake.slash(alice, dm, "keystone new", {"players": 1})

    async def state() -> GameState:
        found = await service.state_here(Where(channel_id=dm.id))
        assert found is not None
        return found[1]

    return alice, dm, state


async def test_undo_puts_the_taken_card_back_on_the_field(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, dm, state = await solo_game(fake, bot_runner, tmp_path)

    for _ in range(8):
        before = await state()
        slot = max(i for i, f in enumerate(before.field) if f is not None)
        cell = "ABCD"[before.seats[0].board.index(None) // 4] + str(before.seats[0].board.index(None) % 4 + 1)
        taken = await fake.slash(alice, dm, "take", {"card": str(slot + 1), "cell": cell})
        if any(c.get("label") == "End turn" for c in taken.message.actionable()):
            break
    else:
        raise AssertionError("no take left the turn waiting for End turn")
    card = before.field[slot]
    assert card is not None and (await state()).field[slot] is None
    back = await fake.slash(alice, dm, "undo")
    assert back.is_ephemeral and back.content.startswith("Taken back: Alice took ")
    now = await state()
    assert now.field[slot] == card and now.seats[0].board == before.seats[0].board
    assert now.version == before.version + 2
    again = await fake.slash(alice, dm, "undo")
    assert again.is_ephemeral and again.content == "There is nothing to take back this turn."


async def take_until_end_turn(fake: FakeDiscord, user: FakeUser, dm: FakeChannel,
                              state: Callable[[], Awaitable[GameState]]) -> tuple[GameState, int, InteractionResult]:
    """`/take` the rightmost card into the first empty cell until a take leaves the turn waiting for
    End turn: the state before that take, the slot taken and the take's answer."""
    for _ in range(8):
        before = await state()
        slot = max(i for i, f in enumerate(before.field) if f is not None)
        cell = "ABCD"[before.seats[0].board.index(None) // 4] + str(before.seats[0].board.index(None) % 4 + 1)
        taken = await fake.slash(user, dm, "take", {"card": str(slot + 1), "cell": cell})
        if any(c.get("label") == "End turn" for c in taken.message.actionable()):
            return before, slot, taken
    raise AssertionError("no take left the turn waiting for End turn")


async def test_the_undo_button_takes_back_in_place_and_a_stale_one_is_told(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, dm, state = await solo_game(fake, bot_runner, tmp_path)

    before, slot, taken = await take_until_end_turn(fake, alice, dm, state)
    step = taken.message
    assert [c.get("label") for c in step.actionable()][-2:] == ["End turn", "Undo"]
    pressed = await fake.click(alice, step, label="Undo")
    assert pressed.updated_message is step and step.content.startswith("Taken back: Alice took ")
    assert "Undo" not in [c.get("label") for c in step.actionable()], "the turn's first action is back"
    now = await state()
    assert now.field[slot] == before.field[slot] and now.seats[0].board == before.seats[0].board

    _, _, again = await take_until_end_turn(fake, alice, dm, state)
    assert (await fake.slash(alice, dm, "undo")).content.startswith("Taken back:")
    moved = (await state()).version
    stale = await fake.click(alice, again.message, label="Undo")
    assert stale.text.startswith(MOVED_ON) and (await state()).version == moved
