"""A clock the tests move by hand: the store, the service and the bot read it instead of the time."""

from __future__ import annotations

import time

from keystone.app import Actor, GameService, Reply, Where
from keystone.app.bots import simple_action
from keystone.engine.coop import acting_player
from keystone.store import GameRecord

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


async def game_here(service: GameService, where: Where) -> GameRecord:
    """The record of the game running at `where`."""
    found = await service.state_here(where)
    assert found is not None
    return found[0]


async def deciding_here(service: GameService, where: Where) -> int:
    """The store seat deciding in the game at `where`."""
    found = await service.state_here(where)
    assert found is not None
    return acting_player(found[1])


async def whole_turn(service: GameService, where: Where, actor: Actor) -> Reply:
    """Play `actor`'s whole turn at `where` with simple moves; the last reply (which tells the turn)."""
    found = await service.state_here(where)
    assert found is not None and found[0].seats[acting_player(found[1])].user_id == actor.user_id
    turn = found[1].turn
    while True:
        reply = await service.act(where, actor, str(simple_action(found[1])))
        assert reply.ok, reply.private
        found = await service.state_here(where)
        if found is None or found[1].turn != turn:
            return reply
