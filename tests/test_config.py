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


def test_render_processes_default_to_one_per_core_and_zero_means_threads() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).render_processes == 2
    assert load_settings({"DISCORD_TOKEN": "t", "RENDER_PROCESSES": "0"}).render_processes == 0
    with pytest.raises(ConfigError, match="RENDER_PROCESSES"):
        load_settings({"DISCORD_TOKEN": "t", "RENDER_PROCESSES": "many"})


def test_shards_are_read_and_checked() -> None:
    base = {"DISCORD_TOKEN": "t"}
    s = load_settings(base)
    assert s.shard_count is None and s.shard_ids is None and s.runs_shard_zero
    s = load_settings({**base, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert s.shard_count == 4 and s.shard_ids == (1, 3) and not s.runs_shard_zero
    s = load_settings({**base, "SHARD_COUNT": "2"})
    assert s.shard_ids is None and s.runs_shard_zero  # every shard in this one process
    assert load_settings({**base, "REMINDER_POLL_SECONDS": "5"}).reminder_poll == 5.0
    for env, needle in (
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "distinct"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "separated by commas"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be between 1"),
        ({"REMINDER_POLL_SECONDS": "0"}, "REMINDER_POLL_SECONDS"),
    ):
        with pytest.raises(ConfigError, match=needle):
            load_settings({**base, **env})
