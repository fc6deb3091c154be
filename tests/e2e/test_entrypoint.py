"""`python -m bot` itself, pointed at the local Discord by environment variables, and command syncing."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import replace
from pathlib import Path

from bot.app import create_bot
from bot.rules import GAMES
from tests.e2e.conftest import World
from tests.fakediscord import FakeDiscord, client_options, start_client

REPO = Path(__file__).resolve().parents[2]


async def test_python_m_bot_syncs_and_answers_help_and_new_for_every_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    server = fake_discord
    guild = server.add_guild(name="Spooky")
    alice = server.add_user("alice")
    server.add_member(guild, alice)
    shipped = sorted(k for k in GAMES if k != "takeaway")  # the subprocess registers only shipped games
    channels = {key: server.add_channel(guild, key) for key in shipped}
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
        "DISCORD_TOKEN": "subprocess-token",
        "DISCORD_API_BASE": server.api_base,
        "DISCORD_GATEWAY_URL": server.gateway_url,
        "DEV_GUILD_ID": str(guild.id),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'sub.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(REPO),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await server.wait_for(lambda: bool(server.commands(guild)) and server.bot_connected, timeout=60)
        assert "game" in [c["name"] for c in server.commands(guild)]
        help_ = await server.slash(alice, channels[shipped[0]], "game help", timeout=10)
        assert help_.ephemeral
        for key in shipped:
            assert GAMES[key].title in str(help_.embeds[0])
            r = await server.slash(alice, channels[key], "game new", game=key, timeout=10)
            assert not r.ephemeral and GAMES[key].title in r.embeds[0]["title"]
            assert [b.get("label") for b in r.response.buttons][:1] == ["Join"]  # type: ignore[union-attr]
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    text = err.decode()
    assert "Traceback" not in text and " ERROR " not in text, text


async def test_global_commands_are_synced_only_when_their_definitions_change(world: World) -> None:
    w = world
    assert w.bot is not None
    await w.bot.close()
    path = f"/applications/{w.server.application_id}/commands"

    async def boot_global() -> None:
        bot = create_bot(replace(w.settings(), dev_guild_id=None), **client_options(w.server))
        await start_client(w.server, bot)
        await bot.close()

    before = w.server.requests.count(("PUT", path))
    await boot_global()
    assert w.server.requests.count(("PUT", path)) == before + 1
    assert "game" in [c["name"] for c in w.server.commands()]
    await boot_global()  # same definitions: no second upload
    assert w.server.requests.count(("PUT", path)) == before + 1
