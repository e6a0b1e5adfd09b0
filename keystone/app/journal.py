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
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.i18n.commands import option, slash
from keystone.store import CampaignProgress

FULL, EMPTY = "\u2605", "\u2606"


def say(lang: Language, key: str, /, **params: object) -> str:
    """A journal sentence in `lang`, naming the commands and options as a client in `lang` shows them."""
    start = slash(lang, "journal start")
    names = {"start": start, "start_number": f"{start} {option(lang, 'journal start', 'number')}:",
             "new_envelope": f"{slash(lang, 'keystone new')} {option(lang, 'keystone new', 'envelope')}:True"}
    return tr(lang, key, last=LAST_ASSIGNMENT, **names, **params)


RECOMMENDED_MARK, ENVELOPE_NEWS = (say(DEFAULT, f"journal.{key}") for key in ("recommended", "envelope_news"))
"""Two of the journal's words in English (`say` words them in any language)."""


def assignment_choices(lang: Language = DEFAULT) -> list[tuple[str, str]]:
    """(label, value) pairs for `/journal start`: "6 - Keine Spuren" for a German reader, the number as the value."""
    return [(f"{a.number} - {a.title_in(lang)}", str(a.number)) for a in assignments()]


def stars_text(stars: int) -> str:
    """Three star marks, the earned ones filled."""
    return FULL * stars + EMPTY * (3 - stars)


def journal_lines(progress: CampaignProgress, envelope_open: bool, lang: Language = DEFAULT) -> list[str]:
    """The recommended assignment, then every assignment with its stars (all are open), then the envelope."""
    won = progress.completed
    suggested = recommended(won)
    lines = [
        say(lang, "journal.head", won=len(won), stars=trn(lang, "stats.stars", progress.total_stars)),
        say(lang, "journal.next", number=suggested, title=assignment(suggested).title_in(lang)),
    ]
    for a in assignments():
        best = progress.assignments.get(a.number)
        state = stars_text(best.stars if best is not None else 0)
        if best is not None and best.completed:
            state += say(lang, "journal.best", score=best.best_score)
        elif best is not None:
            state += ", " + trn(lang, "journal.attempts", best.attempts)
        if a.number == suggested:
            state += " " + say(lang, "journal.recommended")
        lines.append(f"`{a.number:>2}` {a.title_in(lang)}: {state}")
    lines.append(say(lang, "journal.envelope.open" if envelope_open else "journal.envelope.sealed"))
    return lines


def page_lines(number: int, coop: bool = False, lang: Language = DEFAULT) -> list[str]:
    """The journal page: title, place, story, setup, special rules and goals (and, for the last, the envelope)."""
    a = assignment(number)
    title = say(lang, "journal.page.title", number=a.number, title=a.title_in(lang))
    lines = [title + (say(lang, "journal.page.coop") if coop else ""), f"*{a.place}*", a.story_in(lang),
             say(lang, "journal.page.setup", setup=" ".join(a.setup_lines(lang)))]
    if a.rules:
        rules = " ".join(f"*{r.name_in(lang)}*: {r.text_in(lang)}" for r in a.rules)
        lines.append(say(lang, "journal.page.rules", rules=rules))
    lines.append(say(lang, "journal.page.goals", goals=" ".join(a.goal_lines(lang))))
    if number == LAST_ASSIGNMENT:
        lines.append(say(lang, "journal.envelope_news"))
    return lines


def unlock_lines(number: int, won: bool, before: Iterable[int], lang: Language = DEFAULT) -> list[str]:
    """After an assignment: try again after a loss; after a win, the assignment now recommended.

    `before` holds the assignments won earlier. Nothing is locked, so the news after a win is only
    which assignment comes next in the recommended order.
    """
    if not won:
        return [say(lang, "journal.try_again", number=number)]
    after = set(before) | {number}
    if len(after) == LAST_ASSIGNMENT:
        return [say(lang, "journal.all_won")]
    following = recommended(after)
    return [say(lang, "journal.next_after_win", following=following, title=assignment(following).title_in(lang))]
