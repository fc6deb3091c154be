"""Undo end to end through the local Discord: the ↩ Undo button on the mover's answer, `/game undo`,
and the refusals (a reveal, another seat acted, another player's move, a stale button)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

import bot.tables.service as service_module
from tests.e2e.conftest import WAIT, World
from tests.e2e.test_reliability import dm_panel, open_takeaway, settled, table_in
from tests.fakediscord import Message, User


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
    assert panel.content.startswith("↩ You took back “bid") and bid_ids(panel)
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
    b_panel = await dm_panel(w, w.bob, t)
    await settled(w, t)
    # alice bids on her ephemeral panel: its answer (and Undo button) is never replaced by a DM
    hand = (await w.server.slash(w.alice, w.chan, "game hand")).response
    assert hand is not None and hand.ephemeral
    await w.server.click(w.alice, hand, bid_ids(hand)[0])
    stale = undo_id(hand)
    assert stale is not None and hand.content.startswith("✅ bid")
    # another player cannot take back alice's bid, and someone not seated has nothing to undo
    r = await w.server.slash(w.bob, w.chan, "game undo")
    assert r.ephemeral and "no move here to take back" in r.content
    r = await w.server.slash(w.dave, w.chan, "game undo")
    assert r.ephemeral and "not seated" in r.content
    # bob's bid completes the simultaneous reveal: it stands, and so does alice's
    await w.server.click(w.bob, b_panel, bid_ids(b_panel)[0])
    assert undo_id(b_panel) is None  # no Undo button on a move that cannot be taken back
    r = await w.server.slash(w.bob, w.chan, "game undo")
    assert r.ephemeral and "cannot take back “bid" in r.content and "revealed the bids" in r.content
    r = await w.server.slash(w.alice, w.chan, "game undo")
    assert r.ephemeral and "bob has played since" in r.content
    r = await w.server.click(w.alice, hand, stale)  # her Undo button from before bob's bid
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
    assert r.ephemeral and r.content.startswith("↩ You took back “bid") and bid_ids(r.response)  # type: ignore[arg-type]
    await w.board(lambda m: "alice took back" in str(m.embeds[0]), after=0)
    await settled(w, t)
    assert w.bot is not None
    log = await w.bot.service.log(t)
    assert log[-1][2] == "alice took back their last move (Seat 1 has bid)."  # which bid stays secret
    assert not any(re.search(r"bid \d", m.content + str(m.embeds)) for m in w.server.messages(w.chan))


# -- a real game: Trick or Treat (choosing and marking dice may be taken back; a reroll may not) --------
async def _typed(w: World, t: int, verb: str) -> tuple[User, str, Any]:
    """The awaited human types their first legal move with `verb` (or their first move) as `/game move`."""
    assert w.bot is not None
    row = await w.bot.service.table(t)
    seat = min(row.awaited)
    user = (w.alice, w.bob)[seat]
    game = w.bot.service.game_of(row)
    moves = [game.format_action(a) for a in w.bot.service.legal_for(row, user.id)]
    move = next((m for m in moves if m.split(" ")[0] == verb), moves[0])
    r = await w.server.slash(user, w.chan, "game move", action=move)
    assert r.ephemeral and r.content.startswith("✅"), r.content
    return user, move, r


async def test_trick_or_treat_choosing_and_marking_undo_but_a_reroll_stands(world: World) -> None:
    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="trick_or_treat")
    lobby = r.response
    assert lobby is not None
    await w.server.click(w.bob, lobby, label="Join")
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    assert w.bot is not None
    await settled(w, t)
    before = await w.bot.service.table(t)
    user, _, r = await _typed(w, t, "choose")  # choosing a character: public, no chance
    answer = r.response
    assert answer is not None and undo_id(answer) is not None
    other = w.bob if user is w.alice else w.alice
    await settled(w, t)
    handed = [m for m in w.server.dms(other) if m.components][-1]  # the next seat's panel, by DM
    await w.server.click(user, answer, undo_id(answer))
    await w.server.wait_for(lambda: not handed.components, timeout=WAIT)  # no longer their decision
    assert answer.content.startswith("↩ You took back “Play the") and ".." not in answer.content
    row = await w.bot.service.table(t)
    assert row.state == before.state and row.version == before.version + 2
    await settled(w, t)
    await _same_as_replay(w, t)
    # once the next seat has chosen, the first choice stands
    first, _, _ = await _typed(w, t, "choose")
    second, _, _ = await _typed(w, t, "choose")
    assert first is not second
    r = await w.server.slash(first, w.chan, "game undo")
    assert r.ephemeral and f"{second.name} has played since" in r.content
    # on to the first roll: marking a die may be taken back, a reroll may not
    for _ in range(20):
        row = await w.bot.service.table(t)
        assert row.state is not None
        if row.state["phase"] == "roll":
            break
        await _typed(w, t, "start")
    roller, mark, r = await _typed(w, t, "mark")
    assert mark.startswith("mark")
    r = await w.server.slash(roller, w.chan, "game undo")
    assert r.ephemeral and r.content.startswith("↩ You took back"), r.content
    await _typed(w, t, "mark")
    _, reroll, r = await _typed(w, t, "reroll")
    assert reroll == "reroll"
    await settled(w, t)  # (a next panel is edited into the answer before the table counts as shown)
    assert r.response is not None and undo_id(r.response) is None
    r = await w.server.slash(roller, w.chan, "game undo")
    assert r.ephemeral and "cannot take back" in r.content and "rolled dice" in r.content
    # the stored reason is a message, not English text: a zh-TW reader gets it in Chinese (issue #16)
    roller.locale = "zh-TW"
    r = await w.server.slash(roller, w.chan, "game undo")
    assert r.ephemeral and "你無法復原" in r.content and "這一步擲了骰子" in r.content, r.content
    roller.locale = "en-US"
    await settled(w, t)
    await _same_as_replay(w, t)


# -- Ghost Stories: a public board game; moving before acting may be taken back, ending the turn may not --
async def test_ghost_stories_a_move_is_taken_back_and_ending_the_turn_stands(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda _bits: 7))
    r = await w.server.slash(w.alice, w.chan, "game new", game="ghost_stories", options="difficulty=initiation")
    lobby = r.response
    assert lobby is not None
    await w.server.click(w.bob, lobby, label="Join")
    await w.server.click(w.alice, lobby, label="Start")
    t = await table_in(w, w.chan)
    assert w.bot is not None
    for _ in range(10):  # place the first ghost(s), until a Taoist may walk
        row = await w.bot.service.table(t)
        user = (w.alice, w.bob)[min(row.awaited)]
        game = w.bot.service.game_of(row)
        moves = [game.format_action(a) for a in w.bot.service.legal_for(row, user.id)]
        if any(m.startswith("move ") for m in moves):
            break
        await _typed(w, t, "place")
    await settled(w, t)
    before = await w.bot.service.table(t)
    walker, walk, r = await _typed(w, t, "move")
    assert walk.startswith("move ")
    answer = r.response
    assert answer is not None  # "✅", then the next decision's panel and Undo edited in
    await w.server.wait_for(lambda: undo_id(answer) is not None, what="the Undo button in the answer")
    await w.server.click(walker, answer, undo_id(answer))
    assert answer.content.startswith("↩ You took back"), answer.content
    row = await w.bot.service.table(t)
    assert row.state == before.state
    await w.board(lambda m: "took back their last move" in str(m.embeds[0]))
    await settled(w, t)
    await _same_as_replay(w, t)
    r = await w.server.slash(walker, w.chan, "game move", action="end")
    assert r.ephemeral and r.content.startswith("✅"), r.content
    await settled(w, t)  # (a next panel is edited into the answer before the table counts as shown)
    assert r.response is not None and undo_id(r.response) is None
    r = await w.server.slash(walker, w.chan, "game undo")
    assert r.ephemeral and "cannot take back" in r.content, r.content
    assert "ended the turn" in r.content or "drew a ghost" in r.content, r.content
    await settled(w, t)
    await _same_as_replay(w, t)
