"""A local Discord (REST v10 + Gateway v10) that the unmodified discord.py client talks to.

Facts about the wire protocol are in /work/shared/notes/discord-testing.md. In short: every JSON
answer carries ``Content-Type: application/json`` exactly; the gateway sends plain TEXT frames unless
the client asks for ``compress=zlib-stream`` (then one zlib stream per connection, Z_SYNC_FLUSH per
payload); interaction callbacks answer 200 with ``{"interaction": ..., "resource": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import aiohttp
import discord
from aiohttp import web

from . import limits
from .commands import CommandRefused, Resolved, build_options, resolve
from .gateway import Gateway
from .model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BUTTON,
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    JSON,
    LOADING,
    PUBLIC_THREAD,
    STRING_SELECT,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    iso_now,
    snowflake,
)

API_PREFIX = "/api/v10"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    use_application_commands=True,
).value
# 1x1 transparent PNG served for every CDN path (avatars etc.).
_PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)

# Interaction types (incoming) and callback types (bot's answer).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9


class Problem(NamedTuple):
    kind: str  # "unknown-route", "non-loopback", "log", "bad-request", "gateway"
    detail: str


class BotFailure(AssertionError):
    """Raised while waiting on the bot when a strictness problem was recorded meanwhile."""


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header string (json_response adds charset).
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


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
        first = [self.original] if self.original is not None else []
        return first + self.followups

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


class FakeDiscord:
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
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._messages: dict[int, Message] = {}
        self._attachments: dict[int, Attachment] = {}  # served at /attachments/{id}/{filename}
        self._channel_messages: dict[int, list[Message]] = {}
        self._dm_channels: dict[int, Channel] = {}
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self.gateway = Gateway(self)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._clients: list[Any] = []  # started discord.py clients, closed first in stop()
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
    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False) -> User:
        user = User(id=snowflake(), name=name, dms_open=dms_open, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str = "Spooky", *, owner: User | None = None, bot_permissions: int | None = None
    ) -> Guild:
        gid = snowflake()
        guild = Guild(id=gid, name=name, owner_id=(owner or self.bot_user).id)
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
        self, guild: Guild, name: str, *, type: int = GUILD_TEXT, parent: Channel | None = None
    ) -> Channel:
        chan = Channel(
            id=snowflake(),
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
        self.gateway.fire("THREAD_CREATE" if type == PUBLIC_THREAD else "CHANNEL_CREATE", chan.payload())
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
    def messages(self, channel: Channel, *, viewer: User | None = None) -> list[Message]:
        """Messages in ``channel``, oldest first; ephemeral ones only if ``viewer`` may see them."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if not m.deleted and (not m.ephemeral or (viewer is not None and m.visible_to(viewer)))
        ]

    def dms(self, user: User) -> list[Message]:
        """Messages in the bot's DM channel with ``user``."""
        return self.messages(self.dm_channel(user), viewer=user)

    def message(self, message_id: int) -> Message:
        return self._messages[message_id]

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        """The commands the bot synced (globally, or for ``guild``)."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

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

        await self._wait(check, timeout, f"a message in {channel!r}")
        return found[0]

    async def wait_for_dm(
        self, user: User, predicate: Callable[[Message], bool] | None = None, *, timeout: float = 5.0
    ) -> Message:
        return await self.wait_for_message(self.dm_channel(user), predicate, timeout=timeout, viewer=user)

    # ------------------------------------------------------------------------------------------
    # simulated users
    # ------------------------------------------------------------------------------------------
    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message (dispatched as MESSAGE_CREATE)."""
        msg = self._new_message(channel, user, content=content)
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
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        wait_deferred: bool = True,
        **kwargs: Any,
    ) -> InteractionRecord:
        """``user`` runs ``/command`` ("game new") with options given as keywords (or as ``options=``
        for names like "timeout"); returns once the bot answered (and, for a deferred answer, once it
        followed up or edited the original). Option values: str/int/float/bool, :class:`User`,
        :class:`Role`, :class:`Channel`, or ``(filename, bytes)`` for an attachment option."""
        res, _member = self._resolve_command(user, channel, command)
        values = {**(options or {}), **kwargs}
        opts, resolved = build_options(res, values, guild_members=self._members_of(channel))
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
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[JSON]:
        """``user`` types ``partial`` into ``option`` (other options already filled in as keywords);
        returns the bot's choices ``[{"name": ..., "value": ...}]``."""
        res, _member = self._resolve_command(user, channel, command)
        values = {**(options or {}), **kwargs, option: partial}
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

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str | None,
        values: list[str],
        *,
        timeout: float = 5.0,
        wait_deferred: bool = True,
    ) -> InteractionRecord:
        """``user`` picks ``values`` in a string select on ``message``."""
        self._check_can_use(user, message)
        menu = message.select(custom_id)
        if menu.get("disabled"):
            raise CommandRefused(f"select {menu.get('custom_id')!r} is disabled")
        if menu["type"] == STRING_SELECT:
            allowed = [o["value"] for o in menu.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise CommandRefused(f"values {bad} not among the options {allowed}")
        lo, hi = menu.get("min_values", 1), menu.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise CommandRefused(f"select needs {lo}..{hi} values, got {len(values)}")
        data = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values}
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
                lambda: rec.activity > 0 or message.edits > edits, timeout, "edit after deferred update"
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
        await self._wait(lambda: self.bot_connected, timeout, "the bot to be connected to the gateway")
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
            "locale": "en-US",
            "entitlements": [],
            "data": data,
        }
        if guild is not None:
            assert member is not None
            bot_member = guild.members[self.bot_user.id]
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
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
    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        seen = len(self.problems)
        while not predicate():
            if self.fail_fast and len(self.problems) > seen:
                raise BotFailure(f"while waiting for {what}: " + "; ".join(map(str, self.problems[seen:])))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def reconnect_bot(self, close_code: int | None = None, *, resumable: bool = True) -> None:
        """Make the bot reconnect: op 7 RECONNECT, or close its socket with ``close_code``.
        With ``resumable=False`` its RESUME is answered with INVALID_SESSION (it re-identifies)."""
        await self.gateway.reconnect(close_code, resumable)

    @property
    def bot_connected(self) -> bool:
        return self.gateway.connected

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Wait (event-driven) until ``predicate()`` holds; raises TimeoutError / BotFailure."""
        await self._wait(predicate, timeout, what)

    async def _dispatch_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral:  # ephemeral messages never reach the gateway
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild is not None:
                data["guild_id"] = str(msg.channel.guild.id)
            await self.gateway.dispatch(event, data)
            return
        data = self._message_payload(msg)
        if msg.channel.guild is not None and msg.author.id in msg.channel.guild.members:
            data["member"] = msg.channel.guild.members[msg.author.id].payload(with_user=False)
        await self.gateway.dispatch(event, data)

    # ------------------------------------------------------------------------------------------
    # REST
    # ------------------------------------------------------------------------------------------
    def _routes(self) -> list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("POST", "/applications/{app}/commands", self._post_command),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/applications/{app}/guilds/{guild}/commands", self._post_command),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/channels/{cid}", self._get_channel),
            ("GET", "/channels/{cid}/messages", self._list_messages),
            ("POST", "/channels/{cid}/messages", self._create_message),
            ("GET", "/channels/{cid}/messages/{mid}", self._get_message),
            ("PATCH", "/channels/{cid}/messages/{mid}", self._edit_message),
            ("DELETE", "/channels/{cid}/messages/{mid}", self._delete_message),
            ("POST", "/channels/{cid}/typing", self._no_content),
            ("PUT", "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._react),
            ("DELETE", "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._react),
            ("POST", "/channels/{cid}/threads", self._create_thread),
            ("POST", "/channels/{cid}/messages/{mid}/threads", self._create_thread),
            ("GET", "/guilds/{gid}", self._get_guild),
            ("GET", "/guilds/{gid}/members/{uid}", self._get_member),
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_edit),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete),
        ]

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path.startswith(API_PREFIX):
            self.requests.append((request.method, request.path[len(API_PREFIX) :]))
        try:
            return await handler(request)
        except _ApiError as e:
            if e.status >= 500 or e.code == 50035:
                self.record_problem("bad-request", f"{request.method} {request.path}: {e.message}")
            return _json({"code": e.code, "message": e.message}, e.status)
        except (web.HTTPException, asyncio.CancelledError):
            raise
        except Exception as e:  # a bug in the fake or a payload it cannot handle: 400, never a retried 5xx
            self.record_problem("bad-request", f"{request.method} {request.path}: {e!r}")
            return _json({"code": 50035, "message": f"Invalid Form Body ({e!r})"}, 400)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.record_problem("unknown-route", f"{request.method} {request.path}")
        return _json({"code": 0, "message": "404: Not Found"}, 404)

    async def _cdn(self, request: web.Request) -> web.Response:
        return web.Response(body=_PNG_1PX, headers={"Content-Type": "image/png"})

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _get_attachment(self, request: web.Request) -> web.Response:
        att = self._attachments.get(int(request.match_info["aid"]))
        if att is None or att.filename != request.match_info["filename"]:
            raise _ApiError(404, 0, "404: Not Found")
        return web.Response(
            body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
        )

    async def _react(self, request: web.Request) -> web.Response:
        msg = self._find_message(self._channel(request), request.match_info["mid"])
        emoji = request.match_info["emoji"]
        if request.method == "PUT" and emoji not in msg.reactions:
            msg.reactions.append(emoji)
        elif request.method == "DELETE" and emoji in msg.reactions:
            msg.reactions.remove(emoji)
        self._bump()
        return web.Response(status=204)

    def _upload_option_files(self, resolved: JSON) -> None:
        """Attachment options: make the uploaded bytes downloadable like a real CDN attachment."""
        for aid, payload in resolved.get("attachments", {}).items():
            att = Attachment(
                int(aid), payload.pop("_filename"), payload.pop("_data"), payload.get("content_type")
            )
            self._attachments[att.id] = att
            payload.update(att.payload(self.base_url))

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = {"id": "1", "username": "owner", "discriminator": "0", "avatar": None, "global_name": "owner"}
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return _json(user.payload())

    def _command_list(self, request: web.Request) -> tuple[list[JSON], int | None]:
        self._check_app(request)
        if "guild" in request.match_info:
            gid = int(request.match_info["guild"])
            if not any(g.id == gid for g in self.guilds):
                raise _ApiError(404, 10004, "Unknown Guild")
            return self.guild_commands.setdefault(gid, []), gid
        return self.global_commands, None

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app") != str(self.application_id):
            raise _ApiError(404, 10002, "Unknown Application")

    def _stored_command(self, raw: JSON, gid: int | None) -> JSON:
        key = (gid, raw["name"])
        cid = self._command_ids.setdefault(key, snowflake())
        cmd = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **raw,
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
        }
        if gid is not None:
            cmd["guild_id"] = str(gid)
        return cmd

    async def _get_commands(self, request: web.Request) -> web.Response:
        return _json(self._command_list(request)[0])

    async def _put_commands(self, request: web.Request) -> web.Response:
        current, gid = self._command_list(request)
        current[:] = [self._stored_command(raw, gid) for raw in await request.json()]
        return _json(current)

    async def _post_command(self, request: web.Request) -> web.Response:
        current, gid = self._command_list(request)
        cmd = self._stored_command(await request.json(), gid)
        current[:] = [c for c in current if c["name"] != cmd["name"]] + [cmd]
        return _json(cmd, 201)

    def _channel(self, request: web.Request) -> Channel:
        chan = self.channels.get(int(request.match_info["cid"]))
        if chan is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return chan

    def _find_message(self, chan: Channel, mid: str) -> Message:
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel is not chan or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _message_payload(self, msg: Message) -> JSON:
        return msg.payload(self.base_url)

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise _ApiError(400, 50035, f"Invalid recipient {body['recipient_id']}")
        return _json(self.dm_channel(user).payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel(request).payload())

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = next((g for g in self.guilds if str(g.id) == request.match_info["gid"]), None)
        if guild is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return _json(guild.payload())

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = next((g for g in self.guilds if str(g.id) == request.match_info["gid"]), None)
        member = guild.members.get(int(request.match_info["uid"])) if guild else None
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return _json(member.payload())

    async def _list_messages(self, request: web.Request) -> web.Response:
        msgs = self.messages(self._channel(request))
        limit = int(request.query.get("limit", 50))
        return _json([self._message_payload(m) for m in reversed(msgs)][:limit])

    async def _get_message(self, request: web.Request) -> web.Response:
        return _json(
            self._message_payload(self._find_message(self._channel(request), request.match_info["mid"]))
        )

    async def _create_message(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        if chan.is_dm and chan.recipient is not None and not chan.recipient.dms_open:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        payload, files = await self._read_body(request)
        msg = self._new_message(chan, self.bot_user)
        self._apply(msg, payload, files, creating=True)
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return _json(self._message_payload(msg))

    async def _edit_message(self, request: web.Request) -> web.Response:
        msg = self._find_message(self._channel(request), request.match_info["mid"])
        if msg.author is not self.bot_user:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        self._apply(msg, payload, files, creating=False)
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return _json(self._message_payload(msg))

    async def _delete_message(self, request: web.Request) -> web.Response:
        msg = self._find_message(self._channel(request), request.match_info["mid"])
        await self._delete(msg)
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.guild is None:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        thread = self.add_channel(parent.guild, body.get("name", "thread"), type=PUBLIC_THREAD, parent=parent)
        if "mid" in request.match_info:  # a thread's id is its starter message's id
            msg = self._find_message(parent, request.match_info["mid"])
            del self.channels[thread.id]
            self._channel_messages.pop(thread.id)
            thread.id = msg.id
            self.channels[thread.id] = thread
            self._channel_messages[thread.id] = []
        return _json(thread.payload(), 201)

    # -- interactions --------------------------------------------------------------------------
    def _interaction(self, request: web.Request) -> InteractionRecord:
        rec = self._by_token.get(request.match_info["token"])
        if rec is None or ("iid" in request.match_info and request.match_info["iid"] != str(rec.id)):
            raise _ApiError(404, 10062, "Unknown interaction")
        if "app" in request.match_info:
            self._check_app(request)
        return rec

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec.callback_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - rec.created
        if late > self.ack_deadline:
            self.record_problem("late-ack", f"interaction {rec.id} acknowledged after {late:.2f}s")
            raise _ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        cb_type, data = payload["type"], payload.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED, CB_MODAL},
            MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
            MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE},
            AUTOCOMPLETE: {CB_AUTOCOMPLETE},
        }[rec.type]
        if cb_type not in allowed:
            raise _ApiError(400, 50035, f"callback type {cb_type} is invalid for interaction type {rec.type}")
        rec.callback_data = data
        resource: JSON = {"type": cb_type}
        if cb_type in (CB_MESSAGE, CB_DEFERRED):
            msg = self._new_message(rec.channel, self.bot_user, interaction=rec)
            if cb_type == CB_DEFERRED:
                msg.flags = LOADING | (data.get("flags", 0) & EPHEMERAL)
            else:
                self._apply(msg, data, files, creating=True)
            rec.original = msg
            resource["message"] = self._message_payload(msg)
            await self._dispatch_message("MESSAGE_CREATE", msg)
        elif cb_type in (CB_UPDATE, CB_DEFERRED_UPDATE):
            if rec.source is None:
                raise _ApiError(400, 50035, "update callbacks need a component's message")
            rec.original = rec.source
            if cb_type == CB_UPDATE:
                self._apply(rec.source, data, files, creating=False)
                await self._dispatch_message("MESSAGE_UPDATE", rec.source)
                resource["message"] = self._message_payload(rec.source)
        elif cb_type == CB_AUTOCOMPLETE:
            try:
                limits.check_choices(data.get("choices", []))
            except limits.LimitError as e:
                raise _ApiError(400, 50035, f"Invalid Form Body: {e}") from None
            rec.choices = list(data.get("choices", []))
        elif cb_type == CB_MODAL:
            rec.modal = data
        rec.callback_type = cb_type
        self._bump()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        original = rec.original
        return _json(
            {
                "interaction": {
                    "id": str(rec.id),
                    "type": rec.type,
                    "response_message_id": str(original.id) if original is not None else None,
                    "response_message_loading": cb_type == CB_DEFERRED,
                    "response_message_ephemeral": bool(original is not None and original.ephemeral),
                },
                "resource": resource,
            }
        )

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> Message:
        if mid == "@original":
            if rec.original is None:
                raise _ApiError(404, 10008, "Unknown Message")
            return rec.original
        msg = next((m for m in rec.messages if str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec.callback_type is None:
            raise _ApiError(404, 10015, "Unknown Webhook")  # followups need an acknowledged interaction
        payload, files = await self._read_body(request)
        original = rec.original
        if (
            rec.callback_type == CB_DEFERRED
            and original is not None
            and original.loading
            and not rec.followups
        ):
            # Discord: the first followup after a thinking defer replaces the "is thinking" message
            # (keeping the defer's ephemerality).
            self._apply(original, payload, files, creating=False)
            original.flags &= ~LOADING
            msg = original
            await self._dispatch_message("MESSAGE_UPDATE", msg)
        else:
            msg = self._new_message(rec.channel, self.bot_user, interaction=rec)
            self._apply(msg, payload, files, creating=True)
            await self._dispatch_message("MESSAGE_CREATE", msg)
        rec.followups.append(msg)
        rec.activity += 1
        self._bump()
        if request.query.get("wait") in ("true", "1", "True"):
            return _json(self._message_payload(msg))
        return web.Response(status=204)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        return _json(self._message_payload(self._webhook_message(rec, request.match_info["mid"])))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        msg = self._webhook_message(rec, request.match_info["mid"])
        payload, files = await self._read_body(request)
        self._apply(msg, payload, files, creating=False)
        msg.flags &= ~LOADING
        rec.activity += 1
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        self._bump()
        return _json(self._message_payload(msg))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        await self._delete(self._webhook_message(rec, request.match_info["mid"]))
        rec.activity += 1
        self._bump()
        return web.Response(status=204)

    # -- message helpers -----------------------------------------------------------------------
    def _new_message(
        self,
        channel: Channel,
        author: User,
        *,
        content: str = "",
        interaction: InteractionRecord | None = None,
    ) -> Message:
        msg = Message(id=snowflake(), channel=channel, author=author, content=content)
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_user = interaction.user
            msg.interaction_type = interaction.type
            msg.interaction_name = interaction.data.get("name")
            msg.type = 20 if interaction.type == APPLICATION_COMMAND else 19
        self._messages[msg.id] = msg
        self._channel_messages.setdefault(channel.id, []).append(msg)
        self._bump()
        return msg

    async def _delete(self, msg: Message) -> None:
        msg.deleted = True
        self._bump()
        await self._dispatch_message("MESSAGE_DELETE", msg)

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, tuple[str, bytes, str | None]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]`` (returned by index n)."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        if request.content_type == "multipart/form-data":
            payload: JSON = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, aiohttp.BodyPartReader):
                    continue
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif name.startswith("files[") and name.endswith("]"):
                    data = bytes(await part.read())
                    files[int(name[6:-1])] = (part.filename or "file", data, part.headers.get("Content-Type"))
                else:
                    raise _ApiError(400, 50035, f"unexpected multipart field {name!r}")
            return payload, files
        if not request.can_read_body:
            return {}, files
        return await request.json(), files

    def _apply(
        self, msg: Message, payload: JSON, files: dict[int, tuple[str, bytes, str | None]], *, creating: bool
    ) -> None:
        """Apply a create/edit payload to ``msg``, after checking Discord's limits on the result."""
        content = payload["content"] or "" if "content" in payload else msg.content
        embeds = msg.embeds
        if "embeds" in payload:
            embeds = list(payload["embeds"] or [])
        elif payload.get("embed"):
            embeds = [payload["embed"]]
        components = list(payload["components"] or []) if "components" in payload else msg.components
        flags = msg.flags
        if payload.get("flags") is not None:
            # EPHEMERAL is fixed at creation (and cannot be edited); LOADING is never set by a bot.
            fixed = EPHEMERAL | LOADING
            flags = (int(payload["flags"]) & ~LOADING) if creating else (int(payload["flags"]) & ~fixed)
            flags |= msg.flags & (LOADING if creating else fixed)
        attachments = list(msg.attachments)
        uploads = dict(files)
        if "attachments" in payload:
            kept = {a.id: a for a in msg.attachments}
            attachments = []
            for entry in payload["attachments"] or []:
                aid = int(entry["id"])
                if aid in uploads:
                    fname, data, ctype = uploads.pop(aid)
                    name = entry.get("filename") or fname
                    attachments.append(Attachment(snowflake(), name, data, ctype, entry.get("description")))
                elif aid in kept:
                    attachments.append(kept[aid])
                else:
                    raise _ApiError(
                        400, 50035, f"attachment id {aid} matches neither an upload nor an attachment"
                    )
        attachments += [Attachment(snowflake(), f, d, c) for f, d, c in uploads.values()]
        if not (content or embeds or components or attachments):
            raise _ApiError(400, 50006, "Cannot send an empty message")
        try:
            limits.check_message(content, embeds, components, flags, len(attachments))
        except limits.LimitError as e:
            raise _ApiError(400, 50035, f"Invalid Form Body: {e}") from None
        msg.content, msg.embeds, msg.components, msg.flags = content, embeds, components, flags
        msg.attachments = attachments
        for a in attachments:
            self._attachments[a.id] = a
        if not creating:
            msg.edits += 1
            msg.edited_timestamp = iso_now()
        self._bump()

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
