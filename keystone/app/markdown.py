"""Names as Discord shows them. A person's display name is theirs to choose ("**Zoë**", "# 李",
"||spoiler||", "[click](https://…)"); put into a message as it is, Discord would read it as
formatting. So every name that enters a message's words is escaped here, once: it reads exactly as
typed. Pictures and alt text draw names as they are (no Markdown there)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar, cast

V = TypeVar("V")

NAME_PARAMS = frozenset({"name", "seat", "who", "acting", "voter", "partner", "host"})
"""The message placeholders that carry one person's (or seat's) name. Lists of names ("names",
"players") are joined from names escaped one by one, where they are made."""
_INLINE = re.compile(r"([\\*_~`|\[\]<])")
"""What Discord's Markdown reads anywhere: emphasis, code, spoilers, masked links (their brackets),
and `<` (a name must never become a mention or a channel link)."""
_LEADING = re.compile(r"^([-#>+])")
_ORDERED = re.compile(r"^(\d+)\.")
"""What it reads at the start of a line, where a name often stands: lists, headings, quotes."""


def plain(name: str) -> str:
    """`name` with its formatting characters backslash-escaped, so Discord shows it as typed."""
    escaped = _LEADING.sub(r"\\\1", _INLINE.sub(r"\\\1", name))
    return _ORDERED.sub(r"\1\\.", escaped)


def plain_names(params: Mapping[str, V]) -> dict[str, V]:
    """Message parameters with the names among them escaped (numbers, cards and links untouched)."""
    return {key: cast(V, plain(value)) if key in NAME_PARAMS and isinstance(value, str) else value
            for key, value in params.items()}
