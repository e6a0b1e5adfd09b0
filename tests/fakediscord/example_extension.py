"""A tiny discord.py extension used to prove the bot shell loads cogs and handles their failures.

It also shows the shape every cog extension has: a Cog plus `async def setup(bot)`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


class ProbeCog(commands.Cog):
    @app_commands.command(name="probe", description="Answer that the extension is loaded")
    async def probe(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("probe ok")

    @app_commands.command(name="boom", description="Fail on purpose")
    async def boom(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("boom on purpose")

    @app_commands.command(name="staff", description="Only for people who manage the server")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def staff(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("staff ok", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ProbeCog())
