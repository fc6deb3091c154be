"""Trick or Treat Halloween end to end through the local Discord server.

The two human seats are driven by a deterministic policy (the game's own bot, plus "rob the other human
whenever a plain steal is possible") and every decision is made the way a player would: a button or a
select of the private panel (DM, or the ephemeral panel), or a `/trick` command with autocomplete.
The table seed is fixed so that the game contains a steal whose human victim answers by DM.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

import bot.tables.service as service_module
from bot.rules import Rng
from bot.rules.trick_or_treat import GAME
from bot.rules.trick_or_treat.game import Action
from tests.e2e.conftest import World
from tests.fakediscord import Message, User

SEED = 230  # with the policies below, seat 1 (bob) is robbed by seat 0 (alice) and gives by DM
HUMANS = (0, 1)
POLICY = GAME.bot_policy()


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: SEED))
    yield


def human_choice(view: dict[str, Any], legal: list[Action], version: int, seat: int) -> Action:
    """The simulated human: rob the other human when a plain steal is possible, else play like the bot."""
    for a in legal:
        if a.verb == "steal" and not a.arg2 and int(a.arg) - 1 in HUMANS:
            return a
    return POLICY.choose(view, legal, {}, Rng.from_seed(f"human:{version}:{seat}"))


def planned_marks(state: Any, seat: int, version: int) -> tuple[list[int], Action] | None:
    """When the policy starts marking dice: the dice it ends up marking and what it does next."""
    s, v = state, version
    while True:
        legal = GAME.legal_actions(s, seat)
        a = human_choice(GAME.view(s, seat), legal, v, seat)
        if a.verb != "mark":
            marked = [i + 1 for i, m in enumerate(s["marked"]) if m]
            return (marked, a) if a.verb == "reroll" else None
        s, _ = GAME.apply(s, seat, a)
        v += 1


def buttons(message: Message) -> list[str]:
    return [b.get("label", "") for b in message.buttons]


def arg_of(component: dict[str, Any]) -> str:
    return str(component.get("custom_id", "")).split(":", 4)[-1]


async def current(w: World):  # type: ignore[no-untyped-def]
    assert w.bot is not None
    tables = await w.bot.service.store.active_tables()
    return tables[-1] if tables else None


async def open_table(w: World, *, bots: int = 2, joiners: tuple[User, ...] = ()) -> Message:
    r = await w.server.slash(w.alice, w.chan, "game new", game="trick_or_treat")
    lobby = r.response
    assert lobby is not None
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    return lobby


class Driver:
    """Plays the human seats through the UI and keeps track of each one's current private panel."""

    def __init__(self, w: World, users: dict[int, User]) -> None:
        self.w = w
        self.users = users
        self.panels: dict[int, Message | None] = dict.fromkeys(users)
        self.used_dms: set[int] = set()
        self.count = 0
        self.how: dict[str, int] = {}
        self.gave_by_dm = 0

    async def panel(self, seat: int) -> Message:
        known = self.panels.get(seat)
        if known is not None and known.components:
            return known
        user = self.users[seat]
        fresh = lambda m: bool(m.components) and m.id not in self.used_dms  # noqa: E731
        await self.w.server.wait_for_dm(user, fresh)
        panel = [m for m in self.w.server.dms(user) if fresh(m)][-1]
        self.used_dms.add(panel.id)
        self.panels[seat] = panel
        return panel

    def note(self, how: str) -> None:
        self.how[how] = self.how.get(how, 0) + 1

    async def click(self, seat: int, panel: Message, arg: str) -> None:
        button = next(b for b in panel.buttons if arg_of(b) == arg)
        r = await self.w.server.click(self.users[seat], panel, custom_id=button["custom_id"])
        assert not (r.response and r.response.ephemeral and r.response is not panel and "✅" not in r.content), (
            r.content
        )
        self.panels[seat] = panel if panel.components else None
        self.note("button")

    async def choose(self, seat: int, panel: Message, notation: str) -> None:
        for select in panel.selects:
            if any(o["value"] == notation for o in select.get("options", [])):
                await self.w.server.select(self.users[seat], panel, select["custom_id"], [notation])
                self.panels[seat] = panel if panel.components else None
                self.note("select")
                return
        raise AssertionError(f"{notation!r} is in no select of the panel: {panel.selects}")

    async def command(
        self, seat: int, command: str, option: str | None = None, value: str = "", *, complete: bool = True
    ) -> None:
        user = self.users[seat]
        opts: dict[str, str] = {}
        if option is not None and not complete:
            opts[option] = value
        elif option is not None:
            choices = await self.w.server.autocomplete(user, self.w.chan, f"trick {command}", option, partial="")
            assert value in [c["value"] for c in choices], (command, value, choices)
            opts[option] = value
        r = await self.w.server.slash(user, self.w.chan, f"trick {command}", **opts)
        assert r.ephemeral and r.content.startswith("✅"), r.content
        self.panels[seat] = r.response if r.response is not None and r.response.components else None
        self.note(f"/trick {command}")

    async def step(self) -> bool:
        table = await current(self.w)
        if table is None:
            return False
        (seat,) = table.awaited
        assert seat in HUMANS, "bots never keep the table waiting"
        state = GAME.load_state(table.state)
        legal = GAME.legal_actions(state, seat)
        action = human_choice(GAME.view(state, seat), legal, table.version, seat)
        text = GAME.format_action(action)
        panel = await self.panel(seat)
        self.count += 1
        n = self.count
        v = action.verb
        if v == "mark" and (plan := planned_marks(state, seat, table.version)) is not None:
            dice, _ = plan
            if n % 3 == 0:
                await self.command(seat, "reroll", "dice", " ".join(map(str, dice)), complete=False)
            else:
                select = next(s for s in panel.selects if ":ttroll:" in s["custom_id"])
                await self.w.server.select(self.users[seat], panel, select["custom_id"], [str(d) for d in dice])
                self.panels[seat] = panel if panel.components else None
                self.note("dice select")
            return True
        if v == "give":
            assert panel.channel.is_dm, "the victim chooses the candy in a DM"
            self.gave_by_dm += 1
            await self.click(seat, panel, text)
            return True
        if v in ("choose", "start"):
            if seat == 0:
                value = action.arg.upper() if v == "start" else action.arg
                await self.command(seat, "character" if v == "choose" else "entrance", "name", value)
            else:
                await self.choose(seat, panel, text)
            return True
        if v == "move" and n % 4 == 0:
            await self.command(seat, "move", "street", action.arg.upper())
        elif v == "ring" and n % 2 == 0:
            await self.command(seat, "ring", "building", action.arg.upper())
        elif v == "buy" and n % 2 == 0:
            await self.command(seat, "buy", "card", action.arg)
        elif v == "end" and n % 5 == 0:
            await self.command(seat, "end")
        elif v == "done" and n % 5 == 0:
            await self.command(seat, "done")
        elif v in ("mark", "reroll", "done", "end", "pay", "take", "spend"):
            await self.click(seat, panel, text)
        else:
            await self.choose(seat, panel, text)
        return True


async def test_four_player_table_to_the_end_with_a_steal_answered_by_dm(world: World, fixed_seed: None) -> None:
    w = world
    await open_table(w, joiners=(w.bob,))
    board = await w.board()
    assert board.attachments and board.attachments[0].data.startswith(b"\x89PNG")
    driver = Driver(w, {0: w.alice, 1: w.bob})
    for _ in range(1000):
        if not await driver.step():
            break
    final = await w.board(lambda m: any(f.get("name") == "Result" for f in m.embeds[0].get("fields", [])))
    assert "Game over" in str(final.embeds[0]) and final.components == []
    assert driver.gave_by_dm >= 1
    assert driver.how.get("button") and driver.how.get("select") and driver.how.get("dice select")
    assert any(k.startswith("/trick") for k in driver.how), driver.how
    print(driver.how, driver.count)
