"""Sweets Stack end to end: secret picks and placements through DM panels (and the ephemeral fallback)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.e2e.conftest import WAIT, World
from tests.e2e.notices import assert_one_notice_per_decision, decisions
from tests.fakediscord import Message, User

GAME = "sweets_stack"


async def open_table(w: World, *joiners: User, bots: int = 0, options: str | None = None) -> Message:
    extra = {"options": options} if options else {}
    r = await w.server.slash(w.alice, w.chan, "game new", game=GAME, **extra)
    lobby = r.response
    assert lobby is not None and not r.ephemeral
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    return lobby


async def current(w: World) -> Any:
    assert w.bot is not None
    tables = await w.bot.service.store.active_tables()
    return tables[-1] if tables else None


def public_text(m: Message) -> str:
    return m.content + " " + repr(m.embeds) + " " + repr(m.components)


def channel_text(w: World) -> str:
    return " ".join(public_text(m) for m in w.server.messages(w.chan))


def ids_of(m: Message) -> str:
    return " ".join(c.get("custom_id", "") for c in m.all_components())


async def panel(w: World, user: User, table: Any, seat: int) -> Message:
    """The seat's current private panel: its DM, or (closed DMs) the ephemeral one from **My panel**."""
    version = table.awaited[seat]
    marker = f":{table.id}:{version}:"
    if not user.dms_open:
        board = await w.board()
        r = await w.server.click(user, board, label="My panel")
        assert r.ephemeral and r.response is not None
        assert "Your move" in r.content and r.attachments
        return r.response
    return await w.server.wait_for_dm(user, lambda m: marker in ids_of(m))


async def settle(w: World) -> None:
    """Wait until the channel shows the table's current version (the bot delivers after answering)."""
    table = await current(w)
    if table is None:
        await w.board(lambda m: any(f.get("name") == "Result" for f in m.embeds[0].get("fields", [])))
        return

    def version(m: Message) -> int:
        footer = m.embeds[0].get("footer", {}).get("text", "")
        return int(footer[1:].split(" ", 1)[0]) if footer.startswith("v") else -1

    # bot seats reply after the player was answered, so the board may already be newer than `table`
    await w.board(lambda m: version(m) >= table.version)
    if w.bot is not None:  # the mover's next panel is edited into their answer while the board renders
        await asyncio.wait_for(w.bot.busy.idle(), WAIT)
    for _ in range(100):  # and then settle on the newest table version
        table = await current(w)
        newest = await w.board()
        if table is None or version(newest) >= table.version:
            return
        await w.board(lambda m, wanted=table.version: version(m) >= wanted)


def select_by_placeholder(m: Message, start: str) -> dict[str, Any] | None:
    return next((s for s in m.selects if s.get("placeholder", "").startswith(start)), None)


async def play_to_the_end(
    w: World, users: dict[int, User], seed: int = 1, check_secrets: bool = True
) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"picks": 0, "places": 0, "previews": 0, "refresh": 0, "swap": 0, "overflow": 0, "reveals": 0}
    hidden: dict[str, int] = {}  # this step's picks -> how often the channel named that card before
    for _ in range(2000):
        table = await current(w)
        if table is None:
            break
        state = table.state
        if state["phase"] == "pick" and not any(p["pick"] for p in state["players"]):
            hidden = {}
        seat = min(s for s in table.awaited if s in users)
        user = users[seat]
        p = await panel(w, user, table, seat)
        if state["phase"] == "pick":
            menu = select_by_placeholder(p, "Choose the card to pass")
            assert menu is not None, p.components
            if any(b.get("label", "").startswith("Refresh") for b in p.buttons) and rng.random() < 0.1:
                await w.server.click(user, p, label="Refresh hand (pay 1 pumpkin)")
                await settle(w)
                seen["refresh"] += 1
                continue
            value = rng.choice(menu["options"])["value"]
            card = value.split()[1]
            hidden[card] = channel_text(w).count(card)  # a card may be named from an earlier round
            await w.server.select(user, p, menu["custom_id"], [value])
            await settle(w)
            seen["picks"] += 1
            after = await current(w)
            same_step = after is not None and all(after.state[k] == state[k] for k in ("phase", "round", "step"))
            if check_secrets and same_step:
                # no pick of this step is named anywhere in the channel (messages, edits, buttons)
                text = channel_text(w)
                for card, before in hidden.items():
                    assert text.count(card) <= before, f"{card} leaked before the reveal"
            elif not same_step:
                seen["reveals"] += 1
            continue
        labels = [b.get("label", "") for b in p.buttons]
        confirm = next((lb for lb in labels if lb.startswith("Drop")), None)
        upright = select_by_placeholder(p, "…or choose a resting place")
        if upright is not None and (seen["places"] > 8 or confirm is None):
            # stack high on purpose: buckets overflow sooner, so the three rounds are short
            best = max(upright["options"], key=lambda o: int(o["value"].split()[1][1:]))
            await w.server.select(user, p, upright["custom_id"], [best["value"]])
            await settle(w)
            seen["places"] += 1
            continue
        if confirm is not None:
            movable = not next(b for b in p.buttons if b.get("label") == "▶").get("disabled")
            for _ in range(rng.randrange(3) if movable else 0):
                r = await w.server.click(user, p, label="▶")
                seen["previews"] += 1
                # the preview edits the same panel in place and keeps every component
                assert r.response is None or r.response.id == p.id
            confirm = next(lb for lb in (b.get("label", "") for b in p.buttons) if lb.startswith("Drop"))
            await w.server.click(user, p, label=confirm)
            await settle(w)
            seen["places"] += 1
            continue
        swap = select_by_placeholder(p, "Swap with")
        if swap is not None:
            await w.server.select(user, p, swap["custom_id"], [swap["options"][0]["value"]])
            await settle(w)
            seen["swap"] += 1
            continue
        await w.server.click(user, p, label="It does not fit: I am out of this round")
        if p.content.startswith("⚠️"):  # a paid option would still save the candy: asked first (issue #11)
            await w.server.click(user, p, label=next(b["label"] for b in p.buttons if b["label"].startswith("Yes, ")))
        await settle(w)
        seen["overflow"] += 1
    return seen


async def test_three_players_pick_and_place_through_dm_panels_to_the_end(world: World) -> None:
    w = world
    await open_table(w, w.bob, w.carol)
    notice = await w.server.wait_for_message(w.chan, lambda m: "can't send you direct messages" in m.content)
    assert f"<@{w.carol.id}>" in notice.content
    first_dm = await w.server.wait_for_dm(w.alice, lambda m: bool(m.components))
    assert first_dm.attachments and first_dm.attachments[0].data.startswith(b"\x89PNG")
    seen = await play_to_the_end(w, {0: w.alice, 1: w.bob, 2: w.carol})
    assert seen["picks"] >= 9 and seen["places"] >= 6 and seen["reveals"] >= 3, seen
    final = await w.board(lambda m: any(f.get("name") == "Result" for f in m.embeds[0].get("fields", [])))
    text = str(final.embeds[0])
    assert "Game over" in text and final.components == []
    # each round's scores stay readable in /game log (the channel keeps one board, not every step's)
    assert w.bot is not None
    table = await w.bot.service.table(1)  # the world's first and only table
    history = " ".join(text for _, _, text in await w.bot.service.log(table.id))
    for rnd in (1, 2, 3):
        assert f"Round {rnd} scored" in history
    assert w.server.dms(w.carol) == []
    # issue #11: each player told at most once per decision (DM players never pinged as well), at most
    # 20 bot messages left, no decision ping left
    await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("🏁"), timeout=WAIT)
    report = assert_one_notice_per_decision(w, table, await decisions(w, table))
    assert report["alice"]["pings"] == 0 and report["bob"]["pings"] == 0, "DM players are not also pinged"
    assert report["carol"]["dms"] == 0 and report["carol"]["pings"] >= 1
    # the channel is not flooded: one board remains (old boards are deleted), pings were deleted
    boards = [
        m
        for m in w.server.messages(w.chan)
        if m.embeds and "· table #" in m.embeds[0].get("title", "") and not m.deleted
    ]
    assert len(boards) == 1, (len(boards), seen)


async def crafted_table(w: World, state: dict[str, Any], awaited: dict[int, int]) -> Any:
    """A started 2-seat table (alice + a bot) whose state is `state`: a situation built by hand."""
    r = await w.server.slash(w.alice, w.chan, "game new", game=GAME)
    assert r.response is not None
    await w.server.click(w.alice, r.response, label="Add bot")
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    await w.bot.service.store.start_table(table.id, state, awaited, table.seed)
    await w.server.slash(w.alice, w.chan, "game status")  # its first board
    await w.board()
    return await w.bot.service.table(table.id)


def not_fitting_state() -> dict[str, Any]:
    """Alice receives B-S07 (four in a row): only column 1 is free, so only a rotation saves her."""
    from bot.rules import get_game

    s: dict[str, Any] = get_game(GAME).new(2, 5)
    s["phase"] = "place"
    for p in s["players"]:
        p.update(done=True, pick=None)
    alice = s["players"][0]
    for p in s["players"]:
        for pile in ("hand", "deck"):
            if "B-S07" in p[pile]:
                p[pile].remove("B-S07")
    alice.update(incoming="B-S07", giver=1, done=False, swapped=False, pumpkins=2, grid=[".BBBBBB"] * 8)
    return s


async def test_a_candy_that_only_fits_rotated_says_so_and_the_paid_rotation_saves(world: World) -> None:
    w = world
    table = await crafted_table(w, not_fitting_state(), {0: 0})
    r = await w.server.slash(w.alice, w.chan, "game hand")
    assert r.ephemeral and r.attachments
    assert "does NOT fit upright" in r.content and "rotate (pay 2 pumpkins)" in r.content
    p = r.response
    assert p is not None
    labels = [b.get("label", "") for b in p.buttons]
    drop = next(lb for lb in labels if lb.startswith("Drop"))
    assert "turned" in drop and "pay 2" in drop
    assert "It does not fit: I am out of this round" in labels  # giving up stays possible
    assert select_by_placeholder(p, "…or choose a resting place") is None
    await w.server.click(w.alice, p, label=drop)
    assert p.content.startswith("✅")
    assert w.bot is not None
    state = (await w.bot.service.table(table.id)).state
    # 2 pumpkins paid for the rotation, 1 gained from the card's pumpkin-arrow
    assert state["players"][0]["pumpkins"] == 1 and state["players"][0]["grid"][7][0] == "B"
    await settle(w)
    board = await w.board()
    assert "rotated 90° for 2 pumpkins" in str(board.embeds[0])


async def test_preview_buttons_edit_the_panel_and_old_panels_are_refused(world: World) -> None:
    w = world
    await open_table(w, bots=1)
    for _ in range(3):
        table = await current(w)
        p = await panel(w, w.alice, table, 0)
        if table.state["phase"] == "pick":
            menu = select_by_placeholder(p, "Choose the card to pass")
            assert menu is not None
            await w.server.select(w.alice, p, menu["custom_id"], [menu["options"][0]["value"]])
            await settle(w)
            continue
        first = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
        image = p.attachments[0].data
        await w.server.click(w.alice, p, label="▶")
        second = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
        assert first != second and "(2/" in second
        assert p.attachments and p.attachments[0].data != image, "the preview moves in the image too"
        await w.server.click(w.alice, p, label="◀")
        assert next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop")) == first
        turn = [b for b in p.buttons if b.get("label") == "Turn"]
        if turn:
            await w.server.click(w.alice, p, label="Turn")
            turned = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
            assert "turned" in turned
            await w.server.click(w.alice, p, label="Turn")  # cycles through the rotations
        hand = (await w.server.slash(w.alice, w.chan, "game hand")).response  # a second surface
        assert hand is not None
        drop = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
        await w.server.click(w.alice, p, label=drop)
        assert p.content.startswith("✅")
        await settle(w)
        r = await w.server.click(w.alice, hand, label="▶")
        assert r.ephemeral and ("out of date" in r.content or "Nothing is awaited" in r.content)
        break
    else:
        raise AssertionError("never placed")


async def test_sweets_commands_autocomplete_and_bad_input(world: World) -> None:
    w = world
    other = w.server.add_channel(w.guild, "other")
    r = await w.server.slash(w.bob, other, "game new", game="takeaway")
    assert not r.ephemeral
    r = await w.server.slash(w.bob, other, "sweets pick", card="R-S05")
    assert r.ephemeral and "plays Take-Away" in r.content and "/sweets" in r.content

    await open_table(w, w.bob)
    await settle(w)
    choices = await w.server.autocomplete(w.alice, w.chan, "sweets pick", "card", partial="")
    assert 1 <= len(choices) <= 5 and all("·" in c["name"] for c in choices)
    assert await w.server.autocomplete(w.alice, w.chan, "sweets place", "spot", partial="") == []
    r = await w.server.slash(w.alice, w.chan, "sweets pick", card="Z-Z99")
    assert r.ephemeral and "no candy card" in r.content
    r = await w.server.slash(w.dave, w.chan, "sweets pick", card=choices[0]["value"])
    assert r.ephemeral and "not seated" in r.content
    r = await w.server.slash(w.alice, w.chan, "sweets place", spot="r1 c1")
    assert r.ephemeral and "choose a card to pass" in r.content
    assert w.bot is not None
    bob_hand = (await current(w)).state["players"][1]["hand"]
    r = await w.server.slash(w.alice, w.chan, "sweets pick", card=bob_hand[0])
    assert r.ephemeral and "not in your hand" in r.content
    mine = choices[0]["value"]
    r = await w.server.slash(w.alice, w.chan, "sweets pick", card=mine)
    assert r.ephemeral and r.content.startswith("✅")
    r = await w.server.slash(w.alice, w.chan, "sweets pick", card=choices[1]["value"])
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    # the pick stays secret: the board only says that alice has chosen
    await settle(w)
    board = await w.board()
    assert mine not in public_text(board) and "has chosen a card" in str(board.embeds[0])
    log = await w.server.slash(w.bob, w.chan, "game log")
    assert log.ephemeral and "has chosen a card" in log.content and mine not in log.content
    await w.server.slash(w.bob, w.chan, "sweets pick", card=(await current(w)).state["players"][1]["hand"][0])
    await settle(w)
    assert mine in str((await w.board()).embeds[0]), "revealed once everyone has picked"
    spots = await w.server.autocomplete(w.alice, w.chan, "sweets place", "spot", partial="")
    assert spots and all(c["value"].startswith(("place", "rotate")) for c in spots)
    assert any(c["name"].startswith("Rest at row") for c in spots)
    r = await w.server.slash(w.alice, w.chan, "sweets place", spot="r9 c9")
    assert r.ephemeral and "not a resting place" in r.content
    upright = next(c["value"] for c in spots if c["value"].startswith("place"))
    r = await w.server.slash(w.alice, w.chan, "sweets place", spot=upright.removeprefix("place "))
    assert r.ephemeral and r.content.startswith("✅")
    r = await w.server.slash(w.bob, w.chan, "sweets overflow")
    assert r.ephemeral and "fits somewhere" in r.content


async def test_full_game_with_bot_seats_and_advanced_rules(world: World) -> None:
    w = world
    await open_table(w, bots=2, options="advanced=every")
    seen = await play_to_the_end(w, {0: w.alice}, seed=3)
    assert seen["picks"] >= 3, seen
    final = await w.board(lambda m: any(f.get("name") == "Result" for f in m.embeds[0].get("fields", [])))
    result = next(f["value"] for f in final.embeds[0]["fields"] if f["name"] == "Result")
    assert "Bot 1" in result and "Bot 2" in result and "Round 3:" in result
    assert w.bot is not None
    table = (await w.bot.service.store.tables_of_user(w.alice.id) or [None])[0]
    assert table is None or table.status != "active"


def boards_of(w: World) -> list[Message]:
    return [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]


async def test_refresh_shows_the_new_hand_privately_and_posts_no_new_board(world: World) -> None:
    w = world
    await open_table(w, w.bob)
    await settle(w)
    table = await current(w)
    old_hand = table.state["players"][0]["hand"]
    p = await panel(w, w.alice, table, 0)
    before = len(boards_of(w))
    await w.server.click(w.alice, p, label="Refresh hand (pay 1 pumpkin)")
    await settle(w)
    new_hand = (await current(w)).state["players"][0]["hand"]
    assert new_hand != old_hand
    assert p.content.startswith("✅ Refresh hand") and "Your new hand: " + ", ".join(new_hand) in p.content
    menu = select_by_placeholder(p, "Choose the card to pass")
    assert menu is not None and [o["value"] for o in menu["options"]] == [f"pick {c}" for c in new_hand]
    assert not any(b.get("label", "").startswith("Refresh") for b in p.buttons), "one refresh a step"
    assert len(boards_of(w)) == before, "the board is edited in place, nobody is pinged"
    board = await w.board()
    assert "paid 1 pumpkin to refresh" in str(board.embeds[0])
    text = channel_text(w)
    assert not any(c in text for c in new_hand + old_hand), "neither hand is shown in the channel"
    # the refreshed panel works: pick from the new hand
    await w.server.select(w.alice, p, menu["custom_id"], [f"pick {new_hand[0]}"])
    assert p.content.startswith("✅")
    r = await w.server.slash(w.bob, w.chan, "sweets refresh")
    assert r.ephemeral and r.content.startswith("✅ Refresh hand")
    await r.wait_for(lambda rec: bool(rec.attachments), timeout=WAIT)  # the next panel is edited in after the ✅
    assert len(boards_of(w)) == before


async def test_placement_panel_buttons_work_after_a_restart(world: World) -> None:
    w = world
    await open_table(w, bots=1)
    table = await current(w)
    p = await panel(w, w.alice, table, 0)
    menu = select_by_placeholder(p, "Choose the card to pass")
    assert menu is not None
    await w.server.select(w.alice, p, menu["custom_id"], [menu["options"][0]["value"]])
    await settle(w)
    table = await current(w)
    assert table.state["phase"] == "place" and 0 in table.awaited
    p = await panel(w, w.alice, table, 0)
    assert w.bot is not None
    await w.bot.close()
    await w.boot()  # a new process on the same database
    await w.server.click(w.alice, p, label="▶")
    drop = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
    assert "(2/" in drop
    await w.server.click(w.alice, p, label=drop)
    assert p.content.startswith("✅")


async def test_swap_from_the_panel_then_place_the_swapped_in_candy(world: World) -> None:
    w = world
    state = not_fitting_state()
    alice = state["players"][0]
    for p in state["players"]:
        for pile in ("hand", "deck"):
            if "Y-S02" in p[pile]:
                p[pile].remove("Y-S02")
    alice["hand"] = ["Y-S02", *alice["hand"][:2]]  # Y-S02 is two candies high, one wide: it fits
    alice["pumpkins"] = 3
    table = await crafted_table(w, state, {0: 0})
    r = await w.server.slash(w.alice, w.chan, "game hand")
    assert "swap with Y-S02 (pay 3 pumpkins)" in r.content
    p = r.response
    assert p is not None
    before = len(boards_of(w))
    swap = select_by_placeholder(p, "Swap with")
    assert swap is not None and "swap Y-S02" in [o["value"] for o in swap["options"]]
    await w.server.select(w.alice, p, swap["custom_id"], ["swap Y-S02"])
    await settle(w)
    assert p.content.startswith("✅ Swap in") and "You swapped B-S07" in p.content
    drop = next(b.get("label", "") for b in p.buttons if b.get("label", "").startswith("Drop"))
    assert "row 1, column 1" in drop
    assert select_by_placeholder(p, "Swap with") is None, "one swap a step"
    assert len(boards_of(w)) == before
    assert "paid 3 pumpkins to swap" in str((await w.board()).embeds[0])
    assert "Y-S02" not in channel_text(w), "the swapped-in candy is secret until it is placed"
    await w.server.click(w.alice, p, label=drop)
    await settle(w)
    assert w.bot is not None
    assert (await w.bot.service.table(table.id)).state["players"][0]["pile"] == ["Y-S02"]


def test_panels_respect_discord_limits_in_every_situation_of_random_games() -> None:
    """Unique custom ids, 5 rows, 5 buttons a row, a select alone in its row, 25 options, short labels."""
    from types import SimpleNamespace

    import discord

    from bot.rules import get_game
    from bot.rules.rng import Rng
    from cogs.sweets_stack import UI

    game = get_game(GAME)
    checked = 0
    for seed in range(4):
        s = game.new(3, seed, {"advanced": "every"})
        rng = Rng.from_seed(seed)
        for _ in range(400):
            if game.outcome(s) is not None:
                break
            for seat in sorted(game.to_act(s)):
                legal = game.legal_actions(s, seat)
                table = SimpleNamespace(id=12345, version=678, awaited={seat: 678})
                for page in (0, 1, 99):
                    items = UI.panel_items(game, table, seat, legal, page)  # type: ignore[arg-type]
                    ids = [i.item.custom_id for i in items]  # type: ignore[attr-defined]
                    assert len(ids) == len(set(ids)), ids
                    assert all(len(c or "") <= 100 for c in ids)
                    rows: dict[int, list[Any]] = {}
                    for it in items:
                        rows.setdefault(it.item.row or 0, []).append(it.item)  # type: ignore[attr-defined]
                    assert set(rows) <= set(range(5))
                    for row in rows.values():
                        selects = [x for x in row if isinstance(x, discord.ui.Select)]
                        assert (len(selects) == 1 and len(row) == 1) or (not selects and len(row) <= 5)
                        for x in selects:
                            assert 1 <= len(x.options) <= 25 and all(len(o.label) <= 100 for o in x.options)
                        for x in row:
                            assert not isinstance(x, discord.ui.Button) or len(x.label or "") <= 80
                    checked += 1
            seat = min(game.to_act(s))
            s, _ = game.apply(s, seat, rng.choice(game.legal_actions(s, seat)))
    assert checked > 100


async def test_giving_up_asks_first_when_a_rotation_would_save_the_candy(world: World) -> None:
    from bot.rules.sweets_stack import GAME as SWEETS
    from tests.rules.test_sweets_stack import fresh, receiving

    w = world
    await open_table(w, w.bob)
    await w.board()
    table = await current(w)
    s = fresh(2)
    receiving(s, 0, "B-S07", 1, ["......."] * 8)
    s["players"][0]["grid"] = [".BBBBBB"] * 8  # only column 1 free: the candy fits only rotated
    s["players"][0]["pumpkins"] = 2
    assert w.bot is not None
    version = await w.bot.service.store.apply(
        table.id,
        expected_version=table.version,
        seat=0,
        action={"kind": "setup"},
        events=[],
        state=SWEETS.dump_state(s),
        awaited={seat: table.version + 1 for seat in SWEETS.to_act(s)},
        kind="setup",
    )
    r = await w.server.slash(w.alice, w.chan, "game hand")
    panel = r.response
    assert panel is not None and r.ephemeral
    out = "It does not fit: I am out of this round"
    await w.server.click(w.alice, panel, label=out)
    assert panel.content == "⚠️ Give up this round? You could still rotate (pay 2 pumpkins).", panel.content
    assert [b["label"] for b in panel.buttons][1] == "Cancel"
    await w.server.click(w.alice, panel, label="Cancel")
    assert out in [b.get("label") for b in panel.buttons]
    assert (await current(w)).version == version
    await w.server.click(w.alice, panel, label=out)
    yes = next(b for b in panel.buttons if b["label"].startswith("Yes, "))
    await w.server.click(w.alice, panel, custom_id=yes["custom_id"])
    lines = [text for _seq, _who, text in await w.bot.service.log(table.id)]
    assert any("alice is out" in text for text in lines), lines  # (then the round was scored)
