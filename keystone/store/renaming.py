"""A played game told again under other names: its snapshot and every digest of its log, for
forgetting a person (`keystone.store.privacy`). Pure: no database here.

The names are part of each state the log's digests were taken of, so a rename replays the game from
its seed with the new names; the replay must end in the saved state (names aside), else the game was
already damaged and only its snapshot and newest digest are rewritten (enough for it to load).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from keystone.engine import GameConfig, GameState, IllegalAction, dump_state, load_state, new_game
from keystone.engine.history import History
from keystone.store.integrity import state_digest


@dataclass(frozen=True, slots=True)
class Renamed:
    """What a game's rows become: its board names (JSON), snapshot and digest, and each logged
    move's new digest as (version, digest); `digests` is empty when the log could not be replayed."""

    names: str
    snapshot: str
    digest: bytes
    digests: tuple[tuple[int, bytes], ...]


def rename_game(config: GameConfig, seed: int, snapshot: str, notations: Sequence[tuple[int, str]],
                names: Sequence[str]) -> Renamed:
    """The game under `names` (one per board): replayed from `seed` through `notations` (version,
    move), or, when that does not end in the saved state, the saved state renamed alone."""
    saved = _with_names(load_state(snapshot), names)
    wanted = dump_state(saved)
    digests = _replayed(config, seed, notations, names, wanted)
    return Renamed(json.dumps(list(names), ensure_ascii=False), wanted, state_digest(wanted), digests)


def _with_names(state: GameState, names: Sequence[str]) -> GameState:
    return replace(state, seats=[replace(s, name=n) for s, n in zip(state.seats, names, strict=True)])


def _replayed(config: GameConfig, seed: int, notations: Sequence[tuple[int, str]], names: Sequence[str],
              wanted: str) -> tuple[tuple[int, bytes], ...]:
    try:
        history = History(new_game(config, seed, list(names)))
        digests = []
        for version, notation in notations:
            history.play(notation)
            digests.append((version, state_digest(dump_state(history.state))))
    except (IllegalAction, ValueError):
        return ()
    if dump_state(history.state) != wanted:
        return ()
    return tuple(digests)
