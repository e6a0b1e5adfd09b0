"""Results and ratings: a person's totals and results, board summaries, ratings and leaderboards.

The `Results` half of the `Store` (see `keystone.store.store`). Results and ratings are written by
the move that finishes a game (`moves`, with `ratings.rate_game`); here they are read.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.store import daily, validate
from keystone.store.base import StoreBase
from keystone.store.models import BoardSummary, PlayerRating, PlayerResult, UserStats
from keystone.store.ratings import user_player
from keystone.store.rows import summary_columns, summary_of

NOT_A_LESSON = "g.config NOT LIKE '%\"lesson\":%'"
"""A game that is no lesson (`/learn`): its config names no lesson (`dump_config` leaves the key out
unless one is set; a JSON string's own quotes are escaped, so no card or name can match)."""


class Results(StoreBase):
    """The results, ratings and rating_changes tables."""

    # ------------------------------------------------------------------ statistics and ratings

    async def user_stats(self, user_id: int) -> UserStats:
        """Totals over the user's finished games that recorded results (lessons left out)."""
        user_id = validate.ident(user_id, "user id")
        rows = await self._rows(
            "SELECT count(*), coalesce(sum(won), 0), max(score), avg(score) FROM results r "
            f"JOIN games g ON g.id = r.game_id WHERE r.user_id = ? AND {NOT_A_LESSON}",
            (user_id,),
        )
        games, wins, best, average = rows[0]
        return UserStats(user_id, games, int(wins), best, None if average is None else float(average))

    async def player_results(self, user_id: int, hidden_days: Sequence[str] = ()) -> list[PlayerResult]:
        """Every result this person has in a finished game, oldest first, with the game's kind;
        daily challenges of `hidden_days` left out (days the asker may still play: no spoilers), and
        lessons (a guided first game never counts in stats)."""
        days = [daily.day(d) for d in hidden_days]
        hidden = (  # PostgreSQL has no empty IN ()
            f"AND r.game_id NOT IN (SELECT game_id FROM daily_games WHERE day IN ({', '.join('?' for _ in days)})) "
            if days else ""
        )
        rows = await self._rows(
            "SELECT r.game_id, r.position, g.kind, g.assignment, r.score, r.place, r.won, r.finished_at, "
            "r.best_line, r.best_line_points, r.habitats FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE r.user_id = ? AND {NOT_A_LESSON} {hidden}ORDER BY r.finished_at, r.game_id",
            (validate.ident(user_id, "user id"), *days),
        )
        return [
            PlayerResult(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], summary_of(r[8], r[9], r[10]))
            for r in rows
        ]

    async def fill_summaries(self, game_id: int, summaries: dict[int, BoardSummary]) -> None:
        """Keep board summaries for results saved before summaries were (position -> summary);
        a result that already has one keeps it."""
        game_id = validate.ident(game_id, "game")
        checked = {validate.integer(p, "seat number", 0, 3): validate.summary(s) for p, s in summaries.items()}
        async with self._db.transaction() as db:
            for position, summary in checked.items():
                await db.execute(
                    "UPDATE results SET best_line = ?, best_line_points = ?, habitats = ? "
                    "WHERE game_id = ? AND position = ? AND best_line IS NULL",
                    (*summary_columns(summary), game_id, position),
                )

    async def user_rating(self, user_id: int) -> PlayerRating | None:
        """This person's rating, or None before their first rated game."""
        rows = await self._rows(
            "SELECT player, mu, sigma, games FROM ratings WHERE player = ?",
            (user_player(validate.ident(user_id, "user id")),),
        )
        return PlayerRating(*rows[0]) if rows else None

    async def server_ratings(self, guild_id: int) -> list[PlayerRating]:
        """The ratings of everyone (bot levels included) who played a rated game in this server's
        channels or threads, best first: highest shown rating, then more games, then identity."""
        rows = await self._rows(
            "SELECT p.player, p.mu, p.sigma, p.games FROM ratings p WHERE p.player IN ("
            "SELECT c.player FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE g.guild_id = ?) "
            "ORDER BY p.mu - 3 * p.sigma DESC, p.games DESC, p.player",
            (validate.ident(guild_id, "server id"),),
        )
        return [PlayerRating(*r) for r in rows]
