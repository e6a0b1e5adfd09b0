"""Sentences about a view that both the pictures and the text renderings use."""

from __future__ import annotations

from keystone.data import load_catalog
from keystone.engine.views import GameView, PendingView, SkillView


def skill_label(skill: SkillView) -> str:
    """What the token does now: the summary of the side that is face up."""
    token = load_catalog().skill(skill.number)
    return (token.exhausted if skill.exhausted else token.active).summary


def skill_flip_label(skill: SkillView) -> str:
    """The preview panel of the other side, as printed at the bottom of the physical token."""
    token = load_catalog().skill(skill.number)
    return (token.active if skill.exhausted else token.exhausted).summary


def skill_state(skill: SkillView) -> str:
    if skill.disabled:
        return "disabled"
    return "exhausted" if skill.exhausted else "active"


def plural(count: int, word: str) -> str:
    """Say "1 card" or "3 cards"."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def pending_text(pending: PendingView) -> str:
    """The decision owed in the middle of a skill (a verb phrase), with the notation that answers it."""
    match pending.kind:
        case "choose_exhausted":
            options = ", ".join(str(o) for o in pending.options)
            return f"choose the next exhausted skill to resolve ({options}): resolve N"
        case "draw_place":
            return f"may draw {plural(pending.count, 'card')} from the deck: draw, or skip"
        case "discard_place":
            return "looks at the top of the discard pile"
        case "place_held":
            return "may place one held card: place I CELL, or skip"
        case "pile_held":
            return "puts the held cards on the discard pile, in any order: pile I"
        case "move":
            moves = plural(pending.count, "move")
            return f"may move a card to an empty cell ({moves} left): move FROM TO, or skip"
        case "research":
            target = pending.target.title() if pending.target else "matching"
            return f"may research one unresearched {target} card: research CELL, or skip"
        case "gain":
            return f"gains {pending.count} synergy"
        case "field_discard":
            return f"must discard {plural(pending.count, 'Field card')}: discard SLOT"
    return pending.kind  # pragma: no cover - every step kind is listed above


def status_text(view: GameView) -> str:
    """Who acts and what they may do, in one line."""
    if view.over:
        return "The game is over."
    who = view.seats[view.current].name
    if view.pending is not None:
        skill = f" (skill {view.pending.skill})" if view.pending.skill is not None else ""
        return f"{who}{skill} {pending_text(view.pending)}."
    if view.phase == "after":
        return f"{who} may buy a Wild card or end the turn: wild HABITAT CELL, or endturn."
    if view.phase == "resolve":
        return f"{who} is finishing an action."
    return f"{who} to act: take SLOT CELL, skill N, or wild HABITAT CELL."
