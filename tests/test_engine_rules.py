"""One test (at least) for every rule of play in the rulebook, and its worked examples."""

from __future__ import annotations

import pytest

from keystone.cards import Habitat
from keystone.engine import IllegalAction, legal_actions, parse_action, player_view, public_view
from keystone.engine.actions import BadNotation, EndTurn, Pass, Resign, Take, UseSkill
from keystone.engine.board import CELL_NAMES, parse_cell
from keystone.engine.game import apply
from keystone.engine.invariants import check_invariants
from keystone.engine.results import final_scores, places, standings
from keystone.engine.state import dump_state, load_state
from tests.engine_helpers import (
    cell_card,
    cid,
    game,
    play,
    put,
    set_field,
    snapshot,
    stack_deck,
)

FIELD6 = ["Aspen", "Mallard", "American Bison", "Snowshoe Hare", "Snail Kite", "Saguaro Cactus"]

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    ("players", "time", "synergy"),
    [(1, 4, [5]), (2, 5, [5, 6]), (3, 6, [5, 6, 7]), (4, 7, [5, 6, 7, 8])],
)
def test_setup_time_track_and_starting_synergy(players: int, time: int, synergy: list[int]) -> None:
    state = game(players)
    assert state.time == time
    assert [s.synergy for s in state.seats] == synergy


def test_setup_field_skills_wilds_objectives() -> None:
    state = game(2)
    assert all(f is not None for f in state.field) and len(state.field) == 6
    assert len(state.deck) == 87 - 6
    assert len(state.skills) == 5 and not any(k.exhausted for k in state.skills)
    assert len({k.number for k in state.skills}) == 5
    assert {h: len(v) for h, v in state.wild_stacks.items()} == {h: 2 for h in Habitat}
    objectives = [s.objective for s in state.seats]
    assert len(set(objectives)) == 2 and all(o in range(1, 11) for o in objectives)
    assert all(all(p is None for p in s.board) for s in state.seats)
    assert state.current == 0 and state.phase == "main"


def test_setup_is_seeded_and_deterministic() -> None:
    assert snapshot(game(2, seed=3)) == snapshot(game(2, seed=3))
    assert snapshot(game(2, seed=3)) != snapshot(game(2, seed=4))


def test_config_overrides_setup() -> None:
    state = game(1, time_start=6, starting_synergy=[9], skills=[1, 2, 3], objectives=[4], field_size=4)
    assert (state.time, state.seats[0].synergy, state.seats[0].objective) == (6, 9, 4)
    assert [k.number for k in state.skills] == [1, 2, 3]
    assert len(state.field) == 4 and all(state.field)


def test_player_count_outside_one_to_four_is_refused() -> None:
    with pytest.raises(IllegalAction, match="1 to 4"):
        game(5)


# ----------------------------------------------------------------------------- introduce


def test_kiara_pays_one_synergy_on_each_card_to_the_right() -> None:
    """Rulebook: Kiara takes the American Bison and pays the Snowshoe Hare, Snail Kite and Saguaro."""
    state = game(2)
    set_field(state, FIELD6)
    state.seats[0].synergy = 5
    after, events = play(state, "take 3 B2")
    assert after.seats[0].synergy == 5 - 3
    took = next(e for e in events if e.kind == "take")
    assert "paying 3" in took.text and "American Bison" in took.text
    # The three cards she paid on slid right and still hold one token each.
    paid = {f.card: f.synergy for f in after.field if f is not None}
    assert paid[cid("Snowshoe Hare")] == 1 and paid[cid("Snail Kite")] == 1 and paid[cid("Saguaro Cactus")] == 1


def test_kiara_gains_four_synergy_for_matching_neighbours() -> None:
    """Rulebook: Bison next to Coyote and Red Wolf (2 each) and an Arctic Wild (0) gains 4."""
    state = game(2)
    set_field(state, FIELD6)
    put(state, 0, "B1", "Coyote")
    put(state, 0, "B3", "Red Wolf")
    state.seats[0].board[parse_cell("A2") or 0] = None
    state.wild_stacks[Habitat.ARCTIC].remove("wild-arctic-fall")
    from keystone.engine.state import PlacedCard

    state.seats[0].board[parse_cell("C2") or 0] = PlacedCard("wild-arctic-fall")
    put(state, 0, "A1", "Musk Ox")  # diagonal: never counts
    state.seats[0].synergy = 3
    after, _ = play(state, "take 3 B2")
    assert after.seats[0].synergy == 3 - 3 + 4


def test_taking_collects_tokens_lying_on_the_card() -> None:
    state = game(2)
    set_field(state, FIELD6, synergy=[0, 0, 2, 0, 0, 0])
    state.seats[0].synergy = 5
    after, events = play(state, "take 3 A1")
    assert after.seats[0].synergy == 5 - 3 + 2
    assert "collecting 2 synergy" in events[0].text


def test_rightmost_card_is_free_and_unaffordable_card_is_refused() -> None:
    state = game(2)
    set_field(state, FIELD6)
    state.seats[0].synergy = 1
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="costs 5 synergy and you have 1"):
        play(state, "take 1 A1")
    assert snapshot(state) == before
    after, _ = play(state, "take 6 A1")
    assert after.seats[0].synergy == 1


def test_occupied_cell_is_refused_with_the_card_named() -> None:
    state = game(2)
    put(state, 0, "A1", "Coyote")
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="A1 already holds Coyote"):
        play(state, "take 6 A1")
    assert snapshot(state) == before
    assert all(not (isinstance(a, Take) and a.cell == 0) for a in legal_actions(state))


# ----------------------------------------------------------------------------- refill


def test_field_slides_right_and_refills_from_the_rightmost_empty_slot() -> None:
    """Rulebook: after sliding, the Snail Kite is placed first (rightmost gap), then the Swallow-Tailed Kite."""
    state = game(2, skills=[4, 5, 6, 7, 8])
    set_field(state, ["Aspen", "Mallard", "American Bison", "Snowshoe Hare", "Coyote", "Saguaro Cactus"])
    stack_deck(state, ["Snail Kite", "Swallow-Tailed Kite"])
    after, _ = play(state, "take 6 A1")  # takes the Saguaro; rest slide right by one
    assert [f.card if f else None for f in after.field] == [
        cid("Snail Kite"), cid("Aspen"), cid("Mallard"), cid("American Bison"), cid("Snowshoe Hare"), cid("Coyote"),
    ]
    state2 = game(2, skills=[4, 5, 6, 7, 8])
    set_field(state2, ["Aspen", "Mallard", "American Bison", "Snowshoe Hare", "Coyote", "Saguaro Cactus"])
    stack_deck(state2, ["Snail Kite", "Swallow-Tailed Kite"])
    state2.seats[0].synergy = 20
    after2, _ = play(state2, "take 3 A1", "wild forest A2")  # bison leaves a gap in the middle
    # Two gaps were filled: the first drawn card to the rightmost empty slot after the slide.
    assert after2.field[0] is not None and after2.field[0].card == cid("Snail Kite")


def test_refill_after_two_gaps_places_first_drawn_rightmost() -> None:
    state = game(2, skills=[4, 5, 6, 7, 8])
    set_field(state, ["Aspen", "Mallard", "American Bison", "Snowshoe Hare", "Coyote", "Saguaro Cactus"])
    stack_deck(state, ["Snail Kite", "Swallow-Tailed Kite", "Mule Deer"])
    after, _ = play(state, "skill 4", "discard 2", "discard 4", "discard 6", "endturn")
    names = [f.card if f else None for f in after.field]
    assert names[:3] == [cid("Mule Deer"), cid("Swallow-Tailed Kite"), cid("Snail Kite")]
    assert names[3:] == [cid("Aspen"), cid("American Bison"), cid("Coyote")]


def test_empty_deck_reshuffles_the_discard_pile() -> None:
    state = game(2, skills=[4, 5, 6, 7, 8])
    state.discard, state.deck = state.deck, []
    after, _ = play(state, "take 6 A1")
    assert all(after.field) and after.discard == [] and len(after.deck) > 0
    assert check_invariants(after, after_turn=True) == []


# ----------------------------------------------------------------------------- wild cards


def test_wild_card_costs_ten_once_per_turn_before_or_after_the_action() -> None:
    state = game(2, skills=[4, 5, 6, 7, 8])
    state.seats[0].synergy = 25
    after, events = play(state, "wild desert A1")
    assert after.seats[0].synergy == 15 and after.phase == "main"
    with pytest.raises(IllegalAction, match="already bought a Wild card this turn"):
        play(after, "wild forest A2")
    after, _ = play(after, "take 6 B1")
    assert after.current == 1  # no second wild possible, so the turn ended by itself
    # After the action the turn waits for a wild purchase or endturn.
    later = game(2, skills=[4, 5, 6, 7, 8])
    later.seats[0].synergy = 25
    mid, _ = play(later, "take 6 B1")
    assert mid.phase == "after" and EndTurn() in legal_actions(mid)
    done, _ = play(mid, "wild arctic D4")
    assert done.current == 1 and done.seats[0].synergy == 25 - 10


def test_wild_card_placement_gains_synergy_and_empty_stack_cannot_be_bought() -> None:
    state = game(2)
    put(state, 0, "A2", "Saguaro Cactus")
    state.seats[0].synergy = 30
    after, _ = play(state, "wild desert A1")
    assert after.seats[0].synergy == 30 - 10 + 1
    state.wild_stacks[Habitat.DESERT] = []
    with pytest.raises(IllegalAction, match="desert Wild stack is empty"):
        play(state, "wild desert A1")


def test_wild_needs_ten_synergy() -> None:
    state = game(2)
    state.seats[0].synergy = 9
    with pytest.raises(IllegalAction, match="costs 10 synergy and you have 9"):
        play(state, "wild forest A1")


# ----------------------------------------------------------------------------- skills


def test_skill_1_active_draw_three_place_one_pile_rest_then_discard_two() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    stack_deck(state, ["Coyote", "Mule Deer", "Polar Bear"])
    state, events = play(state, "skill 1", "draw")
    assert state.held == [cid("Coyote"), cid("Mule Deer"), cid("Polar Bear")]
    assert any(e.private and "Coyote" in e.text for e in events)
    assert not any((not e.private) and "Coyote" in e.text for e in events)
    assert public_view(state).held is None and player_view(state, 0).held is not None
    state, _ = play(state, "place 2 C3")
    assert (placed := cell_card(state, 0, "C3")) is not None and placed.card == cid("Mule Deer")
    state, _ = play(state, "pile 2")  # Polar Bear first, so the Coyote ends on top
    assert state.discard[-1] == cid("Coyote") and state.discard[-2] == cid("Polar Bear")
    field_before = [f.card if f else None for f in state.field]
    state, _ = play(state, "discard 5", "discard 1")
    assert state.discard[-2:] == [field_before[4], field_before[0]]
    assert state.current == 1
    assert [k.exhausted for k in state.skills if k.number == 1] == [True]


def test_skill_1_active_drawing_is_optional_but_discards_are_not() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    state, _ = play(state, "skill 1", "skip")
    assert state.step is not None and state.step.kind == "field_discard"
    with pytest.raises(IllegalAction, match="not optional"):
        play(state, "skip")


def test_skill_1_exhausted_and_2_active_look_at_the_discard_pile() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    state.skills[0].exhausted = True
    from tests.engine_helpers import stack_discard

    stack_discard(state, ["Coyote", "Mule Deer", "Polar Bear", "Aspen"])
    state, events = play(state, "skill 0")  # a single exhausted token needs no choice of order
    assert state.held == [cid("Coyote"), cid("Mule Deer"), cid("Polar Bear")]
    assert public_view(state).held is not None  # the discard pile is face up
    state, _ = play(state, "place 1 A1", "pile 1")  # Mule Deer back first, Polar Bear on top
    assert state.discard[-3:] == [cid("Aspen"), cid("Mule Deer"), cid("Polar Bear")]
    assert not state.skills[0].exhausted and state.time == 4
    # Skill 2's active side is the same look, then two Field discards.
    s2 = game(2, skills=[1, 2, 3, 4, 5])
    stack_discard(s2, ["Coyote"])
    s2, _ = play(s2, "skill 2", "skip")
    assert s2.step is not None and s2.step.kind == "field_discard" and s2.step.count == 2


@pytest.mark.parametrize(("token", "gain"), [(2, 3), (5, 2), (6, 2), (7, 2), (8, 2)])
def test_exhausted_synergy_skills(token: int, gain: int) -> None:
    state = game(2, skills=sorted({token, 1, 3, 4, 9} if token != 1 else {1, 3, 4, 9, 10}))
    for k in state.skills:
        k.exhausted = k.number == token
    before = state.seats[0].synergy
    state, _ = play(state, "skill 0")
    assert state.seats[0].synergy == before + gain
    assert state.time == 4 and not any(k.exhausted for k in state.skills)


def test_skill_3_active_moves_twice_then_discards_one() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    put(state, 0, "A1", "Coyote", research=1)
    put(state, 0, "D4", "Red Wolf")
    state, _ = play(state, "skill 3", "move A1 D3")
    moved = cell_card(state, 0, "D3")
    assert moved is not None and moved.card == cid("Coyote") and moved.research == 1
    assert state.seats[0].synergy == 5 + 2  # ruling 8: the moved card gains for its new neighbour
    state, _ = play(state, "move D3 A1")  # the same card may move twice
    assert state.step is not None and state.step.kind == "field_discard" and state.step.count == 1
    state, _ = play(state, "discard 1")
    assert state.current == 1


def test_skill_3_moving_is_optional() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    put(state, 0, "A1", "Coyote")
    state, _ = play(state, "skill 3", "skip")
    assert state.step is not None and state.step.kind == "field_discard"


def test_skill_4_active_gains_eight_then_discards_three() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    field = [f.card if f else None for f in state.field]
    state, _ = play(state, "skill 4")
    assert state.seats[0].synergy == 13 and state.step is not None and state.step.count == 3
    state, _ = play(state, "discard 6", "discard 1", "discard 3")
    assert state.discard == [field[5], field[0], field[2]]


@pytest.mark.parametrize(
    ("token", "side", "good", "researched", "bad"),
    [
        (3, "exhausted", "Snail Kite", "Desert Tortoise", "Coyote"),  # Endangered
        (5, "active", "Coyote", "Mountain Goat", "Snail Kite"),  # Spring
        (6, "active", "Snail Kite", "Saguaro Cactus", "Coyote"),  # Summer
        (8, "active", "Snowshoe Hare", "Bearberry", "Coyote"),  # Winter
        (10, "active", "Mountain Goat", "Musk Ox", "Coyote"),  # Tag
    ],
)
def test_research_skills_only_target_unresearched_cards_with_the_icon(
    token: int, side: str, good: str, researched: str, bad: str
) -> None:
    state = game(2, skills=sorted({1, 2, 4, 9, token} - ({token} if token in (1, 2, 4, 9) else set()) | {token}))
    if side == "exhausted":
        for k in state.skills:
            k.exhausted = k.number == token
    put(state, 0, "A1", good)
    put(state, 0, "A3", bad)
    put(state, 0, "C1", researched, research=1)
    state, _ = play(state, "skill 0" if side == "exhausted" else f"skill {token}")
    with pytest.raises(IllegalAction, match="does not show|already has research"):
        play(state, "research A3")
    with pytest.raises(IllegalAction):
        play(state, "research C1")
    state, _ = play(state, "research A1")
    assert (placed := cell_card(state, 0, "A1")) is not None and placed.research == 1


def test_skill_7_researches_a_fall_card() -> None:
    state = game(2, skills=[1, 2, 4, 7, 9])
    put(state, 0, "B2", "American Red Squirrel")  # Fall
    state, _ = play(state, "skill 7", "research B2")
    assert (placed := cell_card(state, 0, "B2")) is not None and placed.research == 1


def test_skill_9_active_puts_two_research_on_an_endangered_card() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    put(state, 0, "A1", "Desert Tortoise")
    state, _ = play(state, "skill 9", "research A1")
    assert (placed := cell_card(state, 0, "A1")) is not None and placed.research == 2
    assert state.step is not None and state.step.count == 2


def test_skill_4_exhausted_researches_a_wild_card_only() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    state.skills[2].exhausted = True
    from keystone.engine.state import PlacedCard

    state.wild_stacks[Habitat.FOREST].remove("wild-forest-fall")
    state.seats[0].board[0] = PlacedCard("wild-forest-fall")
    put(state, 0, "A2", "Coyote")
    state, _ = play(state, "skill 0")
    with pytest.raises(IllegalAction):
        play(state, "research A2")
    state, _ = play(state, "research A1")
    assert state.seats[0].board[0] is not None and state.seats[0].board[0].research == 1


@pytest.mark.parametrize("token", [9, 10])
def test_skills_9_and_10_exhausted_move_one_card(token: int) -> None:
    state = game(2, skills=[1, 2, 4, 5, token])
    for k in state.skills:
        k.exhausted = k.number == token
    put(state, 0, "A1", "Coyote")
    state, _ = play(state, "skill 0", "move A1 B1")
    assert cell_card(state, 0, "B1") is not None and state.current == 1


def test_all_exhausted_resolves_in_the_chosen_order_then_flips_and_moves_time() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    for k in state.skills:
        k.exhausted = k.number in (2, 5, 9)
    put(state, 0, "A1", "Coyote")
    state, events = play(state, "skill 0")
    assert legal_actions(state) == [parse_action("resolve 2"), parse_action("resolve 5"), parse_action("resolve 9")]
    state, events = play(state, "resolve 9", "move A1 A2", "resolve 2")
    texts = [e.text for e in events]
    assert texts.index(next(t for t in texts if "moved Coyote" in t)) < texts.index(
        next(t for t in texts if "gained 3" in t)
    )
    # The last remaining token (5) resolves by itself: there is no order left to choose.
    assert state.time == 4 and not any(k.exhausted for k in state.skills)
    assert state.seats[0].synergy == 5 + 3 + 2


def test_exhausted_side_preview_is_not_resolved_with_the_active_side() -> None:
    """Using skill 2's active side does not also gain its exhausted side's 3 synergy."""
    state = game(2, skills=[1, 2, 4, 5, 9])
    state, _ = play(state, "skill 2")
    assert state.seats[0].synergy == 5


def test_all_exhausted_needs_one_exhausted_token() -> None:
    state = game(2)
    assert UseSkill(0) not in legal_actions(state)
    with pytest.raises(IllegalAction, match="No skill token is exhausted"):
        play(state, "skill 0")


def test_exhausted_token_cannot_be_used_actively() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    state.skills[1].exhausted = True
    with pytest.raises(IllegalAction, match="Skill 2 is exhausted"):
        play(state, "skill 2")


# ----------------------------------------------------------------------------- end of game


def test_time_marker_reaching_the_end_starts_the_final_round() -> None:
    state = game(2, skills=[2, 5, 6, 7, 8])
    state.time = 1
    for k in state.skills:
        k.exhausted = True
    state, events = play(state, "skill 0", "resolve 2", "resolve 5", "resolve 6", "resolve 7", "endturn")
    assert state.time == 0 and state.final_round and state.phase == "main" and state.current == 1
    assert any(e.kind == "final_round" for e in events)
    state, events = play(state, "take 6 A1")
    assert state.phase == "over" and any(e.kind == "game_over" for e in events)
    assert [s.turns for s in state.seats] == [1, 1]


def test_full_board_on_the_last_seat_ends_at_once() -> None:
    state = game(2)
    state.current = 1
    names = [c.name for c in __import__("keystone.data", fromlist=["x"]).load_catalog().species[:15]]
    for cell, name in zip(CELL_NAMES[:15], names, strict=True):
        put(state, 1, cell, name)
    state, _ = play(state, "take 6 D4")
    assert state.phase == "over"


def test_every_seat_finishes_the_round_in_a_four_player_game() -> None:
    state = game(4)
    state.current = 1
    state.time = 1
    for k in state.skills:
        k.exhausted = True
    state, _ = play(state, "skill 0", *[f"resolve {k.number}" for k in state.skills[:-1]])
    if state.phase == "after":
        state, _ = play(state, "endturn")
    assert state.final_round and state.current == 2
    state, _ = play(state, "take 6 A1", "take 6 A1")
    assert state.phase == "over"


# ----------------------------------------------------------------------------- rulings


def test_ruling_pass_when_no_legal_action() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5], disabled_skills=[1, 2, 3, 4, 5])
    names = [c.name for c in __import__("keystone.data", fromlist=["x"]).load_catalog().species[:16]]
    for cell, name in zip(CELL_NAMES, names, strict=True):
        put(state, 0, cell, name)
    assert legal_actions(state) == [Pass()]
    state, events = play(state, "pass")
    assert any(e.kind == "pass" for e in events) and state.current == 1


def test_ruling_synergy_on_a_discarded_field_card_returns_to_the_supply() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    set_field(state, FIELD6, synergy=[4, 0, 0, 0, 0, 0])
    state, events = play(state, "skill 4", "discard 1")
    assert "4 synergy on it returned to the supply" in events[-1].text
    assert state.seats[0].synergy == 13 and check_invariants(state) == []


def test_ruling_discarding_more_than_the_field_holds() -> None:
    state = game(2, skills=[1, 2, 3, 4, 5])
    set_field(state, [None, None, None, None, None, "Coyote"])
    state.deck, state.discard = [], state.deck
    state, _ = play(state, "skill 4", "endturn")
    assert state.current == 1  # the only card was discarded automatically; the rest is skipped


def test_bad_notation_gets_a_sentence() -> None:
    for text, fragment in [("", "Say what to do"), ("fly 3", "don't know the word"), ("take 3", "takes 2"),
                           ("take 3 Z9", "not a cell"), ("wild ocean A1", "not a habitat"), ("take 0 A1", "start at 1")]:
        with pytest.raises(BadNotation, match=fragment):
            parse_action(text)


def test_out_of_phase_actions_are_explained() -> None:
    state = game(2)
    with pytest.raises(IllegalAction, match="Take your action first"):
        play(state, "endturn")
    with pytest.raises(IllegalAction, match="no choice of that kind"):
        play(state, "draw")


def test_notation_round_trips_for_every_legal_action() -> None:
    state = game(2)
    for action in legal_actions(state):
        assert parse_action(str(action)) == action


def test_views_hide_objectives_deck_order_and_drawn_cards() -> None:
    state = game(2)
    view = public_view(state)
    assert all(s.objective is None for s in view.seats)
    assert player_view(state, 1).seats[1].objective == state.seats[1].objective
    assert player_view(state, 1).seats[0].objective is None
    assert not hasattr(view, "deck") and view.deck_count == len(state.deck)


def test_ruling_synergy_supply_is_unlimited() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    state.seats[0].synergy = 500  # more than the physical tokens in the box
    state, _ = play(state, "skill 4")
    assert state.seats[0].synergy == 508


def test_ruling_optional_effect_without_a_target_is_skipped() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])  # skill 5: research a Spring card; the board is empty
    state, events = play(state, "skill 5")
    assert state.step is not None and state.step.kind == "field_discard"
    skipped = [e for e in events if e.kind == "skip"]
    assert [e.text for e in skipped] == ["Skill 5 has nothing to act on: Kiara's board has no unresearched "
                                         "Spring card."]
    assert not skipped[0].private


def test_every_skipped_effect_says_why() -> None:
    state = game(2, skills=[2, 3, 4, 5, 9])  # skill 3 moves cards, skill 2 searches the discard pile
    assert not state.discard
    moved, events = play(state, "skill 3")
    assert "Skill 3 has nothing to act on: Kiara's board has no card to move." in [e.text for e in events]
    assert moved.step is not None and moved.step.kind == "field_discard"
    _, events = play(state, "skill 2")
    assert "Skill 2 has nothing to act on: the discard pile is empty." in [e.text for e in events]
    put(state, 0, "A1", "Coyote")
    _, events = play(state, "skill 3")
    assert not [e for e in events if e.kind == "skip"]  # a card and an empty cell: the move is offered


def test_ruling_looking_at_a_short_discard_pile_shows_what_is_there() -> None:
    state = game(2, skills=[1, 2, 4, 5, 9])
    from tests.engine_helpers import stack_discard

    stack_discard(state, ["Coyote"])
    state, _ = play(state, "skill 2")
    assert state.held == [cid("Coyote")]
    state, _ = play(state, "skip")  # not placed: it goes back on the pile by itself
    assert state.discard == [cid("Coyote")] and state.step is not None and state.step.kind == "field_discard"


def test_ruling_time_marker_stops_at_its_last_space() -> None:
    state = game(2, skills=[2, 5, 6, 7, 8])
    state.time = 0
    state.final_round = True
    state.current = 1
    state.skills[0].exhausted = True
    state, _ = play(state, "skill 0")
    assert state.time == 0


def test_ruling_resigning_ends_the_game_with_the_resigner_last() -> None:
    state = game(players=3, seed=4)
    state, _ = play(state, "take 6 A1")
    before = state.clone()
    new, events = apply(state, parse_action("resign 3"))
    assert new.phase == "over" and new.resigned == 2 and new.version == state.version + 1
    assert [e.kind for e in events] == ["resigned"] and f"{new.seats[2].name} resigned" in events[0].text
    assert legal_actions(new) == [] and Resign(0) not in legal_actions(before)
    assert places(final_scores(new), new.resigned)[2] == 3
    assert all(s.objective is not None for s in public_view(new).seats)
    assert public_view(new).resigned == 2
    with pytest.raises(IllegalAction, match="over"):
        apply(new, Resign(0))
    with pytest.raises(IllegalAction, match="no seat 5"):
        apply(state, parse_action("resign 5"))
    assert snapshot(state) == snapshot(before)


def test_a_state_saved_before_resigning_existed_keeps_its_text() -> None:
    state = game(seed=2)
    assert '"resigned"' not in dump_state(state)
    assert load_state(dump_state(state)) == state


def test_notation_numbers_are_plain_digits_only() -> None:
    for word in ("²", "①", "٣", "1" * 4301, "0" * 4):
        with pytest.raises(IllegalAction, match="is not a skill token number"):
            parse_action(f"skill {word}")


def test_standings_rank_the_boards_and_a_resigned_seat_wins_nothing() -> None:
    state = game(players=2, seed=3)
    state, _ = play(state, "take 6 A1")
    over, _ = apply(state, Resign(1))
    first, second = standings(over)
    assert (first.place, first.won) == (1, True) and (second.place, second.won) == (2, False)
    assert first.stars is None and second.score == final_scores(over)[1].total
    solo, _ = apply(game(players=1, seed=3), Resign(0))
    assert [(s.place, s.won) for s in standings(solo)] == [(1, False)]
