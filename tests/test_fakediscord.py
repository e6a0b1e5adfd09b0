"""The fake Discord server drives the real discord.py client: commands, components, files, DMs, restarts."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from tests.fakediscord import BotCrashed, FakeDiscord, HarnessError
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.limits import check_message
from tests.fakediscord.models import MANAGE_THREADS

BUTTON = discord.ui.Button[discord.ui.View]


class CounterButton(discord.ui.DynamicItem[BUTTON], template=r"count:(?P<game>\d+):(?P<n>\d+)"):
    """A button whose custom_id carries its whole state, so it survives restarts."""

    def __init__(self, game: int, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{game}:{n}"))
        self.game, self.n = game, n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CounterButton:
        return cls(int(match["game"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.game, self.n + 1))
        await interaction.response.edit_message(content=f"game {self.game} at {self.n + 1}", view=view)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=s, value=s.lower())
                                                  for s in ("Spring", "Summer", "Autumn", "Winter")])
    async def pick(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"you picked {select.values[0]}", ephemeral=True)


def png_bytes(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (40, 120, 90)).save(buffer, "PNG")
    return buffer.getvalue()


tiny = app_commands.Group(name="tiny", description="Grouped commands")


@tiny.command(name="echo", description="Repeat some text")
async def echo(interaction: discord.Interaction[Any], text: str, times: int = 1) -> None:
    await interaction.response.send_message(" ".join([text] * times))


@app_commands.command(name="square", description="Square a number")
@app_commands.describe(number="Any whole number")
async def square(interaction: discord.Interaction[Any], number: app_commands.Range[int, -1000, 1000]) -> None:
    await interaction.response.send_message(f"{number} squared is {number * number}")


@square.autocomplete("number")
async def square_numbers(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
    return [app_commands.Choice(name=f"{n} (square {n * n})", value=n)
            for n in range(1, 100) if str(n).startswith(current)][:5]


@app_commands.command(name="secret", description="A private answer")
async def secret(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("only you can see this", ephemeral=True)


@app_commands.command(name="picture", description="A PNG file")
async def picture(interaction: discord.Interaction[Any]) -> None:
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    await interaction.response.send_message(embed=embed, file=discord.File(io.BytesIO(png_bytes(32, 16)),
                                                                          "board.png"))


@app_commands.command(name="whisper", description="Send yourself a DM")
async def whisper(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.user.send(f"psst: {text}")
    await interaction.response.send_message("sent", ephemeral=True)


@app_commands.command(name="counter", description="A counter button")
async def counter(interaction: discord.Interaction[Any], game: int) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(game, 0))
    await interaction.response.send_message(f"game {game} at 0", view=view)


@app_commands.command(name="slow", description="Defer, then answer")
async def slow(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(0.05)
    await interaction.followup.send("done thinking")
    await interaction.followup.send("and one more")


@app_commands.command(name="pick", description="A select menu")
async def pick(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("pick a season", view=PickView(timeout=None))


@app_commands.command(name="shout", description="Too long for Discord")
async def shout(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("A" * 2001)


@app_commands.command(name="ping", description="Mention someone, pinging only them")
async def ping(interaction: discord.Interaction[Any], who: discord.User) -> None:
    text = f"{who.mention}, your turn ({interaction.user.mention} just played)"
    await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions(users=[who]))


@app_commands.command(name="dawdle", description="Answers too late")
async def dawdle(interaction: discord.Interaction[Any]) -> None:
    await asyncio.sleep(0.3)
    await interaction.response.send_message("sorry I am late")


class NameModal(discord.ui.Modal, title="Name your forest"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Forest name", custom_id="forest", max_length=30)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"welcome to {self.name.value}")


@app_commands.command(name="rename", description="Opens a modal")
async def rename(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(name="tidy", description="Edit the answer, post and remove a follow-up")
async def tidy(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("draft")
    original = await interaction.original_response()
    await interaction.edit_original_response(content=f"final (was {original.content})",
                                             attachments=[discord.File(io.BytesIO(png_bytes(4, 4)), "a.png")])
    extra = await interaction.followup.send("temporary", wait=True)
    await extra.delete()


@app_commands.command(name="announce", description="Post, edit and read back a channel message")
async def announce(interaction: discord.Interaction[Any]) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    posted = await interaction.channel.send("hello")
    await posted.edit(content="hello everyone")
    again = await interaction.channel.fetch_message(posted.id)
    history = [m async for m in interaction.channel.history(limit=10)]
    await interaction.response.send_message(f"{again.content} / {len(history)} in history", ephemeral=True)


@app_commands.command(name="spin", description="Start a public thread here and speak in it")
async def spin(interaction: discord.Interaction[Any], name: str) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    allowed = interaction.app_permissions.create_public_threads and interaction.app_permissions.send_messages_in_threads
    try:
        thread = await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=10080)
    except discord.Forbidden:
        await interaction.response.send_message(f"refused (allowed: {allowed})", ephemeral=True)
        return
    await thread.send("first words")
    await interaction.response.send_message(f"{thread.mention} {thread.type.value} {thread.parent_id}")


@app_commands.command(name="where", description="Say what kind of channel this is")
async def where(interaction: discord.Interaction[Any]) -> None:
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    await interaction.response.send_message(f"{type(channel).__name__} {interaction.channel_id} {parent}")


@app_commands.command(name="shut", description="Archive this thread after a last word")
async def shut(interaction: discord.Interaction[Any]) -> None:
    assert isinstance(interaction.channel, discord.Thread)
    await interaction.response.send_message("closing")
    await interaction.channel.send("last word")
    await interaction.channel.edit(archived=True)


COMMANDS: list[Any] = [tiny, square, secret, picture, whisper, counter, slow, pick, shout, ping, dawdle, rename,
                       tidy, announce, spin, where, shut]


class TinyBot(commands.Bot):
    def __init__(self, *, intents: discord.Intents | None = None, fail_setup: bool = False) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default(),
                         help_command=None)
        self.fail_setup = fail_setup

    async def setup_hook(self) -> None:
        if self.fail_setup:
            raise RuntimeError("setup exploded")
        self.add_dynamic_items(CounterButton)
        for command in COMMANDS:
            self.tree.add_command(command)
        await self.tree.sync()


@pytest.fixture
async def tiny_bot(bot_runner: BotRunner) -> TinyBot:
    return await bot_runner.start(TinyBot())


async def test_bot_logs_in_syncs_commands_and_sees_the_guild(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    names = {c["name"] for c in fake_discord.global_commands}
    assert names == {c.name for c in COMMANDS}
    assert fake_discord.gateway_connections == [("/gateway", "identify")]
    guild = tiny_bot.get_guild(fake_discord.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "table-1", "table-2"}
    assert tiny_bot.user is not None and tiny_bot.user.id == fake_discord.bot_user.id


async def test_slash_command_with_integer_option_replies_publicly(fake_discord: FakeDiscord,
                                                                 tiny_bot: TinyBot) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(fake_discord.user("alice"), general, "square", {"number": -12})
    assert result.callback_type == 4
    assert result.content == "-12 squared is 144"
    assert not result.is_ephemeral
    assert fake_discord.public_messages(general) == [result.message]


async def test_autocomplete_returns_the_bots_choices(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    choices = await fake_discord.autocomplete(fake_discord.user("bob"), fake_discord.channel("general"),
                                              "square", {"number": "4"})
    assert [c["value"] for c in choices] == [4, 40, 41, 42, 43]
    assert choices[0]["name"] == "4 (square 16)"


async def test_ephemeral_reply_is_private(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(fake_discord.user("carol"), general, "secret")
    assert result.is_ephemeral and result.content == "only you can see this"
    assert result.message.flags & 64
    assert fake_discord.public_messages(general) == []


async def test_png_file_arrives_with_its_bytes(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), fake_discord.channel("table-1"), "picture")
    [attachment] = result.message.attachments
    assert attachment.filename == "board.png"
    assert Image.open(io.BytesIO(attachment.data)).size == (32, 16)
    assert result.embeds[0]["image"]["url"] == "attachment://board.png"


async def test_dm_reaches_the_user(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    dave = fake_discord.user("dave")
    result = await fake_discord.slash(dave, fake_discord.channel("general"), "whisper", {"text": "hello"})
    assert result.is_ephemeral and result.content == "sent"
    [dm] = fake_discord.messages(fake_discord.dm_channel(dave))
    assert dm.content == "psst: hello" and dm.author is fake_discord.bot_user


async def test_slash_commands_work_inside_a_dm(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    bob = fake_discord.user("bob")
    result = await fake_discord.slash(bob, fake_discord.dm_channel(bob), "square", {"number": 7})
    assert result.content == "7 squared is 49"
    assert result.message.channel is fake_discord.dm_channel(bob)


async def test_subcommand_group_and_optional_option(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    general = fake_discord.channel("general")
    alice = fake_discord.user("alice")
    first = await fake_discord.slash(alice, general, "echo", {"text": "hi", "times": 3}, group="tiny")
    second = await fake_discord.slash(alice, general, "tiny echo", {"text": "once"})
    assert (first.content, second.content) == ("hi hi hi", "once")


async def test_dynamic_button_updates_the_message(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    alice = fake_discord.user("alice")
    posted = await fake_discord.slash(alice, fake_discord.channel("general"), "counter", {"game": 7})
    clicked = await fake_discord.click(fake_discord.user("bob"), posted.message, "count:7:0")
    assert clicked.callback_type == 7
    assert posted.message.content == "game 7 at 1"
    assert posted.message.custom_ids == ["count:7:1"]
    assert posted.message.edits == 1


async def test_dynamic_button_still_works_after_a_restart(fake_discord: FakeDiscord,
                                                          bot_runner: BotRunner) -> None:
    first = await bot_runner.start(TinyBot())
    alice = fake_discord.user("alice")
    posted = await fake_discord.slash(alice, fake_discord.channel("general"), "counter", {"game": 3})
    await fake_discord.click(alice, posted.message, label="Count 0")
    await bot_runner.stop(first)
    await bot_runner.start(TinyBot())
    await fake_discord.click(alice, posted.message, "count:3:1")
    assert posted.message.content == "game 3 at 2"
    assert [kind for _, kind in fake_discord.gateway_connections] == ["identify", "identify"]


async def test_select_menu_values_reach_the_bot(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    carol = fake_discord.user("carol")
    posted = await fake_discord.slash(carol, fake_discord.channel("general"), "pick")
    answer = await fake_discord.select(carol, posted.message, "pick", ["autumn"])
    assert answer.content == "you picked autumn" and answer.is_ephemeral


async def test_deferred_reply_is_filled_by_the_first_followup(fake_discord: FakeDiscord,
                                                              tiny_bot: TinyBot) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), fake_discord.channel("general"), "slow")
    assert result.callback_type == 5
    first, second = await result.wait_for_messages(2)
    assert (first.content, second.content) == ("done thinking", "and one more")
    assert first is result.record.original and first.is_ephemeral and not first.is_loading
    assert not second.is_ephemeral


async def test_allowed_mentions_limit_who_is_pinged(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await fake_discord.slash(alice, fake_discord.channel("general"), "ping", {"who": bob})
    assert alice.mention in result.content and bob.mention in result.content
    assert result.message.pinged_user_ids == {bob.id}
    assert [m["username"] for m in result.message.payload()["mentions"]] == ["bob"]


async def test_discord_limits_are_enforced(fake_discord: FakeDiscord, tiny_bot: TinyBot,
                                           bot_runner: BotRunner) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), fake_discord.channel("general"), "shout",
                                      wait=False)
    await fake_discord.wait_for(lambda: fake_discord.rejections or None, what="the oversized message")
    assert "2001 characters" in fake_discord.rejections[0][1][0]
    assert result.callback_type is None
    await fake_discord.wait_for(lambda: fake_discord.log_errors or None, what="the bot's error log")
    assert any("shout" in r.getMessage() for r in bot_runner.take_error_logs())


async def test_answering_after_three_seconds_is_refused(fake_discord: FakeDiscord, tiny_bot: TinyBot,
                                                        bot_runner: BotRunner) -> None:
    fake_discord.interaction_deadline = 0.1
    result = await fake_discord.slash(fake_discord.user("bob"), fake_discord.channel("general"), "dawdle",
                                      wait=False)
    await fake_discord.wait_for(lambda: result.late or None, what="the late answer")
    assert result.callback_type is None
    await fake_discord.wait_for(lambda: fake_discord.log_errors or None, what="the bot's error log")
    bot_runner.take_error_logs()


async def test_bot_resumes_after_a_dropped_connection(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    await fake_discord.disconnect_bot()
    alice = fake_discord.user("alice")
    result = await fake_discord.slash(alice, fake_discord.channel("general"), "square", {"number": 5})
    assert result.content == "5 squared is 25"
    assert fake_discord.gateway_connections[-1] == ("/gateway-resume", "resume")


async def test_modal_opens_and_its_values_reach_the_bot(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    alice, general = fake_discord.user("alice"), fake_discord.channel("general")
    opened = await fake_discord.slash(alice, general, "rename")
    assert opened.callback_type == 9 and opened.modal is not None and opened.modal["title"] == "Name your forest"
    with pytest.raises(HarnessError):
        await fake_discord.submit_modal(alice, opened, {"forest": "x" * 31})
    submitted = await fake_discord.submit_modal(alice, opened, {"forest": "Cedar Hollow"})
    assert submitted.content == "welcome to Cedar Hollow"


async def test_original_response_edits_and_follow_up_deletes(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(fake_discord.user("bob"), general, "tidy")
    await fake_discord.wait_for(lambda: (result.record.followups and result.record.followups[0].deleted) or None,
                                what="the follow-up to be deleted")
    assert result.message.content == "final (was draft)" and result.message.edits == 1
    assert [a.filename for a in result.message.attachments] == ["a.png"]
    assert fake_discord.public_messages(general) == [result.message]


async def test_channel_messages_can_be_sent_edited_and_read_back(fake_discord: FakeDiscord,
                                                                 tiny_bot: TinyBot) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(fake_discord.user("dave"), general, "announce")
    assert result.content == "hello everyone / 1 in history"
    [posted] = fake_discord.public_messages(general)
    assert posted.content == "hello everyone" and posted.revisions[0]["content"] == "hello"


async def test_a_thread_is_created_used_archived_and_reopened(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    fake, alice, general = fake_discord, fake_discord.user("alice"), fake_discord.channel("general")
    started = await fake.slash(alice, general, "spin", {"name": "A game"})
    [thread] = fake.threads(general)
    assert started.content == f"<#{thread.id}> 11 {general.id}"
    assert (thread.name, thread.type, thread.owner_id, thread.auto_archive_duration) == (
        "A game", 11, fake.bot_user.id, 10080)
    assert [m.content for m in fake.messages(thread)] == ["first words"] and thread.message_count == 1
    notice = fake.public_messages(general)[0]
    assert (notice.type, notice.content) == (18, "A game")
    known = tiny_bot.get_channel(thread.id)
    assert isinstance(known, discord.Thread) and known.parent_id == general.id, "THREAD_CREATE reached the bot"

    inside = await fake.slash(fake.user("bob"), thread, "where")
    assert inside.content == f"Thread {thread.id} {general.id}" and inside.message.channel is thread
    await fake.slash(alice, thread, "shut")
    await fake.wait_for(lambda: thread.archived or None, what="the thread to be archived")
    assert [m.content for m in fake.messages(thread)][-2:] == ["closing", "last word"]
    await fake.wait_for(lambda: tiny_bot.get_channel(thread.id) is None or None, what="THREAD_UPDATE")

    await fake.slash(alice, thread, "where")
    assert thread.archived, "an interaction answer does not reopen an archived thread"
    await fake.slash(alice, general, "announce")
    assert thread.archived and fake.rejections == []


async def test_a_bot_message_reopens_an_archived_thread_and_delete_needs_manage_threads(
        fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    fake, alice, general = fake_discord, fake_discord.user("alice"), fake_discord.channel("general")
    await fake.slash(alice, general, "spin", {"name": "Quiet"})
    [thread] = fake.threads(general)
    await fake.slash(alice, thread, "shut")
    await fake.wait_for(lambda: thread.archived or None, what="the thread to be archived")
    known = await tiny_bot.fetch_channel(thread.id)
    assert isinstance(known, discord.Thread) and known.archived
    await known.send("back again")
    assert not thread.archived and fake.messages(thread)[-1].content == "back again"
    with pytest.raises(discord.Forbidden):
        await known.delete()
    fake.guild.members[fake.bot_user.id].permissions |= MANAGE_THREADS
    await known.delete()
    assert thread.deleted and fake.threads(general) == [thread]
    with pytest.raises(discord.NotFound):
        await known.send("gone")


async def test_the_bot_may_be_refused_threads_in_one_channel(fake_discord: FakeDiscord, tiny_bot: TinyBot) -> None:
    fake, alice = fake_discord, fake_discord.user("alice")
    table = fake.channel("table-1")
    table.bot_can_create_threads = False
    refused = await fake.slash(alice, table, "spin", {"name": "Nope"})
    assert refused.content == "refused (allowed: False)" and fake.threads(table) == []
    allowed = await fake.slash(alice, fake.channel("table-2"), "spin", {"name": "Yes"})
    assert allowed.content.endswith(str(fake.channel("table-2").id))


async def test_a_bot_that_dies_mid_test_fails_the_next_wait(fake_discord: FakeDiscord, tiny_bot: TinyBot,
                                                            bot_runner: BotRunner) -> None:
    await fake_discord.dispatch("MESSAGE_CREATE", {"id": "1"})
    with pytest.raises(BotCrashed, match="KeyError"):
        await fake_discord.slash(fake_discord.user("alice"), fake_discord.channel("general"), "secret")
    with pytest.raises(BotCrashed):
        await bot_runner.stop(tiny_bot)


async def test_bot_identifies_again_after_its_session_is_invalidated(fake_discord: FakeDiscord,
                                                                     tiny_bot: TinyBot) -> None:
    await fake_discord.invalidate_session()
    await fake_discord.wait_for(lambda: len(fake_discord.sessions) == 2 or None, what="a new IDENTIFY")
    result = await fake_discord.slash(fake_discord.user("carol"), fake_discord.channel("general"), "square",
                                      {"number": 3})
    assert result.content == "3 squared is 9"
    assert [kind for _, kind in fake_discord.gateway_connections] == ["identify", "identify"]


async def test_harness_refuses_what_a_discord_client_cannot_send(fake_discord: FakeDiscord,
                                                                 tiny_bot: TinyBot) -> None:
    alice, general = fake_discord.user("alice"), fake_discord.channel("general")
    impossible: list[tuple[str, dict[str, Any]]] = [
        ("square", {"number": "12"}),
        ("square", {"number": 1001}),
        ("square", {}),
        ("square", {"number": 1, "extra": 2}),
        ("nonexistent", {}),
        ("tiny", {"text": "x"}),
    ]
    for command, options in impossible:
        with pytest.raises(HarnessError):
            await fake_discord.slash(alice, general, command, options)
    stranger = await fake_discord.add_user("stranger", member=False)
    with pytest.raises(HarnessError):
        await fake_discord.slash(stranger, general, "secret")
    private = await fake_discord.slash(alice, general, "secret")
    with pytest.raises(HarnessError):
        await fake_discord.click(fake_discord.user("bob"), private.message, "anything")
    assert len(fake_discord.interactions) == 1


async def test_crashing_setup_fails_loudly(bot_runner: BotRunner) -> None:
    with pytest.raises(BotCrashed, match="setup exploded"):
        await bot_runner.start(TinyBot(fail_setup=True))


async def test_privileged_intents_are_refused_by_default(bot_runner: BotRunner) -> None:
    with pytest.raises(BotCrashed, match="PrivilegedIntentsRequired"):
        await bot_runner.start(TinyBot(intents=discord.Intents.all()))
    bot_runner.take_error_logs()


@given(st.integers(min_value=0, max_value=2100), st.sampled_from("aé🌲 "))
def test_content_limit_matches_discord(length: int, char: str) -> None:
    content = char * length
    problems = check_message({"content": content}, attachments=0, creating=True)
    assert (problems == []) == (0 < len(content) <= 2000)


async def test_an_auto_sharded_bot_takes_the_recommended_shards_each_with_its_own_guilds(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    fake = fake_discord
    fake.recommended_shards = 3
    alice = fake.user("alice")
    placed = [await fake.add_guild(f"Shard {n}", owner=alice, shard=(n, 3)) for n in range(3)]
    bot = await bot_runner.start(commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.default()))
    assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1, 2]
    assert {g.id: g.shard_id for g in bot.guilds if g.id in {p.id for p in placed}} == \
        {guild.id: n for n, guild in enumerate(placed)}, "each guild arrived on the shard Discord gives it"
    assert [s.shard for s in fake.sessions_for(placed[2].id)] == [[2, 3]]
    assert [s.shard for s in fake.sessions_for(None)] == [[0, 3]], "direct messages go to shard 0"
    late = await fake.add_guild("Late", owner=alice, shard=(1, 3))
    for _ in range(200):  # the bot answers a GUILD_CREATE with no request the fake could wait on
        if bot.get_guild(late.id) is not None:
            break
        await asyncio.sleep(0.01)
    joined = bot.get_guild(late.id)
    assert joined is not None and joined.shard_id == 1
    assert [s.shard for s in fake.sessions_for(late.id)] == [[1, 3]]


async def test_an_identify_for_a_shard_outside_its_count_is_refused(fake_discord: FakeDiscord) -> None:
    session = aiohttp.ClientSession()
    try:
        async with session.ws_connect(fake_discord.gateway_url) as ws:
            await ws.receive_json()  # hello
            await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 0, "shard": [2, 2]}})
            closing = await ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010
    finally:
        await session.close()
    assert not fake_discord.sessions
