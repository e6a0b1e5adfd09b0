"""Saved terminal games: the seed, the setup and every move, so `play --replay FILE` rebuilds the game.

The file is JSON. Moves are the notation the game prints and accepts (`take 3 B2`, `skill 5`), bots'
moves included, so a replay needs no bot and gives the same position however long a bot thought.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from keystone.engine import GameConfig, GameState, IllegalAction, new_game
from keystone.engine.bots import Level
from keystone.engine.history import History
from keystone.i18n import DEFAULT, Language, tr

BotLevel = Level


class BadGameFile(ValueError):
    """A file that cannot be replayed: `sentence(lang)` is one sentence for the person who gave it,
    `str()` the same in English. A parameter that is a refusal is said in the reader's language."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key, self.params = key, params
        super().__init__(self.sentence())

    def sentence(self, lang: Language = DEFAULT) -> str:
        said = {k: v.sentence(lang) if isinstance(v, IllegalAction) else v for k, v in self.params.items()}
        return tr(lang, self.key, **said)


class SavedGame(BaseModel):
    """Everything needed to deal the same game again and play the same moves."""

    model_config = ConfigDict(extra="forbid")

    seed: int
    config: GameConfig
    names: list[str]
    bots: list[BotLevel | None]
    """The bot level of each seat, or None for a person."""
    moves: list[str]

    @model_validator(mode="after")
    def _one_entry_per_seat(self) -> SavedGame:
        if not len(self.names) == len(self.bots) == self.config.boards:
            raise ValueError(f"it needs one name and one bot entry for each of the {self.config.boards} seats")
        return self

    def start(self) -> GameState:
        return new_game(self.config, self.seed, self.names)

    def replay(self) -> GameState:
        """The state after every saved move (`undo` included); BadGameFile names the first move that
        cannot be played."""
        history = History(self.start())
        for number, move in enumerate(self.moves, start=1):
            try:
                history.play(move)
            except IllegalAction as exc:
                raise BadGameFile("misc.save.bad_move", number=number, move=repr(move), why=exc) from None
        return history.state


def write_game(path: Path, game: SavedGame) -> None:
    """Replace the file in one step, so an interrupted game never leaves half a file behind."""
    data = game.model_dump(mode="json")
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)


def read_game(path: Path) -> SavedGame:
    """The saved game in `path`; BadGameFile (one sentence) when it cannot be read or is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, OSError) and exc.strerror:
            raise BadGameFile("misc.save.unreadable", path=path, reason=exc.strerror) from None
        raise BadGameFile("misc.save.not_text", path=path) from None
    try:
        return SavedGame.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        detail = f"{where}: {first['msg']}" if where else first["msg"]
        raise BadGameFile("misc.save.not_a_game", path=path, detail=detail) from None
