"""Buttons and select menus for the decision at hand, generated from `legal_actions`.

Actions with at most one argument become buttons; the rest become a select menu of their first
choice whose values are notation prefixes ("take 3", "move A1"); picking one asks for the rest.
Select menus never exceed Discord's 25 options.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.app import ids
from keystone.app.replies import Control, Option, Style
from keystone.app.text import card_name, skill_label, slot_label
from keystone.engine import GameState, GameView, legal_actions, player_view
from keystone.engine.board import parse_cell
from keystone.i18n import DEFAULT, Language, tr

MAX_OPTIONS = 25
BUTTON_VERBS = {"skill", "resolve", "draw", "skip", "endturn", "pass"}
SELECT_TITLES = ("take", "place", "pile", "move", "research", "discard")
"""The verbs whose select menus have a title in the catalogue (`controls.select.<verb>`)."""


def button_label(notation: str, lang: Language) -> str:
    """A button's words for an action without a select menu (a skill, resolve, draw, skip, end turn)."""
    words = notation.split()
    match words:
        case ["skill", "0"]:
            return tr(lang, "controls.all_exhausted")
        case ["skill", n]:
            return tr(lang, "controls.skill", skill=skill_label(int(n), lang))[:80]
        case ["resolve", n]:
            return tr(lang, "controls.resolve", number=n)
        case ["endturn"]:
            return tr(lang, "controls.endturn")
        case ["skip"]:
            return tr(lang, "controls.skip")
        case ["draw"] | ["pass"]:
            return tr(lang, f"controls.{words[0]}")
    return notation.capitalize()


def option_label(state: GameState, prefix: str, lang: Language = DEFAULT, view: GameView | None = None) -> str:
    """How a select option reads: the card behind a slot, held card or cell, not just a number
    (`view`: the seat to act's, when the caller has it already)."""
    verb, arg = prefix.split()[:2]
    seat = state.current
    view = view or player_view(state, seat)
    if verb in ("take", "discard"):
        return slot_label(view, int(arg) - 1, lang)[:100]
    if verb in ("place", "pile"):
        return f"{arg} - {card_name(state.held[int(arg) - 1], lang)}"[:100]
    cell = parse_cell(arg)
    placed = None if cell is None else view.seats[seat].board[cell]
    return arg.upper() if placed is None else f"{arg.upper()} - {card_name(placed.card, lang)}"[:100]


def choice_words(state: GameState, prefix: str, lang: Language = DEFAULT) -> str:
    """A first choice as a message names it: its notation in English ("Take 3"), in other languages
    the card or cell it picks, as its menu option reads (no English verb in German text)."""
    return prefix.capitalize() if lang == DEFAULT else option_label(state, prefix, lang)


def completions(notations: Sequence[str], prefix: str) -> list[str]:
    """Legal notations that start with `prefix` followed by a space."""
    return [n for n in notations if n.startswith(prefix + " ")]


def controls_for(state: GameState, game_id: int, *, show_held: bool, lang: Language = DEFAULT) -> list[Control]:
    """Controls for the seat to act, labelled in `lang`; held card names only when `show_held` (a private message)."""
    notations = [str(a) for a in legal_actions(state)]
    out: list[Control] = []
    firsts: dict[str, list[str]] = {}
    for n in notations:
        words = n.split()
        if words[0] in BUTTON_VERBS:
            style: Style = "primary" if words[0] in ("skill", "resolve", "draw") else "secondary"
            out.append(Control(ids.act_id(game_id, state.version, n), button_label(n, lang), style))
        elif len(words) == 2:
            firsts.setdefault(words[0], []).append(n)
        else:
            group = firsts.setdefault(words[0], [])
            prefix = " ".join(words[:2])
            if prefix not in group:
                group.append(prefix)
    seen = player_view(state, state.current) if firsts else None
    for verb, values in firsts.items():
        if verb in ("place", "pile") and not show_held and state.held_private:
            out.append(Control(ids.show_id(game_id, state.version), tr(lang, "controls.show_held"), "primary"))
            continue
        if verb == "wild":
            continue
        opts = tuple(Option(option_label(state, v, lang, seen), v) for v in values[:MAX_OPTIONS])
        title = tr(lang, f"controls.select.{verb}") if verb in SELECT_TITLES else verb
        out.append(Control(ids.select_id(game_id, state.version, verb), title, options=opts))
    return out


def undo_control(game_id: int, version: int, lang: Language = DEFAULT) -> Control:
    """The Undo button on the acting player's private step message (offered only while undo is allowed)."""
    return Control(ids.undo_id(game_id, version), tr(lang, "controls.undo"), "secondary")


def cell_select(state: GameState, game_id: int, prefix: str, lang: Language = DEFAULT) -> Control | None:
    """The second step of a two-step choice: the cells that complete `prefix`."""
    rest = completions([str(a) for a in legal_actions(state)], prefix)
    if not rest:
        return None
    opts = tuple(Option(n.split()[-1].upper(), n) for n in rest[:MAX_OPTIONS])
    title = tr(lang, "controls.which_cell", choice=choice_words(state, prefix, lang))
    return Control(ids.select_id(game_id, state.version, "cell"), title, options=opts)
