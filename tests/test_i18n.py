"""The catalogues: every key in every language with the same placeholders, and a language for every locale."""

from __future__ import annotations

import string

import pytest

from keystone.i18n import (
    COMMANDS,
    DEFAULT,
    LANGUAGES,
    UnknownLanguage,
    catalogue,
    checked,
    domains,
    language,
    tr,
    trn,
)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def _one_said_in_words(key: str, english: str, other: str) -> bool:
    """A count's singular may say its number in words ("einmal" for "1 move"): only `{count}` is left out."""
    return key.endswith(".one") and placeholders(english) - placeholders(other) == {"count"} and \
        placeholders(other) <= placeholders(english)


@pytest.mark.parametrize("domain", [*domains(), COMMANDS])
def test_every_key_is_in_every_language_with_the_same_placeholders(domain: str) -> None:
    english = catalogue(DEFAULT, domain)
    assert english, "the English catalogue is empty"
    for lang in LANGUAGES:
        other = catalogue(lang, domain)
        assert sorted(set(english) ^ set(other)) == [], f"keys missing from one of en/{lang}"
        mismatched = [k for k in english if placeholders(english[k]) != placeholders(other[k])
                      and not _one_said_in_words(k, english[k], other[k])]
        assert mismatched == [], f"placeholders differ in {lang}"
        assert [k for k, text in other.items() if not text.strip()] == [], f"untranslated in {lang}"


def test_a_key_belongs_to_one_message_domain_only() -> None:
    seen: dict[str, str] = {}
    repeated = []
    for domain in domains():
        for key in catalogue(DEFAULT, domain):
            if key in seen:
                repeated.append(f"{key} in {seen[key]} and {domain}")
            seen[key] = domain
    assert repeated == []


def test_a_message_fills_its_placeholders_in_each_language() -> None:
    assert tr("de", "language.set.user", language="Deutsch") == "Der Bot antwortet dir privat jetzt auf Deutsch."
    assert [trn("en", "card.count", n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert trn("de", "card.count", 1) == "1 Karte"


@pytest.mark.parametrize(("locale", "lang"), [("de", "de"), ("de-DE", "de"), ("de_AT", "de"), ("en-US", "en"),
                                              ("en-GB", "en"), ("fr", "en"), (None, "en"), ("", "en")])
def test_a_discord_locale_picks_german_or_english(locale: str | None, lang: str) -> None:
    assert language(locale) == lang


def test_only_a_spoken_language_is_accepted() -> None:
    assert checked("de") == "de"
    with pytest.raises(UnknownLanguage, match="English, Deutsch"):
        checked("fr")


HEADROOM = 1800
"""Discord takes 2,000 characters in a message and 4,096 in an embed; a whole entry stays under
this, in every language, so a translation (or a filled placeholder) has room to grow."""


def test_no_entry_comes_near_a_discord_limit_in_any_language() -> None:
    from keystone.app.text import HELP_TOPICS, help_text

    grown = [f"{lang} {domain}.po {key}: {len(text)} characters" for lang in LANGUAGES for domain in domains()
             for key, text in catalogue(lang, domain).items() if len(text) > HEADROOM]
    grown += [f"{lang} /keystone help {topic}: {len(help_text(lang, topic))} characters"
              for lang in LANGUAGES for topic in HELP_TOPICS if len(help_text(lang, topic)) > HEADROOM]
    assert grown == [], f"over {HEADROOM} characters (split the text, or say it shorter)"


def test_numbers_and_days_are_written_as_each_language_writes_them() -> None:
    from datetime import date

    from keystone.i18n import day_text, decimal

    assert [decimal("en", 61.44, 1), decimal("de", 61.44, 1), decimal("de", 1500), decimal("de", 0.06, 1)] == [
        "61.4", "61,4", "1500", "0,1"]
    assert [day_text("en", "2026-12-01"), day_text("de", "2026-12-01"), day_text("de", date(2027, 1, 31))] == [
        "2026-12-01", "1.12.2026", "31.1.2027"]
