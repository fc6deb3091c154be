"""Settings: defaults, validation, and the one-line exit 2 of `python -m bot` without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DB, ConfigError, load_settings

REPO = Path(__file__).resolve().parents[1]


def test_defaults_with_only_a_token() -> None:
    s = load_settings({"DISCORD_TOKEN": "t"})
    assert s.database_path == DEFAULT_DB and s.log_level == "INFO" and s.dev_guild_id is None
    assert s.api_base is None and s.gateway_url is None


def test_every_setting_is_read() -> None:
    s = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_URL": "sqlite:////tmp/x.sqlite3",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway/",
            "REMINDER_DEFAULT_SECONDS": "3600",
        }
    )
    assert s.database_path == Path("/tmp/x.sqlite3") and s.log_level == "DEBUG" and s.dev_guild_id == 123
    assert s.api_base == "http://127.0.0.1:8080/api/v10" and s.gateway_url == "ws://127.0.0.1:8080/gateway/"
    assert s.reminder_after == 3600


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://spooky:secret@db.example:5432/spooky",
        "postgres://spooky@db/spooky",
        "postgresql://spooky@/postgres?host=/run/postgresql&port=5433",
    ],
)
def test_a_postgresql_url_chooses_postgresql(url: str) -> None:
    s = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert s.database_url == url and s.database == url


def test_sqlite_stays_the_default_engine() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).database == DEFAULT_DB
    s = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:////tmp/x.sqlite3"})
    assert s.database_url is None and s.database == Path("/tmp/x.sqlite3")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_URL", "mysql://x"),
        ("DATABASE_URL", "postgresql://"),
        ("DATABASE_URL", "postgresql://spooky@db:five/spooky"),
        ("LOG_LEVEL", "LOUD"),
        ("DEV_GUILD_ID", "abc"),
        ("DISCORD_API_BASE", "127.0.0.1:8080"),
        ("DISCORD_GATEWAY_URL", "http://x"),
        ("REMINDER_DEFAULT_SECONDS", "5"),
    ],
)
def test_a_malformed_setting_names_itself(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({"DISCORD_TOKEN": "t", name: value})


def _run_bot(env_extra: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_python_m_bot_without_token_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    done = _run_bot({}, tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "Traceback" not in done.stderr


def test_python_m_bot_with_a_bad_setting_exits_2_naming_it(tmp_path: Path) -> None:
    done = _run_bot({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "nope"}, tmp_path)
    assert done.returncode == 2 and "DEV_GUILD_ID" in done.stderr and "Traceback" not in done.stderr
