"""The parsed-state cache (`StateCache`) never serves a state the database no longer holds: not after
another connection or process wrote the table (a new version), not after a state rewritten in place
(the same version); and it does serve repeated reads at one version (the same object, not parsed again),
within its bounds. A move's table comes back from its own write (`Store.apply_table`) as a read
would give it. Every test with `store` runs on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.i18n import N_, PSEUDO, SOURCE, tr
from bot.rules import Event, Rng
from bot.store import SeatRow, Store
from bot.store.base import StateCache, _dumps
from bot.store.postgres import PostgresStore
from bot.tables import TableService
from bot.tables.service import stored_event

ROOT = Path(__file__).resolve().parents[2]


async def _second(store: Store, tmp_path: Path) -> Store:
    """Another connection to the same database (its own pool on PostgreSQL: its own server sessions)."""
    if isinstance(store, PostgresStore):
        return await Store.open(store.dsn)
    return await Store.open(tmp_path / "test.sqlite3")


async def _active(store: Store, channel: int = 10, state: dict[str, Any] | None = None) -> int:
    table = await store.create_table(
        guild_id=1, channel_id=channel, game="takeaway", options={}, seed=1, host_id=1, host_name="a", reminder_after=60
    )
    await store.start_table(table.id, state or {"n": 0, "pile": [0]}, {0: 0}, seed=1)
    return table.id


def _move(n: int) -> dict[str, Any]:
    return dict(seat=0, action={"n": n}, events=[], state={"n": n, "pile": list(range(n))}, awaited={0: n})


async def test_a_version_written_by_another_connection_is_read_not_the_cached_one(
    store: Store, tmp_path: Path
) -> None:
    table_id = await _active(store)
    first = await store.get_table(table_id)
    assert first is not None and first.state == {"n": 0, "pile": [0]}
    other = await _second(store, tmp_path)
    try:
        assert await other.apply(table_id, expected_version=0, **_move(1)) == 1
        again = await store.get_table(table_id)
        assert again is not None and (again.version, again.state) == (1, {"n": 1, "pile": [0]})
        # and back the other way: what this connection writes, the other reads (its cache held version 1)
        assert (await other.get_table(table_id)).state == {"n": 1, "pile": [0]}  # type: ignore[union-attr]
        await store.apply(table_id, expected_version=1, **_move(2))
        assert (await other.get_table(table_id)).state == {"n": 2, "pile": [0, 1]}  # type: ignore[union-attr]
    finally:
        await other.close()


async def test_a_state_rewritten_at_the_same_version_is_read_not_the_cached_one(
    store: Store, tmp_path: Path
) -> None:
    """Nothing in the bot rewrites a state without a new version, but a tool or a repair might: the
    row's own text decides, not the version alone."""
    table_id = await _active(store)
    assert (await store.get_table(table_id)).state == {"n": 0, "pile": [0]}  # type: ignore[union-attr]
    other = await _second(store, tmp_path)
    try:
        async with other.transaction() as tx:
            await tx.execute("UPDATE game_tables SET state = ? WHERE id = ?", (_dumps({"n": 7, "pile": []}), table_id))
    finally:
        await other.close()
    again = await store.get_table(table_id)
    assert again is not None and (again.version, again.state) == (0, {"n": 7, "pile": []})


def test_a_version_written_by_another_process_is_read(tmp_path: Path) -> None:
    """The SQLite file written by a second `python` process between two reads of this one."""
    db = tmp_path / "two.sqlite3"
    writer = (
        "import asyncio, sys\n"
        "from bot.store import Store\n"
        "async def main():\n"
        "    s = await Store.open(sys.argv[1])\n"
        "    await s.apply(int(sys.argv[2]), expected_version=0, seat=0, action={}, events=[],"
        " state={'n': 5, 'pile': [9]}, awaited={0: 1})\n"
        "    await s.close()\n"
        "asyncio.run(main())\n"
    )

    async def read(store: Store, table_id: int) -> Any:
        table = await store.get_table(table_id)
        assert table is not None
        return table.version, table.state

    import asyncio

    async def scenario() -> None:
        store = await Store.open(db)
        try:
            table_id = await _active(store)
            assert await read(store, table_id) == (0, {"n": 0, "pile": [0]})
            assert await read(store, table_id) == (0, {"n": 0, "pile": [0]})  # cached now
            subprocess.run([sys.executable, "-c", writer, str(db), str(table_id)], cwd=ROOT, check=True, timeout=60)
            assert await read(store, table_id) == (1, {"n": 5, "pile": [9]})
        finally:
            await store.close()

    asyncio.run(scenario())


async def test_reads_at_one_version_share_one_parse(store: Store) -> None:
    table_id = await _active(store)
    await store.apply(table_id, expected_version=0, **_move(3))
    misses = store.states.misses
    reads = [await store.get_table(table_id) for _ in range(3)]
    assert all(r is not None and r.version == 1 for r in reads)
    assert reads[0].state is reads[1].state is reads[2].state  # type: ignore[union-attr]
    assert store.states.misses == misses + 1  # parsed by the first read only


async def test_a_move_returns_its_table_as_a_read_would(service: TableService) -> None:
    """`act` no longer reads the table after its commit: what it returns is what a read gives."""
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=5, host_id=1, host_name="a")
    await service.add_bot(table.id, 1)
    change = await service.start(table.id, 1, bots=False)
    pick = Rng.from_seed(3)
    while change.table.status == "active":
        table = change.table
        seat = sorted(table.awaited)[0]
        user = table.seats[seat].user_id
        if user is None:  # the bot's turn: it replies (`continue_bots` starts from the table the move wrote)
            change = await service.continue_bots(change)
        else:
            action = pick.choice(service.legal_for(table, user))
            change = await service.act(table.id, user, action, bots=False, table=table)
        assert change.table == await service.table(table.id)


def test_the_cache_is_bounded() -> None:
    cache = StateCache(entries=4, text_bytes=100)
    for i in range(10):
        cache.parsed(i, 0, json.dumps({"i": i}))
    assert len(cache) == 4 and cache.parsed(9, 0, '{"i": 9}') == {"i": 9} and cache.hits == 1
    cache.parsed(20, 0, json.dumps({"pad": "x" * 60}))
    cache.parsed(21, 0, json.dumps({"pad": "y" * 60}))  # 2 x 72 bytes > 100: the older one goes
    assert len(cache) <= 4 and 20 not in cache._entries and 21 in cache._entries
    cache.parsed(22, 0, json.dumps({"pad": "z" * 200}))  # larger than the whole budget: not kept
    assert 22 not in cache._entries


async def test_a_table_read_in_one_query_is_the_table_read_in_two(store: Store) -> None:
    """`get_table` reads the seats with the table (as JSON, one round trip): every seat field comes
    back as the two-query read (the row, then its seats) gives it, 64-bit ids, floats and None included."""
    table = await store.create_table(
        guild_id=2**62 + 3, channel_id=2**62 + 7, game="takeaway", options={"x": "y"}, seed=2**61 + 1,
        host_id=2**62 + 11, host_name="阿里 👻", reminder_after=60, host_locale="zh-TW",
    )  # fmt: skip
    await store.set_seats(
        table.id,
        [SeatRow(0, 2**62 + 11, "阿里 👻", locale="zh-TW"), SeatRow(1, None, "Bot 1", is_bot=True)],
    )
    await store.start_table(table.id, {"n": 0}, {0: 0, 1: 0}, seed=5)
    await store.set_dm_flags(table.id, 0, closed=True, told=True)
    await store.set_panel_message(table.id, 0, 2**62 + 13, 2**62 + 17, 0)
    await store.set_ping(table.id, {0: 0}, 2**62 + 19)
    await store.apply(table.id, expected_version=0, bot_memories={1: {"seen": [1, 2]}}, **_move(1))
    one = await store.get_table(table.id)
    two = await store._table(await store._fetchone("SELECT * FROM game_tables WHERE id = ?", (table.id,)))
    assert one == two and one is not None
    assert one.seats[0].dm_closed_at is not None and one.seats[1].bot_memory == {"seen": [1, 2]}
    assert await store.open_table_in_channel(2**62 + 7) == two


async def test_a_log_tail_is_the_last_rows_as_stored_oldest_first(store: Store) -> None:
    """`Store.log_tail`: the board's last rows unparsed (the service keeps their lines made), the same
    rows and events as the whole log gives parsed."""
    table_id = await _active(store)
    for n in (1, 2, 3):
        await store.apply(table_id, expected_version=n - 1, **{**_move(n), "events": [{"text": f"took {n}"}]})
    tail = await store.log_tail(table_id, 2)
    whole = await store.actions(table_id)
    assert [(seq, seat) for seq, seat, _ in tail] == [(r.seq, r.seat) for r in whole[-2:]]
    assert [json.loads(text) for _, _, text in tail] == [[{"text": "took 2"}], [{"text": "took 3"}]]
    assert [r.events for r in await store.actions(table_id, tail=2)] == [r.events for r in whole[-2:]]


async def test_board_lines_made_once_still_name_the_seats_as_they_are_now(service: TableService) -> None:
    """`TableService.log_of` keeps the lines it made for a board's rows, translated: the same lines come
    back for the same rows, names and language (not made again), and a seat renamed since, another
    language or a row whose stored events changed (an undo rewrites the log) are made anew."""
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=6, host_id=1, host_name="ann")
    await service.add_bot(table.id, 1)
    change = await service.start(table.id, 1)
    while 1 not in {change.table.seats[s].user_id for s in change.table.awaited}:
        change = await service.continue_bots(change)
    change = await service.act(table.id, 1, service.legal_for(change.table, 1)[0])
    table = change.table
    lines = await service.log_of(table, tail=8, lang=SOURCE)
    kept = {key: entry[2] for key, entry in service._lines.items()}
    assert lines and await service.log_of(table, tail=8, lang=SOURCE) == lines
    assert {key: entry[2] for key, entry in service._lines.items()} == kept
    assert all(a is b for a, b in zip(kept.values(), [e[2] for e in service._lines.values()], strict=True))
    assert lines == [(q, w, str(t)) for q, w, t in await service.log_of(table)][-len(lines) :]
    assert all(type(text) is str for _, _, text in lines)  # strings are kept, not Msg trees
    assert "ann" in {who for _, who, _ in lines}
    renamed = dataclasses.replace(
        table, seats=tuple(dataclasses.replace(s, name="bea") if s.user_id == 1 else s for s in table.seats)
    )
    named = await service.log_of(renamed, tail=8, lang=SOURCE)
    assert [seq for seq, _, _ in named] == [seq for seq, _, _ in lines]
    assert "ann" not in {who for _, who, _ in named} and "bea" in {who for _, who, _ in named}
    last = lines[-1][0]
    rewrite = Event(N_("Waiting for {names}.", names="ann"))
    async with service.store.transaction() as tx:
        await tx.execute(
            "UPDATE actions SET events = ? WHERE table_id = ? AND seq = ?",
            (json.dumps([stored_event(rewrite)]), table.id, last),
        )
    rewritten = await service.log_of(table, tail=8, lang=SOURCE)
    assert rewritten[-1][::2] == (last, "Waiting for ann.")
    assert rewritten[:-1] == [line for line in lines if line[0] != last]
    pseudo = await service.log_of(table, tail=8, lang=PSEUDO)
    assert pseudo[:-1] == rewritten[:-1] and pseudo[-1][2] == tr(PSEUDO, rewrite.text) != "Waiting for ann."


async def test_a_delivery_s_merged_writes_are_the_lone_writes_they_replace(store: Store) -> None:
    """`Store.shown` (the shown version, the board's id, the table and its followers read back in one
    statement), a ping or a DM panel with its notified version, and several bot memories in one
    statement: the same rows as the separate writes, on both engines; `shown` is the table as stored,
    with every seat."""
    table = await store.create_table(
        guild_id=1, channel_id=20, game="takeaway", options={}, seed=2, host_id=7, host_name="a",
        reminder_after=60, host_locale=None,
    )  # fmt: skip
    await store.set_seats(
        table.id,
        [SeatRow(0, 7, "a"), SeatRow(1, None, "Bot 1", is_bot=True), SeatRow(2, None, "Bot 2", is_bot=True)],
    )
    await store.start_table(table.id, {"n": 0}, {0: 0}, seed=5)
    memories = {1: {"seen": [1]}, 2: {"seen": [2], "k": "漢"}}
    await store.apply(table.id, expected_version=0, bot_memories=memories, **_move(1))
    await store.set_ping(table.id, {0: 1}, 55, notified=True)
    await store.set_panel_message(table.id, 2, 70, 71, 1, notified=True)
    assert await store.shown(table.id + 1, 1) is None
    result = await store.shown(table.id, 1, board=99)
    assert result is not None and result[1] == {}
    await store.set_follow(table.id, 2**62 + 5, True)
    await store.set_follow(table.id, 8, False)
    result = await store.shown(table.id, 1, board=99)
    assert result is not None and result[1] == {2**62 + 5: True, 8: False} == await store.followers(table.id)
    shown = result[0]
    assert shown == await store.get_table(table.id)
    assert shown.shown_version == 1 and shown.board_message_id == 99 and shown.version == 1
    assert [s.bot_memory for s in shown.seats] == [{}, memories[1], memories[2]]
    assert (shown.seats[0].ping_message_id, shown.seats[0].ping_version, shown.seats[0].notified_version) == (55, 1, 1)
    panel = shown.seats[2]
    assert (panel.panel_message_id, panel.panel_version, panel.notified_version) == (71, 1, 1)
    assert await store.table_and_away(table.id, 1000.0) == (shown, {})
    await store.set_away(7, 1000.0, 1000.0 + 86400 / 3, "2026-12", 1 / 3)
    await store.set_away(2**62 + 5, 1000.0, 5000.0, "2026-12", 0.1)  # a follower, not a player
    assert await store.table_and_away(table.id, 1000.5) == (shown, await store.away_until([7], 1000.5))
    assert (await store.table_and_away(table.id, 1000.5))[1] == {7: 1000.0 + 86400 / 3}  # type: ignore[index]
    assert await store.table_and_away(table.id, 1e9) == (shown, {})
    assert await store.table_and_away(table.id + 1, 0.0) is None
    again = await store.shown(table.id, 0)  # never moves back; the board's id stays
    assert again is not None and again[0].shown_version == 1 and again[0].board_message_id == 99


async def test_the_bots_reply_to_the_table_as_stored_when_it_moved_on_since_the_change(service: TableService) -> None:
    """`continue_bots` starts from the change's table without reading it; when another writer moved the
    table on meanwhile, the bot step's commit is refused and the bots reply to the table as stored."""
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=6, host_id=1, host_name="a")
    await service.add_bot(table.id, 1)
    change = await service.start(table.id, 1, bots=False)
    while change.table.seats[min(change.table.awaited)].user_id is None:  # to the human's turn
        change = await service.continue_bots(change)
    human = change.table
    change = await service.act(human.id, 1, service.legal_for(human, 1)[0], bots=False, table=human)
    if change.table.status != "active":
        return  # (the seed ended the game at once: nothing for the bots to reply to)
    stale = change
    bot_seat = min(change.table.awaited)
    replied = await service.continue_bots(change)  # the bot's reply, as another process would make it
    assert replied.table.version > stale.table.version
    again = await service.continue_bots(stale)  # the stale change: refused at commit, then read
    stored = await service.table(human.id)
    assert again.table == stored and stored.version >= replied.table.version
    assert bot_seat not in stored.awaited or stored.version > replied.table.version
