"""Every Field Journal assignment can be won, and co-op partners alternate turns on one board."""

from __future__ import annotations

import pytest

from keystone.engine import GameConfig, GameState, apply, is_over, legal_actions, new_game, replay
from keystone.engine.campaign import LAST_ASSIGNMENT, assignment, config_for, judge, start
from keystone.engine.coop import acting_player
from tests.campaign_player import choose, play

TRIES = 8
"""Seeds tried per assignment: the deck is shuffled, so a winnable assignment is won on some deal."""


@pytest.mark.parametrize("number", range(1, LAST_ASSIGNMENT + 1))
def test_every_assignment_can_be_won(number: int) -> None:
    for seed in range(TRIES):
        state, log = play(number, seed)
        if judge(number, state).won:
            break
    else:
        pytest.fail(f"assignment {number} was not won on any of {TRIES} deals")
    again = replay(config_for(number), seed, ["Field team"], log)  # the winning line is a legal game
    assert again == state
    result = judge(number, again)
    assert result.won and result.stars >= 1 and all(g.met for g in result.goals)


def _cards(state: GameState) -> int:
    return sum(p is not None for p in state.seats[0].board)


def test_coop_partners_alternate_turns_on_one_shared_board() -> None:
    state = start(6, 2, "Ana and Ben", coop=True)
    assert state.config.coop and state.config.players == 2 and len(state.seats) == 1
    setup = assignment(6).setup  # co-op keeps the assignment's solo setup: one shared supply
    assert state.seats[0].synergy == setup.starting_synergy and state.time == setup.time_start
    deciders: list[tuple[int, int]] = []  # (turn, player) at every decision
    placed_by: dict[int, int] = {0: 0, 1: 0}  # cards each partner added to the one board
    while state.turn < 8:
        player, before = acting_player(state), _cards(state)
        deciders.append((state.turn, player))
        state, _ = apply(state, choose(6, state, 2))
        placed_by[player] += _cards(state) - before
    by_turn = dict(deciders)
    assert [by_turn[t] for t in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]
    assert all(player == turn % 2 for turn, player in deciders)  # one person decides a whole turn
    assert placed_by[0] > 0 and placed_by[1] > 0
    assert _cards(state) == placed_by[0] + placed_by[1]


def test_a_coop_assignment_is_played_to_the_end_and_judged() -> None:
    state, log = play(1, 0, coop=True)
    assert is_over(state)
    result = judge(1, state)
    assert result.finished and result.score == result.sheet.total
    assert replay(config_for(1, coop=True), 0, ["Field team"], log) == state


def test_outside_coop_the_acting_player_is_the_seat_to_act() -> None:
    state = new_game(GameConfig(players=2), 1, ["Kiara", "Thomas"])
    seen = set()
    while state.turn < 4:
        assert acting_player(state) == state.current
        seen.add(state.current)
        state, _ = apply(state, legal_actions(state)[0])
    assert seen == {0, 1}
