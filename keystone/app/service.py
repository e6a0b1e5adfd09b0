"""The game service: the one place that loads a game, checks who may act, applies an action,
saves it, renders pictures and says what to post. Cogs and the terminal mode call it.

It is composed of one class per concern, each in its own module over the shared `Context`
(`keystone.app.context`: the store, the painter, the clock, the per-game locks and the languages of
the request; and `guarded`):

| concern | module | its calls |
|---|---|---|
| opening games | `lobby` | new, why_not_new, lobby |
| the Field Journal | `journal_service` | journal_list, journal_start, journal_status, journal_abandon |
| acting in a game | `turns` | act, choose, show_choices, undo, resign, abandon, play_due_bot_turns |
| moves and what they owe | `moves` | delivered, undelivered (and saving and telling turns) |
| turn clocks, absent players | `timing` | due_work, time_clockless, vote_away, back, set_pace, pause_clock, |
|  |  | resume_clock, notify |
| the daily challenge | `daily_service` | daily, daily_board |
| looking at a game | `views` | board, field, objective, score, game_log |
| records of play | `records` | games, stats, leaderboard, history, replay, suggest_replays |
| words on request | `speech` | set_language, help, rules (and `languages`, in the context) |
| autocomplete | `suggestions` | state_here, suggest, suggest_words |
| the hard bot's advice | `hints` | hint |
| the guided first game | `learn` | learn (and every move of a lesson game) |
| a finished game reviewed | `review` | review |
| forgetting people and servers | `privacy` | ask_forget_me, forget_me, ask_forget_server, forget_server, |
|  |  | server_left, server_back, forget_departed |

A cog or the scheduler may name the one concern it serves; the bot builds this one whole service.
"""

from __future__ import annotations

from keystone.app.context import MOVED_ON, Actor, Where, error_words, event_words, guarded
from keystone.app.daily_service import DailyService
from keystone.app.hints import Hints
from keystone.app.learn import Learn
from keystone.app.lobby import Lobby, Mode
from keystone.app.privacy import Privacy
from keystone.app.records import Records
from keystone.app.review import Reviews
from keystone.app.speech import Speech
from keystone.app.suggestions import Suggestions, Wordlist
from keystone.app.timing import Timing
from keystone.app.views import Views

__all__ = ["MOVED_ON", "Actor", "GameService", "Mode", "Where", "Wordlist", "error_words", "event_words", "guarded"]


class GameService(Learn, Lobby, Privacy, Timing, DailyService, Views, Records, Speech, Suggestions, Hints, Reviews):
    """Every concern of the game service over one shared context: what the bot and the tests build."""
