"""Issue #10: exact under faults. Each test reproduces one finding through the local Discord, with
faults injected where Discord would answer with an error (403, 404, 5xx, 429, 10062, 30046, closed DMs).

The order the platform keeps: acknowledge -> commit -> always deliver; what was shown is stored, so a
failed or cut delivery is completed at start-up or by the sweep.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.app import create_bot
from bot.store import DuplicateInteraction
from bot.tables import AlreadyApplied
from tests.e2e.conftest import WAIT, World
from tests.fakediscord import CommandRefused, Message, User, client_options, start_client

CHANNEL_POST = r"^/channels/{}/messages$"


async def open_takeaway(w: World, host: User, chan, *joiners: User, bots: int = 0) -> Message:  # type: ignore[no-untyped-def]
    r = await w.server.slash(host, chan, "game new", game="takeaway")
    lobby = r.response
    assert lobby is not None
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(host, lobby, label="Add bot")
    return lobby


async def table_in(w: World, chan) -> int:  # type: ignore[no-untyped-def]
    assert w.bot is not None
    row = await w.bot.service.store.open_table_in_channel(chan.id)
    assert row is not None
    return row.id


async def dm_panel(w: World, user: User, table_id: int, version: int | None = None) -> Message:
    """The newest DM panel of `user` for `table_id` (at `version`, if given) that has buttons."""

    def ok(m: Message) -> bool:
        ids = [b.get("custom_id", "") for b in m.buttons]
        want = f":{table_id}:" if version is None else f":{table_id}:{version}:"
        return any(f"do{want}" in i for i in ids)

    await w.server.wait_for_dm(user, ok, timeout=WAIT)
    return [m for m in w.server.dms(user) if ok(m)][-1]


def bid(panel: Message) -> str:
    return next(b["custom_id"] for b in panel.buttons if ":bid " in b.get("custom_id", ""))


async def settled(w: World, table_id: int) -> None:
    """Wait until the table's board and its awaited players' notices show the stored version."""
    assert w.bot is not None

    async def lagging() -> bool:
        assert w.bot is not None
        row = await w.bot.service.table(table_id)
        return row.lagging

    deadline = time.monotonic() + WAIT
    while await lagging():
        if time.monotonic() > deadline:
            raise TimeoutError(f"table {table_id} still behind its stored state")
        await asyncio.sleep(0.02)


# -- 1. a component's move goes to its own table ------------------------------------------------------
async def test_a_dm_panel_click_plays_at_its_own_table_not_the_latest(world: World) -> None:
    w = world
    chan2 = w.server.add_channel(w.guild, "more-games")
    lobby1 = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby1, label="Start")
    t1 = await table_in(w, w.chan)
    panel1 = await dm_panel(w, w.alice, t1)
    lobby2 = await open_takeaway(w, w.alice, chan2, w.bob)
    await w.server.click(w.alice, lobby2, label="Start")
    t2 = await table_in(w, chan2)
    await dm_panel(w, w.alice, t2)  # alice's latest table is now t2
    await w.server.click(w.alice, panel1, bid(panel1))
    assert w.bot is not None
    assert (await w.bot.service.table(t1)).version == 1  # the bid landed where its panel belongs
    assert (await w.bot.service.table(t2)).version == 0


async def test_a_closed_tables_panels_refuse_and_lose_their_buttons(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    old = await table_in(w, w.chan)
    panel = await dm_panel(w, w.alice, old)
    await settled(w, old)
    board = await w.board()
    eph = await w.server.click(w.bob, board, label="My panel")  # an ephemeral panel keeps its buttons
    ephemeral_panel = eph.response
    assert ephemeral_panel is not None and ephemeral_panel.buttons
    r = await w.server.slash(w.alice, w.chan, "game abandon")
    assert not r.ephemeral
    await w.server.wait_for(lambda: not panel.components and not board.components, timeout=WAIT)
    # a new table opens in the same channel: the old panel's click must not become its first move
    lobby2 = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby2, label="Start")
    new = await table_in(w, w.chan)
    refused = await w.server.click(w.bob, ephemeral_panel, bid(ephemeral_panel))
    answer = refused.followups[-1] if refused.followups else refused.response
    assert answer is not None and answer.ephemeral and "abandoned" in answer.content
    assert w.bot is not None
    assert (await w.bot.service.table(new)).version == 0
    assert (await w.bot.service.table(old)).version == 0


# -- 2. the answer fails after the commit: bots still move, the board still comes -------------------
async def test_a_failed_answer_still_delivers_and_bots_still_move(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, bots=1)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    panel = await dm_panel(w, w.alice, t)
    await settled(w, t)
    w.server.fault("PATCH", r"^/webhooks/\d+/[^/]+/messages/@original$", 404, 10008, "Unknown Message", times=1)
    with caplog.at_level(logging.WARNING):
        await w.server.click(w.alice, panel, bid(panel), wait_deferred=False)
        await w.server.wait_for(lambda: bool(w.server.faulted), timeout=WAIT)  # the answer really failed
        await settled(w, t)  # the board and alice's next panel show the stored version
    assert "delivering anyway" in caplog.text
    assert w.bot is not None
    row = await w.bot.service.table(t)
    assert row.version >= 2 and row.shown_version == row.version  # the bot bid too
    board = await w.board()
    assert f"v{row.version}" in board.embeds[0]["footer"]["text"]
    if 0 in row.awaited:  # her answer never came, so her next decision reached her by DM
        await dm_panel(w, w.alice, t, row.awaited[0])


async def test_a_click_that_cannot_be_acknowledged_changes_nothing(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    panel = await dm_panel(w, w.alice, t)
    # Discord gave up on the interaction (answered after 3 s): the player saw it fail, so it must not count
    w.server.fault("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, times=1)
    with pytest.raises(TimeoutError):
        await w.server.click(w.alice, panel, bid(panel), timeout=1)
    await asyncio.sleep(0.2)
    assert w.bot is not None
    assert (await w.bot.service.table(t)).version == 0


# -- 3. after a crash the table is shown as it is stored ---------------------------------------------
async def test_a_move_committed_before_a_crash_is_shown_after_the_restart(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    assert w.bot is not None
    # committed, then the process died before anything was shown
    await w.bot.service.act(t, w.alice.id, await a_move(w, t, 0), text=True)
    await w.bot.service.act(t, w.bob.id, await a_move(w, t, 1), text=True)
    await w.bot.close()
    bot = await w.boot()
    await w.board(lambda m: "v2" in m.embeds[0].get("footer", {}).get("text", ""))
    await settled(w, t)
    row = await bot.service.table(t)
    awaited = sorted(row.awaited)
    for seat in awaited:  # each awaited player has a panel for this very decision
        user = (w.alice, w.bob)[seat]
        await dm_panel(w, user, t, row.awaited[seat])


async def a_move(w: World, t: int, seat: int) -> str:
    """A legal move of `seat` (its first), in notation: a hand may hold any cards."""
    assert w.bot is not None
    row = await w.bot.service.table(t)
    user = row.seats[seat].user_id
    assert user is not None
    return w.bot.service.game_of(row).format_action(w.bot.service.legal_for(row, user)[0])


# -- 4. one failing channel does not stop the others --------------------------------------------------
async def test_a_forbidden_channel_is_backed_off_and_marked_without_stopping_other_tables(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    chan2 = w.server.add_channel(w.guild, "gone")
    for chan in (chan2, w.chan):
        lobby = await open_takeaway(w, w.alice, chan, w.bob)
        await w.server.click(w.alice, lobby, label="Start")
    gone, fine = await table_in(w, chan2), await table_in(w, w.chan)
    await settled(w, gone)
    await settled(w, fine)
    assert w.bot is not None
    cog = w.bot.get_cog("TableCog")
    w.server.fault("POST", CHANNEL_POST.format(chan2.id), 403, 50001, "Missing Access", times=-1)
    later = time.time() + 10**6
    with caplog.at_level(logging.WARNING):
        for attempt in range(3):
            sent = await cog.send_reminders(now=later * (attempt + 1))  # type: ignore[union-attr]
            assert sent == 1  # the other table is reminded every time
            cog._failures = {k: (n, 0.0) for k, (n, _) in cog._failures.items()}  # type: ignore[union-attr]
    assert (await w.bot.service.table(gone)).unreachable_at is not None
    assert caplog.text.count("keeps refusing us") == 1
    assert (await cog.send_reminders(now=later * 9)) == 1  # type: ignore[union-attr]  # no more tries at it
    reminders = [m for m in w.server.messages(w.chan) if m.content.startswith("⏰")]
    assert len(reminders) == 1  # each reminder replaced the one before: a quiet table holds one ping


# -- 5. a delivery failure after a counted move is told as such ---------------------------------------
async def test_a_board_that_cannot_be_posted_is_told_as_counted_and_posted_by_the_sweep(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    w.server.fault("POST", CHANNEL_POST.format(w.chan.id), 403, 50013, "Missing Permissions", times=1)
    w.server.fault("PATCH", r"^/channels/\d+/messages/\d+$", 403, 50013, "Missing Permissions", times=1)
    typed = await a_move(w, t, 0)
    r = await w.server.slash(w.alice, w.chan, "game move", action=typed)
    await r.wait_for(lambda rec: any("counted" in m.content for m in rec.messages), timeout=WAIT)
    texts = " ".join(m.content for m in r.messages)
    assert "Nothing was changed" not in texts and "Your move counted" in texts
    assert w.bot is not None
    row = await w.bot.service.table(t)
    assert row.version == 1 and row.shown_version < 1
    cog = w.bot.get_cog("TableCog")
    assert await cog.sweep() == 1  # type: ignore[union-attr]
    assert (await w.bot.service.table(t)).shown_version == 1


# -- 6. echoed input cannot break the reply -----------------------------------------------------------
async def test_oversized_and_garbage_input_is_refused_within_discords_limits(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    with pytest.raises(CommandRefused):  # Discord itself refuses input past the declared max_length
        await w.server.slash(w.alice, w.chan, "game move", action="x" * 3000)
    r = await w.server.slash(w.alice, w.chan, "game move", action="**@everyone** " + "y" * 85)
    assert r.ephemeral and len(r.content) < 400
    assert "@everyone" not in r.content.replace("@\u200beveryone", "")
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options="z" * 100)
    assert r.ephemeral and len(r.content) < 400


async def test_every_string_option_declares_a_max_length(world: World) -> None:
    def options(node: dict) -> list[dict]:  # type: ignore[type-arg]
        out = []
        for o in node.get("options") or []:
            out += [o] if o["type"] == 3 else options(o)
        return out

    strings = [o for cmd in w_commands(world) for o in options(cmd)]
    assert strings and all(0 < o.get("max_length", 0) <= 200 for o in strings), [
        o["name"] for o in strings if not o.get("max_length")
    ]


def w_commands(w: World) -> list[dict]:  # type: ignore[type-arg]
    return w.server.commands(w.guild)


# -- 7. malformed custom ids are refused cleanly ------------------------------------------------------
@pytest.mark.parametrize(
    "custom_id",
    ["st:do:" + "9" * 40 + ":0:bid 1", "st:page:{t}:0:abc", "st:page:{t}:0:99999999", "st:nonsense", "st:do:x:y:z"],
)
async def test_a_malformed_custom_id_gets_a_clean_refusal(world: World, custom_id: str) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    board = await w.board()
    r = await w.server.forged_click(w.alice, board, custom_id.replace("{t}", str(t)))
    answer = r.followups[-1] if r.followups else r.response
    assert answer is not None and answer.ephemeral
    assert "Sorry" not in answer.content  # not the apology for our own bugs
    assert w.bot is not None and (await w.bot.service.table(t)).version == 0


# -- 8. names are shown as typed -----------------------------------------------------------------------
async def test_display_names_are_escaped_everywhere_they_appear(world: World) -> None:
    w = world
    mallory = w.server.add_user("**@everyone** <@&123456789012345678>")
    w.server.add_member(w.guild, mallory)
    lobby = await open_takeaway(w, w.alice, w.chan, mallory)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    typed = await a_move(w, t, 0)
    await w.server.slash(w.alice, w.chan, "game move", action=typed)
    board = await w.board(lambda m: "Waiting for" in m.content)
    assert "**@everyone**" not in board.content and "<@&" not in board.content
    assert "\\*\\*@\u200beveryone\\*\\*" in board.content
    r = await w.server.slash(w.alice, w.chan, "game move", action=typed)  # not awaited: names the others
    assert "<@&" not in r.content and "**@everyone" not in r.content


# -- 9. a closed-DM mark is tried again ---------------------------------------------------------------
async def test_reopened_dms_are_used_again_after_the_player_opens_a_panel(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.carol)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    assert w.bot is not None
    assert (await w.bot.service.table(t)).seats[1].dm_closed
    w.carol.dms_open = True
    board = await w.board()
    await w.server.click(w.carol, board, label="My panel")  # she is here: DMs are tried again
    assert not (await w.bot.service.table(t)).seats[1].dm_closed
    for user, seat in ((w.carol, 1), (w.alice, 0)):  # alice last: carol's next decision is not an answer
        typed = await a_move(w, t, seat)
        await w.server.slash(user, w.chan, "game move", action=typed)
    row = await w.bot.service.table(t)
    if 1 in row.awaited:
        try:
            await dm_panel(w, w.carol, t, row.awaited[1])  # her next decision reached her DMs
        except TimeoutError as err:
            dms = [(m.content[:40], [c.get("custom_id") for c in m.buttons + m.selects]) for m in w.server.dms(w.carol)]
            raise AssertionError(f"no DM panel at v{row.awaited[1]}: {row.seats[1]} {dms}") from err
    else:  # alice's turn: carol's DMs stay open, nothing more to check here
        assert not row.seats[1].dm_closed


# -- 10. Discord refuses edits of an old board ----------------------------------------------------------
async def test_a_refused_board_edit_posts_a_fresh_board_and_retires_the_old_one(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    first = await w.board()
    w.server.fault("PATCH", rf"^/channels/{w.chan.id}/messages/{first.id}$", 400, 30046, "Maximum edits", times=1)
    typed = await a_move(w, t, 0)
    await w.server.slash(w.alice, w.chan, "game move", action=typed)  # bob still bids: an edit in place
    fresh = await w.board(lambda m: m.id != first.id)
    await w.server.wait_for(lambda: first.deleted, timeout=WAIT)  # the old board is retired
    assert "v1" in fresh.embeds[0]["footer"]["text"]
    assert w.bot is not None and (await w.bot.service.table(t)).board_message_id == fresh.id


# -- 11. a duplicated interaction is applied once --------------------------------------------------------
async def test_the_same_interaction_in_two_processes_is_applied_once(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    second = create_bot(w.settings(), **client_options(w.server))  # a deploy overlap: two processes
    await start_client(w.server, second)
    panel = await dm_panel(w, w.alice, t)
    await w.server.click(w.alice, panel, bid(panel))
    await asyncio.sleep(0.3)
    assert w.bot is not None
    row = await w.bot.service.table(t)
    assert row.version == 1
    assert len(await w.bot.service.store.actions(t)) == 1


async def test_an_interaction_id_is_stored_with_its_action_and_refused_the_second_time(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, bots=1)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    assert w.bot is not None
    typed = await a_move(w, t, 0)
    await w.bot.service.act(t, w.alice.id, typed, text=True, interaction_id=4242, bots=False)
    with pytest.raises(AlreadyApplied):
        await w.bot.service.act(t, w.alice.id, "take 1", text=True, interaction_id=4242, bots=False)
    with pytest.raises(DuplicateInteraction):
        row = await w.bot.service.table(t)
        await w.bot.service.store.apply(
            t,
            expected_version=row.version,
            seat=1,
            action={"verb": "bid", "n": 1},
            events=[],
            state=row.state or {},
            awaited=row.awaited,
            interaction_id=4242,
        )


# -- 429 and 5xx on the way: retried by discord.py, nothing lost -------------------------------------------
async def test_a_rate_limited_board_post_is_retried(world: World, caplog: pytest.LogCaptureFixture) -> None:
    w = world
    w.server.fault("POST", CHANNEL_POST.format(w.chan.id), 429, retry_after=0.05, times=1)
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    await settled(w, t)
    assert w.server.faulted and w.server.faulted[0][2] == 429
