"""The words players read on a journal page and in a verdict: setup lines, goal lines, stars."""

from __future__ import annotations

from collections.abc import Sequence

from keystone.data import load_catalog
from keystone.engine.campaign.setup import ENVELOPE, SOLO_TIME, Setup, StoryTokens

STAR_WORDS = ("no stars", "one star", "two stars", "three stars")
STORY_PHRASE = "story-token species"
"""How goals name story species until an assignment puts its own token's name in (`tokened`)."""


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def setup_lines(s: Setup) -> list[str]:
    """The setup changes as short sentences, for the journal page."""
    cat = load_catalog()
    lines = [f"The time marker starts on {s.time_start}" + ("." if s.time_start != SOLO_TIME else " as usual."),
             f"You start with {s.starting_synergy} synergy tokens."]
    if s.skills:
        lines.append("Skill tokens in play: " + ", ".join(str(n) for n in s.skills) + ".")
    if s.objective:
        lines.append(f"Your secret objective is card {s.objective}.")
    if s.field_size != 6:
        lines.append(f"The Field holds {s.field_size} cards.")
    if s.removed_cards:
        lines.append("Left out of the deck: " + ", ".join(cat.card(c).name for c in s.removed_cards) + ".")
    for cell, card in s.preset.items():
        lines.append(f"Already on your board: {cat.card(card).name} on {cell.upper()}.")
    if ENVELOPE in s.expansions:
        lines.append("The sealed envelope is opened: its species join the deck and its skill token the pool.")
    return lines


def goal_line(asks: str, stars: Sequence[int]) -> str:
    """E.g. "Score at least 75 points for one star, 85 for two, 95 for three." or a lone pass/fail goal.

    `asks` is the goal as an instruction for its first threshold.
    """
    line = capital(asks)
    if len(stars) == 1:
        return line + "."
    first = 4 - len(stars)
    levels = [f"{t} for {STAR_WORDS[first + i].split()[0]}" for i, t in enumerate(stars) if i]
    return f"{line} for {STAR_WORDS[first]}, " + ", ".join(levels) + "."


def tokened(text: str, rule: StoryTokens | None) -> str:
    """Name the assignment's own story token in a goal sentence."""
    return text.replace(STORY_PHRASE, f"species with {article(rule.token)}") if rule else text
