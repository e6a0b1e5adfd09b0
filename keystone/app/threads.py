"""The words of games in their own thread: the thread's name, the line in the channel that points
to it, the refusals when one cannot be opened, and the last word when its game ends.

A thread is a game's place like a channel (it has its own channel id), so one channel can host
many games at once; only opening and closing a thread needs words of its own.
"""

from __future__ import annotations

from typing import Final

ARCHIVE_AFTER_MINUTES: Final = 10080
"""A week without a message hides the thread from the channel list: the longest Discord offers,
so a slow game is not tidied away between turns (a new message brings it back anyway)."""
NAME_LIMIT = 100
"""Discord's limit on a thread's name, in characters."""

CREATE_PUBLIC_THREADS = "Create Public Threads"
SEND_MESSAGES_IN_THREADS = "Send Messages in Threads"
"""The permissions as Discord's server settings name them, so a moderator finds them."""

NOT_IN_DM = (
    "A thread belongs to a server channel, so `thread` does not work in a direct message; "
    "`/keystone new` on its own starts your game right here."
)
NOT_IN_THREAD = (
    "This is already a thread, and a thread cannot hold another; leave out `thread` to open the game "
    "in this one, or use `thread:True` in the channel itself."
)
NOT_A_TEXT_CHANNEL = "Games get their own thread only in a server's text channels; leave out `thread` to play here."
REFUSED = (
    "Discord would not let me open a thread here just now, so nothing was opened; "
    "try again in a moment, or leave out `thread` to play in this channel."
)
CLOSING = "The game is over, so this thread is archived now: it stays here to read, and a new message reopens it."


def thread_name(host: str) -> str:
    """"Keystone: Alice's game", cut to Discord's limit."""
    return f"Keystone: {host}'s game"[:NAME_LIMIT]


def opened_line(host: str, thread_id: int) -> str:
    """The public line in the channel that points to the new thread."""
    return f"{host} opened a Keystone game in its own thread, <#{thread_id}>: join it there."


def missing_permissions(missing: list[str]) -> str:
    """The refusal when the bot lacks thread permissions here, naming what a moderator should grant."""
    names = " and ".join(f"**{name}**" for name in missing)
    them = "them" if len(missing) > 1 else "it"
    return (f"I may not open a game thread in this channel: I need {names} here. A moderator can grant "
            f"{them} to me; meanwhile leave out `thread` to play in this channel.")
