"""Discord adapters: slash commands, autocomplete, buttons and selects; no game rules live here.

Each module named in `EXTENSIONS` is a discord.py extension with an `async def setup(bot)`
that adds its cog. `cogs.bot.KeystoneBot` loads them in this order at startup, then syncs
the slash commands. Add your extension's dotted name here to switch it on.
"""

EXTENSIONS: list[str] = ["cogs.keystone", "cogs.journal"]
