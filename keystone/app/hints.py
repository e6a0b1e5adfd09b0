"""`/keystone hint`: on your turn, privately, the move the hard bot would play for you, in words, and
the next two choices with how much less they are estimated to be worth.

What a hint may see: only the asker's own `player_view`. The service takes that view of the game
(its own board, objective and hand; the public Field, boards, discard pile and the number of cards
in the deck) and hands nothing else to `compute_hint`, which runs in the worker pool; the full
state (the deck's order, the others' objectives) never leaves the service. Like the hard bot,
`compute_hint` fills in what the view hides with guesses (`determinize`), ranks the candidates
with the hard bot's own search (`ranked_actions`: the same seed as a bot playing this seat, so its
first choice is the hard bot's move when the search is not cut short), and states the effect of
each choice by applying it to the first guess and reading the asker's seat after it: the card and
cell, the synergy paid and gained, and the rows and columns the score sheet
(`view_scores`, from the asker's view of the guess) scores differently. Those effects depend only
on what the asker sees (their board, the Field and its tokens, their synergy), never on a guessed
card; a skill's outcome depends on hidden cards, so a skill is named and not foretold.

Whether hints are allowed is the host's choice at `/keystone new hints:`; when not chosen, they are
allowed wherever the game would not be rated (solo, co-op, the Field Journal). A game in which
anyone asked for a hint is marked, and is then not rated.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from keystone.app import text
from keystone.app.context import Actor, Context, Where, _refusal, _speaking, guarded
from keystone.app.controls import button_label
from keystone.app.replies import Reply
from keystone.app.seats import _bot_is_due, _seat_or_refuse
from keystone.cards import Habitat
from keystone.engine import GameConfig, GameState, apply, player_view
from keystone.engine.actions import Action, BuyWild, Discard, Move, Place, Research, Take, UseSkill
from keystone.engine.board import cell_name
from keystone.engine.bots.search import DEFAULT_BUDGET, ranked_actions
from keystone.engine.coop import acting_player
from keystone.engine.determinize import determinize
from keystone.engine.results import view_scores
from keystone.engine.state import PlacedCard
from keystone.engine.table import take_cost
from keystone.engine.views import GameView
from keystone.i18n import Language, decimal, tr, trn
from keystone.store import GameRecord
from keystone.store.ratings import RATED_SEATS

HINT_SECONDS = 0.8
"""The search stops this long after the hint was asked for (waiting for a worker included) and
answers with what it has, so that many hints asked at once still come quickly."""
SLICE_FLOOR = 0.05
"""With many hints in flight each searches for its share of the workers' time, but at least this long."""
CHOICES = 3
"""The hard bot's choice and the next two."""


@dataclass(frozen=True, slots=True)
class LineChange:
    """A row or column the score sheet scores differently after a choice."""

    line: int
    """0-3 the rows A-D, 4-7 the columns 1-4 (the score sheet's order)."""
    habitat: Habitat | None
    cards: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate move and its effects on the asker's seat, all read from the engine after it."""

    notation: str
    value: float
    verb: str = ""
    """"take", "wild", "place", "move", "research", "discard", "skill", "endturn", or the notation's first word."""
    """The hard bot's estimate of the move's worth in points (only differences mean something)."""
    card: str | None = None
    """The card it puts on the board (a Field card, a Wild card), if any."""
    slot: int | None = None
    """The Field slot taken or discarded (1 is leftmost)."""
    source: str | None = None
    """The cell a moved card leaves."""
    cell: str | None = None
    skill: int | None = None
    paid: int = 0
    """Synergy paid (onto the Field cards to the right, or for a Wild card)."""
    synergy_before: int = 0
    synergy_after: int = 0
    lines: tuple[LineChange, ...] = ()
    score_before: int = 0
    score_after: int = 0
    """What the asker's board would score now (its score sheet: ecosystems, own objective, synergy)."""

    @property
    def gained(self) -> int:
        """Synergy gained now: the tokens on the card taken and the matching neighbours."""
        return self.synergy_after - self.synergy_before + self.paid


@dataclass(frozen=True, slots=True)
class Hint:
    seat: int
    choices: tuple[Choice, ...]
    words: str = ""


def hint_seed(state: GameState) -> int:
    """The seed the app's bots use for this decision (`keystone.app.bots.bot_action`)."""
    return (state.seed * 1_000_003 + state.version) % 2**31


def compute_hint(
    view: GameView, config: GameConfig, seed: int, stop_at: float, lang: Language, budget: int = DEFAULT_BUDGET,
    slice_seconds: float = math.inf,
) -> Hint:
    """The hint for the seat to act in `view` (its own view): ranked by the hard bot's search until
    `stop_at` (`time.monotonic()`, the same clock in every process) or for `slice_seconds` from when
    the worker starts on it, whichever comes first; each effect read from the engine on a guess of
    what the view hides. Runs in a worker; words in `lang`."""
    stop = min(stop_at, time.monotonic() + slice_seconds)
    ranked = ranked_actions(view, config, seed, budget, deadline=lambda: time.monotonic() > stop)
    guess = determinize(view, seed, config)
    me = view.current
    choices = tuple(choice_of(guess, me, action, value) for action, value in ranked[:CHOICES])
    hint = Hint(me, choices)
    return Hint(me, choices, words=hint_words(hint, lang))


def choice_of(guess: GameState, me: int, action: Action, value: float) -> Choice:
    """What `action` does to seat `me`, read from the engine: applied to a copy (the guess)."""
    after, _ = apply(guess, action)
    before_sheet = view_scores(player_view(guess, me))[me]
    after_sheet = view_scores(player_view(after, me))[me]
    lines = tuple(
        LineChange(i, new.habitat, new.cards, old.points, new.points)
        for i, (old, new) in enumerate(zip((*before_sheet.rows, *before_sheet.columns),
                                           (*after_sheet.rows, *after_sheet.columns), strict=True))
        if old.points != new.points
    )
    board = after.seats[me].board
    common = dict(notation=str(action), verb=str(action).split()[0], value=value,
                  synergy_before=guess.seats[me].synergy, synergy_after=after.seats[me].synergy, lines=lines,
                  score_before=before_sheet.total, score_after=after_sheet.total)
    match action:
        case Take(slot, cell):
            return Choice(**common, card=_card(board[cell]), slot=slot + 1,  # type: ignore[arg-type]
                          cell=cell_name(cell), paid=take_cost(guess, slot))
        case BuyWild(_, cell):
            return Choice(**common, card=_card(board[cell]), cell=cell_name(cell),  # type: ignore[arg-type]
                          paid=guess.config.wild_cost)
        case Place(_, cell):
            return Choice(**common, card=_card(board[cell]), cell=cell_name(cell))  # type: ignore[arg-type]
        case Move(source, target):
            return Choice(**common, card=_card(board[target]), source=cell_name(source),  # type: ignore[arg-type]
                          cell=cell_name(target))
        case Research(cell):
            return Choice(**common, card=_card(board[cell]), cell=cell_name(cell))  # type: ignore[arg-type]
        case Discard(slot):
            taken = guess.field[slot]
            return Choice(**common, card=None if taken is None else taken.card, slot=slot + 1)  # type: ignore[arg-type]
        case UseSkill(token):
            return Choice(**common, skill=token)  # type: ignore[arg-type]
    return Choice(**common)  # type: ignore[arg-type]


def _card(placed: PlacedCard | None) -> str | None:
    return None if placed is None else placed.card


# ---------------------------------------------------------------------- words


def _line_name(line: int, lang: Language) -> str:
    if line < 4:
        return tr(lang, "picture.line.row", row="ABCD"[line])
    return tr(lang, "picture.line.column", column=line - 3)


def _cost(paid: int, lang: Language) -> str:
    return tr(lang, "hint.cost.none") if paid == 0 else trn(lang, "hint.cost", paid)


def move_words(choice: Choice, lang: Language) -> str:
    """The move itself, as a player reads it (a card by its name, a cell as on the board)."""
    card = "" if choice.card is None else text.card_name(choice.card, lang)
    match choice.verb:
        case "take" | "wild" | "place" | "move" | "research" | "discard" if choice.card is not None:
            return tr(lang, f"hint.{choice.verb}", card=card, slot=choice.slot, cell=choice.cell,
                      source=choice.source, cost=_cost(choice.paid, lang))
        case "skill" if choice.skill == 0:
            return tr(lang, "hint.skill.all")
        case "skill" if choice.skill is not None:
            return tr(lang, "hint.skill", skill=text.skill_label(choice.skill, lang))
        case "endturn":
            return tr(lang, "hint.endturn")
    return tr(lang, "hint.other", choice=button_label(choice.notation, lang))


def choice_words(choice: Choice, lang: Language) -> str:
    """One choice as a player reads it: the move, then what it does now and at the end."""
    move = move_words(choice, lang)
    effects = []
    for line in choice.lines:
        name = _line_name(line.line, lang)
        if line.habitat is None or line.after < line.before:
            effects.append(tr(lang, "hint.effect.line_lost", line=name, before=line.before, after=line.after))
        else:
            effects.append(tr(lang, "hint.effect.line", line=name, cards=line.cards, points=line.after,
                              habitat=tr(lang, f"habitat.{line.habitat.value}")))
    if choice.gained > 0 and choice.verb in ("take", "wild", "place", "move"):
        effects.append(trn(lang, "hint.effect.gain", choice.gained))
    if not effects:
        return move
    return tr(lang, "hint.with_effects", move=move, effects=tr(lang, "hint.and").join(effects))


def hint_words(hint: Hint, lang: Language) -> str:
    """The whole hint: the hard bot's choice, the next ones with the estimated difference, and how."""
    best, *rest = hint.choices
    lines = [tr(lang, "hint.best", choice=choice_words(best, lang))]
    for choice in rest:
        less = best.value - choice.value
        if less < 0.05:
            lines.append(tr(lang, "hint.next.same", choice=choice_words(choice, lang)))
        else:
            lines.append(tr(lang, "hint.next", choice=choice_words(choice, lang), points=decimal(lang, less, 1)))
    lines.append(tr(lang, "hint.how"))
    return "\n".join(lines)


# ---------------------------------------------------------------------- the service's concern


def would_be_rated(record: GameRecord) -> bool:
    """Whether the game is of a rated kind (see `keystone.store.ratings.rated_seats`); counted by the
    seats it is set up for, so a lobby not yet full is answered for the game it will be."""
    return record.kind == "competitive" and record.assignment is None and record.config.players in RATED_SEATS


def hints_allowed(record: GameRecord) -> bool:
    """The host's choice; when none was made, allowed wherever the game would not be rated."""
    return record.hints if record.hints is not None else not would_be_rated(record)


class Hints(Context):
    """`/keystone hint`: the hard bot's advice to the player whose turn it is, privately."""

    _hints: dict[tuple[int, int, int, Language], str]

    @guarded
    async def hint(self, where: Where, actor: Actor) -> Reply:
        """The move the hard bot would play for the asker, and the next two choices; only on their turn."""
        asked = time.monotonic()
        record = await self._game_here(where)
        if record.status != "active":
            raise _refusal("game.not_running")
        record, state = await self._playing(record.id)
        seat = _seat_or_refuse(record, actor)
        if not hints_allowed(record):
            raise _refusal("hint.off_by_host" if record.hints is False else "hint.not_allowed")
        if state.phase == "over":
            raise _refusal("game.not_running")
        if _bot_is_due(record, state):
            raise _refusal("hint.bot_turn")
        board = acting_player(state)
        if seat != board:
            raise _refusal("hint.not_your_turn", name=record.seats[board].name)
        lang = _speaking.get().private
        cache = self.__dict__.setdefault("_hints", {})
        key = (record.id, state.version, seat, lang)
        words = cache.get(key)
        if words is None:
            view = player_view(state, state.current)
            self.__dict__["_hinting"] = busy = self.__dict__.get("_hinting", 0) + 1
            workers = self.painter.workers
            share = max(SLICE_FLOOR, HINT_SECONDS * min(1.0, workers / busy))
            try:
                found = await self.painter.draw(compute_hint, view, state.config, hint_seed(state),
                                                asked + HINT_SECONDS, lang, slice_seconds=share)
            finally:
                self.__dict__["_hinting"] -= 1
            words = found.words
            if len(cache) > 256:
                cache.clear()
            cache[key] = words
        if not record.hinted:
            await self.store.mark_hinted(record.id)
            self._cache.pop(record.id, None)
        return Reply(private=words)


__all__ = ["Choice", "Hint", "Hints", "LineChange", "compute_hint", "hint_words", "hints_allowed", "would_be_rated"]
