"""The bot under load, as an admin runs it: `python -m bot` (its own process, its render workers)
against the local Discord server, measured interleaved with a minimal discord.py bot (the floor,
bench/floor_bot.py) on a second local server in the same minutes.

Run: python bench/bench_load.py [--movers 50] [--seconds 10] [--rounds 2] [--game sweets_stack]
                                [--single] [--tables 1000] [--startup 3000]

- load (default): `--movers` players, each at their own table against a bot seat, each playing
  `/game move` (the first legal move autocomplete offers) as soon as their last move's board is in the
  channel. Per phase: moves/s, and the median / p99 of the callback (the interaction's first answer),
  the answer (the player's followup) and the board (the new board in the channel). Phases alternate
  floor, bot, floor, bot...; the CPU time of each process tree (the bot with its workers) is printed.
- `--single`: one mover, every game (the shape of bench_roundtrip.py, out of process), with ratios to
  the floor measured around each game.
- `--tables N`: N live tables (each started against a bot, one move made and its board shown), then
  the bot's memory: RSS of the bot process, and the proportional set size of it and its workers.
- `--startup N`: N active tables written to a store directly (their boards marked shown), then the
  bot is started on it and the first interaction sent the moment its gateway session opens: the time
  until its callback, and the CPU the start-up cost.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.fakediscord import Channel, FakeDiscord, Guild, Message, User  # noqa: E402

PLAN = [("takeaway", 2), ("dawn_under", 3), ("sweets_stack", 3), ("trick_or_treat", 3), ("ghost_stories", 2)]
CLK = os.sysconf("SC_CLK_TCK")
BOT_REPO = REPO  # --bot-repo: run another checkout's bot (the code before a change) with this harness
BOT_PYTHON = sys.executable  # --bot-python: the bot's interpreter (a venv with or without uvloop/orjson)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- processes ------------------------------------------------------------------------------------------
def tree(pid: int) -> list[int]:
    """The process and all its descendants (the bot, its forkserver and render workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
    return out


def cpu_seconds(pid: int, *, children: bool = True) -> float:
    """CPU seconds (user + system) of the process and, with `children`, of all its descendants."""
    total = 0.0
    for p in tree(pid) if children else [pid]:
        with contextlib.suppress(OSError), open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK
    return total


def loop_seconds(pid: int) -> float:
    """CPU seconds of the process's main thread alone: `python -m bot`'s event loop (not aiosqlite's
    thread, the bot seats' thinking threads, nor the render workers). From the scheduler's nanosecond
    count where the kernel keeps one (`schedstat`), else from `stat`'s clock ticks (10 ms each: half a
    millisecond a move over 20 moves, coarser than the differences to be seen)."""
    with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/task/{pid}/schedstat") as f:
        return int(f.read().split()[0]) / 1e9
    with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK
    return 0.0


def memory(pid: int) -> tuple[float, float, int]:
    """(RSS of `pid` in MiB, PSS of it and its descendants in MiB, how many processes)."""
    rss = pss = 0.0
    pids = tree(pid)
    for p in pids:
        with contextlib.suppress(OSError), open(f"/proc/{p}/smaps_rollup") as f:
            for line in f:
                key, value = line.split(":", 1) if ":" in line else ("", "")
                if key == "Rss" and p == pid:
                    rss = int(value.split()[0]) / 1024
                if key == "Pss":
                    pss += int(value.split()[0]) / 1024
    return rss, pss, len(pids)


@dataclass
class Side:
    """One local Discord server and the bot process connected to it."""

    name: str
    server: FakeDiscord
    guild: Guild
    db: Path
    proc: asyncio.subprocess.Process | None = None
    chans: list[Channel] = field(default_factory=list)
    users: list[User] = field(default_factory=list)

    async def launch(self, argv: list[str], python: str = sys.executable, **env_extra: str) -> float:
        """Start the process; return the monotonic time its gateway session opened."""
        self.server.guild_commands.clear()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            "DISCORD_TOKEN": f"{self.name}-token",
            "DISCORD_API_BASE": self.server.api_base,
            "DISCORD_GATEWAY_URL": self.server.gateway_url,
            "DEV_GUILD_ID": str(self.guild.id),
            "DATABASE_URL": f"sqlite:///{self.db}",
            "LOG_LEVEL": "ERROR",
            "PYTHONPATH": str(BOT_REPO),
            **env_extra,
        }
        self.proc = await asyncio.create_subprocess_exec(
            python, *argv, cwd=self.db.parent, env=env, stdout=asyncio.subprocess.DEVNULL
        )
        await self.server.wait_for(lambda: self.server.bot_connected, timeout=120, what="gateway")
        opened = time.monotonic()
        await self.server.wait_for(lambda: bool(self.server.commands(self.guild)), timeout=120, what="commands")
        return opened

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 30)
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()

    def add_players(self, n: int) -> None:
        while len(self.chans) < n:
            i = len(self.chans)
            self.chans.append(self.server.add_channel(self.guild, f"t{i}"))
            user = self.server.add_user(f"p{i}")
            self.server.add_member(self.guild, user)
            self.users.append(user)


async def new_server(name: str, tmp: Path) -> Side:
    server = FakeDiscord(fail_fast=False)
    server.ack_deadline = 3.0
    await server.start()
    # the README's invite without Create Public Threads: each game plays in its channel, not a thread
    guild = server.add_guild(name=name, owner=server.add_user("owner"), bot_permissions=277025442816)
    return Side(name, server, guild, tmp / f"{name}.sqlite3")


def is_board(m: Message) -> bool:
    return bool(m.embeds) and "· table #" in m.embeds[0].get("title", "") and bool(m.attachments)


def boards(side: Side, chan: Channel) -> set[tuple[int, int]]:
    return {(m.id, m.edits) for m in side.server.messages(chan) if is_board(m)}


async def open_table(side: Side, i: int, game: str, seats: int) -> None:
    server, user, chan = side.server, side.users[i], side.chans[i]
    lobby = (await server.slash(user, chan, "game new", game=game, timeout=60)).response
    assert lobby is not None, "no lobby"
    for _ in range(seats - 1):
        await server.click(user, lobby, label="Add bot", timeout=60)
    seen = boards(side, chan)
    await server.click(user, lobby, label="Start", timeout=60)
    await server.wait_for_message(chan, lambda m: is_board(m) and (m.id, m.edits) not in seen, timeout=60)


def table_status(side: Side, chan: Channel) -> str | None:
    with contextlib.closing(sqlite3.connect(f"file:{side.db}?mode=ro", uri=True, timeout=30)) as db:
        row = db.execute(
            "SELECT status FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (chan.id,)
        ).fetchone()
    return row[0] if row else None


@dataclass
class Sample:
    at: float
    callback: float
    answer: float
    board: float


async def one_move(side: Side, i: int, game: str, seats: int) -> Sample | None:
    """One `/game move` of player i (a new table first if theirs ended); None when nothing was timed."""
    server, user, chan = side.server, side.users[i], side.chans[i]
    choices = await server.autocomplete(user, chan, "game move", "action", partial="", timeout=60)
    if not choices:
        if side.name == "bot" and table_status(side, chan) != "active":
            await open_table(side, i, game, seats)
        else:
            await asyncio.sleep(0.02)
        return None
    seen = boards(side, chan)
    t0 = time.perf_counter()
    rec = await server.slash(user, chan, "game move", action=choices[0]["value"], timeout=60, wait_deferred=False)
    t1 = time.perf_counter()
    await rec.wait_for(lambda r: r.activity > 0, timeout=60)
    t2 = time.perf_counter()
    await server.wait_for_message(chan, lambda m: is_board(m) and (m.id, m.edits) not in seen, timeout=60)
    t3 = time.perf_counter()
    return Sample(time.monotonic(), (t1 - t0) * 1000, (t2 - t0) * 1000, (t3 - t0) * 1000)


async def phase(side: Side, movers: int, seconds: float, warm: float, game: str, seats: int) -> dict[str, Any]:
    samples: list[Sample] = []
    failures = made = 0
    for chan in side.chans:  # each phase starts with short channels: reading one scans its history
        side.server.forget_history(chan)
    start = time.monotonic()
    end = start + warm + seconds
    assert side.proc is not None
    cpu0 = own0 = loop0 = harness0 = 0.0

    async def mover(i: int) -> None:
        nonlocal failures, made
        await asyncio.sleep(random.random() * 0.05)
        while time.monotonic() < end:
            try:
                s = await one_move(side, i, game, seats)
            except (TimeoutError, AssertionError) as err:
                failures += 1
                print(f"  {side.name} mover {i}: {type(err).__name__}: {str(err)[:120]}", file=sys.stderr)
                await asyncio.sleep(0.5)
                continue
            made += s is not None
            if s is not None and s.at >= start + warm and s.at <= end:
                samples.append(s)

    async def cpu_mark() -> None:
        nonlocal cpu0, own0, loop0, harness0
        await asyncio.sleep(warm)
        cpu0 = cpu_seconds(side.proc.pid)  # type: ignore[union-attr]
        own0 = cpu_seconds(side.proc.pid, children=False)  # type: ignore[union-attr]
        loop0 = loop_seconds(side.proc.pid)  # type: ignore[union-attr]
        harness0 = time.process_time()

    marker = asyncio.create_task(cpu_mark())
    asked = len(side.server.requests)
    await asyncio.gather(*(mover(i) for i in range(movers)))
    kinds = collections.Counter(
        f"{m} {re.sub(r'/[0-9]+|/tok[^/]+', '/…', path)}" for m, path in side.server.requests[asked:]
    )
    await marker
    cpu = cpu_seconds(side.proc.pid) - cpu0
    own = cpu_seconds(side.proc.pid, children=False) - own0
    loop = loop_seconds(side.proc.pid) - loop0
    harness = time.process_time() - harness0  # this process: the players and both local servers
    elapsed = max(1e-9, time.monotonic() - (start + warm))
    return {
        "moves_s": len(samples) / seconds,
        "cores": cpu / elapsed,
        "own_ms": own * 1000 / max(1, len(samples)),  # the process's own CPU (all its threads) per move
        "loop_ms": loop * 1000 / max(1, len(samples)),  # its main thread's (the event loop's) per move
        "tree_ms": cpu * 1000 / max(1, len(samples)),  # with its render workers
        "harness_ms": harness * 1000 / max(1, len(samples)),
        "load": os.getloadavg()[0],
        "n": len(samples),
        "failures": failures,
        "cb": [s.callback for s in samples],
        "ans": [s.answer for s in samples],
        "board": [s.board for s in samples],
        "requests": {k: v / max(1, made) for k, v in kinds.items()},  # per move, over the whole phase
    }


def show(label: str, r: dict[str, Any], floor: dict[str, Any] | None = None, verbose: bool = False) -> None:
    def ratio(key: str, f: Callable[[list[float]], float]) -> str:
        return f" ({f(r[key]) / f(floor[key]):.1f}×)" if floor and floor[key] else ""

    print(
        f"{label:<22}{r['moves_s']:>8.1f}/s {r['cores']:>5.2f} cores  callback {med(r['cb']):6.1f} / "
        f"{pct(r['cb'], 0.99):6.1f} ms{ratio('cb', med)}  answer {med(r['ans']):6.1f} / {pct(r['ans'], 0.99):6.1f} ms"
        f"{ratio('ans', med)}  board {med(r['board']):7.1f} / {pct(r['board'], 0.99):7.1f} ms{ratio('board', med)}"
        f"  CPU ms/move: loop {r.get('loop_ms', 0):.1f}, process {r['own_ms']:.1f}, tree {r.get('tree_ms', 0):.1f},"
        f" harness {r['harness_ms']:.1f}  load {r['load']:.1f}"
        f"  n={r['n']} failed={r['failures']}"
    )
    if verbose:
        asks = sorted(r["requests"].items(), key=lambda kv: -kv[1])
        print(f"    requests a move: {sum(r['requests'].values()):.1f} ("
              + ", ".join(f"{k} {v:.2f}" for k, v in asks) + ")")


async def floor_side(tmp: Path, movers: int) -> Side:
    from bot.rules import get_game
    from cogs.common.ui import render_png, warm_samples

    floor = await new_server("floor", tmp)
    png = tmp / "floor.png"
    module_view = warm_samples([get_game("sweets_stack")])[0]
    png.write_bytes(render_png("sweets_stack", module_view[1]))
    floor.add_players(movers)
    await floor.launch([str(REPO / "bench" / "floor_bot.py"), str(png)])
    return floor


async def run_load(args: argparse.Namespace, tmp: Path) -> None:
    seats = 2 if args.seats is None else args.seats
    floor = await floor_side(tmp, args.movers)
    bot = await new_server("bot", tmp)
    bot.add_players(args.movers)
    await bot.launch(["-m", "bot"], BOT_PYTHON, RENDER_PROCESSES=str(args.processes))
    try:
        sem = asyncio.Semaphore(10)

        async def setup(i: int) -> None:
            async with sem:
                await open_table(bot, i, args.game, seats)

        await asyncio.gather(*(setup(i) for i in range(args.movers)))
        print(f"{args.movers} movers, {args.game} ({seats} seats: one human, bots), {args.seconds:g} s a phase, "
              f"load average {os.getloadavg()[0]:.2f}")
        for r in range(args.rounds):
            f = await phase(floor, args.movers, args.seconds, 2.0, args.game, seats)
            show(f"round {r + 1} floor", f, verbose=args.requests)
            spy = None
            if args.spy:  # py-spy record of the bot's process tree during this phase (speedscope/flame input)
                assert bot.proc is not None
                spy = await asyncio.create_subprocess_exec(
                    "py-spy", "record", "--pid", str(bot.proc.pid), "--subprocesses", "--nonblocking",
                    *(["--gil"] if args.spy_gil else []),
                    "--duration", str(int(args.seconds + 2)), "--format", "raw", "-o", f"{args.spy}.{r + 1}.txt",
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                )
            b = await phase(bot, args.movers, args.seconds, 2.0, args.game, seats)
            if spy is not None:
                await spy.wait()
            show(f"round {r + 1} bot", b, f, verbose=args.requests)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        await bot.stop()
        await floor.stop()


async def run_single(args: argparse.Namespace, tmp: Path) -> None:
    floor = await floor_side(tmp, 1)
    bot = await new_server("bot", tmp)
    bot.add_players(len(PLAN))
    await bot.launch(["-m", "bot"], BOT_PYTHON, RENDER_PROCESSES=str(args.processes))
    print(f"one mover, {args.moves} moves a game; load average {os.getloadavg()[0]:.2f}")
    try:
        for i, (game, seats) in enumerate(PLAN):
            if game == "takeaway":
                continue  # the test game is registered in-process only
            await open_table(bot, i, game, seats)
            f1 = await count_moves(floor, 0, "", 0, args.moves // 2)
            assert bot.proc is not None
            own0, tree0 = cpu_seconds(bot.proc.pid, children=False), cpu_seconds(bot.proc.pid)
            loop0 = loop_seconds(bot.proc.pid)
            b = await count_moves(bot, i, game, seats, args.moves)
            own = (cpu_seconds(bot.proc.pid, children=False) - own0) * 1000 / max(1, len(b["board"]))
            loop = (loop_seconds(bot.proc.pid) - loop0) * 1000 / max(1, len(b["board"]))
            whole = (cpu_seconds(bot.proc.pid) - tree0) * 1000 / max(1, len(b["board"]))
            f2 = await count_moves(floor, 0, "", 0, args.moves // 2)
            f = {k: f1[k] + f2[k] for k in ("cb", "ans", "board")}
            print(
                f"{game:<16} answer {med(b['ans']):6.1f} ms ({med(b['ans']) / med(f['ans']):.1f}× floor "
                f"{med(f['ans']):.1f})  board {med(b['board']):6.1f} / p99 {pct(b['board'], 0.99):6.1f} ms "
                f"({med(b['board']) / med(f['board']):.1f}× floor {med(f['board']):.1f})  callback "
                f"{med(b['cb']):5.1f} ms ({med(b['cb']) / med(f['cb']):.1f}×)  CPU a move: event loop {loop:.1f} ms, "
                f"bot process {own:.1f} ms, with its workers {whole:.1f} ms  n={len(b['board'])}"
            )
    finally:
        await bot.stop()
        await floor.stop()


async def count_moves(side: Side, i: int, game: str, seats: int, n: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"cb": [], "ans": [], "board": []}
    tries = 0
    while len(out["board"]) < n and tries < n * 20:
        tries += 1
        s = await one_move(side, i, game, seats)
        if s is not None:
            out["cb"].append(s.callback)
            out["ans"].append(s.answer)
            out["board"].append(s.board)
    return out


async def run_tables(args: argparse.Namespace, tmp: Path) -> None:
    bot = await new_server("bot", tmp)
    bot.add_players(args.tables)
    await bot.launch(["-m", "bot"], BOT_PYTHON, RENDER_PROCESSES=str(args.processes))
    assert bot.proc is not None
    try:
        print(f"live tables, {args.game} against a bot; load average {os.getloadavg()[0]:.2f}")
        rss, pss, n = memory(bot.proc.pid)
        print(f"{0:>6} tables: bot RSS {rss:6.1f} MiB, bot + workers PSS {pss:6.1f} MiB ({n} processes)")
        sem = asyncio.Semaphore(20)
        seats = 2 if args.seats is None else args.seats
        done = 0
        marks = sorted(m for m in {1, 100, args.tables, *range(250, args.tables, 250)} if m <= args.tables)

        async def setup(i: int) -> None:
            nonlocal done
            async with sem:
                await open_table(bot, i, args.game, seats)
                s = None
                while s is None:
                    s = await one_move(bot, i, args.game, seats)
                done += 1

        pending = [asyncio.create_task(setup(i)) for i in range(args.tables)]
        for mark in marks:
            while done < mark:
                await asyncio.sleep(0.2)
            rss, pss, n = memory(bot.proc.pid)
            print(f"{done:>6} tables: bot RSS {rss:6.1f} MiB, bot + workers PSS {pss:6.1f} MiB ({n} processes)")
        await asyncio.gather(*pending)
        for p in tree(bot.proc.pid):
            with contextlib.suppress(OSError):
                with open(f"/proc/{p}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").replace(b"\n", b" ").decode()[:70]
                with open(f"/proc/{p}/smaps_rollup") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line and "[" not in line)
                print(f"  pid {p}: RSS {int(fields['Rss'].split()[0]) / 1024:6.1f} MiB, "
                      f"PSS {int(fields['Pss'].split()[0]) / 1024:6.1f} MiB  {cmd}")
    finally:
        await bot.stop()


async def run_startup(args: argparse.Namespace, tmp: Path) -> None:
    from bot.rules import get_game
    from bot.store import SeatRow, Store

    bot = await new_server("bot", tmp)
    bot.add_players(1)
    game = get_game(args.startup_game)
    store = await Store.open(bot.db)
    t0 = time.perf_counter()
    for i in range(args.startup):
        chan = bot.server.add_channel(bot.guild, f"s{i}") if i else bot.chans[0]
        t = await store.create_table(
            guild_id=bot.guild.id, channel_id=chan.id, game=game.key, options={}, seed=i,
            host_id=bot.users[0].id, host_name="p0", reminder_after=43200,
        )
        await store.set_seats(t.id, [SeatRow(0, bot.users[0].id, "p0"), SeatRow(1, None, "Bot 1", is_bot=True)])
        seed = i
        while True:  # a seed where the human moves first: no bot owes a move (as after a clean shutdown)
            state = game.new(2, seed, game.check_options({}))
            if set(game.to_act(state)) == {0}:
                break
            seed += 10**6
        awaited = {0: 0}
        await store.start_table(t.id, game.dump_state(state), awaited, seed)
        await store.mark_shown(t.id, 0)
        await store.mark_notified(t.id, {s: 0 for s in awaited if s == 0})
    await store.close()
    print(f"{args.startup} active {game.key} tables written in {time.perf_counter() - t0:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}")
    for run in range(args.rounds):
        opened = await bot.launch(["-m", "bot"], BOT_PYTHON, RENDER_PROCESSES=str(args.processes))
        assert bot.proc is not None
        cpu0 = cpu_seconds(bot.proc.pid)
        rec = await bot.server.slash(bot.users[0], bot.chans[0], "game status", timeout=30, wait_deferred=False)
        first = (time.monotonic() - opened) * 1000
        later: list[float] = []  # one interaction after another for 5 s: does the start-up delay them?
        while time.monotonic() - opened < 5:
            t0 = time.perf_counter()
            await bot.server.slash(bot.users[0], bot.chans[0], "game status", timeout=30, wait_deferred=False)
            later.append((time.perf_counter() - t0) * 1000)
        cpu = cpu_seconds(bot.proc.pid) - cpu0
        print(f"start-up {run + 1}: first interaction answered {first:.0f} ms after the gateway session opened "
              f"(callback type {rec.callback_type}); the next {len(later)} in the first 5 s: median "
              f"{med(later):.1f} ms, max {max(later):.1f} ms; CPU in those 5 s: {cpu:.2f} s")
        await bot.stop()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--movers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--game", default="sweets_stack")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--processes", type=int, default=2, help="RENDER_PROCESSES of the bot")
    parser.add_argument("--single", action="store_true")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--tables", type=int, default=0)
    parser.add_argument("--startup", type=int, default=0)
    parser.add_argument("--startup-game", default="dawn_under", help="a game whose first move is seat 0's")
    parser.add_argument("--spy", help="py-spy the bot during its load phases into SPY.<round>.txt")
    parser.add_argument("--spy-gil", action="store_true",
                        help="with --spy: only samples holding the GIL (CPU in Python; not a thread waiting for it)")
    parser.add_argument("--bot-repo", type=Path, default=REPO)
    parser.add_argument("--bot-python", default=sys.executable,
                        help="the bot's interpreter, e.g. a venv with other packages (floor and harness keep this one)")
    parser.add_argument("--requests", action="store_true", help="print each phase's REST requests a move, by route")
    args = parser.parse_args()
    global BOT_REPO, BOT_PYTHON
    BOT_REPO = args.bot_repo.resolve()
    BOT_PYTHON = args.bot_python
    with tempfile.TemporaryDirectory() as tmp:
        if args.single:
            await run_single(args, Path(tmp))
        elif args.tables:
            await run_tables(args, Path(tmp))
        elif args.startup:
            await run_startup(args, Path(tmp))
        else:
            await run_load(args, Path(tmp))


if __name__ == "__main__":
    asyncio.run(main())
