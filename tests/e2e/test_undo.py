"""Undo end to end through the local Discord: the ↩ Undo button on the mover's answer, `/game undo`,
and the refusals (a reveal, another seat acted, another player's move, a stale button)."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.test_reliability import dm_panel, open_takeaway, settled, table_in
from tests.fakediscord import Message


def undo_id(message: Message) -> str | None:
    return next((b["custom_id"] for b in message.buttons if b.get("custom_id", "").startswith("st:undo:")), None)


def bid_ids(panel: Message) -> list[str]:
    return [b["custom_id"] for b in panel.buttons if ":bid " in b.get("custom_id", "")]


async def _same_as_replay(w: World, table_id: int) -> None:
    assert w.bot is not None
    row = await w.bot.service.table(table_id)
    game = w.bot.service.game_of(row)
    assert game.dump_state(await w.bot.service.replay(table_id)) == row.state


async def test_the_undo_button_takes_a_secret_bid_back(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    panel = await dm_panel(w, w.alice, t)
    await settled(w, t)
    assert w.bot is not None
    start = await w.bot.service.table(t)
    first = bid_ids(panel)[0]
    await w.server.click(w.alice, panel, first)
    assert panel.content.startswith("✅ bid")
    undo = undo_id(panel)
    assert undo == f"st:undo:{t}:1:"  # the version right after her bid
    await settled(w, t)
    await w.server.click(w.alice, panel, undo)  # answered in place: the bid panel again
    assert panel.content.startswith("↩ You took back bid") and bid_ids(panel)
    row = await w.bot.service.table(t)
    assert row.version == 2 and row.state == start.state and row.awaited == {0: 2, 1: 0}
    await w.board(lambda m: "took back" in str(m.embeds[0]))
    await settled(w, t)
    await _same_as_replay(w, t)
    # her new panel plays (version 2), and Bob's version-0 panel is still good
    await w.server.click(w.alice, panel, bid_ids(panel)[-1])
    bob = await dm_panel(w, w.bob, t, 0)
    await w.server.click(w.bob, bob, bid_ids(bob)[0])
    row = await w.bot.service.table(t)
    assert row.version == 4 and row.state is not None and row.state["phase"] == "play"
    await _same_as_replay(w, t)


async def test_undo_is_refused_with_a_reason_and_changes_nothing(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    a_panel, b_panel = await dm_panel(w, w.alice, t), await dm_panel(w, w.bob, t)
    await w.server.click(w.alice, a_panel, bid_ids(a_panel)[0])
    stale = undo_id(a_panel)
    assert stale is not None
    # another player cannot take back alice's bid, and someone not seated has nothing to undo
    r = await w.server.slash(w.bob, w.chan, "game undo")
    assert r.ephemeral and "no move here to take back" in r.content
    r = await w.server.slash(w.dave, w.chan, "game undo")
    assert r.ephemeral and "not seated" in r.content
    # bob's bid completes the simultaneous reveal: it stands, and so does alice's
    await w.server.click(w.bob, b_panel, bid_ids(b_panel)[0])
    assert undo_id(b_panel) is None  # no Undo button on a move that cannot be taken back
    r = await w.server.slash(w.bob, w.chan, "game undo")
    assert r.ephemeral and "cannot take back bid" in r.content and "revealed the bids" in r.content
    r = await w.server.slash(w.alice, w.chan, "game undo")
    assert r.ephemeral and "bob has played since" in r.content
    r = await w.server.click(w.alice, a_panel, stale)  # her Undo button from before bob's bid
    answer = r.followups[-1] if r.followups else r.response
    assert answer is not None and answer.ephemeral and "out of date" in answer.content
    assert w.bot is not None
    row = await w.bot.service.table(t)
    assert row.version == 2
    # a take draws from the hidden deck: refused too
    mover = (w.alice, w.bob)[min(row.awaited)]
    await settled(w, t)
    panel = await dm_panel(w, mover, t, row.awaited[min(row.awaited)])
    take = next(b["custom_id"] for b in panel.buttons if ":take " in b.get("custom_id", ""))
    await w.server.click(mover, panel, take)
    r = await w.server.slash(mover, w.chan, "game undo")
    assert r.ephemeral and "you drew a card" in r.content
    assert (await w.bot.service.table(t)).version == 3
    await _same_as_replay(w, t)


async def test_game_undo_by_command_answers_with_the_panel(world: World) -> None:
    w = world
    lobby = await open_takeaway(w, w.alice, w.chan, w.bob)
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    panel = await dm_panel(w, w.alice, t)
    await w.server.click(w.alice, panel, bid_ids(panel)[0])
    r = await w.server.slash(w.alice, w.chan, "game undo")
    assert r.ephemeral and r.content.startswith("↩ You took back bid") and bid_ids(r.response)  # type: ignore[arg-type]
    await w.board(lambda m: "alice took back" in str(m.embeds[0]), after=0)
    await settled(w, t)
    assert w.bot is not None
    log = await w.bot.service.log(t)
    assert "alice took back bid" in log[-1][2]
