"""A person's way through the journal: which assignment to recommend, and when the envelope opens."""

from __future__ import annotations

from collections.abc import Iterable

from keystone.engine.campaign.setup import LAST_ASSIGNMENT, JournalError


def _numbers(assignments_: Iterable[int]) -> set[int]:
    done = set(assignments_)
    bad = sorted(n for n in done if type(n) is not int or not 1 <= n <= LAST_ASSIGNMENT)
    if bad:
        raise JournalError(f"There is no assignment {bad[0]}; the journal has assignments 1 to {LAST_ASSIGNMENT}.")
    return done


def recommended(completed: Iterable[int]) -> int:
    """The assignment to play next: the lowest not yet won (the last once all are won).

    Only a recommendation: the rulebook suggests playing in order, but a player "may choose to skip
    around", so every assignment may be started at any time.
    """
    done = _numbers(completed)
    return next((n for n in range(1, LAST_ASSIGNMENT + 1) if n not in done), LAST_ASSIGNMENT)


def envelope_open(started: Iterable[int]) -> bool:
    """Whether the sealed envelope is open for someone who has started these assignments.

    The rulebook opens it "at the start of the final assignment (#20)", and an opened envelope
    cannot be sealed again, so starting the last assignment opens it for good, however that game ends.
    """
    return LAST_ASSIGNMENT in _numbers(started)
