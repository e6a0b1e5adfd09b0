"""The guided first game: `/learn` in a direct message (`python -m keystone learn` in the terminal).

A lesson is a real solo game (a game row like any other, so it survives restarts and is resumed by
asking again) on the prepared deal of `keystone/data/lesson.json`, marked by its config's `lesson`.
Every move goes through the real engine; what the lesson says after it is computed from the events
the engine made (what was paid, to whom, what was gained), and what it suggests next is the engine's
`keystone.engine.lesson.suggest`, offered as a button. Any other legal move is played, explained and
the lesson adapts. At the end the score sheet is explained line by line. A lesson is never rated
(solo) and its result never counts in stats (the store leaves lesson games out of them).
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.app import ids, pictures, text
from keystone.app.context import Actor, Where, _announce, _refusal, _speaking, event_words, guarded
from keystone.app.lesson_words import explained, fit, missed, move_label, pointers, score_sheet_lines, step_words
from keystone.app.moves import _placed
from keystone.app.replies import Control, Reply
from keystone.app.turns import Turns
from keystone.data.lesson import Lesson, load_lesson
from keystone.engine import GameState, apply, new_game, parse_action, public_view
from keystone.engine.actions import Resign, UseSkill
from keystone.engine.lesson import lesson_config, lesson_game, lessons_shown, suggest, taught
from keystone.engine.results import final_scores
from keystone.i18n import tr
from keystone.i18n.commands import slash
from keystone.store import GameRecord, LoadedGame


class Learn(Turns):
    """The guided first game, over the ordinary turns of a solo game."""

    @guarded
    async def learn(self, where: Where, actor: Actor) -> Reply:
        """Start the lesson in this direct message, or go on with the one running here."""
        lang, private = _speaking.get().public, _speaking.get().private
        if not where.is_dm:
            return Reply.refuse(tr(private, "learn.dm_only", learn=slash(private, "learn")))
        here = await self.store.get_active_game(where.channel_id)
        if here is not None and here.config.lesson is None:
            return Reply.refuse(tr(private, "learn.busy", learn=slash(private, "learn"),
                                   abandon=slash(private, "keystone abandon")))
        if here is not None and here.status == "active":
            async with self._locked(here.id):
                record, state = await self._playing(here.id)
                return await self._lesson_reply(record, state, [_announce("learn.resumed")])
        record = here or await self.store.create_lobby(  # a lesson's lobby is one a failure kept from starting
            guild_id=None, channel_id=where.channel_id, kind="solo", host_id=actor.user_id, host_name=actor.name,
            config=lesson_config(), language=lang,
        )
        async with self._locked(record.id):
            state = lesson_game(record.seats[0].name)
            record = await self.store.start_game(record.id, state)
            self._cache[record.id] = LoadedGame(record, state)
            objective = state.seats[0].objective
            welcome = [_announce("learn.welcome", steps=len(load_lesson().steps))]
            if objective is not None:
                welcome.append(text.objective_text(objective, lang))
            return await self._lesson_reply(record, state, welcome)

    async def _act(self, where: Where, game_id: int, actor: Actor, notation: str, version: int | None) -> Reply:
        """A move in a lesson is played and explained (every other game plays as always). A game's
        config never changes once it is made, so a kept record answers whether it is a lesson
        without asking the database again on every move."""
        cached = self._cache.get(game_id)
        record = cached.record if cached is not None else (await self._playing(game_id))[0]
        if record.config.lesson is None:
            return await super()._act(where, game_id, actor, notation, version)
        turn = await self._turn(where, game_id, actor, version)
        if isinstance(turn, Reply):  # a stale press: show the lesson where it stands
            record, state = await self._playing(game_id)
            return await self._lesson_reply(record, state, [_announce("learn.moved_on")])
        record, state, seat = turn
        action = parse_action(notation)
        if isinstance(action, Resign):
            raise _refusal("game.resign_command")
        done = await self._shown(record, state)
        expected = suggest(state, done)
        new, events = apply(state, action)
        await self._save(record, state, [(seat, str(action), new)])
        lang = _speaking.get().public
        lines = explained(state, new, action, events, expected, done, lang, lambda e: event_words(e, lang))
        return await self._lesson_reply(record, new, lines, marked=sorted(_placed(state, new, 0)),
                                        done=done | taught(state, events))

    async def _shown(self, record: GameRecord, state: GameState) -> set[Lesson]:
        """The lessons this game's moves have shown so far, from its log (nothing else is kept)."""
        start = new_game(record.config, state.seed, [s.name for s in state.seats])
        return lessons_shown(start, await self.store.log(record.id))

    async def _lesson_reply(self, record: GameRecord, state: GameState, lines: list[str],
                            marked: Sequence[int] = (), done: set[Lesson] | None = None) -> Reply:
        """What the lesson says now: `lines`, then the next step with its button and the picture
        pointing at it, or the score sheet explained once the game is over. `done`: the lessons
        shown so far, when the caller knows them (else they are found from the game's log)."""
        lang = _speaking.get().public
        done = await self._shown(record, state) if done is None else done
        suggestion = suggest(state, done)
        view = public_view(state)
        if suggestion is None:
            sheet = final_scores(state)[0]
            rules = slash(lang, "keystone rules")
            lines += [_announce("learn.closing"), *score_sheet_lines(sheet, lang), *missed(done, lang, rules),
                      tr(lang, "learn.finish", new=slash(lang, "keystone new"), rules=rules,
                         hint=slash(lang, "keystone hint"), review=slash(lang, "review"))]
            picture = await self.painter.draw(pictures.scores_file, view, [sheet], lang=lang)
            return Reply(public=fit(lines), files=[picture], ended=True)
        lines.append(step_words(state, suggestion, lang))
        action = suggestion.action
        if isinstance(action, UseSkill) and action.token:  # the tokens are on the table's picture
            picture = await self.painter.draw(pictures.field_file, view, lang=lang, pointed_skill=action.token)
        else:
            picture = await self.painter.draw(pictures.turn_file, view, 0, tuple(marked), lang=lang,
                                              pointers=pointers(action))
        button = Control(ids.act_id(record.id, state.version, str(suggestion.action).lower()),
                         move_label(state, suggestion.action, lang), "primary")
        return Reply(public=fit(lines), files=[picture], controls=[button])
