"""Words for messages: Field slots, boards, skills, scores, help and rules topics.

Everything here reads a `GameView`, so hidden information cannot leak into a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.data import load_catalog
from keystone.engine import GameView
from keystone.engine.board import CELL_NAMES
from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.engine.scoring import ScoreSheet
from keystone.engine.words import GOAL_LETTERS, goal_sentence


def card_name(card_id: str) -> str:
    return load_catalog().card(card_id).name


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


def field_lines(view: GameView) -> list[str]:
    lines = ["The Field (slot 1 is leftmost):"]
    lines += [slot_label(view, i) for i in range(len(view.field))]
    lines.append(f"Deck: {view.deck_count} cards. Time left: {view.time} of {view.time_start}.")
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
    return [f"{view.seats[i].name}: {sheet.total} points" for i, sheet in enumerate(sheets)]


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


HELP = f"""**Keystone commands**
`/keystone new` opens a lobby here (in a direct message it starts a solo game);
players press Join, the host presses Start. Options: `mode:coop` (partners share one board),
`opponent:easy|normal|hard` (seat a bot), `assignment:N` (a Field Journal assignment in co-op).
`/journal list`, `start`, `status`, `abandon`: the solo campaign of {LAST_ASSIGNMENT} assignments.
`/take card cell` introduces a Field card onto your board
(slot 1 is leftmost; pay one synergy onto each card to its right).
`/skill token` uses a skill token (0 resolves every exhausted token); the bot then asks for each choice with buttons.
`/wild habitat cell` buys a Wild card; `/endturn` ends a turn that waits for a possible Wild purchase.
`/keystone board`, `field`, `objective` (only you see it), `score`, `log`, `rules`, `resign`, `abandon`."""

RULES: dict[str, str] = {
    "turn": "On your turn, do one thing: introduce a Field card, use a skill token, or resolve all exhausted "
    "tokens. You may also buy one Wild card.",
    "introduce": "Take a Field card, leaving one of your synergy tokens on every card to its right, and place it "
    "on an empty cell. Synergy tokens on the taken card are yours. Whenever you place a card (moving one "
    "too), gain 1 synergy token for each habitat symbol it shares with each orthogonally adjacent card; "
    "seasons never count.",
    "skills": "An active token does its front side and flips to exhausted. Resolving all exhausted tokens does "
    "each back side in an order you choose.",
    "wild": "A Wild card costs synergy and fits any ecosystem of its habitat; each habitat has a small stock.",
    "ecosystems": "A row or column whose cards share one habitat and whose numbers climb or fall along the "
    "line scores points; the first-edition variant asks for consecutive numbers.",
    "objectives": "Your secret objective lists four goals; the more you complete, the more it scores. Only you "
    "can see it until the game ends.",
    "end": "The time marker moves down each time all exhausted tokens are resolved. When it reaches zero, or a "
    "board is full, the round is played out so everyone has had as many turns, then boards are scored.",
}


def rules_text(topic: str | None) -> str:
    if topic is None or topic.lower() not in RULES:
        topics = ", ".join(f"`{t}`" for t in RULES)
        head = "" if topic is None else f"I have no rules topic called {topic!r}. "
        return f"{head}Topics: {topics}."
    return f"**{topic.lower()}**: {RULES[topic.lower()]}"


def objective_text(number: int) -> str:
    """The secret objective's four goals, for its owner's eyes only."""
    goals = load_catalog().objectives[number].goals
    parts = [f"{letter}. {goal_sentence(g.pattern, g.symbol)}" for letter, g in zip(GOAL_LETTERS, goals, strict=True)]
    return f"Your secret objective (card {number}): " + "; ".join(parts) + "."
