"""Counting what each player was sent over a game (issue #11): notices per decision, messages left."""

from __future__ import annotations

from typing import Any

from bot.rules import get_game
from bot.store import TableRow
from bot.tables import next_awaited
from tests.e2e.conftest import World
from tests.fakediscord import Channel, FakeDiscord, Message, User

MAX_LEFT = 20  # the bound on the bot's messages left in the table's channel at the end


async def decisions(w: World, table: TableRow) -> dict[int, int]:
    """Seat -> how many distinct decisions were awaited of it (replayed from the log, as the table
    service counts them: a seat still awaited after someone else acted keeps its decision)."""
    assert w.bot is not None
    game = get_game(table.game)
    state = game.new(len(table.seats), table.seed, table.options)
    awaited = next_awaited({}, game.to_act(state), None, 0)
    seen = {(s, v) for s, v in awaited.items()}
    for row in await w.bot.service.store.actions(table.id, kind="move"):
        state, _ = game.apply(state, row.seat, game.load_action(row.action))
        awaited = next_awaited(awaited, game.to_act(state), row.seat, row.seq)
        seen |= {(s, v) for s, v in awaited.items()}
    out: dict[int, int] = {}
    for s, _v in seen:
        out[s] = out.get(s, 0) + 1
    return out


def ever_posted(server: FakeDiscord, channel: Channel) -> list[Message]:
    """Every message the bot posted in `channel`, deleted ones included (what notified someone)."""
    return [m for m in server._channel_messages.get(channel.id, []) if m.author is server.bot_user and not m.ephemeral]


def dm_notices(server: FakeDiscord, user: User) -> list[Message]:
    """The bot's messages in the user's DMs, deleted ones included; not the ephemeral answers to their
    own clicks there (a click on a panel a newer one replaced meanwhile is refused ephemerally: an
    answer, not a notice)."""
    return [
        m
        for m in server._channel_messages.get(server.dm_channel(user).id, [])
        if m.author is server.bot_user and not m.ephemeral
    ]


def is_secret(m: Message) -> bool:
    """A DM holding only a seat's private lines ("🔒 …"), sent when something secret happened to a seat
    that is not deciding now (Sweets Stack: the candy that did not fit put them out of the round): news
    of an event, not a notice of a decision."""
    return bool(m.content) and all(line.startswith("🔒") for line in m.content.splitlines() if line)


def notices(server: FakeDiscord, user: User, channel: Channel) -> dict[str, int]:
    every = dm_notices(server, user)
    dms = [m for m in every if not is_secret(m)]
    secrets = [m.content for m in every if is_secret(m)]
    assert len(set(secrets)) == len(secrets), ("a secret was sent twice", user.name, secrets)
    pings = [m for m in ever_posted(server, channel) if m.contents and f"<@{user.id}>" in m.contents[0]]
    end = [m for m in pings if m.content.startswith("🏁")]
    return {"dms": len(dms), "secrets": len(secrets), "pings": len(pings) - len(end), "end": len(end)}


def left_in(server: FakeDiscord, channel: Channel) -> list[Message]:
    return [m for m in server.messages(channel) if m.author is server.bot_user and not m.ephemeral]


def assert_one_notice_per_decision(w: World, table: TableRow, counts: dict[int, int]) -> dict[str, Any]:
    """Each human was told at most once per decision (the DM-closed notice once, the game-over message
    once; a secret event DM'd to a seat not deciding, once each, apart), the channel keeps at most
    MAX_LEFT of the bot's messages, and no decision ping is left."""
    server = w.server
    report: dict[str, Any] = {}
    for seat in table.seats:
        user = next(u for u in (w.alice, w.bob, w.carol) if u.id == seat.user_id)
        got = notices(server, user, w.chan)
        closed_notice = 1 if not user.dms_open else 0
        assert got["dms"] + got["pings"] <= counts.get(seat.seat, 0) + closed_notice, (
            user.name,
            got,
            counts,
            [m.content[:50] for m in dm_notices(server, user)][-12:],
        )
        assert got["end"] == 1, (user.name, got)
        report[user.name] = {**got, "decisions": counts.get(seat.seat, 0)}
    left = left_in(server, w.chan)
    assert len(left) <= MAX_LEFT, [m.content[:40] for m in left]
    pings_left = [m for m in left if "— your move" in m.content or m.content.startswith("⏰")]
    assert pings_left == [], [m.content for m in pings_left]
    report["left_in_channel"] = len(left)
    return report
