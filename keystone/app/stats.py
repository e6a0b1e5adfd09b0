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
from keystone.engine.words import HABITAT_NAMES, plural
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
    ("Competitive", ("competitive",)),
    ("Solo and Field Journal", ("solo",)),
    ("Co-op", ("coop",)),
)
"""How results are shown apart: by the store's game kind (a Field Journal game is solo or co-op)."""
NO_SERVER = (
    "A leaderboard belongs to a server; ask in one of its channels. "
    "`/keystone stats` shows your own rating anywhere."
)
NOBODY_RATED = (
    "Nobody has finished a rated game in this server yet: every competitive game of 2 to 4 seats "
    "counts, bots included."
)


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


def group_line(label: str, results: Sequence[PlayerResult]) -> str:
    """"Competitive: 5 games, 2 wins, mean score 61.4, best 78." (wins in solo and co-op are the
    assignments won: a game without an assignment has nobody to beat)."""
    scores = [r.score for r in results]
    said = [plural(len(results), "game")]
    if label == GROUPS[0][0]:
        said.append(plural(sum(r.won for r in results), "win"))
    said.append(f"mean score {sum(scores) / len(scores):.1f}, best {max(scores)}")
    assignments = [r for r in results if r.assignment is not None]
    if assignments:
        said.append(f"{plural(sum(r.won for r in assignments), 'assignment')} won")
    return f"{label}: {', '.join(said)}."


def best_line_sentence(results: Sequence[PlayerResult]) -> str | None:
    """The highest-scoring row or column on any of these boards (the earliest game on a tie)."""
    summarised = [r.summary for r in results if r.summary is not None]
    if not summarised:
        return None
    best = max(summarised, key=lambda s: s.best_line_points)
    if best.best_line_points == 0:
        return None  # no ecosystem yet: nothing to boast of
    return f"Best row or column: {plural(best.best_line_points, 'point')} ({best.best_line})."


def favourite_sentence(results: Sequence[PlayerResult]) -> str | None:
    """The habitat with the most cards over all these boards; a tie goes to the first in game
    order (Forest, Desert, Wetland, Arctic)."""
    totals = Counter[str]()
    for r in results:
        if r.summary is not None:
            totals.update(r.summary.habitats)
    if not any(totals.values()):
        return None
    favourite = max(Habitat, key=lambda h: totals[h.value])  # max keeps the first of equals
    return f"Favourite habitat: {HABITAT_NAMES[favourite]} ({plural(totals[favourite.value], 'card')} placed)."


def rating_sentence(rating: PlayerRating | None) -> str:
    if rating is None:
        return "Rating: none yet (competitive games of 2 to 4 seats are rated, against bots too)."
    return f"Rating: {rating.shown} after {plural(rating.games, 'rated game')}."


def stats_text(record: Record) -> str:
    """The whole private answer, or a friendly sentence for someone with nothing to show yet."""
    if record.empty:
        if record.own:
            return ("You have not finished a game yet. Start one with `/keystone new` here, "
                    "or in a direct message with me; your record will show up here.")
        return f"{record.name} has not finished a game yet, so there is nothing to show."
    lines = ["**Your Keystone record**" if record.own else f"**{record.name}'s Keystone record**"]
    for label, kinds in GROUPS:
        mine = [r for r in record.results if r.kind in kinds]
        if mine:
            lines.append(group_line(label, mine))
    lines += [s for s in (best_line_sentence(record.results), favourite_sentence(record.results)) if s]
    progress = record.progress
    lines.append(f"Field Journal: {plural(progress.total_stars, 'star')} of {ASSIGNMENTS * MAX_STARS}, "
                 f"{len(progress.completed)} of {ASSIGNMENTS} assignments won.")
    lines.append(rating_sentence(record.rating))
    return "\n".join(lines)


def player_label(rating: PlayerRating) -> str:
    """A person as a mention (shown as their name, never pinging: the reply allows no mentions),
    a bot by its level."""
    if rating.user_id is not None:
        return f"<@{rating.user_id}>"
    level = rating.bot_level or 0
    return f"{LEVELS[level].capitalize()} bot" if level < len(LEVELS) else f"Bot of level {level}"


def leaderboard_text(ratings: Sequence[PlayerRating], asker: int) -> str:
    """The top of the server's board, and the asker's own line below it when they rank lower."""
    if not ratings:
        return NOBODY_RATED
    lines = ["**Leaderboard** (rated games in this server's channels; bots are rated by level)"]
    for place, rating in enumerate(ratings, start=1):
        if place <= TOP or rating.user_id == asker:
            if place > TOP + 1 and len(lines) == TOP + 1:
                lines.append("...")
            you = " (you)" if rating.user_id == asker else ""
            lines.append(f"{place}. {player_label(rating)}{you}: {rating.shown} "
                         f"({plural(rating.games, 'rated game')})")
    return "\n".join(lines)
