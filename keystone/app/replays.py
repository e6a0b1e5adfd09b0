"""Replays: a finished game rebuilt from its seed and move log, one public frame per finished turn.

The log is played through the engine's history (so `undo` entries take back what they took back
in the game), and every frame is a public view: the replay shows exactly what the channel saw,
plus the revealed objectives on the final scores. Used by `/keystone replay` and by
`python -m keystone replay`; the drawing and encoding are keystone.render's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from keystone import render
from keystone.app.replies import File
from keystone.engine import Event, GameState, IllegalAction, dump_state, event_text, public_view
from keystone.engine.coop import acting_player
from keystone.engine.history import History, is_undo
from keystone.engine.results import final_scores, places
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render.replay import Final, Frame, render_replay


class NotFinished(ValueError):
    """Only a finished game is replayed: a running one still hides cards."""


class Unreplayable(ValueError):
    """The saved moves no longer lead to the saved end (the rules of play changed since)."""


@dataclass(slots=True)
class _Turn:
    """The turn being rebuilt: its state at the start and each action's public events (an undo
    drops the last action's)."""

    start: GameState
    lang: Language
    told: list[list[Event]] = field(default_factory=list)

    def caption(self) -> str:
        return " ".join(event_text(e, self.lang) for events in self.told for e in events if e.kind != "game_over")


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished game rebuilt: its frames, its final scores and the state its log ends in."""

    frames: list[Frame]
    final: Final
    end: GameState


def replay_file(start: GameState, log: Sequence[str], game_id: int | None = None,
                expected: GameState | None = None, lang: Language = DEFAULT) -> File:
    """The animated picture of a finished game, ready to attach, with its alt text.

    With `expected` (the saved end), a log that no longer leads there raises `Unreplayable`; a move
    that cannot be played raises it too. Raises `NotFinished` as `rebuild` does, and
    `ReplayTooLarge` when no thinning makes it fit Discord's limit. Captions and alt text are in `lang`."""
    try:
        replay = rebuild(start, log, lang)
    except IllegalAction as exc:
        raise Unreplayable(exc.sentence(lang)) from exc
    if expected is not None and dump_state(replay.end) != dump_state(expected):
        raise Unreplayable(tr(lang, "replay.saved_end"))
    return picture(replay, game_id, lang)


def picture(replay: Replay, game_id: int | None = None, lang: Language = DEFAULT) -> File:
    said = final_words(replay.final, lang)
    data = render_replay(replay.frames, replay.final, said, lang)
    name = "replay.gif" if game_id is None else f"replay-{game_id}.gif"
    return name, data, tr(lang, "replay.alt", said=said)


def rebuild(start: GameState, log: Sequence[str], lang: Language = DEFAULT) -> Replay:
    """Every frame of a finished game: its start, each finished turn, and the final scores.

    Raises `NotFinished` when the log does not end the game, and the engine's `IllegalAction` when
    a logged move cannot be played (the rules changed since the game was recorded)."""
    history = History(start)
    frames = [Frame(public_view(start), caption=opening(start, lang))]
    turn = _Turn(start, lang)
    for notation in log:
        before = history.state
        if is_undo(notation):
            history.undo()
            if turn.told:
                turn.told.pop()
            continue
        events = history.play(notation)
        turn.told.append([e for e in events if not e.private])
        after = history.state
        if after.turn != before.turn or after.phase == "over":
            frames.append(_turn_frame(turn, after))
            turn = _Turn(after, lang)
    final = history.state
    if final.phase != "over":
        raise NotFinished  # whoever asked says so in their own words (the service, the command line)
    return Replay(frames, Final(public_view(final), tuple(final_scores(final))), final)


def _turn_frame(turn: _Turn, after: GameState) -> Frame:
    board = acting_player_board(turn.start)
    before_view, after_view = public_view(turn.start), public_view(after)
    marked = render.changed_cells(before_view, after_view, board)
    return Frame(after_view, board, marked, turn.caption(), turn.start.turn)


def acting_player_board(state: GameState) -> int:
    """The board the acting seat plays (co-op partners share board 0)."""
    return 0 if state.config.coop else acting_player(state)


def opening(state: GameState, lang: Language = DEFAULT) -> str:
    """The first frame's caption: who plays, under which edition's rules."""
    names = ", ".join(s.name for s in state.seats)
    return tr(lang, f"replay.opening.{state.config.rules}", names=names)


def final_words(final: Final, lang: Language = DEFAULT) -> str:
    """Who won, in one sentence, for the last frame and the alt text."""
    view, sheets = final.view, final.sheets
    totals = [s.total for s in sheets]
    if len(view.seats) == 1:
        return tr(lang, "replay.solo", name=view.seats[0].name, points=trn(lang, "reply.point.count", totals[0]))
    ranks = places(sheets, view.resigned)
    winners = [view.seats[i].name for i, r in enumerate(ranks) if r == 1]
    best = trn(lang, "reply.point.with", max(t for i, t in enumerate(totals) if ranks[i] == 1))
    if len(winners) == 1:
        said = tr(lang, "replay.wins", name=winners[0], points=best)
    else:
        said = tr(lang, "replay.share", names=functools.reduce(
            lambda left, right: tr(lang, "replay.and", left=left, right=right), winners), points=best)
    if view.resigned is not None:
        said = tr(lang, "replay.resigned", name=view.seats[view.resigned].name, said=said)
    scores = ", ".join(f"{s.name} {t}" for s, t in zip(view.seats, totals, strict=True))
    return tr(lang, "replay.scores", said=said, scores=scores)
