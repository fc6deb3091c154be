"""Gateway v10 (WebSocket) side of the fake Discord.

HELLO -> IDENTIFY -> READY (loopback ``resume_gateway_url``) + one GUILD_CREATE per guild; heartbeats
are ACKed; RESUME replays what the bot missed and sends RESUMED (or INVALID_SESSION if the session is
unknown); REQUEST_GUILD_MEMBERS gets one GUILD_MEMBERS_CHUNK. Shards as Discord routes them: a session
that IDENTIFYs with `shard: [id, count]` gets the guilds with `(guild_id >> 22) % count == id` and
their events; DMs and DM interactions go to shard 0 only (a session without `shard` gets everything).
Frames are TEXT JSON unless the client asks for ``compress=zlib-stream``: then one zlib stream per
connection, Z_SYNC_FLUSH after each payload.
(discord.py asks for zstd-stream when ``zstandard`` is importable; it accepts TEXT frames then too.)
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from .model import JSON, shard_of

if TYPE_CHECKING:
    from .server import FakeDiscord

# Intents that change what Discord sends (https://discord.com/developers/docs/events/gateway#gateway-intents).
GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 1, 1 << 9, 1 << 12, 1 << 15

HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, ACK = (
    1, 2, 3, 4, 6, 7, 8, 9, 10, 11,
)  # fmt: skip


@dataclass(eq=False)
class Session:
    ws: web.WebSocketResponse
    compressor: Any | None  # zlib compressobj for zlib-stream, else None (TEXT frames)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seq: int = 0
    session_id: str = ""
    identified: bool = False
    intents: int = 0
    shard: tuple[int, int] | None = None  # (id, count) from IDENTIFY; None: unsharded, every event
    history: list[JSON] = field(default_factory=list)  # dispatches sent, replayed on RESUME


class Gateway:
    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.heartbeat_interval_ms = 41250  # lower it before start_client to see heartbeats quickly
        self.ops: list[int] = []  # every op the bot sent (1 heartbeat, 2 identify, 6 resume, 8 ...)
        self.compression: list[str | None] = []  # the compress= query of every connection
        self.sessions: list[Session] = []  # live connections
        self.detached: dict[str, Session] = {}  # closed but resumable sessions, by session_id
        self.ever_connected = False
        self._outbox: list[tuple[str, JSON]] = []
        self._lock = asyncio.Lock()  # keeps dispatches in order across tasks
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def connected(self) -> bool:
        return any(s.identified for s in self.sessions)

    @staticmethod
    def receives(session: Session, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of `guild_id` (None: a DM)."""
        if session.shard is None:
            return True
        shard, count = session.shard
        return shard_of(guild_id, count) == shard

    def connected_for(self, guild_id: int | None) -> bool:
        """A live, identified session receives the events of `guild_id` (None: DMs)."""
        return any(s.identified and self.receives(s, guild_id) for s in self.sessions)

    @staticmethod
    def guild_of(event: str, data: JSON) -> int | None:
        """The guild an event belongs to, for routing (None: a DM, which goes to shard 0)."""
        raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else data.get("guild_id")
        return int(raw) if raw is not None else None

    # -- dispatching -----------------------------------------------------------------------------
    async def dispatch(self, event: str, data: JSON) -> None:
        """Send an event to the bot (after any events queued by :meth:`fire`, in order)."""
        self._outbox.append((event, data))
        await self._flush()

    def fire(self, event: str, data: JSON) -> None:
        """Queue an event from synchronous code; no-op before the bot identified (READY has it all)."""
        if any(s.identified for s in [*self.sessions, *self.detached.values()]):
            self._outbox.append((event, data))
            task = asyncio.get_running_loop().create_task(self._flush())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _flush(self) -> None:
        async with self._lock:
            while self._outbox:
                event, data = self._outbox.pop(0)
                # Detached sessions only record the event, to replay it on RESUME.
                guild_id = self.guild_of(event, data)
                for session in [*self.sessions, *self.detached.values()]:
                    if not self.receives(session, guild_id):
                        continue
                    visible = self._filter(session, event, data)
                    if session.identified and visible is not None:
                        await self._send(session, {"op": 0, "t": event, "d": visible, "s": None})

    def _filter(self, session: Session, event: str, data: JSON) -> JSON | None:
        """What Discord sends for these intents: no member events without GUILD_MEMBERS, no message
        events without GUILD_MESSAGES / DIRECT_MESSAGES, and no content without MESSAGE_CONTENT
        (except the bot's own messages, DMs and messages mentioning the bot)."""
        intents = session.intents
        if event == "GUILD_MEMBER_ADD" and not intents & GUILD_MEMBERS:
            return None
        if event.startswith("MESSAGE_"):
            needed = GUILD_MESSAGES if "guild_id" in data else DIRECT_MESSAGES
            if not intents & needed:
                return None
            author = str((data.get("author") or {}).get("id"))
            me = str(self.server.bot_user.id)
            mentioned = any(str(u.get("id")) == me for u in data.get("mentions") or [])
            hidden = "guild_id" in data and not intents & MESSAGE_CONTENT and author != me and not mentioned
            if "content" in data and hidden:
                return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        return data

    async def reconnect(self, close_code: int | None, resumable: bool) -> None:
        for session in [s for s in self.sessions if s.identified]:
            if close_code is None:
                await self._send(session, {"op": RECONNECT, "d": None, "s": None, "t": None})
            if not resumable:
                session.identified = False  # so it is not kept for RESUME when it closes
            if close_code is not None:
                await session.ws.close(code=close_code)

    async def close_all(self) -> None:
        for session in list(self.sessions):
            await session.ws.close(code=1000)

    # -- connection ------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        self.compression.append(compress)
        if request.query.get("encoding", "json") != "json":
            self.server.record_problem("gateway", f"unsupported encoding {request.query.get('encoding')}")
        session = Session(ws, zlib.compressobj() if compress == "zlib-stream" else None)
        self.sessions.append(session)
        try:
            hello = {"heartbeat_interval": self.heartbeat_interval_ms}
            await self._send(session, {"op": HELLO, "d": hello, "s": None, "t": None})
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    await self._on_message(session, json.loads(msg.data))
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    self.server.record_problem("gateway", "binary frame from the client")
        finally:
            self.sessions.remove(session)
            if session.identified and session.session_id:
                self.detached[session.session_id] = session
            self.server._bump()
        return ws

    async def _on_message(self, session: Session, payload: JSON) -> None:
        op, d = payload.get("op"), payload.get("d")
        self.ops.append(op if isinstance(op, int) else -1)
        self.server._bump()
        if op == HEARTBEAT:
            await self._send(session, {"op": ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            assert isinstance(d, dict)
            session.intents = int(d.get("intents") or 0)
            shard = d.get("shard")
            if shard is not None:
                if not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
                    self.server.record_problem("gateway", f"IDENTIFY with a malformed shard {shard!r}")
                    await session.ws.close(code=4010)  # Discord: invalid shard
                    return
                counts = {s.shard[1] for s in self.sessions if s.shard is not None and s.identified}
                if counts and counts != {shard[1]}:
                    self.server.record_problem("gateway", f"shard {shard} identifies beside shard counts {counts}")
                    await session.ws.close(code=4011)  # Discord: sharding required / inconsistent
                    return
                session.shard = (int(shard[0]), int(shard[1]))
            await self._identify(session)
        elif op == RESUME:
            assert isinstance(d, dict)
            await self._resume(session, d)
        elif op == REQUEST_MEMBERS:
            assert isinstance(d, dict)
            await self._send_members(session, d)
        elif op in (PRESENCE, VOICE):
            pass
        else:
            self.server.record_problem("gateway", f"unexpected gateway op {op}: {payload}")

    async def _identify(self, session: Session) -> None:
        server = self.server
        session.session_id = secrets.token_hex(16)
        guilds = [g for g in server.guilds if self.receives(session, g.id)]
        ready = {
            "v": 10,
            "user": {**server.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": server.gateway_url,  # loopback, or discord.py reconnects to Discord
            "shard": list(session.shard or (0, 1)),
            "application": {"id": str(server.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        async with self._lock:
            await self._send(session, {"op": 0, "t": "READY", "d": ready, "s": None})
            for guild in guilds:
                data = guild.payload()
                if not session.intents & GUILD_MEMBERS:  # Discord then sends only the bot itself
                    data["members"] = [
                        m for m in data["members"] if m["user"]["id"] == str(server.bot_user.id)
                    ]
                await self._send(session, {"op": 0, "t": "GUILD_CREATE", "d": data, "s": None})
            session.identified = True
            self.ever_connected = True
        server._bump()

    async def _resume(self, session: Session, d: JSON) -> None:
        async with self._lock:
            old = self.detached.pop(str(d.get("session_id")), None)
            seq = d.get("seq")
            if old is None or not isinstance(seq, int) or seq > old.seq:
                await self._send(session, {"op": INVALID_SESSION, "d": False, "s": None, "t": None})
                return
            session.session_id, session.seq, session.history = old.session_id, old.seq, old.history
            async with session.lock:
                for sent in [p for p in old.history if p["s"] > seq]:
                    await self._send_raw(session, sent)
            await self._send(session, {"op": 0, "t": "RESUMED", "d": {}, "s": None})
            session.identified = True
        self.server._bump()

    async def _send_members(self, session: Session, d: JSON) -> None:
        guild = next((g for g in self.server.guilds if str(g.id) == str(d.get("guild_id"))), None)
        if guild is None:
            return
        if not session.intents & GUILD_MEMBERS:
            self.server.record_problem("gateway", "REQUEST_GUILD_MEMBERS without the GUILD_MEMBERS intent")
            await session.ws.close(code=4013)  # Discord: disallowed intent(s)
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "nonce": d.get("nonce"),
        }
        await self._send(session, {"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk, "s": None})

    # -- frames ----------------------------------------------------------------------------------
    async def _send(self, session: Session, payload: JSON) -> None:
        async with session.lock:
            if payload.get("op") == 0:
                session.seq += 1
                payload = {**payload, "s": session.seq}
                session.history.append(payload)
                del session.history[:-1000]
            await self._send_raw(session, payload)

    async def _send_raw(self, session: Session, payload: JSON) -> None:
        if session.ws.closed:
            return
        raw = json.dumps(payload)
        if session.compressor is not None:
            data = session.compressor.compress(raw.encode()) + session.compressor.flush(zlib.Z_SYNC_FLUSH)
            await session.ws.send_bytes(data)
        else:
            await session.ws.send_str(raw)
