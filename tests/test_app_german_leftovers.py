"""German for the last places that spoke only English: the journal, replays, suggestions, the
lobby's rules value and the plain fallback pictures; English stays as it was."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import AsyncIterator, Sequence
from typing import NoReturn

import pytest

from keystone import render
from keystone.app import Actor, GameService, Where, pictures
from keystone.app.controls import cell_select
from keystone.app.journal import journal_lines, page_lines
from keystone.app.replays import final_words, rebuild
from keystone.app.text import habitat_value, rules_text
from keystone.cli.simulate import bot_game
from keystone.engine import GameConfig, GameState, campaign, new_game, public_view
from keystone.engine.table import catalog
from keystone.store import CampaignProgress, Store
from tests.store_helpers import play, start_game

DM = Where(channel_id=500)
GRETA = Actor(1, "Greta", locale="de")
ANN = Actor(2, "Ann")


@pytest.fixture
async def service() -> AsyncIterator[GameService]:
    store = await Store.open(":memory:")
    yield GameService(store, seeds=lambda: 7)
    await store.close()


def test_the_journal_page_and_list_speak_german_for_a_german_reader() -> None:
    page = "\n".join(page_lines(6, lang="de"))
    six = campaign.assignment(6)
    assert six.title_de in page and six.story_de in page and "Keine Spuren" in page
    assert six.title not in page and six.story not in page and "Leave No Trace" not in page
    assert " ".join(six.goal_lines("de")) in page and " ".join(six.setup_lines("de")) in page
    listing = "\n".join(journal_lines(CampaignProgress(1, {}), False, "de"))
    assert all(campaign.assignment(n).title_de in listing for n in range(1, 21))
    assert "First Light" not in listing
    english = "\n".join(page_lines(6))
    assert six.title in english and "Leave No Trace" in english and six.title_de not in english


async def test_journal_start_and_status_speak_german_and_refuse_a_bad_number_in_german(service: GameService) -> None:
    started = await service.journal_start(DM, GRETA, 1)
    assert "Erstes Licht" in (started.public or "") and "First Light" not in (started.public or "")
    status = (await service.journal_status(DM, GRETA)).private or ""
    assert status and "in progress" not in status and "Punkte" in status
    await service.journal_abandon(DM, GRETA)
    refused = await service.journal_start(DM, GRETA, 25)
    assert not refused.ok and "25" in (refused.private or "") and "There is no" not in (refused.private or "")
    english = await service.journal_start(DM, ANN, 25)
    assert english.private == "There is no assignment 25; the journal has assignments 1 to 20."


def english_only_card_names() -> set[str]:
    """Card names that German says differently (an English one in German text is a leftover)."""
    cards = catalog().species + catalog().wilds
    return {c.name for c in cards if c.name != c.name_in("de")}


@functools.cache
def bot_game_log() -> tuple[GameState, tuple[str, ...]]:
    end, log, problems = bot_game(5, ["easy", "easy"], check=False)
    assert not problems
    return new_game(end.config, end.seed, [s.name for s in end.seats]), tuple(log)


def test_a_replay_is_captioned_in_german_for_a_german_reader() -> None:
    start, log = bot_game_log()
    german, english = rebuild(start, log, "de"), rebuild(start, log)
    said = [f.caption for f in german.frames] + [final_words(german.final, "de")]
    assert said[0].endswith("Regeln der zweiten Edition.") and ("gewinnt mit" in said[-1] or "teilen" in said[-1])
    assert re.search(r"(gewinnt|den ersten Platz) mit \d+ Punkten?\. Punkte: ", said[-1]), said[-1]
    assert not re.search(r"mit \d+ Punkte\b", said[-1]), "after mit, German says Punkten"
    told = " ".join(said)
    assert not [name for name in english_only_card_names() if name in told]
    assert english.frames[0].caption.endswith(": second edition rules.")
    assert "Punkte:" not in final_words(english.final) and "Scores:" in final_words(english.final)


async def test_the_service_draws_a_replay_per_language(service: GameService) -> None:
    store = service.store
    record = await start_game(store, channel_id=100, seed=1, players=2)
    assert (await play(store, record.id, 10_000, random.Random(1))).phase == "over"
    german = await service.replay(Where(channel_id=300), Actor(1, "Ada", locale="de"), str(record.id))
    english = await service.replay(Where(channel_id=300), Actor(2, "Brook"), str(record.id))
    (_, data_de, alt_de), (_, data_en, alt_en) = german.private_files[0], english.private_files[0]
    assert alt_de.startswith("Eine Animation") and alt_en.startswith("An animation of every board")
    assert data_de != data_en, "the frames speak the reader's language"


def test_the_plain_fallback_picture_and_its_words_speak_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> NoReturn:
        raise RuntimeError("the renderer is broken")

    for name in ("render_turn", "text_board", "text_table"):
        monkeypatch.setattr(render, name, broken)
    drawn: list[list[str]] = []

    def placeholder(lines: Sequence[str]) -> bytes:
        drawn.append(list(lines))
        return b"png"

    monkeypatch.setattr(pictures, "_placeholder", placeholder)
    view = public_view(new_game(GameConfig(players=2), 3, ["Ada", "Bo"]))
    _, _, german = pictures.turn_file(view, 0, lang="de")
    _, _, english = pictures.turn_file(view, 0)
    assert "Die Auslage" in german and "Tableau von Ada" in german and "The Field" not in german
    assert drawn[0][0].startswith("Die Auslage") and any(line.startswith("Tableau von Ada") for line in drawn[0])
    assert not [name for name in english_only_card_names() if name in german + "\n".join(drawn[0])]
    assert "The Field (slot 1 is leftmost):" in english and drawn[1][0] == "The Field (slot 1 is leftmost):"


async def test_the_lobby_says_its_rules_and_bot_levels_in_words(service: GameService) -> None:
    german_server = Where(channel_id=10, guild_id=1, guild_locale="de")
    lobby = (await service.new(german_server, ANN, players=2, opponent="hard")).public or ""
    assert "(zweite Edition)" in lobby and "second-edition" not in lobby
    record = await service.store.get_active_game(10)
    assert record is not None and record.seats[-1].name == "Bot 1 (stark)"
    english = (await service.new(Where(channel_id=11, guild_id=2), ANN, players=2, opponent="hard")).public or ""
    assert "(second-edition)" in english
    record = await service.store.get_active_game(11)
    assert record is not None and record.seats[-1].name == "Bot 1 (hard)"


async def test_suggestions_that_need_no_game_are_named_in_the_typers_language(service: GameService) -> None:
    habitats = await service.suggest_words(DM, GRETA, "habitat")
    assert habitats == [("Wald", "forest"), ("Wüste", "desert"), ("Feuchtgebiet", "wetland"), ("Arktis", "arctic")]
    assert await service.suggest_words(DM, GRETA, "habitat", "WAL") == [("Wald", "forest")]
    assert await service.suggest_words(DM, GRETA, "habitat", "forest") == [("Wald", "forest")]
    assert [label for label, value in await service.suggest_words(DM, ANN, "habitat") if label != value] == []
    topics = dict(await service.suggest_words(DM, GRETA, "topic"))
    assert topics["Ökosysteme"] == "ecosystems" and "ecosystems" not in topics
    assert [label for label, value in await service.suggest_words(DM, ANN, "topic") if label != value] == []
    six = await service.suggest_words(DM, GRETA, "assignment", "6")
    assert six == [(f"6 - {campaign.assignment(6).title_de}", "6"), (f"16 - {campaign.assignment(16).title_de}", "16")]
    assert (await service.suggest_words(DM, ANN, "assignment", "6"))[0] == (f"6 - {campaign.assignment(6).title}", "6")


def test_a_habitat_typed_by_hand_may_be_named_in_either_language() -> None:
    assert [habitat_value(t) for t in ("wald", " Forest ", "WÜSTE", "feuchtgebiet", "arctic", "moon")] == [
        "forest", "forest", "desert", "wetland", "arctic", "moon"]


async def test_rules_answer_in_the_askers_language_and_take_a_german_topic(service: GameService) -> None:
    german = (await service.rules(DM, GRETA, "Ökosysteme")).private or ""
    assert german.startswith("**Ökosysteme**")
    assert (await service.rules(DM, ANN, "ecosystems")).private == rules_text("ecosystems")


def test_the_second_step_of_a_choice_names_the_card_not_the_english_verb() -> None:
    state = new_game(GameConfig(players=1), 7, ["Greta"])
    german, english = cell_select(state, 1, "take 1", "de"), cell_select(state, 1, "take 1")
    assert german is not None and english is not None
    slot = state.field[0]
    assert slot is not None and catalog().card(slot.card).name_in("de") in german.label
    assert "Take" not in german.label and english.label.startswith("Take 1")
