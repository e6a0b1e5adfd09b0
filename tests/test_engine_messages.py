"""What the engine says, in English and German: every event and every refusal has a message key and
plain parameters, and says itself in either language."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, IllegalAction, apply, legal_actions, new_game, parse_action
from keystone.engine.actions import BadNotation, Pass, Resign
from keystone.engine.events import Event, event_text
from keystone.engine.history import History
from keystone.engine.messages import say
from keystone.engine.refusals import refusal
from keystone.i18n import LANGUAGES, catalogue
from tests.engine_helpers import cid, game, play, put, set_field
from tests.test_engine_properties import ANY_ACTIONS

EVENTS = catalogue("en", "events")
WORDS_ONLY = ("event.skip.why.", "event.part.", "event.target.", "event.of_", "event.synergy.", "event.paid.", "error.step.")
"""Keys that are parts of other messages, never a whole event or refusal of their own."""


def whole(key: str) -> str:
    """The key an event or a refusal names: without its count form."""
    return key.removesuffix(".one").removesuffix(".other")


def whole_keys(prefix: str) -> set[str]:
    return {whole(k) for k in EVENTS if k.startswith(prefix) and not k.startswith(WORDS_ONLY)}


def said_in_full(text: str) -> bool:
    """Non-empty, and no placeholder left unfilled."""
    return bool(text.strip()) and "{" not in text and "}" not in text


def seeded_games() -> tuple[list[Event], list[IllegalAction]]:
    """Every event and a refusal of every probe from a few seeded random games."""
    events: list[Event] = []
    refused: list[IllegalAction] = []
    configs = [(GameConfig(players=2), 2), (GameConfig(players=1), 1), (GameConfig(players=2, coop=True), 1),
               (GameConfig(players=1, wilds_allowed=False, disabled_skills=[4], skills=[1, 2, 3, 4, 5],
                           rule_names={"wilds": "Leave No Trace", "skill:4": "Frozen Budget"}), 1)]
    for seed in range(3):
        for config, boards in configs:
            history = History(new_game(config, seed, ["Kiara", "Thomas"][:boards]))
            choose = random.Random(seed)
            while legal := legal_actions(history.state):
                refused += [IllegalAction.of(refusal(history.state, a)) for a in ANY_ACTIONS if a not in legal]
                events += history.play(str(choose.choice(legal)))
                if choose.random() < 0.1:
                    try:
                        history.undo()
                    except IllegalAction as error:
                        refused.append(error)
            refused.append(refusal_of(functools.partial(apply, history.state, Pass())))
    events += apply(game(2), Resign(1))[1]
    return events, refused


Played = tuple[list[Event], list[IllegalAction]]


@pytest.fixture(scope="module")
def played() -> Played:
    return seeded_games()


def nothing_left(state: GameState) -> GameState:
    """A turn with no legal action at all: an empty Field and no skill tokens (a made-up corner)."""
    bare = state.clone()
    bare.field = [None] * len(bare.field)
    bare.skills = []
    return bare


def test_every_event_kind_has_a_key_and_says_itself_in_both_languages(played: Played) -> None:
    events = [*played[0], *apply(nothing_left(game(2)), Pass())[1]]
    assert {whole(e.key) for e in events} == whole_keys("event.")
    for event in events:
        assert event_text(event) == event.text
        german = event_text(event, "de")
        assert said_in_full(german) and german != event.text


def test_every_refusal_has_a_key_and_says_itself_in_both_languages(played: Played) -> None:
    refused = [*played[1], refusal_of(lambda: new_game(GameConfig(players=5), 1, ["A"])),
                refusal_of(lambda: new_game(GameConfig(players=1, coop=True), 1, ["A"])),
                refusal_of(lambda: new_game(GameConfig(players=2), 1, ["A"])),
                refusal_of(lambda: new_game(GameConfig(players=1, preset={"Z9": cid("Coyote")}), 1, ["A"])),
                refusal_of(lambda: apply(game(2), Resign(4))),
                refusal_of(lambda: History(game(2)).undo()), refusal_of(undo_after_a_draw)]
    refused += [refusal_of(functools.partial(parse_action, text)) for text in NOTATION]
    covered = {whole(e.key) for e in refused}
    assert covered == whole_keys("error.") - {"error.cannot"}  # reached only by a state no rule leads to
    for error in refused:
        assert error.sentence() == str(error) == error.sentence("en")
        german = error.sentence("de")
        assert said_in_full(german) and german != str(error), error.key


NOTATION = ["", "fly", "take 1", "take x B2", "take 1 Z9", "take 0 B2", "wild lava B2", "skill 12345", "resign 0",
            "place 0 A1", "resolve x", "pile 0", "resign x", "place y A1", "skip now"]


def undo_after_a_draw() -> None:
    history = History(game(2, skills=[1, 2, 3, 4, 5]))
    history.play("skill 1")
    history.play("draw")
    history.undo()


def refusal_of(attempt: Callable[[], object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        attempt()
    return caught.value


def test_a_take_names_the_card_in_the_readers_language() -> None:
    state = game(2)
    set_field(state, ["Coyote", "Red Wolf", "Aspen", "Musk Ox", "Wolverine", "Ocelot"], [0, 0, 0, 0, 0, 2])
    _, events = play(state, "take 6 B2")
    take = next(e for e in events if e.kind == "take")
    assert take.params["card"] == cid("Ocelot") and take.text.startswith("Kiara took Ocelot from Field slot 6")
    german = event_text(take, "de")
    assert german.startswith("Kiara nimmt die Karte „Ozelot“ mit 2 Eicheln darauf von Platz 6 der Auslage "
                             "(Kosten: nichts) und siedelt sie auf B2 an")
    assert "Ocelot" not in german and "(paying nothing)" in take.text


def test_a_private_draw_stays_private_and_names_the_cards_in_german() -> None:
    _, events = play(game(2, skills=[1, 2, 3, 4, 5]), "skill 1", "draw")
    drew = next(e for e in events if e.private)
    cards = [load_catalog().card(str(c)) for c in drew.params["cards"]]  # type: ignore[union-attr]
    assert drew.kind == "draw" and drew.text == "You drew: " + ", ".join(c.name for c in cards) + "."
    assert event_text(drew, "de") == "Du hast gezogen: " + ", ".join(c.name_in("de") for c in cards) + "."
    public = [event_text(e, "de") for e in events if e.kind == "draw" and not e.private]
    assert public == ["Kiara zieht 3 Karten vom Stapel."]


def test_an_event_is_plain_json_and_says_the_same_after_a_round_trip(played: Played) -> None:
    events, _ = played
    for event in events:
        kept = json.loads(json.dumps({"kind": event.kind, "seat": event.seat, "key": event.key,
                                      "params": event.params, "private": event.private}))
        again = Event(**kept)
        assert again == event and event_text(again, "de") == event_text(event, "de")


def test_an_event_or_refusal_from_a_sentence_alone_says_that_sentence_in_every_language() -> None:
    old = Event("draw", 1, "Hard bot drew 3 cards from the deck.")
    error = IllegalAction("This game is not running.")
    assert [event_text(old, lang) for lang in LANGUAGES] == [old.text] * len(LANGUAGES)
    assert [error.sentence(lang) for lang in LANGUAGES] == [str(error)] * len(LANGUAGES)


def test_a_skill_summary_and_a_special_rule_are_said_in_the_readers_language() -> None:
    state = game(1, wilds_allowed=False, rule_names={"wilds": "Leave No Trace"})
    with pytest.raises(IllegalAction) as caught:
        apply(state, parse_action("wild forest A1"))
    assert caught.value.key == "error.wilds_off"
    assert caught.value.sentence("de") == "Wildniskarten sind in diesem Spiel nicht erlaubt (Sonderregel: Leave No Trace)."
    skill = state.skills[0].number
    _, events = play(state, f"skill {skill}")
    use = events[0]
    assert event_text(use, "de") == (f"Kiara nutzt Forschungsplättchen {skill}: "
                                     f"{load_catalog().skill(skill).active.summary_in('de')}.")


def test_a_refusal_names_the_card_in_the_cell_in_german() -> None:
    state = game(2)
    put(state, 0, "B2", "Coyote")
    set_field(state, ["Aspen", "Red Wolf", "Musk Ox", "Wolverine", "Ocelot", "Pronghorn Antelope"])
    with pytest.raises(IllegalAction) as caught:
        apply(state, parse_action("take 6 B2"))
    assert str(caught.value) == "Cell B2 already holds Coyote; choose an empty cell."
    assert caught.value.sentence("de") == "Auf Feld B2 liegt schon die Karte „Kojote“; wähle ein leeres Feld."


def test_german_events_name_a_card_as_a_quoted_label_and_an_amount_with_its_unit() -> None:
    state = game(2)
    set_field(state, ["American Black Bear", "Red Wolf", "Musk Ox", "Wolverine", "Ocelot", "Aspen"], [1, 0, 0, 0, 0, 0])
    state.seats[0].synergy = 9
    _, events = play(state, "take 1 B2")
    german = event_text(events[0], "de")
    assert german.startswith("Kiara nimmt die Karte „Amerikanischer Schwarzbär“ mit 1 Eichel darauf "
                             "von Platz 1 der Auslage (Kosten: "), german
    cost = german.split("(Kosten: ")[1].split(")")[0]
    assert cost.endswith((" Eichel", " Eicheln")) and cost.split()[0].isdigit(), german
    assert " und siedelt sie auf B2 an" in german


def test_a_wild_card_is_bought_by_its_habitat_named_in_either_language() -> None:
    assert [str(parse_action(w)) for w in ("wild wald C1", "wild Feuchtgebiet a2", "wild wüste B3", "wild arctic D4")] == [
        "wild forest C1", "wild wetland A2", "wild desert B3", "wild arctic D4"]
    with pytest.raises(BadNotation) as caught:
        parse_action("wild wiese C1")
    assert "Sag Wald, Wüste, Feuchtgebiet oder Arktis" in caught.value.sentence("de")


def test_a_bad_word_is_refused_in_german_too() -> None:
    with pytest.raises(BadNotation) as caught:
        parse_action("take 1 Z9")
    assert caught.value.sentence("de") == "'z9' ist kein Feld: Nimm eine Reihe A-D und eine Spalte 1-4, etwa B2."


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40), players=st.integers(min_value=1, max_value=4),
       data=st.data())
def test_random_legal_play_is_said_in_full_in_german(seed: int, players: int, data: st.DataObject) -> None:
    state = new_game(GameConfig(players=players), seed, [f"P{i}" for i in range(players)])
    while state.phase != "over":
        legal = legal_actions(state)
        probe = data.draw(st.sampled_from(ANY_ACTIONS), label="probe")
        if probe not in legal:
            assert said_in_full(say((why := refusal(state, probe)).key, why.params, "de"))
        state, events = apply(state, legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])
        for event in events:
            assert said_in_full(event_text(event, "de")), event
