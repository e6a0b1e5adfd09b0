"""German for the last places that spoke only English: the journal, replays, suggestions, the
lobby's rules value and the plain fallback pictures; English stays as it was."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app.journal import journal_lines, page_lines
from keystone.engine import campaign
from keystone.store import CampaignProgress, Store

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
