"""The rules of play: setup, legal actions, applying an action, turn end and game end.

`apply` never mutates its input: it works on a clone, so a raised `IllegalAction` leaves the
caller's state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from keystone.cards import Card, Effect, Habitat, Symbol
from keystone.data import Catalog, load_catalog
from keystone.engine import rng
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
from keystone.engine.board import CELLS, cell_name, parse_cell, synergy_for_placement
from keystone.engine.events import Event
from keystone.engine.state import (
    FieldSlot,
    GameConfig,
    GameState,
    PlacedCard,
    Seat,
    SkillState,
    Step,
)
from keystone.engine.words import plural

TIME_BY_PLAYERS = {1: 4, 2: 5, 3: 6, 4: 7}
SYNERGY_BY_SEAT = (5, 6, 7, 8)
SKILLS_IN_PLAY = 5


def catalog() -> Catalog:
    """The card catalog, validated once per process."""
    return load_catalog()


def species_in_play(config: GameConfig) -> list[str]:
    """The one answer to "which species make this game's cards": the base deck plus the chosen
    expansions (the sealed envelope), less the cards an assignment leaves out. Setup, the invariants
    and the bots' guesses all ask here, so they can never disagree."""
    removed = set(config.removed_cards)
    return [c.id for c in catalog().species_for(config.expansions) if c.id not in removed]


# --------------------------------------------------------------------------- setup


def new_game(config: GameConfig, seed: int, names: Sequence[str]) -> GameState:
    """Set up a game as the rulebook's setup does; `names` has one entry per board."""
    if not 1 <= config.players <= 4:
        raise IllegalAction("Keystone is played by 1 to 4 players.")
    if config.coop and config.players < 2:
        raise IllegalAction("Co-op needs at least two players.")
    boards = config.boards
    if len(names) != boards:
        raise IllegalAction(f"This game needs {plural(boards, 'seat name')}, not {len(names)}.")
    cat = catalog()
    state_rng = rng.seed_state(seed)

    deck = species_in_play(config)
    for card_id in config.preset.values():
        if card_id in deck:
            deck.remove(card_id)
    state_rng = rng.shuffle(state_rng, deck)

    objectives = list(config.objectives) if config.objectives else sorted(cat.objectives)
    if not config.objectives:
        state_rng = rng.shuffle(state_rng, objectives)
    skill_numbers = list(config.skills) if config.skills else sorted(cat.skills_for(config.expansions))
    if not config.skills:
        state_rng = rng.shuffle(state_rng, skill_numbers)
        skill_numbers = sorted(skill_numbers[:SKILLS_IN_PLAY])

    solo_like = boards == 1
    time = config.time_start if config.time_start is not None else TIME_BY_PLAYERS[boards]
    synergy = config.starting_synergy or [SYNERGY_BY_SEAT[0] if solo_like else SYNERGY_BY_SEAT[i]
                                          for i in range(boards)]
    seats = [
        Seat(name=names[i], synergy=synergy[i % len(synergy)], objective=objectives[i % len(objectives)])
        for i in range(boards)
    ]
    for cell_text, card_id in config.preset.items():
        cell = parse_cell(cell_text)
        if cell is None:
            raise IllegalAction(f"Preset cell {cell_text!r} is not a cell.")
        seats[0].board[cell] = PlacedCard(cat.card(card_id).id)

    wilds: dict[Habitat, list[str]] = {h: [] for h in Habitat}
    if config.wilds_allowed:
        for w in cat.wilds:
            wilds[w.habitats[0]].append(w.id)

    state = GameState(
        config=config,
        seed=seed,
        rng=state_rng,
        version=0,
        seats=seats,
        deck=deck,
        discard=[],
        field=[None] * config.field_size,
        skills=[SkillState(n) for n in skill_numbers],
        wild_stacks=wilds,
        time=time,
    )
    _refill_field(state)
    return state


# --------------------------------------------------------------------------- helpers


def _card(card_id: str) -> Card:
    return catalog().card(card_id)


def _board_cards(seat: Seat) -> list[Card | None]:
    return [None if p is None else _card(p.card) for p in seat.board]


def _empty_cells(seat: Seat) -> list[int]:
    return [i for i, p in enumerate(seat.board) if p is None]


def take_cost(state: GameState, slot: int) -> int:
    """One synergy on each Field card to the right of the chosen one."""
    return sum(1 for f in state.field[slot + 1 :] if f is not None)


def _draw(state: GameState) -> str | None:
    """Draw the top card; an empty deck first becomes the shuffled discard pile."""
    if not state.deck:
        if not state.discard:
            return None
        state.deck, state.discard = state.discard, []
        state.rng = rng.shuffle(state.rng, state.deck)
    return state.deck.pop()


def _refill_field(state: GameState) -> None:
    """Slide every Field card to the right, then fill from the rightmost empty slot."""
    cards = [f for f in state.field if f is not None]
    size = len(state.field)
    state.field = [None] * (size - len(cards)) + cards
    for slot in range(size - len(cards) - 1, -1, -1):
        drawn = _draw(state)
        if drawn is None:
            break
        state.field[slot] = FieldSlot(drawn)


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


def _active_skill(state: GameState, number: int) -> SkillState | None:
    return next((k for k in state.skills if k.number == number), None)


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
        raise IllegalAction(why_illegal(state, action))
    new = state.clone()
    events: list[Event] = []
    _dispatch(new, action, events)
    _advance(new, events)
    new.version += 1
    return new, events


def _resign(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """End the game with `seat` resigned: the board stays as it is and is scored, the resigner last."""
    if state.phase == "over":
        raise IllegalAction("The game is over; no more actions can be taken.")
    if not 0 <= seat < len(state.seats):
        raise IllegalAction(f"There is no seat {seat + 1} in this game.")
    new = state.clone()
    new.phase = "over"
    new.steps = []
    new.resigned = seat
    new.version += 1
    return new, [Event("resigned", seat, f"{new.seats[seat].name} resigned, so the game ends here.")]


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
            events.append(Event("wild", state.current, f"{who} bought {_card(card_id).name} for "
                                f"{state.config.wild_cost} synergy and placed it on {cell_name(cell)}"
                                f"{_gain_text(gained)}."))
            if state.phase == "after":
                _end_turn(state, events)
        case UseSkill(0):
            numbers = [k.number for k in state.skills if k.exhausted]
            state.phase = "resolve"
            state.steps = [Step("choose_exhausted", options=numbers)]
            events.append(Event("skill", state.current, f"{who} resolves all exhausted skills."))
        case UseSkill(number):
            token = _active_skill(state, number)
            assert token is not None
            token.exhausted = True
            side = catalog().skill(number).active
            state.phase = "resolve"
            _push_effects(state, number, side.effects)
            events.append(Event("skill", state.current, f"{who} uses skill {number}: {side.summary}."))
        case Resolve(number):
            step = state.steps[-1]
            step.options.remove(number)
            side = catalog().skill(number).exhausted
            _push_effects(state, number, side.effects)
            events.append(Event("skill", state.current, f"{who} resolves exhausted skill {number}: "
                                f"{side.summary}."))
        case EndTurn() | Pass():
            if isinstance(action, Pass):
                events.append(Event("pass", state.current, f"{who} has no legal action and passes."))
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
    collected = f", collecting {chosen.synergy} synergy from it" if chosen.synergy else ""
    events.append(Event("take", state.current,
                        f"{seat.name} took {_card(chosen.card).name} from Field slot {slot + 1} "
                        f"(paying {cost}){collected} and placed it on {cell_name(cell)}{_gain_text(gained)}."))
    state.phase = "resolve"


def _gain_text(gained: int) -> str:
    return f", gaining {gained} synergy" if gained else ""


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
                card = _draw(state)
                if card is not None:
                    state.held.append(card)
            state.held_private = True
            state.steps.extend([Step("pile_held", skill=step.skill), Step("place_held", skill=step.skill)])
            events.append(Event("draw", state.current, f"{who} drew {plural(len(state.held), 'card')} from the deck."))
            events.append(Event("draw", state.current, "You drew: " + ", ".join(
                _card(c).name for c in state.held) + ".", private=True))
        case Place(index, cell):
            state.steps.pop()
            card_id = state.held.pop(index)
            gained = _place(state, card_id, cell)
            events.append(Event("place", state.current, f"{who} placed {_card(card_id).name} on "
                                f"{cell_name(cell)}{_gain_text(gained)}."))
        case Pile(index):
            card_id = state.held.pop(index)
            state.discard.append(card_id)
            events.append(Event("pile", state.current, f"{_card(card_id).name} went onto the discard pile."))
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
            events.append(Event("move", state.current, f"{who} moved {_card(placed.card).name} from "
                                f"{cell_name(source)} to {cell_name(target)}{_gain_text(gained)}."))
        case Research(cell):
            state.steps.pop()
            placed = seat.board[cell]
            assert placed is not None
            placed.research += step.count
            events.append(Event("research", state.current, f"{who} put {plural(step.count, 'research token')} on "
                                f"{_card(placed.card).name} ({cell_name(cell)})."))
        case Discard(slot):
            slot_card = state.field[slot]
            assert slot_card is not None
            state.field[slot] = None
            state.discard.append(slot_card.card)
            step.count -= 1
            if step.count == 0 or all(f is None for f in state.field):
                state.steps.pop()
            lost = f" ({slot_card.synergy} synergy on it returned to the supply)" if slot_card.synergy else ""
            events.append(Event("discard", state.current, f"{who} discarded {_card(slot_card.card).name} "
                                f"from Field slot {slot + 1}{lost}."))
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
            events.append(Event("gain", state.current, f"{state.seat.name} gained {step.count} synergy."))
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
                names = ", ".join(_card(c).name for c in looked)
                events.append(Event("look", state.current, f"{state.seat.name} looks at the top of the "
                                    f"discard pile: {names}."))
            continue
        if step.kind == "choose_exhausted" and not step.options:
            state.steps.pop()
            for k in state.skills:
                k.exhausted = False
            state.time = max(0, state.time - 1)
            events.append(Event("time", state.current, f"All skills are active again; the time marker "
                                f"moves to {state.time}."))
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
    """The sentence for a skill effect skipped because nothing on the table fits it."""
    board = f"{state.seat.name}'s board"
    match step.kind:
        case "move" if any(p is not None for p in state.seat.board):
            why = f"{board} has no empty cell to move a card to"
        case "move":
            why = f"{board} has no card to move"
        case "research":
            target = "Wild" if step.target == "wild" else (step.target or "matching").title()
            why = f"{board} has no unresearched {target} card"
        case "place_held" if state.held:
            why = f"{board} has no empty cell to place a card on"
        case "place_held":
            why = "the deck and the discard pile are empty, so no card was drawn"
        case "discard_place":
            why = "the discard pile is empty"
        case "field_discard":
            why = "the Field has no card to discard"
        case _:
            why = "there is nothing to choose"
    skill = f"Skill {step.skill}" if step.skill is not None else "This effect"
    return Event("skip", state.current, f"{skill} has nothing to act on: {why}.")


def _finish_action(state: GameState, events: list[Event]) -> None:
    if wild_available(state):
        state.phase = "after"
    else:
        _end_turn(state, events)


def _end_turn(state: GameState, events: list[Event]) -> None:
    seat = state.seat
    seat.turns += 1
    _refill_field(state)
    if not state.final_round and (state.time <= 0 or any(None not in s.board for s in state.seats)):
        state.final_round = True
        events.append(Event("final_round", state.current, "The final round has begun: every seat gets "
                            "the same number of turns, then the game ends."))
    if state.final_round and state.current == len(state.seats) - 1:
        state.phase = "over"
        events.append(Event("game_over", state.current, "The game is over."))
        return
    state.current = (state.current + 1) % len(state.seats)
    state.phase = "main"
    state.wild_bought = False
    state.turn += 1


# --------------------------------------------------------------------------- explanations


def why_illegal(state: GameState, action: Action) -> str:
    """A sentence saying why `action` is not legal now (assumes it is not)."""
    if state.phase == "over":
        return "The game is over; no more actions can be taken."
    seat = state.seat
    step = state.step
    if state.phase == "resolve" and step is not None:
        return _why_not_step(state, action)
    match action:
        case Take(slot, cell):
            if state.phase != "main":
                return "You have already taken your action this turn; buy a Wild card or end your turn."
            if not 0 <= slot < len(state.field) or state.field[slot] is None:
                return f"Field slot {slot + 1} holds no card; choose a slot from 1 to {len(state.field)}."
            cost = take_cost(state, slot)
            if cost > seat.synergy:
                return (f"Taking Field slot {slot + 1} costs {cost} synergy and you have {seat.synergy}; "
                        "choose a card further right.")
            return _cell_problem(seat, cell)
        case BuyWild(habitat, cell):
            cfg = state.config
            if not cfg.wilds_allowed:
                return _ruled(cfg, "wilds", "Wild cards are not allowed in this game.")
            if state.wild_bought:
                return "You have already bought a Wild card this turn (one per turn)."
            if not state.wild_stacks[habitat]:
                return f"The {habitat.value} Wild stack is empty."
            if seat.synergy < cfg.wild_cost:
                short = f"A Wild card costs {cfg.wild_cost} synergy and you have {seat.synergy}."
                return _ruled(cfg, "wild_cost", short)
            return _cell_problem(seat, cell)
        case UseSkill(0):
            if state.phase != "main":
                return "You have already taken your action this turn; buy a Wild card or end your turn."
            return "No skill token is exhausted, so there is nothing to resolve with skill 0."
        case UseSkill(number):
            if state.phase != "main":
                return "You have already taken your action this turn; buy a Wild card or end your turn."
            token = _active_skill(state, number)
            if token is None:
                return f"Skill {number} is not among this game's tokens."
            if number in state.config.disabled_skills:
                return _ruled(state.config, f"skill:{number}", f"Skill {number} is disabled in this game.")
            return f"Skill {number} is exhausted; use skill 0 to resolve every exhausted token."
        case EndTurn():
            return "Take your action first: take a card from the Field or use a skill."
        case Pass():
            return "You can only pass when you have no legal action, and you have one."
    return "There is no choice of that kind to make right now."


def _ruled(config: GameConfig, key: str, sentence: str) -> str:
    """Name the special rule behind a refusal, when the game's setup named one (`rule_names`)."""
    name = config.rule_names.get(key)
    return f"{sentence[:-1]} (special rule: {name})." if name else sentence


def _cell_problem(seat: Seat, cell: int) -> str:
    placed = seat.board[cell]
    if placed is not None:
        return f"Cell {cell_name(cell)} already holds {_card(placed.card).name}; choose an empty cell."
    return "That cannot be done right now."


def _why_not_step(state: GameState, action: Action) -> str:
    step = state.step
    assert step is not None
    seat = state.seat
    wanted = {
        "choose_exhausted": "choose which exhausted skill to resolve next (`resolve N`)",
        "draw_place": "choose whether to draw (`draw` or `skip`)",
        "place_held": "place one of the cards in hand (`place N CELL`) or `skip`",
        "pile_held": "choose which card goes onto the discard pile next (`pile N`)",
        "move": "move a card (`move FROM TO`) or `skip`",
        "research": "choose a card to research (`research CELL`) or `skip`",
        "field_discard": "choose a Field card to discard (`discard N`)",
    }.get(step.kind, "finish the current skill")
    match action:
        case Place(index, cell) if step.kind == "place_held":
            if index >= len(state.held):
                return f"You hold {plural(len(state.held), 'card')}; there is no card {index + 1}."
            return _cell_problem(seat, cell)
        case Pile(index) if step.kind == "pile_held":
            return f"You hold {plural(len(state.held), 'card')}; there is no card {index + 1}."
        case Move(source, target) if step.kind == "move":
            if seat.board[source] is None:
                return f"Cell {cell_name(source)} is empty; there is nothing to move."
            return _cell_problem(seat, target)
        case Research(cell) if step.kind == "research":
            placed = seat.board[cell]
            if placed is None:
                return f"Cell {cell_name(cell)} is empty."
            if placed.research:
                return f"{_card(placed.card).name} already has research; only unresearched cards can take it."
            return f"{_card(placed.card).name} does not show the {step.target} icon this skill needs."
        case Discard(slot) if step.kind == "field_discard":
            return f"Field slot {slot + 1} holds no card."
        case Resolve(number) if step.kind == "choose_exhausted":
            return f"Skill {number} is not waiting to be resolved; choose one of {step.options}."
        case Skip() if step.kind in ("pile_held", "field_discard", "choose_exhausted"):
            return "This part of the skill is not optional."
    return f"Finish the skill first: {wanted}."


# --------------------------------------------------------------------------- replay


def replay(config: GameConfig, seed: int, names: Sequence[str], log: Iterable[str]) -> GameState:
    """Rebuild a state from its seed and action log (notation strings, `undo` entries included)."""
    from keystone.engine.history import rebuild  # history builds on `apply`, so it imports this module

    return rebuild(new_game(config, seed, names), list(log)).state


def is_over(state: GameState) -> bool:
    return state.phase == "over"
