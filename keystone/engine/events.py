"""Events: what an applied action changed, as a message key and plain parameters (see
`keystone.engine.messages`), said in English as `text` and in any language by `event_text`."""

from __future__ import annotations

from dataclasses import dataclass, field

from keystone.engine.messages import Params, say
from keystone.i18n import DEFAULT, Language


@dataclass(frozen=True, slots=True)
class Event:
    """`private` events mention hidden cards and are shown only to the acting seat. An event built
    from a `key` fills `text` in English itself; one built from a `text` alone says only that."""

    kind: str
    seat: int
    text: str = ""
    private: bool = False
    key: str = ""
    params: Params = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.key and not self.text:
            object.__setattr__(self, "text", say(self.key, self.params))


def event_text(event: Event, lang: Language = DEFAULT) -> str:
    """What `event` tells, in `lang`."""
    return say(event.key, event.params, lang) if event.key else event.text
