"""What the service needs from persistence, as a Protocol, plus an in-memory implementation.

The SQLite store satisfies this through `StoreAdapter`; tests and the terminal mode may use the
in-memory one. Both must refuse a commit computed from an older version (`StaleVersion`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Protocol

from keystone.engine import GameConfig, GameState
from keystone.store.errors import ChannelBusy, GameNotFound, LobbyError, StaleVersion, WrongStatus
from keystone.store.models import GameRecord, Kind, LoadedGame, SeatInfo, Status


@dataclass(frozen=True, slots=True)
class SeatResult:
    score: int
    place: int


class GameStore(Protocol):
    async def create_lobby(
        self, channel_id: int, guild_id: int | None, kind: Kind, config: GameConfig, host: SeatInfo, host_id: int
    ) -> GameRecord: ...

    async def open_game(self, channel_id: int) -> GameRecord | None: ...

    async def record(self, game_id: int) -> GameRecord: ...

    async def add_seat(self, game_id: int, seat: SeatInfo) -> GameRecord: ...

    async def remove_seat(self, game_id: int, user_id: int) -> GameRecord: ...

    async def start(self, game_id: int, seed: int, names: list[str], state: GameState) -> GameRecord: ...

    async def load(self, game_id: int) -> LoadedGame: ...

    async def commit(self, game_id: int, expected_version: int, seat: int, notation: str, state: GameState) -> None: ...

    async def finish(self, game_id: int, status: Status, results: list[SeatResult] | None) -> None: ...

    async def log(self, game_id: int) -> list[tuple[int, int, str]]: ...


@dataclass(slots=True)
class _Game:
    record: GameRecord
    state: GameState | None = None
    log: list[tuple[int, int, str]] = field(default_factory=list)


class MemoryStore:
    """A dict-backed `GameStore`: same refusals as the database, nothing survives the process."""

    def __init__(self) -> None:
        self._games: dict[int, _Game] = {}

    def _get(self, game_id: int) -> _Game:
        if game_id not in self._games:
            raise GameNotFound(game_id)
        return self._games[game_id]

    def _set(self, game: _Game, **changes: object) -> GameRecord:
        game.record = replace(game.record, updated_at=time.time(), **changes)  # type: ignore[arg-type]
        return game.record

    async def create_lobby(
        self, channel_id: int, guild_id: int | None, kind: Kind, config: GameConfig, host: SeatInfo, host_id: int
    ) -> GameRecord:
        if await self.open_game(channel_id) is not None:
            raise ChannelBusy(channel_id)
        now = time.time()
        record = GameRecord(
            id=len(self._games) + 1, guild_id=guild_id, channel_id=channel_id, kind=kind, assignment=None,
            ruleset=config.rules, config=config, host_id=host_id, status="lobby", seed=None, seats=(host,),
            version=0, created_at=now, updated_at=now,
        )
        self._games[record.id] = _Game(record)
        return record

    async def open_game(self, channel_id: int) -> GameRecord | None:
        for game in self._games.values():
            if game.record.channel_id == channel_id and game.record.is_open:
                return game.record
        return None

    async def record(self, game_id: int) -> GameRecord:
        return self._get(game_id).record

    async def add_seat(self, game_id: int, seat: SeatInfo) -> GameRecord:
        game = self._get(game_id)
        _need_lobby(game.record)
        if seat.user_id is not None and game.record.seat_of(seat.user_id) is not None:
            raise LobbyError("You already have a seat in this game.")
        return self._set(game, seats=(*game.record.seats, seat))

    async def remove_seat(self, game_id: int, user_id: int) -> GameRecord:
        game = self._get(game_id)
        _need_lobby(game.record)
        if game.record.seat_of(user_id) is None:
            raise LobbyError("You do not have a seat in this game.")
        return self._set(game, seats=tuple(s for s in game.record.seats if s.user_id != user_id))

    async def start(self, game_id: int, seed: int, names: list[str], state: GameState) -> GameRecord:
        game = self._get(game_id)
        _need_lobby(game.record)
        game.state = state
        return self._set(game, status="active", seed=seed, version=state.version)

    async def load(self, game_id: int) -> LoadedGame:
        game = self._get(game_id)
        if game.state is None:
            raise WrongStatus(game_id, game.record.status, "This game has not started yet.")
        return LoadedGame(game.record, game.state)

    async def commit(self, game_id: int, expected_version: int, seat: int, notation: str, state: GameState) -> None:
        game = self._get(game_id)
        if game.record.status != "active":
            raise WrongStatus(game_id, game.record.status, "This game is no longer running.")
        if game.record.version != expected_version:
            raise StaleVersion(game_id, expected_version, game.record.version)
        game.state = state
        game.log.append((state.version, seat, notation))
        self._set(game, version=state.version)

    async def finish(self, game_id: int, status: Status, results: list[SeatResult] | None) -> None:
        game = self._get(game_id)
        if not game.record.is_open:
            raise WrongStatus(game_id, game.record.status, "This game is already over.")
        self._set(game, status=status)

    async def log(self, game_id: int) -> list[tuple[int, int, str]]:
        return list(self._get(game_id).log)


def _need_lobby(record: GameRecord) -> None:
    if record.status != "lobby":
        raise WrongStatus(record.id, record.status, "That game has already started; seats are fixed now.")
