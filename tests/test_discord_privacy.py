"""End to end: `/keystone-forget-me` through the real discord.py client and the fake Discord: the
confirmation button, someone else's press of it refused, and the person forgotten while their game
plays on with a bot in their seat."""

from __future__ import annotations

from pathlib import Path

from keystone.store import Store
from tests.discord_helpers import make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.harness import InteractionResult
from tests.fakediscord.models import MESSAGE_COMPONENT
from tests.fakediscord.server import FakeDiscord
from tests.test_privacy import holding


async def test_forget_me_asks_refuses_someone_elses_press_and_forgets(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    zoe, bob = await fake.add_user("zoë ёлка 山田 🦊"), fake.user("bob")
    general, table = fake.channel("general"), fake.channel("table-1")
    lobby = await fake.slash(zoe, table, "keystone new", {"players": 2})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(zoe, lobby.message, label="Start")
    await fake.quiet()

    asked = await fake.slash(zoe, general, "keystone-forget-me")
    assert asked.is_ephemeral and asked.content.startswith("**Forget you?**")
    [button] = asked.message.buttons
    assert button["label"] == "Forget me" and str(zoe.id) in button["custom_id"]
    data = {"custom_id": button["custom_id"], "component_type": 2}
    pressed = InteractionResult(fake, await fake.send_interaction(MESSAGE_COMPONENT, bob, general, data,
                                                                  message=asked.message))
    await pressed.wait_answered()
    assert pressed.is_ephemeral and "someone else's request" in pressed.content

    done = await fake.click(zoe, asked.message, label="Forget me")
    assert done.is_ephemeral and done.content.startswith("Done: the bot has forgotten you.")
    told = await fake.wait_for_message(table, lambda m: "asked the bot to forget them" in m.content)
    assert f"<@{bob.id}>" in told.content, "Bob decides next (after the bot's turn, if hers was due)"
    store = await Store.open(tmp_path / "ks.db")
    try:
        assert await holding(store, str(zoe.id), "Zoë Ёлка 山田 🦊", "Zoë") == []
        [game] = await store.list_games("active")
        assert [s.name for s in game.seats] == ["Bot for a former player", "Bob"]
    finally:
        await store.close()
