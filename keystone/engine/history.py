"""Taking back an action, and rebuilding a game from a log that may hold `undo` entries.

As on Board Game Arena, the player to act may take back their last action of this turn while no
hidden information has come out since (no card drawn from the deck into a hand, no Field refill
from the deck, no reshuffle). The log stays append-only: an undo is logged as `undo`, and replay
restores the state before the previous action still in effect, so seed + log gives the same state.

This module builds on `game` (it plays moves with `apply`); `game` never imports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from keystone.engine.actions import IllegalAction, parse_action
from keystone.engine.events import Event
from keystone.engine.game import apply
from keystone.engine.messages import Message, message
from keystone.engine.state import GameConfig, GameState
from keystone.engine.table import new_game

UNDO = "undo"

NOTHING = str(message("error.undo.nothing"))
DRAWN = str(message("error.undo.drawn"))


def is_undo(notation: str) -> bool:
    return notation.strip().lower() == UNDO


def undo_allowed(before: GameState | None, after: GameState) -> str | None:
    """None when the action that led from `before` to `after` may be taken back, else why not (in English)."""
    why = undo_refusal(before, after)
    return None if why is None else str(why)


def undo_refusal(before: GameState | None, after: GameState) -> Message | None:
    """None when the action that led from `before` to `after` may be taken back, else why not."""
    if after.phase == "over":
        return message("error.over")
    if before is None:
        return message("error.undo.nothing")
    if before.turn != after.turn or before.current != after.current:
        return message("error.undo.nothing")  # only the seat to act asks: it has done nothing yet this turn
    if before.deck != after.deck or before.rng != after.rng or _drawn(before, after):
        return message("error.undo.drawn")
    return None


def _drawn(before: GameState, after: GameState) -> list[str]:
    """Cards that came out of the deck though the deck and generator look unchanged: a reshuffle of a
    one-card discard pile into an empty deck, drawn at once. Only the deck fills the Field and a
    private hand (cards looked at in the discard pile are held in the open)."""
    came = Counter(f.card for f in after.field if f is not None)
    came.subtract(f.card for f in before.field if f is not None)
    if after.held_private:
        came.update(after.held)
        came.subtract(before.held)
    return [card for card, count in came.items() if count > 0]


def undone(before: GameState, after: GameState) -> GameState:
    """`before` again, one version after `after`: undoing is itself a move, so versions only grow."""
    restored = before.clone()
    restored.version = after.version + 1
    return restored


@dataclass(frozen=True, slots=True)
class Taken:
    """An action still in effect: the state before it, its notation and what it told."""

    before: GameState
    notation: str
    events: tuple[Event, ...]


class History:
    """A game as its log builds it: the current state and the actions of this turn still in effect,
    newest last, so `undo` can step back through them."""

    def __init__(self, start: GameState) -> None:
        self.state = start
        self._taken: list[Taken] = []

    @property
    def last(self) -> Taken | None:
        """The newest action still in effect (the one an undo would take back)."""
        return self._taken[-1] if self._taken else None

    def why_not_undo(self) -> str | None:
        last = self.last
        return undo_allowed(None if last is None else last.before, self.state)

    def play(self, notation: str) -> list[Event]:
        """Apply one logged move (an action or `undo`); raises IllegalAction, changing nothing."""
        if is_undo(notation):
            self.undo()
            return []
        new, events = apply(self.state, parse_action(notation))
        self._taken.append(Taken(self.state, notation, tuple(events)))
        self.state = new
        if self.why_not_undo() is not None:
            del self._taken[:-1]  # nothing older can ever be taken back: keep only the reason why not
        return events

    def undo(self) -> Taken:
        """Take back the newest action in effect; returns it. Raises IllegalAction saying why not."""
        last = self.last
        why = undo_refusal(None if last is None else last.before, self.state)
        if why is not None:
            raise IllegalAction.of(why)
        taken = self._taken.pop()
        self.state = undone(taken.before, self.state)
        return taken


def rebuild(start: GameState, log: list[str]) -> History:
    """The history of a game from its starting state and its logged moves."""
    history = History(start)
    for notation in log:
        history.play(notation)
    return history


def replay(config: GameConfig, seed: int, names: Sequence[str], log: Iterable[str]) -> GameState:
    """Rebuild a state from its seed and action log (notation strings, `undo` entries included)."""
    return rebuild(new_game(config, seed, names), list(log)).state
