"""pytest fixtures and the helper that connects a real discord.py client to a :class:`FakeDiscord`.

Wire into a conftest with ``from tests.fakediscord.fixtures import fake_discord  # noqa: F401``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import pytest
import yarl

from .server import FakeDiscord

__all__ = ["CAPTURED_LOGGERS", "client_options", "fake_discord", "start_client"]

CAPTURED_LOGGERS = ("discord", "bot", "cogs", "asyncio")  # asyncio: "Task exception was never retrieved"


class _ErrorCapture(logging.Handler):
    """Records ERROR-level log records as problems of the server (kind "log")."""

    def __init__(self, server: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.server = server
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.server.record_problem("log", self.format(record))


def client_options(server: FakeDiscord) -> dict[str, Any]:
    """Constructor options for a client under test: ``commands.Bot(..., **client_options(server))``."""
    return {"http_trace": server.trace_config, "guild_ready_timeout": 0.05}


async def start_client(
    server: FakeDiscord, client: discord.Client, token: str = "x", timeout: float = 5.0
) -> None:
    """Point discord.py at ``server``, log ``client`` in, run it as a task and wait until READY.

    The client is closed (before the server) and the patched class attributes restored by
    ``server.stop()``, which the ``fake_discord`` fixture calls on teardown.
    """
    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    # Set after any _set_api_version() call: that function rewrites Route.BASE.
    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    discord.asset.Asset.BASE = server.cdn_base
    if client.http.http_trace is None:  # the guard against requests leaving 127.0.0.1
        client.http.http_trace = server.trace_config
    state = client._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, 0.05)
    task: asyncio.Task[None] | None = None
    stopping = False

    async def stop() -> None:
        nonlocal stopping
        stopping = True
        try:
            if not client.is_closed():
                await client.close()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, 2)
        finally:
            (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
                discord.asset.Asset.BASE,
            ) = saved

    server._clients.append(stop)
    await client.login(token)
    # reconnect=True as in Client.start(): with False, discord.py calls close() itself when the socket
    # closes, so a bot's close() override runs twice. Unexpected reconnects still fail the test: they
    # are logged at ERROR ("Attempting a reconnect").
    task = asyncio.create_task(client.connect(reconnect=True), name="fakediscord-client")

    def died(t: asyncio.Task[None]) -> None:
        if not stopping and not t.cancelled() and t.exception() is not None:
            exc = t.exception()
            server.record_problem("client", f"discord.py client stopped: {exc!r}")

    task.add_done_callback(died)
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task.done() and task.exception() is not None:
            raise RuntimeError("discord.py client died before READY") from task.exception()
        raise TimeoutError(f"discord.py client not ready after {timeout}s; problems: {server.problems}")


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord per test. Fails the test on unknown routes, non-loopback requests, server
    errors and ERROR logs from discord/bot/cogs, unless the test took them with ``take_problems()``."""
    server = FakeDiscord()
    handler = _ErrorCapture(server)
    loggers = [logging.getLogger(name) for name in CAPTURED_LOGGERS]
    for logger in loggers:
        logger.addHandler(handler)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
        for logger in loggers:
            logger.removeHandler(handler)
    if server.problems:
        pytest.fail(
            "fakediscord recorded problems:\n"
            + "\n".join(f"  [{p.kind}] {p.detail}" for p in server.problems)
        )
