"""What one seat (or the public) may see of a game: renderers and messages only ever get a view.

Hidden information: other seats' secret objectives (until the game ends), the order of the deck,
and cards drawn from the deck that are still in the drawer's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from keystone.cards import Habitat, Ruleset
from keystone.engine.state import FieldSlot, GameState, Phase, PlacedCard, StepKind
from keystone.engine.table import TIME_BY_PLAYERS, take_cost


@dataclass(frozen=True, slots=True)
class SeatView:
    index: int
    name: str
    synergy: int
    board: tuple[PlacedCard | None, ...]
    turns: int
    objective: int | None
    """The secret objective's card number: only for the viewer's own seat, or once the game is over."""


@dataclass(frozen=True, slots=True)
class SkillView:
    number: int
    exhausted: bool
    disabled: bool


@dataclass(frozen=True, slots=True)
class PendingView:
    """The decision the seat to act owes, when it is in the middle of a skill."""

    kind: StepKind
    count: int
    target: str | None
    skill: int | None
    options: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameView:
    viewer: int | None
    version: int
    rules: Ruleset
    coop: bool
    players: int
    seats: tuple[SeatView, ...]
    field: tuple[FieldSlot | None, ...]
    field_costs: tuple[int, ...]
    deck_count: int
    discard: tuple[str, ...]
    """Face-up discard pile, bottom first (its order is public)."""
    skills: tuple[SkillView, ...]
    time: int
    time_start: int
    wild_stacks: tuple[tuple[Habitat, tuple[str, ...]], ...]
    wild_cost: int
    wilds_allowed: bool
    current: int
    phase: Phase
    pending: PendingView | None
    held: tuple[str, ...] | None
    """Cards in the acting seat's hand during a skill; None when hidden from this viewer."""
    held_count: int
    wild_bought: bool
    final_round: bool
    turn: int
    stack: tuple[PendingView, ...] = ()
    """Every pending skill step, bottom first (`pending` is the last): what is left of the skill is
    public, and a bot that simulates the rest of a turn needs all of it."""
    expansions: tuple[str, ...] = ()
    """The setup is public: which expansions' cards are in the game, and which cards were left out."""
    removed_cards: tuple[str, ...] = ()
    resigned: int | None = None
    """The seat whose resignation ended the game, if one did."""

    @property
    def over(self) -> bool:
        return self.phase == "over"


def _view(state: GameState, viewer: int | None) -> GameView:
    over = state.phase == "over"
    seats = tuple(
        SeatView(
            index=i,
            name=s.name,
            synergy=s.synergy,
            board=tuple(None if p is None else PlacedCard(p.card, p.research) for p in s.board),
            turns=s.turns,
            objective=s.objective if (over or viewer == i) else None,
        )
        for i, s in enumerate(state.seats)
    )
    stack = tuple(PendingView(s.kind, s.count, s.target, s.skill, tuple(s.options)) for s in state.steps)
    pending = stack[-1] if stack else None
    show_held = not state.held_private or viewer == state.current
    disabled = set(state.config.disabled_skills)
    return GameView(
        viewer=viewer,
        version=state.version,
        rules=state.config.rules,
        coop=state.config.coop,
        players=state.config.players,
        seats=seats,
        field=tuple(None if f is None else FieldSlot(f.card, f.synergy) for f in state.field),
        field_costs=tuple(take_cost(state, i) for i in range(len(state.field))),
        deck_count=len(state.deck),
        discard=tuple(state.discard),
        skills=tuple(SkillView(k.number, k.exhausted, k.number in disabled) for k in state.skills),
        time=state.time,
        time_start=_time_start(state),
        wild_stacks=tuple((h, tuple(v)) for h, v in state.wild_stacks.items()),
        wild_cost=state.config.wild_cost,
        wilds_allowed=state.config.wilds_allowed,
        current=state.current,
        phase=state.phase,
        pending=pending,
        held=tuple(state.held) if show_held else None,
        held_count=len(state.held),
        wild_bought=state.wild_bought,
        final_round=state.final_round,
        turn=state.turn,
        stack=stack,
        expansions=tuple(state.config.expansions),
        removed_cards=tuple(state.config.removed_cards),
        resigned=state.resigned,
    )


def _time_start(state: GameState) -> int:
    cfg = state.config
    return cfg.time_start if cfg.time_start is not None else TIME_BY_PLAYERS[cfg.boards]


def player_view(state: GameState, seat: int) -> GameView:
    """What seat `seat` may see: its own objective and its own drawn cards, nothing else hidden."""
    if not 0 <= seat < len(state.seats):
        raise ValueError(f"there is no seat {seat}")
    return _view(state, seat)


def public_view(state: GameState) -> GameView:
    """What anyone watching the channel may see."""
    return _view(state, None)
