"""Looking at a running game, privately: any seat's board, the Field, one's objective, the scores
so far and the log of actions."""

from __future__ import annotations

from keystone.app import pictures, text
from keystone.app.context import Actor, Context, Where, _say, _speaking, guarded
from keystone.app.replies import Reply
from keystone.app.seats import _board, _find_seat, _seat_or_refuse
from keystone.engine import player_view, public_view
from keystone.engine.results import view_scores


class Views(Context):
    """What a running game shows to whoever asks."""

    @guarded
    async def board(self, where: Where, actor: Actor, seat: str | None = None) -> Reply:
        """Any seat's board (bots' included), privately; one's own board comes with the objective."""
        record, state = await self._playing_here(where)
        board = _board(record, _find_seat(record, state, actor, seat))
        own = record.seat_of(actor.user_id)
        mine = own is not None and _board(record, own) == board
        view = player_view(state, board) if mine else public_view(state)
        files = [await self.painter.draw(pictures.board_file, view, board, lang=_speaking.get().private)]
        if mine and view.seats[board].objective is not None:
            files.append(await self.painter.draw(pictures.objective_file, view, board, lang=_speaking.get().private))
        return Reply(private="\n".join(text.board_lines(view, board, _speaking.get().private)), private_files=files)

    @guarded
    async def field(self, where: Where, actor: Actor) -> Reply:
        _, state = await self._playing_here(where)
        view = public_view(state)
        picture = await self.painter.draw(pictures.field_file, view, lang=_speaking.get().private)
        return Reply(private="\n".join(text.field_lines(view, lang=_speaking.get().private)), private_files=[picture])

    @guarded
    async def objective(self, where: Where, actor: Actor) -> Reply:
        record, state = await self._playing_here(where)
        board = _board(record, _seat_or_refuse(record, actor))
        view = player_view(state, board)
        number = view.seats[board].objective
        if number is None:
            return Reply.refuse(_say("game.no_objectives"))
        picture = await self.painter.draw(pictures.objective_file, view, board, lang=_speaking.get().private)
        return Reply(private=text.objective_text(number, _speaking.get().private), private_files=[picture])

    @guarded
    async def score(self, where: Where, actor: Actor) -> Reply:
        _, state = await self._playing_here(where)
        view = public_view(state)
        lines = text.score_lines(view, view_scores(view), _speaking.get().private)
        return Reply(private="\n".join([_say("game.scores_so_far"), *lines]))

    @guarded
    async def game_log(self, where: Where, actor: Actor) -> Reply:
        record = await self._game_here(where)
        entries = await self.store.log_entries(record.id)
        if not entries:
            return Reply(private=_say("game.no_actions"))
        names = [s.name for s in record.seats]
        shown = [f"{e.version}. {names[e.seat]}: `{e.notation}`" for e in entries[-30:]]
        return Reply(private="\n".join(shown))
