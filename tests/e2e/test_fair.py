"""Provably fair randomness (issue #17): the commitment shown at the start matches the seed revealed at
the end, and replaying the log from that seed with the project's code gives the stored final state."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import sys
from pathlib import Path

from bot.rules import get_game
from bot.tables.fair import commitment, verify
from tests.e2e.conftest import WAIT, World, play_out, start_takeaway

REPO = Path(__file__).resolve().parents[2]


async def test_the_commitment_shown_at_the_start_matches_the_seed_revealed_at_the_end(world: World) -> None:
    w = world
    await start_takeaway(w)
    first = await w.board()
    fields = {f["name"]: f["value"] for f in first.embeds[0].get("fields", [])}
    shown = fields["🎲 Fair dice"].split("`")[1]  # the full commitment, on the first board
    assert len(shown) == 64 and shown[:12] in first.embeds[0]["footer"]["text"]
    assert w.bot is not None
    (table,) = await w.bot.service.store.active_tables()
    assert str(table.seed) not in json.dumps(first.embeds) + first.content  # the seed stays secret
    early = await w.server.slash(w.bob, w.chan, "game verify")
    assert early.ephemeral and shown in early.content and "revealed when the game ends" in early.content
    assert not early.attachments
    # the game is played to its end; the game-over message reveals seed and salt
    await play_out(w, table.id)
    end = await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    reveal = next(f["value"] for f in end.embeds[0]["fields"] if f["name"] == "🎲 Fair dice")
    seed, salt = int(reveal.split("`")[1]), reveal.split("`")[3]
    assert commitment("takeaway", table.id, seed, salt) == shown
    # /game verify hands out the record: it replays to the stored final state
    v = await w.server.slash(w.bob, w.chan, "game verify")
    assert v.ephemeral and v.attachments and "python -m bot replay" in v.content
    record = json.loads(v.attachments[0].data)
    assert record["commitment"] == shown and record["seed"] == seed
    ok, why = verify(record, expected_commitment=shown)
    assert ok, why
    # any change to the record is caught: an action, the seed, or the final state
    bent = copy.deepcopy(record)
    move = next(a for a in bent["actions"] if a["kind"] == "move")
    move["action"]["n"] = 3 if move["action"]["n"] != 3 else 1
    assert not verify(bent)[0]
    bent = {**record, "seed": record["seed"] + 1}
    assert not verify(bent)[0] and "commitment" in verify(bent)[1]
    bent = {**record, "final_state_sha256": "0" * 64}
    assert not verify(bent)[0]
    # and anyone can run the check with the project's own code
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"spooky-verify-{table.id}-{os.getpid()}.json"
    path.write_bytes(v.attachments[0].data)
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys, tests.takeaway as t; from bot.rules import register; register(t.GAME);"
            " from bot.__main__ import main; sys.argv=['bot','replay',sys.argv[1]]; sys.exit(main())",
            str(path),
            cwd=REPO,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        path.unlink(missing_ok=True)
    assert proc.returncode == 0, err.decode()
    assert "verified" in out.decode() and "NOT" not in out.decode()


async def test_a_replay_of_a_broken_file_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "replay",
        str(bad),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2 and err.decode().count("\n") == 1 and "cannot read" in err.decode()
    wrong = tmp_path / "wrong.json"
    wrong.write_text(
        json.dumps(
            {
                "format": "spooky-table/v1",
                "game": "dawn_under",
                "table": 1,
                "seed": 1,
                "salt": "x",
                "commitment": "0" * 64,
                "actions": [],
                "seats": 2,
                "final_state_sha256": "0",
            }
        )
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "replay",
        str(wrong),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1 and "NOT verified" in out.decode() and "commitment" in out.decode()


# -- /game mine (issue #17) -----------------------------------------------------------------------------------
async def test_my_games_lists_the_tables_waiting_for_me_first_with_links_and_pages(world: World) -> None:
    w = world
    assert w.bot is not None
    store = w.bot.service.store
    # a lobby in the channel, and a started table elsewhere where both must bid (it waits for alice)
    await w.server.slash(w.alice, w.chan, "game new", game="takeaway")
    other = w.server.add_channel(w.guild, "more")
    r = await w.server.slash(w.alice, other, "game new", game="takeaway")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Start")
    await w.server.wait_for_message(
        other, lambda m: bool(m.embeds) and "· table #" in m.embeds[0]["title"], timeout=WAIT
    )
    mine = await w.server.slash(w.alice, w.chan, "game mine")
    assert mine.ephemeral
    text = mine.embeds[0]["description"]
    first, second = text.split("\n")[:2]
    assert "#2" in first and "your move" in first and "https://discord.com/channels/" in first
    assert "#1" in second and "lobby" in second
    assert "2 open · 1 waiting for you" in mine.embeds[0]["footer"]["text"]
    # 30 more tables (made directly in the store): 25 a page, with Next / Previous
    for i in range(30):
        await store.create_table(
            guild_id=w.guild.id,
            channel_id=900_000 + i,
            game="takeaway",
            options={},
            seed=i,
            host_id=w.alice.id,
            host_name="alice",
            reminder_after=3600,
        )
    paged = await w.server.slash(w.alice, w.chan, "game mine")
    assert len(paged.embeds[0]["description"].split("\n")) == 25 and "page 1/2" in paged.embeds[0]["footer"]["text"]
    page = paged.response
    assert page is not None
    await w.server.click(w.alice, page, label="Next ▶ (1/2)")
    assert "page 2/2" in page.embeds[0]["footer"]["text"] and len(page.embeds[0]["description"].split("\n")) == 7
    nobody = await w.server.slash(w.dave, w.chan, "game mine")
    assert "no open table" in nobody.embeds[0]["description"]


# -- /game away (issue #17) -------------------------------------------------------------------------------------
async def test_time_off_pauses_reminders_shows_on_the_board_lets_a_bot_move_and_ends_with_a_move(world: World) -> None:
    import time

    w = world
    assert w.bot is not None
    await start_takeaway(w)
    (table,) = await w.bot.service.store.active_tables()
    cog = w.bot.get_cog("TableCog")
    away = await w.server.slash(w.alice, w.chan, "game away", days=3)
    assert away.ephemeral and "away until" in away.content
    # bob bids; alice, away, is the only one awaited: no reminder for her, the board says she is away
    legal = w.bot.service.legal_for(await w.bot.service.table(table.id), w.bob.id)
    await w.server.slash(w.bob, w.chan, "game move", action=get_game("takeaway").format_action(legal[0]))
    board = await w.board(lambda m: "away until" in m.content)
    assert "alice" in board.content
    later = time.time() + 2 * 86400  # quiet for two days: past the 12-hour reminder time
    assert await cog.send_reminders(now=later) == 0  # type: ignore[union-attr]
    # the host lets a bot move for quiet players: it moves for alice at once, she is away
    await w.server.slash(w.alice, w.chan, "game remind", hours=12, bot_after_hours=48)
    assert await cog.run_autopilot(now=time.time() + 60) == 1  # type: ignore[union-attr]
    log = " ".join(text for _, _, text in await w.bot.service.log(table.id))
    assert "alice is away, so a bot moved for them" in log
    # the monthly limit, then coming back by playing
    too_much = await w.server.slash(w.alice, w.chan, "game away", days=14)
    assert too_much.ephemeral and "14 days a month" in too_much.content
    for _ in range(10):  # bob plays until it is alice's turn; her own move brings her back
        row = await w.bot.service.table(table.id)
        assert row.status == "active"
        mover = row.seats[min(row.awaited)]
        assert mover.user_id is not None
        move = get_game("takeaway").format_action(w.bot.service.legal_for(row, mover.user_id)[0])
        if mover.user_id == w.alice.id:
            await w.server.slash(w.alice, w.chan, "game move", action=move)
            break
        await w.server.slash(w.bob, w.chan, "game move", action=move)
    assert not await w.bot.service.store.away_until([w.alice.id], time.time())  # back by playing
    await w.server.slash(w.alice, w.chan, "game away", days=1)
    back = await w.server.slash(w.alice, w.chan, "game away", days=0)
    assert back.ephemeral and "Welcome back" in back.content
    assert not await w.bot.service.store.away_until([w.alice.id], time.time())
    again = await w.server.slash(w.alice, w.chan, "game away", days=10)  # the unused days were given back
    assert again.ephemeral and "away until" in again.content, again.content


# -- Follow (issue #17) -----------------------------------------------------------------------------------------
async def test_a_follower_gets_dms_not_pings_at_every_board_or_at_the_end(world: World) -> None:
    w = world
    assert w.bot is not None
    await start_takeaway(w)
    board = await w.board()
    (table,) = await w.bot.service.store.active_tables()
    f = await w.server.click(w.dave, board, label="Follow")
    panel = f.response
    assert panel is not None and panel.ephemeral and "one DM when the game ends" in panel.content
    await w.server.click(w.dave, panel, label="Every board")
    assert "every board" in panel.content
    closed = await w.server.click(w.carol, board, label="Follow")  # carol's DMs are closed: skipped quietly
    assert closed.ephemeral
    legal = w.bot.service.legal_for(await w.bot.service.table(table.id), w.alice.id)
    await w.server.slash(w.alice, w.chan, "game move", action=get_game("takeaway").format_action(legal[0]))
    await w.server.wait_for_dm(w.dave, lambda m: f"table #{table.id}" in m.content and "👀" in m.content, timeout=WAIT)
    await w.server.click(w.dave, panel, label="Only the end")
    boards_before = len(w.server.dms(w.dave))
    await play_out(w, table.id)
    end = await w.server.wait_for_dm(w.dave, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    assert f"table #{table.id} is over" in end.content
    assert len(w.server.dms(w.dave)) == boards_before + 1  # only the end, after "Only the end"
    assert not [m for m in w.server.messages(w.chan) if f"<@{w.dave.id}>" in m.content]  # never pinged


async def test_a_table_of_another_server_is_refused_to_someone_who_was_not_at_it(world: World) -> None:
    import discord

    w = world
    assert w.bot is not None
    await start_takeaway(w)
    (table,) = await w.bot.service.store.active_tables()
    # a second server with the bot's commands synced there; eve is a member of it only
    other = w.server.add_guild(name="Elsewhere", owner=w.dave)
    chan = w.server.add_channel(other, "games")
    eve = w.server.add_user("eve")
    w.server.add_member(other, eve)
    w.server.add_member(other, w.alice)
    await w.server.wait_for(lambda: w.bot is not None and w.bot.get_guild(other.id) is not None, timeout=WAIT)
    target = discord.Object(id=other.id)
    w.bot.tree.copy_global_to(guild=target)
    await w.bot.tree.sync(guild=target)
    refused = await w.server.slash(eve, chan, "game verify", table=table.id)
    assert refused.ephemeral and "another server" in refused.content
    seated = await w.server.slash(w.alice, chan, "game verify", table=table.id)  # she plays at it: fine
    assert seated.ephemeral and "commitment" in seated.content


async def test_a_damaged_follow_or_my_games_button_is_refused_and_changes_nothing(world: World) -> None:
    w = world
    assert w.bot is not None
    await start_takeaway(w)
    board = await w.board()
    (table,) = await w.bot.service.store.active_tables()
    r = await w.server.forged_click(w.dave, board, f"st:follow:{table.id}:0:loud")
    answer = r.followups[-1] if r.followups else r.response
    assert answer is not None and answer.ephemeral and "damaged" in answer.content
    assert await w.bot.service.store.followers(table.id) == {}
    r = await w.server.forged_click(w.dave, board, "st:mine:0:x:")  # a page that is not a number
    answer = r.followups[-1] if r.followups else r.response
    assert answer is not None and answer.ephemeral and "Sorry" not in answer.content
