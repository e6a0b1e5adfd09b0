"""The channel permissions the bot needs, in one list: the invite link asks for exactly these, the
start-up check warns about each one a channel lacks, and the README names them (a test compares).

By discord.py's attribute names; `threads.permission.<name>` names each as Discord's server settings
do, so an operator or a moderator finds it. What the bot does not need, and so never asks for: Read
Message History (it reads no messages; a nonce needs none), Embed Links (it sends no embeds), Use
External Emojis (its icons are the application's own emojis, which need no permission), Manage
Threads (it archives only threads it started).
"""

from __future__ import annotations

from typing import Final

from keystone.app.threads import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from keystone.i18n import DEFAULT, Language, tr

NEEDED: Final = ("view_channel", "send_messages", "attach_files", SEND_MESSAGES_IN_THREADS, CREATE_PUBLIC_THREADS)
"""View a channel and post in it (the outbox posts there when no interaction answers), with the turn's
picture attached; play in a thread and open one (`thread:True`)."""
SCOPES: Final = ("bot", "applications.commands")
"""The OAuth2 scopes of the invite: the bot user, and its slash commands."""


def label(name: str, lang: Language = DEFAULT) -> str:
    """A permission as Discord's settings name it ("Attach Files")."""
    return tr(lang, f"threads.permission.{name}")


def labels(names: list[str] | tuple[str, ...], lang: Language = DEFAULT) -> list[str]:
    return [label(name, lang) for name in names]
