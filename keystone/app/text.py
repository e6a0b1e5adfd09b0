"""Words for messages: Field slots, boards, skills, scores, help and rules topics.

Everything here reads a `GameView`, so hidden information cannot leak into a sentence.
Icons show as the bot's emojis once `use_emojis` has been given them, and as words until then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from keystone.cards import OBJECTIVE_POINTS, Symbol
from keystone.data import load_catalog
from keystone.engine import GameConfig, GameView
from keystone.engine.board import CELL_NAMES
from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.engine.game import SYNERGY_BY_SEAT, TIME_BY_PLAYERS
from keystone.engine.scoring import ScoreSheet
from keystone.engine.words import GOAL_LETTERS, counted, goal_sentence, icon_label, symbol_name
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.i18n.commands import slash

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
    """What the seat to act must decide now, in words."""
    who = view.seats[view.current].name
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


def help_text(lang: Language) -> str:
    """`/keystone help`: every command in a few lines, in `lang`."""
    return tr(lang, "reply.help", last=LAST_ASSIGNMENT)


def _goal_points() -> str:
    """ "5, 10, 16 or 24": the objective's points for 1 to 4 completed goals."""
    points = [str(p) for p in OBJECTIVE_POINTS[1:]]
    return f"{', '.join(points[:-1])} or {points[-1]}"


RULES: dict[str, str] = {
    "turn": (
        "Players take turns; a round is one turn each. On your turn you do exactly one action: introduce a "
        "Field card (take it and place it on your board), or use skills (one active skill token, or all "
        "the exhausted ones together). Once per turn, before or after that action, you may also buy a "
        "Wild card. Then the Field is refilled and the next player goes. You aim to build ecosystems "
        "in the rows and columns of your 4 by 4 board and to complete the goals of your secret objective."
    ),
    "introduce": (
        "To introduce a card, choose any Field card and pay for it: put one of your synergy tokens on "
        "each card to its right (the rightmost card is free). Any synergy tokens already lying on the "
        "card you take become yours. Then place it on any empty space of your board. Placing it earns "
        "synergy: 1 token for each habitat symbol it shares with each orthogonally adjacent card; "
        "seasons never count."
    ),
    "field": (
        "The Field is a row of 6 face-up Species cards, slot 1 on the left. At the end of every turn the "
        "cards left in it slide to the right, then cards from the deck fill the empty slots, starting "
        "with the rightmost. When the deck runs out, the discard pile is shuffled into a new deck. "
        "Synergy tokens on a Field card that gets discarded go back to the supply."
    ),
    "synergy": (
        "Synergy tokens are the money of the game. Whenever a card is placed on your board, including a "
        "Wild card, a card placed by a skill and a card you move, you gain 1 synergy token for each habitat "
        "symbol it shares with each card directly above, below, left or right of it. Seasons never count, "
        "and diagonal neighbours never count. Example: a card with Forest and Desert placed next to a "
        "Forest-Desert card and a Desert card gains 3. "
        f"The first player starts with {SYNERGY_BY_SEAT[0]} tokens, the second with {SYNERGY_BY_SEAT[1]} "
        f"(a third {SYNERGY_BY_SEAT[2]}, a fourth {SYNERGY_BY_SEAT[3]}; solo {SYNERGY_BY_SEAT[0]}). "
        "The supply never runs out. At the end, every 3 tokens you hold score 1 point."
    ),
    "ecosystems": (
        "An ecosystem is two or more cards side by side in one row or column that all share one habitat "
        "and whose numbers run in order along the line. Second edition (the default): the numbers go "
        "strictly up or strictly down, and gaps are allowed (1, 3, 4 or 5, 2 count; two equal numbers "
        "break it). First-edition variant: the numbers must also be consecutive (2, 3, 4 or 4, 3, 2). "
        "An empty space breaks an ecosystem. A Wild card takes whatever number from 1 to 5 fits, and "
        "may be a different number in its row and in its column. Each row and each column scores only "
        "its best ecosystem; one card can belong to its row's and its column's."
    ),
    "scoring": (
        "At the end each row and each column scores its best ecosystem: 1 point per card in it, plus 1 "
        "per research token on those cards. Then the ecosystem is scored once more for every Keystone "
        "icon in it: with 3 cards, 1 research token and 2 Keystone icons it is worth (3 + 1) x 3 = 12. "
        f"Add your secret objective (1, 2, 3 or 4 goals completed: {_goal_points()} points) and 1 point "
        "per 3 synergy tokens. The highest total wins."
    ),
    "research": (
        "Research tokens come only from skills. Such a skill places a token (skill 9: two) on one "
        "unresearched card of your board, a card with no research token yet, that shows what the skill "
        "names: a season, the Endangered icon or the Tag icon, or a Wild card. Each research token on a "
        "card of a scored ecosystem adds 1 point to it, before Keystone icons multiply it. A card keeps "
        "its tokens when it is moved."
    ),
    "wild": (
        f"Once per turn, before or after your action, you may pay {GameConfig().wild_cost} synergy tokens to "
        "take a Wild card "
        "and place it on an empty space of your board. There are two Wild cards per habitat, each with "
        "a printed season. A Wild card has one habitat and fits only ecosystems of that habitat; it "
        "counts as any number from 1 to 5. Placing it earns synergy as usual. Its season counts for "
        "objectives; it has no Keystone, Endangered or Tag icon."
    ),
    "skills": (
        "Five skill tokens are in play, each with an active side (grass) and an exhausted side (stone); "
        "all start active. Using one active token: do what its active side says, then flip it to "
        "exhausted. Resolving all exhausted tokens: do what each exhausted side says, in the order you "
        "choose, then flip them all back to active and move the time marker one space on. That needs "
        "at least one exhausted token. The small panel at the bottom of a token only previews its "
        "other side. Every effect is optional except discarding Field cards."
    ),
    "end": (
        f"The time marker starts at {TIME_BY_PLAYERS[2]} with two players ({TIME_BY_PLAYERS[1]} solo, "
        f"{TIME_BY_PLAYERS[3]} with three, {TIME_BY_PLAYERS[4]} with four) and moves one "
        "space each time someone resolves all exhausted skill tokens. When it reaches the last space, "
        "or any board has all 16 spaces filled, the final round begins: everyone who has not yet "
        "played in this round takes a turn, so all have had as many turns, and then the game ends "
        "and every board is scored."
    ),
    "objectives": (
        "Each player has a secret objective card with four goals, A to D; only you see yours until the "
        "end. Each goal asks for cards with one symbol (a season, the Endangered icon or the Tag icon): "
        "2 in a Line, 3 in a Line, L Shaped and Diagonal ask for cards placed in that pattern, which may "
        "be turned any way; 3 of a Type and 4 of a Type ask for that many anywhere on your board. Each "
        f"goal counts once. 1, 2, 3 or all 4 goals completed score {_goal_points()} points."
    ),
    "ties": (
        "If totals are equal, the player who completed more goals of their secret objective wins. If "
        "that is equal too, the one with more synergy tokens wins. If even that is equal, they share the "
        "win."
    ),
}
"""The rules in short, one topic per message, in the rulebook's terms; plain text (the terminal
shows the same words)."""

OVERVIEW = ("Keystone in short: take cards from the Field onto your 4 by 4 board, build ecosystems of one "
            "habitat with numbers in order, and complete your secret objective.")


def rules_text(topic: str | None) -> str:
    """One rules topic, or the list of topics (with a polite sentence when the topic is unknown)."""
    if topic is None or topic.lower() not in RULES:
        topics = ", ".join(f"`{t}`" for t in RULES)
        head = OVERVIEW if topic is None else f"I have no rules topic called {topic!r}."
        return f"{head} Topics: {topics}."
    return f"**{topic.lower()}**: {RULES[topic.lower()]}"


def objective_text(number: int, lang: Language = DEFAULT) -> str:
    """The secret objective's four goals, for its owner's eyes only."""
    goals = load_catalog().objectives[number].goals
    parts = [f"{letter}. {goal_sentence(g.pattern, g.symbol, lang)}"
             for letter, g in zip(GOAL_LETTERS, goals, strict=True)]
    return tr(lang, "text.objective", number=number, goals="; ".join(parts))
