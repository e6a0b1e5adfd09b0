"""Sentences about a view that both the pictures and the text renderings use.

How to act is said in the words of the place the player reads it: Discord's commands, buttons
and menus by default, or the terminal's notation when the caller passes `TERMINAL_ACTIONS`; the
sentence is in `lang` (pass `ActionWords` of the same language, or none for Discord's).
"""

from __future__ import annotations

from keystone.cards import Habitat, Symbol
from keystone.data import load_catalog
from keystone.engine.views import GameView, PendingView, SkillView
from keystone.engine.words import ActionWords, action_words, counted, habitat_name, symbol_name
from keystone.i18n import DEFAULT, Language, tr, trn


def skill_label(skill: SkillView, lang: Language = DEFAULT) -> str:
    """What the token does now: the summary of the side that is face up."""
    token = load_catalog().skill(skill.number)
    return (token.exhausted if skill.exhausted else token.active).summary_in(lang)


def skill_flip_label(skill: SkillView, lang: Language = DEFAULT) -> str:
    """The preview panel of the other side, as printed at the bottom of the physical token."""
    token = load_catalog().skill(skill.number)
    return (token.active if skill.exhausted else token.exhausted).summary_in(lang)


def skill_state(skill: SkillView) -> str:
    if skill.disabled:
        return "disabled"
    return "exhausted" if skill.exhausted else "active"


def state_name(state: str, lang: Language = DEFAULT) -> str:
    """A `skill_state` as the reader says it: active, exhausted (aktiv, inaktiv) or disabled."""
    return tr(lang, "picture.skill.disabled" if state == "disabled" else f"token.skill.{state}")


def _target_name(target: str | None, lang: Language) -> str:
    """A research target (a habitat or a symbol's value) as the cards print it."""
    if target is None:
        return tr(lang, "picture.matching")
    if target in {h.value for h in Habitat}:
        return habitat_name(Habitat(target), lang)
    if target in {s.value for s in Symbol}:
        return symbol_name(Symbol(target), lang)
    return target.title()


def actions(words: ActionWords | None, lang: Language) -> ActionWords:
    """The given way of acting, or Discord's in `lang`."""
    return words if words is not None else action_words("discord", lang)


def pending_text(pending: PendingView, words: ActionWords | None = None, lang: Language = DEFAULT) -> str:
    """The decision owed in the middle of a skill (a verb phrase), with the way to answer it."""
    w = actions(words, lang)
    key = f"picture.pending.{pending.kind}"
    match pending.kind:
        case "choose_exhausted":
            return tr(lang, key, options=", ".join(str(o) for o in pending.options), resolve=w.resolve)
        case "draw_place":
            return tr(lang, key, cards=counted("card", pending.count, lang), draw=w.draw, skip=w.skip)
        case "discard_place":
            return tr(lang, key)
        case "place_held":
            return tr(lang, key, place=w.place, skip=w.skip)
        case "pile_held":
            return tr(lang, key, pile=w.pile)
        case "move":
            moves = counted("picture.move", pending.count, lang)
            return tr(lang, key, moves=moves, move=w.move, skip=w.skip)
        case "research":
            return tr(lang, key, target=_target_name(pending.target, lang), research=w.research, skip=w.skip)
        case "gain":
            return trn(lang, key, pending.count)
        case "field_discard":
            return tr(lang, key, cards=counted("picture.field_card", pending.count, lang), discard=w.discard)
    return pending.kind  # pragma: no cover - every step kind is listed above


def status_text(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> str:
    """Who acts and what they may do, in one line, in the words of `words`."""
    w = actions(words, lang)
    if view.over:
        return tr(lang, "picture.status.over")
    who = view.seats[view.current].name
    if view.pending is not None:
        skill = tr(lang, "picture.skill.where", skill=view.pending.skill) if view.pending.skill is not None else ""
        return tr(lang, "picture.status.pending", who=who, skill=skill, pending=pending_text(view.pending, w, lang))
    if view.phase == "after":
        return tr(lang, "picture.status.after", who=who, wild=w.wild, endturn=w.endturn)
    if view.phase == "resolve":
        return tr(lang, "picture.status.resolve", who=who)
    return tr(lang, "picture.status.act", who=who, choices=w.choices())
