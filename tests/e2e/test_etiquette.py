"""Issue #11: a table that is pleasant to live with. Whole games through the local Discord, counting
what each player was sent: one notice per decision (a DM panel, or a ping where the controls are on
the board), answered pings deleted, and a channel that keeps a handful of the bot's messages.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.rules import get_game
from tests.e2e.conftest import WAIT, World
from tests.e2e.notices import assert_one_notice_per_decision, decisions, left_in
from tests.e2e.test_dawn_under import GAME as DAWN
from tests.e2e.test_dawn_under import Human, Table, do, fixed_seed
from tests.e2e.test_dawn_under import open_table as open_dawn
from tests.fakediscord import Channel, Message


async def test_a_whole_dawn_under_game_with_three_humans_is_told_once_per_decision(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    fixed_seed(monkeypatch, 10)
    t = Table(w, await open_dawn(w, w.bob, w.carol))
    users = {0: w.alice, 1: w.bob, 2: w.carol}
    humans = {s: Human(u, s) for s, u in users.items()}
    for step in range(600):
        row, board = await t.check_memory()
        if row.status != "active":
            break
        state = DAWN.load_state(row.state or {})
        for h in humans.values():
            h.observe(state)
        seat = min(DAWN.to_act(state))
        await do(w, users[seat], board, humans[seat].choose(state, step), slash=step % 3 == 0)
    row, _board = await t.check_memory()
    assert row.status == "finished"
    await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    report = assert_one_notice_per_decision(w, row, await decisions(w, row))
    assert all(report[u.name]["dms"] == 0 for u in users.values()), "Dawn Under sends no DMs"


# -- threads ------------------------------------------------------------------------------------------------
async def thread_world(w: World) -> tuple[Channel, Message]:
    """The test world's bot granted Create Public Threads, and a Take-Away lobby in its channel."""
    bot_member = w.guild.members[w.server.bot_user.id]
    bot_member.roles[0].permissions |= discord.Permissions(create_public_threads=True).value
    return w.chan, await lobby_in(w, w.chan)


async def lobby_in(w: World, chan: Channel, **options: Any) -> Message:
    r = await w.server.slash(w.alice, chan, "game new", game="takeaway", **options)
    assert r.response is not None and not r.ephemeral, r.content
    await w.server.click(w.bob, r.response, label="Join")
    return r.response


async def test_a_game_plays_in_its_own_thread_and_its_result_comes_back_to_the_channel(world: World) -> None:
    w = world
    chan, lobby = await thread_world(w)
    await w.server.click(w.alice, lobby, label="Start")
    assert w.bot is not None
    rows = await w.bot.service.store.active_tables()
    assert rows and rows[-1].parent_channel_id == chan.id and rows[-1].channel_id != chan.id
    thread = w.server.channels[rows[-1].channel_id]
    assert thread.parent_id == chan.id and thread.id == lobby.id  # opened on the lobby message
    await w.server.wait_for_message(thread, lambda m: bool(m.embeds) and "· table #" in m.embeds[0]["title"])
    assert f"<#{thread.id}>" in str(lobby.embeds[0])  # the lobby says where the game is
    assert not [m for m in left_in(w.server, chan) if m.embeds and "· table #" in m.embeds[0]["title"]]
    # the parent channel is free for another table while this one plays in its thread
    r = await w.server.slash(w.bob, chan, "game new", game="takeaway")
    assert not r.ephemeral, r.content
    # played to the end in the thread: the game-over message comes back to the channel of the lobby
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    for _ in range(40):
        row = await w.bot.service.table(rows[-1].id)
        if row.status != "active":
            break
        seat = row.seats[min(row.awaited)]
        assert seat.user_id is not None
        legal = w.bot.service.legal_for(row, seat.user_id)
        move = get_game("takeaway").format_action(legal[0])
        await w.server.slash(users[seat.user_id], thread, "game move", action=move)
    end = await w.server.wait_for_message(chan, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    assert f"<@{w.alice.id}>" in end.content and not [m for m in left_in(w.server, thread) if "🏁" in m.content]


async def test_without_thread_or_when_discord_refuses_one_the_game_plays_in_the_channel(world: World) -> None:
    w = world
    chan, lobby = await thread_world(w)
    w.server.fault("POST", r"^/channels/\d+/messages/\d+/threads$", 403, 50013, "Missing Permissions", times=1)
    await w.server.click(w.alice, lobby, label="Start")
    await w.server.wait_for_message(chan, lambda m: bool(m.embeds) and "· table #" in m.embeds[0]["title"])
    assert w.bot is not None
    (row,) = await w.bot.service.store.active_tables()
    assert row.channel_id == chan.id and row.parent_channel_id is None
    other = w.server.add_channel(w.guild, "more")
    r = await w.server.slash(w.alice, other, "game new", game="takeaway", thread=False)
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Start")
    await w.server.wait_for_message(other, lambda m: bool(m.embeds) and "· table #" in m.embeds[0]["title"])


async def test_asking_for_a_thread_where_none_can_be_made_is_refused(world: World) -> None:
    w = world  # the test world's bot holds no Create Public Threads
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", thread=True)
    assert r.ephemeral and "cannot open a thread here" in r.content


# -- /game notify ---------------------------------------------------------------------------------------------
async def test_notify_reminders_only_sends_no_dm_panel_and_last_waits_for_the_others(world: World) -> None:
    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Start")
    assert w.bot is not None
    (table,) = await w.bot.service.store.active_tables()
    await w.server.wait_for_dm(w.alice, lambda m: bool(m.components), timeout=WAIT)
    quiet = await w.server.slash(w.alice, w.chan, "game notify", level="reminders")
    assert quiet.ephemeral and "Only reminders" in quiet.content
    last = await w.server.slash(w.bob, w.chan, "game notify", level="last")
    assert last.ephemeral
    outsider = await w.server.slash(w.dave, w.chan, "game notify", level="reminders")
    assert outsider.ephemeral and "not seated" in outsider.content
    # every time the other player's move hands someone a decision, their level decides if they hear of it
    users = {0: w.alice, 1: w.bob}
    checked = {"alice": 0, "bob": 0}
    for _ in range(12):
        row = await w.bot.service.table(table.id)
        if row.status != "active":
            break
        mover = min(row.awaited)
        before = {u.name: len(w.server.dms(u)) for u in users.values()}
        legal = w.bot.service.legal_for(row, users[mover].id)
        await w.server.slash(users[mover], w.chan, "game move", action=get_game("takeaway").format_action(legal[0]))
        after = await w.bot.service.table(table.id)
        other = 1 - mover
        if other in after.awaited and after.awaited[other] == after.version:  # newly awaited by this move
            name = users[other].name
            if name == "alice":  # reminders only: no DM panel
                assert len(w.server.dms(w.alice)) == before["alice"]
            elif set(after.awaited) == {1}:  # bob, "last", and he is the only one awaited: told
                await w.server.wait_for(lambda b=before["bob"]: len(w.server.dms(w.bob)) > b, timeout=WAIT)
            checked[name] += 1
    assert checked["alice"] or checked["bob"], "the game handed a decision to the other player at least once"


# -- Dawn Under's glimpse (issue #13: memory made fair across hours) -------------------------------------
async def test_each_player_sees_a_reveal_once_for_the_set_time_and_never_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    w = world
    # the loaded extension (discord.py does not set it on the package)
    monkeypatch.setattr(sys.modules["cogs.table"], "GLIMPSE_SCALE", 0.02)  # the table's 15 s become 0.3 s
    t = Table(w, await open_dawn(w, w.bob, w.carol))
    assert w.bot is not None
    row, board = await t.check_memory()
    assert DAWN.glimpse_seconds(row.options) == 15  # the default
    users = {0: w.alice, 1: w.bob, 2: w.carol}
    mover = users[min(row.awaited)]
    flip = next(a for a in w.bot.service.legal_for(row, mover.id) if a.verb == "flip")
    r = await w.server.slash(mover, w.chan, "dawn flip", grave=flip.grave)
    answer = r.response
    assert answer is not None and answer.ephemeral and "👁 " in answer.content and flip.grave in answer.content
    await w.server.wait_for(lambda: "👁" not in answer.content, timeout=WAIT)  # faded after its time
    row, board = await t.check_memory()
    text = board.content + str(board.embeds)
    assert "What you missed" in text and flip.grave not in board.embeds[0]["description"].split("👁")[0]
    # the board's image is the lasting view: the touched lid is drawn closed
    assert all(
        g["state"] != "ajar"
        for g in DAWN.lasting_view(DAWN.view(DAWN.load_state(row.state or {}), None), row.options)["graves"]
    )
    others = [u for u in users.values() if u is not mover]
    for user in others:
        g = await w.server.click(user, board, label="What you missed")
        shown = g.response
        assert shown is not None and shown.ephemeral
        await w.server.wait_for(lambda s=shown: "(1/" in s.content and bool(s.attachments), timeout=WAIT)
        assert flip.grave in shown.content
        await w.server.wait_for(lambda s=shown: "That was everything you missed" in s.content, timeout=WAIT)
        assert shown.attachments == [] and flip.grave not in shown.content  # then the lid is closed again
        again = await w.server.click(user, board, label="What you missed")
        assert again.ephemeral and "Nothing was shown" in again.content  # once, never again
    mine = await w.server.click(mover, board, label="What you missed")
    assert mine.ephemeral and "Nothing was shown" in mine.content  # the mover saw it in their answer
    outsider = await w.server.click(w.dave, board, label="What you missed")  # not seated: refused
    assert outsider.ephemeral and "not seated" in outsider.content


async def test_a_glimpse_still_showing_when_the_bot_stops_is_taken_out_first(world: World) -> None:
    """A restart must not leave a reveal on screen for good: stopping the bot fades it at once."""
    w = world
    t = Table(w, await open_dawn(w, w.bob, w.carol))
    assert w.bot is not None
    row, _ = await t.check_memory()
    users = {0: w.alice, 1: w.bob, 2: w.carol}
    mover = users[min(row.awaited)]
    flip = next(a for a in w.bot.service.legal_for(row, mover.id) if a.verb == "flip")
    answer = (await w.server.slash(mover, w.chan, "dawn flip", grave=flip.grave)).response
    assert answer is not None and "👁 " in answer.content  # shown for the table's 15 s
    shown = [line for line in answer.content.splitlines() if line.startswith("👁 ")]
    await w.bot.close()
    assert "👁" not in answer.content and not any(line in answer.content for line in shown)
