"""Buttons and select menus of the game's messages, as `DynamicItem`s.

Their custom ids carry the game id and state version (`keystone.app.ids`), so a button pressed after
a restart, or on a message a later move made stale, reaches the service, which decides.
"""

from __future__ import annotations

import re
from typing import Any, get_args

import discord

from cogs.common import actor_of, post, run, service_of, where_of
from keystone.app import Reply, ids
from keystone.app.language import client_words
from keystone.engine.bots import Level


def level_named(value: str) -> Level | None:
    """The bot level a menu sent back (Discord only sends the offered ones), or None."""
    levels: tuple[Level, ...] = get_args(Level)
    return next((level for level in levels if level == value), None)


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
            await post(interaction, Reply.refuse(client_words(str(interaction.locale), "cogs.pick_choice")))
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
        level = level_named(str(values[0])) if values else None
        if level is None:
            await post(interaction, Reply.refuse(client_words(str(interaction.locale), "cogs.pick_level")))
            return
        service = service_of(interaction)
        work = service.lobby(where_of(interaction), actor_of(interaction), "bot", game_id=self.game, level=level)
        await run(interaction, work, edit=True)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.UNDO.pattern):
    """Takes back the acting player's last action of this turn, from their private step message."""

    def __init__(self, game: int, version: int) -> None:
        super().__init__(discord.ui.Button(label="Undo", custom_id=ids.undo_id(game, version)))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UndoButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction)
        await run(interaction, service.undo(where_of(interaction), actor_of(interaction), game_id=self.game,
                                            version=self.version))


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.FORGET.pattern):
    """Confirms forgetting a person or a server; the service refuses someone else's or a stale press."""

    def __init__(self, what: str, asker: int, target: int, asked: int) -> None:
        super().__init__(discord.ui.Button(label="Forget", style=discord.ButtonStyle.danger,
                                           custom_id=ids.forget_id(what, asker, target, asked)))
        self.what, self.asker, self.target, self.asked = what, asker, target, asked

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ForgetButton:
        return cls(match["what"], int(match["asker"]), int(match["target"]), int(match["asked"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service, actor = service_of(interaction), actor_of(interaction)
        if self.what == "me":
            work = service.forget_me(actor, self.asker, self.asked)
        else:
            work = service.forget_server(where_of(interaction), actor, self.asker, self.target, self.asked)
        await run(interaction, work, private=True)


DYNAMIC_ITEMS = (ActButton, ChoiceSelect, ShowButton, LobbyButton, LevelSelect, UndoButton, ForgetButton)
