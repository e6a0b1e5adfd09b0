"""Plain result objects the service hands to its callers (the Discord cogs, the terminal mode).

Nothing here knows discord.py: a cog turns a `Reply` into messages, buttons and select menus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]

File = tuple[str, bytes]
"""An attachment: file name and its bytes (PNG pictures)."""


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

    `mention` lists the only user ids the public message may ping.
    """

    public: str | None = None
    private: str | None = None
    files: list[File] = field(default_factory=list)
    private_files: list[File] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    private_controls: list[Control] = field(default_factory=list)
    mention: list[int] = field(default_factory=list)

    @classmethod
    def refuse(cls, sentence: str) -> Reply:
        """A private refusal: nothing changed."""
        return cls(private=sentence)

    @property
    def ok(self) -> bool:
        """True when something is posted publicly (the action went through)."""
        return self.public is not None
