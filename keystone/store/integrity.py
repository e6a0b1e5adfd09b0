"""Integrity checks: a snapshot must agree with its digest, its log, and (on audit) a replay."""

from __future__ import annotations

import hashlib
from typing import Any

from keystone.engine import (
    GameState,
    IllegalAction,
    dump_state,
    load_state,
    new_game,
    parse_action,
)
from keystone.engine.history import UNDO, History, is_undo
from keystone.store.errors import CorruptGame, InvalidInput
from keystone.store.models import GameRecord


def state_digest(snapshot: str) -> bytes:
    """The digest stored beside each snapshot and log row; a mismatch means corruption."""
    return hashlib.blake2b(snapshot.encode(), digest_size=16).digest()

def canonical_notation(action: object) -> str:
    """The canonical notation of an action, so the log only ever holds what replay can parse."""
    if not isinstance(action, str):
        raise InvalidInput("An action is given in its notation, such as `take 3 B2`.")
    if is_undo(action):
        return UNDO
    try:
        return str(parse_action(action))
    except IllegalAction as error:
        raise InvalidInput(str(error)) from error


def check_initial(state: object) -> None:
    if not isinstance(state, GameState) or state.version != 0:
        raise InvalidInput("A game starts from the state engine.new_game returns (version 0).")


def checked_state(
    record: GameRecord, snapshot: str, digest: bytes, logged: int, last_digest: bytes | None
) -> GameState:
    """The snapshot, parsed, once its digest agrees with the games row and the log."""
    game_id = record.id
    if state_digest(snapshot) != digest:
        raise CorruptGame(game_id, "its saved state does not match its checksum")
    if logged != record.version:
        raise CorruptGame(game_id, f"it is at move {record.version} but its log holds {logged} moves")
    if record.version > 0 and last_digest != digest:
        raise CorruptGame(game_id, "its saved state is not the one its last move produced")
    try:
        state = load_state(snapshot)
    except ValueError as error:
        raise CorruptGame(game_id, "its saved state cannot be read") from error
    if state.version != record.version or state.seed != record.seed:
        raise CorruptGame(game_id, "its saved state belongs to another version or seed")
    return state


def replay_check(record: GameRecord, names: list[str], moves: list[tuple[Any, ...]], digest: bytes) -> None:
    """Rebuild the game from seed + log (undos included) and compare every step's digest with the record."""
    assert record.seed is not None
    try:
        state = new_game(record.config, record.seed, names)
    except IllegalAction as error:
        raise CorruptGame(record.id, "its setup cannot be rebuilt") from error
    if not moves and state_digest(dump_state(state)) != digest:
        raise CorruptGame(record.id, "its starting state differs from a fresh setup with its seed")
    history = History(state)
    for version, notation, recorded in moves:
        try:
            history.play(notation)
        except IllegalAction as error:
            raise CorruptGame(record.id, f"move {version} ({notation}) is not legal when replayed") from error
        if state_digest(dump_state(history.state)) != recorded:
            raise CorruptGame(record.id, f"replaying it differs from the record at move {version} ({notation})")
