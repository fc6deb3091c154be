"""`python -m bot migrate-db`: copy every table of one database into another, empty one.

The usual move is from the SQLite file to PostgreSQL when a bot outgrows one process; any direction
works, because both engines hold the same schema. The copy is one transaction on the target, checked
by row counts afterwards; a target that already holds rows is refused, so a run is never merged into
another (and a failed run leaves the target empty, ready for the next attempt).
"""

from __future__ import annotations

from pathlib import Path

from bot.store.base import TABLES, Store, StoreError, is_postgres_url


class CopyRefused(Exception):
    """The copy was not started (or was rolled back): the message says why and what to do."""


def display_name(target: Path | str) -> str:
    if is_postgres_url(target):
        from bot.store.postgres import redacted

        return redacted(str(target))
    return str(target)


async def copy_database(source: Path | str, target: Path | str) -> dict[str, int]:
    """Copy every table of `source` into the empty `target`; return the rows copied per table.

    Both are migrated to the current schema first (as the bot would on start-up). Raises CopyRefused
    when the source does not exist, is the target, or the target is not empty; StoreError when either
    cannot be opened."""
    if not is_postgres_url(source) and not Path(source).is_file():
        raise CopyRefused(f"there is no SQLite database at {source} (give the one to copy with --from)")
    if str(source) == str(target):
        raise CopyRefused("the source and the target are the same database")
    src = await Store.open(source)
    try:
        dst = await Store.open(target)
        try:
            held = {t: n for t, n in (await dst.row_counts()).items() if n}
            if held:
                rows = ", ".join(f"{t} {n}" for t, n in held.items())
                raise CopyRefused(
                    f"the target {display_name(target)} is not empty ({rows}): migrate-db copies only into an empty"
                    " database; drop and recreate it, or name another"
                )
            data = {t: await src.dump_table(t) for t in TABLES}
            counts = {t: len(rows) for t, (_, rows) in data.items()}
            await dst.load_tables(data)
            copied = await dst.row_counts()
            if copied != counts:
                raise StoreError(f"the copy does not match its source: {copied} rows in the target, {counts} read")
            return counts
        finally:
            await dst.close()
    finally:
        await src.close()
