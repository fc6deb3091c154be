"""The table service without Discord: lobby rules, the validation gate, bots, resign, reminders."""

from __future__ import annotations

import asyncio

import pytest

from bot.rules import GameError, NotYourTurn, StaleAction
from bot.tables import LobbyError, NotAllowed, NotSeated, TableService, UnknownTable


async def _lobby(service: TableService, channel: int = 10) -> int:
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=channel, host_id=1, host_name="Ann")
    return table.id


async def test_lobby_join_leave_and_seat_limits(service: TableService) -> None:
    tid = await _lobby(service)
    with pytest.raises(LobbyError, match="already seated"):
        await service.join(tid, 1, "Ann")
    await service.join(tid, 2, "Bob")
    with pytest.raises(LobbyError, match="full"):
        await service.join(tid, 3, "Cy")
    table = await service.leave(tid, 2)
    assert [s.name for s in table.seats] == ["Ann"]
    with pytest.raises(LobbyError, match="at least 2"):
        await service.start(tid, 1)
    with pytest.raises(NotAllowed, match="host"):
        await service.add_bot(tid, 2)
    table = await service.add_bot(tid, 1)
    assert table.seats[1].is_bot


async def test_a_second_table_in_the_same_channel_is_refused(service: TableService) -> None:
    await _lobby(service)
    with pytest.raises(LobbyError, match="already has an open table"):
        await _lobby(service)


async def test_unknown_options_and_bad_values_are_refused(service: TableService) -> None:
    with pytest.raises(GameError, match="pile"):
        await service.new_table(
            game_key="takeaway", guild_id=1, channel_id=3, host_id=1, host_name="A", options={"pile": "99"}
        )
    with pytest.raises(GameError, match="no option"):
        await service.new_table(
            game_key="takeaway", guild_id=1, channel_id=3, host_id=1, host_name="A", options={"colour": "red"}
        )


async def test_gate_order_unknown_unseated_unawaited_stale(service: TableService) -> None:
    with pytest.raises(UnknownTable):
        await service.act(999, 1, ("bid", 1))
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    with pytest.raises(NotSeated):
        await service.act(tid, 3, ("bid", 1))
    table = await service.table(tid)
    bid = service.legal_for(table, 1)[0]
    await service.act(tid, 1, bid, version=0)
    with pytest.raises(NotYourTurn, match="already counted"):
        await service.act(tid, 1, bid, version=0)  # double click
    # Bob's panel was built at version 0 and is still valid after Ann's simultaneous bid.
    table = await service.table(tid)
    change = await service.act(tid, 2, service.legal_for(table, 2)[0], version=0)
    mover = next(iter(change.table.awaited))
    user = change.table.seats[mover].user_id
    assert user is not None
    with pytest.raises(StaleAction, match="out of date"):
        await service.act(tid, user, service.legal_for(change.table, user)[0], version=0)
    assert (await service.table(tid)).version == 2


async def test_two_simultaneous_bids_are_both_recorded_exactly_once(service: TableService) -> None:
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    table = await service.table(tid)
    a, b = service.legal_for(table, 1)[0], service.legal_for(table, 2)[0]
    await asyncio.gather(service.act(tid, 1, a, version=0), service.act(tid, 2, b, version=0))
    actions = await service.store.actions(tid)
    assert sorted(x.seat for x in actions) == [0, 1]
    table = await service.table(tid)
    assert table.state is not None and table.state["phase"] == "play"


async def test_a_panel_answered_in_place_moves_on_with_the_move_itself(service: TableService) -> None:
    """A delivery reading the table right after a DM click's commit (before its answer) must not see
    the clicked panel as one of a decision already made: it would strip it to "Done" while the mover's
    next decision is being edited into it (a lost notice, seen as a flaky whole-game test)."""
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    for seat in (0, 1):
        await service.store.set_panel_message(tid, seat, 70, 400 + seat, 0)
    table = await service.table(tid)
    for user, seat in ((1, 0), (2, 1)):
        change = await service.act(
            tid, user, service.legal_for(table, user)[0], version=table.version, panel_message_id=400 + seat
        )
        table = await service.table(tid)  # as any delivery reads it, the answer not sent yet
        mine = table.seats[seat]
        assert (mine.panel_message_id, mine.panel_version) == (400 + seat, table.awaited.get(seat))
        assert change.table.seats[seat].panel_version == table.awaited.get(seat)
    # the first bidder's answered panel is left as its own move left it (its new decision gets a new one)
    assert (table.seats[0].panel_message_id, table.seats[0].panel_version) == (400, None)
    # a click on another message (not the seat's panel) changes no panel
    mover = next(iter(table.awaited))
    before = table.seats[mover].panel_version
    await service.act(tid, mover + 1, service.legal_for(table, mover + 1)[0], panel_message_id=999)
    table = await service.table(tid)
    assert table.seats[mover].panel_version == before
    # an answer clearing the panel it answered leaves a newer panel (sent by a delivery meanwhile) alone
    await service.store.set_panel_message(tid, mover, 70, 500, table.awaited.get(mover))
    await service.store.set_panel_message(tid, mover, None, None, if_message=400 + mover)
    assert (await service.table(tid)).seats[mover].panel_message_id == 500


async def test_bot_seat_plays_until_a_human_is_awaited_and_remembers(service: TableService) -> None:
    tid = await _lobby(service)
    await service.add_bot(tid, 1)
    change = await service.start(tid, 1)
    assert change.newly_awaited == {0}
    table = change.table
    while table.status == "active":
        table = (await service.act(tid, 1, service.legal_for(table, 1)[0])).table
    assert table.status == "finished"
    assert table.seats[1].bot_memory.get("seen", 0) > 0


async def test_resign_in_a_two_player_game_ends_it_for_the_other(service: TableService) -> None:
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    change = await service.resign(tid, 2)
    assert change.ended and change.table.outcome is not None
    assert change.table.outcome["winners"] == [0]
    with pytest.raises(GameError):
        await service.resign(tid, 1)


async def test_abandon_needs_the_host_or_manage_channels(service: TableService) -> None:
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    with pytest.raises(NotAllowed):
        await service.abandon(tid, 2, can_manage_channel=False)
    table = await service.abandon(tid, 2, can_manage_channel=True)
    assert table.status == "abandoned"
    # the channel is free again
    await _lobby(service)


async def test_reminders_fall_due_after_the_quiet_time_and_not_twice(service: TableService) -> None:
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    table = await service.table(tid)
    now = table.updated_at
    assert await service.due_reminders(now + table.reminder_after - 1) == []
    due = await service.due_reminders(now + table.reminder_after + 1)
    assert [t.id for t in due] == [tid]
    await service.mark_reminded(tid, now + table.reminder_after + 1)
    assert await service.due_reminders(now + table.reminder_after + 2) == []


async def test_the_log_never_keeps_transient_lines(service: TableService) -> None:
    tid = await _lobby(service)
    await service.add_bot(tid, 1)
    await service.start(tid, 1)
    await service.store.apply(
        tid,
        expected_version=(await service.table(tid)).version,
        seat=0,
        action={"verb": "pass", "n": 0},
        events=[{"text": "secret under C4", "transient": True}, {"text": "kept", "transient": False}],
        state=(await service.table(tid)).state or {},
        awaited={0: 9},
    )
    texts = [t for _, _, t in await service.log(tid)]
    assert "kept" in texts and "secret under C4" not in texts


async def _team_decision_table(service: TableService, humans: int) -> int:
    """A 3-player Ghost Stories table whose living Taoists must decide together who takes a curse."""
    from bot.rules.ghost_stories import GAME as GHOST
    from tests.rules.test_ghost_stories_helpers import blank, put, yin

    table = await service.new_table(game_key="ghost_stories", guild_id=1, channel_id=20, host_id=1, host_name="Ann")
    if humans > 1:
        await service.join(table.id, 2, "Bob")
    for _ in range(3 - humans):
        await service.add_bot(table.id, 1)
    state = blank(players=3, diff="initiation")
    put(state, "blue1", "Lich")
    yin(state, 3)  # the neutral Blue board's Lich torments: who rolls is the team's choice
    assert GHOST.shared_decision(state)
    await service.store.start_table(table.id, GHOST.dump_state(state), {0: 0, 1: 0, 2: 0}, 5)
    return table.id


async def test_bots_leave_a_team_decision_to_the_humans_in_it(service: TableService) -> None:
    tid = await _team_decision_table(service, humans=2)
    change = await service.resume_bots(tid)
    assert change.table.version == 0 and set(change.table.awaited) == {0, 1, 2}
    # either human may answer; the answer is the whole team's, so nobody is still awaited for it
    table = change.table
    action = service.legal_for(table, 2)[0]
    table = (await service.act(tid, 2, action)).table
    assert table.version >= 1 and 1 not in table.awaited


async def test_autopilot_answers_a_team_decision_once(service: TableService) -> None:
    tid = await _team_decision_table(service, humans=2)
    await service.store.set_reminder(tid, autopilot_after=3600)  # the host lets a bot move after an hour
    table = await service.table(tid)
    change = await service.autopilot(tid, now=table.updated_at + 7200)  # two quiet hours later
    notes = [line.event.text for line in change.lines if "was away" in line.event.text]
    assert len(notes) == 1 and change.table.version >= 1 and table.version == 0


async def test_the_table_here_after_the_end_is_the_last_ended_one_and_the_end_is_owed_once(
    service: TableService,
) -> None:
    with pytest.raises(UnknownTable):
        await service.table_for_user(10, 1)
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    change = await service.resign(tid, 2)
    table = change.table
    assert table.status == "finished" and table.end_unannounced and table.lagging
    assert [t.id for t in await service.lagging()] == [tid]
    assert (await service.table_for_user(10, 1)).id == tid  # /game status, log, hand: the game that ended here
    assert (await service.table_for_user(10, 3)).id == tid  # anyone in the channel may look at it
    with pytest.raises(GameError, match="This game is over"):
        service.gate(table, 1)
    await service.store.mark_shown(tid, table.version)
    await service.store.mark_end_announced(tid, 555)
    table = await service.table(tid)
    assert not table.lagging and table.end_message_id == 555 and await service.lagging() == []
    # a new lobby here is "the table here" again; once it is cancelled, the ended game is
    new = await _lobby(service)
    assert (await service.table_for_user(10, 1)).id == new
    await service.cancel(new, 1)
    assert (await service.table_for_user(10, 1)).id == tid
    await service.store.set_rematch(tid, new)
    assert (await service.table(tid)).rematch_id == new


async def test_a_table_closed_by_a_command_owes_no_game_over_message(service: TableService) -> None:
    tid = await _lobby(service)
    await service.join(tid, 2, "Bob")
    await service.start(tid, 1)
    table = await service.abandon(tid, 1, can_manage_channel=False)
    assert table.status == "abandoned" and table.end_announced_at is not None and not table.end_unannounced


async def test_resigning_from_a_two_player_co_op_game_hands_the_seat_to_a_bot(service: TableService) -> None:
    """Ghost Stories is co-operative: nobody wins because a teammate resigns; a bot plays their Taoist."""
    table = await service.new_table(game_key="ghost_stories", guild_id=1, channel_id=21, host_id=1, host_name="Ann")
    await service.join(table.id, 2, "Bob")
    await service.start(table.id, 1)
    change = await service.resign(table.id, 2)
    assert change.table.status == "active" and change.table.outcome is None
    assert change.table.seats[1].resigned and change.table.seats[1].played_by_bot


async def test_only_a_policy_with_its_own_observe_gets_each_bot_seats_view(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default `observe` keeps the memory as it is: no view of the bot seats is built for it."""
    from bot.rules import RandomPolicy, get_game
    from tests.takeaway import GreedyPolicy

    class Plain(GreedyPolicy):  # chooses as the greedy bot does, remembers nothing
        observe = RandomPolicy.observe

    assert GreedyPolicy().observes and not Plain().observes
    game = get_game("takeaway")
    monkeypatch.setattr(game, "bot_policy", Plain)
    views: list[int | None] = []
    real_view = game.view
    monkeypatch.setattr(game, "view", lambda state, seat: views.append(seat) or real_view(state, seat))
    tid = await _lobby(service)
    await service.add_bot(tid, 1)
    table = (await service.start(tid, 1)).table
    views.clear()
    await service.act(tid, 1, service.legal_for(table, 1)[0], bots=False)
    assert 1 not in views
    assert (await service.table(tid)).seats[1].bot_memory == {}
