"""Undo: the player to act takes back this turn's actions while no hidden card has come out."""

from __future__ import annotations

import pytest

from keystone.engine import GameState, IllegalAction, dump_state, replay
from keystone.engine.history import DRAWN, NOTHING, History, rebuild, undo_allowed, undone
from tests.engine_helpers import game


def rich() -> GameState:
    """Two seats with synergy enough that a take leaves the turn waiting for a possible Wild."""
    return game(players=2, skills=[1, 3, 4, 5, 6], starting_synergy=[20, 20])


def same_but_version(a: GameState, b: GameState) -> bool:
    a2 = a.clone()
    a2.version = b.version
    return dump_state(a2) == dump_state(b)


def test_a_take_is_taken_back_and_the_card_is_on_the_field_again() -> None:
    start = rich()
    history = rebuild(start, ["take 6 A1"])
    assert history.state.phase == "after" and history.state.seats[0].board[0] is not None
    assert undo_allowed(start, history.state) is None
    taken = history.undo()
    assert taken.notation == "take 6 A1"
    assert history.state.version == 2 and same_but_version(start, history.state)
    assert history.state == undone(start, rebuild(start, ["take 6 A1"]).state)


def test_consecutive_undos_go_back_one_action_each() -> None:
    start = rich()
    history = rebuild(start, ["skill 4", "discard 1", "discard 2"])
    assert history.state.phase == "resolve"
    middle = rebuild(start, ["skill 4"]).state
    history.undo()
    history.undo()
    assert same_but_version(middle, history.state)
    history.undo()
    assert same_but_version(start, history.state) and history.state.version == 6
    with pytest.raises(IllegalAction, match=NOTHING):
        history.undo()


def test_refused_once_cards_were_drawn() -> None:
    history = rebuild(rich(), ["skill 1", "draw"])
    assert history.why_not_undo() == DRAWN
    with pytest.raises(IllegalAction, match=DRAWN):
        history.undo()


def test_refused_once_the_turn_has_passed() -> None:
    history = rebuild(rich(), ["take 6 A1", "endturn"])
    assert history.why_not_undo() == NOTHING, "Thomas, to act now, has nothing of his own to take back"
    before = history.state
    with pytest.raises(IllegalAction, match=NOTHING):
        history.undo()
    assert history.state is before


def test_refused_after_a_one_card_discard_pile_was_reshuffled_and_drawn() -> None:
    """The generator does not move when one card is shuffled, and the deck is empty before and
    after: the draw still brought a card out of the deck."""
    start = rich()
    start.discard, start.deck = [start.deck[-1]], []
    history = rebuild(start, ["skill 1", "draw"])
    assert history.state.held == start.discard and history.state.rng == start.rng and history.state.deck == []
    assert history.why_not_undo() == DRAWN
    with pytest.raises(IllegalAction, match=DRAWN):
        history.undo()


def test_cards_looked_at_in_the_discard_pile_may_be_taken_back() -> None:
    start = game(players=2, skills=[2, 3, 4, 5, 6], starting_synergy=[20, 20])
    start.discard, start.deck = start.deck[-2:], start.deck[:-2]
    history = rebuild(start, ["skill 2"])
    assert history.state.held and not history.state.held_private
    assert history.why_not_undo() is None


def test_refused_at_the_start_of_the_game() -> None:
    assert History(rich()).why_not_undo() == NOTHING


def test_replay_with_undo_entries_equals_the_live_state() -> None:
    start = rich()
    log = ["take 6 A1", "undo", "take 5 B2", "endturn", "skill 4", "discard 1", "undo", "discard 2"]
    live = History(start)
    for move in log:
        live.play(move)
    assert replay(start.config, start.seed, ["Kiara", "Thomas"], log) == live.state
    assert live.state.version == len(log)
    assert live.state.seats[0].board[0] is None and live.state.seats[0].board[5] is not None
