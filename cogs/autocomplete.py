"""Autocomplete for the game's slash command options: each asks the service, in the typer's language."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.common import actor_of, service_of, where_of
from keystone.app.suggestions import Wordlist


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


async def _suggest_words(interaction: discord.Interaction[Any], what: Wordlist,
                         typed: str) -> list[app_commands.Choice[str]]:
    pairs = await service_of(interaction).suggest_words(where_of(interaction), actor_of(interaction), what, typed)
    return [app_commands.Choice(name=label, value=value) for label, value in pairs]


async def habitat_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The habitats a Wild card may take here now (every habitat with no game), in the typer's language."""
    return await _suggest(interaction, "habitat", current) or await _suggest_words(interaction, "habitat", current)


async def seat_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Every seat of the game here, bots included: the seat's name, its number as the value."""
    return await _suggest(interaction, "seat", current)


async def replay_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """One's own finished games and this channel's, newest first."""
    pairs = await service_of(interaction).suggest_replays(where_of(interaction), actor_of(interaction), current)
    return [app_commands.Choice(name=label, value=value) for label, value in pairs]


async def topic_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The rules topics, titled in the typer's language."""
    return await _suggest_words(interaction, "topic", current)
