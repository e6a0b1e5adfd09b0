"""Events: what an applied action changed, in sentences for messages and the game log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    """`private` events mention hidden cards and are shown only to the acting seat."""

    kind: str
    seat: int
    text: str
    private: bool = False
