"""Words for the Field Journal: the list of assignments, an assignment's page, and the verdict.

Pure functions of the campaign data and a player's won assignments, so they are easy to test and
the service only has to fetch progress and post what these return.
"""

from __future__ import annotations

from collections.abc import Iterable

from keystone.engine.campaign import (
    LAST_ASSIGNMENT,
    AssignmentResult,
    assignment,
    assignments,
    envelope_open,
    unlocked,
)
from keystone.store import CampaignProgress

FULL, EMPTY = "\u2605", "\u2606"
ENVELOPE_NEWS = (
    "You won the last assignment and opened the sealed envelope! From now on `/keystone new envelope:True` "
    "adds its cards to any game you open."
)


def stars_text(stars: int) -> str:
    """Three star marks, the earned ones filled."""
    return FULL * stars + EMPTY * (3 - stars)


def journal_lines(progress: CampaignProgress) -> list[str]:
    """One line per assignment: stars and best score, open, or locked; then the envelope's state."""
    won = progress.completed
    open_now = unlocked(won)
    lines = [f"**Field Journal**: {len(won)} of {LAST_ASSIGNMENT} complete, {progress.total_stars} stars."]
    for a in assignments():
        best = progress.assignments.get(a.number)
        if best is not None and best.completed:
            state = f"{stars_text(best.stars)} best {best.best_score}"
        elif a.number in open_now:
            tried = f", {best.attempts} attempt(s)" if best is not None else ""
            state = f"open{tried}"
        else:
            state = "locked"
        lines.append(f"`{a.number:>2}` {a.title}: {state}")
    if envelope_open(won):
        lines.append("The sealed envelope is open: `/keystone new envelope:True` adds its cards to your games.")
    else:
        lines.append(f"The sealed envelope stays sealed until assignment {LAST_ASSIGNMENT} is won.")
    lines.append("Begin with `/journal start` (the next assignment) or `/journal start number:N`.")
    return lines


def page_lines(number: int, coop: bool = False) -> list[str]:
    """The journal page: title, place, story, setup, special rules and goals."""
    a = assignment(number)
    lines = [f"**Assignment {a.number}: {a.title}**" + (" (co-op)" if coop else ""), f"*{a.place}*", a.story,
             "**Setup:** " + " ".join(a.setup_lines())]
    if a.rules:
        lines.append("**Special rules:** " + " ".join(f"*{r.name}*: {r.text}" for r in a.rules))
    lines.append("**Goals:** " + " ".join(a.goal_lines()))
    return lines


def unlock_lines(number: int, won: bool, before: Iterable[int]) -> list[str]:
    """What winning `number` opened that `before` (the assignments won earlier) had not."""
    if not won:
        return [f"Assignment {number} stays open; try again with `/journal start number:{number}`."]
    earlier = set(before)
    after = earlier | {number}
    fresh = sorted(unlocked(after) - unlocked(earlier))
    lines = [f"Assignment {n}, {assignment(n).title}, is now unlocked." for n in fresh]
    if envelope_open(after) and not envelope_open(earlier):
        lines.append(ENVELOPE_NEWS)
    return lines


def verdict_lines(result: AssignmentResult, before: Iterable[int] | None) -> list[str]:
    """The judge's sentences, then (for the player whose campaign it is) what got unlocked."""
    lines = result.sentences()
    if before is not None:
        lines += unlock_lines(result.number, result.won, before)
    return lines
