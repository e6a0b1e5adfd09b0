r"""Make the fake Discord fail the way Discord does: refusals, server errors, rate limits, lost connections.

    fake.faults.add("429")                      # the bot's next channel message is rate limited once
    fake.faults.add("drop-after", times=2)      # the next two are created, but their answers are lost
    fake.faults.add("503", method="GET", path=r"/channels/\d+/messages/\d+")
    fake.faults.random(0.2, kinds=("500", "drop"), seed=7)
    assert [f.kind for f in fake.faults.injected] == [...]

Rules are checked in the order they were added; the first that matches a request (method and
path, the path as after /api/v10, matched whole) and fires decides the fault. `FakeDiscord._rest`
asks `take()` before a route's handler runs, answers with `response()` or drops the connection,
and for "drop-after" runs the handler first.
"""

from __future__ import annotations

import hashlib
import json
import math
import random as _random
import re
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from aiohttp import web

KINDS = ("403", "404", "500", "502", "503", "429", "drop", "drop-after")
"""Every kind `Faults.add` and `Faults.random` accept."""
DROPS = ("drop", "drop-after")
MESSAGES_PATH = r"/channels/\d+/messages"

# What Discord and the proxies in front of it answer. 500s come from the API as JSON; a 502 is
# Cloudflare's HTML page; a 503 is the load balancer's plain text.
SERVER_ERRORS: dict[str, tuple[int, str, bytes]] = {
    "500": (500, "application/json", json.dumps({"message": "500: Internal Server Error", "code": 0}).encode()),
    "502": (502, "text/html", b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
                              b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
                              b"</body>\r\n</html>\r\n"),
    "503": (503, "text/plain", b"upstream connect error or disconnect/reset before headers. "
                               b"reset reason: connection termination"),
}
REFUSALS: dict[str, tuple[int, str, int]] = {
    "403": (403, "Missing Permissions", 50013),
    "404": (404, "Unknown Channel", 10003),
}


class Injected(NamedTuple):
    """One fault the fake injected: its kind and the request it hit (path as after /api/v10)."""

    kind: str
    method: str
    path: str


@dataclass(eq=False)
class _Rule:
    kinds: tuple[str, ...]
    method: str | None
    path: re.Pattern[str]
    remaining: int | None  # None: no end
    rate: float = 1.0
    rng: _random.Random = field(default_factory=lambda: _random.Random(0))

    def matches(self, method: str, path: str) -> bool:
        return ((self.remaining is None or self.remaining > 0)
                and (self.method is None or self.method == method) and self.path.fullmatch(path) is not None)


def _check_kinds(kinds: tuple[str, ...]) -> None:
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ValueError(f"unknown fault kind(s) {unknown or kinds!r}; known: {KINDS}")


class Faults:
    """The fault injector of one `FakeDiscord` (`fake.faults`)."""

    def __init__(self, *, retry_after: float = 0.2) -> None:
        self.retry_after = retry_after
        """Seconds a "429" asks the client to wait (its body's `retry_after`, which discord.py sleeps)."""
        self.injected: list[Injected] = []
        """Every fault injected so far, in order."""
        self._rules: list[_Rule] = []

    def add(self, kind: str, *, method: str | None = "POST", path: str = MESSAGES_PATH, times: int = 1) -> None:
        """Fail the next `times` requests matching `method` (None: any) and the regex `path` with `kind`."""
        _check_kinds((kind,))
        if times < 1:
            raise ValueError("times must be at least 1")
        self._rules.append(_Rule((kind,), method, re.compile(path), times))

    def random(self, rate: float, *, kinds: tuple[str, ...] = ("500", "503", "429", "drop", "drop-after"),
               seed: int = 0, method: str | None = "POST", path: str = MESSAGES_PATH) -> None:
        """From now on fail each matching request with probability `rate`, the kind drawn from `kinds`;
        `seed` makes the draws repeat from run to run."""
        _check_kinds(kinds)
        if not 0.0 <= rate <= 1.0:
            raise ValueError("rate must be between 0 and 1")
        self._rules.append(_Rule(tuple(kinds), method, re.compile(path), None, rate, _random.Random(seed)))

    def clear(self) -> None:
        """Stop injecting: forget every rule (`injected` stays, for the test to count)."""
        self._rules.clear()

    @property
    def pending(self) -> int:
        """How many faults `add` scheduled that have not happened yet."""
        return sum(r.remaining or 0 for r in self._rules)

    def take(self, method: str, path: str) -> str | None:
        """The fault for this request, if any, recorded in `injected` (called by the server)."""
        for rule in self._rules:
            if not rule.matches(method, path):
                continue
            if rule.rate < 1.0 and rule.rng.random() >= rule.rate:
                continue
            kind = rule.kinds[0] if len(rule.kinds) == 1 else rule.rng.choice(rule.kinds)
            if rule.remaining is not None:
                rule.remaining -= 1
            self.injected.append(Injected(kind, method, path))
            return kind
        return None

    def response(self, kind: str, method: str, path: str) -> web.Response:
        """Discord's answer for a fault that is not a drop."""
        if kind in REFUSALS:
            status, message, code = REFUSALS[kind]
            return _json(status, {"message": message, "code": code})
        if kind in SERVER_ERRORS:
            status, content_type, body = SERVER_ERRORS[kind]
            return web.Response(status=status, body=body, content_type=content_type)
        if kind == "429":
            return self._rate_limited(method, path)
        raise ValueError(f"{kind!r} has no response")

    def _rate_limited(self, method: str, path: str) -> web.Response:
        """A per-route ("user" scope) 429 with every header Discord sends; `Via` tells discord.py it
        came from Discord and not from a Cloudflare ban."""
        wait = self.retry_after
        route = method + " " + re.sub(r"\d{5,}", "{id}", path)
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(wait))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
            "X-RateLimit-Reset-After": f"{wait:.3f}",
            "X-RateLimit-Bucket": hashlib.blake2s(route.encode(), digest_size=16).hexdigest(),
            "X-RateLimit-Scope": "user",
        }
        body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
        return _json(429, body, headers)


def _json(status: int, data: object, headers: dict[str, str] | None = None) -> web.Response:
    # exactly "application/json" (no charset), as discord.py compares the header whole
    return web.Response(status=status, body=json.dumps(data).encode(), content_type="application/json",
                        headers=headers)


async def drop_connection(request: web.Request) -> web.Response:
    """Close the client's connection without an answer: aiohttp's client raises ServerDisconnectedError.
    The body is read first, as unread bytes would make the kernel reset the connection instead (an
    OSError on the client); the response returned is never written (aiohttp sees a closed transport)."""
    await request.read()
    request.protocol.force_close()
    if request.transport is not None:
        request.transport.close()
    return web.Response(status=204)
