"""/game replay (issue #17): a step-through of a table's public boards with ◀ ▶ and a select of steps,
and an animated GIF of the whole game, rebuilt from the seed and the log — every frame the lasting
public view of its moment, never a seat's view or a transient reveal."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.rules import get_game
from cogs.common.replay import GIF_MAX_BYTES, gif_steps, step_options
from tests.e2e.conftest import World, play_out, start_takeaway

DISCORD_UPLOAD_MAX = 10 * 1024 * 1024


async def play_takeaway_to_the_end(w: World) -> int:
    await start_takeaway(w)
    assert w.bot is not None
    (table,) = await w.bot.service.store.active_tables()
    await play_out(w, table.id)
    assert (await w.bot.service.table(table.id)).status == "finished"
    return table.id


async def test_a_finished_game_replays_step_by_step_and_as_an_animation(world: World) -> None:
    w = world
    assert w.bot is not None
    table_id = await play_takeaway_to_the_end(w)
    _, frames = await w.bot.service.replay_frames(table_id)
    last = len(frames) - 1
    assert last >= 3
    # the table here is the one that ended here last; anyone of the server may replay it
    r = await w.server.slash(w.dave, w.chan, "game replay")
    assert r.ephemeral and f"#{table_id}, replay — step 0/{last}" in r.content, r.content
    assert r.attachments and r.attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    msg = r.response
    assert msg is not None
    assert msg.button("◀").get("disabled") and not msg.button("▶").get("disabled")
    await w.server.click(w.dave, msg, label="▶")
    assert f"step 1/{last}" in msg.content and not msg.button("◀").get("disabled")
    assert all(f"• {line}" in msg.content for line in frames[1].lines)
    (menu,) = msg.selects
    assert [o["value"] for o in menu["options"]] == [str(k) for k in range(last + 1)]
    await w.server.select(w.dave, msg, menu["custom_id"], [str(last)])
    assert f"step {last}/{last}" in msg.content and msg.button("▶").get("disabled")
    await w.server.click(w.dave, msg, label="◀")
    assert f"step {last - 1}/{last}" in msg.content
    # the animation: a GIF of every step, well under Discord's upload limit, sent to the clicker only
    anim = await w.server.click(w.dave, msg, label="Animation")
    (sent,) = [m for m in anim.messages if m.attachments]
    assert sent.ephemeral and sent.attachments[0].filename == f"table-{table_id}.gif"
    data = sent.attachments[0].data
    assert data[:6] == b"GIF89a" and len(data) <= GIF_MAX_BYTES < DISCORD_UPLOAD_MAX
    gif = Image.open(io.BytesIO(data))
    assert 2 <= getattr(gif, "n_frames", 1) <= len(frames)  # Pillow merges a step that changed nothing drawn
    # a table number works too, and a running table replays its public board only
    r2 = await w.server.slash(w.bob, w.chan, "game replay", table=table_id)
    assert r2.ephemeral and f"step 0/{last}" in r2.content


async def test_replays_refuse_bad_input(world: World) -> None:
    w = world
    assert w.bot is not None
    unknown = await w.server.slash(w.alice, w.chan, "game replay", table=987654)
    assert unknown.ephemeral and "exist" in unknown.content and not unknown.attachments
    nothing = await w.server.slash(w.alice, w.chan, "game replay")
    assert nothing.ephemeral and not nothing.attachments
    table_id = await play_takeaway_to_the_end(w)
    # a table of another server: refused for someone who did not play it, shown to one who did
    service = w.bot.service
    away = await service.new_table(
        game_key="takeaway", guild_id=w.guild.id + 1, channel_id=w.chan.id + 1, host_id=w.bob.id, host_name="bob"
    )
    await service.join(away.id, w.alice.id, "alice")
    await service.start(away.id, w.bob.id)
    refused = await w.server.slash(w.dave, w.chan, "game replay", table=away.id)
    assert refused.ephemeral and "another server" in refused.content and not refused.attachments
    mine = await w.server.slash(w.alice, w.chan, "game replay", table=away.id)
    assert mine.ephemeral and "step 0/0" in mine.content and mine.attachments
    assert "still being played: the public board only" in mine.content
    # a lobby has nothing to replay
    lobby = await w.server.slash(w.alice, w.chan, "game new", game="takeaway")
    assert lobby.response is not None
    never = await w.server.slash(w.alice, w.chan, "game replay")
    assert never.ephemeral and "nothing to replay" in never.content
    # damaged or forged components: a step that does not exist, an unknown kind, another server's table
    r = await w.server.slash(w.bob, w.chan, "game replay", table=table_id)
    msg = r.response
    assert msg is not None
    del msg.components[1:]  # the forged buttons go on the buttons' row (a select fills its own)
    too_far = await w.server.forged_click(w.bob, msg, f"st:rp:{table_id}:99999:next")
    (told,) = too_far.followups  # acknowledged before the log was replayed: the refusal follows, only to bob
    assert told.ephemeral and "does not exist" in told.content and "step 0/" in msg.content
    odd = await w.server.forged_click(w.bob, msg, f"st:rp:{table_id}:1:sideways")
    assert "damaged" in odd.content
    gone = await w.server.forged_click(w.bob, msg, "st:rp:99999999:1:next")
    assert "exist" in gone.content
    bad = await w.server.forged_click(w.bob, msg, f"st:rp:{table_id}:x:next")
    assert "damaged" in bad.content


def keys(view: dict[str, Any]) -> set[str]:
    return set(view)


@pytest.mark.parametrize(("key", "options"), [("dawn_under", {"glimpse": "15"}), ("sweets_stack", {})])
async def test_every_frame_is_the_lasting_public_view_of_its_moment(
    world: World, key: str, options: dict[str, str]
) -> None:
    """Dawn Under with a glimpse (lids a move touched are only true for a moment) and Sweets Stack (hands):
    alice and two bots play; every frame equals lasting_view(view(state, None)) of the service's state at
    that step, holds no seat-only key, no lid that is ajar, and no transient line."""
    w = world
    assert w.bot is not None
    service = w.bot.service
    game = get_game(key)
    table = await service.new_table(
        game_key=key,
        guild_id=w.guild.id,
        channel_id=w.chan.id,
        host_id=w.alice.id,
        host_name="alice",
        options=options,
    )
    await service.add_bot(table.id, w.alice.id)
    await service.add_bot(table.id, w.alice.id)
    await service.start(table.id, w.alice.id)
    for _ in range(40):
        row = await service.table(table.id)
        if row.status != "active":
            break
        legal = service.legal_for(row, w.alice.id)
        if not legal:
            break
        await service.act(table.id, w.alice.id, legal[0])
    row = await service.table(table.id)
    table_row, frames = await service.replay_frames(table.id)
    steps = await service.states(row)
    assert len(frames) == len(steps) + 1 and len(steps) >= 20
    start = game.new(len(row.seats), row.seed, row.options)
    states = [start, *(state for _, state in steps)]
    stripped = transient_seen = hidden = 0
    for k, (frame, state) in enumerate(zip(frames, states, strict=True)):
        public = game.view(state, None)
        lasting = game.lasting_view(public, row.options)
        stripped += lasting != public
        expected = {**lasting, "names": [s.name for s in row.seats]}
        expected.setdefault("players", len(row.seats))
        expected.setdefault("title", game.title)
        assert frame.view == expected, f"frame {k}"
        assert '"ajar"' not in json.dumps(frame.view)
        for seat in range(len(row.seats)):
            secret = keys(game.view(state, seat)) - keys(public)
            hidden += bool(secret)
            assert not secret & keys(frame.view), f"frame {k} holds seat {seat}'s {secret & keys(frame.view)}"
        if k:
            events = steps[k - 1][0].events
            for ev in events:
                if ev.get("transient"):
                    transient_seen += 1
                    text = game.event_text(str(ev["text"]), [s.name for s in row.seats])
                    kept = [game.event_text(str(e["text"]), [s.name for s in row.seats]) for e in events]
                    if kept.count(text) == 1:
                        assert text not in frame.lines
    if key == "dawn_under":
        assert stripped, "the game showed lids for a moment: the replay must have closed them"
    else:
        assert hidden, "the seats' views held their hands: none of it is in a frame"
    # through Discord too (a running table: its public board only, said so)
    r = await w.server.slash(w.dave, w.chan, "game replay")
    assert r.ephemeral and r.attachments and f"step 0/{len(steps)}" in r.content
    assert ("still being played" in r.content) == (row.status == "active")
    assert table_row.id == table.id


def test_long_games_are_sampled() -> None:
    assert step_options(10, 3) == list(range(10))
    opts = step_options(400, 137)
    assert len(opts) <= 25 and opts[0] == 0 and opts[-1] == 399 and 137 in opts
    sampled = gif_steps(1000)
    assert len(sampled) <= 121 and sampled[0] == 0 and sampled[-1] == 999
    assert gif_steps(5) == [0, 1, 2, 3, 4]
