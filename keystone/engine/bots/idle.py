"""Skill actions that would only cost time: the bots never choose one while another action is legal.

A skill action spends the turn, and the all-exhausted action also moves the time marker. When none
of its effects can touch the acting seat's board, research or synergy (no card to research, nothing
to move, no empty cell to place on), all it does besides is discard Field cards: in a solo game
that throws away a turn's worth of time, and a bot standing in for an absent person must never play
it while a card could be taken instead.

`only_costs_time` answers from the table alone, and `useful` is the easy bot's cheap filter built
on it. The normal bot asks more, through its play-out of the turn: a skill whose best play-out
leaves the seat's `position` as it was is idle too, even if an effect could act (a move it would
not make).
"""

from __future__ import annotations

from keystone.cards import Effect, Symbol
from keystone.engine.actions import Action, Skip, UseSkill
from keystone.engine.state import GameState
from keystone.engine.table import catalog

Position = tuple[tuple[tuple[str, int] | None, ...], int]


def position(state: GameState, seat: int) -> Position:
    """What a seat's score can depend on: its board (cards and research tokens) and its synergy."""
    s = state.seats[seat]
    return tuple(None if p is None else (p.card, p.research) for p in s.board), s.synergy


def skill_effects(state: GameState, action: UseSkill) -> list[Effect]:
    """The effects `action` resolves: one token's active side, or every exhausted token's other side."""
    if action.token:
        return list(catalog().skill(action.token).active.effects)
    return [e for k in state.skills if k.exhausted for e in catalog().skill(k.number).exhausted.effects]


def _can_act(state: GameState, effect: Effect, fed: bool) -> bool:
    """Whether `effect` could change the seat's position; `fed`: a Field discard may come before it."""
    board = state.seat.board
    empty = None in board
    match effect.kind:
        case "gain":
            return True
        case "move":
            return empty and any(p is not None for p in board)
        case "draw_place":
            return empty and bool(state.deck or state.discard)
        case "discard_place":
            # A Field discard resolved before it feeds the pile: count that as something to look at.
            return empty and bool(state.discard or fed)
        case "research":
            return any(p is not None and not p.research and _shows(p.card, effect.target) for p in board)
    return False  # field_discard: it never touches the seat's own board or synergy


def _shows(card_id: str, target: str | None) -> bool:
    card = catalog().card(card_id)
    return card.wild if target == "wild" else target is not None and card.has_symbol(Symbol(target))


def only_costs_time(state: GameState, action: Action) -> bool:
    """Whether `action` is a skill none of whose effects can change the acting seat's position.

    Effects are judged on the table as it is when the action starts; a placement is the only way an
    effect can give a later one something to act on, and a placement already counts.
    """
    if not isinstance(action, UseSkill) or state.phase != "main":
        return False
    effects = skill_effects(state, action)
    # An active side resolves in its printed order; the exhausted sides in any order the player picks.
    discards = [i for i, e in enumerate(effects) if e.kind == "field_discard"]
    return not any(
        _can_act(state, e, bool(discards) and (action.token == 0 or discards[0] < i)) for i, e in enumerate(effects)
    )



def useful(state: GameState, actions: list[Action]) -> list[Action]:
    """`actions` less those that only cost time: skills with nothing to act on, and skipping an
    effect that could act (which would leave the skill with nothing done). All of them if that
    leaves none."""
    kept: list[Action] = [a for a in actions if not isinstance(a, Skip) and not only_costs_time(state, a)]
    return kept or actions
