"""`/keystone stats` and `/keystone leaderboard`: a player's record and the server's ratings.

Each finished board is summarised once, when its game ends (`board_summary`, kept with the result
in the finishing transaction); results saved before that are summarised here from the game's final
snapshot the first time they are asked for, and kept. Everything else is counted from the results.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from keystone.cards import Habitat
from keystone.engine import GameState
from keystone.engine.bots import LEVELS
from keystone.engine.results import board_cells, final_scores
from keystone.engine.words import counted, habitat_name
from keystone.i18n import DEFAULT, Language, decimal, tr, trn
from keystone.i18n.commands import slash
from keystone.store import (
    ASSIGNMENTS,
    MAX_STARS,
    BoardSummary,
    CampaignProgress,
    PlayerRating,
    PlayerResult,
    Store,
    StoreError,
)

log = logging.getLogger(__name__)

TOP = 10
"""Lines of the leaderboard before the asker's own, when they rank lower."""
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("competitive", ("competitive",)),
    ("solo", ("solo",)),
    ("coop", ("coop",)),
)
"""How results are shown apart (each group's name is `stats.group.<name>`): by the store's game kind
(a Field Journal game is solo or co-op)."""


def say(lang: Language, key: str, /, **params: object) -> str:
    """A statistics sentence in `lang`, naming the commands as a client in `lang` shows them."""
    return tr(lang, key, stats=slash(lang, "keystone stats"), new=slash(lang, "keystone new"), **params)


NO_SERVER, NOBODY_RATED = (say(DEFAULT, f"stats.{key}") for key in ("no_server", "nobody_rated"))
"""Two refusals in English (`say(lang, "stats.no_server")` in any language)."""


def board_summary(state: GameState, board: int) -> BoardSummary:
    """A finished board's best row or column (scored by the engine; the first in reading order on a
    tie) and how many of its cards show each habitat (a card of two habitats counts for both)."""
    sheet = final_scores(state)[board]
    best = max((*sheet.rows, *sheet.columns), key=lambda line: line.points)
    counts = Counter(h.value for cell in board_cells(state.seats[board].board) if cell is not None
                     for h in cell[0].habitats)
    return BoardSummary(best.line, best.points, {h.value: counts[h.value] for h in Habitat})


async def with_summaries(store: Store, results: list[PlayerResult]) -> list[PlayerResult]:
    """The results with every board summarised: those saved without one are summarised from their
    game's final snapshot and kept, so this happens once per old game. A game that cannot be read
    stays without (and is logged); its scores still count."""
    missing = sorted({r.game_id for r in results if r.summary is None})
    found: dict[tuple[int, int], BoardSummary] = {}
    for game_id in missing:
        try:
            loaded = await store.load_game(game_id)
        except StoreError:
            log.exception("could not read finished game %s for statistics", game_id)
            continue
        coop = loaded.record.config.coop
        summaries = {p: board_summary(loaded.state, 0 if coop else p) for p in range(len(loaded.record.seats))}
        await store.fill_summaries(game_id, summaries)
        found.update({(game_id, p): s for p, s in summaries.items()})
    return [r if r.summary is not None else replace(r, summary=found.get((r.game_id, r.position))) for r in results]


@dataclass(frozen=True, slots=True)
class Record:
    """What `/keystone stats` says of one person."""

    name: str
    own: bool
    results: Sequence[PlayerResult]
    progress: CampaignProgress
    rating: PlayerRating | None

    @property
    def empty(self) -> bool:
        return not self.results and not self.progress.assignments and self.rating is None


def group_line(group: str, results: Sequence[PlayerResult], lang: Language = DEFAULT) -> str:
    """"Competitive: 5 games, 2 wins, mean score 61.4, best 78." (wins in solo and co-op are the
    assignments won: a game without an assignment has nobody to beat)."""
    scores = [r.score for r in results]
    said = [trn(lang, "stats.games", len(results))]
    if group == GROUPS[0][0]:
        said.append(trn(lang, "stats.wins", sum(r.won for r in results)))
    said.append(tr(lang, "stats.mean", mean=decimal(lang, sum(scores) / len(scores), 1), best=max(scores)))
    assignments = [r for r in results if r.assignment is not None]
    if assignments:
        said.append(trn(lang, "stats.assignments_won", sum(r.won for r in assignments)))
    return tr(lang, "stats.group", label=tr(lang, f"stats.group.{group}"), said=", ".join(said))


def best_line_sentence(results: Sequence[PlayerResult], lang: Language = DEFAULT) -> str | None:
    """The highest-scoring row or column on any of these boards (the earliest game on a tie)."""
    summarised = [r.summary for r in results if r.summary is not None]
    if not summarised:
        return None
    best = max(summarised, key=lambda s: s.best_line_points)
    if best.best_line_points == 0:
        return None  # no ecosystem yet: nothing to boast of
    return tr(lang, "stats.best_line", points=trn(lang, "reply.point.count", best.best_line_points),
              line=best.best_line)


def favourite_sentence(results: Sequence[PlayerResult], lang: Language = DEFAULT) -> str | None:
    """The habitat with the most cards over all these boards; a tie goes to the first in game
    order (Forest, Desert, Wetland, Arctic)."""
    totals = Counter[str]()
    for r in results:
        if r.summary is not None:
            totals.update(r.summary.habitats)
    if not any(totals.values()):
        return None
    favourite = max(Habitat, key=lambda h: totals[h.value])  # max keeps the first of equals
    return tr(lang, "stats.favourite", habitat=habitat_name(favourite, lang),
              cards=counted("card", totals[favourite.value], lang))


def rating_sentence(rating: PlayerRating | None, lang: Language = DEFAULT) -> str:
    if rating is None:
        return tr(lang, "stats.rating.none")
    return tr(lang, "stats.rating", shown=rating.shown, games=trn(lang, "stats.rated_games", rating.games))


def stats_text(record: Record, lang: Language = DEFAULT) -> str:
    """The whole private answer, or a friendly sentence for someone with nothing to show yet."""
    if record.empty:
        return say(lang, "stats.empty.own") if record.own else say(lang, "stats.empty.other", name=record.name)
    lines = [say(lang, "stats.title.own") if record.own else say(lang, "stats.title.other", name=record.name)]
    for group, kinds in GROUPS:
        mine = [r for r in record.results if r.kind in kinds]
        if mine:
            lines.append(group_line(group, mine, lang))
    said = (best_line_sentence(record.results, lang), favourite_sentence(record.results, lang))
    lines += [s for s in said if s]
    progress = record.progress
    lines.append(tr(lang, "stats.journal", stars=trn(lang, "stats.stars", progress.total_stars),
                    most=ASSIGNMENTS * MAX_STARS, won=len(progress.completed), assignments=ASSIGNMENTS))
    lines.append(rating_sentence(record.rating, lang))
    return "\n".join(lines)


def player_label(rating: PlayerRating, lang: Language = DEFAULT) -> str:
    """A person as a mention (shown as their name, never pinging: the reply allows no mentions),
    a bot by its level."""
    if rating.user_id is not None:
        return f"<@{rating.user_id}>"
    level = rating.bot_level or 0
    if level < len(LEVELS):
        return tr(lang, f"lobby.level.{LEVELS[level]}")
    return tr(lang, "stats.bot_level", level=level)


def leaderboard_text(ratings: Sequence[PlayerRating], asker: int, lang: Language = DEFAULT) -> str:
    """The top of the server's board, and the asker's own line below it when they rank lower."""
    if not ratings:
        return say(lang, "stats.nobody_rated")
    lines = [tr(lang, "stats.leaderboard")]
    for place, rating in enumerate(ratings, start=1):
        if place <= TOP or rating.user_id == asker:
            if place > TOP + 1 and len(lines) == TOP + 1:
                lines.append("...")
            you = tr(lang, "stats.you") if rating.user_id == asker else ""
            lines.append(tr(lang, "stats.leaderboard.line", place=place, who=player_label(rating, lang), you=you,
                            shown=rating.shown, games=trn(lang, "stats.rated_games", rating.games)))
    return "\n".join(lines)
