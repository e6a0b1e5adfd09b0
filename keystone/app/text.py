"""Words for messages: Field slots, boards, skills, scores, help and rules topics.

Everything here reads a `GameView`, so hidden information cannot leak into a sentence.
Icons show as the bot's emojis once `use_emojis` has been given them, and as words until then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from keystone.app.markdown import plain
from keystone.cards import OBJECTIVE_POINTS, Habitat, Symbol
from keystone.data import load_catalog
from keystone.engine import GameConfig, GameView
from keystone.engine.board import CELL_NAMES
from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.engine.scoring import ScoreSheet
from keystone.engine.table import SYNERGY_BY_SEAT, TIME_BY_PLAYERS
from keystone.engine.words import GOAL_LETTERS, counted, goal_sentence, habitat_name, icon_label, symbol_name
from keystone.i18n import COMMANDS, DEFAULT, LANGUAGES, Language, catalogue, tr, trn
from keystone.i18n.commands import option, slash

_EMOJIS: dict[str, str] = {}
"""Icon name (forest, spring, ...) -> the bot's emoji for it ("<:forest:123>"), set at start-up."""


def use_emojis(emojis: Mapping[str, str]) -> None:
    """Show these emojis in messages from now on; an empty mapping goes back to words."""
    _EMOJIS.clear()
    _EMOJIS.update(emojis)


def card_name(card_id: str, lang: Language = DEFAULT) -> str:
    return load_catalog().card(card_id).name_in(lang)


def card_icons(card_id: str, emojis: Mapping[str, str] | None = None, lang: Language = DEFAULT) -> str:
    """A card's habitats and season: as emojis when every one is available, else as words.

    "<:forest:1><:desert:2><:spring:3>" or "Forest, Desert; Spring".
    """
    emojis = _EMOJIS if emojis is None else emojis
    card = load_catalog().card(card_id)
    habitats = [h.value for h in card.habitats]
    season = [card.season.value] if card.season is not None else []
    if all(name in emojis for name in habitats + season):
        return "".join(emojis[name] for name in habitats + season)
    return "; ".join(part for part in (", ".join(icon_label(h, lang) for h in habitats),
                                       "".join(icon_label(s, lang) for s in season)) if part)


def _slot(view: GameView, slot: int, lang: Language, icons: str = "") -> str:
    """A Field slot in words, with its card's `icons` when given."""
    f = view.field[slot]
    if f is None:
        return tr(lang, "text.slot.empty", slot=slot + 1)
    on_it = trn(lang, "text.slot.synergy", f.synergy) if f.synergy else ""
    return tr(lang, "text.slot", slot=slot + 1, card=card_name(f.card, lang), icons=f", {icons}" if icons else "",
              cost=view.field_costs[slot], on_it=on_it)


def slot_label(view: GameView, slot: int, lang: Language = DEFAULT) -> str:
    """ "3 - Snail Kite (costs 3, 1 synergy on it)" for Field slot `slot` (0-based)."""
    return _slot(view, slot, lang)


def empty_cells(view: GameView, seat: int) -> list[str]:
    return [CELL_NAMES[i] for i, p in enumerate(view.seats[seat].board) if p is None]


def habitat_choices(habitats: Iterable[Habitat], lang: Language = DEFAULT) -> list[tuple[str, str]]:
    """(label, value) pairs: each habitat named in `lang` ("Wald"), its engine value ("forest");
    English offers the value itself, as players type it."""
    return [(h.value if lang == DEFAULT else habitat_name(h, lang), h.value) for h in habitats]


def habitat_value(typed: str) -> str:
    """The engine's habitat for a name typed in any language, whatever case ("wald" or "Forest" is
    "forest"); what was typed, cleaned, when it names none (the engine then refuses it politely)."""
    wanted = typed.strip().casefold()
    named = (h.value for h in Habitat for lang in LANGUAGES if wanted in {h.value, habitat_name(h, lang).casefold()})
    return next(named, wanted)


def skill_label(number: int, lang: Language = DEFAULT) -> str:
    token = load_catalog().skill(number)
    return f"{number} - {token.active.summary_in(lang)}"


def field_line(view: GameView, slot: int, emojis: Mapping[str, str] | None = None, lang: Language = DEFAULT) -> str:
    """ "3 - Snail Kite, <:wetland:1><:summer:2> (costs 3, 1 synergy on it)": a slot with its icons."""
    f = view.field[slot]
    return _slot(view, slot, lang, "" if f is None else card_icons(f.card, emojis, lang))


def field_lines(view: GameView, emojis: Mapping[str, str] | None = None, lang: Language = DEFAULT) -> list[str]:
    lines = [tr(lang, "text.field")]
    lines += [field_line(view, i, emojis, lang) for i in range(len(view.field))]
    lines.append(tr(lang, "text.deck", cards=counted("card", view.deck_count, lang), time=view.time,
                    start=view.time_start))
    return lines


def board_lines(view: GameView, seat: int, lang: Language = DEFAULT) -> list[str]:
    s = view.seats[seat]
    lines = [tr(lang, "text.board", name=s.name, synergy=s.synergy)]
    for row in range(4):
        cells = []
        for col in range(4):
            p = s.board[row * 4 + col]
            cells.append(f"{CELL_NAMES[row * 4 + col]} " + ("." if p is None else card_name(p.card, lang)[:14]))
        lines.append(" | ".join(cells))
    return lines


def score_lines(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> list[str]:
    return [f"{view.seats[i].name}: {counted('reply.point', sheet.total, lang)}" for i, sheet in enumerate(sheets)]


def pending_sentence(view: GameView, lang: Language = DEFAULT) -> str:
    """What the seat to act must decide now, in words (for a message: the name escaped)."""
    who = plain(view.seats[view.current].name)
    step = view.pending
    commands = {verb: slash(lang, verb) for verb in ("take", "skill", "wild")}
    if view.phase == "after":
        return tr(lang, "text.pending.after", who=who, **commands)
    if step is None:
        return tr(lang, "text.pending.play", who=who, **commands)
    ask = tr(lang, f"text.ask.{step.kind}", count=step.count, target=_target(step.target, lang))
    return tr(lang, "text.pending.choose", who=who, ask=ask)


def _target(target: str | None, lang: Language) -> str:
    """What a research skill looks for: the engine's own word in English (as it always read), the
    symbol's name (or the Wild card) in other languages."""
    if lang == DEFAULT or target is None:
        return str(target)
    return tr(lang, "text.target.wild") if target == "wild" else symbol_name(Symbol(target), lang)


HELP_TOPICS = ("basics", "more")
"""`/keystone help`'s pages (`reply.help.<topic>`): starting and playing a game, then every other
command; each page points to the other, and each stays far below Discord's 2,000 characters."""


def help_text(lang: Language, topic: str = HELP_TOPICS[0]) -> str:
    """`/keystone help`: one page of the commands in a few lines, in `lang`."""
    pages = {page: f"{slash(lang, 'keystone help')} {option(lang, 'keystone help', 'topic')}:{_choice(lang, page)}"
             for page in HELP_TOPICS}
    return tr(lang, f"reply.help.{topic}", last=LAST_ASSIGNMENT, **pages)


def _choice(lang: Language, value: str) -> str:
    """A choice as a client in `lang` names it in an option (English by its value, as texts always have)."""
    return value if lang == DEFAULT else catalogue(lang, COMMANDS)[f"choice.{value}"]


RULES_TOPICS = ("turn", "introduce", "field", "synergy", "ecosystems", "scoring", "research", "wild", "skills",
                "end", "objectives", "ties", "key")
"""The `/keystone rules` topics, in the order listed; their words are the rules catalogue's `rules.<topic>`."""


GOAL_POINTS = {f"goal{i}": OBJECTIVE_POINTS[i] for i in range(1, 5)}
"""What 1 to 4 completed goals of a secret objective score, as messages quote them (`{goal1}` ...)."""


def _rules_figures() -> dict[str, int]:
    """The game's own numbers the rules quote, so the texts never disagree with the engine."""
    seats = {f"seat{i + 1}": n for i, n in enumerate(SYNERGY_BY_SEAT[:4])}
    times = {f"time{n}": TIME_BY_PLAYERS[n] for n in range(1, 5)}
    return {**seats, **GOAL_POINTS, **times, "wild_cost": GameConfig().wild_cost}


def rules_topic_text(topic: str, lang: Language = "en") -> str:
    """One topic's rules in short, in the rulebook's terms; plain text (the terminal shows the same words)."""
    return tr(lang, f"rules.{topic}", **_rules_figures())


def rules_title(topic: str, lang: Language = "en") -> str:
    """A topic's name as a reader of `lang` looks for it: `ecosystems` or `Ökosysteme`."""
    return tr(lang, f"rules.{topic}.title")


def rules_topic(name: str) -> str | None:
    """The topic a player names, in English or German, whatever case: `Ökosysteme` is `ecosystems`."""
    wanted = name.strip().casefold()
    return next((t for t in RULES_TOPICS if wanted in {t, rules_title(t, "de").casefold()}), None)


def topic_choices(lang: Language = DEFAULT) -> list[tuple[str, str]]:
    """(label, value) pairs for `/keystone rules`: each topic's title in `lang`, the topic as the value."""
    return [(rules_title(t, lang), t) for t in RULES_TOPICS]


RULES: dict[str, str] = {topic: rules_topic_text(topic) for topic in RULES_TOPICS}
"""The English rules by topic."""


def rules_text(topic: str | None, lang: Language = "en") -> str:
    """One rules topic, or the list of topics (with a polite sentence when the topic is unknown)."""
    found = rules_topic(topic) if topic is not None else None
    if found is None:
        topics = ", ".join(f"`{rules_title(t, lang)}`" for t in RULES_TOPICS)
        head = tr(lang, "rules.overview") if topic is None else tr(lang, "rules.unknown", topic=repr(topic))
        return tr(lang, "rules.topics", head=head, topics=topics)
    return f"**{rules_title(found, lang)}**: {rules_topic_text(found, lang)}"


def objective_text(number: int, lang: Language = DEFAULT) -> str:
    """The secret objective's four goals, for its owner's eyes only."""
    goals = load_catalog().objectives[number].goals
    parts = [f"{letter}. {goal_sentence(g.pattern, g.symbol, lang)}"
             for letter, g in zip(GOAL_LETTERS, goals, strict=True)]
    return tr(lang, "text.objective", number=number, goals="; ".join(parts))
