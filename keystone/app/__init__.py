"""The application service: what cogs and the terminal mode call to play a game."""

from keystone.app import ids
from keystone.app.context import Actor, Where
from keystone.app.replies import Control, File, Option, Reply
from keystone.app.service import GameService

__all__ = ["Actor", "Control", "File", "GameService", "Option", "Reply", "Where", "ids"]
