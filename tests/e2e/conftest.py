"""The real bot (create_bot, every cog) against a fresh local Discord per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.app import SpookyBot, create_bot
from bot.config import Settings
from tests.fakediscord import Channel, FakeDiscord, Guild, Message, User, client_options, start_client
from tests.fakediscord.fixtures import fake_discord  # noqa: F401  (fixture)

PERMISSIONS_WITHOUT_THREADS = 277025442816  # View, Send, Send in Threads, Embed, Attach, App Commands
WAIT = 15.0  # generous: a loaded 2-core machine can take seconds to render and deliver


@dataclass
class World:
    server: FakeDiscord
    guild: Guild
    chan: Channel
    alice: User
    bob: User
    carol: User  # DMs closed
    dave: User  # never seated
    db: Path
    bot: SpookyBot | None = None
    boots: list[SpookyBot] = field(default_factory=list)
    db_url: str | None = None  # postgresql://…: the bot runs on PostgreSQL instead of the file `db`

    def settings(self) -> Settings:
        return Settings(
            token="test-token",
            database_path=self.db,
            database_url=self.db_url,
            dev_guild_id=self.guild.id,
            api_base=self.server.api_base,
            gateway_url=self.server.gateway_url,
            reminder_poll=3600,
        )

    async def boot(self) -> SpookyBot:
        """Start a bot on this world's database (again, for a restart)."""
        bot = create_bot(self.settings(), **client_options(self.server))
        await start_client(self.server, bot)
        self.bot = bot
        self.boots.append(bot)
        return bot

    async def board(self, predicate: Callable[[Message], bool] | None = None, after: int = 0) -> Message:
        """The newest board message (an embed titled '… · table #N') once one matches."""

        def is_board(m: Message) -> bool:
            return (
                m.id > after
                and bool(m.embeds)
                and "· table #" in m.embeds[0].get("title", "")
                and (predicate is None or predicate(m))
            )

        await self.server.wait_for_message(self.chan, is_board, timeout=WAIT)
        return [m for m in self.server.messages(self.chan) if is_board(m)][-1]


@pytest.fixture
async def world(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[World]:  # noqa: F811
    w = await make_world(fake_discord, tmp_path)
    yield w


async def make_world(server: FakeDiscord, tmp_path: Path, db_url: str | None = None) -> World:
    """A server, a channel, four users and the bot booted on them (on PostgreSQL when `db_url`)."""
    # the bot holds the permissions of the README's earlier invite (no Create Public Threads), so games
    # play in the channel; tests/e2e/test_etiquette.py grants threads where it tests them
    # (an owner has every permission, so the server belongs to someone else)
    owner = server.add_user("owner")
    guild = server.add_guild(name="Spooky", owner=owner, bot_permissions=PERMISSIONS_WITHOUT_THREADS)
    chan = server.add_channel(guild, "games")
    users = [server.add_user(n) for n in ("alice", "bob")]
    carol = server.add_user("carol", dms_open=False)
    dave = server.add_user("dave")
    for u in [*users, carol, dave]:
        server.add_member(guild, u)
    w = World(server, guild, chan, users[0], users[1], carol, dave, tmp_path / "bot.sqlite3", db_url=db_url)
    await w.boot()
    return w


Step = Callable[[], Awaitable[None]]


def button_for(message: Message, notation: str) -> dict[str, Any] | None:
    """The button on `message` that plays `notation` (the move rides at the end of its custom_id)."""
    for b in message.buttons:
        if b.get("custom_id", "").endswith(f":{notation}"):
            return b
    return None


def select_for(message: Message, notation: str) -> dict[str, Any] | None:
    """The select menu on `message` that offers `notation` as an option."""
    for s in message.selects:
        if any(o["value"] == notation for o in s.get("options", [])):
            return s
    return None


async def start_takeaway(w: World, chan: Channel | None = None) -> Message:
    """alice opens a Take-Away table in `chan` (the world's channel by default), bob joins, alice
    starts it; returns the lobby message."""
    r = await w.server.slash(w.alice, chan or w.chan, "game new", game="takeaway")
    assert r.response is not None, r.content
    await w.server.click(w.bob, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Start")
    return r.response


async def play_out(w: World, table_id: int, chan: Channel | None = None, max_moves: int = 60) -> None:
    """Whoever is awaited types their first legal move with /game move, until the table is over."""
    from bot.rules import get_game

    assert w.bot is not None
    users = {u.id: u for u in (w.alice, w.bob, w.carol, w.dave)}
    for _ in range(max_moves):
        row = await w.bot.service.table(table_id)
        if row.status != "active":
            return
        seat = row.seats[min(row.awaited)]
        assert seat.user_id is not None
        move = get_game(row.game).format_action(w.bot.service.legal_for(row, seat.user_id)[0])
        await w.server.slash(users[seat.user_id], chan or w.chan, "game move", action=move)
