"""Two sharded `python -m bot` processes (SHARD_COUNT=2, SHARD_IDS=0 and 1) on one store and one local
Discord, which routes each guild's events to its shard and DMs to shard 0.

Used by tests/e2e/test_shards.py and bench/bench_shards.py. Each process's stderr goes to a file
(`log(shard)`), so a chatty process never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from bot.store import Store, TableRow
from bot.tables import TableService
from tests.fakediscord import Channel, FakeDiscord, Guild, InteractionRecord, Message, User

REPO = Path(__file__).resolve().parents[2]
SHARDS = 2
BOOT_TIMEOUT = 60.0


class ShardedBots:
    def __init__(self, server: FakeDiscord, tmp: Path, database_url: str, **settings: str) -> None:
        self.server = server
        self.tmp = tmp
        self.database_url = database_url
        self.settings = settings
        self.guilds: list[Guild] = [server.add_guild(f"shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
        self.chans: list[Channel] = [server.add_channel(g, "games") for g in self.guilds]
        self.users: list[User] = [server.add_user(n) for n in ("alice", "bob")]
        for g in self.guilds:
            for u in self.users:
                server.add_member(g, u)
        self.procs: dict[int, asyncio.subprocess.Process] = {}
        self.boots: dict[int, int] = {}
        self.store: Store | None = None  # the test's own connection, to read what the bots stored

    def log(self, shard: int) -> Path:
        """The stderr of the process of `shard` (-1: the one holding every shard), its latest boot."""
        name = "all" if shard < 0 else str(shard)
        return self.tmp / f"shard-{name}.{self.boots.get(shard, 0)}.log"

    async def open_store(self) -> Store:
        if self.store is None:
            self.store = await Store.open(self.database_url.removeprefix("sqlite:///"))
        return self.store

    async def boot(self, shard: int | None) -> float:
        """Start the process holding `shard` (None: one process holding every shard); return once its
        shards are connected (its setup_hook, with the command sync on shard 0, runs before it connects).
        Returns the seconds it took."""
        key = -1 if shard is None else shard
        self.boots[key] = self.boots.get(key, 0) + 1
        shards = range(SHARDS) if shard is None else [shard]
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))},
            "DISCORD_TOKEN": "shard-token",
            "DISCORD_API_BASE": self.server.api_base,
            "DISCORD_GATEWAY_URL": self.server.gateway_url,
            "DATABASE_URL": self.database_url,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": "" if shard is None else str(shard),
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(REPO),
            **self.settings,
        }
        started = time.monotonic()
        with self.log(key).open("wb") as err:
            self.procs[key] = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.tmp, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=err
            )
        await self.server.wait_for(
            lambda: all(self.server.shard_connected(s) for s in shards)
            and (0 not in shards or bool(self.server.commands())),
            timeout=BOOT_TIMEOUT,
            what=f"the process of shard {shard} to start",
        )
        return time.monotonic() - started

    async def kill(self, shard: int) -> None:
        proc = self.procs.pop(shard)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await self.server.wait_for(
            lambda: not self.server.shard_connected(shard), timeout=10, what="the socket to close"
        )

    async def stop(self) -> dict[int, str]:
        """SIGTERM every process still running; each one's stderr (of its last boot)."""
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:  # stuck: it must not outlive the test
                proc.kill()
                await proc.wait()
                raise
        out = {shard: self.log(shard).read_text() for shard in self.procs}
        self.procs.clear()
        if self.store is not None:
            await self.store.close()
            self.store = None
        return out

    # -- playing -------------------------------------------------------------------------------------
    async def open_table(self, shard: int, game: str) -> TableRow:
        """alice opens a table of `game` in the guild of `shard`, bob joins, alice adds a bot and starts it."""
        alice, bob = self.users
        chan = self.chans[shard]
        r = await self.server.slash(alice, chan, "game new", game=game, timeout=10)
        lobby = r.response
        assert lobby is not None, r.content
        await self.server.click(bob, lobby, label="Join", timeout=10)
        await self.server.click(alice, lobby, label="Add bot", timeout=10)
        r = await self.server.click(alice, lobby, label="Start", timeout=10)
        store = await self.open_store()
        deadline = time.monotonic() + 10
        guild = self.guilds[shard].id
        while True:  # (it may have moved into a thread of its own)
            table = next((t for t in await store.tables_of_user(alice.id) if t.guild_id == guild), None)
            if table is not None and table.status == "active":
                return table
            assert time.monotonic() < deadline, f"the table in {chan.name} never started: {r.content}"
            await asyncio.sleep(0.05)

    async def table(self, table_id: int) -> TableRow:
        table = await (await self.open_store()).get_table(table_id)
        assert table is not None
        return table

    def board(self, table: TableRow) -> Message | None:
        boards = [
            m
            for m in self.server.messages(self.server.channels[table.channel_id])
            if m.embeds and f"· table #{table.id}" in m.embeds[0].get("title", "") and not m.deleted
        ]
        return boards[-1] if boards else None

    def shows(self, table: TableRow) -> bool:
        """The channel's board shows the table's stored version."""
        board = self.board(table)
        return board is not None and board.embeds[0].get("footer", {}).get("text", "").startswith(f"v{table.version} ")

    async def shown(self, table_id: int, above: int = -1, timeout: float = 20.0) -> TableRow:
        """Wait until the table is past version `above`, its board shows the stored version and no awaited
        human is still to be told."""
        deadline = time.monotonic() + timeout
        while True:
            table = await self.table(table_id)
            if table.version > above and self.shows(table) and not table.lagging:
                return table
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {table_id} still behind: stored v{table.version}")
            await asyncio.sleep(0.05)

    async def move(self, table: TableRow) -> InteractionRecord:
        """An awaited human of `table` types their first legal move (in its guild: its shard's process);
        returns once it is acknowledged (deferred), not waiting for the answer."""
        user = self.awaited_user(table)
        chan = self.server.channels[table.channel_id]
        choices = await self.server.autocomplete(user, chan, "game move", "action", timeout=10)
        assert choices, f"no legal move offered at table {table.id}"
        return await self.server.invoke(
            user, chan, "game move", {"action": choices[0]["value"]}, timeout=10, wait_deferred=False
        )

    def awaited_user(self, table: TableRow) -> User:
        seat = next(s for s in table.seats if s.seat in table.awaited and not s.played_by_bot)
        return next(u for u in self.users if u.id == seat.user_id)

    async def quiet_tables(self, per_shard: int, game: str) -> list[TableRow]:
        """Started tables written straight into the store (a channel each, alice, bob and a bot), shown
        and told as if delivered: only reminders are owed, once they have been quiet long enough."""
        alice, bob = self.users
        remind = int(self.settings.get("REMINDER_DEFAULT_SECONDS", 43200))
        service = TableService(await self.open_store(), default_reminder=remind)
        out = []
        for guild in self.guilds:
            for i in range(per_shard):
                chan = self.server.add_channel(guild, f"quiet-{i}")
                t = await service.new_table(
                    game_key=game, guild_id=guild.id, channel_id=chan.id, host_id=alice.id, host_name=alice.name
                )
                await service.join(t.id, bob.id, bob.name)
                await service.add_bot(t.id, alice.id)
                table = (await service.start(t.id, alice.id)).table
                await service.store.mark_shown(table.id, table.version)
                await service.store.mark_notified(table.id, dict(table.awaited))
                out.append(await self.table(table.id))
        return out

    def reminders(self, table: TableRow) -> list[Message]:
        """Every reminder posted in the table's channel, deleted ones too (each replaces the one before)."""
        chan = self.server.channels[table.channel_id]
        return [m for m in self.server.messages(chan, deleted=True) if m.content.startswith("⏰")]
