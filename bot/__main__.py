"""`python -m bot`: read the settings, then run the bot until interrupted (Ctrl-C or SIGTERM).

A start-up failure is one line on stderr (`spooky-table: ...`) and an exit code, never a traceback:

- 0: stopped by SIGINT/SIGTERM (after `close()` let work in flight finish and closed the database);
- 1: the database cannot be opened, or Discord cannot be reached or refused a request (perhaps
  transient: a supervisor may restart the bot);
- 2: the configuration is wrong: a setting missing or malformed, the token rejected by Discord, or a
  privileged intent not enabled in the Developer Portal (restarting will not help).

An unexpected exception (a bug) is logged with its traceback, then summed up in one line, exit 1.

`python -m bot sync` syncs the slash commands once and exits (a deploy step, so that none of N sharded
processes has to; by default the process holding shard 0 syncs when the definitions changed).

`python -m bot replay RECORD.json` checks a finished table's record instead (see bot/tables/fair.py):
exit 0 when it verifies, 1 when it does not, 2 when the file cannot be read.

`python -m bot migrate-db --to postgresql://… [--from PATH_OR_URL]` copies every table of the
configured SQLite file (or `--from`) into an empty database (see bot/store/copy.py): exit 0 when the
row counts match, 1 when a database cannot be opened or the target is not empty, 2 on bad arguments.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.config import ConfigError, load_settings

if TYPE_CHECKING:
    from bot.app import SpookyBot

log = logging.getLogger("bot")


def _fail(message: str, code: int) -> int:
    print(f"spooky-table: {message}", file=sys.stderr)
    return code


async def serve(bot: SpookyBot) -> None:
    """Run `bot` until SIGINT/SIGTERM, which cancel it: `async with bot` then closes it cleanly."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopping = False

    def stop() -> None:
        nonlocal stopping
        if not stopping:  # a second signal does not cut the clean shutdown short
            stopping = True
            task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    try:
        async with bot:
            await bot.start(bot.settings.token)
    except asyncio.CancelledError:
        if not stopping:
            raise
        task.uncancel()


def explain(err: BaseException) -> tuple[str, int] | None:
    """The one line and exit code for a known start-up failure; None for anything else (a bug)."""
    import aiohttp
    import discord

    from bot.store import StoreError

    api = discord.http.Route.BASE
    if isinstance(err, StoreError):
        return str(err), 1
    if isinstance(err, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused the gateway connection: the bot asks for a privileged intent that is not "
            "enabled for this application in the Developer Portal.",
            2,
        )
    if isinstance(err, discord.LoginFailure):
        return f"Discord at {api} rejected DISCORD_TOKEN ({err}): check DISCORD_TOKEN in the environment or .env.", 2
    if isinstance(err, discord.ConnectionClosed):
        if err.code == 4004:
            return "Discord's gateway rejected DISCORD_TOKEN (4004): check DISCORD_TOKEN in the environment or .env.", 2
        return f"Discord's gateway closed the connection: {err}", 1
    if isinstance(err, discord.GatewayNotFound):
        return f"cannot reach Discord's gateway at {discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY}: {err}", 1
    if isinstance(err, discord.HTTPException):
        return f"Discord at {api} refused a request: {err}", 1
    if isinstance(err, aiohttp.ClientError | TimeoutError):
        return f"cannot reach Discord at {api}: {str(err) or type(err).__name__}", 1
    return None


def replay(path: str) -> int:
    """`python -m bot replay RECORD.json`: check a finished table's record (from `/game verify`) with
    this project's own rules: the commitment, then every move replayed from the seed. No token needed."""
    import json

    from bot.tables.fair import verify

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as err:
        return _fail(f"cannot read {path}: {err}", 2)
    ok, message = verify(data)
    print(
        f"table {data.get('table', '?')} ({data.get('game', '?')}): {'verified' if ok else 'NOT verified'}: {message}"
    )
    return 0 if ok else 1


async def sync(bot: SpookyBot) -> None:
    """Log in over REST only (no gateway connection), load the cogs, sync the commands, close."""
    bot.sync_at_start = False
    async with bot:
        await bot.login(bot.settings.token)
        await bot.sync_commands(force=True)


def migrate_db(args: list[str]) -> int:
    """`python -m bot migrate-db --to URL [--from PATH_OR_URL]`: copy the database (no token needed)."""
    import argparse

    from bot.store import StoreError
    from bot.store.copy import CopyRefused, copy_database, display_name

    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy every table of a Spooky Table database into an empty one (stop the bot first).",
    )
    parser.add_argument("--to", required=True, help="the empty target: postgresql://user@host/db or a SQLite path")
    parser.add_argument("--from", dest="source", help="the source (default: the configured SQLite file)")
    try:
        opts = parser.parse_args(args)
    except SystemExit as done:  # argparse printed the usage and the error
        return 2 if done.code else 0
    if opts.source is None:
        try:
            source: str = str(load_settings(require_token=False).database_path)
        except ConfigError as err:
            return _fail(str(err), 2)
    else:
        source = opts.source.removeprefix("sqlite:///")
    target = opts.to.removeprefix("sqlite:///")
    try:
        counts = asyncio.run(copy_database(source, target))
    except (CopyRefused, StoreError) as err:
        return _fail(f"migrate-db: {err}", 1)
    print(f"copied {sum(counts.values())} rows from {display_name(source)} to {display_name(target)}:")
    for table, n in counts.items():
        print(f"  {table}: {n}")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["migrate-db"]:
        return migrate_db(sys.argv[2:])
    if sys.argv[1:2] == ["replay"]:
        if len(sys.argv) != 3:
            return _fail("usage: python -m bot replay RECORD.json", 2)
        return replay(sys.argv[2])
    if sys.argv[1:] not in ([], ["sync"]):
        return _fail("usage: python -m bot [sync | replay RECORD.json | migrate-db --to URL]", 2)
    try:
        settings = load_settings()
    except ConfigError as err:
        return _fail(str(err), 2)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.app import create_bot

    bot = create_bot(settings)
    try:
        asyncio.run(sync(bot) if sys.argv[1:] == ["sync"] else serve(bot))
    except KeyboardInterrupt:  # Ctrl-C before serve() installed its handlers
        return 0
    except Exception as err:
        known = explain(err)
        if known is not None:
            return _fail(*known)
        log.critical("stopped by an unexpected error", exc_info=err)
        return _fail(f"stopped by an unexpected error: {type(err).__name__}: {err}", 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
