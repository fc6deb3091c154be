"""Kill `python -m bot` at random moments of a game and check, after every restart, that the table is
shown as it is stored: the board's version, and a panel for every awaited player's current decision.

Used by tests/e2e/test_crash.py (a few kills, in the test run) and bench/crash_soak.py (many, in CI).
A move counts as acknowledged when its player saw "✅"; every such move must be in the store.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakediscord import Channel, FakeDiscord, Guild, InteractionRecord, Message, User

REPO = Path(__file__).resolve().parents[2]
GAME = "sweets_stack"  # private panels by DM, simultaneous picks, a bot seat that thinks
BOOT_TIMEOUT = 60.0
SETTLE_TIMEOUT = 30.0


@dataclass
class Report:
    kills: int = 0
    moves_sent: int = 0
    acknowledged: int = 0
    lost: int = 0  # acknowledged moves missing from the store
    stale: int = 0  # restarts after which the board or a panel did not show the stored version
    versions: list[int] = field(default_factory=list)
    boot_seconds: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Crashloop:
    def __init__(self, server: FakeDiscord, tmp: Path, seed: int = 1) -> None:
        self.server = server
        self.db = tmp / "crash.sqlite3"
        self.rng = random.Random(seed)
        self.guild: Guild = server.add_guild(name="Crash")
        self.chan: Channel = server.add_channel(self.guild, "games")
        self.users: list[User] = [server.add_user(n) for n in ("alice", "bob")]
        for u in self.users:
            server.add_member(self.guild, u)
        self.proc: asyncio.subprocess.Process | None = None
        self.report = Report()
        self.records: list[InteractionRecord] = []

    # -- the process ---------------------------------------------------------------------------------
    async def boot(self) -> None:
        self.server.guild_commands.clear()  # the new process syncs again: that says setup_hook is done
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            "DISCORD_TOKEN": "crash-token",
            "DISCORD_API_BASE": self.server.api_base,
            "DISCORD_GATEWAY_URL": self.server.gateway_url,
            "DEV_GUILD_ID": str(self.guild.id),
            "DATABASE_URL": f"sqlite:///{self.db}",
            "LOG_LEVEL": "ERROR",
            "PYTHONPATH": str(REPO),
        }
        started = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.db.parent,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        await self.server.wait_for(
            lambda: bool(self.server.commands(self.guild)) and self.server.bot_connected,
            timeout=BOOT_TIMEOUT,
            what="the bot to start",
        )
        self.report.boot_seconds.append(time.monotonic() - started)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.report.kills += 1
        await self.server.wait_for(lambda: not self.server.bot_connected, timeout=10, what="the socket to close")

    async def stop(self) -> str:
        if self.proc is None or self.proc.returncode is not None:
            return ""
        self.proc.terminate()
        _, err = await asyncio.wait_for(self.proc.communicate(), 20)
        return err.decode()

    # -- the store, read as it is on disk --------------------------------------------------------------
    def row(self) -> dict[str, Any] | None:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            db.row_factory = sqlite3.Row
            t = db.execute("SELECT * FROM game_tables ORDER BY id DESC LIMIT 1").fetchone()
            if t is None:
                return None
            seats = [dict(s) for s in db.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (t["id"],))]
            ids = {r[0] for r in db.execute("SELECT interaction_id FROM actions WHERE table_id = ?", (t["id"],))}
        out = dict(t)
        out["awaited"] = {int(k): v for k, v in json.loads(t["awaited"]).items()}
        out["seats"] = seats
        out["interaction_ids"] = ids
        return out

    @staticmethod
    def lagging(row: dict[str, Any]) -> bool:
        if row["shown_version"] < row["version"]:
            return True
        if row["status"] != "active":
            return False
        return any(
            s["seat"] in row["awaited"] and not s["is_bot"] and s["notified_version"] < row["awaited"][s["seat"]]
            for s in row["seats"]
        )

    async def settle(self) -> dict[str, Any]:
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while True:
            row = self.row()
            assert row is not None
            if not self.lagging(row):
                return row
            if time.monotonic() > deadline:
                raise TimeoutError(f"table still behind its stored state after a restart: {row['version']}")
            await asyncio.sleep(0.05)

    # -- what players see ------------------------------------------------------------------------------
    def board(self, table_id: int, channel_id: int) -> Message | None:
        """The table's board, in the channel the store says it plays in (its thread, once it has one)."""
        boards = [
            m
            for m in self.server.messages(self.server.channels[channel_id])
            if m.embeds and f"· table #{table_id}" in m.embeds[0].get("title", "") and not m.deleted
        ]
        return boards[-1] if boards else None

    def check_shown(self, row: dict[str, Any]) -> list[str]:
        """What is wrong with what the players see, compared with the stored table."""
        wrong = []
        board = self.board(row["id"], row["channel_id"])
        footer = board.embeds[0].get("footer", {}).get("text", "") if board else ""
        if not footer.startswith(f"v{row['version']} "):
            wrong.append(f"board shows {footer.split(' ')[0] or 'nothing'}, stored v{row['version']}")
        if row["status"] == "active":
            for s in row["seats"]:
                if s["seat"] not in row["awaited"] or s["is_bot"] or s["dm_closed"]:
                    continue
                since = row["awaited"][s["seat"]]
                user = next(u for u in self.users if u.id == s["user_id"])
                want = f":{row['id']}:{since}:"
                # their DM panel, or the ephemeral panel that answered their own last move
                where = self.server.channels[row["channel_id"]]
                seen = [*self.server.dms(user), *(m for m in self.server.messages(where, viewer=user) if m.ephemeral)]
                if not any(want in c.get("custom_id", "") for m in seen for c in m.buttons + m.selects):
                    wrong.append(f"{user.name} has no panel for the decision awaited since v{since}")
        return wrong

    # -- the game ---------------------------------------------------------------------------------------
    async def open_table(self) -> None:
        alice, bob = self.users
        r = await self.server.slash(alice, self.chan, "game new", game=GAME, timeout=10)
        lobby = r.response
        assert lobby is not None
        await self.server.click(bob, lobby, label="Join", timeout=10)
        await self.server.click(alice, lobby, label="Add bot", timeout=10)
        await self.server.click(alice, lobby, label="Start", timeout=10)

    async def send_move(self, row: dict[str, Any]) -> bool:
        """An awaited player types one of their legal moves (not waiting for the answer)."""
        awaited = [s for s in row["seats"] if s["seat"] in row["awaited"] and not s["is_bot"]]
        if not awaited:
            return False
        seat = self.rng.choice(awaited)
        user = next(u for u in self.users if u.id == seat["user_id"])
        where = self.server.channels[row["channel_id"]]  # its thread, once it plays in one
        choices = await self.server.autocomplete(user, where, "game move", "action", timeout=10)
        if not choices:
            return False
        move = self.rng.choice(choices)["value"]
        task = asyncio.ensure_future(
            self.server.invoke(user, where, "game move", {"action": move}, timeout=10, wait_deferred=False)
        )
        task.add_done_callback(lambda t: self.records.append(t.result()) if not t.exception() else None)
        self.report.moves_sent += 1
        return True

    def count_acknowledged(self, row: dict[str, Any]) -> None:
        for rec in self.records:
            if any(m.content.startswith("✅") for m in rec.messages):
                self.report.acknowledged += 1
                if rec.id not in row["interaction_ids"]:
                    self.report.lost += 1
                    self.report.problems.append(f"interaction {rec.id} was answered ✅ but is not in the store")
        self.records.clear()

    async def run(self, kills: int, max_delay: float = 0.35) -> Report:
        """Play, killing the bot `kills` times at a random moment after a move; check after each restart."""
        self.server.fail_fast = False  # a killed process leaves interactions unanswered: that is the point
        await self.boot()
        await self.open_table()
        while self.report.kills < kills:
            row = await self.settle()
            if row["status"] != "active":
                break
            if self.rng.random() < 0.5:  # sometimes a quiet move first, then the kill on the next
                await self.send_move(row)
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                row = await self.settle()
                if row["status"] != "active":
                    break
            await self.send_move(row)
            await asyncio.sleep(self.rng.uniform(0.0, max_delay))
            await self.kill()
            await self.boot()
            row = await self.settle()
            self.report.versions.append(row["version"])
            self.count_acknowledged(row)
            wrong = self.check_shown(row)
            if wrong:
                self.report.stale += 1
                self.report.problems += wrong
        self.server.take_problems()
        return self.report
