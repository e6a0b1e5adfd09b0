"""Store errors. Each `str()` is a plain sentence the bot can show a player as it is."""

from __future__ import annotations


class StoreError(Exception):
    """Base class: something the store refused to do; nothing was changed."""


class InvalidInput(StoreError, ValueError):
    """A value that cannot be stored (wrong type, out of range, unknown seat...)."""


class SchemaError(StoreError):
    """The database file cannot be used by this version of the bot."""


class NewerSchema(SchemaError):
    def __init__(self, version: int, known: int) -> None:
        super().__init__(
            f"This database was written by a newer version of the bot (schema {version}; this version "
            f"knows up to {known}). Upgrade the bot rather than risk damaging the data."
        )
        self.version = version


class GameNotFound(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game number {game_id}.")
        self.game_id = game_id


class ChannelBusy(StoreError):
    def __init__(self, channel_id: int) -> None:
        super().__init__("This channel already has a game or an open lobby; finish or abandon it first.")
        self.channel_id = channel_id


class WrongStatus(StoreError):
    """The game is not in a state that allows this (a lobby that already started, a finished game...)."""

    def __init__(self, game_id: int, status: str, sentence: str) -> None:
        super().__init__(sentence)
        self.game_id = game_id
        self.status = status


class LobbyError(StoreError):
    """A seat cannot be taken or given up (lobby full, already seated, not seated)."""


class StaleVersion(StoreError):
    """The action was computed from an older state: someone else acted first."""

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__("The game has moved on since that choice was offered; here is where it stands now.")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class CorruptGame(StoreError):
    """The saved state does not agree with its own history; the game is left untouched."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(
            f"Game {game_id} cannot be loaded safely: {reason}. It has been left untouched "
            "so that it can be inspected."
        )
        self.game_id = game_id
        self.reason = reason


# ---------------------------------------------------------------------- the database file itself
# Raised before anything is written, so the file (and its folder) are exactly as they were.
# The sentences name KEYSTONE_DB because that setting is where the bot's database path comes from.


class DatabaseUnusable(SchemaError):
    """The file at the database path cannot be used as it is; it was left untouched."""

    def __init__(self, path: str, sentence: str) -> None:
        super().__init__(sentence)
        self.path = path


class MissingFolder(DatabaseUnusable):
    def __init__(self, path: str, folder: str) -> None:
        super().__init__(path, f"The folder {folder} for KEYSTONE_DB does not exist; "
                               "create it or point KEYSTONE_DB elsewhere.")


class NotAFile(DatabaseUnusable):
    def __init__(self, path: str) -> None:
        super().__init__(path, f"KEYSTONE_DB points at the folder {path}, not a file; "
                               f"point it at a file such as {path.rstrip('/')}/keystone.db.")


class DamagedDatabase(DatabaseUnusable):
    def __init__(self, path: str, reason: str) -> None:
        reason = " ".join(reason.replace("*** in database main ***", "").split())  # SQLite's reports span lines
        super().__init__(path, f"The database {path} for KEYSTONE_DB is damaged ({reason}); "
                               "restore it from a backup or point KEYSTONE_DB at another file.")
        self.reason = reason


class NotADatabase(DatabaseUnusable):
    def __init__(self, path: str) -> None:
        super().__init__(path, f"The file {path} for KEYSTONE_DB is not a database (another kind of file, or one "
                               "damaged beyond reading); restore it from a backup or point KEYSTONE_DB at "
                               "another file.")


class ForeignDatabase(DatabaseUnusable):
    def __init__(self, path: str) -> None:
        super().__init__(path, f"The file {path} for KEYSTONE_DB is another program's database, so it was left "
                               "untouched; point KEYSTONE_DB at a new file instead.")


class ReadOnlyDatabase(DatabaseUnusable):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, f"The database {path} for KEYSTONE_DB cannot be written ({reason}); "
                               "make it writable for this user or point KEYSTONE_DB elsewhere.")
        self.reason = reason


class DatabaseUnreachable(DatabaseUnusable):
    """A PostgreSQL server that cannot be reached or logged in to (`where` never holds the password)."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(where, f"The PostgreSQL database {where} for KEYSTONE_DB cannot be used ({reason}); "
                                "check that the server runs and that the URL, user and password are right, "
                                "or point KEYSTONE_DB elsewhere.")
        self.reason = reason


class ForeignServerDatabase(DatabaseUnusable):
    def __init__(self, where: str) -> None:
        super().__init__(where, f"The PostgreSQL database {where} for KEYSTONE_DB holds another program's "
                                "tables, so it was left untouched; point KEYSTONE_DB at a new, empty database.")
