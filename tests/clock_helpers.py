"""A clock the tests move by hand: the store, the service and the bot read it instead of the time."""

from __future__ import annotations

import time

from keystone.app import GameService, Reply

T0 = time.time()
"""Where the tests' clocks start: the real time when the tests began, with its fraction, as
`time.time()` gives it (a round number once hid a clock that never ran out)."""


class Time:
    """Reads as `now` until a test moves it (`time.now += HOUR`); starts at the real time."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def posted(service: GameService, reply: Reply) -> Reply:
    """The reply after its interaction posted it: each owed public message marked sent, as the cog
    marks them once Discord accepted them (else the outbox's deliverer posts them in the channel)."""
    for key in reply.owed:
        await service.delivered(key)
    return reply
