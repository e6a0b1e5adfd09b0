"""The Field Journal campaign: each person's best result per assignment.

The `Campaign` half of the `Store` (see `keystone.store.store`); a journal game's finishing move
also records it (`rows.upsert_campaign`, called by `moves`).
"""

from __future__ import annotations

from keystone.store import validate
from keystone.store.base import StoreBase
from keystone.store.models import AssignmentBest, CampaignProgress
from keystone.store.rows import upsert_campaign


class Campaign(StoreBase):
    """The campaign table."""

    # ------------------------------------------------------------------ campaign

    async def record_assignment_result(self, user_id: int, assignment: int, stars: int, score: int) -> AssignmentBest:
        """Count one attempt at an assignment and keep the best result (most stars, then score)."""
        user_id = validate.ident(user_id, "user id")
        journal, stars, score = validate.campaign_result(assignment, stars, score)
        async with self._db.transaction() as db:
            await upsert_campaign(db, user_id, journal, stars, score, self._clock())
            rows = await db.fetch(
                "SELECT assignment, stars, best_score, attempts, completed_at FROM campaign "
                "WHERE user_id = ? AND assignment = ?",
                (user_id, journal),
            )
            return AssignmentBest(*rows[0])

    async def campaign_progress(self, user_id: int) -> CampaignProgress:
        rows = await self._rows(
            "SELECT assignment, stars, best_score, attempts, completed_at FROM campaign WHERE user_id = ? "
            "ORDER BY assignment",
            (validate.ident(user_id, "user id"),),
        )
        return CampaignProgress(user_id, {r[0]: AssignmentBest(*r) for r in rows})

    async def started_assignments(self, user_id: int) -> set[int]:
        """The assignments this person has ever begun: sat at when the game started, or has a result for.

        Games are kept after they end, so this counts a start even when it was abandoned or lost
        (a lobby that never started does not count).
        """
        user_id = validate.ident(user_id, "user id")
        rows = await self._rows(
            "SELECT g.assignment FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.assignment IS NOT NULL AND g.snapshot IS NOT NULL "
            "UNION SELECT assignment FROM campaign WHERE user_id = ?",
            (user_id, user_id),
        )
        return {r[0] for r in rows}
