"""The store keeps a person's and a server's language on both databases: unset until chosen, cleared
back to None, kept apart from the other settings, and anything but "en" or "de" refused unchanged."""

from __future__ import annotations

import pytest

from keystone.store import InvalidInput, Store


async def test_languages_are_unset_until_chosen_and_can_be_cleared(store: Store) -> None:
    assert await store.chosen_languages(7, 9) == (None, None)
    await store.set_language(7, "de")
    await store.set_server_language(9, "en")
    assert await store.chosen_languages(7, 9) == ("de", "en")
    assert await store.chosen_languages(8, 10) == (None, None), "another person and server are untouched"
    assert await store.chosen_languages(7, None) == ("de", None), "a direct message has no server"
    await store.set_language(7, None)
    await store.set_server_language(9, None)
    assert await store.chosen_languages(7, 9) == (None, None)


async def test_a_language_and_the_reminder_setting_do_not_overwrite_each_other(store: Store) -> None:
    await store.set_notify(7, True)
    await store.set_language(7, "de")
    await store.set_notify(7, False)
    assert await store.chosen_languages(7, None) == ("de", None)
    await store.set_notify(7, True)
    await store.set_language(7, None)
    assert await store.notify(7) is True


@pytest.mark.parametrize("bad", ["fr", "DE", "", 1])
async def test_a_language_the_bot_does_not_speak_is_refused_and_nothing_changes(store: Store, bad: object) -> None:
    await store.set_language(7, "de")
    with pytest.raises(InvalidInput, match="English or Deutsch"):
        await store.set_language(7, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="English or Deutsch"):
        await store.set_server_language(9, bad)  # type: ignore[arg-type]
    assert await store.chosen_languages(7, 9) == ("de", None)
