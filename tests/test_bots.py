"""Bots: legal, reproducible, blind to what their seat cannot see, and playing sensibly."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.engine import GameConfig, IllegalAction, apply, legal_actions, player_view
from keystone.engine.actions import Take
from keystone.engine.board import parse_cell
from keystone.engine.bots import LEVELS, choose_action, play_bots
from keystone.engine.invariants import check_invariants
from keystone.engine.results import final_scores
from tests.bot_helpers import reached, with_other_secrets
from tests.engine_helpers import game, put, set_field

SMALL = 24
"""A hard-bot budget small enough for tests."""


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 80), level=st.sampled_from(LEVELS),
       bot=st.integers(0, 2**31))
def test_every_level_plays_a_legal_action(seed: int, moves: int, level: str, bot: int) -> None:
    state = reached(seed, moves)
    if state.phase == "over":
        return
    action = choose_action(state, level, bot, budget=SMALL)
    assert action in legal_actions(state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60), level=st.sampled_from(LEVELS))
def test_same_seed_same_action_and_hidden_cards_change_nothing(seed: int, moves: int, level: str) -> None:
    state = reached(seed, moves)
    if state.phase == "over":
        return
    first = choose_action(state, level, 99, budget=SMALL)
    assert choose_action(state, level, 99, budget=SMALL) == first
    other = with_other_secrets(state, seed + 1)
    assert choose_action(other, level, 99, budget=SMALL) == first
    view = player_view(state, state.current)
    assert choose_action(view, level, 99, config=state.config, budget=SMALL) == first


def test_bad_requests_get_a_clear_sentence() -> None:
    state = reached(1, 0)
    with pytest.raises(ValueError, match="no bot level 'expert'"):
        choose_action(state, "expert", 1)
    with pytest.raises(ValueError, match="seat whose turn it is"):
        choose_action(player_view(state, 1), "easy", 1)
    finished = reached(1, 400)
    assert finished.phase == "over"
    with pytest.raises(ValueError, match="game is over"):
        choose_action(finished, "normal", 1)


def test_normal_completes_an_ecosystem_with_a_keystone() -> None:
    state = game(seed=3, skills=[2, 3, 7, 8, 10])  # none of these can help row A now
    put(state, 0, "A1", "Prairie Fringed Orchid")  # 1, desert
    put(state, 0, "A2", "Desert Tortoise")  # 2, desert, Keystone
    put(state, 0, "A3", "Coyote")  # 3, desert, Keystone
    set_field(state, ["Snowy Owl", "Red Mangrove", "Sugar Maple", "Aspen", "Ringed Seal", "Mountain Lion"])
    for level in ("normal", "hard"):
        action = choose_action(state, level, 5, budget=SMALL)
        assert action == Take(5, parse_cell("A4") or 0), level


def test_no_budget_makes_hard_play_the_normal_move() -> None:
    for seed in range(6):
        state = reached(seed, 2 * seed)
        assert choose_action(state, "hard", seed, budget=0) == choose_action(state, "normal", seed)


def test_a_deadline_stops_the_hard_bot_with_a_legal_move() -> None:
    state = reached(4, 6)
    calls: list[int] = []

    def deadline() -> bool:
        calls.append(1)
        return True

    assert choose_action(state, "hard", 1, deadline=deadline) in legal_actions(state)
    assert calls


@pytest.mark.parametrize("levels", [("easy", "normal"), ("normal", "easy", "easy"), ("hard",)])
def test_bots_finish_games_for_any_number_of_seats(levels: tuple[str, ...]) -> None:
    seen: list[int] = []
    state = play_bots(levels, seed=21, budget=SMALL, on_move=lambda s, a: seen.append(s.version))
    assert state.phase == "over"
    assert check_invariants(state) == []
    assert seen == list(range(len(seen)))


def test_normal_outscores_easy() -> None:
    normal, easy = [], []
    for seed in range(4):
        for seats in (("normal", "easy"), ("easy", "normal")):
            totals = [s.total for s in final_scores(play_bots(seats, seed))]
            normal.append(totals[seats.index("normal")])
            easy.append(totals[seats.index("easy")])
    assert statistics.fmean(normal) > statistics.fmean(easy) + 20


def test_a_bot_move_is_accepted_by_the_engine() -> None:
    state = reached(2, 3)
    for level in LEVELS:
        action = choose_action(state, level, 7, budget=SMALL)
        try:
            apply(state, action)
        except IllegalAction as exc:  # pragma: no cover - the assertion below explains
            pytest.fail(f"{level} chose an illegal action: {exc}")


def test_solo_and_first_edition_games_work_too() -> None:
    state = play_bots(("normal",), seed=5, config=GameConfig(players=1, rules="first-edition"))
    assert state.phase == "over" and check_invariants(state) == []
