"""Apply + commit latency and throughput of the table service, on SQLite and on PostgreSQL.

Run: python bench/bench_store.py [moves] [--engine sqlite|postgresql|both] [--processes N] [--pg-no-fsync]

Each process plays Take-Away games (the test game) on tables of its own through `TableService.act`
(gate, rules, one transaction) and times every call; with several processes they share one database
and start together. Prints, per engine: moves/s over all processes, the median and p99 of one move,
and the CPU time of the playing processes per move (on a shared machine the steadier figure: it
leaves out the time spent waiting for other jobs; PostgreSQL's own is not in it). PostgreSQL is a
throwaway local cluster (tests/pg.py) on a Unix socket, with PostgreSQL's default durability (fsync
and synchronous commit on); SQLite is a WAL file with synchronous=NORMAL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rules import Rng, register  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.tables import TableService  # noqa: E402
from tests.takeaway import GAME  # noqa: E402


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def play(database: str, moves: int, worker: int, barrier: bool) -> dict[str, float | list[float]]:
    """Play `moves` moves on fresh tables (channels of this worker's own range)."""
    register(GAME)
    store = await Store.open(database if database.startswith("postgresql://") else Path(database))
    service = TableService(store)
    pick = Rng.from_seed(7 + worker)
    act_ms: list[float] = []
    channel = worker * 1_000_000
    if barrier:  # the parent starts every worker at once
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    started, cpu0 = time.perf_counter(), time.process_time()
    while len(act_ms) < moves:
        channel += 1
        table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=channel, host_id=1, host_name="a")
        await service.join(table.id, 2, "b")
        table = (await service.start(table.id, 1)).table
        while table.status == "active" and len(act_ms) < moves:
            seat = pick.choice(sorted(table.awaited))
            user = table.seats[seat].user_id
            assert user is not None
            action = pick.choice(service.legal_for(table, user))
            t0 = time.perf_counter()
            table = (await service.act(table.id, user, action)).table
            act_ms.append((time.perf_counter() - t0) * 1000)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu0
    await store.close()
    return {"seconds": elapsed, "cpu": cpu, "act_ms": act_ms}


def run(database: str, moves: int, processes: int) -> tuple[float, list[float], float]:
    """(moves/s over all processes, every move's ms, CPU seconds of the playing processes)."""
    if processes == 1:
        result = asyncio.run(play(database, moves, 0, barrier=False))
        act = result["act_ms"]
        assert isinstance(act, list) and isinstance(result["seconds"], float) and isinstance(result["cpu"], float)
        return len(act) / result["seconds"], act, result["cpu"]
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", database, str(moves), str(i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    for w in workers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    started = time.perf_counter()
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    act: list[float] = []
    cpu = 0.0
    for w in workers:
        out, _ = w.communicate()
        result = json.loads(out.strip().splitlines()[-1])
        act += result["act_ms"]
        cpu += result["cpu"]
        assert w.returncode == 0
    return len(act) / (time.perf_counter() - started), act, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("moves", nargs="?", type=int, default=2000, help="moves per process")
    parser.add_argument("--engine", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--pg-no-fsync", action="store_true", help="PostgreSQL without fsync and synchronous commit (as in the tests)"
    )
    parser.add_argument("--worker", nargs=3, metavar=("DATABASE", "MOVES", "INDEX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        database, moves, index = args.worker
        print(json.dumps(asyncio.run(play(database, int(moves), int(index), barrier=True))))
        return
    engines = ("sqlite", "postgresql") if args.engine == "both" else (args.engine,)
    print(
        f"apply + commit (TableService.act), {args.moves} moves per process, {args.processes} process(es)"
        + (", PostgreSQL without fsync" if args.pg_no_fsync else "")
    )
    for engine in engines:
        with tempfile.TemporaryDirectory() as tmp:
            if engine == "sqlite":
                database, cluster = str(Path(tmp) / "bench.sqlite3"), None
            else:
                from tests.pg import create_database, start_cluster

                cluster = start_cluster(durable=not args.pg_no_fsync)
                database = asyncio.run(create_database(cluster, "bench"))
            try:
                rate, act, cpu = run(database, args.moves, args.processes)
            finally:
                if cluster is not None:
                    cluster.stop()
        print(
            f"  {engine:10s} {rate:8.0f} moves/s   median {statistics.median(act):.3f} ms"
            f"   p99 {pct(act, 0.99):.3f} ms   max {max(act):.3f} ms"
            f"   CPU {cpu * 1000 / len(act):.3f} ms a move (the playing processes; not the server's)"
        )


if __name__ == "__main__":
    main()
