"""End to end through the local Discord server: lobby, full games, DMs, bad input, restart, races."""

from __future__ import annotations

import asyncio

import discord

from tests.e2e.conftest import WAIT, World
from tests.fakediscord import Message, User


def buttons(message: Message) -> list[str]:
    return [b.get("label", "") for b in message.buttons]


async def open_table(w: World, *joiners: User, pile: str | None = None) -> Message:
    opts = {"options": f"pile={pile}"} if pile else {}
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", **opts)
    lobby = r.response
    assert lobby is not None and not r.ephemeral
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    return lobby


def _plays(m: Message) -> bool:
    """The message offers moves (not only the ↩ Undo of an answered move)."""
    return any(c.get("custom_id", "")[2:6] == ":do:" for c in [*m.buttons, *m.selects])


async def panel_of(w: World, user: User) -> Message:
    """The newest DM panel of `user` that still has a move to click."""
    await w.server.wait_for_dm(user, _plays, timeout=WAIT)
    return [m for m in w.server.dms(user) if _plays(m)][-1]


async def table_row(w: World):  # type: ignore[no-untyped-def]
    assert w.bot is not None
    return await w.bot.service.table_in_channel(w.chan.id) if await _open(w) else None


async def _open(w: World) -> bool:
    assert w.bot is not None
    return await w.bot.service.store.open_table_in_channel(w.chan.id) is not None


async def current(w: World):  # type: ignore[no-untyped-def]
    assert w.bot is not None
    tables = await w.bot.service.store.active_tables()
    return tables[-1] if tables else None


async def test_help_lists_every_registered_game(world: World) -> None:
    r = await world.server.slash(world.alice, world.chan, "game help")
    assert r.ephemeral
    text = str(r.embeds[0])
    assert "Take-Away" in text


async def test_new_offers_games_by_autocomplete_and_posts_a_lobby(world: World) -> None:
    choices = await world.server.autocomplete(world.alice, world.chan, "game new", "game", partial="take")
    assert [c["value"] for c in choices] == ["takeaway"]
    lobby = await open_table(world)
    assert buttons(lobby) == ["Join", "Leave", "Add bot", "Start", "Cancel"]
    assert "Take-Away" in lobby.embeds[0]["title"]


async def test_a_second_table_in_the_channel_is_refused_with_a_pointer(world: World) -> None:
    await open_table(world)
    r = await world.server.slash(world.bob, world.chan, "game new", game="takeaway")
    assert r.ephemeral and "already has an open table" in r.content


async def test_full_game_with_dm_panels_to_the_end(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    board = await w.board()
    assert board.attachments and board.attachments[0].data.startswith(b"\x89PNG")
    # both must bid: each is told once, by a DM panel (a secret bid), not pinged in the channel as well
    for user in (w.alice, w.bob):
        await w.server.wait_for_dm(user, lambda m: bool(m.components))
    assert not [m for m in w.server.messages(w.chan) if "<@" in m.content]
    users = {0: w.alice, 1: w.bob}
    for _ in range(60):
        table = await current(w)
        if table is None:
            break
        seat = min(table.awaited)
        panel = await panel_of(w, users[seat])
        assert panel.attachments, "the private panel shows the hand as an image"
        label = buttons(panel)[0] if panel.buttons else None
        if label:
            await w.server.click(users[seat], panel, label=label)
        else:
            select = panel.selects[0]
            await w.server.select(users[seat], panel, select["custom_id"], [select["options"][0]["value"]])
    final = await w.board(lambda m: any(f.get("name") == "Result" for f in m.embeds[0].get("fields", [])))
    assert "Game over" in str(final.embeds[0]) and final.components == []


async def test_full_game_by_game_move_with_autocomplete(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    users = {0: w.alice, 1: w.bob}
    for _ in range(60):
        table = await current(w)
        if table is None:
            break
        user = users[min(table.awaited)]
        choices = await w.server.autocomplete(user, w.chan, "game move", "action", partial="")
        assert choices, "autocomplete lists the legal moves"
        r = await w.server.slash(user, w.chan, "game move", action=choices[0]["value"])
        assert r.ephemeral and r.content.startswith("✅")
    assert await current(w) is None
    await w.board(lambda m: "Game over" in str(m.embeds[0]))


async def test_closed_dms_fall_back_to_the_ephemeral_panel(world: World) -> None:
    w = world
    lobby = await open_table(w, w.carol)
    await w.server.click(w.alice, lobby, label="Start")
    notice = await w.server.wait_for_message(
        w.chan, lambda m: "can't send you direct messages" in m.content, timeout=WAIT
    )
    assert f"<@{w.carol.id}>" in notice.content
    assert w.server.dms(w.carol) == []
    board = await w.board()
    r = await w.server.click(w.carol, board, label="My panel")
    assert r.ephemeral and r.attachments and "Your move" in r.content
    panel = r.response
    assert panel is not None
    await w.server.click(w.carol, panel, label=buttons(panel)[0])
    assert panel.content.startswith("✅")
    hand = await w.server.slash(w.carol, w.chan, "game hand")
    assert (hand.ephemeral and "Nothing to choose" in hand.content) or "Your move" in hand.content
    # told once only: a second decision does not repeat the notice
    notices = [m for m in w.server.messages(w.chan) if "can't send you direct messages" in m.content]
    assert len(notices) == 1


async def test_bad_input_gets_a_specific_ephemeral_answer_and_changes_nothing(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    r = await w.server.click(w.bob, lobby, label="Start")
    assert r.ephemeral and "Only the host" in r.content
    await w.server.click(w.alice, lobby, label="Start")
    alice_panel = await panel_of(w, w.alice)
    board = await w.board()
    before = (await current(w)).version

    r = await w.server.click(w.dave, board, label="Play" if "Play" in buttons(board) else "My panel")
    assert r.ephemeral and "not seated" in r.content
    r = await w.server.slash(w.dave, w.chan, "game move", action="bid 1")
    assert r.ephemeral and "not seated" in r.content
    r = await w.server.slash(w.alice, w.chan, "game move", action="fly away")
    assert r.ephemeral and "Cannot read “fly away”" in r.content
    r = await w.server.slash(w.alice, w.chan, "game move", action="take 1")
    assert r.ephemeral and "not a legal move" in r.content
    r = await w.server.slash(w.alice, w.chan, "game new", game="chess")
    assert r.ephemeral and "Unknown game 'chess'" in r.content
    assert (await current(w)).version == before

    # double click: the first counts, the second is told so
    label = buttons(alice_panel)[0]
    first = asyncio.create_task(w.server.click(w.alice, alice_panel, label=label))
    await first
    assert alice_panel.content.startswith("✅")
    assert (await current(w)).version == before + 1


async def test_out_of_turn_and_stale_buttons(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    first_board = await w.board()
    dm = {u.id: await panel_of(w, u) for u in (w.alice, w.bob)}
    # each also opens the ephemeral panel: a second surface with the same version-0 buttons
    hand = {u.id: (await w.server.slash(u, w.chan, "game hand")).response for u in (w.alice, w.bob)}
    await w.server.click(w.alice, dm[w.alice.id], label=buttons(dm[w.alice.id])[0])
    await w.server.wait_for_message(w.chan, lambda m: m.id == first_board.id and m.edits > 0, timeout=WAIT)
    assert len(w.server.messages(w.chan)) == 2  # lobby + board: one pick edits the board in place
    await w.server.click(w.bob, dm[w.bob.id], label=buttons(dm[w.bob.id])[0])
    # both picked: the board shows the new decision (posted anew, or edited if the mover is bob himself)
    await w.board(lambda m: m.embeds[0].get("footer", {}).get("text", "").startswith("v2"))
    table = await current(w)
    version = table.version
    mover = w.alice if min(table.awaited) == 0 else w.bob
    waiter = w.bob if mover is w.alice else w.alice
    # out of turn: the waiting player tries to move
    r = await w.server.slash(waiter, w.chan, "game move", action="take 1")
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    # the waiting player's old bid panel: their bid already counted
    old = hand[waiter.id]
    assert old is not None
    r = await w.server.click(waiter, old, label=buttons(old)[0])
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    # the mover's old bid panel: it is their turn again, but that panel is out of date
    old = hand[mover.id]
    assert old is not None
    r = await w.server.click(mover, old, label=buttons(old)[0])
    assert r.ephemeral and "out of date" in r.content and "discord.com/channels/" in r.content
    assert (await current(w)).version == version
    # only the newest board has buttons: an older one loses them when the next is posted
    boards = [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]
    assert all(b.components == [] for b in boards[:-1]) and boards[-1].components


async def test_restart_mid_game_old_buttons_still_work(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    a_panel = await panel_of(w, w.alice)
    b_panel = await panel_of(w, w.bob)
    await w.server.click(w.alice, a_panel, label=buttons(a_panel)[0])
    assert w.bot is not None
    await w.bot.close()
    await w.boot()  # a new process on the same database
    r = await w.server.click(w.bob, b_panel, label=buttons(b_panel)[0])
    assert not (r.response and r.response.ephemeral and "wrong" in r.response.content)
    assert b_panel.content.startswith("✅")
    table = await current(w)
    assert table is not None and table.state is not None and table.state["phase"] == "play"


async def test_two_players_bidding_at_the_same_moment_are_both_recorded_once(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    a_panel, b_panel = await panel_of(w, w.alice), await panel_of(w, w.bob)
    await asyncio.gather(
        w.server.click(w.alice, a_panel, label=buttons(a_panel)[0]),
        w.server.click(w.bob, b_panel, label=buttons(b_panel)[0]),
    )
    table = await current(w)
    assert table is not None
    assert w.bot is not None
    actions = await w.bot.service.store.actions(table.id)
    assert sorted(a.seat for a in actions) == [0, 1]


async def test_bot_seat_and_resign(world: World) -> None:
    w = world
    lobby = await open_table(w)
    await w.server.click(w.alice, lobby, label="Add bot")
    assert "Bot 1" in str(lobby.embeds[0])
    await w.server.click(w.alice, lobby, label="Start")
    await panel_of(w, w.alice)
    r = await w.server.slash(w.alice, w.chan, "game resign")
    assert r.ephemeral
    await w.board(lambda m: "resigned" in str(m.embeds[0]))
    assert await current(w) is None


async def test_abandon_needs_host_or_manage_channels(world: World) -> None:
    w = world
    await open_table(w, w.bob)
    r = await w.server.slash(w.bob, w.chan, "game abandon")
    assert r.ephemeral and "Only the host" in r.content
    r = await w.server.slash(w.alice, w.chan, "game abandon")
    assert not r.ephemeral and "closed" in r.content


async def test_status_log_rules_and_lobby_options(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    select = lobby.selects[0]
    await w.server.select(w.alice, lobby, select["custom_id"], ["pile=7"])
    assert "pile: 7" in str(lobby.embeds[0])
    r = await w.server.select(w.bob, lobby, select["custom_id"], ["pile=15"])
    assert r.ephemeral and "Only the host" in r.content
    await w.server.click(w.alice, lobby, label="Start")
    await w.board()
    r = await w.server.slash(w.alice, w.chan, "game status")
    assert r.ephemeral
    r = await w.server.slash(w.alice, w.chan, "game log")
    assert r.ephemeral
    r = await w.server.slash(w.alice, w.chan, "game rules", game="takeaway")
    assert r.ephemeral and "Take-Away" in r.embeds[0]["title"]  # a how-to-play embed (tests/e2e/test_words.py)


async def test_reminder_pings_only_the_awaited_players(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    await w.board()
    assert w.bot is not None
    cog = w.bot.get_cog("TableCog")
    table = await current(w)
    sent = await cog.send_reminders(now=table.updated_at + table.reminder_after + 1)  # type: ignore[union-attr]
    assert sent == 1
    ping = await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("⏰"), timeout=WAIT)
    assert f"<@{w.alice.id}>" in ping.content and f"<@{w.bob.id}>" in ping.content


async def test_malformed_and_unknown_options_at_new_are_refused(world: World) -> None:
    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options="pile")
    assert r.ephemeral and "Cannot read option “pile”" in r.content
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options="pile=99")
    assert r.ephemeral and "must be one of 7, 11, 15" in r.content
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options="colour=red")
    assert r.ephemeral and "no option named colour" in r.content
    assert w.bot is not None and await w.bot.service.store.open_table_in_channel(w.chan.id) is None


async def test_a_member_with_manage_channels_may_abandon(world: World) -> None:
    w = world
    await open_table(w, w.bob)
    moderator = w.server.add_user("mod")
    w.server.add_member(w.guild, moderator, permissions=discord.Permissions(manage_channels=True))
    r = await w.server.slash(moderator, w.chan, "game abandon")
    assert not r.ephemeral and "closed" in r.content
    assert w.bot is not None and await w.bot.service.store.open_table_in_channel(w.chan.id) is None


async def test_autopilot_moves_for_a_player_who_stays_away(world: World) -> None:
    w = world
    lobby = await open_table(w, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    first = await w.board()
    r = await w.server.slash(w.bob, w.chan, "game remind", hours=1, bot_after_hours=2)
    assert r.ephemeral and "Only the host" in r.content
    r = await w.server.slash(w.alice, w.chan, "game remind", hours=1, bot_after_hours=0.5)
    assert r.ephemeral and "after the reminder" in r.content
    r = await w.server.slash(w.alice, w.chan, "game remind", hours=1, bot_after_hours=2)
    assert r.ephemeral and "a bot moves" in r.content
    assert w.bot is not None
    cog = w.bot.get_cog("TableCog")
    table = await current(w)
    assert await cog.run_autopilot(now=table.updated_at + 3600) == 0  # type: ignore[union-attr]
    assert await cog.run_autopilot(now=table.updated_at + 7201) == 1  # type: ignore[union-attr]
    board = await w.board(after=first.id)
    assert "was away for a while" in str(board.embeds[0])
    table = await current(w)
    assert table is not None and table.state is not None and table.state["phase"] == "play"
    assert not any(s.is_bot or s.resigned for s in table.seats)  # the seats stay the players'


async def test_the_lobby_offers_every_option_as_a_menu(world: World) -> None:
    """Ghost Stories has four options: a menu each, above the buttons; the host's pick is kept."""
    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="ghost_stories")
    lobby = r.response
    assert lobby is not None
    menus = [s["placeholder"] for s in lobby.selects]
    assert len(menus) == 4 and buttons(lobby) == ["Join", "Leave", "Add bot", "Start", "Cancel"]
    bone = next(s for s in lobby.selects if any(o["value"].startswith("bone_cracker=") for o in s["options"]))
    await w.server.select(w.alice, lobby, bone["custom_id"], ["bone_cracker=board"])
    row = await table_row(w)
    assert row is not None and row.options["bone_cracker"] == "board"
    assert "bone_cracker: board" in str(lobby.embeds[0])


async def test_options_beyond_four_share_the_last_menu(world: World) -> None:
    """Discord allows five rows: three options get their own menu, the rest share a fourth."""
    from bot.rules import OptionSpec, register, unregister
    from tests.takeaway import TakeAway

    class ManyOptions(TakeAway):
        key = "takeaway_many"
        options = (
            *TakeAway.options,
            *(OptionSpec(f"extra{i}", f"Extra option {i}", ("a", "b"), "a") for i in range(1, 6)),
        )

    register(ManyOptions())
    try:
        w = world
        r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway_many")
        lobby = r.response
        assert lobby is not None
        assert len(lobby.selects) == 4
        more = lobby.selects[3]
        assert more["placeholder"] == "More: extra3, extra4, extra5"
        assert [o["label"] for o in more["options"]][:2] == ["extra3: a (current)", "extra3: b"]
        await w.server.select(w.alice, lobby, more["custom_id"], ["extra5=b"])
        row = await table_row(w)
        assert row is not None and row.options["extra5"] == "b"
        assert "extra5: b (current)" in [o["label"] for o in lobby.selects[3]["options"]]
    finally:
        unregister("takeaway_many")
