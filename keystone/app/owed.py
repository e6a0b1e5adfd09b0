"""What the bot owes Discord, as the outbox keeps it: a `Reply`'s public message (or a direct
message's text) turned into JSON and back, pictures and controls included, so that a message
written with its move can be posted after a crash exactly as it would have been at once."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from keystone.app.replies import Control, Option, Reply
from keystone.store import Outgoing

_answering: ContextVar[str | None] = ContextVar("answering", default=None)
"""'<application id>/<token>' of the interaction the running service call answers (None: the scheduler)."""


@contextmanager
def answering(application_id: int, token: str) -> Iterator[None]:
    """Service calls started within answer this interaction: the first message they owe may become
    its original answer, which the deliverer can read back after a crash instead of posting twice.
    The token is a credential for 15 minutes: it is kept with that message only, and never logged."""
    mark = _answering.set(f"{application_id}/{token}")
    try:
        yield
    finally:
        _answering.reset(mark)


def answered() -> str | None:
    """The interaction the running service call answers, as `answering` set it."""
    return _answering.get()


def body_of(reply: Reply, *, direct: bool = False) -> str:
    """The JSON the outbox keeps for `reply`'s public part (with `direct`, its private text for a DM)."""
    if direct:
        return json.dumps({"text": reply.private or ""}, ensure_ascii=False)
    return json.dumps({
        "text": reply.public or "",
        "files": [[name, base64.b64encode(data).decode("ascii"), words] for name, data, words in reply.files],
        "controls": [_control(c) for c in reply.controls],
        "mention": reply.mention,
        "ended": reply.ended,
        "farewell": reply.farewell,
    }, ensure_ascii=False)


def reply_of(body: str) -> Reply:
    """The Reply to post for an outbox body (a DM's text comes back as `private`)."""
    data: dict[str, Any] = json.loads(body)
    if "files" not in data:
        return Reply(private=data["text"])
    return Reply(
        public=data["text"],
        files=[(name, base64.b64decode(encoded), words) for name, encoded, words in data["files"]],
        controls=[Control(c["id"], c["label"], c["style"], tuple(Option(*o) for o in c["options"]))
                  for c in data["controls"]],
        mention=[int(u) for u in data["mention"]], ended=bool(data["ended"]), farewell=data["farewell"],
    )


def _control(control: Control) -> dict[str, Any]:
    return {"id": control.custom_id, "label": control.label, "style": control.style,
            "options": [[o.label, o.value, o.description] for o in control.options]}


def new_key() -> str:
    """A fresh name for an owed message: unique, and short enough to be Discord's nonce (25 at most)."""
    return "ks" + secrets.token_hex(10)


def to_channel(reply: Reply, *, game_id: int, guild_id: int | None, channel_id: int, held: bool,
               for_turn: int | None = None, answer: str | None = None) -> Outgoing:
    """`reply`'s public message owed to a game's channel (the reply learns its key); `held` while an
    interaction (`answer`, when it may be its original answer) answers with it."""
    reply.owed_key = new_key()
    return Outgoing(reply.owed_key, body_of(reply), game_id=game_id, guild_id=guild_id, channel_id=channel_id,
                    held=held, for_turn=for_turn, answer=answer if held else None)


def to_person(text: str, *, game_id: int, user_id: int, for_turn: int | None = None) -> Outgoing:
    """A direct message owed to a person about a game."""
    return Outgoing(new_key(), body_of(Reply(private=text), direct=True), game_id=game_id, user_id=user_id,
                    for_turn=for_turn)
