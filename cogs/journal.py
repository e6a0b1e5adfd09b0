"""Discord adapter for the Field Journal: `/journal list`, `start`, `status` and `abandon`.

Thin like the game cog: it serves the journal concern of the bot's one `GameService`, so a journal
game is played with the same `/take`, `/skill` and buttons, and its end (verdict, stars, the
recommended next assignment) is the service's work.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.bot import KeystoneBot
from cogs.common import EVERYWHERE, INSTALLS, actor_of, run, service_of, where_of
from keystone.app.journal_service import JournalService
from keystone.engine.campaign import LAST_ASSIGNMENT


async def number_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
    """Every assignment, titled in the typer's language, its number as the value."""
    pairs = await service_of(interaction).suggest_words(where_of(interaction), actor_of(interaction), "assignment",
                                                        str(current))
    return [app_commands.Choice(name=label, value=int(value)) for label, value in pairs]


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class JournalCog(commands.Cog, name="Journal"):
    """The Field Journal campaign: assignments played alone in a direct message, or by two partners in a channel."""

    journal = app_commands.Group(name="journal", description=f"The Field Journal: {LAST_ASSIGNMENT} solo assignments",
                                 allowed_contexts=EVERYWHERE, allowed_installs=INSTALLS)

    def __init__(self, bot: commands.Bot, service: JournalService) -> None:
        self.bot = bot
        self.service = service

    @journal.command(name="list",
                     description="Every assignment with your stars, the recommended next one and the envelope")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.journal_list(actor_of(interaction)), private=True)

    @journal.command(name="start",
                     description="Begin any assignment here (the recommended next one if no number is given)")
    @app_commands.describe(number=f"Which assignment, 1 to {LAST_ASSIGNMENT}")
    @app_commands.autocomplete(number=number_autocomplete)
    async def start(self, interaction: discord.Interaction[Any],
                    number: app_commands.Range[int, 1, LAST_ASSIGNMENT] | None = None) -> None:
        work = self.service.journal_start(where_of(interaction), actor_of(interaction), number)
        await run(interaction, work)

    @journal.command(name="status", description="How the running assignment's goals stand now")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.journal_status(where_of(interaction), actor_of(interaction)),
                  private=True)

    @journal.command(name="abandon", description="Stop the running assignment without a result")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, self.service.journal_abandon(where_of(interaction), actor_of(interaction)))


async def setup(bot: KeystoneBot) -> None:
    await bot.add_cog(JournalCog(bot, bot.service))
