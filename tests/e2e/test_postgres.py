"""The bot itself on PostgreSQL: a whole game through the local Discord, across a restart, with the
reminder pass, the game-over message and /game stats reading the same database."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.rules import get_game
from bot.store.postgres import PostgresStore
from tests.e2e.conftest import WAIT, World, make_world, play_out, start_takeaway
from tests.fakediscord import FakeDiscord
from tests.pg import Cluster, emptied_database


@pytest.fixture
async def pg_world(fake_discord: FakeDiscord, tmp_path: Path, pg_cluster: Cluster) -> World:
    return await make_world(fake_discord, tmp_path, db_url=await emptied_database(pg_cluster))


async def test_a_whole_game_plays_on_postgresql_across_a_restart(pg_world: World) -> None:
    w = pg_world
    assert w.bot is not None and isinstance(w.bot.store, PostgresStore)
    await start_takeaway(w)
    (table,) = await w.bot.service.store.active_tables()
    await w.board()
    row = await w.bot.service.table(table.id)
    mover = row.seats[min(row.awaited)]
    assert mover.user_id is not None
    move = get_game("takeaway").format_action(w.bot.service.legal_for(row, mover.user_id)[0])
    user = w.alice if mover.user_id == w.alice.id else w.bob
    await w.server.slash(user, w.chan, "game move", action=move)
    await w.board(lambda m: "v1" in m.embeds[0].get("footer", {}).get("text", ""))
    # a restart: the new process finds the game where the old one left it
    await w.bot.close()
    bot = await w.boot()
    assert (await bot.service.table(table.id)).version == 1
    cog = bot.get_cog("TableCog")
    assert await cog.send_reminders(now=time.time() + 2 * 86400) == 1  # type: ignore[union-attr]
    assert await cog.send_reminders(now=time.time() + 2 * 86400) == 0  # type: ignore[union-attr]
    await play_out(w, table.id)
    await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    final = await bot.service.table(table.id)
    assert final.status == "finished" and final.outcome is not None
    assert bot.service.game_of(final).dump_state(await bot.service.replay(table.id)) == final.state
    stats = await w.server.slash(w.dave, w.chan, "game stats")
    lines = stats.embeds[0]["description"].split("\n")
    assert len(lines) == 2 and any("alice" in line for line in lines) and any("bob" in line for line in lines)
