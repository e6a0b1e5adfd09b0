"""The custom ids carried by buttons and select menus: game id and state version ride along,
so a press keeps working after a restart and a stale one can be recognised."""

from __future__ import annotations

import re

ACT = re.compile(r"ks:act:(?P<game>\d+):(?P<version>\d+):(?P<notation>[a-z0-9_]+)")
SELECT = re.compile(r"ks:sel:(?P<game>\d+):(?P<version>\d+):(?P<tag>[a-z0-9_]+)")
LOBBY = re.compile(r"ks:lobby:(?P<game>\d+):(?P<what>join|leave|start|bot)")
LEVEL = re.compile(r"ks:level:(?P<game>\d+)")
SHOW = re.compile(r"ks:show:(?P<game>\d+):(?P<version>\d+)")
UNDO = re.compile(r"ks:undo:(?P<game>\d+):(?P<version>\d+)")
FORGET = re.compile(r"ks:forget:(?P<what>me|server):(?P<asker>\d+):(?P<target>\d+):(?P<asked>\d+)")


def act_id(game: int, version: int, notation: str) -> str:
    return f"ks:act:{game}:{version}:{notation.replace(' ', '_')}"


def select_id(game: int, version: int, tag: str) -> str:
    return f"ks:sel:{game}:{version}:{tag}"


def lobby_id(game: int, what: str) -> str:
    return f"ks:lobby:{game}:{what}"


def level_id(game: int) -> str:
    """The lobby's select menu that seats a bot of the chosen level."""
    return f"ks:level:{game}"


def show_id(game: int, version: int) -> str:
    return f"ks:show:{game}:{version}"


def undo_id(game: int, version: int) -> str:
    """The Undo button of a step message: takes back the last action, if the game is still at `version`."""
    return f"ks:undo:{game}:{version}"


def notation_of(encoded: str) -> str:
    """Undo `act_id`'s space encoding."""
    return encoded.replace("_", " ")


def forget_id(what: str, asker: int, target: int, asked_at: int) -> str:
    """The button that confirms forgetting a person ("me") or a server: who asked, whom or which
    server, and when (Unix seconds), so someone else's or a stale press is refused."""
    return f"ks:forget:{what}:{asker}:{target}:{asked_at}"
