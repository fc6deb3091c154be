"""A local Discord (REST v10 + Gateway v10) that the unmodified discord.py client talks to.

Facts about the wire protocol are in /work/shared/notes/discord-testing.md. In short: every JSON
answer carries ``Content-Type: application/json`` exactly; the gateway sends plain TEXT frames unless
the client asks for ``compress=zlib-stream`` (then one zlib stream per connection, Z_SYNC_FLUSH per
payload); interaction callbacks answer 200 with ``{"interaction": ..., "resource": ...}``.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import aiohttp
import discord
from aiohttp import web

from .commands import CommandRefused, Resolved, build_options, resolve, resolve_entities
from .gateway import Gateway, Session
from .model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BUTTON,
    DM,
    GUILD_TEXT,
    JSON,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    STRING_SELECT,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    snowflake,
    snowflake_on_shard,
)
from .rest import (
    API_PREFIX,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    DEFAULT_EVERYONE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Fault,
    RestApi,
)

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class Problem(NamedTuple):
    kind: str  # "unknown-route", "non-loopback", "log", "bad-request", "gateway"
    detail: str


class BotFailure(AssertionError):
    """Raised while waiting on the bot when a strictness problem was recorded meanwhile."""


@dataclass(eq=False)
class InteractionRecord:
    """Everything the bot did in answer to one simulated interaction."""

    server: FakeDiscord = field(repr=False)
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: JSON = field(repr=False)
    source: Message | None = None  # the message whose component was used
    callback_type: int | None = None
    callback_data: JSON | None = field(default=None, repr=False)
    original: Message | None = None  # the message the callback created (or updated, for 6/7)
    followups: list[Message] = field(default_factory=list)
    choices: list[JSON] | None = None  # autocomplete result
    modal: JSON | None = None  # modal the bot opened (callback type 9)
    activity: int = 0  # webhook calls after the callback (edits, followups, deletes)
    created: float = field(default_factory=time.monotonic, repr=False)

    # -- what tests usually read ---------------------------------------------------------------
    @property
    def response(self) -> Message | None:
        """The response message: the original (created, or updated via 6/7), else the first followup."""
        if self.original is not None:
            return self.original
        return self.followups[0] if self.followups else None

    @property
    def messages(self) -> list[Message]:
        """The original response and the followups (the first followup after a thinking defer *is*
        the original: Discord turns the "is thinking" message into it)."""
        first = [self.original] if self.original is not None else []
        return first + [m for m in self.followups if m is not self.original]

    def _msg(self) -> Message:
        msg = self.response
        if msg is None:
            raise AssertionError(
                f"the bot sent no message for this interaction (callback={self.callback_type})"
            )
        return msg

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CB_DEFERRED, CB_DEFERRED_UPDATE)

    @property
    def ephemeral(self) -> bool:
        return self._msg().ephemeral

    @property
    def content(self) -> str:
        return self._msg().content

    @property
    def embeds(self) -> list[JSON]:
        return self._msg().embeds

    @property
    def components(self) -> list[JSON]:
        return self._msg().components

    @property
    def attachments(self) -> list[Attachment]:
        return self._msg().attachments

    async def wait_for(self, predicate: Callable[[InteractionRecord], bool], timeout: float = 5.0) -> None:
        await self.server._wait(lambda: predicate(self), timeout, f"interaction {self.id} condition")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        await self.wait_for(lambda r: len(r.followups) >= count, timeout)
        return self.followups


def _wake(waiter: asyncio.Future[None]) -> None:
    """A waiter's timer ran out: it looks once more (and then times out)."""
    if not waiter.done():
        waiter.set_result(None)


class FakeDiscord(RestApi):
    """The fake Discord. Use ``async with FakeDiscord() as server`` or ``await server.start()``."""

    def __init__(self, *, bot_name: str = "Spooky Table", fail_fast: bool = True) -> None:
        self.bot_user = User(id=snowflake(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.fail_fast = fail_fast  # waiting raises BotFailure as soon as a problem is recorded
        self.ack_deadline = 3.0  # seconds: Discord's limit for the first callback of an interaction
        self.guilds: list[Guild] = []
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, Channel] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.problems: list[Problem] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST call
        self.faults: list[Fault] = []  # injected errors (see fault())
        self.faulted: list[tuple[str, str, int, int]] = []  # (method, path, status, code) answered by a fault
        self.bad_tokens: set[str] = set()  # GET /users/@me (the login) answers 401 for these tokens
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._messages: dict[int, Message] = {}
        self._attachments: dict[int, Attachment] = {}  # served at /attachments/{id}/{filename}
        self._channel_messages: dict[int, list[Message]] = {}
        self._dm_channels: dict[int, Channel] = {}
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self.gateway = Gateway(self)
        self._waiters: list[asyncio.Future[None]] = []  # woken by the next change (see _wait)
        self._channel_waiters: dict[int, list[asyncio.Future[None]]] = {}  # for a message in a channel
        self._runner: web.AppRunner | None = None
        self._clients: list[Callable[[], Awaitable[None]]] = []  # client stoppers, run first in stop()
        self.port = 0
        self.trace_config = self._make_trace_config()

    # ------------------------------------------------------------------------------------------
    # lifecycle
    # ------------------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def cdn_base(self) -> str:
        return self.base_url + "/cdn"

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/cdn/{tail:.*}", self._cdn)
        app.router.add_get("/attachments/{aid}/{filename}", self._get_attachment)
        for method, path, handler in self._routes():
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def stop(self) -> None:
        for stop_client in reversed(self._clients):
            await stop_client()
        self._clients.clear()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------------------------------
    # world building
    # ------------------------------------------------------------------------------------------
    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False, locale: str = "en-US") -> User:
        user = User(id=snowflake(), name=name, dms_open=dms_open, bot=bot, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Spooky",
        *,
        owner: User | None = None,
        bot_permissions: int | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild the bot is in; `shard=(id, count)` picks an id that Discord routes to that shard."""
        gid = snowflake() if shard is None else snowflake_on_shard(*shard)
        guild = Guild(id=gid, name=name, owner_id=(owner or self.bot_user).id, preferred_locale=locale)
        guild.roles.append(Role(id=gid, name="@everyone", permissions=DEFAULT_EVERYONE))
        bot_role = Role(
            id=snowflake(),
            name=self.bot_user.name,
            permissions=ALL_PERMISSIONS & ~ADMINISTRATOR if bot_permissions is None else bot_permissions,
            position=1,
        )
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild, roles=[bot_role])
        self.guilds.append(guild)
        self.gateway.fire("GUILD_CREATE", guild.payload())
        return guild

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: int = GUILD_TEXT,
        parent: Channel | None = None,
        channel_id: int | None = None,
    ) -> Channel:
        """A guild channel (text by default; PUBLIC_THREAD/PRIVATE_THREAD with a ``parent``)."""
        chan = Channel(
            id=channel_id or snowflake(),
            name=name,
            type=type,
            guild=guild,
            parent_id=parent.id if parent else None,
            position=len(guild.channels),
            owner_id=self.bot_user.id,
        )
        guild.channels.append(chan)
        self.channels[chan.id] = chan
        self._channel_messages[chan.id] = []
        is_thread = type in (PUBLIC_THREAD, PRIVATE_THREAD)
        self.gateway.fire("THREAD_CREATE" if is_thread else "CHANNEL_CREATE", chan.payload())
        return chan

    def add_role(self, guild: Guild, name: str, permissions: int | discord.Permissions = 0) -> Role:
        perms = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        role = Role(id=snowflake(), name=name, permissions=perms, position=len(guild.roles))
        guild.roles.append(role)
        self.gateway.fire("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        permissions: int | discord.Permissions | None = None,
        roles: list[Role] | None = None,
        nick: str | None = None,
    ) -> Member:
        """Make ``user`` a member. ``permissions`` (if given) adds a personal role granting them."""
        member_roles = list(roles or [])
        if permissions is not None:
            member_roles.append(self.add_role(guild, f"{user.name}-perms", permissions))
        member = Member(user, guild, roles=member_roles, nick=nick)
        guild.members[user.id] = member
        self.gateway.fire("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def dm_channel(self, user: User) -> Channel:
        chan = self._dm_channels.get(user.id)
        if chan is None:
            chan = Channel(id=snowflake(), name=None, type=DM, recipient=user)
            self._dm_channels[user.id] = chan
            self.channels[chan.id] = chan
            self._channel_messages[chan.id] = []
        return chan

    # ------------------------------------------------------------------------------------------
    # reading what happened
    # ------------------------------------------------------------------------------------------
    def messages(self, channel: Channel, *, viewer: User | None = None, deleted: bool = False) -> list[Message]:
        """Messages in ``channel``, oldest first; ephemeral ones only if ``viewer`` may see them; deleted
        ones too with ``deleted=True`` (what was ever posted)."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if (deleted or not m.deleted) and (not m.ephemeral or (viewer is not None and m.visible_to(viewer)))
        ]

    def forget_history(self, channel: Channel, *, keep: int = 10) -> None:
        """Drop from ``channel``'s history its deleted messages and all but the newest `keep` public
        and the newest `keep` ephemeral ones (they stay reachable by id: edits, deletes and
        interactions on them still work, but a forgotten message edited later is not seen again).
        Reading a channel scans its history; a benchmark that posts thousands of messages calls this
        between its phases so that the harness's cost per move does not grow with the run. Public and
        ephemeral apart: a bot's board, edited in place, stays while its answers pile up after it."""
        live = [m for m in self._channel_messages.get(channel.id, []) if not m.deleted]
        public = [m for m in live if not m.ephemeral]
        hidden = [m for m in live if m.ephemeral]
        kept = {id(m) for m in (public[-keep:] + hidden[-keep:])} if keep > 0 else set()
        self._channel_messages[channel.id] = [m for m in live if id(m) in kept]

    def dms(self, user: User) -> list[Message]:
        """Messages in the bot's DM channel with ``user``."""
        return self.messages(self.dm_channel(user), viewer=user)

    def message(self, message_id: int) -> Message:
        return self._messages[message_id]

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        """The commands the bot synced (globally, or for ``guild``)."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def fault(
        self,
        method: str,
        path: str,
        status: int,
        code: int = 0,
        message: str = "",
        *,
        times: int = 1,
        retry_after: float = 0.05,
    ) -> Fault:
        """Answer the next ``times`` requests matching ``method`` ("*" for any) and the regular expression
        ``path`` (searched in the path after /api/v10, e.g. ``r"^/channels/\\d+/messages$"``) with an error,
        as Discord does: 403/50013 Missing Permissions, 404/10003 Unknown Channel, 404/10062 Unknown
        interaction, 400/30046 (too many edits to an old message), 503 (discord.py raises at once; 500,
        502 and 504 it retries with back-off), 429 (``retry_after`` seconds; discord.py waits and retries).
        ``times=-1`` keeps answering until :meth:`clear_faults`. Returns the fault (``.hits`` counts)."""
        fault = Fault(method.upper(), re.compile(path), status, code, message or f"injected {status}/{code}", times,
                      retry_after)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def take_problems(self, kind: str | None = None) -> list[Problem]:
        """Remove and return recorded problems (of ``kind``): how a test says it expected them."""
        taken = [p for p in self.problems if kind is None or p.kind == kind]
        self.problems = [p for p in self.problems if p not in taken]
        return taken

    def record_problem(self, kind: str, detail: str) -> None:
        self.problems.append(Problem(kind, detail))
        self._bump()

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,
        viewer: User | None = None,
    ) -> Message:
        """The first message in ``channel`` (existing or future) that matches ``predicate``."""
        found: list[Message] = []

        def check() -> bool:
            for m in self.messages(channel, viewer=viewer):
                if predicate is None or predicate(m):
                    found.append(m)
                    return True
            return False

        await self._wait(check, timeout, f"a message in {channel!r}", channel)
        return found[0]

    async def wait_for_dm(
        self, user: User, predicate: Callable[[Message], bool] | None = None, *, timeout: float = 5.0
    ) -> Message:
        return await self.wait_for_message(self.dm_channel(user), predicate, timeout=timeout, viewer=user)

    # ------------------------------------------------------------------------------------------
    # simulated users
    # ------------------------------------------------------------------------------------------
    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message (dispatched as MESSAGE_CREATE; ``<@id>`` mentions resolved).
        Without the MESSAGE_CONTENT intent the bot sees empty content unless it is mentioned."""
        msg = self._new_message(channel, user, content=content)
        msg.mentions = [u for u in self.users.values() if f"<@{u.id}>" in content or f"<@!{u.id}>" in content]
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    def _resolve_command(self, user: User, channel: Channel, command: str) -> tuple[Resolved, Member | None]:
        member = self._member(user, channel)
        available = list(self.global_commands)
        if channel.guild is not None:
            available = self.guild_commands.get(channel.guild.id, []) + available
        return resolve(command, available, in_dm=channel.is_dm, member=member), member

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        timeout: float = 5.0,
        wait_deferred: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """``user`` runs ``/command`` ("game new") with ``options`` as keywords; returns once the bot
        answered (and, for a deferred answer, once it followed up or edited the original).
        Option values: str/int/float/bool, :class:`User`, :class:`Role`, :class:`Channel`, or
        ``(filename, bytes)`` for an attachment option. See :meth:`invoke` for options named
        "timeout" or "wait_deferred"."""
        return await self.invoke(
            user, channel, command, options, timeout=timeout, wait_deferred=wait_deferred
        )

    async def invoke(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        *,
        timeout: float = 5.0,
        wait_deferred: bool = True,
    ) -> InteractionRecord:
        """:meth:`slash` with the options as a dict."""
        res, _member = self._resolve_command(user, channel, command)
        opts, resolved = build_options(res, options, guild_members=self._members_of(channel))
        self._upload_option_files(resolved)
        data = self._command_data(res, opts, resolved)
        rec = await self._interact(APPLICATION_COMMAND, user, channel, data, timeout=timeout)
        if wait_deferred and rec.callback_type == CB_DEFERRED:
            await self._wait(lambda: rec.activity > 0, timeout, f"follow-up to deferred /{command}")
        return rec

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        option: str,
        /,
        partial: str = "",
        *,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[JSON]:
        """``user`` types ``partial`` into ``option`` (other options already filled in as keywords);
        returns the bot's choices ``[{"name": ..., "value": ...}]``."""
        res, _member = self._resolve_command(user, channel, command)
        values = {**options, option: partial}
        opts, resolved = build_options(res, values, focused=option, guild_members=self._members_of(channel))
        data = self._command_data(res, opts, resolved)
        rec = await self._interact(AUTOCOMPLETE, user, channel, data, timeout=timeout)
        if rec.callback_type != CB_AUTOCOMPLETE or rec.choices is None:
            raise AssertionError(f"autocomplete answered with callback type {rec.callback_type}")
        return rec.choices

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait_deferred: bool = True,
    ) -> InteractionRecord:
        """``user`` presses a button (by custom_id or label) on ``message``."""
        self._check_can_use(user, message)
        button = message.button(label, custom_id=custom_id) if label else message.button(custom_id=custom_id)
        if "custom_id" not in button:
            raise CommandRefused(f"button {button.get('label')!r} is a link/premium button")
        if button.get("disabled"):
            raise CommandRefused(f"button {button.get('label')!r} is disabled")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return await self._component(user, message, data, timeout, wait_deferred)

    async def forged_click(
        self, user: User, message: Message, custom_id: str, *, timeout: float = 5.0, wait_deferred: bool = True
    ) -> InteractionRecord:
        """Press a button with ``custom_id`` that is put on ``message`` first, as an older or damaged
        version of the bot would have posted it (discord.py only dispatches ids the message carries)."""
        if not 0 < len(custom_id) <= 100:
            raise CommandRefused("Discord refuses custom_ids outside 1..100 characters")
        button = {"type": BUTTON, "style": 2, "label": "old", "custom_id": custom_id}
        rows = [r for r in message.components if len(r.get("components") or []) < 5]
        if rows:
            rows[-1]["components"].append(button)
        else:
            message.components.append({"type": 1, "components": [button]})
        return await self.click(user, message, custom_id, timeout=timeout, wait_deferred=wait_deferred)

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str | None,
        values: Sequence[str | User | Role | Channel],
        *,
        timeout: float = 5.0,
        wait_deferred: bool = True,
    ) -> InteractionRecord:
        """``user`` picks ``values`` in a select on ``message``: option values (str) for a string
        select; :class:`User`/:class:`Role`/:class:`Channel` for user/role/mentionable/channel selects."""
        self._check_can_use(user, message)
        menu = message.select(custom_id)
        if menu.get("disabled"):
            raise CommandRefused(f"select {menu.get('custom_id')!r} is disabled")
        lo, hi = menu.get("min_values", 1), menu.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise CommandRefused(f"select needs {lo}..{hi} values, got {len(values)}")
        data: JSON = {"custom_id": menu["custom_id"], "component_type": menu["type"]}
        if menu["type"] == STRING_SELECT:
            allowed = [o["value"] for o in menu.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise CommandRefused(f"values {bad} not among the options {allowed}")
            data["values"] = list(values)
        else:
            data["values"], data["resolved"] = resolve_entities(
                menu, values, self._members_of(message.channel)
            )
        return await self._component(user, message, data, timeout, wait_deferred)

    async def submit_modal(
        self, user: User, opened: InteractionRecord, values: dict[str, str], *, timeout: float = 5.0
    ) -> InteractionRecord:
        """``user`` fills in the modal the bot opened in ``opened`` (text inputs by custom_id)."""
        modal = opened.modal
        if modal is None:
            raise CommandRefused("the bot did not open a modal for this interaction")
        unused = dict(values)

        def fill(component: JSON) -> JSON:
            if component["type"] == 4:
                cid = component["custom_id"]
                if cid not in unused and component.get("required", True):
                    raise CommandRefused(f"required text input {cid!r} not filled in")
                return {"type": 4, "custom_id": cid, "value": unused.pop(cid, "")}
            if component["type"] == 1:
                return {"type": 1, "components": [fill(c) for c in component["components"]]}
            if component["type"] == 18:
                return {"type": 18, "component": fill(component["component"])}
            raise CommandRefused(f"modal component type {component['type']} is not supported by the fake")

        rows = [fill(c) for c in modal.get("components", []) if c["type"] in (1, 4, 18)]
        if unused:
            raise CommandRefused(f"modal has no inputs {sorted(unused)}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._interact(
            MODAL_SUBMIT, user, opened.channel, data, source=opened.source, timeout=timeout
        )

    # ------------------------------------------------------------------------------------------
    # interaction plumbing
    # ------------------------------------------------------------------------------------------
    def _member(self, user: User, channel: Channel) -> Member | None:
        if channel.guild is None:
            if channel.recipient is not user:
                raise CommandRefused(f"{user!r} cannot act in another user's DM channel {channel!r}")
            return None
        member = channel.guild.members.get(user.id)
        if member is None:
            raise CommandRefused(f"{user!r} is not a member of guild {channel.guild.name!r}")
        return member

    def _upload_option_files(self, resolved: JSON) -> None:
        """Attachment options: make the uploaded bytes downloadable like a real CDN attachment."""
        for aid, payload in resolved.get("attachments", {}).items():
            att = Attachment(
                int(aid), payload.pop("_filename"), payload.pop("_data"), payload.get("content_type")
            )
            self._attachments[att.id] = att
            payload.update(att.payload(self.base_url))

    def _members_of(self, channel: Channel) -> dict[int, Member]:
        return channel.guild.members if channel.guild is not None else {}

    def _command_data(self, res: Resolved, opts: list[JSON], resolved: JSON) -> JSON:
        data: JSON = {"id": res.command["id"], "name": res.command["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if res.command.get("guild_id"):
            data["guild_id"] = res.command["guild_id"]
        return data

    def _check_can_use(self, user: User, message: Message) -> None:
        if message.deleted or not message.visible_to(user):
            raise CommandRefused(f"{user!r} cannot see {message!r}")
        if message.author is not self.bot_user:
            raise CommandRefused(f"{message!r} was not sent by the bot")
        self._member(user, message.channel)

    async def _component(
        self, user: User, message: Message, data: JSON, timeout: float, wait_deferred: bool
    ) -> InteractionRecord:
        edits = message.edits
        rec = await self._interact(
            MESSAGE_COMPONENT, user, message.channel, data, source=message, timeout=timeout
        )
        if wait_deferred and rec.callback_type == CB_DEFERRED_UPDATE:
            await self._wait(
                lambda: rec.activity > 0 or message.edits > edits or message.deleted,
                timeout,
                "edit (or deletion) after deferred update",
            )
        elif wait_deferred and rec.callback_type == CB_DEFERRED:
            await self._wait(lambda: rec.activity > 0, timeout, "follow-up to deferred click")
        return rec

    async def _interact(
        self,
        type_: int,
        user: User,
        channel: Channel,
        data: JSON,
        *,
        source: Message | None = None,
        timeout: float,
    ) -> InteractionRecord:
        if not self.gateway.ever_connected:
            raise RuntimeError("no bot is connected to the gateway (start_client first)")
        guild_id = channel.guild.id if channel.guild is not None else None
        await self._wait(
            lambda: self.gateway.connected_for(guild_id), timeout, "the bot (its shard) to be connected to the gateway"
        )
        member = self._member(user, channel)
        iid = snowflake()
        token = f"tok{iid}{secrets.token_hex(8)}"
        rec = InteractionRecord(self, iid, token, type_, user, channel, data, source=source)
        self.interactions[iid] = rec
        self._by_token[token] = rec
        guild = channel.guild
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "locale": user.locale,
            "entitlements": [],
            "data": data,
        }
        if guild is not None:
            assert member is not None
            bot_member = guild.members[self.bot_user.id]
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member=member.payload(with_permissions=True),
                app_permissions=str(bot_member.permissions),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(DEFAULT_EVERYONE),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if source is not None:
            payload["message"] = self._message_payload(source)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        # Discord gives up after 3 s ("This interaction failed"), so there is no point waiting longer.
        ack_timeout = min(timeout, self.ack_deadline + 0.25)
        await self._wait(lambda: rec.callback_type is not None, ack_timeout, f"the bot's answer to {data}")
        return rec

    # ------------------------------------------------------------------------------------------
    # waiting
    # ------------------------------------------------------------------------------------------
    def _bump(self, channel: Channel | None = None) -> None:
        """Something changed: wake the waiters. A change of a message names its channel: then only
        those waiting for a message in that channel look again (and every generic waiter), not all
        the others (the load bench's 50 players each wait for their own board)."""
        woken, self._waiters = self._waiters, []
        if channel is None:
            for waiters in self._channel_waiters.values():
                woken += waiters
            self._channel_waiters.clear()
        else:
            woken += self._channel_waiters.pop(channel.id, [])
        for waiter in woken:
            if not waiter.done():
                waiter.set_result(None)

    async def _wait(
        self, predicate: Callable[[], bool], timeout: float, what: str, channel: Channel | None = None
    ) -> None:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        seen = len(self.problems)
        while not predicate():
            if self.fail_fast and len(self.problems) > seen:
                raise BotFailure(f"while waiting for {what}: " + "; ".join(map(str, self.problems[seen:])))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            # A bare future and a timer (not an Event and a wait_for task per change: the harness
            # must stay cheap under load), woken by a change in this channel's messages or by any
            # change without a channel
            waiter: asyncio.Future[None] = loop.create_future()
            if channel is None:
                self._waiters.append(waiter)
            else:
                self._channel_waiters.setdefault(channel.id, []).append(waiter)
            timer = loop.call_later(remaining, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
            # Look again two turns of the loop later, as when this waited through `wait_for`: what
            # changed may be an answer the bot has yet to read (the id of a message it just sent),
            # and a test acting on it at once would outrun the bot
            await asyncio.sleep(0)
            await asyncio.sleep(0)

    async def reconnect_bot(self, close_code: int | None = None, *, resumable: bool = True) -> None:
        """Make the bot reconnect: op 7 RECONNECT, or close its socket with ``close_code``.
        With ``resumable=False`` its RESUME is answered with INVALID_SESSION (it re-identifies)."""
        await self.gateway.reconnect(close_code, resumable)

    @property
    def bot_connected(self) -> bool:
        """A bot has identified (or resumed) on a live gateway connection."""
        return self.gateway.connected

    def shard_connected(self, shard: int) -> bool:
        """A bot has identified on a live connection as `shard` (of any count)."""
        return any(s.identified and s.shard is not None and s.shard[0] == shard for s in self.gateway.sessions)

    @property
    def _sessions(self) -> list[Session]:
        """Deprecated alias kept for tests/e2e (use :attr:`bot_connected`)."""
        return self.gateway.sessions

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Wait (event-driven) until ``predicate()`` holds; raises TimeoutError / BotFailure."""
        await self._wait(predicate, timeout, what)

    # -- strictness ----------------------------------------------------------------------------
    def _make_trace_config(self) -> aiohttp.TraceConfig:
        """Pass as discord.py's ``http_trace=``: refuses (and records) any non-loopback request."""
        trace = aiohttp.TraceConfig()

        async def on_request_start(
            session: aiohttp.ClientSession, ctx: Any, params: aiohttp.TraceRequestStartParams
        ) -> None:
            if params.url.host not in LOOPBACK_HOSTS:
                self.record_problem("non-loopback", f"{params.method} {params.url}")
                raise aiohttp.ClientConnectionError(
                    f"fakediscord: refused non-loopback request to {params.url}"
                )

        trace.on_request_start.append(on_request_start)
        return trace
