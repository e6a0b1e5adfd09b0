"""Words for the Field Journal: the list of assignments, an assignment's page, and the verdict.

Pure functions of the campaign data and a player's progress, so they are easy to test and the
service only has to fetch progress and post what these return. Every assignment is open at any
time; the lowest not yet won is recommended, as the rulebook suggests playing them in order.
"""

from __future__ import annotations

from collections.abc import Iterable

from keystone.engine.campaign import (
    LAST_ASSIGNMENT,
    assignment,
    assignments,
    recommended,
)
from keystone.store import CampaignProgress

FULL, EMPTY = "\u2605", "\u2606"
RECOMMENDED_MARK = "\u2190 recommended next"
ENVELOPE_NEWS = (
    f"Starting assignment {LAST_ASSIGNMENT} opens the sealed envelope: its cards are in this game, and from now on "
    "`/keystone new envelope:True` adds them to any game you open."
)


def stars_text(stars: int) -> str:
    """Three star marks, the earned ones filled."""
    return FULL * stars + EMPTY * (3 - stars)


def journal_lines(progress: CampaignProgress, envelope_open: bool) -> list[str]:
    """The recommended assignment, then every assignment with its stars (all are open), then the envelope."""
    won = progress.completed
    suggested = recommended(won)
    lines = [
        f"**Field Journal**: {len(won)} of {LAST_ASSIGNMENT} complete, {progress.total_stars} stars.",
        f"Recommended next: assignment {suggested}, {assignment(suggested).title} (`/journal start`). "
        "Every assignment is open: `/journal start number:N` plays any of them.",
    ]
    for a in assignments():
        best = progress.assignments.get(a.number)
        state = stars_text(best.stars if best is not None else 0)
        if best is not None and best.completed:
            state += f" best {best.best_score}"
        elif best is not None:
            state += f", {best.attempts} attempt{'' if best.attempts == 1 else 's'}"
        if a.number == suggested:
            state += f" {RECOMMENDED_MARK}"
        lines.append(f"`{a.number:>2}` {a.title}: {state}")
    if envelope_open:
        lines.append("The sealed envelope is open: `/keystone new envelope:True` adds its cards to your games.")
    else:
        lines.append(f"The sealed envelope stays sealed until you start assignment {LAST_ASSIGNMENT}.")
    return lines


def page_lines(number: int, coop: bool = False) -> list[str]:
    """The journal page: title, place, story, setup, special rules and goals (and, for the last, the envelope)."""
    a = assignment(number)
    lines = [f"**Assignment {a.number}: {a.title}**" + (" (co-op)" if coop else ""), f"*{a.place}*", a.story,
             "**Setup:** " + " ".join(a.setup_lines())]
    if a.rules:
        lines.append("**Special rules:** " + " ".join(f"*{r.name}*: {r.text}" for r in a.rules))
    lines.append("**Goals:** " + " ".join(a.goal_lines()))
    if number == LAST_ASSIGNMENT:
        lines.append(ENVELOPE_NEWS)
    return lines


def unlock_lines(number: int, won: bool, before: Iterable[int]) -> list[str]:
    """After an assignment: try again after a loss; after a win, the assignment now recommended.

    `before` holds the assignments won earlier. Nothing is locked, so the news after a win is only
    which assignment comes next in the recommended order.
    """
    if not won:
        return [f"Try again with `/journal start number:{number}`, or choose any other assignment."]
    after = set(before) | {number}
    if len(after) == LAST_ASSIGNMENT:
        return [f"You have won all {LAST_ASSIGNMENT} assignments of the Field Journal."]
    following = recommended(after)
    return [f"Next recommended: assignment {following}, {assignment(following).title} (`/journal start`)."]
