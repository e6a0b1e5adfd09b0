"""The table as the rules set it out and read it: the catalog, the species in play, dealing a new
game, drawing (the discard pile reshuffled when the deck runs out) and refilling the Field, a
Field slot's price and a skill token in play. `game` plays on it; `refusals` explains with it."""

from __future__ import annotations

from collections.abc import Sequence

from keystone.cards import Habitat
from keystone.data import Catalog, load_catalog
from keystone.engine import rng
from keystone.engine.actions import IllegalAction
from keystone.engine.board import parse_cell
from keystone.engine.state import FieldSlot, GameConfig, GameState, PlacedCard, Seat, SkillState

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


def new_game(config: GameConfig, seed: int, names: Sequence[str]) -> GameState:
    """Set up a game as the rulebook's setup does; `names` has one entry per board."""
    if not 1 <= config.players <= 4:
        raise IllegalAction.said("error.players")
    if config.coop and config.players < 2:
        raise IllegalAction.said("error.coop")
    boards = config.boards
    if len(names) != boards:
        raise IllegalAction.said("error.seat_names", count=boards, given=len(names))
    cat = catalog()
    state_rng = rng.seed_state(seed)

    deck = species_in_play(config)
    for card_id in config.preset.values():
        if card_id in deck:
            deck.remove(card_id)
    state_rng = rng.shuffle(state_rng, deck)
    deck = _stack(deck, config.stacked)

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
            raise IllegalAction.said("error.preset_cell", word=repr(cell_text))
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
    refill_field(state)
    return state


def _stack(deck: list[str], stacked: Sequence[str]) -> list[str]:
    """The shuffled deck with `stacked` on top, the first of them drawn first (a prepared deal)."""
    missing = [c for c in stacked if c not in deck]
    if missing or len(set(stacked)) != len(stacked):
        raise IllegalAction.said("error.stacked", cards=", ".join(missing) or ", ".join(stacked))
    chosen = set(stacked)
    return [c for c in deck if c not in chosen] + list(reversed(stacked))


def take_cost(state: GameState, slot: int) -> int:
    """One synergy on each Field card to the right of the chosen one."""
    return sum(1 for f in state.field[slot + 1 :] if f is not None)


def draw_card(state: GameState) -> str | None:
    """Draw the top card; an empty deck first becomes the shuffled discard pile."""
    if not state.deck:
        if not state.discard:
            return None
        state.deck, state.discard = state.discard, []
        state.rng = rng.shuffle(state.rng, state.deck)
    return state.deck.pop()


def refill_field(state: GameState) -> None:
    """Slide every Field card to the right, then fill from the rightmost empty slot."""
    cards = [f for f in state.field if f is not None]
    size = len(state.field)
    state.field = [None] * (size - len(cards)) + cards
    for slot in range(size - len(cards) - 1, -1, -1):
        drawn = draw_card(state)
        if drawn is None:
            break
        state.field[slot] = FieldSlot(drawn)


def active_skill(state: GameState, number: int) -> SkillState | None:
    return next((k for k in state.skills if k.number == number), None)
