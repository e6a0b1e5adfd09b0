"""Discord adapters: slash commands, autocomplete, buttons and selects; no game rules live here.

Each module named in `EXTENSIONS` is a discord.py extension with an `async def setup(bot)`
that adds its cog, handing it `bot.service`. `cogs.bot.KeystoneBot` opens the store, builds
that service, loads the extensions in this order at startup, then syncs the slash commands.
Add your extension's dotted name here to switch it on.
"""

EXTENSIONS: list[str] = ["cogs.keystone", "cogs.journal", "cogs.permissions"]
