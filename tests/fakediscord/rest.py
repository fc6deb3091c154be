"""REST v10 side of the fake Discord (mixed into :class:`~tests.fakediscord.server.FakeDiscord`).

Every JSON answer carries ``Content-Type: application/json`` exactly (discord.py compares the header
string; aiohttp's ``json_response`` would add ``; charset=utf-8``). Errors use Discord's codes and are
never 5xx (discord.py retries those with back-off). Unknown routes answer 404 and are recorded.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from . import limits
from .model import (
    EPHEMERAL,
    JSON,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Guild,
    Message,
    User,
    iso_now,
    snowflake,
)

if TYPE_CHECKING:
    from .gateway import Gateway
    from .server import InteractionRecord, Problem

API_PREFIX = "/api/v10"
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


@dataclass(eq=False)
class Fault:
    """An error the fake answers instead of handling a matching request (see ``FakeDiscord.fault``)."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int  # how many more requests it answers; -1: until removed
    retry_after: float = 0.0
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return self.times != 0 and self.method in ("*", method) and bool(self.path.search(path))


class ApiError(Exception):
    """Answered as Discord does: ``status`` with JSON ``{"code": code, "message": message}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header string (json_response adds charset).
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]*))')


def _params(header: str) -> dict[str, str]:
    """The parameters of a header value (`form-data; name="files[0]"; filename="board.png"`), lower-case
    keys, quoted strings unescaped; `key*=utf-8''…` (RFC 2231) decoded."""
    out: dict[str, str] = {}
    for key, quoted, token in _PARAM.findall(header):
        key = key.lower()
        value = re.sub(r"\\(.)", r"\1", quoted) if quoted or not token else token
        if key.endswith("*") and "'" in value:
            charset, _, value = value.split("'", 2)
            out[key[:-1]] = urllib.parse.unquote(value, charset or "utf-8")
        else:
            out.setdefault(key, value)
    return out


def read_form(content_type: str, body: bytes) -> tuple[JSON, dict[int, tuple[str, bytes, str | None]]]:
    """A multipart/form-data body as discord.py sends it: the `payload_json` part, and each `files[n]`
    part as (filename, bytes, its Content-Type) by index n. Any other field is a bad request."""
    boundary = _params(content_type).get("boundary")
    if not boundary:
        raise ApiError(400, 50035, "multipart body without a boundary")
    payload: JSON = {}
    files: dict[int, tuple[str, bytes, str | None]] = {}
    for chunk in body.split(b"--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            raise ApiError(400, 50035, "malformed multipart part")
        if data.endswith(b"\r\n"):
            data = data[:-2]
        headers: dict[str, str] = {}
        for line in head.decode("utf-8").split("\r\n"):
            key, colon, value = line.partition(":")
            if colon:
                headers[key.strip().lower()] = value.strip()
        disposition = _params(headers.get("content-disposition", ""))
        name, filename = disposition.get("name", ""), disposition.get("filename")
        if name == "payload_json":
            payload = json.loads(data.decode(_params(headers.get("content-type", "")).get("charset", "utf-8")))
        elif name.startswith("files[") and name.endswith("]"):
            files[int(name[6:-1])] = (filename or "file", data, headers.get("content-type"))
        else:
            raise ApiError(400, 50035, f"unexpected multipart field {name!r}")
    return payload, files


class RestApi:
    """The HTTP handlers. State lives in FakeDiscord; these declarations are for the type checker."""

    if TYPE_CHECKING:
        bot_user: User
        application_id: int
        users: dict[int, User]
        channels: dict[int, Channel]
        guilds: list[Guild]
        global_commands: list[JSON]
        guild_commands: dict[int, list[JSON]]
        problems: list[Problem]
        requests: list[tuple[str, str]]
        faults: list[Fault]
        faulted: list[tuple[str, str, int, int]]
        bad_tokens: set[str]
        ack_deadline: float
        gateway: Gateway
        _command_ids: dict[tuple[int | None, str], int]
        _by_token: dict[str, InteractionRecord]
        _messages: dict[int, Message]
        _attachments: dict[int, Attachment]
        _channel_messages: dict[int, list[Message]]

        @property
        def base_url(self) -> str: ...
        def record_problem(self, kind: str, detail: str) -> None: ...
        def _bump(self, channel: Channel | None = None) -> None: ...
        def dm_channel(self, user: User) -> Channel: ...
        def messages(self, channel: Channel, *, viewer: User | None = None) -> list[Message]: ...
        def add_channel(
            self,
            guild: Guild,
            name: str,
            *,
            type: int = 0,
            parent: Channel | None = None,
            channel_id: int | None = None,
        ) -> Channel: ...

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
            path = request.path[len(API_PREFIX) :]
            self.requests.append((request.method, path))
            # Interaction callbacks and webhook-token routes are the only ones Discord serves without auth.
            token_route = path.startswith(("/interactions/", "/webhooks/"))
            if not token_route and not request.headers.get("Authorization", "").startswith("Bot "):
                self.record_problem("unauthorized", f"{request.method} {request.path} without 'Bot <token>'")
                return _json({"code": 0, "message": "401: Unauthorized"}, 401)
            fault = next((f for f in self.faults if f.matches(request.method, path)), None)
            if fault is not None:
                return self._answer_fault(fault, request.method, path)
        try:
            return await handler(request)
        except ApiError as e:
            if e.status >= 500 or e.code == 50035:
                self.record_problem("bad-request", f"{request.method} {request.path}: {e.message}")
            return _json({"code": e.code, "message": e.message}, e.status)
        except (web.HTTPException, asyncio.CancelledError):
            raise
        except Exception as e:  # a bug in the fake or a payload it cannot handle: 400, never a retried 5xx
            self.record_problem("bad-request", f"{request.method} {request.path}: {e!r}")
            return _json({"code": 50035, "message": f"Invalid Form Body ({e!r})"}, 400)

    def _answer_fault(self, fault: Fault, method: str, path: str) -> web.Response:
        """An injected error, answered exactly as Discord would (429 with the headers discord.py reads)."""
        fault.times -= 1 if fault.times > 0 else 0
        fault.hits += 1
        self.faulted.append((method, path, fault.status, fault.code))
        self._bump()
        if fault.status == 429:
            body = {"message": "You are being rate limited.", "retry_after": fault.retry_after, "global": False}
            headers = {"Via": "1.1 google", "Retry-After": str(max(1, round(fault.retry_after)))}
            headers["X-RateLimit-Scope"] = "user"
            return web.Response(
                status=429, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **headers}
            )
        return _json({"code": fault.code, "message": fault.message}, fault.status)

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
            raise ApiError(404, 0, "404: Not Found")
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
        self._bump(msg.channel)
        return web.Response(status=204)

    async def _get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").removeprefix("Bot ") in self.bad_tokens:
            return _json({"code": 0, "message": "401: Unauthorized"}, 401)
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
            raise ApiError(404, 10013, "Unknown User")
        return _json(user.payload())

    def _command_list(self, request: web.Request) -> tuple[list[JSON], int | None]:
        self._check_app(request)
        if "guild" in request.match_info:
            gid = int(request.match_info["guild"])
            if not any(g.id == gid for g in self.guilds):
                raise ApiError(404, 10004, "Unknown Guild")
            return self.guild_commands.setdefault(gid, []), gid
        return self.global_commands, None

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app") != str(self.application_id):
            raise ApiError(404, 10002, "Unknown Application")

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
        commands = await request.json()
        try:
            limits.check_commands(commands)
        except limits.LimitError as e:
            raise ApiError(400, 50035, f"Invalid Form Body: {e}") from None
        current[:] = [self._stored_command(raw, gid) for raw in commands]
        return _json(current)

    async def _post_command(self, request: web.Request) -> web.Response:
        current, gid = self._command_list(request)
        raw = await request.json()
        others = [c for c in current if c["name"] != raw.get("name")]
        try:
            limits.check_commands([*others, raw])
        except limits.LimitError as e:
            raise ApiError(400, 50035, f"Invalid Form Body: {e}") from None
        cmd = self._stored_command(raw, gid)
        current[:] = [*others, cmd]
        return _json(cmd, 201)

    def _channel(self, request: web.Request) -> Channel:
        chan = self.channels.get(int(request.match_info["cid"]))
        if chan is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return chan

    def _find_message(self, chan: Channel, mid: str) -> Message:
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel is not chan or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _message_payload(self, msg: Message) -> JSON:
        return msg.payload(self.base_url)

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise ApiError(400, 50035, f"Invalid recipient {body['recipient_id']}")
        return _json(self.dm_channel(user).payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel(request).payload())

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = next((g for g in self.guilds if str(g.id) == request.match_info["gid"]), None)
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return _json(guild.payload())

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = next((g for g in self.guilds if str(g.id) == request.match_info["gid"]), None)
        member = guild.members.get(int(request.match_info["uid"])) if guild else None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
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
            raise ApiError(403, 50007, "Cannot send messages to this user")
        payload, files = await self._read_body(request)
        msg = self._new_message(chan, self.bot_user)
        self._apply(msg, payload, files, creating=True)
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return _json(self._message_payload(msg))

    async def _edit_message(self, request: web.Request) -> web.Response:
        msg = self._find_message(self._channel(request), request.match_info["mid"])
        if msg.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
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
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        starter = (
            self._find_message(parent, request.match_info["mid"]) if "mid" in request.match_info else None
        )
        kind = int(body.get("type") or PUBLIC_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(400, 50035, f"Invalid Form Body: thread type {kind}")
        thread = self.add_channel(
            parent.guild,
            body.get("name", "thread"),
            type=kind,
            parent=parent,
            channel_id=starter.id if starter else None,  # a thread's id is its starter message's id
        )
        return _json(thread.payload(), 201)

    # -- interactions --------------------------------------------------------------------------
    def _interaction(self, request: web.Request) -> InteractionRecord:
        rec = self._by_token.get(request.match_info["token"])
        if rec is None or ("iid" in request.match_info and request.match_info["iid"] != str(rec.id)):
            raise ApiError(404, 10062, "Unknown interaction")
        if "app" in request.match_info:
            self._check_app(request)
        return rec

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - rec.created
        if late > self.ack_deadline:
            self.record_problem("late-ack", f"interaction {rec.id} acknowledged after {late:.2f}s")
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        cb_type, data = payload["type"], payload.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED, CB_MODAL},
            MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
            MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE},
            AUTOCOMPLETE: {CB_AUTOCOMPLETE},
        }[rec.type]
        if cb_type not in allowed:
            raise ApiError(400, 50035, f"callback type {cb_type} is invalid for interaction type {rec.type}")
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
                raise ApiError(400, 50035, "update callbacks need a component's message")
            rec.original = rec.source
            if cb_type == CB_UPDATE:
                self._apply(rec.source, data, files, creating=False)
                await self._dispatch_message("MESSAGE_UPDATE", rec.source)
                resource["message"] = self._message_payload(rec.source)
        elif cb_type == CB_AUTOCOMPLETE:
            try:
                limits.check_choices(data.get("choices", []))
            except limits.LimitError as e:
                raise ApiError(400, 50035, f"Invalid Form Body: {e}") from None
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
                raise ApiError(404, 10008, "Unknown Message")
            return rec.original
        msg = next((m for m in rec.messages if str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")  # followups need an acknowledged interaction
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
        self._bump(channel)
        return msg

    async def _delete(self, msg: Message) -> None:
        msg.deleted = True
        self._bump(msg.channel)
        await self._dispatch_message("MESSAGE_DELETE", msg)

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, tuple[str, bytes, str | None]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]`` (returned by index n).

        Read by hand (`read_form`): aiohttp's readers parse every part's headers with the `email`
        package, which cost the load bench more CPU than the bot's own requests."""
        ctype = request.headers.get("Content-Type", "")
        if ctype.split(";", 1)[0].strip().lower() == "multipart/form-data":
            return read_form(ctype, await request.read())
        if not request.can_read_body:
            return {}, {}
        return json.loads(await request.read()), {}

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
                    raise ApiError(
                        400, 50035, f"attachment id {aid} matches neither an upload nor an attachment"
                    )
        attachments += [Attachment(snowflake(), f, d, c) for f, d, c in uploads.values()]
        if not (content or embeds or components or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        try:
            limits.check_message(content, embeds, components, flags, len(attachments))
            limits.check_attachments([(a.filename, len(a.data), a.description) for a in attachments])
        except limits.LimitError as e:
            raise ApiError(400, 50035, f"Invalid Form Body: {e}") from None
        msg.content, msg.embeds, msg.components, msg.flags = content, embeds, components, flags
        if not msg.contents or msg.contents[-1] != content:
            msg.contents.append(content)
        msg.attachments = attachments
        for a in attachments:
            self._attachments[a.id] = a
        if not creating:
            msg.edits += 1
            msg.edited_timestamp = iso_now()
        self._bump(msg.channel)
