"""Sweets Stack end to end: secret picks and placements through DM panels (and the ephemeral fallback)."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.conftest import World
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
    await w.board(lambda m: m.embeds[0].get("footer", {}).get("text", "").startswith(f"v{table.version} "))


def select_by_placeholder(m: Message, start: str) -> dict[str, Any] | None:
    return next((s for s in m.selects if s.get("placeholder", "").startswith(start)), None)


async def play_to_the_end(w: World, users: dict[int, User], seed: int = 1, check_secrets: bool = True) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"picks": 0, "places": 0, "previews": 0, "refresh": 0, "swap": 0, "overflow": 0, "reveals": 0}
    step_start = 0
    hidden: list[str] = []
    for _ in range(2000):
        table = await current(w)
        if table is None:
            break
        state = table.state
        if state["phase"] == "pick" and not any(p["pick"] for p in state["players"]):
            step_start = (await w.board()).id
            hidden = []
        seat = min(s for s in table.awaited if s in users)
        user = users[seat]
        p = await panel(w, user, table, seat)
        if state["phase"] == "pick":
            menu = select_by_placeholder(p, "Choose the card to pass")
            assert menu is not None, p.components
            if any(b.get("label", "").startswith("Refresh") for b in p.buttons) and rng.random() < 0.2:
                await w.server.click(user, p, label="Refresh hand (pay 1 pumpkin)")
                await settle(w)
                seen["refresh"] += 1
                continue
            value = rng.choice(menu["options"])["value"]
            await w.server.select(user, p, menu["custom_id"], [value])
            await settle(w)
            seen["picks"] += 1
            hidden.append(value.split()[1])
            after = await current(w)
            if check_secrets and after is not None and after.state["phase"] == "pick":
                # nobody else has seen any pick of this step: not in any channel message since it began
                text = " ".join(public_text(m) for m in w.server.messages(w.chan) if m.id >= step_start)
                for card in hidden:
                    i = text.find(card)
                    assert card not in text, f"{card} leaked before the reveal: {text[max(0, i - 300):i + 100]}"
            elif after is not None and after.state["phase"] != "pick":
                seen["reveals"] += 1
            continue
        labels = [b.get("label", "") for b in p.buttons]
        confirm = next((lb for lb in labels if lb.startswith("Drop")), None)
        upright = select_by_placeholder(p, "…or choose a resting place")
        if upright is not None and rng.random() < 0.7:
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
    history = " ".join(public_text(m) for m in w.server.messages(w.chan))
    for rnd in (1, 2, 3):
        assert f"Round {rnd} scored" in history
    assert w.server.dms(w.carol) == []
    # the channel is not flooded: a new board only when someone new must act (a reveal, a new step)
    boards = [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]
    assert len(boards) <= 2 * seen["reveals"] + 4, (len(boards), seen)
