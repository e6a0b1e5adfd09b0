"""Determinization: a guessed state agrees with everything the seat can see, and with nothing else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.engine import GameConfig, apply_text, legal_actions, new_game, player_view
from keystone.engine.determinize import determinize, unseen_cards
from keystone.engine.invariants import check_invariants
from keystone.engine.state import dump_state
from keystone.engine.table import catalog
from keystone.engine.views import public_view
from tests.bot_helpers import reached, with_other_secrets


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 70), guess=st.integers(0, 2**40), players=st.integers(1, 4))
def test_a_guess_looks_exactly_like_the_view(seed: int, moves: int, guess: int, players: int) -> None:
    state = reached(seed, moves, players)
    view = player_view(state, state.current)
    guessed = determinize(view, guess, state.config)
    assert player_view(guessed, state.current) == view
    assert legal_actions(guessed) == legal_actions(state)
    assert check_invariants(guessed) == []


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 70), guess=st.integers(0, 2**40))
def test_a_guess_depends_on_the_view_only(seed: int, moves: int, guess: int) -> None:
    state = reached(seed, moves)
    other = with_other_secrets(state, seed)
    assert player_view(other, state.current) == player_view(state, state.current)
    first = determinize(player_view(state, state.current), guess, state.config)
    second = determinize(player_view(other, state.current), guess, other.config)
    assert dump_state(first) == dump_state(second)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 60))
def test_the_guessed_deck_holds_exactly_the_unseen_cards(seed: int, moves: int) -> None:
    state = reached(seed, moves)
    view = player_view(state, state.current)
    guessed = determinize(view, seed, state.config)
    assert sorted(guessed.deck + ([] if view.held is not None else guessed.held)) == sorted(
        unseen_cards(view, state.config)
    )
    assert sorted(guessed.deck) == sorted(state.deck)


def test_different_seeds_guess_differently_and_never_copy_the_real_generator() -> None:
    state = reached(3, 10)
    view = player_view(state, state.current)
    decks = {tuple(determinize(view, s, state.config).deck) for s in range(5)}
    assert len(decks) == 5
    assert all(determinize(view, s, state.config).rng != state.rng for s in range(5))


def test_my_own_objective_is_kept_and_the_others_are_distinct_guesses() -> None:
    state = reached(11, 0, players=4)
    view = player_view(state, 0)
    for s in range(10):
        guessed = determinize(view, s, state.config)
        objectives = [seat.objective for seat in guessed.seats]
        assert objectives[0] == state.seats[0].objective
        assert len(set(objectives)) == 4


def test_a_public_view_can_be_determinized_too() -> None:
    state = reached(5, 25)
    guessed = determinize(public_view(state), 1)
    assert public_view(guessed) == public_view(state)
    assert check_invariants(guessed) == []


def test_cards_held_face_down_by_another_seat_are_guessed_from_the_unseen() -> None:
    state = new_game(GameConfig(skills=[1, 2, 3, 4, 5]), 8, ["Ana", "Ben"])
    for text in ("skill 1", "draw"):
        state, _ = apply_text(state, text)
    assert state.held_private and len(state.held) == 3
    view = player_view(state, 1)
    assert view.held is None
    guessed = determinize(view, 2, state.config)
    assert len(guessed.held) == 3
    assert set(guessed.held) <= set(unseen_cards(view, state.config))
    assert check_invariants(guessed) == []
    mine = determinize(player_view(state, 0), 2, state.config)
    assert mine.held == state.held


def test_a_guess_with_the_sealed_envelope_holds_its_cards_too() -> None:
    """Issue: bots sampled the base deck only, so an envelope game's guess lacked its six cards."""
    config = GameConfig(players=2, expansions=["envelope"])
    state = new_game(config, 17, ["Ana", "Bot"])
    envelope = {c.id for c in catalog().species_for(["envelope"])} - {c.id for c in catalog().species}
    view = player_view(state, 0)
    for guessed in (determinize(view, 5, state.config), determinize(view, 5)):
        assert sorted(guessed.deck) == sorted(state.deck)
        assert check_invariants(guessed) == []
    assert envelope <= set(unseen_cards(view, state.config)) | {f.card for f in state.field if f}
