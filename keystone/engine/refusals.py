"""Why an action is refused, said as a message any language can word: the one place that explains
each rule an illegal action breaks (`game.apply` raises it)."""

from __future__ import annotations

from keystone.engine.actions import (
    Action,
    BuyWild,
    Discard,
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
from keystone.engine.board import cell_name
from keystone.engine.messages import Message, message
from keystone.engine.state import GameState, Seat
from keystone.engine.table import active_skill, take_cost


def refusal(state: GameState, action: Action) -> Message:
    """Why `action` is not legal now (assumes it is not), to be said in any language."""
    if state.phase == "over":
        return message("error.over")
    seat = state.seat
    step = state.step
    if state.phase == "resolve" and step is not None:
        return _why_not_step(state, action)
    acted = message("error.acted")
    match action:
        case Take(slot, cell):
            if state.phase != "main":
                return acted
            if not 0 <= slot < len(state.field) or state.field[slot] is None:
                return message("error.slot_empty", slot=slot + 1, slots=len(state.field))
            cost = take_cost(state, slot)
            if cost > seat.synergy:
                return message("error.slot_cost", slot=slot + 1, cost=cost, have=seat.synergy)
            return _cell_problem(seat, cell)
        case BuyWild(habitat, cell):
            cfg = state.config
            if not cfg.wilds_allowed:
                return message("error.wilds_off", rule=cfg.rule_names.get("wilds"))
            if state.wild_bought:
                return message("error.wild_bought")
            if not state.wild_stacks[habitat]:
                return message("error.wild_stack", habitat=habitat.value)
            if seat.synergy < cfg.wild_cost:
                return message("error.wild_cost", cost=cfg.wild_cost, have=seat.synergy,
                               rule=cfg.rule_names.get("wild_cost"))
            return _cell_problem(seat, cell)
        case UseSkill(0):
            return acted if state.phase != "main" else message("error.none_exhausted")
        case UseSkill(number):
            if state.phase != "main":
                return acted
            if active_skill(state, number) is None:
                return message("error.skill_absent", skill=number)
            if number in state.config.disabled_skills:
                rule = state.config.rule_names.get(f"skill:{number}")
                return message("error.skill_disabled", skill=number, rule=rule)
            return message("error.skill_exhausted", skill=number)
        case EndTurn():
            return message("error.end_turn")
        case Pass():
            return message("error.pass")
    return message("error.no_choice")


def _cell_problem(seat: Seat, cell: int) -> Message:
    placed = seat.board[cell]
    if placed is not None:
        return message("error.cell_full", cell=cell_name(cell), card=placed.card)
    return message("error.cannot")


def _why_not_step(state: GameState, action: Action) -> Message:
    step = state.step
    assert step is not None
    seat = state.seat
    match action:
        case Place(index, cell) if step.kind == "place_held":
            if index >= len(state.held):
                return message("error.held", count=len(state.held), number=index + 1)
            return _cell_problem(seat, cell)
        case Pile(index) if step.kind == "pile_held":
            return message("error.held", count=len(state.held), number=index + 1)
        case Move(source, target) if step.kind == "move":
            if seat.board[source] is None:
                return message("error.move_empty", cell=cell_name(source))
            return _cell_problem(seat, target)
        case Research(cell) if step.kind == "research":
            placed = seat.board[cell]
            if placed is None:
                return message("error.research_empty", cell=cell_name(cell))
            if placed.research:
                return message("error.researched", card=placed.card)
            return message("error.no_icon", card=placed.card, icon=step.target)
        case Discard(slot) if step.kind == "field_discard":
            return message("error.discard_empty", slot=slot + 1)
        case Resolve(number) if step.kind == "choose_exhausted":
            return message("error.resolve", skill=number, options=list(step.options))
        case Skip() if step.kind in ("pile_held", "field_discard", "choose_exhausted"):
            return message("error.not_optional")
    return message("error.finish", step=step.kind if step.kind in DECISIONS else "other")


DECISIONS = ("choose_exhausted", "draw_place", "place_held", "pile_held", "move", "research", "field_discard")
"""The steps that wait for a player's decision (each has its own `error.step.*` words)."""
