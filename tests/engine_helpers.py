"""Building blocks for engine tests: arrange a state exactly, then act through the public API."""

from __future__ import annotations

from collections.abc import Iterable

from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, apply, dump_state, new_game, parse_action
from keystone.engine.board import parse_cell
from keystone.engine.events import Event
from keystone.engine.state import FieldSlot, PlacedCard


def cid(name: str) -> str:
    card = load_catalog().find(name)
    assert card is not None, name
    return card.id


def game(players: int = 2, seed: int = 7, **config: object) -> GameState:
    cfg = GameConfig(players=players, **config)  # type: ignore[arg-type]
    names = ["Kiara", "Thomas", "Sally", "Jim"][: cfg.boards]
    return new_game(cfg, seed, names)


def _take_out(state: GameState, card_id: str) -> None:
    """Remove a card from wherever it is, so arranging a scene keeps every card accounted for."""
    if card_id in state.deck:
        state.deck.remove(card_id)
    elif card_id in state.discard:
        state.discard.remove(card_id)
    else:
        for i, f in enumerate(state.field):
            if f is not None and f.card == card_id:
                state.field[i] = None
                return
        for seat in state.seats:
            for i, p in enumerate(seat.board):
                if p is not None and p.card == card_id:
                    seat.board[i] = None
                    return
        for stack in state.wild_stacks.values():
            if card_id in stack:
                stack.remove(card_id)
                return


def set_field(state: GameState, names: Iterable[str | None], synergy: Iterable[int] | None = None) -> None:
    """Lay out the Field left to right; displaced Field cards go to the bottom of the deck."""
    for f in state.field:
        if f is not None:
            state.deck.insert(0, f.card)
    state.field = [None] * len(state.field)
    tokens = list(synergy) if synergy is not None else None
    for slot, name in enumerate(names):
        if name is None:
            continue
        card = cid(name)
        _take_out(state, card)
        state.field[slot] = FieldSlot(card, tokens[slot] if tokens else 0)


def put(state: GameState, seat: int, cell: str, name: str, research: int = 0) -> None:
    card = cid(name)
    _take_out(state, card)
    index = parse_cell(cell)
    assert index is not None
    state.seats[seat].board[index] = PlacedCard(card, research)


def stack_deck(state: GameState, names_top_first: Iterable[str]) -> None:
    """Put these cards on top of the deck, the first one on top."""
    cards = [cid(n) for n in names_top_first]
    for c in cards:
        _take_out(state, c)
    state.deck.extend(reversed(cards))


def stack_discard(state: GameState, names_top_first: Iterable[str]) -> None:
    cards = [cid(n) for n in names_top_first]
    for c in cards:
        _take_out(state, c)
    state.discard.extend(reversed(cards))


def cell_card(state: GameState, seat: int, cell: str) -> PlacedCard | None:
    index = parse_cell(cell)
    assert index is not None
    return state.seats[seat].board[index]


def play(state: GameState, *moves: str) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for text in moves:
        state, new = apply(state, parse_action(text))
        events += new
    return state, events


def snapshot(state: GameState) -> str:
    return dump_state(state)
