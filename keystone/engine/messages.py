"""What the engine says (its events and its refusals) as a key and plain parameters, put into words
in any language only when someone reads it.

Parameters hold ids and numbers, never English words, so an event or a refusal can be kept as
JSON and said in English or German later. A parameter's name says how to say its value:

- `card`: a card id, said as the card's name as a label (`card.label`: German quotes it, „Puma“, so a
  sentence never declines a name or guesses its article); `cards`: card ids, their names joined with
  commas (a list after a colon needs no case);
- `habitat`, `icon`, `target`: a habitat, an icon the research step wants, a research target;
- `cost`, `paid`: an amount of synergy with its word ("5 synergy", "5 Eicheln"); `paid` 0 is "nothing";
- `side`: the summary of skill `skill`'s `active` or `exhausted` side;
- `gained`, `collected`, `returned`, `rule`: an optional clause, said only when the value is set;
- `of_skill`: "Skill N", or "This effect" when None; `why` and `step`: a reason, by its own key;
- `count`: picks the key's `.one` or `.other` form; anything else is said as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from keystone.data import load_catalog
from keystone.engine.words import icon_label
from keystone.i18n import DEFAULT, Language, tr, trn

Param = str | int | list[str] | list[int] | None
"""A parameter's value: JSON as it stands."""
Params = Mapping[str, Param]

CLAUSES = ("gained", "collected", "returned", "rule")
"""Parameters said as a clause of their own (`event.part.<name>`) when set, and not at all otherwise."""


def say(key: str, params: Params, lang: Language = DEFAULT) -> str:
    """The message `key` in `lang`, every parameter said in that language."""
    words = {name: _said(name, value, params, lang) for name, value in params.items() if name != "count"}
    count = params.get("count")
    if isinstance(count, int):
        return trn(lang, key, count, **words)
    return tr(lang, key, **words)


def _said(name: str, value: Param, params: Params, lang: Language) -> str:
    """One parameter in words, by what its name says it holds."""
    if name in CLAUSES:
        return tr(lang, f"event.part.{name}", value=_said_plain(name, value, lang)) if value else ""
    match name, value:
        case "card", str():
            return card_label(value, lang)
        case "cards", list():
            return ", ".join(load_catalog().card(str(c)).name_in(lang) for c in value)
        case "habitat" | "icon", str():
            return _lowered(_target(value, lang), lang)
        case "target", _:
            return _target(value, lang)
        case "cost", int():
            return trn(lang, "event.synergy", value)
        case "paid", int():
            return trn(lang, "event.synergy", value) if value else tr(lang, "event.paid.none")
        case "side", ("active" | "exhausted"):
            skill = load_catalog().skill(int(str(params["skill"])))
            return (skill.active if value == "active" else skill.exhausted).summary_in(lang)
        case "of_skill", _:
            return tr(lang, "event.of_skill", skill=value) if value is not None else tr(lang, "event.of_effect")
        case "why", str():
            return say(f"event.skip.why.{value}", {k: v for k, v in params.items() if k != "why"}, lang)
        case "step", str():
            return tr(lang, f"error.step.{value}")
    return "" if value is None else str(value)


def card_label(card_id: str, lang: Language = DEFAULT) -> str:
    """A card's name as a sentence names it: as it is in English, „quoted“ in German."""
    return tr(lang, "card.label", name=load_catalog().card(card_id).name_in(lang))


def _said_plain(name: str, value: Param, lang: Language) -> str:
    """A clause's own value: synergy counted, a rule's name as the game's setup gave it."""
    return trn(lang, "event.synergy", value) if isinstance(value, int) and name != "rule" else str(value)


def _target(value: Param, lang: Language) -> str:
    """What a research step looks for: an icon, Wild cards, or (with no target) a matching card."""
    return tr(lang, f"event.target.{value or 'matching'}") if value in ("wild", None) else icon_label(str(value), lang)


def _lowered(word: str, lang: Language) -> str:
    """English sentences name a habitat or an icon in lower case ("the forest Wild stack"); German
    nouns keep their capital."""
    return word.lower() if lang == "en" else word


@dataclass(frozen=True, slots=True)
class Message:
    """A message not yet said: its key and plain parameters; `str()` is its English."""

    key: str
    params: Params = field(default_factory=dict)

    def __str__(self) -> str:
        return say(self.key, self.params)


def message(key: str, /, **params: Param) -> Message:
    """The message `key` with these parameters, to be said later."""
    return Message(key, params)
