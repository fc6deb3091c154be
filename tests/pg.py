"""A throwaway PostgreSQL cluster from the machine's own binaries, for tests and benchmarks.

The cluster listens on a Unix socket only (no TCP), in a temporary directory the `postgres` user can
reach: `initdb` refuses to run as root, so as root it runs through `runuser -u postgres`. For tests,
durability is off (fsync, synchronous_commit): the data is thrown away at the end anyway.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

REQUIRE_ENV = "SPOOKY_REQUIRE_POSTGRES"  # set by .ci/run: missing binaries fail instead of skipping
PORT = 5432  # only names the socket file inside the cluster's own directory


def find_bin() -> Path | None:
    """The directory holding initdb and pg_ctl (Debian keeps them in /usr/lib/postgresql/N/bin)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


@dataclass
class Cluster:
    root: Path
    bin: Path
    as_postgres: bool
    shared: str | None = None  # the DSN of the database tests share, emptied for each (emptied_database)

    @property
    def dsn(self) -> str:
        return self.dsn_for("postgres")

    def dsn_for(self, database: str) -> str:
        return f"postgresql://spooky@/{database}?host={self.root}&port={PORT}"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, text=True)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_cluster(*, durable: bool = False) -> Cluster:
    """initdb + pg_ctl start in a new temporary directory; raises RuntimeError when there are no binaries.

    `durable`: PostgreSQL's own defaults (fsync, synchronous commit), for benchmarks; tests turn them off."""
    bindir = find_bin()
    if bindir is None:
        raise RuntimeError("no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin")
    root = Path(tempfile.mkdtemp(prefix="spooky-pg-"))
    as_postgres = os.geteuid() == 0
    if as_postgres:
        os.chmod(root, 0o755)
        shutil.chown(root, "postgres", "postgres")
    cluster = Cluster(root, bindir, as_postgres)
    try:
        cluster._run("initdb", "-D", str(root / "data"), "-A", "trust", "-U", "spooky", "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses='' -k {root} -p {PORT} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        cluster._run("pg_ctl", "-D", str(root / "data"), "-o", options, "-l", str(root / "log"), "-w", "start")
    except subprocess.CalledProcessError as err:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"cannot start PostgreSQL: {err.stderr or err.stdout}") from err
    return cluster


async def create_database(cluster: Cluster, name: str, template: str | None = None) -> str:
    """A new database in the cluster (empty, or a copy of `template`); returns its DSN."""
    import asyncpg

    conn = await asyncpg.connect(cluster.dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    finally:
        await conn.close()
    return cluster.dsn_for(name)


async def emptied_database(cluster: Cluster) -> str:
    """The cluster's shared test database, migrated on first use and emptied (ids restarting at 1) on
    every later one: creating a database per test costs about 0.3 s here, emptying one a few ms."""
    import asyncpg

    from bot.store import Store
    from bot.store.base import TABLES

    if not cluster.shared:
        store = await Store.open(await create_database(cluster, "spooky_tests"))
        await store.close()
        cluster.shared = cluster.dsn_for("spooky_tests")
        return cluster.shared
    conn = await asyncpg.connect(cluster.shared)
    try:
        await conn.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return cluster.shared
