"""Undo through the table service: the author takes back their last move while nobody acted since and
the move rolled and revealed nothing; otherwise a specific refusal, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import GameOver, StaleAction
from bot.tables import AlreadyApplied, LobbyError, NotSeated, TableService, UndoRefused


async def _started(service: TableService, *, bot: bool = False, channel: int = 10) -> int:
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=channel, host_id=1, host_name="Ann*")
    if bot:
        await service.add_bot(table.id, 1)
    else:
        await service.join(table.id, 2, "Bob")
    await service.start(table.id, 1)
    return table.id


async def _bid(service: TableService, tid: int, user: int, **kwargs: Any) -> Any:
    table = await service.table(tid)
    return await service.act(tid, user, service.legal_for(table, user)[0], **kwargs)


async def _same_as_replay(service: TableService, tid: int) -> None:
    table = await service.table(tid)
    game = service.game_of(table)
    assert game.dump_state(await service.replay(tid)) == table.state


async def test_a_bid_before_the_reveal_is_taken_back_exactly(service: TableService) -> None:
    tid = await _started(service)
    start = await service.table(tid)
    await _bid(service, tid, 1)
    change = await service.undo(tid, 1)
    table = change.table
    assert table.state == start.state  # the exact previous state
    assert table.version == 2 and table.awaited == {0: 2, 1: 0}  # Bob's panel (version 0) stays valid
    assert change.newly_awaited == {0}
    first = start.state["hands"][0][0]
    (line,) = change.lines
    assert line.event.text == "Ann\\* took back their last move (Seat 1 has bid)."  # the bid stays secret
    assert line.event.private == {0: f"You took back “bid {first}”."}
    assert change.note == f"bid {first}"
    log = await service.log(tid)
    assert log[-1][2] == line.event.text
    await _same_as_replay(service, tid)
    # she bids again (another card if she has one), and the game goes on
    await service.act(tid, 1, service.legal_for(table, 1)[-1])
    await _bid(service, tid, 2, version=0)
    await _same_as_replay(service, tid)


async def test_refusals_say_why_and_change_nothing(service: TableService) -> None:
    tid = await _started(service)
    with pytest.raises(UndoRefused, match="no move"):
        await service.undo(tid, 1)
    await _bid(service, tid, 1)
    with pytest.raises(NotSeated):
        await service.undo(tid, 3)
    with pytest.raises(UndoRefused, match="no move"):  # Bob cannot take back Ann's bid
        await service.undo(tid, 2)
    await _bid(service, tid, 2)  # completes the simultaneous reveal
    with pytest.raises(UndoRefused, match=r"You cannot take back “bid \d”: it revealed the bids"):
        await service.undo(tid, 2)
    with pytest.raises(UndoRefused, match="Bob has played since"):
        await service.undo(tid, 1)
    table = await service.table(tid)
    assert table.version == 2
    mover = next(iter(table.awaited))
    user = table.seats[mover].user_id
    assert user is not None
    await _bid(service, tid, user)  # a take draws a card from the hidden deck
    with pytest.raises(UndoRefused, match="you drew a card"):
        await service.undo(tid, user)
    assert (await service.table(tid)).version == 3
    await _same_as_replay(service, tid)


async def test_an_undo_cannot_be_undone_and_a_stale_button_is_refused(service: TableService) -> None:
    tid = await _started(service)
    change = await _bid(service, tid, 1)
    with pytest.raises(StaleAction, match="out of date"):
        await service.undo(tid, 1, version=change.table.version - 1)
    await service.undo(tid, 1, version=change.table.version, interaction_id=77)
    with pytest.raises(AlreadyApplied):
        await service.undo(tid, 1, interaction_id=77)  # the same click delivered twice
    with pytest.raises(UndoRefused, match="no move"):
        await service.undo(tid, 1)
    assert (await service.table(tid)).version == 2


async def test_a_bot_that_replied_makes_the_move_stand(service: TableService) -> None:
    for channel in range(10, 60):  # a table (its seed is random) where the bot moves after the human's bid
        tid = await _started(service, bot=True, channel=channel)
        await _bid(service, tid, 1)
        if (await service.store.actions(tid))[-1].seat == 1:
            break
    else:
        pytest.fail("no table in 50 where the bot replied to the bid")
    with pytest.raises(UndoRefused, match="Bot 1 has played since"):
        await service.undo(tid, 1)


async def test_closed_and_unstarted_tables_refuse(service: TableService) -> None:
    lobby = await service.new_table(game_key="takeaway", guild_id=1, channel_id=11, host_id=1, host_name="Ann")
    with pytest.raises(LobbyError):
        await service.undo(lobby.id, 1)
    tid = await _started(service)
    await _bid(service, tid, 1)
    await service.abandon(tid, 1, can_manage_channel=False)
    with pytest.raises(GameOver, match="abandoned"):
        await service.undo(tid, 1)


async def test_the_log_records_what_may_be_taken_back(service: TableService) -> None:
    tid = await _started(service)
    await _bid(service, tid, 1)
    await _bid(service, tid, 2)
    rows = await service.store.actions(tid)
    assert [(r.kind, r.undoable, r.undo_refusal) for r in rows] == [
        ("move", True, None),
        ("move", False, "it revealed the bids"),
    ]
    table = await service.table(tid)
    assert await service.last_undoable(table, 0) is False
    assert await service.store.undo_state(tid, 2) is None
    assert await service.store.undo_state(tid, 1) is not None


async def test_own_moves_in_a_row_are_taken_back_one_by_one(service: TableService) -> None:
    table = await service.new_table(game_key="trick_or_treat", guild_id=1, channel_id=12, host_id=1, host_name="Ann")
    await service.join(table.id, 2, "Bob")
    await service.start(table.id, 1)
    tid = table.id
    for _ in range(10):  # characters and entrances, until someone rolls
        table = await service.table(tid)
        assert table.state is not None
        if table.state["phase"] == "roll":
            break
        user = table.seats[min(table.awaited)].user_id
        assert user is not None
        await service.act(tid, user, service.legal_for(table, user)[0])
    roller = table.seats[min(table.awaited)].user_id
    assert roller is not None
    rolled = table.state
    one = (await service.act(tid, roller, "mark 1", text=True)).table.state
    await service.act(tid, roller, "mark 2", text=True)
    assert (await service.undo(tid, roller)).table.state == one
    assert (await service.undo(tid, roller)).table.state == rolled
    with pytest.raises(UndoRefused, match="has played since"):  # the other seat's entrance rolled the dice
        await service.undo(tid, roller)
    await _same_as_replay(service, tid)
    await service.act(tid, roller, "mark 3", text=True)
    await service.act(tid, roller, "reroll", text=True)
    with pytest.raises(UndoRefused, match="it rolled dice"):
        await service.undo(tid, roller)
    await _same_as_replay(service, tid)
