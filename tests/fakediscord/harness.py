"""Acting as Discord users: slash commands, autocomplete, button clicks, selects.

Interactions are built from the commands the bot registered, so option types,
subcommand groups and choices are what a real Discord client would send; asking
for something a real user could not do raises `HarnessError`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    JSON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SEND_MESSAGES,
    THREAD_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    SnowflakeFactory,
    shown_name,
    walk_components,
)

if TYPE_CHECKING:
    from .faults import Faults
    from .server import GatewaySession

T = TypeVar("T")
Wait = bool | Literal["reply", "ack"]
ATTACHMENT_LIMIT = 10 * 1024 * 1024
SUBCOMMAND_TYPES = (1, 2)
INT_LIMIT = 2**53


HANDLER_TASKS = ("discord.py: ", "CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-modal-dispatch-",
                 "discord-ui-dynamic-item-")
"""How discord.py names the tasks that run an event listener, a slash command, or a button, menu or modal."""


def handlers_running() -> bool:
    """Whether any bot in this event loop is still handling an event or an interaction."""
    return any(not task.done() and task.get_name().startswith(HANDLER_TASKS) for task in asyncio.all_tasks())


class HarnessError(AssertionError):
    """The test asked for something a Discord user cannot do, or the bot did not answer."""


class BotTimeout(HarnessError):
    """The bot did not do what the test waited for in time."""


class BotCrashed(HarnessError):
    """The bot's task ended while the test was waiting on it."""


class InteractionResult:
    """What the bot did in answer to one interaction; it stays live as the bot keeps answering."""

    def __init__(self, fake: HarnessMixin, record: FakeInteraction) -> None:
        self.fake = fake
        self.record = record
        self._edits_at_start = record.message.edits if record.message else 0

    def __repr__(self) -> str:
        return (f"<InteractionResult id={self.record.id} callback={self.callback_type} "
                f"messages={len(self.messages)}>")

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.callback_type

    @property
    def response(self) -> JSON | None:
        """The raw callback body the bot posted."""
        return self.record.callback_body

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def late(self) -> bool:
        """True when the bot answered after Discord's three-second deadline."""
        return self.record.late

    @property
    def choices(self) -> list[JSON] | None:
        return self.record.choices

    @property
    def modal(self) -> JSON | None:
        return self.record.modal

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction created: the response (if any) and follow-ups."""
        found = [self.record.original] if self.callback_type in (4, 5) and self.record.original else []
        return [*found, *self.record.followups]

    @property
    def updated_message(self) -> FakeMessage | None:
        """The clicked message, when the bot answered by updating it (types 6 and 7)."""
        return self.record.message if self.callback_type in (6, 7) else None

    @property
    def message(self) -> FakeMessage:
        """The first visible message the bot produced (the updated one for type 7)."""
        for candidate in [*self.messages, self.updated_message]:
            if candidate is not None and not candidate.deleted:
                return candidate
        raise HarnessError(f"the bot produced no message for this interaction ({self!r})")

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def text(self) -> str:
        return self.message.text

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds

    @property
    def is_ephemeral(self) -> bool:
        return self.message.is_ephemeral

    def _answered(self, mode: Wait) -> bool | None:
        kind = self.callback_type
        if kind is None:
            return None
        if mode == "ack" or kind in (4, 7, 8, 9):
            return True
        record = self.record
        if kind == 5:
            original = record.original
            return True if original is None or not original.is_loading or original.deleted else None
        clicked = record.message
        changed = clicked is not None and (clicked.edits > self._edits_at_start or clicked.deleted)
        return True if record.activity or changed else None

    async def wait_answered(self, mode: Wait = "reply", timeout: float | None = None) -> InteractionResult:
        """Wait for the callback, and past a deferral for the real answer unless mode is "ack"."""
        await self.fake.wait_for(lambda: self._answered(mode), timeout=timeout,
                                 what=f"the bot to answer interaction {self.record.id} ({self._describe()})")
        return self

    async def wait_for_messages(self, count: int, timeout: float | None = None) -> list[FakeMessage]:
        """Wait until this interaction has produced at least `count` messages."""
        def enough() -> list[FakeMessage] | None:
            done = [m for m in self.messages if not m.is_loading]
            return done if len(done) >= count else None

        return await self.fake.wait_for(enough, timeout=timeout,
                                        what=f"{count} message(s) for interaction {self.record.id}")

    def _describe(self) -> str:
        data = self.record.data
        return str(data.get("name") or data.get("custom_id") or self.record.type)


class HarnessMixin:
    """User-side actions and waiting helpers; mixed into `FakeDiscord`."""

    if TYPE_CHECKING:
        application_id: int
        bot_user: FakeUser
        users: dict[int, FakeUser]
        guilds: dict[int, FakeGuild]
        channels: dict[int, FakeChannel]
        all_messages: dict[int, FakeMessage]
        interactions: dict[int, FakeInteraction]
        global_commands: list[JSON]
        guild_commands: dict[int, list[JSON]]
        log_errors: list[str]
        unknown_routes: list[str]
        rejections: list[tuple[str, list[str]]]
        faults: Faults
        next_id: SnowflakeFactory

        async def dispatch(self, event: str, data: Any) -> None: ...
        def active_session(self) -> GatewaySession | None: ...
        async def _message_event(self, event: str, message: FakeMessage) -> None: ...

    def _init_harness(self) -> None:
        self._changed = asyncio.Event()
        self._last_activity = 0.0
        self.watched_tasks: list[asyncio.Task[Any]] = []
        self.default_timeout = 5.0

    # ----------------------------------------------------------------- waiting

    def _bump(self) -> None:
        """Wake every waiter: something the bot did may satisfy it."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def _touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Fail waits at once if this bot task ends."""
        self.watched_tasks.append(task)

    def unwatch(self, task: asyncio.Task[Any]) -> None:
        if task in self.watched_tasks:
            self.watched_tasks.remove(task)

    def check_bot_alive(self) -> None:
        for task in self.watched_tasks:
            if task.done():
                error = None if task.cancelled() else task.exception()
                raise BotCrashed(f"the bot's task ended while the test was running: {error!r}"
                                 f"{self._diagnostics()}") from error

    def _diagnostics(self) -> str:
        lines = []
        if self.log_errors:
            lines.append("The bot logged these errors:\n" + "\n".join(self.log_errors[-5:]))
        if self.rejections:
            lines.append("Fake Discord rejected: " + "; ".join(f"{r}: {p}" for r, p in self.rejections[-5:]))
        if self.unknown_routes:
            lines.append("Routes the fake does not know: " + ", ".join(self.unknown_routes[-5:]))
        if self.faults.injected:
            lines.append("Faults injected: " + ", ".join(" ".join(f) for f in self.faults.injected[-5:]))
        return "".join("\n" + line for line in lines)

    async def wait_for(self, predicate: Callable[[], T | Literal[False] | None], *,
                       timeout: float | None = None, what: str = "a condition") -> T:
        """Wait until predicate() returns something other than None/False, and return it."""
        loop = asyncio.get_running_loop()
        limit = self.default_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        while True:
            self.check_bot_alive()
            value = predicate()
            if value is not None and value is not False:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise BotTimeout(f"timed out after {limit}s waiting for {what}{self._diagnostics()}")
            changed = asyncio.ensure_future(self._changed.wait())
            pending = {changed, *[t for t in self.watched_tasks if not t.done()]}
            try:
                await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            finally:
                changed.cancel()

    async def quiet(self, period: float = 0.02, timeout: float | None = None) -> None:
        """Wait until no handler of the bot is running and it has made no REST call for `period` seconds.

        The bot may think or draw for a long while between two calls; its handlers still running
        say so, and the short pause covers work outside them (a gateway event not yet handled)."""
        loop = asyncio.get_running_loop()
        limit = self.default_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        while handlers_running() or loop.time() - self._last_activity < period:
            self.check_bot_alive()
            if loop.time() > deadline:
                raise BotTimeout(f"the bot kept working for longer than {limit}s")
            await asyncio.sleep(period / 4)

    # ----------------------------------------------------------------- reading

    def messages(self, channel: FakeChannel, *, include_ephemeral: bool = True) -> list[FakeMessage]:
        """Channel history, oldest first, without deleted messages."""
        found = [m for m in self.all_messages.values() if m.channel is channel and not m.deleted]
        if not include_ephemeral:
            found = [m for m in found if not m.is_ephemeral]
        return sorted(found, key=lambda m: m.id)

    def public_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        return self.messages(channel, include_ephemeral=False)

    def threads(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads started in a text channel, oldest first (archived and deleted ones included)."""
        return [t for t in self.channels.values() if t.parent is channel]

    def mark(self) -> int:
        """A point in time: pass it as `after=` to see only messages sent later."""
        return self.next_id()

    async def wait_for_message(self, channel: FakeChannel,
                               predicate: Callable[[FakeMessage], bool] | None = None, *,
                               after: FakeMessage | int = 0, timeout: float | None = None) -> FakeMessage:
        """The first message in the channel (newer than `after`) matching predicate."""
        floor = after.id if isinstance(after, FakeMessage) else after

        def found() -> FakeMessage | None:
            for message in self.messages(channel):
                if message.id > floor and not message.is_loading and (predicate is None or predicate(message)):
                    return message
            return None

        return await self.wait_for(found, timeout=timeout, what=f"a message in {channel!r}")

    # ------------------------------------------------------------ interactions

    def _guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id or 0)

    def _check_can_see(self, user: FakeUser, channel: FakeChannel) -> FakeGuild | None:
        guild = self._guild_of(channel)
        if channel.deleted:
            raise HarnessError(f"{channel!r} was deleted; nobody can use it")
        if channel.is_dm:
            if channel.recipient is not user:
                raise HarnessError(f"{user!r} cannot use {channel!r}: it is someone else's DM with the bot")
        elif guild is None or user.id not in guild.members:
            raise HarnessError(f"{user!r} is not a member of the guild that holds {channel!r}")
        return guild

    def _interaction_payload(self, inter: FakeInteraction, guild: FakeGuild | None) -> JSON:
        channel = inter.channel
        place = channel.parent or channel
        app_permissions = BOT_PERMISSIONS if place.bot_can_send else BOT_PERMISSIONS & ~SEND_MESSAGES
        if not place.threads_allowed:
            app_permissions &= ~THREAD_PERMISSIONS
        payload: JSON = {
            "id": str(inter.id), "application_id": str(self.application_id), "type": inter.type,
            "data": inter.data, "token": inter.token, "version": 1, "locale": inter.user.locale,
            "app_permissions": str(app_permissions), "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 1 if channel.is_dm else 0, "attachment_size_limit": ATTACHMENT_LIMIT,
            "channel_id": str(channel.id), "channel": channel.payload(),
        }
        if guild is not None:
            member = guild.members[inter.user.id]
            payload["channel"]["permissions"] = str(member.permissions)
            payload.update(guild_id=str(guild.id), guild_locale=guild.locale,
                           member=member.payload(with_permissions=True),
                           guild={"id": str(guild.id), "locale": guild.locale, "features": []})
        else:
            payload["user"] = inter.user.payload()
        if inter.message is not None:
            payload["message"] = inter.message.payload()
        return payload

    async def send_interaction(self, kind: int, user: FakeUser, channel: FakeChannel, data: JSON, *,
                               message: FakeMessage | None = None) -> FakeInteraction:
        """Deliver a raw INTERACTION_CREATE (the helpers below build `data` for you)."""
        guild = self._check_can_see(user, channel)
        inter = FakeInteraction(
            id=self.next_id(), token="fake-" + secrets.token_urlsafe(24), type=kind, user=user,
            channel=channel, data=data, created=asyncio.get_running_loop().time(), message=message,
        )
        self.interactions[inter.id] = inter
        await self.dispatch("INTERACTION_CREATE", self._interaction_payload(inter, guild))
        return inter

    async def _finish(self, inter: FakeInteraction, wait: Wait, timeout: float | None) -> InteractionResult:
        result = InteractionResult(self, inter)
        if wait:
            await result.wait_answered("ack" if wait == "ack" else "reply", timeout)
        return result

    # ---------------------------------------------------------- slash commands

    def _lookup_command(self, channel: FakeChannel, path: list[str],
                        locale: str) -> tuple[JSON, list[JSON], list[JSON]]:
        """The registered top-level command, the options of the named subcommand, and the chain to it.

        Names are the ones a client in `locale` shows (German ones for a German client, where given)."""
        guild = self._guild_of(channel)
        candidates = [*(self.guild_commands.get(guild.id, []) if guild else []), *self.global_commands]
        top = next((c for c in candidates if shown_name(c, locale) == path[0] and c.get("type", 1) == 1), None)
        if top is None:
            names = sorted({shown_name(c, locale) for c in candidates})
            raise HarnessError(f"/{path[0]} is not registered where {channel!r} is; registered: {names}")
        context = 1 if channel.is_dm else 0
        contexts = top.get("contexts")
        if (contexts is not None and context not in contexts) or (
                contexts is None and channel.is_dm and top.get("dm_permission") is False):
            raise HarnessError(f"/{path[0]} is not offered in {'DMs' if channel.is_dm else 'servers'}")
        defs: list[JSON] = top.get("options") or []
        chain: list[JSON] = []
        for name in path[1:]:
            subs = [d for d in defs if d["type"] in SUBCOMMAND_TYPES]
            sub = next((d for d in subs if shown_name(d, locale) == name), None)
            if sub is None:
                raise HarnessError(f"/{' '.join(path)}: no subcommand {name!r}; "
                                   f"there are {[shown_name(d, locale) for d in subs]}")
            chain.append(sub)
            defs = sub.get("options") or []
        if any(d["type"] in SUBCOMMAND_TYPES for d in defs):
            raise HarnessError(f"/{' '.join(path)} is a group; name one of {[shown_name(d, locale) for d in defs]}")
        return top, defs, chain

    def _option_value(self, spec: JSON, value: Any, guild: FakeGuild | None, resolved: JSON) -> Any:
        kind, name = spec["type"], spec["name"]
        if kind == 3:
            self._expect(isinstance(value, str), name, "text", value)
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise HarnessError(f"option {name!r}: Discord does not allow text of length {len(value)}")
        elif kind == 4:
            self._expect(isinstance(value, int) and not isinstance(value, bool) and abs(value) <= INT_LIMIT,
                         name, "a whole number", value)
        elif kind == 10:
            self._expect(isinstance(value, int | float) and not isinstance(value, bool), name, "a number", value)
        elif kind == 5:
            self._expect(isinstance(value, bool), name, "True or False", value)
        elif kind == 6:
            return self._resolve_user(spec, value, guild, resolved)
        elif kind == 7:
            return self._resolve_channel(spec, value, resolved)
        else:
            raise HarnessError(f"option {name!r} has type {kind}, which the harness does not support yet")
        if kind in (4, 10):
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise HarnessError(f"option {name!r}: Discord only accepts {low}..{high}, not {value}")
        choices = [c["value"] for c in spec.get("choices") or []]
        if choices and value not in choices:
            raise HarnessError(f"option {name!r}: Discord only offers the choices {choices}, not {value!r}")
        return value

    @staticmethod
    def _expect(ok: bool, name: str, what: str, value: Any) -> None:
        if not ok:
            raise HarnessError(f"option {name!r} takes {what}; a Discord client cannot send {value!r}")

    def _resolve_user(self, spec: JSON, value: Any, guild: FakeGuild | None, resolved: JSON) -> str:
        self._expect(isinstance(value, FakeUser), spec["name"], "a user (FakeUser)", value)
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if guild is not None and value.id in guild.members:
            member = guild.members[value.id].payload(with_user=False, with_permissions=True)
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)

    def _resolve_channel(self, spec: JSON, value: Any, resolved: JSON) -> str:
        self._expect(isinstance(value, FakeChannel), spec["name"], "a channel (FakeChannel)", value)
        allowed = spec.get("channel_types")
        if allowed and value.type not in allowed:
            raise HarnessError(f"option {spec['name']!r} only offers channel types {allowed}")
        resolved.setdefault("channels", {})[str(value.id)] = {
            "id": str(value.id), "name": value.name, "type": value.type, "permissions": str(BOT_PERMISSIONS)}
        return str(value.id)

    def _build_options(self, defs: list[JSON], values: Mapping[str, Any], guild: FakeGuild | None,
                       focused: str | None, locale: str) -> tuple[list[JSON], JSON]:
        """The options as Discord sends them: by their default names, whatever names the client showed."""
        known = {shown_name(d, locale): d for d in defs}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise HarnessError(f"no option(s) {unknown}; this command takes {list(known)}")
        if focused is not None and not (known.get(focused) or {}).get("autocomplete"):
            raise HarnessError(f"option {focused!r} does not have autocomplete")
        options: list[JSON] = []
        resolved: JSON = {}
        for shown, spec in known.items():
            name = spec["name"]
            if shown == focused:
                options.append({"type": spec["type"], "name": name, "value": str(values.get(shown, "")),
                                "focused": True})
            elif shown in values:
                value = self._option_value(spec, values[shown], guild, resolved)
                options.append({"type": spec["type"], "name": name, "value": value})
            elif spec.get("required") and focused is None:
                raise HarnessError(f"option {name!r} is required; Discord will not send the command without it")
        return options, resolved

    def _command_data(self, user: FakeUser, channel: FakeChannel, command: str, options: Mapping[str, Any] | None,
                      group: str | None, focused: str | None) -> JSON:
        path = [*(group.split() if group else []), *command.split()]
        top, defs, chain = self._lookup_command(channel, path, user.locale)
        built, resolved = self._build_options(defs, options or {}, self._guild_of(channel), focused, user.locale)
        for sub in reversed(chain):
            built = [{"type": sub["type"], "name": sub["name"], "options": built}]
        data: JSON = {"id": top["id"], "name": top["name"], "type": 1, "options": built}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        return data

    async def slash(self, user: FakeUser, channel: FakeChannel, command: str,
                    options: Mapping[str, Any] | None = None, *, group: str | None = None,
                    wait: Wait = True, timeout: float | None = None) -> InteractionResult:
        """Run /group command with options as `user` in `channel`; waits for the bot's answer.

        `command` may hold the whole path ("keystone take") or `group` may hold the prefix. Commands and
        options go by the names the user's client shows (`user.locale`: "keystone neu" for a German
        client); the interaction carries the default names, as Discord's does.
        """
        data = self._command_data(user, channel, command, options, group, None)
        inter = await self.send_interaction(APPLICATION_COMMAND, user, channel, data)
        return await self._finish(inter, wait, timeout)

    async def autocomplete(self, user: FakeUser, channel: FakeChannel, command: str,
                           options: Mapping[str, Any] | None = None, *, focused: str | None = None,
                           group: str | None = None, timeout: float | None = None) -> list[JSON]:
        """The choices the bot offers while `user` types in option `focused` (default: the last given)."""
        values = dict(options or {})
        if focused is None:
            if not values:
                raise HarnessError("say which option is being typed in: focused='name'")
            focused = list(values)[-1]
        data = self._command_data(user, channel, command, values, group, focused)
        inter = await self.send_interaction(AUTOCOMPLETE, user, channel, data)
        result = await self._finish(inter, "ack", timeout)
        return result.choices or []

    # -------------------------------------------------------------- components

    def _visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        found = self.all_messages.get(message if isinstance(message, int) else message.id)
        if found is None or found.deleted:
            raise HarnessError(f"message {message!r} does not exist (or was deleted)")
        if found.is_ephemeral and (found.interaction is None or found.interaction.user is not user):
            raise HarnessError(f"{user!r} cannot see the ephemeral message {found.id}")
        return found

    def _component(self, message: FakeMessage, custom_id: str | None, label: str | None) -> JSON:
        try:
            return message.component(custom_id, label=label)
        except KeyError as exc:
            raise HarnessError(str(exc.args[0])) from None

    async def click(self, user: FakeUser, message: FakeMessage | int, custom_id: str | None = None, *,
                    label: str | None = None, wait: Wait = True,
                    timeout: float | None = None) -> InteractionResult:
        """Press a button (by custom_id, or by label) on a message the bot posted."""
        found = self._visible_message(user, message)
        button = self._component(found, custom_id, label)
        if button.get("type") != 2:
            raise HarnessError(f"component {button.get('custom_id')!r} is not a button")
        if button.get("style") == 5 or "custom_id" not in button:
            raise HarnessError("that button opens a link; clicking it sends the bot nothing")
        if button.get("disabled"):
            raise HarnessError(f"button {button.get('label')!r} is disabled; Discord will not let users press it")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        inter = await self.send_interaction(MESSAGE_COMPONENT, user, found.channel, data, message=found)
        return await self._finish(inter, wait, timeout)

    async def select(self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[str], *,
                     wait: Wait = True, timeout: float | None = None) -> InteractionResult:
        """Choose `values` in a string select menu on a message the bot posted."""
        found = self._visible_message(user, message)
        menu = self._component(found, custom_id, None)
        if menu.get("type") != 3:
            raise HarnessError(f"component {custom_id!r} is not a string select (type {menu.get('type')})")
        if menu.get("disabled"):
            raise HarnessError(f"select {custom_id!r} is disabled")
        offered = [o["value"] for o in menu.get("options", [])]
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not set(values) <= set(offered) or len(set(values)) != len(values):
            raise HarnessError(f"select {custom_id!r} offers {offered}, not {values}")
        if not low <= len(values) <= high:
            raise HarnessError(f"select {custom_id!r} takes {low} to {high} values, not {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        inter = await self.send_interaction(MESSAGE_COMPONENT, user, found.channel, data, message=found)
        return await self._finish(inter, wait, timeout)

    async def submit_modal(self, user: FakeUser, opened: InteractionResult, values: Mapping[str, str], *,
                           wait: Wait = True, timeout: float | None = None) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to `opened` (text inputs by custom_id)."""
        modal = opened.modal
        if modal is None:
            raise HarnessError(f"the bot did not open a modal for {opened!r}")
        if user is not opened.record.user:
            raise HarnessError("only the user the modal was shown to can submit it")
        inputs = {c["custom_id"]: c for c in walk_components(modal.get("components") or []) if c.get("type") == 4}
        unknown = sorted(set(values) - set(inputs))
        if unknown:
            raise HarnessError(f"the modal has no inputs {unknown}; it has {list(inputs)}")
        filled = {cid: self._modal_value(spec, values.get(cid, spec.get("value") or ""))
                  for cid, spec in inputs.items()}
        rows = [self._submitted(row, filled) for row in modal.get("components") or []]
        data = {"custom_id": modal["custom_id"], "components": rows}
        record = opened.record
        inter = await self.send_interaction(MODAL_SUBMIT, user, record.channel, data, message=record.message)
        return await self._finish(inter, wait, timeout)

    @staticmethod
    def _modal_value(spec: JSON, value: str) -> str:
        if spec.get("required", True) and not value:
            raise HarnessError(f"input {spec['custom_id']!r} is required; Discord will not submit it empty")
        if value and not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 4000):
            raise HarnessError(f"input {spec['custom_id']!r} does not accept {len(value)} characters")
        return value

    @staticmethod
    def _submitted(row: JSON, filled: Mapping[str, str]) -> JSON:
        """The submitted shape of one modal row: action rows and labels around text inputs."""
        def one(comp: JSON) -> JSON:
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": comp["custom_id"], "value": filled[comp["custom_id"]]}
            return {"type": comp.get("type"), "id": comp.get("id")}

        if row.get("type") == 1:
            return {"type": 1, "components": [one(c) for c in row.get("components", [])]}
        if row.get("type") == 18:
            return {"type": 18, "id": row.get("id"), "component": one(row["component"])}
        return one(row)

    # ------------------------------------------------------------------ users

    async def post_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A user typing in a channel (the bot sees it only with message intents)."""
        self._check_can_see(user, channel)
        message = FakeMessage(id=self.next_id(), channel=channel, author=user, content=content,
                              directory=self.users)
        self.all_messages[message.id] = message
        await self._message_event("MESSAGE_CREATE", message)
        return message
