"""State kept by the fake Discord server, and its JSON (wire) form.

Everything here is plain data; the server in ``server.py`` mutates it and serialises it with the
``*_payload`` helpers. Tests read it directly (``message.content``, ``message.attachments[0].data``).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)

# Channel types (Discord API)
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Component types
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4


def snowflake() -> int:
    """A fresh, increasing snowflake whose timestamp is now."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's routing: a guild's events go to shard `(guild_id >> 22) % shard_count`; DMs to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake that routes to `shard` of `shard_count` (its timestamp moved ahead < count ms)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    ms += (shard - ms) % shard_count
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None
    locale: str = "en-US"  # the client's language: sent as every interaction's `locale`

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone | roles; administrator (or owner) means all."""
        value = self.guild.default_role.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR or self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1


@dataclass(eq=False)
class Channel:
    id: int
    name: str | None
    type: int
    guild: Guild | None = None
    parent_id: int | None = None
    recipient: User | None = None
    position: int = 0
    owner_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def payload(self) -> JSON:
        data: JSON = {"id": str(self.id), "type": self.type, "flags": 0, "last_message_id": None}
        if self.type == DM:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.payload()]
            return data
        assert self.guild is not None
        data.update(
            guild_id=str(self.guild.id),
            name=self.name,
            position=self.position,
            permission_overwrites=[],
            nsfw=False,
            topic=None,
            rate_limit_per_user=0,
            parent_id=str(self.parent_id) if self.parent_id else None,
        )
        if self.type in (PUBLIC_THREAD, PRIVATE_THREAD):
            data.update(
                owner_id=str(self.owner_id or 0),
                message_count=0,
                member_count=1,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": iso_now(),
                },
            )
        return data

    def __repr__(self) -> str:
        return f"<Channel {self.name or 'DM'} {self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    roles: list[Role] = field(default_factory=list)
    preferred_locale: str = "en-US"  # the server's language: interactions' `guild_locale`

    @property
    def default_role(self) -> Role:
        return self.roles[0]

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "unavailable": False,
            "large": False,
            "joined_at": iso_now(),
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels if c.type not in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "threads": [c.payload() for c in self.channels if c.type in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self, base: str) -> JSON:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": f"{base}/attachments/{self.id}/{self.filename}",
            "proxy_url": f"{base}/attachments/{self.id}/{self.filename}",
            "content_type": self.content_type,
            "description": self.description,
        }


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, depth first (action rows, containers, sections, labels included)."""
    for c in components:
        yield c
        if "components" in c:
            yield from walk_components(c["components"])
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                yield from walk_components([c[key]])


@dataclass(eq=False)
class Message:
    """A message as the server stores it. ``embeds`` and ``components`` are raw JSON dicts."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_name: str | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    edits: int = 0
    mentions: list[User] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)  # emoji the bot added (URL-quoted as sent)
    contents: list[str] = field(default_factory=list)  # every content it had, first as created (who it told)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user: User) -> bool:
        if self.deleted:
            return False
        if self.ephemeral:
            return self.interaction_user is user
        if self.channel.is_dm:
            return user is self.channel.recipient or user is self.author
        return True

    # -- component helpers ---------------------------------------------------------------------
    def all_components(self) -> list[JSON]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    @property
    def selects(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> JSON:
        """The button with this label (or custom_id); raises LookupError listing what exists."""
        for b in self.buttons:
            if (label is not None and b.get("label") == label) or (
                custom_id is not None and b.get("custom_id") == custom_id
            ):
                return b
        have = [(b.get("label"), b.get("custom_id")) for b in self.buttons]
        raise LookupError(f"no button label={label!r} custom_id={custom_id!r} in message; buttons: {have}")

    def select(self, custom_id: str | None = None) -> JSON:
        """The select menu with this custom_id (or the only one)."""
        found = [s for s in self.selects if custom_id is None or s.get("custom_id") == custom_id]
        if len(found) != 1:
            raise LookupError(f"select {custom_id!r}: {len(found)} matches in {self.selects}")
        return found[0]

    def payload(self, base: str) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload(base) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
            data["interaction"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "name": self.interaction_name or "",
                "user": self.interaction_user.payload(),
            }
        return data

    def __repr__(self) -> str:
        eph = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id}{eph} in {self.channel!r} by {self.author.name}: {self.content[:40]!r}>"
