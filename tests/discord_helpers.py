"""Shared pieces of the end-to-end Discord tests: a bot on a database, and reading its replies."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cogs import EXTENSIONS
from cogs.bot import KeystoneBot, create_bot
from keystone.app import GameService, Where
from keystone.engine.coop import acting_player
from keystone.settings import Settings
from tests.fakediscord.harness import InteractionResult
from tests.fakediscord.models import FakeAttachment, FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord


def make_bot(db: Path | str, clock: Callable[[], float] = time.time, render_workers: int = 0,
             **settings: object) -> KeystoneBot:
    """The real bot with every cog, storing its games in `db` (a file or a server URL); its turn clocks read `clock`; it draws
    in threads unless given `render_workers` (starting processes for every test would cost seconds);
    `settings` add to its settings (shards, say: the bot is then sharded, as `bot.py` would make it)."""
    chosen = Settings(_env_file=None, keystone_db=str(db), keystone_render_workers=render_workers,
                      **settings)  # type: ignore[arg-type]
    return create_bot(chosen, extensions=list(EXTENSIONS), clock=clock)


def service_of(bot: KeystoneBot) -> GameService:
    return bot.service


def public_of(result: InteractionResult) -> FakeMessage:
    found = [m for m in result.messages if not m.is_ephemeral]
    assert found, f"no public message: {[m.content for m in result.messages]}"
    return found[0]


@dataclass
class Tally:
    """What one game cost in the channel: counted from what the fake Discord server received."""

    turns: int = 0
    turn_messages: list[FakeMessage] = field(default_factory=list)
    """Public messages other than the lobby, the start and the final score sheet."""
    private_messages: list[FakeMessage] = field(default_factory=list)
    draw_pictures: int = 0
    """Private steps that told drawn cards and carried a picture."""
    all_attachments: list[FakeAttachment] = field(default_factory=list)
    uploaded: int = 0
    """Bytes of every file the bot uploaded, private ones and edits included."""

    def per_turn(self) -> tuple[float, float, float]:
        """Public messages, pictures and bytes per turn."""
        files = [a for m in self.turn_messages for a in m.attachments]
        turns = max(1, self.turns)
        return len(self.turn_messages) / turns, len(files) / turns, sum(len(a.data) for a in files) / turns

    def summary(self) -> str:
        messages, pictures, size = self.per_turn()
        return (f"{self.turns} turns: {messages:.2f} public messages, {pictures:.2f} pictures, "
                f"{size / 1024:.0f} KB per turn; {len(self.private_messages)} private messages; "
                f"{self.uploaded / 1024:.0f} KB uploaded in all")


def _with_controls(result: InteractionResult) -> FakeMessage | None:
    """The newest message of an answer that offers controls (a step to answer)."""
    found = [m for m in [*result.messages, result.updated_message] if m is not None and not m.deleted]
    offering = [m for m in found if m.actionable()]
    return offering[-1] if offering else None


async def _answer(fake: FakeDiscord, user: FakeUser, message: FakeMessage) -> InteractionResult:
    """Answer a step with the first choice of its first select menu, else its first button."""
    comps = message.actionable()
    select = next((c for c in comps if c.get("type") == 3), None)
    if select is not None:
        return await fake.select(user, message, select["custom_id"], [select["options"][0]["value"]])
    button = next(c for c in comps if c.get("type") == 2)
    return await fake.click(user, message, str(button["custom_id"]))


async def play_three_with_a_bot(fake: FakeDiscord, bot: KeystoneBot, channel: FakeChannel,
                                seed: int = 0) -> Tally:
    """Alice, Bob and a bot play a whole game in `channel`: the people take the rightmost card,
    and use a drawing skill (1 or 11) whenever one is ready, answering its steps with the first choice."""
    service = service_of(bot)
    service._seeds = lambda: seed
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 3})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Add bot")
    await fake.click(alice, lobby.message, label="Start")
    await fake.quiet()
    start = fake.public_messages(channel)[-1]
    where = Where(channel_id=channel.id, guild_id=channel.guild_id)
    offered: FakeMessage | None = None
    for _ in range(600):
        found = await service.state_here(where)
        if found is None:
            break
        record, state = found
        user = users[record.seats[acting_player(state)].user_id or 0]
        if state.phase == "resolve":
            assert offered is not None, "a step waits but no message offers its controls"
            result = await _answer(fake, user, offered)
        elif state.phase == "after":
            result = await fake.slash(user, channel, "endturn")
        else:
            skills = await fake.autocomplete(user, channel, "skill", {"token": ""})
            drawing = [s["value"] for s in skills if s["value"] in ("1", "11")]
            if drawing:
                result = await fake.slash(user, channel, "skill", {"token": drawing[0]})
            else:
                cards = await fake.autocomplete(user, channel, "take", {"card": ""}, focused="card")
                cells = await fake.autocomplete(user, channel, "take", {"card": cards[-1]["value"], "cell": ""},
                                                focused="cell")
                result = await fake.slash(user, channel, "take", {"card": cards[-1]["value"],
                                                                  "cell": cells[0]["value"]})
        await fake.quiet()
        offered = _with_controls(result)
    else:
        raise AssertionError("the game did not end")
    public = fake.public_messages(channel)
    final = next(m for m in reversed(public) if "Final scores" in m.content or "wins" in m.content)
    tally = Tally(turns=sum(s.turns for s in (await service.store.load_game(record.id)).state.seats))
    tally.turn_messages = [m for m in public if m.id > start.id and m is not final]
    tally.private_messages = [m for m in fake.messages(channel) if m.is_ephemeral]
    tally.draw_pictures = sum(1 for m in tally.private_messages for seen in [*m.revisions, m.snapshot()]
                              if "You drew" in seen["content"] and seen["attachments"])
    tally.uploaded = sum(len(a.data) for a in fake.uploads)
    tally.all_attachments = [a for m in fake.messages(channel) for a in m.attachments]
    return tally


async def cheap_turn(fake: FakeDiscord, channel: FakeChannel, user: FakeUser,
                     last: FakeMessage | None = None) -> FakeMessage:
    """`/take` the rightmost card into the first empty cell, end the turn if it waits for a Wild,
    and return the newest public message (the turn told, or the bots' turns after it)."""
    mark = fake.mark()
    cards = await fake.autocomplete(user, channel, "take", {"card": ""}, focused="card")
    cells = await fake.autocomplete(user, channel, "take", {"card": cards[-1]["value"], "cell": ""}, focused="cell")
    result = await fake.slash(user, channel, "take", {"card": cards[-1]["value"], "cell": cells[0]["value"]})
    if result.is_ephemeral and any(c.get("label") == "End turn" for c in result.message.actionable()):
        await fake.click(user, result.message, label="End turn")
    await fake.quiet()
    told = [m for m in fake.public_messages(channel) if m.id > mark]
    assert told, f"no public message: {result.content}"
    return told[-1]
