"""Whether hints are on, said where players decide to play: the lobby's every message and the start
of the game say "Hints: on/off" (the host's choice, or by default on wherever the game will not be
rated, judged by the seats the game is set up for even while the lobby fills); `/keystone hint` in a
game whose host turned them off says so politely and changes nothing. English and German, on a real
SQLite file with time from a real epoch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.i18n import Language, tr
from keystone.store import Store
from tests.clock_helpers import T0, Time, deciding_here, posted

HERE = Where(channel_id=1184513463826616421, guild_id=1184513463826616000)
GERMAN = Where(channel_id=1184513463826616999, guild_id=1184513463826616001, guild_locale="de")
DM = Where(channel_id=1184513463826617777)
ANN = Actor(197038439483310086, "Ann-Kathrin Müller 🦊", locale="en-US")
BOB = Actor(41771983423143937, "Дмитрий **Bold**", locale="de")
LI = Actor(302050872383242240, "李小龍 _x_")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    time = Time(T0)
    made = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 11, clock=time)
    yield made
    await made.store.close()


def last_line(text: str | None) -> str:
    assert text is not None
    return text.splitlines()[-1]


@pytest.mark.parametrize(("chosen", "said"), [(True, "Hints: on."), (False, "Hints: off."), (None, "Hints: off.")])
async def test_every_lobby_message_and_the_start_say_whether_hints_are_on(
    service: GameService, chosen: bool | None, said: str
) -> None:
    opened = await service.new(HERE, ANN, players=3, hints=chosen)
    assert opened.ok and last_line(opened.public) == said
    joined = await service.lobby(HERE, LI, "join")
    assert "Seated (2/3)" in (joined.public or "") and last_line(joined.public) == said
    seated = await service.lobby(HERE, ANN, "bot")
    assert last_line(seated.public) == said
    started = await posted(service, await service.lobby(HERE, ANN, "start"))
    assert started.ok and started.public is not None
    assert started.public.splitlines()[:2] == [tr("en", "game.begins"), said]


async def test_a_lobby_for_a_game_that_is_not_rated_has_hints_on_by_default(service: GameService) -> None:
    coop = await service.new(HERE, ANN, players=2, mode="coop")
    assert last_line(coop.public) == "Hints: on."
    solo = await service.new(DM, ANN, players=1)
    assert solo.ok and "Hints: on." in (solo.public or "").splitlines()


async def test_a_german_lobby_says_it_in_german(service: GameService) -> None:
    opened = await service.new(GERMAN, ANN, players=2, hints=False)
    assert last_line(opened.public) == "Tipps: aus."
    assert (await service.lobby(GERMAN, BOB, "join")).ok
    started = await service.lobby(GERMAN, ANN, "start")
    assert (started.public or "").splitlines()[:2] == ["Das Spiel beginnt!", "Tipps: aus."]


async def test_a_hint_where_the_host_turned_them_off_says_so_and_changes_nothing(service: GameService) -> None:
    assert (await service.new(HERE, ANN, players=2, hints=False)).ok
    assert (await service.lobby(HERE, BOB, "join")).ok
    assert (await posted(service, await service.lobby(HERE, ANN, "start"))).ok
    asker = (ANN, BOB)[await deciding_here(service, HERE)]
    before = await service.state_here(HERE)
    refused = await service.hint(HERE, asker)
    lang: Language = "de" if asker is BOB else "en"
    assert not refused.ok and refused.public is None and refused.private == tr(lang, "hint.off_by_host")
    assert refused.private.startswith("Sorry, no hints here: the host turned hints off" if lang == "en"
                                      else "Tut mir leid, hier gibt es keine Tipps: Der Gastgeber")
    after = await service.state_here(HERE)
    assert before is not None and after is not None
    assert after[1].version == before[1].version and not after[0].hinted


async def test_a_rated_game_by_default_says_why_and_how_to_get_hints(service: GameService) -> None:
    assert (await service.new(GERMAN, ANN, players=2)).ok
    assert (await service.lobby(GERMAN, BOB, "join")).ok
    assert (await posted(service, await service.lobby(GERMAN, ANN, "start"))).ok
    askers: tuple[tuple[Actor, Language], ...] = ((ANN, "en"), (BOB, "de"))
    for asker, lang in askers:
        refused = await service.hint(GERMAN, asker)
        assert not refused.ok and refused.private == tr(lang, "hint.not_allowed")
        assert ("rated games" if lang == "en" else "gewerteten Partien") in refused.private
        assert ("`hints:True`" if lang == "en" else "`tipps:True`") in refused.private
