"""What several benches share: `python -m bot`'s own bot on a fresh store, connected to the local
Discord server, at a started table of one human (alice) and bot seats."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.config import Settings
from tests.fakediscord import FakeDiscord, client_options, start_client

# the README's invite without Create Public Threads: the game plays in the channel itself (with it, a
# table moves into a thread of its own, and a bench watching the channel sees no board)
PERMISSIONS_WITHOUT_THREADS = 277025442816


async def bench_bot(server: FakeDiscord, database: Path, guild_id: int | None = None) -> Any:
    """`python -m bot`'s own bot on the SQLite store at `database`, connected to `server`. Its reminder
    loop sleeps for an hour: a bench calls the passes it measures itself."""
    settings = Settings(
        token="bench",
        database_path=database,
        dev_guild_id=guild_id,
        api_base=server.api_base,
        gateway_url=server.gateway_url,
        reminder_poll=3600,
    )
    bot = create_bot(settings, **client_options(server))
    await start_client(server, bot)
    return bot


@asynccontextmanager
async def started_table(key: str, seats: int) -> AsyncIterator[tuple[FakeDiscord, Any, Any, Any]]:
    """(server, bot, alice, channel) once alice's table of `key` has started with `seats - 1` bots;
    closed after."""
    server = FakeDiscord()
    await server.start()
    owner = server.add_user("owner")
    guild = server.add_guild(name="Bench", owner=owner, bot_permissions=PERMISSIONS_WITHOUT_THREADS)
    chan = server.add_channel(guild, "bench")
    alice = server.add_user("alice")
    server.add_member(guild, alice)
    with tempfile.TemporaryDirectory() as tmp:
        bot = await bench_bot(server, Path(tmp) / "b.sqlite3", guild.id)
        try:
            lobby = (await server.slash(alice, chan, "game new", game=key)).response
            assert lobby is not None
            for _ in range(seats - 1):
                await server.click(alice, lobby, label="Add bot")
            await server.click(alice, lobby, label="Start")
            yield server, bot, alice, chan
        finally:
            await bot.close()
            await server.stop()
