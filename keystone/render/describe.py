"""Sentences about a view that both the pictures and the text renderings use.

How to act is said in the words of the place the player reads it: Discord's commands, buttons
and menus by default, or the terminal's notation when the caller passes `TERMINAL_ACTIONS`.
"""

from __future__ import annotations

from keystone.data import load_catalog
from keystone.engine.views import GameView, PendingView, SkillView
from keystone.engine.words import DISCORD_ACTIONS, HABITAT_NAMES, SYMBOL_NAMES, ActionWords, plural


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


def _target_name(target: str | None) -> str:
    """A research target (a habitat or a symbol's value) as the cards print it."""
    names = {**{h.value: n for h, n in HABITAT_NAMES.items()}, **{s.value: n for s, n in SYMBOL_NAMES.items()}}
    return "matching" if target is None else names.get(target, target.title())


def pending_text(pending: PendingView, words: ActionWords = DISCORD_ACTIONS) -> str:
    """The decision owed in the middle of a skill (a verb phrase), with the way to answer it."""
    match pending.kind:
        case "choose_exhausted":
            options = ", ".join(str(o) for o in pending.options)
            return f"choose the next exhausted skill to resolve ({options}): {words.resolve}"
        case "draw_place":
            return f"may draw {plural(pending.count, 'card')} from the deck: {words.draw}, or {words.skip}"
        case "discard_place":
            return "looks at the top of the discard pile"
        case "place_held":
            return f"may place one held card: {words.place}, or {words.skip}"
        case "pile_held":
            return f"puts the held cards on the discard pile, in any order: {words.pile}"
        case "move":
            moves = plural(pending.count, "move")
            return f"may move a card to an empty cell ({moves} left): {words.move}, or {words.skip}"
        case "research":
            target = _target_name(pending.target)
            return f"may research one unresearched {target} card: {words.research}, or {words.skip}"
        case "gain":
            return f"gains {pending.count} synergy"
        case "field_discard":
            return f"must discard {plural(pending.count, 'Field card')}: {words.discard}"
    return pending.kind  # pragma: no cover - every step kind is listed above


def status_text(view: GameView, words: ActionWords = DISCORD_ACTIONS) -> str:
    """Who acts and what they may do, in one line, in the words of `words`."""
    if view.over:
        return "The game is over."
    who = view.seats[view.current].name
    if view.pending is not None:
        skill = f" (skill {view.pending.skill})" if view.pending.skill is not None else ""
        return f"{who}{skill} {pending_text(view.pending, words)}."
    if view.phase == "after":
        return f"{who} may buy a Wild card or end the turn: {words.wild}, or {words.endturn}."
    if view.phase == "resolve":
        return f"{who} is finishing an action."
    return f"{who} to act: {words.choices()}."
