"""A clock the tests move by hand: the store, the service and the bot read it instead of the time."""

from __future__ import annotations


class Time:
    """Reads as `now` until a test moves it (`time.now += HOUR`)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
