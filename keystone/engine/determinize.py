"""Turn what one seat may see into a complete, playable game state by guessing the hidden parts.

A bot may only use its own view. To look ahead it needs a full `GameState`, so the hidden parts
(the deck's order and contents, other seats' secret objectives, cards another seat holds face
down, the generator) are sampled from what the viewer cannot see. Different seeds give different
guesses; averaging over several is how a bot reasons about what it does not know.
"""

from __future__ import annotations

from keystone.engine import rng
from keystone.engine.state import FieldSlot, GameConfig, GameState, PlacedCard, Seat, SkillState, Step
from keystone.engine.table import catalog, species_in_play
from keystone.engine.views import GameView, PendingView


def config_from_view(view: GameView) -> GameConfig:
    """The setup a view reveals; callers that hold the real (public) config should pass it instead."""
    return GameConfig(
        players=view.players,
        rules=view.rules,
        coop=view.coop,
        time_start=view.time_start,
        skills=[k.number for k in view.skills],
        field_size=len(view.field),
        wild_cost=view.wild_cost,
        wilds_allowed=view.wilds_allowed,
        disabled_skills=[k.number for k in view.skills if k.disabled],
        expansions=list(view.expansions),
        removed_cards=list(view.removed_cards),
    )


def _visible_species(view: GameView) -> set[str]:
    """Every card id the viewer can see outside the deck (Wild cards included; they are filtered later)."""
    seen: set[str] = set(view.discard)
    seen.update(f.card for f in view.field if f is not None)
    for seat in view.seats:
        seen.update(p.card for p in seat.board if p is not None)
    if view.held is not None:
        seen.update(view.held)
    return seen


def unseen_cards(view: GameView, config: GameConfig) -> list[str]:
    """Species cards the viewer cannot see: the deck, plus any cards held face down by another seat."""
    seen = _visible_species(view)
    return [card for card in species_in_play(config) if card not in seen]


def _objectives(view: GameView, config: GameConfig, state_rng: int) -> tuple[list[int | None], int]:
    """Known objectives as they are; unknown ones dealt at random from the cards nobody is known to hold."""
    pool = list(config.objectives) if config.objectives else sorted(catalog().objectives)
    known = {s.objective for s in view.seats if s.objective is not None}
    free = [n for n in pool if n not in known] or pool
    state_rng = rng.shuffle(state_rng, free)
    out: list[int | None] = []
    for i, seat in enumerate(view.seats):
        out.append(seat.objective if seat.objective is not None else free[i % len(free)])
    return out, state_rng


def _step(p: PendingView) -> Step:
    return Step(p.kind, p.count, p.target, p.skill, list(p.options))


def determinize(view: GameView, seed: int, config: GameConfig | None = None) -> GameState:
    """A full state consistent with `view`, its hidden parts sampled with `seed`.

    The result never carries the real game's seed or generator, so later reshuffles are guesses
    too. Pass the game's `config` when known (it is public): it names removed cards and options a
    view does not show.
    """
    cfg = config if config is not None else config_from_view(view)
    state_rng = rng.seed_state(seed)
    pool = unseen_cards(view, cfg)
    state_rng = rng.shuffle(state_rng, pool)
    hidden_held = view.held_count if view.held is None else 0
    held = list(view.held) if view.held is not None else pool[:hidden_held]
    deck = pool[hidden_held : hidden_held + view.deck_count]
    objectives, state_rng = _objectives(view, cfg, state_rng)
    cards = catalog()
    seats = [
        Seat(
            name=s.name,
            synergy=s.synergy,
            objective=objectives[i],
            board=[None if p is None else PlacedCard(p.card, p.research) for p in s.board],
            turns=s.turns,
            wilds_bought=sum(1 for p in s.board if p is not None and cards.card(p.card).wild),
        )
        for i, s in enumerate(view.seats)
    ]
    stack = view.stack or ((view.pending,) if view.pending is not None else ())
    return GameState(
        config=cfg,
        seed=seed,
        rng=state_rng,
        version=view.version,
        seats=seats,
        deck=deck,
        discard=list(view.discard),
        field=[None if f is None else FieldSlot(f.card, f.synergy) for f in view.field],
        skills=[SkillState(k.number, k.exhausted) for k in view.skills],
        wild_stacks={h: list(cards) for h, cards in view.wild_stacks},
        time=view.time,
        current=view.current,
        phase=view.phase,
        steps=[_step(p) for p in stack],
        held=held,
        held_private=view.held is None,
        wild_bought=view.wild_bought,
        final_round=view.final_round,
        turn=view.turn,
    )
