"""`python -m bot` itself, pointed at the local Discord by environment variables, and command syncing.

Start-up failures (a rejected token, no route to Discord, a corrupt database) end the process at once
with one line on stderr and an exit code; SIGTERM/SIGINT stop it cleanly with 0.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
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
    assert proc.returncode == 0, text  # SIGTERM: a clean shutdown
    assert not (tmp_path / "sub.sqlite3-wal").exists()  # the store was closed (SQLite drops the WAL then)


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


def _env(tmp_path: Path, **settings: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(REPO),
        **settings,
    }


async def _run_bot(tmp_path: Path, env: dict[str, str], timeout: float = 30) -> tuple[int, list[str]]:
    """Run `python -m bot` to its end; its exit code and stderr lines. A hang fails the test."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"python -m bot still running after {timeout}s") from None
    text = err.decode()
    assert "Traceback" not in text, text
    assert proc.returncode is not None
    return proc.returncode, text.strip().splitlines()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def test_python_m_bot_with_a_rejected_token_prints_one_line_and_exits_2(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    server = fake_discord
    server.bad_tokens.add("revoked-token")
    env = _env(
        tmp_path,
        DISCORD_TOKEN="revoked-token",
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
    )
    code, lines = await _run_bot(tmp_path, env)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("spooky-table: ") and "DISCORD_TOKEN" in lines[0]
    assert not server.bot_connected


async def test_python_m_bot_without_a_route_to_discord_prints_one_line_and_exits_1(tmp_path: Path) -> None:
    api = f"http://127.0.0.1:{_closed_port()}/api/v10"
    env = _env(tmp_path, DISCORD_TOKEN="t", DISCORD_API_BASE=api, DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway")
    loop = asyncio.get_running_loop()
    started = loop.time()
    code, lines = await _run_bot(tmp_path, env)
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith(f"spooky-table: cannot reach Discord at {api}: ")
    assert loop.time() - started < 20  # no retry loop (a loaded machine needs seconds just to start Python)


async def test_python_m_bot_with_a_corrupt_database_prints_one_line_and_exits_1(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    server = fake_discord
    db = tmp_path / "corrupt.sqlite3"
    db.write_bytes(b"this is not a SQLite database, only garbage\n" * 200)
    env = _env(
        tmp_path,
        DISCORD_TOKEN="t",
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
        DATABASE_URL=f"sqlite:///{db}",
    )
    code, lines = await _run_bot(tmp_path, env)  # used to hang here: aiosqlite's thread stayed alive
    assert code == 1 and len(lines) == 1, lines
    assert lines[0] == f"spooky-table: cannot open the database at {db}: file is not a database"
    assert not server.bot_connected


async def test_python_m_bot_stops_cleanly_on_sigint(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    env = _env(tmp_path, DISCORD_TOKEN="t", DISCORD_API_BASE=server.api_base, DISCORD_GATEWAY_URL=server.gateway_url)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        await server.wait_for(lambda: server.bot_connected, timeout=60)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    text = err.decode()
    assert proc.returncode == 0 and not text.strip(), text
    assert not (tmp_path / "bot.sqlite3-wal").exists()


def test_each_known_start_up_failure_has_its_line_and_exit_code() -> None:
    import discord

    from bot.__main__ import explain
    from bot.store.sqlite import StoreError

    intents = explain(discord.PrivilegedIntentsRequired(None))
    assert intents is not None and intents[1] == 2 and "privileged intent" in intents[0]
    login = explain(discord.LoginFailure("Improper token has been passed."))
    assert login is not None and login[1] == 2 and "DISCORD_TOKEN" in login[0]
    assert explain(StoreError("cannot open the database at x: locked")) == ("cannot open the database at x: locked", 1)
    timeout = explain(TimeoutError())
    assert timeout is not None and timeout[1] == 1 and timeout[0].endswith(": TimeoutError")
    assert explain(ValueError("a bug")) is None  # logged with its traceback, then one line, exit 1
