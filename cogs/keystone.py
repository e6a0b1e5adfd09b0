"""Discord adapter for the game: slash commands, autocomplete, buttons and select menus.

Thin by design: every command turns its options into a call on `GameService` and posts the
`Reply` it gets back. Buttons and selects are `DynamicItem`s whose custom ids carry the game id
and state version, so they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from keystone.app import Actor, Control, GameService, Reply, Where, ids
from keystone.app.service import BOT_LEVELS
from keystone.app.text import HELP, RULES, rules_text
from keystone.store import Store

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0
"""Seconds to wait for the service before deferring (Discord allows three for the first answer)."""
DUE_BOT_TURNS_EVERY = 30.0
"""Seconds between looks for bot turns that a failure left undone (start-up looks everywhere once)."""

STYLES = {
    "primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger,
}
HABITATS = ["forest", "desert", "wetland", "arctic"]
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)


def where_of(interaction: discord.Interaction[Any]) -> Where:
    return Where(channel_id=interaction.channel_id or interaction.user.id, guild_id=interaction.guild_id)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    perms = interaction.permissions
    return Actor(interaction.user.id, interaction.user.display_name, can_manage=perms.manage_channels)


def build_view(controls: list[Control]) -> discord.ui.View | None:
    """A view holding the controls; stopped at once, because the DynamicItems answer the presses."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for c in controls[:25]:
        item: discord.ui.Item[discord.ui.View]
        if c.is_select:
            options = [discord.SelectOption(label=o.label[:100], value=o.value, description=o.description)
                       for o in c.options]
            item = discord.ui.Select(custom_id=c.custom_id, placeholder=c.label[:150], options=options)
        else:
            item = discord.ui.Button(label=c.label[:80], style=STYLES[c.style], custom_id=c.custom_id)
        try:
            view.add_item(item)
        except ValueError:
            log.warning("dropped a control that did not fit: %s", c.custom_id)
    view.stop()
    return view


def _files(files: list[tuple[str, bytes]]) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in files]


def public_message(reply: Reply) -> dict[str, Any]:
    """The public part of a Reply as message arguments (files apart), mentioning only whom it names."""
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(u) for u in reply.mention])
    kwargs: dict[str, Any] = {"content": (reply.public or "")[:2000], "allowed_mentions": mentions}
    view = build_view(reply.controls)
    if view is not None:
        kwargs["view"] = view
    return kwargs


async def post(interaction: discord.Interaction[Any], reply: Reply, *, edit: bool = False,
               deferred_publicly: bool = False) -> None:
    """Post a Reply: the public part in the channel, the private part to the actor only.

    After a public "thinking..." deferral, Discord makes the first follow-up replace that message
    and keep its visibility whatever flags the follow-up asks for; so a reply with nothing public
    first deletes the thinking message, and its private part then arrives as a private message."""
    response = interaction.response
    if reply.public is None and deferred_publicly:
        await interaction.delete_original_response()
    if reply.public is not None:
        kwargs = public_message(reply)
        if edit and not response.is_done():
            await response.edit_message(attachments=_files(reply.files), **kwargs)
        elif edit and response.type is discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(attachments=_files(reply.files), **kwargs)
        elif not response.is_done():
            await response.send_message(files=_files(reply.files), **kwargs)
        else:
            await interaction.followup.send(files=_files(reply.files), **kwargs)
    if reply.private is not None or reply.private_files or reply.private_controls:
        private: dict[str, Any] = {"content": (reply.private or "")[:2000], "ephemeral": True,
                                   "files": _files(reply.private_files)}
        view = build_view(reply.private_controls)
        if view is not None:
            private["view"] = view
        if not response.is_done():
            await response.send_message(**private)
        else:
            await interaction.followup.send(**private)


async def run(interaction: discord.Interaction[Any], work: Any, *, edit: bool = False, private: bool = False) -> None:
    """Await the service; if it is slow, defer, then post what it says.

    The deferral is chosen before the answer is known, so it must never make a private answer
    public: answers that are always private (`private=True`) defer privately; a button or menu
    defers without a message of its own, so each later message keeps its own visibility."""
    task: asyncio.Task[Reply] = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    deferred_publicly = False
    if not done:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
            deferred_publicly = not private
    await post(interaction, await task, edit=edit, deferred_publicly=deferred_publicly)


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    cog = interaction.client.get_cog("Keystone")
    if not isinstance(cog, KeystoneCog) or cog.service is None:
        raise RuntimeError("the Keystone cog is not loaded")
    return cog.service


# ---------------------------------------------------------------------- dynamic items


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.ACT.pattern):
    """A button that plays one action at one game version."""

    def __init__(self, game: int, version: int, notation: str) -> None:
        super().__init__(discord.ui.Button(label=notation, custom_id=ids.act_id(game, version, notation)))
        self.game, self.version, self.notation = game, version, notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActButton:
        return cls(int(match["game"]), int(match["version"]), ids.notation_of(match["notation"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction)
        await run(interaction, service.act(where_of(interaction), actor_of(interaction), self.notation,
                                           game_id=self.game, version=self.version))


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.SELECT.pattern):
    """A select menu whose values are whole actions or the first half of one."""

    def __init__(self, game: int, version: int, tag: str) -> None:
        super().__init__(discord.ui.Select(custom_id=ids.select_id(game, version, tag),
                                           options=[discord.SelectOption(label="-")]))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        return cls(int(match["game"]), int(match["version"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if not values:
            await post(interaction, Reply.refuse("Pick one of the choices."))
            return
        service = service_of(interaction)
        await run(interaction, service.choose(where_of(interaction), actor_of(interaction), self.game,
                                              self.version, str(values[0])))


class ShowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.SHOW.pattern):
    """Opens the acting player's private choices (cards only they may see)."""

    def __init__(self, game: int, version: int) -> None:
        super().__init__(discord.ui.Button(label="Choose", custom_id=ids.show_id(game, version)))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ShowButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction)
        await run(interaction, service.show_choices(where_of(interaction), actor_of(interaction), self.game,
                                                      self.version))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY.pattern):
    """Join, Leave, Add bot and Start on a lobby message."""

    def __init__(self, game: int, what: str) -> None:
        super().__init__(discord.ui.Button(label=what, custom_id=ids.lobby_id(game, what)))
        self.game, self.what = game, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction)
        work = service.lobby(where_of(interaction), actor_of(interaction), self.what, game_id=self.game)
        await run(interaction, work, edit=self.what != "start")


class LevelSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.LEVEL.pattern):
    """The lobby's select that seats a bot of the chosen level."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Select(custom_id=ids.level_id(game), options=[discord.SelectOption(label="-")]))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LevelSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if not values:
            await post(interaction, Reply.refuse("Pick a level for the bot."))
            return
        service = service_of(interaction)
        work = service.lobby(where_of(interaction), actor_of(interaction), "bot", game_id=self.game,
                             level=str(values[0]))
        await run(interaction, work, edit=True)


DYNAMIC_ITEMS = (ActButton, ChoiceSelect, ShowButton, LobbyButton, LevelSelect)


# ---------------------------------------------------------------------- autocomplete


async def _suggest(interaction: discord.Interaction[Any], verb: str, typed: str) -> list[app_commands.Choice[str]]:
    service = service_of(interaction)
    pairs = await service.suggest(where_of(interaction), actor_of(interaction), verb, typed)
    return [app_commands.Choice(name=label, value=value) for label, value in pairs]


async def card_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return await _suggest(interaction, "take", current)


async def cell_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return await _suggest(interaction, "cell", current)


async def skill_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return await _suggest(interaction, "skill", current)


async def habitat_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    found = await _suggest(interaction, "habitat", current)
    return found or [app_commands.Choice(name=h, value=h) for h in HABITATS if current.lower() in h]


async def topic_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t, value=t) for t in RULES if current.lower() in t]


def _clean_cell(cell: str) -> str:
    return cell.strip().upper()


def _number(text: str) -> str:
    """The leading number of an autocomplete value or of what a user typed ("3 - Snail Kite" -> "3")."""
    match = re.match(r"\s*(\d+)", text)
    return match.group(1) if match else text.strip()


# ---------------------------------------------------------------------- the cog


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class KeystoneCog(commands.Cog, name="Keystone"):
    """Lobbies, turns and pictures for Keystone games in channels and direct messages."""

    keystone = app_commands.Group(name="keystone", description="Keystone: lobbies, pictures, scores and rules",
                                  allowed_contexts=EVERYWHERE, allowed_installs=INSTALLS)

    def __init__(self, bot: commands.Bot, store: Store | None = None) -> None:
        self.bot = bot
        self._own_store = store is None
        self.store = store
        self.service: GameService | None = None if store is None else GameService(store)

    async def cog_load(self) -> None:
        if self.store is None:
            settings = getattr(self.bot, "settings", None)
            self.store = await Store.open(getattr(settings, "keystone_db", "./keystone.db"))
            self.service = GameService(self.store)
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.due_bot_turns.start()

    async def cog_unload(self) -> None:
        self.due_bot_turns.cancel()
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if self._own_store and self.store is not None:
            await self.store.close()

    def _svc(self) -> GameService:
        assert self.service is not None
        return self.service

    # --- bot turns nobody is waiting on an interaction for

    @tasks.loop(seconds=DUE_BOT_TURNS_EVERY)
    async def due_bot_turns(self) -> None:
        """Play bot turns left undone: at start-up in every running game (a crash may have come
        between a person's saved move and the bot's reply), later where a failure interrupted one."""
        everywhere = self.due_bot_turns.current_loop == 0
        try:
            posts = await self._svc().play_due_bot_turns(everywhere=everywhere)
        except Exception:
            log.exception("could not look for due bot turns")
            return
        for channel_id, reply in posts:
            await self._announce(channel_id, reply)

    @due_bot_turns.before_loop
    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _announce(self, channel_id: int, reply: Reply) -> None:
        """Post a public Reply in a game's channel when no interaction is there to answer."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(files=_files(reply.files), **public_message(reply))
        except discord.HTTPException as exc:
            log.warning("could not post a bot turn in channel %s: %s", channel_id, exc)

    # --- lobby

    @keystone.command(name="new", description="Open a game lobby here (in a direct message: start a solo game)")
    @app_commands.describe(players="How many players (1 to 4; 2 if left out)",
                           rules="Second edition (default) or the first-edition variant",
                           mode="Competitive (default), or co-op: partners share one board",
                           assignment="A Field Journal assignment to play (co-op in a channel, solo in a DM)",
                           opponent="Seat a bot of this level (in a DM the game starts against it at once)",
                           envelope="Add the sealed envelope's cards (opened by starting the last assignment)")
    @app_commands.choices(rules=[app_commands.Choice(name="Second edition", value="second-edition"),
                                 app_commands.Choice(name="First-edition variant", value="first-edition")],
                          mode=[app_commands.Choice(name="Competitive", value="competitive"),
                                app_commands.Choice(name="Co-op (one shared board)", value="coop")],
                          opponent=[app_commands.Choice(name=level.capitalize(), value=level) for level in BOT_LEVELS])
    async def new(self, interaction: discord.Interaction[Any], players: app_commands.Range[int, 1, 4] = 2,
                  rules: str = "second-edition", mode: str = "competitive",
                  assignment: app_commands.Range[int, 1, 20] | None = None, opponent: str | None = None,
                  envelope: bool = False) -> None:
        work = self._svc().new(where_of(interaction), actor_of(interaction), players, rules, mode=mode,
                               assignment=assignment, opponent=opponent, envelope=envelope)
        await run(interaction, work)

    @keystone.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().lobby(where_of(interaction), actor_of(interaction), "join"))

    @keystone.command(name="leave", description="Give up your seat in this channel's lobby")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().lobby(where_of(interaction), actor_of(interaction), "leave"))

    @keystone.command(name="start", description="Start the game in this channel's lobby (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().lobby(where_of(interaction), actor_of(interaction), "start"))

    # --- looking

    @keystone.command(name="board", description="Show a player's board (yours if no one is named)")
    @app_commands.describe(player="The player whose board to show")
    async def board(self, interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        name = None if player is None else str(player.id)
        await run(interaction, self._svc().board(where_of(interaction), actor_of(interaction), name), private=True)

    @keystone.command(name="field", description="Show the Field: the six cards to take and what each costs")
    async def field(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().field(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="objective", description="Show your secret objective (only you see it)")
    async def objective(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().objective(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="score", description="Show the scores so far, without secret objectives")
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().score(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="log", description="Show the moves played so far in this channel's game")
    async def log_(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().game_log(where_of(interaction), actor_of(interaction)), private=True)

    @keystone.command(name="rules", description="Explain a rule of the game")
    @app_commands.describe(topic="Which rule (leave out for the list of topics)")
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await post(interaction, Reply(private=rules_text(topic)))

    @keystone.command(name="help", description="List the Keystone commands")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await post(interaction, Reply(private=HELP))

    @keystone.command(name="resign", description="Give up your game in this channel; the others are ranked")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().resign(where_of(interaction), actor_of(interaction)))

    @keystone.command(name="abandon", description="End this channel's game without a result (host or channel managers)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().abandon(where_of(interaction), actor_of(interaction)))

    # --- turns

    @app_commands.command(name="take", description="Introduce a Field card onto your board")
    @app_commands.describe(card="Field slot 1-6 (1 is the leftmost card)", cell="Empty board cell, A1 to D4")
    @app_commands.autocomplete(card=card_autocomplete, cell=cell_autocomplete)
    async def take(self, interaction: discord.Interaction[Any], card: str, cell: str) -> None:
        notation = f"take {_number(card)} {_clean_cell(cell)}"
        await run(interaction, self._svc().act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="skill", description="Use a skill token (0 resolves every exhausted token)")
    @app_commands.describe(token="Skill number, or 0 for all exhausted tokens")
    @app_commands.autocomplete(token=skill_autocomplete)
    async def skill(self, interaction: discord.Interaction[Any], token: str) -> None:
        notation = f"skill {_number(token)}"
        await run(interaction, self._svc().act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="wild", description="Buy a Wild card this turn and place it")
    @app_commands.describe(habitat="forest, desert, wetland or arctic", cell="Empty board cell, A1 to D4")
    @app_commands.autocomplete(habitat=habitat_autocomplete, cell=cell_autocomplete)
    async def wild(self, interaction: discord.Interaction[Any], habitat: str, cell: str) -> None:
        notation = f"wild {habitat.strip().lower()} {_clean_cell(cell)}"
        await run(interaction, self._svc().act(where_of(interaction), actor_of(interaction), notation))

    @app_commands.command(name="endturn", description="End your turn without buying a Wild card")
    async def endturn(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self._svc().act(where_of(interaction), actor_of(interaction), "endturn"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KeystoneCog(bot))
