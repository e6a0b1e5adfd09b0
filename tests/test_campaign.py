"""The Field Journal: every assignment loads and sets up as described, its special rules are
enforced with a sentence naming the rule, goals are judged correctly, and the next assignment is recommended in order."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.cards import Card, Habitat
from keystone.data import load_catalog
from keystone.engine import GameState, IllegalAction, apply_text, dump_state, legal_actions, load_state
from keystone.engine.actions import BuyWild, UseSkill
from keystone.engine.board import CELL_NAMES, parse_cell
from keystone.engine.campaign import (
    ENVELOPE,
    LAST_ASSIGNMENT,
    Assignment,
    DisabledSkill,
    ExtraDiscards,
    JournalError,
    NoWilds,
    StoryTokens,
    WildCost,
    assignment,
    assignments,
    build_journal,
    config_for,
    envelope_open,
    evaluate,
    judge,
    progress,
    recommended,
    rule_name_in,
    start,
    story_species,
)
from keystone.engine.campaign.goals import stars_for
from keystone.engine.scoring import longest_ecosystem, score_board
from keystone.engine.state import PlacedCard

CAT = load_catalog()
RAW: list[dict[str, Any]] = json.loads(
    resources.files("keystone.data").joinpath("journal.json").read_text(encoding="utf-8")
)
NUMBERS = list(range(1, LAST_ASSIGNMENT + 1))


# --------------------------------------------------------------------------- the journal loads


def test_the_journal_has_twenty_distinct_assignments_in_order() -> None:
    journal = assignments()
    assert [a.number for a in journal] == NUMBERS
    assert len({a.title for a in journal}) == LAST_ASSIGNMENT
    assert len({a.place for a in journal}) == LAST_ASSIGNMENT
    assert all(assignment(a.number) is a for a in journal)


def test_every_assignment_and_special_rule_reads_in_german_too() -> None:
    for a in assignments():
        assert a.title_in("de") != a.title and a.story_in("de") != a.story, a.number
        assert (a.title_in("en"), a.story_in("en")) == (a.title, a.story)
        for rule in a.rules:
            assert rule.name_in("de") and rule.text_in("de") != rule.text, (a.number, rule.kind)
    burrows = assignment(3).story_rule
    assert burrows is not None and burrows.token_in("de") == "Baufähnchen" and burrows.token_in("en") == "burrow flag"
    assert assignment(20).title_in("de") == "Der versiegelte Umschlag"


def test_a_rule_named_in_a_games_setup_is_said_in_german_too() -> None:
    names = [r.name for a in assignments() for r in a.rules]
    assert len(set(names)) == len(names)  # a config keeps the English name alone, so it must name one rule
    assert rule_name_in(config_for(6).rule_names["wilds"], "de") == "Keine Spuren"
    assert rule_name_in("Leave No Trace", "en") == "Leave No Trace" and rule_name_in("Unknown", "de") == "Unknown"


def test_every_assignment_has_a_setup_change_or_special_rule_after_the_first() -> None:
    plain = Assignment(number=1, title="x" * 3, title_de="x" * 3, place="x" * 3, story="x" * 20,
                       story_de="x" * 20, goals=({"kind": "score", "stars": [1]},))
    for a in assignments()[1:]:
        assert a.setup != plain.setup or a.rules, a.title


def test_the_journal_page_describes_setup_rules_and_goals() -> None:
    a = assignment(12)
    lines = a.setup_lines()
    assert any("Skill tokens in play" in line for line in lines)
    assert any("Left out of the deck" in line for line in lines)
    assert len(a.goal_lines()) == len(a.goals)
    assert all(line.endswith(".") and line[0].isupper() for line in a.goal_lines())


@pytest.mark.parametrize("bad", [0, 21, -3, "5"])
def test_unknown_assignment_numbers_get_a_sentence(bad: Any) -> None:
    with pytest.raises(JournalError, match="There is no assignment"):
        assignment(bad)


# --------------------------------------------------------------------------- setup as described


def _in_play(state: GameState) -> set[str]:
    return set(state.deck) | {f.card for f in state.field if f is not None}


@pytest.mark.parametrize("number", NUMBERS)
def test_each_assignment_sets_up_as_described(number: int) -> None:
    a = assignment(number)
    s = a.setup
    state = start(number, 11, "Ana")
    seat = state.seats[0]
    assert state.time == s.time_start
    assert seat.synergy == s.starting_synergy
    assert len(state.field) == s.field_size
    if s.skills:
        assert sorted(k.number for k in state.skills) == sorted(s.skills)
    else:
        assert len(state.skills) == 5
    if s.objective:
        assert seat.objective == s.objective
    for cell, card in s.preset.items():
        placed = seat.board[parse_cell(cell) or 0]
        assert placed is not None and placed.card == card
    assert sum(p is not None for p in seat.board) == len(s.preset)
    assert not _in_play(state) & set(s.removed_cards)
    expected_deck = len(CAT.species_for(s.expansions)) - len(s.removed_cards) - len(s.preset)
    assert len(_in_play(state)) == expected_deck
    if ENVELOPE in s.expansions:
        assert {c.id for c in CAT.extra_species} <= _in_play(state)


@pytest.mark.parametrize("number", NUMBERS)
def test_each_assignment_config_survives_a_save_and_load(number: int) -> None:
    state = start(number, 4, "Ana")
    again = load_state(dump_state(state))
    assert again.config == config_for(number)
    assert progress(number, again).score == progress(number, state).score


def test_the_sealed_envelope_is_played_in_the_last_assignment_only() -> None:
    with_envelope = [a.number for a in assignments() if ENVELOPE in a.setup.expansions]
    assert with_envelope == [LAST_ASSIGNMENT]


def test_difficulty_levers_tighten_across_the_campaign() -> None:
    """The later half asks for more and gives less: a higher score bar, and more restrictions."""
    def bar(a: Assignment) -> int:
        return max((g.stars[0] for g in a.goals if g.kind == "score"), default=0)

    def restrictions(a: Assignment) -> int:
        s = a.setup
        return (len(a.rules) + (s.time_start < 4) + (s.starting_synergy < 5) + (s.field_size < 6)
                + len(s.removed_cards) // 3 + len(a.goals) - 1)

    journal = assignments()
    early, late = journal[:10], journal[10:]
    assert sum(map(bar, late)) > sum(map(bar, early))
    assert sum(map(restrictions, late)) > sum(map(restrictions, early))


# --------------------------------------------------------------------------- special rules enforced


def _rules_of(kind: type) -> list[tuple[int, Any]]:
    return [(a.number, r) for a in assignments() for r in a.rules if isinstance(r, kind)]


def _empty_cell(state: GameState) -> str:
    return next(CELL_NAMES[i] for i, p in enumerate(state.seats[0].board) if p is None)


@pytest.mark.parametrize(("number", "rule"), _rules_of(NoWilds))
def test_no_wilds_rule_refuses_a_wild_card_naming_the_rule(number: int, rule: NoWilds) -> None:
    state = start(number, 5, "Ana")
    state.seats[0].synergy = 30
    with pytest.raises(IllegalAction, match=f"Wild cards are not allowed.*{rule.name}"):
        apply_text(state, f"wild forest {_empty_cell(state)}")
    assert not any(isinstance(a, BuyWild) for a in legal_actions(state))
    assert state.seats[0].synergy == 30


@pytest.mark.parametrize(("number", "rule"), _rules_of(WildCost))
def test_wild_cost_rule_charges_more_and_names_the_rule(number: int, rule: WildCost) -> None:
    state = start(number, 5, "Ana")
    state.seats[0].synergy = rule.cost - 1
    with pytest.raises(IllegalAction, match=f"costs {rule.cost} synergy.*{rule.name}"):
        apply_text(state, f"wild desert {_empty_cell(state)}")
    state.seats[0].synergy = rule.cost
    _, events = apply_text(state, f"wild desert {_empty_cell(state)}")
    assert any(f"for {rule.cost} synergy" in e.text for e in events)


@pytest.mark.parametrize(("number", "rule"), _rules_of(DisabledSkill))
def test_disabled_skill_rule_refuses_the_token_naming_the_rule(number: int, rule: DisabledSkill) -> None:
    state = start(number, 5, "Ana")
    assert rule.skill in [k.number for k in state.skills]
    with pytest.raises(IllegalAction, match=f"Skill {rule.skill} is disabled.*{rule.name}"):
        apply_text(state, f"skill {rule.skill}")
    assert UseSkill(rule.skill) not in legal_actions(state)


@pytest.mark.parametrize(("number", "rule"), _rules_of(ExtraDiscards))
def test_extra_discards_rule_makes_skills_discard_more(number: int, rule: ExtraDiscards) -> None:
    state = start(number, 5, "Ana")
    token = next(k.number for k in state.skills if k.number not in config_for(number).disabled_skills)
    base = sum(e.count for e in CAT.skill(token).active.effects if e.kind == "field_discard")
    state, _ = apply_text(state, f"skill {token}")
    while state.step is not None and state.step.kind != "field_discard":
        state, _ = apply_text(state, "pile 1" if state.step.kind == "pile_held" else "skip")
    assert state.step is not None and state.step.count == base + rule.count


@pytest.mark.parametrize(("number", "rule"), _rules_of(StoryTokens))
def test_story_tokens_belong_to_species_of_the_game(number: int, rule: StoryTokens) -> None:
    species = {c.id for c in CAT.species_for(assignment(number).setup.expansions)}
    assert story_species(number) == frozenset(rule.species)
    assert story_species(number) <= species


def test_assignments_without_story_tokens_have_none() -> None:
    assert story_species(1) == frozenset()


def _named_cards(text: str, lang: str) -> list[str]:
    """The card names a rule's "... are exactly these: A, B and C." lists."""
    listed = text.rsplit(": ", 1)[1].removesuffix(".")
    rest, last = listed.rsplit(" and " if lang == "en" else " und ", 1)
    return [*rest.split(", "), last]


@pytest.mark.parametrize(("number", "rule"), _rules_of(StoryTokens))
def test_a_story_rule_names_exactly_the_cards_its_goal_counts(number: int, rule: StoryTokens) -> None:
    pool = CAT.species_for(assignment(number).setup.expansions)
    for lang in ("en", "de"):
        counted = [c.name_in(lang) for c in pool if c.id in story_species(number)]  # what the goal counts
        named = _named_cards(rule.text_in(lang), lang)
        assert sorted(named) == sorted(counted), (lang, set(named) ^ set(counted))
        others = [c.name_in(lang) for c in pool if c.id not in story_species(number)]
        assert not [name for name in others if name in rule.text_in(lang)], lang


def test_radio_collars_are_on_the_named_wolves_and_bears_only() -> None:
    rule = assignment(9).story_rule
    assert rule is not None
    english, german = rule.text_in("en"), rule.text_in("de")
    assert "The cards with a radio collar are exactly these: Woodland Caribou, Alaskan Moose, Arctic Wolf, " \
           "Northwestern Gray Wolf, Grizzly Bear, Polar Bear, Wolverine, Canada Lynx, Musk Ox, Dall Sheep and " \
           "Mountain Goat." in english
    assert "Karten mit „Senderhalsband“ sind genau diese: Waldkaribu, Alaska-Elch, Polarwolf, Mackenzie-Wolf, " \
           "Grizzlybär, Eisbär, Vielfraß, Kanadischer Luchs, Moschusochse, Dall-Schaf und Schneeziege." in german
    for word in ("wolves", "bears", "Red Wolf", "Mexican Gray Wolf", "American Black Bear"):
        assert word not in english
    for word in ("Wölfe", "Bären", "Rotwolf", "Mexikanischer Wolf", "Schwarzbär"):
        assert word not in german
    a = assignment(9)
    uncollared = {"A1": ("red-wolf", 0), "A2": ("mexican-gray-wolf", 0), "A3": ("american-black-bear", 0),
                  "B1": ("arctic-wolf", 0), "B2": ("polar-bear", 0)}
    state = _finished(a, uncollared)
    for lang in ("en", "de"):
        said = progress(9, state, lang)
        assert said.goals[0].value == 2, "only the Arctic Wolf and the Polar Bear carry a collar"
        assert said.sentences()[-1] == rule.cards_sentence(lang)  # /journal status names them as the page does
        assert rule.cards_sentence(lang) in rule.text_in(lang)


# --------------------------------------------------------------------------- goals judged


def _custom(goals: list[dict[str, Any]], rules: list[dict[str, Any]] | None = None) -> Assignment:
    return Assignment.model_validate({"number": 1, "title": "Test Plot", "title_de": "Testfläche",
                                      "place": "A test plot", "story": "A board laid out by hand to check the judge.",
                                      "story_de": "Ein von Hand gelegtes Tableau für den Richter.",
                                      "rules": rules or [], "goals": goals})


def _leg_bands(*species: str) -> list[dict[str, Any]]:
    """A story-token rule for `_custom`: these species carry a leg band."""
    return [{"kind": "story_tokens", "name": "Leg Bands", "token": "leg band", "text": "Birds carry a leg band here.",
             "name_de": "Beinringe", "token_de": "Beinring", "text_de": "Vögel tragen hier einen Beinring.",
             "species": list(species)}]


def _finished(a: Assignment, cells: dict[str, tuple[str, int]], synergy: int = 0) -> GameState:
    """A game of `a` whose board holds exactly `cells` (cell -> card id, research) and is over."""
    from keystone.engine import new_game

    state = new_game(a.config(), 3, ["Ana"])
    seat = state.seats[0]
    seat.board = [None] * 16
    for cell, (card, research) in cells.items():
        seat.board[parse_cell(cell) or 0] = PlacedCard(card, research)
    seat.synergy = synergy
    state.phase = "over"
    return state


BOARD = {
    # Row A: a wetland run 1-2-3-5, ascending with a gap (second edition).
    "A1": ("montezuma-bald-cypress", 1), "A2": ("piping-plover", 1), "A3": ("snail-kite", 0),
    "A4": ("american-alligator", 0),
    # Row C: cards sharing desert and wetland, 2-3-4: an ecosystem of either habitat.
    "C1": ("cottontail-rabbit", 0), "C2": ("sandhill-crane", 0), "C3": ("peregrine-falcon", 0),
    # Row D: a forest Wild between 1 and 4, then an arctic card that breaks the run.
    "D1": ("american-red-squirrel", 0), "D2": ("wild-forest-fall", 0), "D3": ("turkey-vulture", 0),
    "D4": ("arctic-wolf", 0),
}


def _value(goal: dict[str, Any], rules: list[dict[str, Any]] | None = None, synergy: int = 0) -> int:
    a = _custom([goal], rules)
    return evaluate(a, _finished(a, BOARD, synergy)).goals[0].value


def test_ecosystem_goal_finds_the_longest_run_of_a_habitat() -> None:
    assert _value({"kind": "ecosystem", "habitat": "wetland", "stars": [2]}) == 4
    assert _value({"kind": "ecosystem", "habitat": "desert", "stars": [2]}) == 3
    assert _value({"kind": "ecosystem", "habitat": "forest", "stars": [2]}) == 3  # 1, Wild as 2 or 3, 4
    assert _value({"kind": "ecosystem", "habitat": "arctic", "stars": [2]}) == 0
    assert _value({"kind": "ecosystem", "stars": [2]}) == 4


def test_ecosystem_goal_sees_a_run_the_score_sheet_scored_as_another_habitat() -> None:
    a = _custom([{"kind": "ecosystem", "habitat": "wetland", "stars": [3]}])
    only_row_c = {k: v for k, v in BOARD.items() if k.startswith("C")}
    state = _finished(a, only_row_c)
    result = evaluate(a, state)
    assert result.sheet.rows[2].cards == 3
    assert result.goals[0].value == 3 and result.won


def test_count_goals_count_what_the_board_shows() -> None:
    assert _value({"kind": "research", "symbol": "endangered", "stars": [1]}) == 1  # the plover
    assert _value({"kind": "research", "stars": [1]}) == 2  # the cypress and the plover
    assert _value({"kind": "symbol", "symbol": "endangered", "stars": [1]}) == 2  # plover, kite
    assert _value({"kind": "symbol", "symbol": "fall", "stars": [1]}) == 3  # squirrel, the Wild, vulture
    assert _value({"kind": "keystones", "stars": [1]}) == 3  # alligator, falcon, vulture
    assert _value({"kind": "synergy", "stars": [1]}, synergy=17) == 17


def test_story_goal_counts_story_species_on_the_board() -> None:
    rules = _leg_bands("piping-plover", "snail-kite", "sandhill-crane", "bald-eagle")
    assert _value({"kind": "story", "stars": [1]}, rules) == 3


def test_score_objective_and_ecosystem_count_goals_read_the_score_sheet() -> None:
    a = _custom([{"kind": "score", "stars": [1]}, {"kind": "objective", "stars": [1]},
                 {"kind": "ecosystems", "stars": [1]}])
    state = _finished(a, BOARD, synergy=9)
    board = [None if p is None else (CAT.card(p.card), p.research) for p in state.seats[0].board]
    objective = CAT.objectives[state.seats[0].objective or 1]
    sheet = score_board(board, objective, 9)
    result = evaluate(a, state)
    assert result.goals[0].value == sheet.total == result.score
    assert result.goals[1].value == sheet.goals_completed
    lines_with_points = sum(1 for line in (*sheet.rows, *sheet.columns) if line.points)
    assert result.goals[2].value == lines_with_points >= 3  # rows A, C and D at least


def test_stars_are_the_weakest_goals_and_winning_needs_every_first_threshold() -> None:
    a = _custom([{"kind": "ecosystem", "habitat": "wetland", "stars": [2, 3, 4]},  # 4: three stars
                 {"kind": "keystones", "stars": [2, 5]}])  # 3 keystones: reached 1 of 2 -> two stars
    result = evaluate(a, _finished(a, BOARD))
    assert [g.stars for g in result.goals] == [3, 2]
    assert result.won and result.stars == 2
    assert "two stars (three stars at 5)" in result.goals[1].sentence
    b = _custom([{"kind": "ecosystem", "habitat": "arctic", "stars": [2]}, {"kind": "keystones", "stars": [1]}])
    lost = evaluate(b, _finished(b, BOARD))
    assert not lost.won and lost.stars == 0
    assert "not reached" in lost.goals[0].sentence
    assert "not complete" in lost.sentences()[0]


@given(st.lists(st.integers(1, 30), min_size=1, max_size=3, unique=True).map(sorted), st.integers(0, 40))
def test_stars_grow_with_the_value_and_the_last_threshold_is_three(thresholds: list[int], value: int) -> None:
    stars = stars_for(thresholds, value)
    assert (stars == 0) == (value < thresholds[0])
    assert (stars == 3) == (value >= thresholds[-1])
    assert stars <= stars_for(thresholds, value + 1)


# a card pool for random boards: species of every number and habitat, plus Wild cards
_POOL: list[Card] = [*CAT.species[::3], *CAT.wilds]


def _reduced_oracle(board: list[tuple[Card, int] | None], habitat: Habitat, rules: Any) -> int:
    """The longest ecosystem of one habitat by the scorer itself: keep only that habitat's cards,
    drop icons and research, and read the longest scored line."""
    reduced: list[tuple[Card, int] | None] = [
        None if c is None or habitat not in c[0].habitats
        else (c[0].model_copy(update={"habitats": (habitat,), "keystone": False}), 0)
        for c in board
    ]
    sheet = score_board(reduced, None, 0, rules)
    return max(line.cards for line in (*sheet.rows, *sheet.columns))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.none() | st.sampled_from(_POOL).map(lambda c: (c, 0)), min_size=16, max_size=16),
       st.sampled_from(list(Habitat)), st.sampled_from(["second-edition", "first-edition"]))
def test_longest_ecosystem_agrees_with_the_scorer(board: list[tuple[Card, int] | None], habitat: Habitat,
                                                  rules: Any) -> None:
    assert longest_ecosystem(board, habitat, rules) == _reduced_oracle(board, habitat, rules)


def test_judge_refuses_an_unfinished_game_and_a_game_of_another_assignment() -> None:
    state = start(3, 8, "Ana")
    with pytest.raises(JournalError, match="still being played"):
        judge(3, state)
    live = progress(3, state)
    assert not live.finished and not live.won and "in progress" in live.sentences()[0]
    with pytest.raises(JournalError, match="not set up for assignment 5"):
        progress(5, state)


# --------------------------------------------------------------------------- progress through the journal


completed_sets = st.sets(st.integers(1, LAST_ASSIGNMENT))


@given(completed_sets)
def test_the_recommended_assignment_is_the_lowest_not_yet_won(done: set[int]) -> None:
    chosen = recommended(done)
    assert all(n in done for n in range(1, chosen))
    assert chosen not in done or done == set(NUMBERS)


def test_every_assignment_won_recommends_the_last() -> None:
    assert recommended(NUMBERS) == LAST_ASSIGNMENT
    assert recommended([]) == 1 and recommended([1, 2, 4]) == 3


@given(completed_sets)
def test_the_envelope_is_open_once_the_last_assignment_is_started(started: set[int]) -> None:
    assert envelope_open(started) == (LAST_ASSIGNMENT in started)


def test_an_assignment_number_outside_the_journal_is_refused_with_a_sentence() -> None:
    with pytest.raises(JournalError, match="There is no assignment 99"):
        recommended({1, 99})
    with pytest.raises(JournalError, match="There is no assignment 0"):
        envelope_open([0])


# --------------------------------------------------------------------------- bad journal data


def _broken(index: int, change: Any) -> list[dict[str, Any]]:
    raw = copy.deepcopy(RAW)
    change(raw[index])
    return raw


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (0, lambda e: e.pop("title"), "title"),
        (0, lambda e: e.pop("story_de"), "story_de"),
        (2, lambda e: e["rules"][0].pop("text_de"), "text_de"),
        (19, lambda e: e["rules"][0].pop("token_de"), "token_de"),
        (1, lambda e: e["setup"]["preset"].update({"B3": "jackalope"}), "'jackalope' is not a species"),
        (1, lambda e: e["setup"]["preset"].update({"E9": "coyote"}), "'E9' is not a board cell"),
        (11, lambda e: e["rules"][0].update({"skill": 8}), "disabled skill 8 must be one of the fixed"),
        (0, lambda e: e["goals"].append({"kind": "story", "stars": [1]}), "story goal needs a story_tokens rule"),
        (0, lambda e: e["goals"][0].update({"stars": [50, 40]}), "strictly ascending"),
        (1, lambda e: e["goals"][0].update({"stars": [1, 3]}), "at least 2"),
        (1, lambda e: e["setup"]["preset"].update({"b2": "coyote"}), "preset twice"),
        (1, lambda e: e["goals"][0].update({"stars": [5]}), "can never be reached"),
        (2, lambda e: e["goals"][0].update({"stars": [40]}), "can never be reached|only"),
        (5, lambda e: e.setdefault("rules", []).append(dict(e["rules"][0])), "each kind of special rule"),
        (0, lambda e: e.update({"setup": {"skills": [1, 1, 2]}}), "distinct tokens"),
        (0, lambda e: e.update({"setup": {"expansions": ["moon"]}}), "Unknown expansion 'moon'"),
        (0, lambda e: e.update({"rules": [{"kind": "fly", "name": "Wings", "text": "Everything can fly today."}]}),
         "fly"),
    ],
)
def test_bad_journal_data_is_refused_naming_the_assignment(index: int, change: Any, message: str) -> None:
    with pytest.raises(JournalError, match=rf"assignment {index + 1}.*({message})"):
        build_journal(_broken(index, change))


def test_assignments_must_be_numbered_in_order() -> None:
    raw = copy.deepcopy(RAW)
    raw[0], raw[1] = raw[1], raw[0]
    with pytest.raises(JournalError, match="numbered 1 to 20 in order"):
        build_journal(raw)
    with pytest.raises(JournalError, match="list of assignments"):
        build_journal({"assignments": raw})


def test_the_shipped_journal_rebuilds_to_the_same_assignments() -> None:
    assert build_journal(copy.deepcopy(RAW)) == assignments()


def test_goal_lines_name_every_star_level_and_the_story_token() -> None:
    rules = _leg_bands("piping-plover", "snail-kite", "sandhill-crane")
    a = _custom([{"kind": "score", "stars": [40, 50, 60]}, {"kind": "story", "stars": [2, 3]},
                 {"kind": "ecosystem", "habitat": "arctic", "stars": [3]}], rules)
    assert a.goal_lines() == [
        "Score at least 40 points for one star, 50 for two, 60 for three.",
        "Have at least 2 species with a leg band on your board for two stars, 3 for three.",
        "Build an arctic ecosystem of at least 3 cards.",
    ]
    result = evaluate(a, _finished(a, BOARD))
    assert result.goals[1].sentence == "Have at least 2 species with a leg band on your board: you have 3, three stars."
    assert result.goals[1].asked == a.goal_lines()[1]


def test_a_partly_reached_goal_names_the_next_star_level() -> None:
    a = _custom([{"kind": "keystones", "stars": [2, 3, 4]}, {"kind": "research", "stars": [1, 3]}])
    result = evaluate(a, _finished(a, BOARD))  # three keystones, two researched cards
    assert result.goals[0].sentence.endswith("you have 3, two stars (three stars at 4).")
    assert result.goals[1].sentence == "Research at least 1 card: 2 cards of yours carry research, two stars (three stars at 3)."


def test_goal_lines_and_the_verdict_read_in_german_with_the_same_stars() -> None:
    rules = _leg_bands("piping-plover", "snail-kite", "sandhill-crane")
    a = _custom([{"kind": "score", "stars": [40, 50, 60]}, {"kind": "story", "stars": [2, 3]},
                 {"kind": "ecosystem", "habitat": "arctic", "stars": [3]}], rules)
    assert a.goal_lines("de") == [
        "Erziele mindestens 40 Punkte für einen Stern, 50 für zwei, 60 für drei.",
        "Bring mindestens 2 Spezies mit „Beinring“ auf dein Tableau für zwei Sterne, 3 für drei.",
        "Bau ein Arktis-Ökosystem aus mindestens 3 Karten.",
    ]
    german, english = evaluate(a, _finished(a, BOARD), "de"), evaluate(a, _finished(a, BOARD))
    assert german.goals[1].sentence == "Bring mindestens 2 Spezies mit „Beinring“ auf dein Tableau: du hast 3, drei Sterne."
    assert [g.stars for g in german.goals] == [g.stars for g in english.goals]
    assert german.sentences()[0].startswith("Szenario 1, Testfläche: ")
    partly = _custom([{"kind": "keystones", "stars": [2, 3, 4]}, {"kind": "research", "stars": [1, 3]}])
    said = evaluate(partly, _finished(partly, BOARD), "de")
    assert said.goals[0].sentence.endswith("du hast 3, zwei Sterne (drei Sterne ab 4).")
    assert said.goals[1].sentence.startswith("Erforsche mindestens 1 Karte: 2 deiner Karten tragen Notizmarker")


@pytest.mark.parametrize("number", NUMBERS)
def test_every_journal_page_has_german_setup_and_goal_lines(number: int) -> None:
    a = assignment(number)
    for lines, english in ((a.setup_lines("de"), a.setup_lines()), (a.goal_lines("de"), a.goal_lines())):
        assert len(lines) == len(english) and all(line.endswith(".") and line[0].isupper() for line in lines)
        assert not any(word in " ".join(lines) for word in ("Score", "synergy", "ecosystem", "story-token", "Have "))
