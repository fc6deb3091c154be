"""/game stats (issue #17): the server's leaderboard and a player's card, through the local Discord."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.rules import get_game
from bot.store import SeatRow, Store
from tests.e2e.conftest import World
from tests.fakediscord import Channel, User


async def play_takeaway(w: World, chan: Channel, players: list[User], *, bot_seat: bool = False) -> int:
    """Open, fill and play one Take-Away table in `chan` to its end with `/game move`; its id."""
    assert w.bot is not None
    r = await w.server.slash(players[0], chan, "game new", game="takeaway")
    assert r.response is not None
    for p in players[1:]:
        await w.server.click(p, r.response, label="Join")
    if bot_seat:
        await w.server.click(players[0], r.response, label="Add bot")
    await w.server.click(players[0], r.response, label="Start")
    table = await w.bot.service.store.open_table_in_channel(chan.id)
    assert table is not None
    users = {p.id: p for p in players}
    for _ in range(200):
        row = await w.bot.service.table(table.id)
        if row.status != "active":
            break
        humans = [row.seats[s] for s in sorted(row.awaited) if not row.seats[s].played_by_bot]
        if not humans:  # a bot seat is about to reply
            await asyncio.sleep(0.05)
            continue
        seat = humans[0]
        assert seat.user_id is not None
        legal = w.bot.service.legal_for(row, seat.user_id)
        await w.server.slash(
            users[seat.user_id], chan, "game move", action=get_game("takeaway").format_action(legal[0])
        )
    row = await w.bot.service.table(table.id)
    assert row.status == "finished", row.status
    return row.id


async def finished(
    store: Store,
    guild_id: int,
    channel_id: int,
    users: list[tuple[int, str]],
    winner: int,
    *,
    game: str = "takeaway",
    outcome: dict[str, Any] | None = None,
    options: dict[str, str] | None = None,
) -> None:
    """A finished table made directly in the store: `users` seated in order, `winner` the seat."""
    host, name = users[0]
    t = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game=game,
        options=options or {},
        seed=1,
        host_id=host,
        host_name=name,
        reminder_after=3600,
    )
    await store.set_seats(t.id, [SeatRow(i, u, n) for i, (u, n) in enumerate(users)])
    await store.start_table(t.id, {}, {0: 0}, 1)
    order = [winner] + [i for i in range(len(users)) if i != winner]
    if outcome is None:
        outcome = {"scores": [0] * len(users), "ranking": [[s] for s in order], "winners": [winner], "summary": ""}
    await store.apply(
        t.id, expected_version=0, seat=0, action={}, events=[], state={}, awaited={}, status="finished", outcome=outcome
    )


async def test_the_leaderboard_ranks_humans_only_and_a_card_shows_a_players_results(world: World) -> None:
    w = world
    assert w.bot is not None
    # two games between alice and bob, one of alice against a bot seat
    await play_takeaway(w, w.chan, [w.alice, w.bob])
    await play_takeaway(w, w.chan, [w.bob, w.alice])
    other = w.server.add_channel(w.guild, "more")
    await play_takeaway(w, other, [w.alice], bot_seat=True)
    tables = [await w.bot.service.table(i) for i in (1, 2, 3)]
    wins = {
        u: sum(1 for t in tables if t.outcome and any(t.seats[s].user_id == u for s in t.outcome["winners"]))
        for u in (w.alice.id, w.bob.id)
    }

    board = await w.server.slash(w.dave, w.chan, "game stats")
    assert board.ephemeral
    embed = board.embeds[0]
    assert "all games" in embed["title"]
    lines = embed["description"].split("\n")
    assert len(lines) == 2 and not any("Bot" in line for line in lines)  # bot seats never rank
    assert any("alice" in line and f"{wins[w.alice.id]}/3 won" in line for line in lines)
    assert any("bob" in line and f"{wins[w.bob.id]}/2 won" in line for line in lines)
    assert all("rating" in line for line in lines)
    assert lines[0].startswith("🥇") and lines[1].startswith("🥈")
    assert "2 players · 3 finished tables" in embed["footer"]["text"]
    assert "bot seats: 1 played" in embed["footer"]["text"]
    assert not board.response or not board.response.buttons  # one page: no paging buttons

    one = await w.server.slash(w.alice, w.chan, "game stats", game="Take-Away")
    assert "Take-Away" in one.embeds[0]["title"] and len(one.embeds[0]["description"].split("\n")) == 2

    card = await w.server.slash(w.bob, w.chan, "game stats", user=w.alice)
    text = card.embeds[0]["description"]
    assert card.ephemeral and "alice" in card.embeds[0]["title"]
    assert f"**Take-Away** — 3 played, {wins[w.alice.id]} won" in text
    assert "Favourite game: **Take-Away**" in text and "Win streak:" in text
    assert "Average time to move:" in text and "moves)" in text and "rating" in text
    mine = await w.server.slash(w.bob, w.chan, "game stats", me=True)
    assert "bob" in mine.embeds[0]["title"] and "2 played" in mine.embeds[0]["description"]

    # bad input: an unknown game, a user with no games, a bot, and stats outside a server
    bad = await w.server.slash(w.alice, w.chan, "game stats", game="Chess")
    assert bad.ephemeral and "Unknown game" in bad.content and "Take-Away" in bad.content
    nobody = await w.server.slash(w.alice, w.chan, "game stats", user=w.dave)
    assert "dave has no finished games in this server yet" in nobody.embeds[0]["description"]
    none_of = await w.server.slash(w.alice, w.chan, "game stats", game="ghost_stories", user=w.alice)
    assert "no finished games of Ghost Stories" in none_of.embeds[0]["description"]
    empty = await w.server.slash(w.alice, w.chan, "game stats", game="ghost_stories")
    assert "No finished Ghost Stories games" in empty.embeds[0]["description"]


async def test_a_long_leaderboard_has_pages_and_a_damaged_page_button_is_refused(world: World) -> None:
    w = world
    assert w.bot is not None
    store = w.bot.service.store
    # 12 players (ids 1..12) in 11 games made directly in the store: player n+1 beats player n
    t0 = time.perf_counter()
    for n in range(1, 12):
        await finished(store, w.guild.id, 800_000 + n, [(n, f"p{n}"), (n + 1, f"p{n + 1}")], winner=1)
    assert time.perf_counter() - t0 < 30
    first = await w.server.slash(w.alice, w.chan, "game stats")
    assert len(first.embeds[0]["description"].split("\n")) == 10 and "page 1/2" in first.embeds[0]["footer"]["text"]
    page = first.response
    assert page is not None
    await w.server.click(w.alice, page, label="Next ▶ (1/2)")
    assert "page 2/2" in page.embeds[0]["footer"]["text"]
    assert len(page.embeds[0]["description"].split("\n")) == 2
    assert page.embeds[0]["description"].startswith("11.")
    await w.server.click(w.alice, page, label="◀ Previous")
    assert "page 1/2" in page.embeds[0]["footer"]["text"]
    # a forged page button naming an unknown game is refused cleanly
    forged = await w.server.forged_click(w.alice, page, "st:stats:0:1:nosuchgame")
    assert forged.ephemeral and "Unknown game" in forged.content
    # a newly finished table is counted on the next read (the book is brought up to date)
    await finished(store, w.guild.id, 800_100, [(1, "p1"), (2, "p2")], winner=0)
    again = await w.server.slash(w.alice, w.chan, "game stats")
    assert "12 finished tables" in again.embeds[0]["footer"]["text"]

    # a co-operative game counts the team's results, its best score and the levels won, and rates nobody
    team = [(w.alice.id, "alice"), (w.bob.id, "bob")]
    won = {"scores": [14, 14], "ranking": [[0, 1]], "winners": [0, 1], "summary": "", "cooperative": True}
    lost = {"scores": [-3, -3], "ranking": [[0, 1]], "winners": [], "summary": "", "cooperative": True}
    store = w.bot.service.store
    await finished(
        store, w.guild.id, 700_001, team, 0, game="ghost_stories", outcome=won, options={"difficulty": "normal"}
    )
    await finished(
        store, w.guild.id, 700_002, team, 0, game="ghost_stories", outcome=lost, options={"difficulty": "hell"}
    )
    coop = await w.server.slash(w.alice, w.chan, "game stats", game="Ghost Stories")
    lines = coop.embeds[0]["description"].split("\n")
    assert len(lines) == 2 and all("1/2 won (50%)" in x and "best score 14" in x for x in lines)
    assert all("levels won: normal" in x and "rating" not in x for x in lines)
    assert "team wins" in coop.embeds[0]["footer"]["text"]
    alice = await w.server.slash(w.alice, w.chan, "game stats", me=True, game="Ghost Stories")
    assert "**Ghost Stories** — 2 played, 1 won (50%) · best score 14" in alice.embeds[0]["description"]
