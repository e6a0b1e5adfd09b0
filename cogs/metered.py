"""Counting interactions for the metrics: which command, how it ended (answered, refused, failed),
and how long the answer took, from the moment the bot began on it until it was posted."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any

import discord

from keystone.app import Reply
from keystone.app.metrics import Metrics


def command_of(interaction: discord.Interaction[Any]) -> str:
    """The slash command's name, or for a button or menu the kind of control (`ks:act`, `ks:lobby`...):
    a few names, never an id."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    return ":".join(custom_id.split(":")[:2]) or interaction.type.name


class Meter:
    """One interaction being answered; `watch` the service's work to learn whether it refused."""

    def __init__(self) -> None:
        self.outcome = "failed"

    async def watch(self, work: Awaitable[Reply]) -> Reply:
        reply = await work
        self.outcome = "failed" if reply.failed else "refused" if reply.refused else "answered"
        return reply


@contextmanager
def metered(interaction: discord.Interaction[Any], metrics: Metrics | None) -> Iterator[Meter]:
    """Count the interaction answered inside: failed unless its work gave a reply and it was posted."""
    meter = Meter()
    began = time.perf_counter()
    try:
        yield meter
    except BaseException:
        meter.outcome = "failed"
        raise
    finally:
        if metrics is not None:
            metrics.answered(command_of(interaction), meter.outcome, time.perf_counter() - began)
