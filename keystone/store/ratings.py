"""Ratings: openskill's Plackett-Luce model, updated inside the transaction that finishes a game.

Only competitive games of 2 to 4 seats outside the Field Journal, in which nobody asked for a hint
(`games.hinted`), are rated. Every person is one
player ('user:<id>') and every bot level is one too ('bot:<level>'), so people can measure
themselves against the bots. Updating in the finishing transaction, with one `rating_changes`
row per seat keyed by game and seat, means a crash can neither lose a game nor count it twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from keystone.store.backend import Connection
from keystone.store.models import SeatResult

MODEL = PlackettLuce()
"""Default parameters: a newcomer is mu 25, sigma 25/3. Deterministic: no randomness anywhere."""
RATED_SEATS = range(2, 5)

Skill = tuple[float, float]
"""(mu, sigma)."""


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def bot_player(level: int) -> str:
    return f"bot:{level}"


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """Who a seat's result is rated for, and its place for the rating (1 is first; ties share)."""

    position: int
    player: str
    place: int


def rating_places(places: Sequence[int], resigned: set[int]) -> list[int]:
    """Places for rating: seats whose person resigned (and whom a bot replaced) share last place;
    the others keep their order among themselves, ties sharing a place."""
    kept = [p for i, p in enumerate(places) if i not in resigned]
    last = len(kept) + 1
    return [last if i in resigned else 1 + sum(other < p for other in kept) for i, p in enumerate(places)]


def updated(before: Mapping[str, Skill], seats: Sequence[RatedSeat]) -> list[Skill]:
    """Each seat's new (mu, sigma) from one game; a player missing from `before` starts fresh."""
    teams = [[MODEL.rating(*before[s.player]) if s.player in before else MODEL.rating()] for s in seats]
    rated = MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    return [(team[0].mu, team[0].sigma) for team in rated]


def merged(seats: Sequence[RatedSeat], after: Sequence[Skill]) -> dict[str, Skill]:
    """One new rating per player: a bot level holding several seats takes the mean of theirs."""
    gathered: dict[str, list[Skill]] = defaultdict(list)
    for seat, skill in zip(seats, after, strict=True):
        gathered[seat.player].append(skill)
    return {p: (sum(m for m, _ in s) / len(s), sum(g for _, g in s) / len(s)) for p, s in gathered.items()}


async def rated_seats(db: Connection, game_id: int, results: Sequence[SeatResult]) -> list[RatedSeat]:
    """The seats to rate for a game that has just finished, or none when it is not a rated game."""
    rows = await db.fetch(
        "SELECT g.kind, g.assignment, s.position, s.user_id, s.bot_level, r.user_id, g.hinted "
        "FROM games g JOIN seats s ON s.game_id = g.id "
        "LEFT JOIN resignations r ON r.game_id = g.id AND r.position = s.position "
        "WHERE g.id = ? ORDER BY s.position",
        (game_id,),
    )
    if not rows or rows[0][0] != "competitive" or rows[0][1] is not None or len(rows) not in RATED_SEATS or rows[0][6]:
        return []
    resigned = {row[2] for row in rows if row[5] is not None}
    places = rating_places([r.place for r in sorted(results, key=lambda r: r.position)], resigned)
    seats = []
    for (_, _, position, user_id, bot_level, resigner, _), place in zip(rows, places, strict=True):
        person = resigner if resigner is not None else user_id
        player = user_player(person) if person is not None else bot_player(bot_level)
        seats.append(RatedSeat(position, player, place))
    return seats if len({s.player for s in seats}) > 1 else []


async def rate_game(db: Connection, game_id: int, results: Sequence[SeatResult], now: float) -> None:
    """Update the ratings of a finished game's players (inside the caller's transaction)."""
    seats = await rated_seats(db, game_id, results)
    if not seats:
        return
    players = sorted({s.player for s in seats})
    marks = ", ".join("?" * len(players))
    rows = await db.fetch(f"SELECT player, mu, sigma FROM ratings WHERE player IN ({marks})", players)
    before: dict[str, Skill] = {str(r[0]): (float(r[1]), float(r[2])) for r in rows}
    after = updated(before, seats)
    fresh = MODEL.rating()
    for seat, (mu, sigma) in zip(seats, after, strict=True):
        old_mu, old_sigma = before.get(seat.player, (fresh.mu, fresh.sigma))
        await db.execute(
            "INSERT INTO rating_changes (game_id, position, player, place, mu_before, sigma_before, mu_after, "
            "sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seat.position, seat.player, seat.place, old_mu, old_sigma, mu, sigma),
        )
    for player, (mu, sigma) in merged(seats, after).items():
        await db.execute(
            "INSERT INTO ratings (player, mu, sigma, games, updated_at) VALUES (?, ?, ?, 1, ?) "
            "ON CONFLICT (player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
            "updated_at = excluded.updated_at",
            (player, mu, sigma, now),
        )
