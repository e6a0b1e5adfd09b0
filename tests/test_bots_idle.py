"""Bots never choose a skill that only costs time, and the normal bot does not throw solo games away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.engine import GameConfig, GameState, apply, legal_actions
from keystone.engine.actions import Action, Take, UseSkill
from keystone.engine.bots import choose_action, play_bots
from keystone.engine.bots.evaluate import DEFAULT_WEIGHTS
from keystone.engine.bots.greedy import finish_turn
from keystone.engine.bots.idle import only_costs_time, position
from keystone.engine.results import final_scores
from tests.bot_helpers import reached
from tests.engine_helpers import game, put


def idle_choice(state: GameState, action: Action) -> bool:
    """`action` only costs time although some legal action does not."""
    return only_costs_time(state, action) and not all(only_costs_time(state, a) for a in legal_actions(state))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120), players=st.sampled_from([1, 1, 2, 3, 4]),
       level=st.sampled_from(["easy", "normal", "normal", "hard"]), bot=st.integers(0, 2**31))
def test_no_bot_chooses_a_skill_with_nothing_to_act_on(
    seed: int, moves: int, players: int, level: str, bot: int
) -> None:
    state = reached(seed, moves, players)
    if state.phase == "over":
        return
    action = choose_action(state, level, bot, budget=24)
    assert not idle_choice(state, action), (level, str(action))


@pytest.mark.parametrize("seed", range(0, 600, 5))
def test_normal_never_picks_a_pure_time_cost_skill_in_seeded_solo_states(seed: int) -> None:
    """Many seeded solo positions, each reached by random play: normal takes a card instead."""
    state = reached(seed, seed % 90, players=1)
    if state.phase != "over":
        action = choose_action(state, "normal", seed)
        assert not idle_choice(state, action), str(action)


def test_a_skill_with_nothing_to_act_on_is_recognised() -> None:
    state = game(players=1, seed=3, skills=[1, 3, 4, 9, 10])  # empty board, empty discard pile
    assert only_costs_time(state, UseSkill(3))  # nothing to move; it would only discard from the Field
    assert only_costs_time(state, UseSkill(10))  # no Tag card to research
    assert not only_costs_time(state, UseSkill(1))  # draws three and may place one
    assert not only_costs_time(state, UseSkill(4))  # gains 8 synergy
    put(state, 0, "A1", "Desert Tortoise")  # Endangered
    assert not only_costs_time(state, UseSkill(3))  # now a card can move
    for token in state.skills:
        token.exhausted = token.number != 4
    # Exhausted 1, 3, 9, 10: look at an empty discard pile, research the Endangered card, move it.
    assert not only_costs_time(state, UseSkill(0))
    state.seats[0].board[0] = None
    assert only_costs_time(state, UseSkill(0))  # nothing at all: it would only move the time marker
    assert not only_costs_time(state, Take(5, 0))


def test_a_look_at_an_empty_discard_pile_is_nothing_to_act_on() -> None:
    """Skill 2 looks at the discard pile before it discards from the Field, so those cannot feed it."""
    state = game(players=1, seed=3, skills=[2, 3, 4, 5, 6])
    assert not state.discard
    assert only_costs_time(state, UseSkill(2))
    state.discard.append(state.deck.pop())
    assert not only_costs_time(state, UseSkill(2))


def test_normal_takes_a_card_rather_than_only_moving_the_time_marker() -> None:
    state = game(players=1, seed=3, skills=[1, 3, 4, 9, 10])
    for token in state.skills:
        token.exhausted = True  # an empty board and no discard pile: the exhausted sides have nothing to do
    assert only_costs_time(state, UseSkill(0))
    for seed in range(5):
        action = choose_action(state, "normal", seed)
        assert isinstance(action, Take), str(action)
        assert not isinstance(choose_action(state, "easy", seed), UseSkill)


def test_a_solo_turn_played_out_ends_with_that_turn() -> None:
    """The play-out a skill is valued by stops where the turn ends, though the same seat acts next."""
    state = game(players=1, seed=3, skills=[2, 3, 4, 9, 10])
    after, _ = apply(state, UseSkill(2))  # look at an empty discard pile, then discard two Field cards
    end, _ = finish_turn(after, 0, DEFAULT_WEIGHTS)
    assert end.turn == state.turn + 1 and end.phase == "main" and end.current == 0
    assert position(end, 0) == position(state, 0)  # no card was taken on a turn that is not this one


def test_normal_keeps_the_solo_game_of_seed_6018() -> None:
    """It used to spend every skill on an empty board and score 15 (`simulate --seed 6018 --players 1`)."""
    seen: list[tuple[GameState, Action]] = []
    state = play_bots(("normal",), seed=6018, on_move=lambda s, a: seen.append((s, a)))
    assert final_scores(state)[0].total >= 80
    assert not [str(a) for s, a in seen if idle_choice(s, a)]


@pytest.mark.parametrize("seed", [41, 70, 85, 110, 177])
def test_normal_does_not_throw_solo_games_away(seed: int) -> None:
    """The seeds where the normal bot used to score under 10 points alone."""
    state = play_bots(("normal",), seed=seed)
    assert final_scores(state)[0].total >= 50
    assert sum(1 for p in state.seats[0].board if p is not None) >= 14


def test_coop_boards_are_played_as_solo_ones() -> None:
    state = play_bots(("normal",), seed=6018, config=GameConfig(players=2, coop=True))
    assert final_scores(state)[0].total >= 50
