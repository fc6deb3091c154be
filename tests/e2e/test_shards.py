"""Two sharded bot processes on one PostgreSQL database: tables in guilds of both shards play, each due reminder is
sent once (not once per process), a DM click for a shard-1 table is handled by the process holding
shard 0, and killing a process mid-game loses no acknowledged move: its tables continue when it is back.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from pathlib import Path

from tests.e2e.shards import REPO, ShardedBots
from tests.fakediscord import FakeDiscord, Message
from tests.pg import Cluster, emptied_database

GAME = "sweets_stack"  # private panels by DM, simultaneous picks
QUIET_PER_SHARD = 8  # tables only waiting for a reminder, in each shard's guild
REMIND = 1  # seconds of quiet before a reminder (and between two), polled every second by both processes


def ids_of(m: Message) -> str:
    return " ".join(c.get("custom_id", "") for c in m.all_components())


async def test_two_sharded_processes_share_the_tables_and_remind_once(
    fake_discord: FakeDiscord, tmp_path: Path, pg_cluster: Cluster
) -> None:
    server = fake_discord
    bots = ShardedBots(
        server,
        tmp_path,
        await emptied_database(pg_cluster),  # the production path for several processes
        REMINDER_MIN_SECONDS="1",
        REMINDER_DEFAULT_SECONDS=str(REMIND),
        REMINDER_POLL_SECONDS="1",
    )
    await bots.open_store()  # migrated before either process starts
    try:
        await asyncio.gather(bots.boot(0), bots.boot(1))
        syncs = server.requests.count(("PUT", f"/applications/{server.application_id}/commands"))
        assert syncs == 1, "only the process holding shard 0 syncs the commands"
        tables = [await bots.open_table(shard, GAME) for shard in (0, 1)]

        # Both processes look for quiet tables every second, and many are due at once (so their passes
        # overlap); each reminder is sent by one of them, whichever guild the table is in.
        quiet = await bots.quiet_tables(QUIET_PER_SHARD, GAME)
        await server.wait_for(
            lambda: all(len(bots.reminders(t)) >= 2 for t in [*tables, *quiet]),
            timeout=20,
            what="two reminders per table",
        )
        for t in quiet:  # they have made their point
            await (await bots.open_store()).set_status(t.id, "abandoned")
            await (await bots.open_store()).mark_end_announced(t.id, None)
        for t in [*tables, *quiet]:
            sent = [m.id >> 22 for m in bots.reminders(t)]  # the snowflake's milliseconds
            gaps = [b - a for a, b in itertools.pairwise(sent)]
            assert min(gaps) >= REMIND * 1000 * 0.8, f"table {t.id}: a reminder sent twice ({gaps} ms apart)"

        # A DM click for the shard-1 table: Discord sends it to shard 0, whose process plays and delivers it.
        t1 = await bots.table(tables[1].id)
        user = bots.awaited_user(t1)
        seat = t1.seat_of(user.id)
        assert seat is not None
        marker = f":{t1.id}:{t1.awaited[seat.seat]}:"
        panel = await server.wait_for_dm(user, lambda m: marker in ids_of(m), timeout=15)
        pick = panel.selects[0]  # the sweets to pick from
        r = await server.select(user, panel, pick["custom_id"], [pick["options"][0]["value"]], timeout=10)
        assert panel.content.startswith("✅"), panel.content
        assert await (await bots.open_store()).interaction_applied(r.id)
        await bots.shown(t1.id, above=t1.version)  # the board in the shard-1 guild shows the DM click

        # Kill the shard-1 process right after it acknowledged a move: the move is kept, and the table
        # plays on once the process is back.
        server.fail_fast = False  # the killed process leaves work unanswered: that is the point
        before = await bots.shown(t1.id)
        r = await bots.move(before)
        await r.wait_for(lambda rec: any(m.content.startswith("✅") for m in rec.messages), timeout=10)
        await bots.kill(1)
        assert await (await bots.open_store()).interaction_applied(r.id), "an acknowledged move was lost"
        t0 = await bots.shown(tables[0].id)  # shard 0's table plays on meanwhile
        await bots.move(t0)
        await bots.shown(t0.id, above=t0.version)
        await bots.boot(1)
        back = await bots.shown(t1.id, above=before.version)  # the acknowledged move is on the board
        await bots.move(back)
        await bots.shown(t1.id, above=back.version)
        server.take_problems()
    finally:
        logs = await bots.stop()
    for shard, text in logs.items():
        assert "Traceback" not in text and " ERROR " not in text, f"shard {shard}:\n{text}"


async def test_python_m_bot_sync_syncs_once_without_connecting(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A deploy step syncs the commands, so that no process of N has to; it never opens the gateway."""
    server = fake_discord
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))},
        "DISCORD_TOKEN": "sync-token",
        "DISCORD_API_BASE": server.api_base,
        "DISCORD_GATEWAY_URL": server.gateway_url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'sync.sqlite3'}",
        "PYTHONPATH": str(REPO),
    }
    path = ("PUT", f"/applications/{server.application_id}/commands")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert server.requests.count(path) == 1
    assert "game" in [c["name"] for c in server.commands()]
    assert not server.gateway.ever_connected
