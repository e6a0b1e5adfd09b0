"""The rules of play: legal actions, applying an action, turn end and game end (the table they are
played on, setup included, is `table`; why an action is refused, `refusals`).

`apply` never mutates its input: it works on a clone, so a raised `IllegalAction` leaves the
caller's state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from keystone.cards import Card, Effect, Habitat, Symbol
from keystone.engine.actions import (
    Action,
    BuyWild,
    Discard,
    Draw,
    EndTurn,
    IllegalAction,
    Move,
    Pass,
    Pile,
    Place,
    Research,
    Resign,
    Resolve,
    Skip,
    Take,
    UseSkill,
    parse_action,
)
from keystone.engine.board import CELLS, cell_name, synergy_for_placement
from keystone.engine.events import Event
from keystone.engine.messages import Param
from keystone.engine.refusals import refusal
from keystone.engine.state import (
    GameState,
    PlacedCard,
    Seat,
    Step,
)
from keystone.engine.table import active_skill, catalog, draw_card, refill_field, take_cost

# --------------------------------------------------------------------------- helpers


def _card(card_id: str) -> Card:
    return catalog().card(card_id)


def _board_cards(seat: Seat) -> list[Card | None]:
    return [None if p is None else _card(p.card) for p in seat.board]


def _empty_cells(seat: Seat) -> list[int]:
    return [i for i, p in enumerate(seat.board) if p is None]


def _place(state: GameState, card_id: str, cell: int, research: int = 0) -> int:
    """Put a card on the acting seat's board and pay out placement synergy."""
    seat = state.seat
    seat.board[cell] = PlacedCard(card_id, research)
    gained = synergy_for_placement(_card(card_id), cell, _board_cards(seat))
    seat.synergy += gained
    return gained


def wild_available(state: GameState) -> bool:
    cfg = state.config
    seat = state.seat
    return (
        cfg.wilds_allowed
        and not state.wild_bought
        and seat.synergy >= cfg.wild_cost
        and any(state.wild_stacks.values())
        and None in seat.board
    )


def _research_targets(state: GameState, target: str) -> list[int]:
    out = []
    for i, p in enumerate(state.seat.board):
        if p is None or p.research:
            continue
        card = _card(p.card)
        if (card.wild if target == "wild" else card.has_symbol(Symbol(target))):
            out.append(i)
    return out


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action for the decision at hand, in a stable order."""
    if state.phase == "over":
        return []
    if state.phase == "resolve":
        return _step_actions(state)
    actions: list[Action] = []
    seat = state.seat
    empty = _empty_cells(seat)
    if state.phase == "main":
        for slot, f in enumerate(state.field):
            if f is not None and take_cost(state, slot) <= seat.synergy:
                actions.extend(Take(slot, c) for c in empty)
    if wild_available(state):
        for habitat in Habitat:
            if state.wild_stacks[habitat]:
                actions.extend(BuyWild(habitat, c) for c in empty)
    if state.phase == "main":
        disabled = set(state.config.disabled_skills)
        actions.extend(UseSkill(k.number) for k in state.skills if not k.exhausted and k.number not in disabled)
        if any(k.exhausted for k in state.skills):
            actions.append(UseSkill(0))
        if not actions:
            actions.append(Pass())
    else:
        actions.append(EndTurn())
    return actions


def _step_actions(state: GameState) -> list[Action]:
    step = state.step
    assert step is not None
    seat = state.seat
    match step.kind:
        case "choose_exhausted":
            return [Resolve(n) for n in step.options]
        case "draw_place":
            return [Draw(), Skip()]
        case "place_held":
            empty = _empty_cells(seat)
            return [*(Place(i, c) for i in range(len(state.held)) for c in empty), Skip()]
        case "pile_held":
            return [Pile(i) for i in range(len(state.held))]
        case "move":
            empty = _empty_cells(seat)
            full = [i for i in range(CELLS) if seat.board[i] is not None]
            return [*(Move(s, t) for s in full for t in empty), Skip()]
        case "research":
            return [*(Research(c) for c in _research_targets(state, step.target or "")), Skip()]
        case "field_discard":
            return [Discard(i) for i, f in enumerate(state.field) if f is not None]
    raise AssertionError(f"no decision for step {step.kind}")


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a legal action to a copy of `state`; raise IllegalAction (state untouched) otherwise."""
    if isinstance(action, Resign):
        return _resign(state, action.seat)
    if action not in legal_actions(state):
        raise IllegalAction.of(refusal(state, action))
    new = state.clone()
    events: list[Event] = []
    _dispatch(new, action, events)
    _advance(new, events)
    new.version += 1
    return new, events


def _resign(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """End the game with `seat` resigned: the board stays as it is and is scored, the resigner last."""
    if state.phase == "over":
        raise IllegalAction.said("error.over")
    if not 0 <= seat < len(state.seats):
        raise IllegalAction.said("error.no_seat", seat=seat + 1)
    new = state.clone()
    new.phase = "over"
    new.steps = []
    new.resigned = seat
    new.version += 1
    return new, [_told("resigned", seat, "event.resigned", seat=new.seats[seat].name)]


def apply_text(state: GameState, text: str) -> tuple[GameState, list[Event]]:
    return apply(state, parse_action(text))


def _dispatch(state: GameState, action: Action, events: list[Event]) -> None:
    seat = state.seat
    who = seat.name
    match action:
        case Take(slot, cell):
            _take(state, slot, cell, events)
        case BuyWild(habitat, cell):
            seat.synergy -= state.config.wild_cost
            card_id = state.wild_stacks[habitat].pop()
            state.wild_bought = True
            seat.wilds_bought += 1
            gained = _place(state, card_id, cell)
            events.append(_told("wild", state.current, "event.wild", seat=who, card=card_id,
                                cost=state.config.wild_cost, cell=cell_name(cell), gained=gained))
            if state.phase == "after":
                _end_turn(state, events)
        case UseSkill(0):
            numbers = [k.number for k in state.skills if k.exhausted]
            state.phase = "resolve"
            state.steps = [Step("choose_exhausted", options=numbers)]
            events.append(_told("skill", state.current, "event.skill.all", seat=who))
        case UseSkill(number):
            token = active_skill(state, number)
            assert token is not None
            token.exhausted = True
            state.phase = "resolve"
            _push_effects(state, number, catalog().skill(number).active.effects)
            events.append(_told("skill", state.current, "event.skill.use", seat=who, skill=number, side="active"))
        case Resolve(number):
            step = state.steps[-1]
            step.options.remove(number)
            _push_effects(state, number, catalog().skill(number).exhausted.effects)
            events.append(_told("skill", state.current, "event.skill.resolve", seat=who, skill=number,
                                side="exhausted"))
        case EndTurn() | Pass():
            if isinstance(action, Pass):
                events.append(_told("pass", state.current, "event.pass", seat=who))
            _end_turn(state, events)
        case _:
            _resolve_step(state, action, events)


def _take(state: GameState, slot: int, cell: int, events: list[Event]) -> None:
    seat = state.seat
    chosen = state.field[slot]
    assert chosen is not None
    cost = take_cost(state, slot)
    for f in state.field[slot + 1 :]:
        if f is not None:
            f.synergy += 1
    seat.synergy += chosen.synergy - cost
    state.field[slot] = None
    gained = _place(state, chosen.card, cell)
    events.append(_told("take", state.current, "event.take", seat=seat.name, card=chosen.card, slot=slot + 1,
                        paid=cost, collected=chosen.synergy, cell=cell_name(cell), gained=gained))
    state.phase = "resolve"


def _told(kind: str, seat: int, key: str, /, *, private: bool = False, **params: Param) -> Event:
    """An event of `seat`'s, said by the message `key` with these parameters."""
    return Event(kind, seat, private=private, key=key, params=params)


def _push_effects(state: GameState, skill: int, effects: Iterable[object]) -> None:
    """Push a side's effects so that the first one ends on top of the stack."""
    for effect in reversed(list(effects)):
        assert isinstance(effect, Effect)
        count = effect.count
        if effect.kind == "field_discard":
            count += state.config.extra_field_discards
        state.steps.append(Step(effect.kind, count, effect.target, skill))


def _resolve_step(state: GameState, action: Action, events: list[Event]) -> None:
    step = state.steps[-1]
    seat = state.seat
    who = seat.name
    match action:
        case Skip():
            state.steps.pop()
        case Draw():
            state.steps.pop()
            for _ in range(step.count):
                card = draw_card(state)
                if card is not None:
                    state.held.append(card)
            state.held_private = True
            state.steps.extend([Step("pile_held", skill=step.skill), Step("place_held", skill=step.skill)])
            events.append(_told("draw", state.current, "event.draw", seat=who, count=len(state.held)))
            events.append(_told("draw", state.current, "event.drew", private=True, cards=list(state.held)))
        case Place(index, cell):
            state.steps.pop()
            card_id = state.held.pop(index)
            gained = _place(state, card_id, cell)
            events.append(_told("place", state.current, "event.place", seat=who, card=card_id, cell=cell_name(cell),
                                gained=gained))
        case Pile(index):
            card_id = state.held.pop(index)
            state.discard.append(card_id)
            events.append(_told("pile", state.current, "event.pile", card=card_id))
            if not state.held:
                state.steps.pop()
                state.held_private = False
        case Move(source, target):
            placed = seat.board[source]
            assert placed is not None
            seat.board[source] = None
            gained = _place(state, placed.card, target, placed.research)
            step.count -= 1
            if step.count == 0:
                state.steps.pop()
            events.append(_told("move", state.current, "event.move", seat=who, card=placed.card,
                                source=cell_name(source), cell=cell_name(target), gained=gained))
        case Research(cell):
            state.steps.pop()
            placed = seat.board[cell]
            assert placed is not None
            placed.research += step.count
            events.append(_told("research", state.current, "event.research", seat=who, count=step.count,
                                card=placed.card, cell=cell_name(cell)))
        case Discard(slot):
            slot_card = state.field[slot]
            assert slot_card is not None
            state.field[slot] = None
            state.discard.append(slot_card.card)
            step.count -= 1
            if step.count == 0 or all(f is None for f in state.field):
                state.steps.pop()
            events.append(_told("discard", state.current, "event.discard", seat=who, card=slot_card.card,
                                slot=slot + 1, returned=slot_card.synergy))
        case _:
            raise AssertionError(f"unexpected action {action}")


def _advance(state: GameState, events: list[Event]) -> None:
    """Run every step that needs no decision, then finish the action or the turn if due."""
    while state.phase == "resolve":
        step = state.step
        if step is None:
            _finish_action(state, events)
            return
        if step.kind == "gain":
            state.steps.pop()
            state.seat.synergy += step.count
            events.append(_told("gain", state.current, "event.gain", seat=state.seat.name, count=step.count))
            continue
        if step.kind == "discard_place":
            state.steps.pop()
            looked = [state.discard.pop() for _ in range(min(step.count, len(state.discard)))]
            if not looked:
                events.append(_nothing_to_act_on(state, step))
            else:
                state.held = looked
                state.held_private = False
                state.steps.extend([Step("pile_held", skill=step.skill), Step("place_held", skill=step.skill)])
                events.append(_told("look", state.current, "event.look", seat=state.seat.name, cards=looked))
            continue
        if step.kind == "choose_exhausted" and not step.options:
            state.steps.pop()
            for k in state.skills:
                k.exhausted = False
            state.time = max(0, state.time - 1)
            events.append(_told("time", state.current, "event.time", time=state.time))
            continue
        options = _step_actions(state)
        if step.kind == "pile_held" and not state.held:
            state.steps.pop()  # every card held was placed: nothing goes back on the pile
            continue
        if options == [Skip()] or not options:
            # Ruling 9: an optional effect with nothing to act on is skipped, and the players hear why.
            events.append(_nothing_to_act_on(state, step))
            state.steps.pop()
            continue
        if len(options) == 1 and step.kind in FORCED_WHEN_ALONE:
            _dispatch(state, options[0], events)
            continue
        return


FORCED_WHEN_ALONE = ("pile_held", "field_discard", "choose_exhausted")
"""Steps whose single remaining option is no choice at all, so the engine takes it."""


def _nothing_to_act_on(state: GameState, step: Step) -> Event:
    """The event for a skill effect skipped because nothing on the table fits it."""
    match step.kind:
        case "move" if any(p is not None for p in state.seat.board):
            why = "move_full"
        case "place_held" if state.held:
            why = "place_full"
        case "place_held":
            why = "place_empty"
        case "move" | "research" | "discard_place" | "field_discard":
            why = step.kind
        case _:
            why = "other"
    return _told("skip", state.current, "event.skip", of_skill=step.skill, why=why, seat=state.seat.name,
                 target=step.target)


def _finish_action(state: GameState, events: list[Event]) -> None:
    if wild_available(state):
        state.phase = "after"
    else:
        _end_turn(state, events)


def _end_turn(state: GameState, events: list[Event]) -> None:
    seat = state.seat
    seat.turns += 1
    refill_field(state)
    if not state.final_round and (state.time <= 0 or any(None not in s.board for s in state.seats)):
        state.final_round = True
        events.append(_told("final_round", state.current, "event.final_round"))
    if state.final_round and state.current == len(state.seats) - 1:
        state.phase = "over"
        events.append(_told("game_over", state.current, "event.game_over"))
        return
    state.current = (state.current + 1) % len(state.seats)
    state.phase = "main"
    state.wild_bought = False
    state.turn += 1


def is_over(state: GameState) -> bool:
    return state.phase == "over"
