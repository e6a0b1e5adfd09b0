"""Names as typed: a display name full of Markdown goes into every message escaped, so Discord shows
it as written and never as formatting, a link or a mention; mentions the bot means stay mentions."""

from __future__ import annotations

import re

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app.markdown import plain
from keystone.store import Store
from tests.clock_helpers import T0, Time, whole_turn

HERE = Where(channel_id=1184513463826616421, guild_id=1184513463826616000)
MARKED = Actor(197038439483310086, "**Zoë** ||李|| [click](https://example.com) `x`")
HEADING = Actor(41771983423143937, "# Дмитрий <@1>")

RAW = ("**Zoë**", "||李||", "[click]", "`x`", "# Дмитрий", "<@1>")
"""Each name's formatting as typed: none may reach a message unescaped."""


@pytest.mark.parametrize(("typed", "shown"), [
    ("**Zoë**", r"\*\*Zoë\*\*"), ("||spoiler||", r"\|\|spoiler\|\|"), ("[a](https://b.c)", r"\[a\](https://b.c)"),
    ("# Big", r"\# Big"), ("- item", r"\- item"), ("> quote", r"\> quote"), ("1. one", r"1\. one"),
    ("<@123>", r"\<@123>"), ("under_score", r"under\_score"), ("back\\slash", r"back\\slash"),
    ("Ann-Kathrin Müller", "Ann-Kathrin Müller"), ("Bot 1 (easy)", "Bot 1 (easy)"), ("李小龍 🐉", "李小龍 🐉"),
])
def test_plain_escapes_what_discord_would_format_and_nothing_else(typed: str, shown: str) -> None:
    assert plain(typed) == shown


def unescaped(text: str) -> list[str]:
    """The raw forms that stand in `text` without their backslashes."""
    bare = re.sub(r"\\.", "", text)  # drop every escaped character
    return [raw for raw in RAW if raw in bare]


async def test_a_game_between_markdown_names_shows_them_as_typed(tmp_path: object) -> None:
    time = Time(T0)
    async with await Store.open(":memory:", clock=time) as store:
        service = GameService(store, seeds=lambda: 5, clock=time)
        opened = await service.new(HERE, MARKED)
        joined = await service.lobby(HERE, HEADING, "join")
        started = await service.lobby(HERE, MARKED, "start")
        turn = await whole_turn(service, HERE, MARKED)
        told = [opened.public, joined.public, started.public, *(m.public for m in [turn, *turn.more])]
        assert all(told) and all(unescaped(t or "") == [] for t in told), told
        assert f"<@{HEADING.user_id}>, it is your turn." in (turn.public or ""), "the bot's own mention stays"
        assert r"\*\*Zoë\*\*" in (opened.public or "") and r"\# Дмитрий \<@1>" in (joined.public or "")
