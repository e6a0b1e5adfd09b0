"""Discord adapter for the game: slash commands, autocomplete, buttons and select menus.

Thin by design: every command turns its options into a call on `GameService` and posts the
`Reply` it gets back. Buttons and selects are `DynamicItem`s whose custom ids carry the game id
and state version, so they keep working after a restart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.autocomplete import (
    card_autocomplete,
    cell_autocomplete,
    habitat_autocomplete,
    replay_autocomplete,
    seat_autocomplete,
    skill_autocomplete,
    topic_autocomplete,
)
from cogs.bot import KeystoneBot
from cogs.common import (
    EVERYWHERE,
    INSTALLS,
    actor_of,
    run,
    where_of,
)
from cogs.controls import DYNAMIC_ITEMS
from cogs.outbox import files_of, public_message, send_public
from keystone.app import Actor, GameService, Reply, Where, clock, threads
from keystone.app.clock import Pace
from keystone.app.daily import Show
from keystone.app.daily import say as say_daily
from keystone.app.language import LanguageChoice, Whose
from keystone.app.listing import Scope
from keystone.app.lobby import Lobby, Mode
from keystone.app.text import habitat_value
from keystone.cards import Ruleset
from keystone.engine.bots import LEVELS, Level
from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.i18n import LANGUAGE_NAMES, Language

log = logging.getLogger(__name__)

LANGUAGE_CHOICES = [*(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
                    app_commands.Choice(name="Auto (Discord's language)", value="auto")]
FOR_SERVER = app_commands.locale_str("This server", key="choice.server.for")
"""`/keystone language for:` this server, with a key of its own: German says "für: diesen Server"."""
PACE_CHOICES = [app_commands.Choice(name=clock.pace_words(pace).capitalize(), value=pace) for pace in clock.PACES]


def _clean_cell(cell: str) -> str:
    return cell.strip().upper()


def _number(text: str) -> str:
    """The leading number of an autocomplete value or of what a user typed ("3 - Snail Kite" -> "3")."""
    match = re.match(r"\s*(\d+)", text)
    return match.group(1) if match else text.strip()


# ---------------------------------------------------------------------- games in threads


@dataclass(frozen=True, slots=True)
class NewOptions:
    """What `/keystone new` was asked for, to check before a thread is opened and to open the game with."""

    players: int
    rules: Ruleset
    mode: Mode
    assignment: int | None
    opponent: Level | None
    envelope: bool
    pace: Pace | None
    hints: bool | None = None

    def open(self, service: Lobby, where: Where, actor: Actor) -> Awaitable[Reply]:
        return service.new(where, actor, self.players, self.rules, mode=self.mode, assignment=self.assignment,
                           opponent=self.opponent, envelope=self.envelope, pace=self.pace, hints=self.hints)

    async def problem(self, service: Lobby, where: Where, actor: Actor) -> str | None:
        return await service.why_not_new(where, actor, self.players, mode=self.mode, assignment=self.assignment,
                                         opponent=self.opponent, envelope=self.envelope, pace=self.pace)


def thread_problem(interaction: discord.Interaction[Any], lang: Language) -> str | None:
    """Why no game thread can be opened from here (a DM, a thread, missing permissions), or None; in `lang`."""
    if interaction.guild_id is None:
        return threads.say(lang, "threads.not_in_dm")
    if isinstance(interaction.channel, discord.Thread):
        return threads.say(lang, "threads.not_in_thread")
    if not isinstance(interaction.channel, discord.TextChannel):
        return threads.say(lang, "threads.not_a_text_channel")
    allowed = interaction.app_permissions
    missing = [name for name, ok in ((threads.CREATE_PUBLIC_THREADS, allowed.create_public_threads),
                                     (threads.SEND_MESSAGES_IN_THREADS, allowed.send_messages_in_threads)) if not ok]
    return threads.missing_permissions(missing, lang) if missing else None


async def _discard(thread: discord.Thread) -> None:
    """Remove a thread whose game could not be opened after all: deleted, or archived when that is refused."""
    try:
        await thread.delete()
    except discord.HTTPException:
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("could not remove the empty game thread %s: %s", thread.id, exc)


# ---------------------------------------------------------------------- the cog


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class KeystoneCog(commands.Cog, name="Keystone"):
    """Lobbies, turns and pictures for Keystone games in channels and direct messages."""

    keystone = app_commands.Group(name="keystone", description="Keystone: lobbies, pictures, scores and rules",
                                  allowed_contexts=EVERYWHERE, allowed_installs=INSTALLS)

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    # --- lobby

    @keystone.command(name="new", description="Open a game lobby here (in a direct message: start a solo game)")
    @app_commands.describe(players="How many players (1 to 4; 2 if left out)",
                           rules="Second edition (default) or the first-edition variant",
                           mode="Competitive (default), or co-op: partners share one board",
                           assignment="A Field Journal assignment to play (co-op in a channel, solo in a DM)",
                           opponent="Seat a bot of this level (in a DM the game starts against it at once)",
                           envelope="Add the sealed envelope's cards (opened by starting the last assignment)",
                           thread="Open the game in its own new thread of this channel, so the channel hosts many",
                           pace="How long a turn may take: live 10 minutes, daily 24 hours (default), relaxed 3 days",
                           hints="Allow /keystone hint (default: yes, except in rated games; "
                                 "a hinted game is not rated)")
    @app_commands.choices(rules=[app_commands.Choice(name="Second edition", value="second-edition"),
                                 app_commands.Choice(name="First-edition variant", value="first-edition")],
                          mode=[app_commands.Choice(name="Competitive", value="competitive"),
                                app_commands.Choice(name="Co-op (one shared board)", value="coop")],
                          opponent=[app_commands.Choice(name=level.capitalize(), value=level) for level in LEVELS],
                          pace=PACE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], players: app_commands.Range[int, 1, 4] = 2,
                  rules: Ruleset = "second-edition", mode: Mode = "competitive",
                  assignment: app_commands.Range[int, 1, LAST_ASSIGNMENT] | None = None,
                  opponent: Level | None = None, envelope: bool = False, thread: bool = False,
                  pace: Pace | None = None, hints: bool | None = None) -> None:
        options = NewOptions(players, rules, mode, assignment, opponent, envelope, pace, hints)
        work = self._new_in_thread(interaction, options) if thread else options.open(
            self.service, where_of(interaction), actor_of(interaction))
        await run(interaction, work)

    async def _new_in_thread(self, interaction: discord.Interaction[Any], options: NewOptions) -> Reply:
        """Open a public thread of this channel and the game in it; the channel gets a line pointing there.

        Everything that could refuse is asked first, so a refusal leaves no empty thread behind."""
        channel, actor = interaction.channel, actor_of(interaction)
        speaking = await self.service.languages(where_of(interaction), actor)
        problem = (thread_problem(interaction, speaking.private)
                   or await options.problem(self.service, where_of(interaction), actor))
        if problem is not None:
            return Reply.refuse(problem)
        assert isinstance(channel, discord.TextChannel)  # thread_problem refuses every other place
        try:
            made = await channel.create_thread(name=threads.thread_name(actor.name, speaking.public),
                                               type=discord.ChannelType.public_thread,
                                               auto_archive_duration=threads.ARCHIVE_AFTER_MINUTES)
        except discord.HTTPException as exc:
            log.warning("Discord refused a game thread in channel %s: %s", channel.id, exc)
            return Reply.refuse(threads.say(speaking.private, "threads.refused"))
        opened = await options.open(self.service, replace(where_of(interaction), channel_id=made.id), actor)
        if opened.public is None:
            await _discard(made)
            return opened
        await send_public(made, opened)
        return Reply(public=threads.opened_line(actor.name, made.id, speaking.public), private=opened.private,
                     private_files=opened.private_files)

    @keystone.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.lobby(where_of(interaction), actor_of(interaction), "join"))

    @keystone.command(name="leave", description="Give up your seat in this channel's lobby")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.lobby(where_of(interaction), actor_of(interaction), "leave"))

    @keystone.command(name="start", description="Start the game in this channel's lobby (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.lobby(where_of(interaction), actor_of(interaction), "start"))

    # --- looking

    @keystone.command(name="board", description="Show a seat's board, bots' too (yours if no seat is named)")
    @app_commands.describe(seat="The seat whose board to show")
    @app_commands.autocomplete(seat=seat_autocomplete)
    async def board(self, interaction: discord.Interaction[Any], seat: str | None = None) -> None:
        await run(interaction, self.service.board(where_of(interaction), actor_of(interaction), seat), private=True)

    @keystone.command(name="field", description="Show the Field: the six cards to take and what each costs")
    async def field(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.field(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="hint",
                      description="On your turn: the move the hard bot would play for you (only you see it)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.hint(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="objective", description="Show your secret objective (only you see it)")
    async def objective(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.objective(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="score", description="Show the scores so far, without secret objectives")
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.score(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="log", description="Show the moves played so far in this channel's game")
    async def log_(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.game_log(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="games", description="List your lobbies and running games everywhere, your turns first")
    @app_commands.describe(scope="Your games everywhere (default), or every game in this server")
    @app_commands.choices(scope=[app_commands.Choice(name="Mine, everywhere", value="mine"),
                                 app_commands.Choice(name="This server", value="server")])
    async def games(self, interaction: discord.Interaction[Any], scope: Scope = "mine") -> None:
        await run(interaction, self.service.games(where_of(interaction), actor_of(interaction), scope), private=True)

    @keystone.command(name="stats", description="Show a player's record: games, wins, scores, stars and rating")
    @app_commands.describe(user="Whose record to show (yours if left out)")
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        work = self.service.stats(where_of(interaction), actor_of(interaction),
                                  user.id if user else None, user.display_name if user else None)
        await run(interaction, work, private=True)

    @keystone.command(name="leaderboard", description="Show this server's players (and bots) ranked by rating")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.leaderboard(where_of(interaction), actor_of(interaction)))

    @keystone.command(name="history", description="List your finished games, newest first, to replay them")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.history(actor_of(interaction)), private=True)

    @keystone.command(name="replay", description="Watch a finished game's boards grow turn by turn")
    @app_commands.describe(game="The game's number (your finished games and this channel's are offered)")
    @app_commands.autocomplete(game=replay_autocomplete)
    async def replay(self, interaction: discord.Interaction[Any], game: str) -> None:
        await run(interaction, self.service.replay(where_of(interaction), actor_of(interaction), game))

    # --- the daily challenge

    @keystone.command(name="daily", description="Today's daily challenge: one solo game, the same for everyone, by DM")
    @app_commands.describe(show="Play today's game (default), or see this server's board of today or of yesterday")
    @app_commands.choices(show=[app_commands.Choice(name="Play today's game", value="play"),
                                app_commands.Choice(name="This server's board of today", value="board"),
                                app_commands.Choice(name="This server's board of yesterday", value="yesterday")])
    async def daily(self, interaction: discord.Interaction[Any], show: Show = "play") -> None:
        where, actor = where_of(interaction), actor_of(interaction)
        if show != "play":
            await run(interaction, self.service.daily_board(where, actor, show), private=True)
        elif where.is_dm:
            await run(interaction, self.service.daily(where, actor))
        else:
            await self._daily_by_dm(interaction)

    async def _daily_by_dm(self, interaction: discord.Interaction[Any]) -> None:
        """Asked in a server: the game's messages go to the person's direct message, the note stays private here."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            dm: discord.DMChannel | None = interaction.user.dm_channel or await interaction.user.create_dm()
        except discord.HTTPException as exc:
            log.warning("could not open a direct message with user %s: %s", interaction.user.id, exc)
            dm = None
        where, actor = where_of(interaction), actor_of(interaction)
        reply = await self.service.daily(where, actor, dm.id if dm else None)
        note = reply.private or ""
        if dm is not None and reply.public is not None:
            try:
                for message in (reply, *reply.more):
                    await dm.send(files=files_of(message.files), **public_message(message))
            except discord.Forbidden:
                note = say_daily((await self.service.languages(where, actor)).private, "daily.dms_closed")
        await interaction.followup.send(content=note[:2000], ephemeral=True)

    @keystone.command(name="rules", description="Explain a rule of the game")
    @app_commands.describe(topic="Which rule (leave out for the list of topics)")
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await run(interaction, self.service.rules(where_of(interaction), actor_of(interaction), topic), private=True)

    @keystone.command(name="help", description="List the Keystone commands")
    @app_commands.describe(topic="Starting and playing a game (default), or every other command")
    @app_commands.choices(topic=[app_commands.Choice(name="Playing a game", value="basics"),
                                 app_commands.Choice(name="More commands", value="more")])
    async def help(self, interaction: discord.Interaction[Any],
                   topic: Literal["basics", "more"] = "basics") -> None:
        await run(interaction, self.service.help(where_of(interaction), actor_of(interaction), topic), private=True)

    @keystone.command(name="language", description="Choose the bot's language for you, or for this server")
    @app_commands.describe(language="English, Deutsch, or Auto: follow Discord's language again",
                           for_="Me: my private answers (default); Server: this server's public messages "
                                "(server managers)")
    @app_commands.rename(for_="for")
    @app_commands.choices(language=LANGUAGE_CHOICES,
                          for_=[app_commands.Choice(name="Me", value="me"),
                                app_commands.Choice(name=FOR_SERVER, value="server")])
    async def language(self, interaction: discord.Interaction[Any], language: LanguageChoice,
                       for_: Whose = "me") -> None:
        work = self.service.set_language(where_of(interaction), actor_of(interaction), language, for_)
        await run(interaction, work, private=True)

    @keystone.command(name="resign", description="Give up your game in this channel; the others are ranked")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.resign(where_of(interaction), actor_of(interaction)))

    @keystone.command(name="abandon", description="End this channel's game without a result (host or channel managers)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.abandon(where_of(interaction), actor_of(interaction)))

    # --- turn clocks and absent players

    clock_group = app_commands.Group(name="clock", description="The turn clock of this channel's game (host only)",
                                     parent=keystone)

    @clock_group.command(name="pace", description="Change how long each turn may take; this turn restarts from now")
    @app_commands.describe(pace="live 10 minutes, daily 24 hours, relaxed 3 days a turn")
    @app_commands.choices(pace=PACE_CHOICES)
    async def clock_pace(self, interaction: discord.Interaction[Any], pace: Pace) -> None:
        await run(interaction, self.service.set_pace(where_of(interaction), actor_of(interaction), pace))

    @clock_group.command(name="pause", description="Stop the clock (holidays): no reminders, no turn runs out")
    async def clock_pause(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.pause_clock(where_of(interaction), actor_of(interaction)))

    @clock_group.command(name="resume", description="Start the clock again where it stopped")
    async def clock_resume(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.resume_clock(where_of(interaction), actor_of(interaction)))

    @keystone.command(name="notify", description="Also get your turn reminders by direct message (or stop them)")
    @app_commands.describe(on="True: reminders by direct message too; False: only in the game's channel")
    async def notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        await run(interaction, self.service.notify(actor_of(interaction), on), private=True)

    # --- forgetting (top-level: /keystone holds Discord's limit of 25 subcommands, and only a top-level
    # command can carry default permissions; the service checks the member's permissions itself)

    @app_commands.command(name="keystone-forget-me",
                          description="Ask the bot to forget you (after a confirmation button)")
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.ask_forget_me(actor_of(interaction)), private=True)

    @app_commands.command(name="keystone-forget-server",
                          description="Ask the bot to forget this server (server managers)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def forget_server(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.ask_forget_server(where_of(interaction), actor_of(interaction)),
                  private=True)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data is forgotten 30 days from now unless the bot is added back."""
        await self.service.server_left(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """In the server (again, perhaps added back while the bot was offline): nothing of it is forgotten."""
        await self.service.server_back(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.service.server_back(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Servers the bot was removed from while it was offline count as left from now."""
        shards = self.bot.served_shards if isinstance(self.bot, KeystoneBot) else None
        left = await self.service.servers_present({g.id for g in self.bot.guilds}, shards=shards)
        if left:
            log.info("%d server(s) removed the bot while it was offline; forgotten in 30 days", left)

    @keystone.command(name="away", description="Vote to let a bot play a seat whose turn is running late")
    @app_commands.describe(seat="The seat whose player is away")
    @app_commands.autocomplete(seat=seat_autocomplete)
    async def away(self, interaction: discord.Interaction[Any], seat: str) -> None:
        await run(interaction, self.service.vote_away(where_of(interaction), actor_of(interaction), seat))

    @keystone.command(name="back", description="Take your seat back from the bot that played it while you were away")
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.back(where_of(interaction), actor_of(interaction)))

    # --- turns

    @app_commands.command(name="take", description="Introduce a Field card onto your board")
    @app_commands.describe(card="Field slot 1-6 (1 is the leftmost card)", cell="Empty board cell, A1 to D4")
    @app_commands.autocomplete(card=card_autocomplete, cell=cell_autocomplete)
    async def take(self, interaction: discord.Interaction[Any], card: str, cell: str) -> None:
        notation = f"take {_number(card)} {_clean_cell(cell)}"
        await run(interaction, self.service.act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="skill", description="Use a skill token (0 resolves every exhausted token)")
    @app_commands.describe(token="Skill number, or 0 for all exhausted tokens")
    @app_commands.autocomplete(token=skill_autocomplete)
    async def skill(self, interaction: discord.Interaction[Any], token: str) -> None:
        notation = f"skill {_number(token)}"
        await run(interaction, self.service.act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="wild", description="Buy a Wild card this turn and place it")
    @app_commands.describe(habitat="forest, desert, wetland or arctic", cell="Empty board cell, A1 to D4")
    @app_commands.autocomplete(habitat=habitat_autocomplete, cell=cell_autocomplete)
    async def wild(self, interaction: discord.Interaction[Any], habitat: str, cell: str) -> None:
        notation = f"wild {habitat_value(habitat)} {_clean_cell(cell)}"
        await run(interaction, self.service.act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="endturn", description="End your turn without buying a Wild card")
    async def endturn(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.act(where_of(interaction), actor_of(interaction), "endturn"))

    @app_commands.command(name="undo", description="Take back your last action of this turn (before any card is drawn)")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.undo(where_of(interaction), actor_of(interaction)))

    @app_commands.command(name="learn", description="Learn Keystone: a guided first game in a direct message")
    async def learn(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.learn(where_of(interaction), actor_of(interaction)))

    @app_commands.command(name="review",
                          description="After a game: your moves beside the hard bot's, and what cost you most")
    @app_commands.describe(game="The game's number (your finished games and this channel's are offered)")
    @app_commands.autocomplete(game=replay_autocomplete)
    async def review(self, interaction: discord.Interaction[Any], game: str) -> None:
        await run(interaction, self.service.review(where_of(interaction), actor_of(interaction), game), private=True)


async def setup(bot: KeystoneBot) -> None:
    await bot.add_cog(KeystoneCog(bot, bot.service))
