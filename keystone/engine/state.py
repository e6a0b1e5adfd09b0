"""The game state: plain slotted dataclasses (fast to copy), serialised and validated by pydantic.

Everything a game needs lives here, the generator state included, so that a state alone can be
saved, loaded and continued, and seed + action log replays to the same state.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as default
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from keystone.cards import Habitat, Ruleset

Phase = Literal["main", "resolve", "after", "over"]

StepKind = Literal[
    "choose_exhausted",  # all-exhausted action: which exhausted token to resolve next
    "draw_place",  # may draw `count` from the deck
    "discard_place",  # looks at the top `count` of the discard pile
    "place_held",  # may place one held card
    "pile_held",  # put held cards on the discard pile, one at a time (order chosen)
    "move",  # may move a card, `count` times at most
    "research",  # may research one unresearched card showing `target`
    "gain",  # gain `count` synergy (no decision)
    "field_discard",  # must discard `count` Field cards, one at a time
]


@dataclass(slots=True)
class PlacedCard:
    card: str
    research: int = 0


@dataclass(slots=True)
class FieldSlot:
    card: str
    synergy: int = 0


@dataclass(slots=True)
class Seat:
    name: str
    synergy: int
    objective: int | None
    board: list[PlacedCard | None] = default(default_factory=lambda: [None] * 16)
    turns: int = 0
    wilds_bought: int = 0


@dataclass(slots=True)
class SkillState:
    number: int
    exhausted: bool = False


@dataclass(slots=True)
class Step:
    """One pending piece of a skill: the top of `GameState.steps` is the decision owed now."""

    kind: StepKind
    count: int = 1
    target: str | None = None
    skill: int | None = None
    options: list[int] = default(default_factory=list)


@dataclass(slots=True)
class GameConfig:
    """How a game is set up. Defaults follow the rulebook; the solo campaign overrides them."""

    players: int = 2
    rules: Ruleset = "second-edition"
    coop: bool = False
    time_start: int | None = None
    starting_synergy: list[int] | None = None
    skills: list[int] | None = None
    objectives: list[int] | None = None
    field_size: int = 6
    wild_cost: int = 10
    wilds_allowed: bool = True
    disabled_skills: list[int] = default(default_factory=list)
    removed_cards: list[str] = default(default_factory=list)
    preset: dict[str, str] = default(default_factory=dict)
    extra_field_discards: int = 0
    expansions: list[str] = default(default_factory=list)
    rule_names: dict[str, str] = default(default_factory=dict)
    """Names of the special rules behind restrictions, keyed "wilds", "wild_cost" or "skill:N";
    a refused action's sentence names its rule."""
    assignment: int | None = None
    """The Field Journal assignment this game plays, if any; the engine itself ignores it."""
    stacked: Annotated[list[str], Field(exclude_if=lambda v: not v)] = default(default_factory=list)
    """Cards drawn first, in this order (a prepared deal: the lesson's); the rest of the deck is
    shuffled under them. Left out of a saved config while empty, so older digests stay."""
    lesson: Annotated[str | None, Field(exclude_if=lambda v: v is None)] = None
    """The lesson this game teaches (`keystone/data/lesson.json`), if any; the engine itself ignores it."""

    @property
    def boards(self) -> int:
        """Co-op players share one board, so the engine sees one seat."""
        return 1 if self.coop else self.players


@dataclass(slots=True)
class GameState:
    config: GameConfig
    seed: int
    rng: int
    version: int
    seats: list[Seat]
    deck: list[str]
    discard: list[str]
    field: list[FieldSlot | None]
    skills: list[SkillState]
    wild_stacks: dict[Habitat, list[str]]
    time: int
    current: int = 0
    phase: Phase = "main"
    steps: list[Step] = default(default_factory=list)
    held: list[str] = default(default_factory=list)
    held_private: bool = False
    wild_bought: bool = False
    final_round: bool = False
    turn: int = 0
    resigned: Annotated[int | None, Field(exclude_if=lambda v: v is None)] = None
    """The seat that resigned and so ended the game, if one did. Left out of a saved state while
    None, so states saved before resigning existed keep their digests when replayed."""

    def clone(self) -> GameState:
        """A deep copy, written out by hand because `copy.deepcopy` is far too slow for search."""
        return GameState(
            config=self.config,
            seed=self.seed,
            rng=self.rng,
            version=self.version,
            seats=[
                Seat(
                    s.name,
                    s.synergy,
                    s.objective,
                    [None if p is None else PlacedCard(p.card, p.research) for p in s.board],
                    s.turns,
                    s.wilds_bought,
                )
                for s in self.seats
            ],
            deck=list(self.deck),
            discard=list(self.discard),
            field=[None if f is None else FieldSlot(f.card, f.synergy) for f in self.field],
            skills=[SkillState(k.number, k.exhausted) for k in self.skills],
            wild_stacks={h: list(v) for h, v in self.wild_stacks.items()},
            time=self.time,
            current=self.current,
            phase=self.phase,
            steps=[Step(s.kind, s.count, s.target, s.skill, list(s.options)) for s in self.steps],
            held=list(self.held),
            held_private=self.held_private,
            wild_bought=self.wild_bought,
            final_round=self.final_round,
            turn=self.turn,
            resigned=self.resigned,
        )

    @property
    def seat(self) -> Seat:
        return self.seats[self.current]

    @property
    def step(self) -> Step | None:
        return self.steps[-1] if self.steps else None


_STATE_ADAPTER: TypeAdapter[GameState] = TypeAdapter(GameState)
_CONFIG_ADAPTER: TypeAdapter[GameConfig] = TypeAdapter(GameConfig)


def dump_state(state: GameState) -> str:
    return _STATE_ADAPTER.dump_json(state).decode()


def load_state(text: str | bytes) -> GameState:
    """Validate a saved state; raises pydantic.ValidationError on a corrupt one."""
    return _STATE_ADAPTER.validate_json(text)


def dump_config(config: GameConfig) -> str:
    return _CONFIG_ADAPTER.dump_json(config).decode()


def load_config(text: str | bytes) -> GameConfig:
    return _CONFIG_ADAPTER.validate_json(text)
