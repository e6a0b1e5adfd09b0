"""`/review game:` (German `/analyse partie:`): after a game, privately, each of the asker's turns beside the hard
bot's choice with the estimated difference, the three costliest turns in pictures, and the habit
that cost the most.

What is judged and how is `keystone.app.reviewing`'s (in the painter's workers, one decision a job,
so pictures for other games still find a worker between them); the words describing a move are the
hint's (`keystone.app.hints`). A review is computed once per seat and kept in the store as data
without words, so a second request is answered at once, in the asker's language of the day.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from keystone.app import history as history_words
from keystone.app.context import Actor, Context, Where, _refusal, _speaking, guarded
from keystone.app.hints import choice_words, move_words
from keystone.app.pictures import alt_text
from keystone.app.replies import File, Reply
from keystone.app.reviewing import SAMPLES, Decision, Point, Review, from_json, points_of, review_decision, to_json
from keystone.engine import GameState, IllegalAction, apply, new_game, public_view
from keystone.engine.actions import parse_action
from keystone.engine.board import parse_cell
from keystone.engine.bots import DEFAULT_BUDGET
from keystone.engine.history import History
from keystone.i18n import Language, decimal, tr, trn
from keystone.render.review import render_review_turn
from keystone.store import GameNotFound, GameRecord

COSTLY = 3
"""The turns shown in pictures: those that cost the most."""
CLOSE = 0.05
"""A difference smaller than this (in points) is "about as good"."""
HABIT_FLOOR = 0.5
"""A habit costing less than this in all is not worth a sentence; the review says so instead."""
MESSAGE = 2000
"""Discord's limit on a message's length."""


# ---------------------------------------------------------------------- the costliest habit


@dataclass(frozen=True, slots=True)
class Habit:
    """The kind of difference from the hard bot that cost the most, summed over the turns it happened."""

    kind: str
    """wild_bought, wild_skipped, skill_used, skill_unused, cell, card or other."""
    count: int
    points: float
    paid: int
    bot_paid: int
    gained: int
    bot_gained: int


def kind_of(decision: Decision) -> str:
    """How the player's move differs from the hard bot's."""
    mine, bots = decision.actual.verb, decision.best.verb
    if mine == "wild" and bots != "wild":
        return "wild_bought"
    if bots == "wild" and mine != "wild":
        return "wild_skipped"
    if mine == "skill" and bots != "skill":
        return "skill_used"
    if bots == "skill" and mine != "skill":
        return "skill_unused"
    if mine == bots and mine in ("take", "wild"):
        return "cell" if decision.actual.card == decision.best.card else "card"
    return "other"


def habit(review: Review) -> Habit | None:
    """The costliest kind of difference, by the summed estimated cost of its turns (None when no kind
    cost `HABIT_FLOOR` points)."""
    kinds: dict[str, list[Decision]] = {}
    for decision in review.decisions:
        if not decision.same and decision.difference > 0:
            kinds.setdefault(kind_of(decision), []).append(decision)
    if not kinds:
        return None
    kind, turns = max(kinds.items(), key=lambda item: sum(d.difference for d in item[1]))
    points = sum(d.difference for d in turns)
    if points < HABIT_FLOOR:
        return None
    return Habit(kind, len(turns), points, sum(d.actual.paid for d in turns), sum(d.best.paid for d in turns),
                 sum(d.actual.gained for d in turns), sum(d.best.gained for d in turns))


def habit_words(review: Review, lang: Language) -> str:
    """The one sentence on the costliest habit, with the numbers that show it."""
    found = habit(review)
    if found is None:
        return tr(lang, "review.habit.none")
    return trn(lang, f"review.habit.{found.kind}", found.count, points=decimal(lang, found.points, 1),
               wilds=review.wilds, wild_paid=review.wild_paid, wild_scored=review.wild_scored, paid=found.paid,
               bot_paid=found.bot_paid, gained=found.gained, bot_gained=found.bot_gained)


# ---------------------------------------------------------------------- words


def costly(review: Review) -> list[Decision]:
    """The turns that cost the most (at most `COSTLY`, each estimated worse than the hard bot's move)."""
    worse = [d for d in review.decisions if not d.same and d.difference >= CLOSE]
    return sorted(worse, key=lambda d: -d.difference)[:COSTLY]


def difference_words(decision: Decision, lang: Language) -> str:
    if abs(decision.difference) < CLOSE:
        return tr(lang, "review.diff.same")
    points = decimal(lang, abs(decision.difference), 1)
    return tr(lang, "review.diff.better" if decision.difference > 0 else "review.diff.yours", points=points)


def turn_line(decision: Decision, lang: Language, picture: int | None, *, mine_only: bool = False) -> str:
    """One decision in the list: the player's move, the hard bot's (unless `mine_only`: a line of
    its own says it), and the difference."""
    name = tr(lang, "review.round", round=decision.round)
    if picture is not None:
        name = tr(lang, "review.round.picture", name=name, picture=picture)
    if mine_only and not decision.same:
        return tr(lang, "review.turn.mine", name=name, move=move_words(decision.actual, lang),
                  difference=difference_words(decision, lang))
    if decision.same:
        return tr(lang, "review.turn.same", name=name, move=move_words(decision.actual, lang))
    return tr(lang, "review.turn", name=name, move=move_words(decision.actual, lang),
              best=move_words(decision.best, lang), difference=difference_words(decision, lang))


def review_words(review: Review, number: int, lang: Language) -> tuple[str, list[str]]:
    """The review as private messages: first the summary with the costliest turns (the ones
    pictured), the habit and how it was estimated; then every decision in full, in order, in as
    many messages as Discord's limit needs."""
    same = sum(d.same for d in review.decisions)
    pictured = {id(d): i + 1 for i, d in enumerate(costly(review))}
    title = trn(lang, "review.title", len(review.decisions), number=number, same=same)
    lost = sum(max(0.0, d.difference) for d in review.decisions)
    summary = tr(lang, "review.lost", points=decimal(lang, lost, 1))
    how = tr(lang, "review.how", samples=review.samples)
    worst = [line for d in costly(review) for line in (
        turn_line(d, lang, pictured[id(d)], mine_only=True),
        tr(lang, "review.better", picture=pictured[id(d)], choice=choice_words(d.best, lang)))]
    first = "\n".join([title, summary, *worst, habit_words(review, lang), how])
    if len(first) > MESSAGE:  # long names in every line: the costly turns as in the full list instead
        worst = [turn_line(d, lang, pictured[id(d)]) for d in costly(review)]
        first = "\n".join([title, summary, *worst, habit_words(review, lang), how])[:MESSAGE]
    lines = [turn_line(d, lang, pictured.get(id(d))) for d in review.decisions]
    return first, pages([tr(lang, "review.all", number=number), *lines])


def pages(lines: Sequence[str], limit: int = MESSAGE) -> list[str]:
    """Lines gathered into messages of at most `limit` characters, never splitting a line (one
    longer than the limit is cut)."""
    out: list[str] = []
    for line in lines:
        line = line[:limit]
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


# ---------------------------------------------------------------------- pictures (in a worker)


@dataclass(frozen=True, slots=True)
class Shown:
    """A costly turn to draw: which state, both moves' notations, and its words in the reader's language."""

    version: int
    actual: str
    best: str
    heading: str
    moves: tuple[tuple[str, str], ...]
    alt: str


def _cell(notation: str) -> int | None:
    """The board cell a take or a Wild card goes to, from its notation ("take 3 B2", "wild desert C1")."""
    words = notation.split()
    return parse_cell(words[-1]) if words[0] in ("take", "wild") else None


def _skill(notation: str) -> int | None:
    """The skill token a move uses ("skill 6"; 0 resolves every exhausted one), None for other moves."""
    words = notation.split()
    return int(words[1]) if words[0] == "skill" and len(words) == 2 and words[1].isdigit() else None


def review_pictures(start: GameState, log: Sequence[str], shown: Sequence[Shown], lang: Language) -> list[File]:
    """The picture of each costly turn (runs in a worker): the game rebuilt from its log to each
    turn's state, the hard bot's move applied to show its card where it would have gone."""
    wanted = {s.version: s for s in shown}
    states: dict[int, GameState] = {}
    history = History(start)
    for notation in log:
        if history.state.version in wanted:
            states[history.state.version] = history.state
        history.play(notation)
    files: list[File] = []
    for i, turn in enumerate(shown, start=1):
        state = states[turn.version]
        board = 0 if state.config.coop else state.current
        after, _ = apply(state, parse_action(turn.best))
        slot = turn.best.split()[1] if turn.best.startswith("take ") else None
        data = render_review_turn(public_view(state), public_view(after).seats[board], turn.heading, turn.moves,
                                  better=_cell(turn.best), chosen=_cell(turn.actual),
                                  slot=None if slot is None else int(slot) - 1, lang=lang,
                                  skill=_skill(turn.best), chosen_skill=_skill(turn.actual))
        files.append((f"review-{i}.png", data, alt_text(turn.alt)))
    return files


def shown_turns(review: Review, lang: Language) -> list[Shown]:
    """The costly turns with their words, for `review_pictures`."""
    out: list[Shown] = []
    for i, decision in enumerate(costly(review), start=1):
        heading = tr(lang, "review.picture.heading", picture=i, round=decision.round,
                     points=decimal(lang, decision.difference, 1))
        mine, best = move_words(decision.actual, lang), move_words(decision.best, lang)
        moves = ((tr(lang, "review.picture.you"), mine), (tr(lang, "review.picture.bot"), best))
        alt = tr(lang, "review.picture.alt", heading=heading, best=best, mine=mine)
        out.append(Shown(decision.version, decision.actual.notation, decision.best.notation, heading, moves, alt))
    return out


# ---------------------------------------------------------------------- the service's concern


class Reviews(Context):
    """`/review`: a finished game's turns of the asker's, judged beside the hard bot's."""

    review_samples: int = SAMPLES
    """Guesses each move is played out on (tests ask for fewer)."""
    review_budget: int = DEFAULT_BUDGET
    """The hard bot's search budget, as when it plays."""

    @guarded
    async def review(self, where: Where, actor: Actor, game: str) -> Reply:
        """Privately, to a seat of a finished game: its review (computed once, then kept)."""
        lang = _speaking.get().private
        number = history_words.game_number(game)
        if number is None:
            raise IllegalAction(history_words.say(lang, "history.not_a_number"))
        try:
            record: GameRecord | None = await self.store.get_game(number)
        except GameNotFound:
            record = None
        seat = None if record is None else record.seat_of(actor.user_id)
        if record is None or seat is None:  # one answer: an outsider learns nothing of the game
            raise _refusal("review.not_yours", number=number)
        if record.status in ("lobby", "active"):
            raise _refusal("review.not_finished", number=number)
        if record.status != "finished":
            raise _refusal("review.abandoned", number=number)
        start, log = await self._start_and_log(record)
        review = await self._review_of(record, seat, start, log)
        if not review.decisions:
            raise _refusal("review.no_turns", number=number)
        files = await self.painter.draw(review_pictures, start, log, shown_turns(review, lang), lang)
        first, rest = review_words(review, record.id, lang)
        return Reply(private=first, private_files=files, private_more=rest)

    async def _start_and_log(self, record: GameRecord) -> tuple[GameState, list[str]]:
        end = (await self.store.load_game(record.id)).state
        return new_game(end.config, end.seed, [s.name for s in end.seats]), await self.store.log(record.id)

    async def _review_of(self, record: GameRecord, seat: int, start: GameState, log: list[str]) -> Review:
        """The kept review, or a new one computed and kept (two asking at once share one computation)."""
        kept = await self.store.review(record.id, seat)
        review = None if kept is None else from_json(kept)
        if review is not None:
            return review
        running: dict[tuple[int, int], asyncio.Future[Review]] = self.__dict__.setdefault("_reviewing", {})
        key = (record.id, seat)
        if key not in running:
            running[key] = asyncio.ensure_future(self._compute(record, seat, start, log))
            running[key].add_done_callback(lambda _: running.pop(key, None))
        return await asyncio.shield(running[key])

    async def _compute(self, record: GameRecord, seat: int, start: GameState, log: list[str]) -> Review:
        """Judge every decision, one job each, leaving a worker free for other pictures; keep the result."""
        points, facts, seconds = await self.painter.draw(points_of, start, log, seat)
        workers = self.painter.workers
        slots: asyncio.Semaphore = self.__dict__.setdefault("_review_slots", asyncio.Semaphore(max(1, workers - 1)))

        async def judge(point: Point) -> tuple[Decision, float]:
            async with slots:
                return await self.painter.draw(review_decision, point, self.review_samples, self.review_budget)

        judged = await asyncio.gather(*(judge(p) for p in points))
        seconds += sum(s for _, s in judged)
        review = Review(seat, tuple(d for d, _ in judged), self.review_samples, seconds, **facts)
        await self.store.keep_review(record.id, seat, to_json(review))
        return review


__all__ = ["Habit", "Reviews", "costly", "habit", "kind_of", "review_pictures", "review_words", "shown_turns"]
