"""Autocomplete: what a command's option may be, as one types it."""

from __future__ import annotations

from typing import Literal

from keystone.app import journal, text
from keystone.app.context import Actor, Context, Where
from keystone.app.seats import _board
from keystone.cards import Habitat
from keystone.engine import GameState, legal_actions, public_view
from keystone.engine.coop import acting_player
from keystone.i18n import tr
from keystone.store import GameRecord

Wordlist = Literal["habitat", "topic", "assignment"]
"""The suggestions that need no game: habitats, rules topics, the journal's assignments."""


class Suggestions(Context):
    """(label, value) pairs for the options of commands."""

    async def state_here(self, where: Where) -> tuple[GameRecord, GameState] | None:
        """The running game in this channel, for autocomplete (None when there is none)."""
        record = await self.store.get_active_game(where.channel_id)
        if record is None or record.status != "active":
            return None
        return await self._playing(record.id)

    async def suggest(self, where: Where, actor: Actor, verb: str, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) pairs for autocomplete: take slots, empty cells, usable skills, habitats."""
        found = await self.state_here(where)
        if found is None:
            return []
        lang = (await self.languages(where, actor)).private
        record, state = found
        seat = record.seat_of(actor.user_id)
        view = public_view(state)
        legal = [str(a) for a in legal_actions(state)] if seat == acting_player(state) else []
        out: list[tuple[str, str]] = []
        if verb == "take":
            slots = sorted({int(n.split()[1]) for n in legal if n.startswith("take ")})
            out = [(text.slot_label(view, s - 1, lang), str(s)) for s in slots]
        elif verb == "cell":
            board_seat = state.current if seat is None else _board(record, seat)
            out = [(c, c) for c in text.empty_cells(view, board_seat)]
        elif verb == "skill":
            usable = [int(n.split()[1]) for n in legal if n.startswith("skill ")]
            out = [(tr(lang, "game.all_exhausted") if n == 0 else text.skill_label(n, lang), str(n)) for n in usable]
        elif verb == "seat":
            out = [(s.name, str(i + 1)) for i, s in enumerate(record.seats)]
        elif verb == "habitat":
            out = text.habitat_choices(sorted({Habitat(n.split()[1]) for n in legal if n.startswith("wild ")}), lang)
        return _matching(out, typed, by_value=False)

    async def suggest_words(self, where: Where, actor: Actor, what: Wordlist, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) pairs that need no game, named in the asker's language: every habitat, every
        rules topic, or every assignment of the journal."""
        lang = (await self.languages(where, actor)).private
        if what == "habitat":
            return _matching(text.habitat_choices(Habitat, lang), typed)
        return _matching(text.topic_choices(lang) if what == "topic" else journal.assignment_choices(lang), typed)


def _matching(pairs: list[tuple[str, str]], typed: str, *, by_value: bool = True) -> list[tuple[str, str]]:
    """The suggestions whose label (or value) holds what was typed, any case, as many as Discord shows."""
    wanted = typed.strip().casefold()
    return [(label[:100], value) for label, value in pairs
            if wanted in label.casefold() or (by_value and wanted in value)][:25]
