"""Plain result objects the service hands to its callers (the Discord cogs, the terminal mode).

Nothing here knows discord.py: a cog turns a `Reply` into messages, buttons and select menus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]

File = tuple[str, bytes, str]
"""An attachment: file name, its bytes (a PNG picture) and its description (the picture in words)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a select menu: what it shows and the value sent back when chosen."""

    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Control:
    """A button (no options) or a select menu (options); `custom_id` is what comes back on a press."""

    custom_id: str
    label: str
    style: Style = "secondary"
    options: tuple[Option, ...] = ()

    @property
    def is_select(self) -> bool:
        return bool(self.options)


@dataclass(slots=True)
class Reply:
    """What to post: a public message for the channel and/or a private one for the actor.

    `mention` lists the only user ids the public message may ping. `step` marks the private part
    as a step of the actor's turn in progress: it may replace the step message it answers.
    `more` holds further public messages to post after this one, in order (one per bot turn);
    `private_more` further private texts after the private one (a list longer than one message).
    `ended` marks the message that ends the game (or closes its lobby): a game's own thread closes then.
    """

    public: str | None = None
    private: str | None = None
    files: list[File] = field(default_factory=list)
    private_files: list[File] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    private_controls: list[Control] = field(default_factory=list)
    private_more: list[str] = field(default_factory=list)
    mention: list[int] = field(default_factory=list)
    step: bool = False
    more: list[Reply] = field(default_factory=list)
    ended: bool = False
    farewell: str | None = None
    """When this reply ends its game: the line its own thread (if it has one) closes with, in the channel's language."""
    owed_key: str | None = None
    """The outbox's key for this public message (see `keystone.app.owed`): whoever posts it marks it sent."""
    refused: bool = False
    """Whether this is a refusal (nothing changed); the metrics count refusals apart from answers."""
    failed: bool = False
    """Whether this apologises for an unexpected failure (the metrics count it failed)."""

    @classmethod
    def refuse(cls, sentence: str) -> Reply:
        """A private refusal: nothing changed."""
        return cls(private=sentence, refused=True)

    @property
    def ends_game(self) -> bool:
        """Whether this reply, or one of the messages after it, ends the game."""
        return self.ended or any(m.ended for m in self.more)

    @property
    def owed(self) -> list[str]:
        """The outbox keys of this reply's public messages and those after it, in order."""
        return [m.owed_key for m in (self, *self.more) if m.owed_key is not None]

    @property
    def ok(self) -> bool:
        """True when the action went through: something is posted publicly, or a step of the turn goes on."""
        return self.public is not None or self.step


@dataclass(frozen=True, slots=True)
class Post:
    """Something to post with no interaction to answer (a reminder, a turn run out): `reply`'s
    public part in channel `channel_id`, or its private text to person `user_id` by direct message."""

    reply: Reply
    channel_id: int | None = None
    user_id: int | None = None
