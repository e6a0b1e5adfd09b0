"""The words players read on a journal page and in a verdict: setup lines, goal lines, stars; in
each language, from the journal catalogue."""

from __future__ import annotations

from collections.abc import Sequence

from keystone.data import load_catalog
from keystone.engine.campaign.setup import ENVELOPE, SOLO_TIME, Setup, StoryTokens
from keystone.i18n import DEFAULT, Language, tr, trn


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def stars_word(stars: int, lang: Language = DEFAULT, case: str = "") -> str:
    """"two stars" ("zwei Sterne"); `case` picks a form: "for", "with" or "short" ("two")."""
    return tr(lang, f"journal.stars.{case + '.' if case else ''}{stars}")


def setup_lines(s: Setup, lang: Language = DEFAULT) -> list[str]:
    """The setup changes as short sentences, for the journal page."""
    cat = load_catalog()
    time = "journal.setup.time.usual" if s.time_start == SOLO_TIME else "journal.setup.time"
    synergy = trn(lang, "token.synergy.count", s.starting_synergy)
    lines = [tr(lang, time, time=s.time_start), tr(lang, "journal.setup.synergy", synergy=synergy)]
    if s.skills:
        lines.append(tr(lang, "journal.setup.skills", skills=", ".join(str(n) for n in s.skills)))
    if s.objective:
        lines.append(tr(lang, "journal.setup.objective", number=s.objective))
    if s.field_size != 6:
        lines.append(tr(lang, "journal.setup.field", count=s.field_size))
    if s.removed_cards:
        cards = ", ".join(cat.card(c).name_in(lang) for c in s.removed_cards)
        lines.append(tr(lang, "journal.setup.removed", cards=cards))
    for cell, card in s.preset.items():
        lines.append(tr(lang, "journal.setup.preset", card=cat.card(card).name_in(lang), cell=cell.upper()))
    if ENVELOPE in s.expansions:
        lines.append(tr(lang, "journal.setup.envelope"))
    return lines


def goal_line(asks: str, stars: Sequence[int], lang: Language = DEFAULT) -> str:
    """E.g. "Score at least 75 points for one star, 85 for two, 95 for three." or a lone pass/fail goal.

    `asks` is the goal as an instruction for its first threshold.
    """
    line = capital(asks)
    if len(stars) == 1:
        return line + "."
    first = 4 - len(stars)
    levels = [tr(lang, "journal.goal.level", amount=t, stars=stars_word(first + i, lang, "short"))
              for i, t in enumerate(stars) if i]
    return ", ".join([tr(lang, "journal.goal.first", asks=line, stars=stars_word(first, lang, "for")), *levels]) + "."


def story_phrase(lang: Language = DEFAULT) -> str:
    """How goals name story species until an assignment puts its own token's name in (`tokened`)."""
    return tr(lang, "journal.story.species")


def tokened(text: str, rule: StoryTokens | None, lang: Language = DEFAULT) -> str:
    """Name the assignment's own story token in a goal sentence: "species with a burrow flag"
    ("Spezies mit „Baufähnchen“": German names the token, whose article varies, as a label)."""
    if rule is None:
        return text
    return text.replace(story_phrase(lang), tr(lang, "journal.story.tokened", token=rule.token_phrase(lang)))
