"""Issue #11, "A real ending": the game-over message (pings, winners, a readable breakdown, Rematch),
announced once per table, and the finished table still readable with /game status, log and hand."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from cogs.common import ending
from tests.e2e.conftest import WAIT, World
from tests.e2e.test_reliability import settled
from tests.fakediscord import Message, User

REPR = re.compile(r"[\[\]{}']")


async def open_takeaway(w: World, *joiners: User, pile: str = "7", bots: int = 0) -> Message:
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options=f"pile={pile}")
    lobby = r.response
    assert lobby is not None
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    return lobby


async def play_to_the_end(w: World, users: dict[int, User]) -> int:
    """Every awaited human plays their first legal move by /game move until the table is over."""
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    for _ in range(100):
        row = await w.bot.service.table(table.id)
        if row.status != "active":
            break
        seat = min(s for s in row.awaited if s in users)
        legal = w.bot.service.legal_for(row, users[seat].id)
        game = w.bot.service.game_of(row)
        r = await w.server.slash(users[seat], w.chan, "game move", action=game.format_action(legal[0]))
        assert r.ephemeral and r.content.startswith("✅"), r.content
        await settled(w, table.id)
    return table.id


def end_messages(w: World, table_id: int) -> list[Message]:
    return [
        m
        for m in w.server.messages(w.chan)
        if m.embeds
        and m.embeds[0].get("title", "").startswith("🏁 Game over")
        and f"#{table_id}" in m.embeds[0]["title"]
    ]


async def end_message(w: World, table_id: int) -> Message:
    await w.server.wait_for_message(w.chan, lambda m: bool(end_messages(w, table_id)), timeout=WAIT)
    return end_messages(w, table_id)[-1]


def readable(message: Message) -> str:
    """The message's text without its markdown link: no Python repr may remain."""
    text = message.content + "\n" + str(message.embeds[0].get("description", ""))
    text = re.sub(r"\[The final board\]\(https://[^)]*\)", "", text)
    assert not REPR.search(text), text
    assert "None" not in text and "True" not in text, text
    return text


async def test_game_over_message_pings_both_names_the_winner_and_offers_rematch(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob)
    table_id = await play_to_the_end(w, {0: w.alice, 1: w.bob})
    assert w.bot is not None
    row = await w.bot.service.table(table_id)
    assert row.status == "finished" and row.outcome is not None and row.end_announced_at is not None
    winner = [w.alice, w.bob][row.outcome["winners"][0]]
    loser = w.bob if winner is w.alice else w.alice
    msg = await end_message(w, table_id)
    assert f"<@{w.alice.id}>" in msg.content and f"<@{w.bob.id}>" in msg.content
    assert f"**{winner.name}** wins!" in msg.content
    text = readable(msg)
    assert f"🥇 {winner.name} — 1 point" in text and f"🥈 {loser.name} — 0 points" in text
    assert [b.get("label") for b in msg.buttons] == ["Rematch"]
    assert row.end_message_id == msg.id
    # the message pings the seated humans and nobody else (no roles, no @everyone)
    mentions = ending.end_message(row)["allowed_mentions"].to_dict()
    assert sorted(mentions["users"]) == sorted([w.alice.id, w.bob.id]) and mentions["parse"] == []
    # the final board keeps its readable result and shows no one as awaited
    board = await w.board()
    result = next(f["value"] for f in board.embeds[0]["fields"] if f["name"] == "Result")
    assert "Game over" in result and f"🥇 {winner.name}" in result and not board.content
    assert board.components == []


async def test_announced_once_when_delivery_runs_again_and_after_a_restart(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob)
    table_id = await play_to_the_end(w, {0: w.alice, 1: w.bob})
    await end_message(w, table_id)
    assert w.bot is not None
    # the board lags (as after a crash between the post and its record): the sweep shows it again
    store = w.bot.service.store
    await store._db.execute("UPDATE game_tables SET shown_version = version - 1 WHERE id = ?", (table_id,))
    cog: Any = w.bot.get_cog("TableCog")
    assert await cog.sweep() == 1
    await settled(w, table_id)
    assert len(end_messages(w, table_id)) == 1
    await w.bot.close()
    await w.boot()
    assert w.bot is not None
    cog = w.bot.get_cog("TableCog")
    await cog.sweep()
    await settled(w, table_id)
    assert len(end_messages(w, table_id)) == 1


async def test_a_failed_game_over_post_is_made_by_the_sweep(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    build = ending.end_message
    faults: list[Any] = []

    def failing_once(table: Any) -> dict[str, Any]:
        # Discord refuses the next post in the channel: the game-over message (the final board is out)
        if not faults:
            faults.append(w.server.fault("POST", rf"^/channels/{w.chan.id}/messages$", 503))
        return build(table)

    monkeypatch.setattr(ending, "end_message", failing_once)
    await open_takeaway(w, w.bob)
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    for _ in range(100):
        row = await w.bot.service.table(table.id)
        if row.status != "active":
            break
        seat = min(row.awaited)
        user = (w.alice, w.bob)[seat]
        legal = w.bot.service.legal_for(row, user.id)
        await w.server.slash(user, w.chan, "game move", action=w.bot.service.game_of(row).format_action(legal[0]))
        if (await w.bot.service.table(table.id)).status == "active":
            await settled(w, table.id)
    row = await w.bot.service.table(table.id)
    assert row.status == "finished"
    deadline = time.monotonic() + WAIT
    while not faults or faults[0].hits < 1:
        assert time.monotonic() < deadline, "the game-over post was never tried"
        await asyncio.sleep(0.02)
    cog: Any = w.bot.get_cog("TableCog")
    while cog._deliver_locks.locked(table.id):  # the failed delivery finishes (and tells the player)
        await asyncio.sleep(0.02)
    assert end_messages(w, table.id) == []
    assert (await w.bot.service.table(table.id)).lagging, "the table still owes its game-over message"
    assert await cog.sweep() == 1
    await settled(w, table.id)
    assert await cog.sweep() == 0
    assert len(end_messages(w, table.id)) == 1
    told = [m for m in w.server.messages(w.chan, viewer=user) if m.ephemeral and "could not be updated" in m.content]
    assert told, "the player was told their move counted"


async def test_status_log_and_hand_after_the_end_and_moves_are_refused(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob)
    table_id = await play_to_the_end(w, {0: w.alice, 1: w.bob})
    await end_message(w, table_id)
    before = await w.board()
    r = await w.server.slash(w.bob, w.chan, "game status")
    assert r.ephemeral and "current board" in r.content
    board = await w.board(after=before.id)
    assert "Game over" in str(board.embeds[0]) and board.components == []
    r = await w.server.slash(w.alice, w.chan, "game log")
    assert r.ephemeral and "takes" in r.content and "last token" in r.content
    r = await w.server.slash(w.alice, w.chan, "game hand")
    assert r.ephemeral and "Take-Away" in r.content and "Your move" not in r.content
    r = await w.server.slash(w.alice, w.chan, "game move", action="take 1")
    assert r.ephemeral and "This game is over" in r.content
    r = await w.server.slash(w.dave, w.chan, "game log")  # anyone may read the log of the table here
    assert r.ephemeral and "last token" in r.content
    assert len(end_messages(w, table_id)) == 1, "reposting the board announces nothing again"


async def test_rematch_opens_a_lobby_with_the_same_options_its_clicker_hosting(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob, pile="7")
    table_id = await play_to_the_end(w, {0: w.alice, 1: w.bob})
    msg = await end_message(w, table_id)
    r = await w.server.click(w.dave, msg, label="Rematch")
    assert r.ephemeral and "Only the players" in r.content
    r = await w.server.click(w.bob, msg, label="Rematch")
    lobby = r.response
    assert lobby is not None and not r.ephemeral
    assert "Rematch" in lobby.content and f"<@{w.alice.id}>" in lobby.content
    assert f"<@{w.bob.id}> opened" in lobby.content  # the clicker, not pinged (only the others are)
    assert lobby.content.count(f"<@{w.bob.id}>") == 1
    embed = str(lobby.embeds[0])
    assert "Take-Away — lobby" in embed and "pile: 7" in embed and f"Host: <@{w.bob.id}>" in embed
    assert [b.get("label") for b in lobby.buttons] == ["Join", "Leave", "Add bot", "Start", "Cancel"]
    assert w.bot is not None
    new = await w.bot.service.table_in_channel(w.chan.id)
    assert new.status == "lobby" and new.host_id == w.bob.id and new.options == {"pile": "7"}
    assert [s.user_id for s in new.seats] == [w.bob.id]
    for _ in range(200):  # the lobby's message is recorded once Discord answered
        if (new := await w.bot.service.table(new.id)).lobby_message_id:
            break
        await asyncio.sleep(0.01)
    assert new.lobby_message_id == lobby.id
    assert (await w.bot.service.table(table_id)).rematch_id == new.id
    # a second click links to the lobby that exists
    r = await w.server.click(w.alice, msg, label="Rematch")
    assert r.ephemeral and "already open" in r.content and str(lobby.id) in r.content
    # alice joins from the lobby, bob starts: the rematch plays like any table
    await w.server.click(w.alice, lobby, label="Join")
    await w.server.click(w.bob, lobby, label="Start")
    await w.board(lambda m: f"table #{new.id}" in m.embeds[0]["title"])


async def test_rematch_is_refused_while_another_table_is_open_here(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob, bots=0)
    table_id = await play_to_the_end(w, {0: w.alice, 1: w.bob})
    msg = await end_message(w, table_id)
    r = await w.server.slash(w.dave, w.chan, "game new", game="takeaway")
    assert not r.ephemeral
    r = await w.server.click(w.alice, msg, label="Rematch")
    assert r.ephemeral and "already has an open table" in r.content


async def test_rematch_keeps_the_bot_seats(world: World) -> None:
    w = world
    await open_takeaway(w, bots=1)
    table_id = await play_to_the_end(w, {0: w.alice})
    msg = await end_message(w, table_id)
    assert f"<@{w.alice.id}>" in msg.content and "Bot 1" in readable(msg)
    r = await w.server.click(w.alice, msg, label="Rematch")
    assert r.response is not None and "Bot 1" in str(r.response.embeds[0])
    assert r.response.content.startswith(f"🔁 **Rematch!** <@{w.alice.id}> opened"), "nobody else to ping"


async def test_a_resignation_ending_is_announced_with_the_winner(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob)
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    await settled(w, table.id)
    r = await w.server.slash(w.bob, w.chan, "game resign")
    assert r.ephemeral
    msg = await end_message(w, table.id)
    assert f"<@{w.alice.id}>" in msg.content and f"<@{w.bob.id}>" in msg.content
    assert "**alice** wins!" in msg.content
    text = readable(msg)
    assert "bob resigned; alice wins." in text and "🥇 alice" in text and "🥈 bob" in text


async def test_everyone_resigning_announces_the_abandoned_table(world: World) -> None:
    w = world
    await open_takeaway(w, bots=1)
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    await settled(w, table.id)
    await w.server.slash(w.alice, w.chan, "game resign")
    msg = await end_message(w, table.id)
    assert f"<@{w.alice.id}>" in msg.content and "abandoned" in readable(msg)
    await settled(w, table.id)
    row = await w.bot.service.table(table.id)
    assert row.status == "abandoned" and row.end_announced_at is not None
    r = await w.server.slash(w.alice, w.chan, "game log")
    assert r.ephemeral and "resigned" in r.content


async def test_abandon_by_command_posts_no_game_over_message(world: World) -> None:
    w = world
    await open_takeaway(w, w.bob)
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    await settled(w, table.id)
    r = await w.server.slash(w.alice, w.chan, "game abandon")
    assert not r.ephemeral and "closed" in r.content
    row = await w.bot.service.table(table.id)
    assert row.end_announced_at is not None and not row.lagging
    cog: Any = w.bot.get_cog("TableCog")
    assert await cog.sweep() == 0
    assert end_messages(w, table.id) == []


async def test_a_cooperative_ending_says_the_team_lost(world: World) -> None:
    from bot.rules.ghost_stories import GAME as GHOST
    from tests.rules.test_ghost_stories_helpers import blank

    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="ghost_stories", options="difficulty=initiation")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    state = blank(players=2, diff="initiation")
    state["deck"], state["deck_out"] = [], True  # the next end of turn loses the game
    await w.bot.service.store.start_table(table.id, GHOST.dump_state(state), {0: 0}, table.seed)
    r = await w.server.slash(w.alice, w.chan, "game move", action="end")
    assert r.content.startswith("✅"), r.content
    msg = await end_message(w, table.id)
    assert f"<@{w.alice.id}>" in msg.content and f"<@{w.bob.id}>" in msg.content
    assert "Ghost Stories is over. The team lost." in msg.content
    text = readable(msg)
    assert "💀 The team lost — the ghost deck ran out" in text and "score 8 (scored as in the rulebook)" in text
    assert "🥇" not in text and "1." not in text
