"""Words for messages: Field slots, boards, skills, scores, help and rules topics.

Everything here reads a `GameView`, so hidden information cannot leak into a sentence.
Icons show as the bot's emojis once `use_emojis` has been given them, and as words until then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from keystone.cards import OBJECTIVE_POINTS
from keystone.data import load_catalog
from keystone.engine import GameConfig, GameView
from keystone.engine.board import CELL_NAMES
from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.engine.game import SYNERGY_BY_SEAT, TIME_BY_PLAYERS
from keystone.engine.scoring import ScoreSheet
from keystone.engine.words import GOAL_LETTERS, ICON_LABELS, goal_sentence, plural
from keystone.i18n import Language, tr

_EMOJIS: dict[str, str] = {}
"""Icon name (forest, spring, ...) -> the bot's emoji for it ("<:forest:123>"), set at start-up."""


def use_emojis(emojis: Mapping[str, str]) -> None:
    """Show these emojis in messages from now on; an empty mapping goes back to words."""
    _EMOJIS.clear()
    _EMOJIS.update(emojis)


def card_name(card_id: str) -> str:
    return load_catalog().card(card_id).name


def card_icons(card_id: str, emojis: Mapping[str, str] | None = None) -> str:
    """A card's habitats and season: as emojis when every one is available, else as words.

    "<:forest:1><:desert:2><:spring:3>" or "Forest, Desert; Spring".
    """
    emojis = _EMOJIS if emojis is None else emojis
    card = load_catalog().card(card_id)
    habitats = [h.value for h in card.habitats]
    season = [card.season.value] if card.season is not None else []
    if all(name in emojis for name in habitats + season):
        return "".join(emojis[name] for name in habitats + season)
    return "; ".join(part for part in (", ".join(ICON_LABELS[h] for h in habitats),
                                       "".join(ICON_LABELS[s] for s in season)) if part)


def slot_label(view: GameView, slot: int) -> str:
    """ "3 - Snail Kite (costs 3, 1 synergy on it)" for Field slot `slot` (0-based)."""
    f = view.field[slot]
    if f is None:
        return f"{slot + 1} - empty"
    on_it = f", {f.synergy} synergy on it" if f.synergy else ""
    return f"{slot + 1} - {card_name(f.card)} (costs {view.field_costs[slot]}{on_it})"


def empty_cells(view: GameView, seat: int) -> list[str]:
    return [CELL_NAMES[i] for i, p in enumerate(view.seats[seat].board) if p is None]


def skill_label(number: int) -> str:
    token = load_catalog().skill(number)
    return f"{number} - {token.active.summary}"


def field_line(view: GameView, slot: int, emojis: Mapping[str, str] | None = None) -> str:
    """ "3 - Snail Kite, <:wetland:1><:summer:2> (costs 3, 1 synergy on it)": a slot with its icons."""
    f = view.field[slot]
    if f is None:
        return f"{slot + 1} - empty"
    on_it = f", {f.synergy} synergy on it" if f.synergy else ""
    icons = card_icons(f.card, emojis)
    return f"{slot + 1} - {card_name(f.card)}, {icons} (costs {view.field_costs[slot]}{on_it})"


def field_lines(view: GameView, emojis: Mapping[str, str] | None = None) -> list[str]:
    lines = ["The Field (slot 1 is leftmost):"]
    lines += [field_line(view, i, emojis) for i in range(len(view.field))]
    lines.append(f"Deck: {plural(view.deck_count, 'card')}. Time left: {view.time} of {view.time_start}.")
    return lines


def board_lines(view: GameView, seat: int) -> list[str]:
    s = view.seats[seat]
    lines = [f"{s.name}'s board ({s.synergy} synergy):"]
    for row in range(4):
        cells = []
        for col in range(4):
            p = s.board[row * 4 + col]
            cells.append(f"{CELL_NAMES[row * 4 + col]} " + ("." if p is None else card_name(p.card)[:14]))
        lines.append(" | ".join(cells))
    return lines


def score_lines(view: GameView, sheets: Sequence[ScoreSheet]) -> list[str]:
    return [f"{view.seats[i].name}: {plural(sheet.total, 'point')}" for i, sheet in enumerate(sheets)]


def pending_sentence(view: GameView) -> str:
    """What the seat to act must decide now, in words."""
    who = view.seats[view.current].name
    step = view.pending
    if view.phase == "after":
        return f"{who} may buy a Wild card with `/wild`, or end the turn."
    if step is None:
        return f"{who} to play: `/take`, `/skill` or `/wild`."
    asks = {
        "choose_exhausted": "which exhausted skill to resolve next",
        "draw_place": f"whether to draw {step.count} cards",
        "discard_place": "which card from the discard pile to place",
        "place_held": "which card to place, and where",
        "pile_held": "in which order the cards go on the discard pile",
        "move": "which card to move, and where (or stop)",
        "research": f"which card showing {step.target} to research",
        "gain": "nothing",
        "field_discard": "which Field card to discard",
    }
    return f"{who} chooses {asks[step.kind]}."


def help_text(lang: Language) -> str:
    """`/keystone help`: every command in a few lines, in `lang`."""
    return tr(lang, "reply.help", last=LAST_ASSIGNMENT)


RULES_TOPICS = ("turn", "introduce", "field", "synergy", "ecosystems", "scoring", "research", "wild", "skills",
                "end", "objectives", "ties")
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


def objective_text(number: int) -> str:
    """The secret objective's four goals, for its owner's eyes only."""
    goals = load_catalog().objectives[number].goals
    parts = [f"{letter}. {goal_sentence(g.pattern, g.symbol)}" for letter, g in zip(GOAL_LETTERS, goals, strict=True)]
    return f"Your secret objective (card {number}): " + "; ".join(parts) + "."
