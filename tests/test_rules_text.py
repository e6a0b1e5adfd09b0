"""`/keystone rules`: enough to play without the rulebook, one Discord message per topic, and the
numbers it states are the ones the engine plays by."""

from __future__ import annotations

from pathlib import Path

import pytest

from keystone.app.text import RULES, rules_text, rules_title, rules_topic_text
from keystone.cards import OBJECTIVE_POINTS
from keystone.engine import GameConfig
from keystone.engine.table import SYNERGY_BY_SEAT, TIME_BY_PLAYERS
from keystone.i18n import Language

ROOT = Path(__file__).resolve().parent.parent
DISCORD_MESSAGE_LIMIT = 2000
TOPICS = ("turn", "introduce", "field", "synergy", "ecosystems", "scoring", "research", "wild", "skills",
          "end", "objectives", "ties")


def test_every_topic_a_player_needs_exists() -> None:
    assert set(TOPICS) <= set(RULES)


@pytest.mark.parametrize("topic", sorted(RULES))
def test_each_topic_fits_in_one_discord_message(topic: str) -> None:
    assert 0 < len(rules_text(topic)) < DISCORD_MESSAGE_LIMIT
    assert "`" not in RULES[topic] and "**" not in RULES[topic]  # the terminal shows the same words


def test_the_topic_list_fits_too_and_names_every_topic() -> None:
    listing = rules_text(None)
    assert len(listing) < DISCORD_MESSAGE_LIMIT
    assert all(f"`{topic}`" in listing for topic in RULES)


@pytest.mark.parametrize(("topic", "facts"), [
    ("introduce", ["each card to its right", "orthogonally adjacent", "seasons never count"]),
    ("synergy", ["each habitat symbol", "Seasons never count", "every 3 tokens"]),
    ("ecosystems", ["strictly up or strictly down", "gaps are allowed", "First-edition variant",
                    "consecutive", "only its best ecosystem"]),
    ("scoring", ["research token", "once more for every Keystone icon", "(3 + 1) x 3 = 12"]),
    ("wild", ["Once per turn", "any number from 1 to 5", "fits only ecosystems of that habitat"]),
    ("skills", ["active side", "exhausted side", "move the time marker one space"]),
    ("end", ["final round", "16 spaces"]),
    ("ties", ["more goals", "more synergy tokens", "share the win"]),
])
def test_key_facts_are_stated(topic: str, facts: list[str]) -> None:
    assert all(fact in RULES[topic] for fact in facts), [f for f in facts if f not in RULES[topic]]


def test_the_numbers_are_the_engines() -> None:
    goal_values = ", ".join(str(p) for p in OBJECTIVE_POINTS[1:-1]) + f" or {OBJECTIVE_POINTS[-1]}"
    assert goal_values == "5, 10, 16 or 24"  # the rulebook's 24 for all four goals, and the steps below it
    assert goal_values in RULES["objectives"] and goal_values in RULES["scoring"]
    assert f"pay {GameConfig().wild_cost} synergy tokens" in RULES["wild"]
    assert f"starts at {TIME_BY_PLAYERS[2]} with two players" in RULES["end"]
    assert f"first player starts with {SYNERGY_BY_SEAT[0]} tokens, the second with {SYNERGY_BY_SEAT[1]}" \
        in RULES["synergy"]


def test_an_unknown_topic_is_one_polite_sentence_and_the_list() -> None:
    answer = rules_text("tides")
    assert answer.startswith("I have no rules topic called 'tides'. Topics: `turn`")


@pytest.mark.parametrize("topic", TOPICS)
def test_each_topic_has_german_words_that_fit_and_quote_the_engines_numbers(topic: str) -> None:
    german = rules_topic_text(topic, "de")
    assert german != RULES[topic] and rules_title(topic, "de") != topic
    assert len(rules_text(topic, "de")) < DISCORD_MESSAGE_LIMIT and "`" not in german and "**" not in german
    assert "{" not in german


def test_the_german_rules_speak_the_german_editions_terms_and_numbers() -> None:
    assert f"{GameConfig().wild_cost} Eicheln bezahlen" in rules_topic_text("wild", "de")
    assert "Wildniskarte" in rules_topic_text("wild", "de") and "Auslage" in rules_topic_text("introduce", "de")
    goals = "{}, {}, {} oder {} Punkte".format(*OBJECTIVE_POINTS[1:])
    assert goals in rules_topic_text("objectives", "de") and goals in rules_topic_text("scoring", "de")
    assert f"zu zweit auf {TIME_BY_PLAYERS[2]}" in rules_topic_text("end", "de")


def test_a_topic_is_found_by_its_german_name_too_and_answers_in_the_readers_language() -> None:
    assert rules_text("ökosysteme", "de").startswith("**Ökosysteme**: Ein Ökosystem")
    assert rules_text("Geheime Ziele", "en") == rules_text("objectives")
    assert rules_text("scoring", "de") == rules_text("Wertung", "de")
    listing = rules_text(None, "de")
    assert listing.startswith("Keystone in Kürze") and "Themen: `Zug`, `Ansiedeln`" in listing
    assert rules_text("Gezeiten", "de").startswith("Ein Regelthema namens 'Gezeiten' kenne ich nicht. Themen:")


OUR_RULING: dict[Language, str] = {"en": "(our ruling: the rulebook does not say)",
                                   "de": "(unsere Auslegung: die Spielregel sagt dazu nichts)"}
"""How a topic marks a rule of this bot's (docs/RULINGS.md) that the rulebook does not print."""


@pytest.mark.parametrize(("topic", "ruling", "english", "german"), [
    ("synergy", 4, "The supply never runs out", "Der Vorrat geht nie aus"),
    ("field", 1, "Synergy tokens on a Field card that gets discarded go back to the supply",
     "Eicheln auf einer Karte der Auslage, die abgelegt wird, gehen zurück in den Vorrat"),
    ("skills", 7, "That needs at least one exhausted token", "Dafür muss mindestens ein Plättchen inaktiv sein"),
    ("wild", 38, "you take the top card of the habitat's stack", "du nimmst die oberste Karte des Stapels dieses Biotops"),
])
def test_house_rulings_are_marked_as_ours_not_the_rulebooks(topic: str, ruling: int, english: str, german: str) -> None:
    assert f"\n{ruling}. **" in (ROOT / "docs" / "RULINGS.md").read_text()
    assert f"{english} {OUR_RULING['en']}" in RULES[topic]
    assert f"{german} {OUR_RULING['de']}" in rules_topic_text(topic, "de")


def test_only_the_rulings_are_marked() -> None:
    marks = {lang: sum(rules_topic_text(t, lang).count(OUR_RULING[lang]) for t in RULES) for lang in OUR_RULING}
    assert marks == {"en": 4, "de": 4}
