"""A cheap player for Field Journal tests: greedy over Field takes only, so every move it makes is
a `/take` or `/endturn`, which keeps end-to-end tests short. With seed 1 it wins assignment 1."""

from __future__ import annotations

from keystone.engine import Action, GameState, apply, legal_actions
from keystone.engine.actions import EndTurn, Take
from tests.campaign_player import value

WINNING_SEED = 1
"""A seed whose assignment 1 this player wins (checked by test_app_journal)."""


def take_greedy(number: int, state: GameState, cache: dict[object, float]) -> Action:
    """The take (or end of turn) worth most one step ahead for assignment `number`."""
    cheap = [a for a in legal_actions(state) if isinstance(a, Take | EndTurn)]
    if not cheap:
        return legal_actions(state)[0]
    return max(cheap, key=lambda a: value(number, apply(state, a)[0], cache))
