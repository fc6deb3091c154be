"""Resolve a simulated user's slash command against what the bot synced, and validate its options.

Discord's client only offers commands that were registered; discord.py never checks this, so the fake
server refuses (raises :class:`CommandRefused` in the test) anything a real user could not type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .model import JSON, Channel, Member, Role, User, snowflake

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
CHAT_INPUT = 1


class CommandRefused(Exception):
    """A real Discord client would not let the user send this interaction."""


@dataclass
class Resolved:
    command: JSON  # the synced top-level command
    path: list[str]  # e.g. ["game", "move"]
    leaf_options: list[JSON]  # option definitions of the leaf (sub)command


def resolve(path: str, commands: list[JSON], *, in_dm: bool, member: Member | None) -> Resolved:
    """Find ``path`` ("game move") among ``commands`` (guild commands first, then global)."""
    parts = path.split()
    if not parts:
        raise CommandRefused("empty command name")
    top = next((c for c in commands if c["name"] == parts[0] and c.get("type", 1) == CHAT_INPUT), None)
    if top is None:
        names = sorted(c["name"] for c in commands if c.get("type", 1) == CHAT_INPUT)
        where = "DMs" if in_dm else "this guild"
        raise CommandRefused(f"/{parts[0]} was not synced for {where} (synced: {names})")
    contexts = top.get("contexts")
    if contexts is not None:
        ctx = 1 if in_dm else 0
        if ctx not in contexts:
            raise CommandRefused(f"/{parts[0]} is not available in context {ctx} (contexts={contexts})")
    elif in_dm and top.get("dm_permission") is False:
        raise CommandRefused(f"/{parts[0]} has dm_permission=false")
    required = top.get("default_member_permissions")
    if required is not None and member is not None and (int(required) & ~member.permissions):
        raise CommandRefused(f"/{parts[0]} needs permissions {required}; {member.user.name} lacks them")

    defs: list[JSON] = top.get("options") or []
    for depth, name in enumerate(parts[1:], start=1):
        sub = next(
            (o for o in defs if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
        )
        if sub is None:
            subs = [o["name"] for o in defs if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise CommandRefused(f"/{' '.join(parts[:depth])} has no subcommand {name!r} (has {subs})")
        defs = sub.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
        subs = [o["name"] for o in defs]
        raise CommandRefused(f"/{path} needs a subcommand: {subs}")
    return Resolved(command=top, path=parts, leaf_options=defs)


def _check_value(spec: JSON, value: Any, resolved: JSON, guild_members: dict[int, Member]) -> Any:
    """Validate one option value against its synced definition; return the wire value."""
    name, kind = spec["name"], spec["type"]

    def fail(why: str) -> CommandRefused:
        return CommandRefused(f"option {name!r}: {why} (got {value!r})")

    if kind == STRING:
        if not isinstance(value, str):
            raise fail("expected str")
        if len(value) < spec.get("min_length", 0) or len(value) > spec.get("max_length", 6000):
            raise fail("length out of range")
        wire: Any = value
    elif kind in (INTEGER, NUMBER):
        ok = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, ok):
            raise fail("expected a number" if kind == NUMBER else "expected int")
        if "min_value" in spec and value < spec["min_value"]:
            raise fail(f"below min_value {spec['min_value']}")
        if "max_value" in spec and value > spec["max_value"]:
            raise fail(f"above max_value {spec['max_value']}")
        wire = value
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise fail("expected bool")
        wire = value
    elif kind in (USER, MENTIONABLE) and isinstance(value, User):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if value.id in guild_members:
            member = guild_members[value.id]
            resolved.setdefault("members", {})[str(value.id)] = member.payload(
                with_user=False, with_permissions=True
            )
        wire = str(value.id)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        wire = str(value.id)
    elif kind == CHANNEL and isinstance(value, Channel):
        types = spec.get("channel_types")
        if types and value.type not in types:
            raise fail(f"channel type {value.type} not in {types}")
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.payload(),
            "permissions": str((1 << 53) - 1),
        }
        wire = str(value.id)
    elif kind == ATTACHMENT and isinstance(value, tuple) and len(value) == 2:
        filename, data = value
        aid = str(snowflake())
        # The server turns this into a downloadable attachment (FakeDiscord._upload_option_files).
        resolved.setdefault("attachments", {})[aid] = {"_filename": filename, "_data": bytes(data)}
        wire = aid
    else:
        raise fail(f"unsupported value for option type {kind}")
    choices = spec.get("choices")
    if choices and wire not in [c["value"] for c in choices]:
        raise fail(f"not one of the choices {[c['value'] for c in choices]}")
    return wire


def build_options(
    res: Resolved,
    values: dict[str, Any],
    *,
    focused: str | None = None,
    guild_members: dict[int, Member] | None = None,
) -> tuple[list[JSON], JSON]:
    """The ``data.options`` tree and ``data.resolved`` for an invocation.

    With ``focused`` (autocomplete) that option's value is the partial text typed so far, and other
    values are not required (the user has not finished typing).
    """
    specs = {o["name"]: o for o in res.leaf_options}
    resolved: JSON = {}
    leaf: list[JSON] = []
    for name in values:
        if name not in specs:
            raise CommandRefused(f"/{' '.join(res.path)} has no option {name!r} (has {sorted(specs)})")
    if focused is not None:
        spec = specs.get(focused)
        if spec is None:
            raise CommandRefused(f"/{' '.join(res.path)} has no option {focused!r}")
        if not spec.get("autocomplete"):
            raise CommandRefused(f"option {focused!r} of /{' '.join(res.path)} has no autocomplete")
    for spec in res.leaf_options:
        name = spec["name"]
        if name not in values:
            if spec.get("required") and focused is None:
                raise CommandRefused(f"/{' '.join(res.path)}: required option {name!r} missing")
            continue
        if name == focused:
            leaf.append({"name": name, "type": spec["type"], "value": str(values[name]), "focused": True})
            continue
        wire = _check_value(spec, values[name], resolved, guild_members or {})
        leaf.append({"name": name, "type": spec["type"], "value": wire})
    options = leaf
    subs = res.path[1:]
    kinds = [SUB_COMMAND] + [SUB_COMMAND_GROUP] * (len(subs) - 1) if subs else []
    for name, kind in zip(reversed(subs), kinds, strict=True):
        options = [{"name": name, "type": kind, "options": options}]
    return options, resolved


# Select menu component types -> the option type whose value checks apply to each picked entity.
_SELECT_KINDS = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}


def resolve_entities(
    menu: JSON, values: Sequence[object], guild_members: dict[int, Member]
) -> tuple[list[str], JSON]:
    """The ``values`` (ids) and ``resolved`` data of a user/role/mentionable/channel select."""
    kind = _SELECT_KINDS.get(menu["type"])
    if kind is None:
        raise CommandRefused(f"component type {menu['type']} is not a select menu")
    spec = {"name": menu.get("custom_id", "select"), "type": kind, "channel_types": menu.get("channel_types")}
    resolved: JSON = {}
    ids = [_check_value(spec, v, resolved, guild_members) for v in values]
    return ids, resolved
