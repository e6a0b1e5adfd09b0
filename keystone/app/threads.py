"""The words of games in their own thread: the thread's name, the line in the channel that points
to it, the refusals when one cannot be opened, and the last word when its game ends.

A thread is a game's place like a channel (it has its own channel id), so one channel can host
many games at once; only opening and closing a thread needs words of its own.
"""

from __future__ import annotations

from typing import Final

from keystone.i18n import DEFAULT, Language, tr
from keystone.i18n.commands import option, slash

ARCHIVE_AFTER_MINUTES: Final = 10080
"""A week without a message hides the thread from the channel list: the longest Discord offers,
so a slow game is not tidied away between turns (a new message brings it back anyway)."""
NAME_LIMIT = 100
"""Discord's limit on a thread's name, in characters."""

CREATE_PUBLIC_THREADS = "create_public_threads"
SEND_MESSAGES_IN_THREADS = "send_messages_in_threads"
"""The permissions a game thread needs, by discord.py's names; `threads.permission.<name>` names each as
Discord's server settings do in the reader's language, so a moderator finds them."""

def say(lang: Language, key: str, /, **params: object) -> str:
    """A thread sentence in `lang`, naming the command and its option as a client in `lang` shows them."""
    thread = option(lang, "keystone new", "thread")
    return tr(lang, key, new=slash(lang, "keystone new"), thread=thread, thread_true=f"{thread}:True", **params)


NOT_IN_DM, NOT_IN_THREAD, NOT_A_TEXT_CHANNEL, REFUSED, CLOSING = (
    say(DEFAULT, f"threads.{key}")
    for key in ("not_in_dm", "not_in_thread", "not_a_text_channel", "refused", "closing"))
"""The thread sentences in English (`say` words them in any language)."""


def thread_name(host: str, lang: Language = DEFAULT) -> str:
    """"Keystone: Alice's game", cut to Discord's limit."""
    return tr(lang, "threads.name", host=host)[:NAME_LIMIT]


def opened_line(host: str, thread_id: int, lang: Language = DEFAULT) -> str:
    """The public line in the channel that points to the new thread."""
    return tr(lang, "threads.opened", host=host, thread_id=thread_id)


def missing_permissions(missing: list[str], lang: Language = DEFAULT) -> str:
    """The refusal when the bot lacks thread permissions here, naming what a moderator should grant."""
    names = tr(lang, "final.and").join(f"**{tr(lang, f'threads.permission.{name}')}**" for name in missing)
    return say(lang, f"threads.missing.{'other' if len(missing) > 1 else 'one'}", names=names)
