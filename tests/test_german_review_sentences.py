"""The German review of every catalogue entry (issue 25): the sentences it fixed stay fixed, and the
command line's own number checks speak the language the command was asked to speak."""

from __future__ import annotations

import re

import pytest

from keystone.cli.options import Parser, add_language, parse, positive, whole
from keystone.i18n import COMMANDS, catalogue, domains, tr, trn


def german_entries() -> list[tuple[str, str, str]]:
    return [(domain, key, text) for domain in [*domains(), COMMANDS] for key, text in catalogue("de", domain).items()]


def test_a_count_of_one_reads_as_a_word_where_a_digit_would_be_odd() -> None:
    assert trn("de", "journal.goal.objective.asks", 1) == "erfülle mindestens eines deiner geheimen Ziele"
    assert trn("de", "journal.goal.objective.asks", 2) == "erfülle mindestens 2 deiner geheimen Ziele"
    assert trn("de", "journal.goal.research.any.result", 1) == "eine deiner Karten trägt einen Notizmarker"
    assert trn("de", "journal.goal.research.result", 1, symbol="Gefährdet").startswith("eine deiner Karten")


def test_places_and_ranks_are_german_ordinals() -> None:
    points = trn("de", "reply.point.count", 87)
    assert tr("de", "history.place", points=points, place=tr("de", "history.ordinal", place=1), seats=3) \
        == "87 Punkte, 1. Platz von 3"
    line = tr("de", "stats.leaderboard.line", place=1, who="Zoë", you="", shown=1512,
              games=trn("de", "stats.rated_games", 5))
    assert line == "1. Zoë: 1512 (nach 5 gewerteten Spielen)"


def test_a_complete_sentence_after_a_colon_starts_with_a_capital() -> None:
    german = catalogue("de", "events")
    steps = {k: v for k, v in german.items() if k.startswith(("error.step.", "event.skip.why."))}
    assert steps and all(text[0].isupper() for text in steps.values()), steps
    assert tr("de", "error.finish", step=german["error.step.move"]).endswith(": Verschiebe eine Karte "
                                                                           "(`move FROM TO`) oder `skip`.")


def test_no_german_entry_says_nimm_for_using_a_command_or_holds_cards() -> None:
    found = [f"{d}.po {k}" for d, k, text in german_entries()
             if re.search(r"\b[Nn]imm\s+`", text) or re.search(r"\bhältst\b|\bhält\s+\{cards\}|\bhält \(", text)]
    assert found == []


def test_who_may_do_it_is_one_clause_without_a_comma_before_oder() -> None:
    found = [f"{d}.po {k}" for d, k, text in german_entries() if ", oder wer " in text]
    assert found == []
    assert tr("de", "game.abandon.denied") == "Abbrechen kann das Spiel nur, wer es geöffnet hat oder diesen Kanal verwaltet."


def test_the_picture_key_is_the_legend_and_the_rules_point_to_it() -> None:
    assert tr("de", "picture.key") == "Legende"
    assert "wie die Legende auf deinem Tableau-Bild" in catalogue("de", "rules")["rules.key"]
    assert "Symbol-Übersicht" not in catalogue("de", "rules")["rules.key"]


def test_the_help_names_a_choice_as_the_german_client_shows_it() -> None:
    more = catalogue("de", "keystone")["reply.help.more"]
    board = catalogue("de", COMMANDS)["choice.board"]
    assert f"`zeigen: {board}`" in more


def test_german_hands_name_the_cards_a_player_has_not_holds() -> None:
    assert tr("de", "picture.text.holds_hidden", who="Zoë", cards="2 Karten") == "Zoë hat 2 Karten auf der Hand, nur Zoë sieht sie."
    assert tr("de", "error.held.other", count=2, number=7) == "Du hast 2 Karten auf der Hand; eine Karte 7 gibt es nicht."


def parser(lang: str) -> Parser:
    made = Parser(prog="python -m keystone test")
    made.add_argument("--seed", type=whole)
    made.add_argument("--games", type=positive)
    add_language(made, "de" if lang == "de" else "en")
    return made


@pytest.mark.parametrize(("lang", "argv", "said"), [
    ("en", ["--seed", "x"], "Argument --seed: 'x' is not a whole number"),
    ("de", ["--seed", "x"], "Argument --seed: 'x' ist keine ganze Zahl"),
    ("en", ["--games", "0"], "Argument --games: '0' is not a whole number of at least 1"),
    ("de", ["--games", "0"], "Argument --games: '0' ist keine ganze Zahl ab 1"),
])
def test_the_number_checks_refuse_in_the_commands_language(lang: str, argv: list[str], said: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert parse(parser(lang), argv) == 2
    assert capsys.readouterr().err.startswith(said + " (")


def test_the_number_checks_speak_english_outside_a_parse() -> None:
    with pytest.raises(Exception, match="is not a whole number$"):
        whole("x")
    assert whole("12") == 12 and positive("3") == 3


def test_a_long_usage_is_pointed_at_in_the_commands_language() -> None:
    assert tr("de", "cli.pointer", prog="python -m keystone play") == "`python -m keystone play -h` zeigt alle Optionen"
    assert tr("en", "cli.pointer", prog="python -m keystone play") == "`python -m keystone play -h` lists the options"
