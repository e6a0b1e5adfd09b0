"""Invariants every reachable state keeps; `simulate` and the property tests check them."""

from __future__ import annotations

from collections import Counter

from keystone.data import load_catalog
from keystone.engine.state import GameState
from keystone.engine.table import species_in_play

MAX_TURNS_PER_SEAT = 200
"""Far above any real game: the time track ends a game well before this."""


def all_card_locations(state: GameState) -> Counter[str]:
    places: Counter[str] = Counter(state.deck)
    places.update(state.discard)
    places.update(state.held)
    places.update(f.card for f in state.field if f is not None)
    for seat in state.seats:
        places.update(p.card for p in seat.board if p is not None)
    for stack in state.wild_stacks.values():
        places.update(stack)
    return places


def expected_cards(state: GameState) -> Counter[str]:
    ids = species_in_play(state.config)
    if state.config.wilds_allowed:
        ids += [w.id for w in load_catalog().wilds]
    return Counter(ids)


def check_invariants(state: GameState, after_turn: bool = False) -> list[str]:
    """Return a sentence for each broken invariant (an empty list means all hold)."""
    problems: list[str] = []
    found = all_card_locations(state)
    expected = expected_cards(state)
    if found != expected:
        missing = expected - found
        extra = found - expected
        problems.append(f"cards not accounted for: missing {dict(missing)}, extra {dict(extra)}")
    for seat in state.seats:
        if seat.synergy < 0:
            problems.append(f"{seat.name} has negative synergy ({seat.synergy})")
        for p in seat.board:
            if p is not None and p.research < 0:
                problems.append(f"{seat.name} has a negative research count")
        if seat.turns > MAX_TURNS_PER_SEAT:
            problems.append(f"{seat.name} has taken {seat.turns} turns; the game should have ended")
    for f in state.field:
        if f is not None and f.synergy < 0:
            problems.append("a Field card holds negative synergy")
    if after_turn and state.phase in ("main", "over"):
        filled = sum(f is not None for f in state.field)
        if filled < len(state.field) and (state.deck or state.discard):
            problems.append(f"the Field holds {filled} cards after a turn while cards remain")
    if state.time < 0:
        problems.append("the time marker went below its last space")
    return problems
