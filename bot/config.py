"""Settings from the environment (and `.env`), validated once at start-up.

A bad setting must stop the bot with one line naming the variable, not a traceback deep in discord.py.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = REPO_ROOT / "data" / "spooky.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed; the message names it and where to set it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path  # the SQLite file: the default engine (and migrate-db's default source)
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    reminder_after: int = 12 * 3600  # seconds of quiet before the awaited players are pinged again
    reminder_min: int = 600
    reminder_max: int = 7 * 24 * 3600
    reminder_poll: float = 60.0  # how often the reminder task looks for quiet tables
    render_concurrency: int = 2  # images in flight at once
    render_processes: int = 2  # worker processes that draw them (0: threads of the bot process)
    database_url: str | None = None  # postgresql://…: PostgreSQL instead of the SQLite file
    shard_count: int | None = None  # None: one unsharded connection (a single process)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all of shard_count)

    @property
    def database(self) -> Path | str:
        """What `Store.open` opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def runs_shard_zero(self) -> bool:
        """This process receives DMs and does the once-per-deployment work (command sync)."""
        return self.shard_ids is None or 0 in self.shard_ids


def _where(name: str) -> str:
    return f"set {name} in the environment or in .env (see .env.example)"


def _int(env: Mapping[str, str], name: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}: {_where(name)}.") from None
    if not lo <= value <= hi:
        raise ConfigError(f"{name} must be between {lo} and {hi}, got {value}: {_where(name)}.")
    return value


def _database(env: Mapping[str, str]) -> tuple[Path, str | None]:
    """(the SQLite file, the PostgreSQL URL or None) from DATABASE_URL."""
    raw = env.get("DATABASE_URL", "").strip()
    if not raw:
        return DEFAULT_DB, None
    if raw.startswith(("postgresql://", "postgres://")):
        parsed = urlparse(raw)
        try:
            parsed.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            raise ConfigError(f"DATABASE_URL has a malformed port, got {raw!r}: {_where('DATABASE_URL')}.") from None
        if not parsed.netloc and "host=" not in parsed.query:
            raise ConfigError(
                f"DATABASE_URL names no PostgreSQL server (postgresql://user@host/database), got {raw!r}: "
                f"{_where('DATABASE_URL')}."
            )
        return DEFAULT_DB, raw
    if not raw.startswith("sqlite:///"):
        raise ConfigError(
            "DATABASE_URL must look like sqlite:///path/to/file.sqlite3 or postgresql://user@host/database,"
            f" got {raw!r}: {_where('DATABASE_URL')}."
        )
    path = raw[len("sqlite:///") :]
    if not path:
        raise ConfigError(f"DATABASE_URL names no file: {_where('DATABASE_URL')}.")
    return (Path(path) if Path(path).is_absolute() else REPO_ROOT / path), None


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS (`0,1`): SHARD_IDS needs SHARD_COUNT, and each id is below it."""
    count = _int(env, "SHARD_COUNT", None, 1, 100_000)
    raw = env.get("SHARD_IDS", "").strip()
    if not raw:
        return count, None
    if count is None:
        raise ConfigError(f"SHARD_IDS needs SHARD_COUNT (how many shards in all): {_where('SHARD_COUNT')}.")
    ids: list[int] = []
    for part in raw.split(","):
        try:
            ids.append(int(part.strip()))
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be shard numbers separated by commas, e.g. 0,1, got {raw!r}: {_where('SHARD_IDS')}."
            ) from None
    bad = [i for i in ids if not 0 <= i < count]
    if bad or len(set(ids)) != len(ids):
        raise ConfigError(
            f"SHARD_IDS must name distinct shards from 0 to {count - 1} (SHARD_COUNT is {count}), got {raw!r}: "
            f"{_where('SHARD_IDS')}."
        )
    return count, tuple(sorted(ids))


def _url(env: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in schemes or not parsed.netloc:
        want = " or ".join(f"{s}://" for s in schemes)
        raise ConfigError(f"{name} must be a full URL starting with {want}, got {raw!r}: {_where(name)}.")
    return raw


def load_settings(env: Mapping[str, str] | None = None, require_token: bool = True) -> Settings:
    """Read and validate every setting; raise ConfigError naming the first bad one."""
    if env is None:
        from dotenv import load_dotenv

        load_dotenv(REPO_ROOT / ".env")
        env = os.environ
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(f"DISCORD_TOKEN is missing: {_where('DISCORD_TOKEN')}.")
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in logging.getLevelNamesMapping():
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}: {_where('LOG_LEVEL')}.")
    reminder_min = _int(env, "REMINDER_MIN_SECONDS", 600, 1, 10**8)
    reminder_max = _int(env, "REMINDER_MAX_SECONDS", 7 * 24 * 3600, 1, 10**8)
    assert reminder_min is not None and reminder_max is not None
    reminder_after = _int(env, "REMINDER_DEFAULT_SECONDS", 12 * 3600, reminder_min, reminder_max)
    assert reminder_after is not None
    poll = _int(env, "REMINDER_POLL_SECONDS", 60, 1, 86400)
    assert poll is not None
    shard_count, shard_ids = _shards(env)
    database_path, database_url = _database(env)
    return Settings(
        token=token,
        database_path=database_path,
        database_url=database_url,
        log_level=level,
        dev_guild_id=_int(env, "DEV_GUILD_ID", None, 1, 2**63 - 1),
        api_base=_url(env, "DISCORD_API_BASE", ("http", "https")),
        gateway_url=_url(env, "DISCORD_GATEWAY_URL", ("ws", "wss")),
        reminder_after=reminder_after,
        reminder_min=reminder_min,
        reminder_max=reminder_max,
        render_processes=_int(env, "RENDER_PROCESSES", 2, 0, 64) or 0,
        reminder_poll=float(poll),
        shard_count=shard_count,
        shard_ids=shard_ids,
    )
