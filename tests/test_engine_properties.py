"""Invariants over random legal games (hypothesis drives the seeds and the choices)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keystone.cards import Habitat
from keystone.engine import (
    GameConfig,
    IllegalAction,
    apply,
    dump_state,
    legal_actions,
    load_state,
    new_game,
    replay,
)
from keystone.engine.actions import (
    Action,
    BuyWild,
    Discard,
    Draw,
    EndTurn,
    Move,
    Pass,
    Pile,
    Place,
    Research,
    Resolve,
    Skip,
    Take,
    UseSkill,
)
from keystone.engine.invariants import MAX_TURNS_PER_SEAT, check_invariants

ANY_ACTIONS: list[Action] = [
    *(Take(s, c) for s in range(0, 7, 3) for c in (0, 5, 15)),
    *(BuyWild(h, c) for h in Habitat for c in (0, 15)),
    *(UseSkill(n) for n in range(0, 11)),
    *(Resolve(n) for n in range(1, 11)),
    Draw(), Skip(), EndTurn(), Pass(),
    *(Place(i, c) for i in range(3) for c in (0, 10)),
    *(Pile(i) for i in range(3)),
    Move(0, 1), Move(5, 15), Research(0), Research(9), Discard(0), Discard(5),
]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.integers(min_value=1, max_value=4),
    coop=st.booleans(),
    data=st.data(),
)
def test_random_legal_games_keep_every_invariant(seed: int, players: int, coop: bool, data: st.DataObject) -> None:
    config = GameConfig(players=max(players, 2) if coop else players, coop=coop)
    names = [f"P{i}" for i in range(config.boards)]
    state = new_game(config, seed, names)
    log: list[str] = []
    steps = 0
    while state.phase != "over":
        legal = legal_actions(state)
        assert legal, "a game that is not over always offers an action"
        # An action that is not legal raises and leaves the state as it was.
        probe = data.draw(st.sampled_from(ANY_ACTIONS), label="probe")
        if probe not in legal:
            before = dump_state(state)
            try:
                apply(state, probe)
            except IllegalAction as error:
                assert str(error).endswith((".", ")")) and len(str(error)) > 10
            else:
                raise AssertionError(f"{probe} was applied although it is not legal")
            assert dump_state(state) == before
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        turn_before = state.turn
        version_before = state.version
        state, _events = apply(state, action)
        log.append(str(action))
        assert state.version == version_before + 1
        assert check_invariants(state, after_turn=state.turn != turn_before) == []
        steps += 1
        assert steps < 40 * MAX_TURNS_PER_SEAT
    assert all(s.turns == state.seats[0].turns for s in state.seats), "every seat had as many turns"
    assert replay(config, seed, names, log) == state
    assert load_state(dump_state(state)) == state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_setup_accounts_for_every_card_and_round_trips(seed: int) -> None:
    state = new_game(GameConfig(), seed, ["A", "B"])
    assert check_invariants(state, after_turn=True) == []
    assert load_state(dump_state(state)) == state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_envelope_games_account_for_the_new_cards_too(seed: int) -> None:
    from keystone.engine.campaign import ENVELOPE

    state = new_game(GameConfig(expansions=[ENVELOPE]), seed, ["A", "B"])
    assert check_invariants(state, after_turn=True) == []
    while state.phase != "over":
        state, _ = apply(state, legal_actions(state)[-1])
        assert check_invariants(state) == []
