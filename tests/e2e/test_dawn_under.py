"""Dawn Under end to end through the local Discord: `/dawn` commands, the live board's components,
plagues, simultaneous gifts, and the memory guarantee checked in the channel history at every step."""

from __future__ import annotations

import asyncio
import json
import re
import types
from typing import Any

import pytest

from bot.rules import Rng
from bot.rules.dawn_under import GAME, Action
from bot.store import TableRow
from bot.tables import service as service_module
from tests.e2e.conftest import World
from tests.fakediscord import Message, User

GRAVE_ID = re.compile(r"\b([A-H][1-8])\b")
KEY = "dawn_under"


# -- driving the table ------------------------------------------------------------------------------
def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """New tables get this seed (the service draws it from `secrets`), so a game is reproducible."""
    monkeypatch.setattr(service_module, "secrets", types.SimpleNamespace(randbits=lambda _bits: seed))


async def open_table(w: World, *joiners: User, bots: int = 0) -> int:
    r = await w.server.slash(w.alice, w.chan, "game new", game=KEY)
    lobby = r.response
    assert lobby is not None
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    assert w.bot is not None
    return (await w.bot.service.table_in_channel(w.chan.id)).id


class Table:
    """The test's handle on one table: the store (as oracle), the live board, and the memory checks."""

    def __init__(self, w: World, table_id: int) -> None:
        self.w = w
        self.id = table_id
        self.seen_seq = 0  # actions already checked
        self.board_id: int | None = None
        self.shown_version = -1
        self.revealed: set[str] = set()
        self.steps = 0

    @property
    def service(self) -> Any:
        assert self.w.bot is not None
        return self.w.bot.service

    async def row(self) -> TableRow:
        row: TableRow = await self.service.table(self.id)
        return row

    async def state(self) -> dict[str, Any]:
        row = await self.row()
        return GAME.load_state(row.state or {})

    async def settle(self) -> tuple[TableRow, Message]:
        """Wait until the live board shows the stored version; return both."""
        for _ in range(500):
            row = await self.row()
            if row.board_message_id:
                board = self.w.server.message(row.board_message_id)
                footer = board.embeds[0].get("footer", {}).get("text", "") if board.embeds else ""
                if footer.startswith(f"v{row.version} "):
                    return row, board
            await asyncio.sleep(0.01)
        raise AssertionError("the live board never showed the stored version")

    async def check_memory(self) -> tuple[TableRow, Message]:
        """The closed-lid rule, in the channel as a member sees it now (after every step).

        * Exactly one board message exists and it is edited in place (never reposted).
        * No kept message (anything but the live board) names a grave in its text or embeds.
        * The live board names a grave only while it is shown (open or ajar, the plague's rat and its
          surroundings, the pending grave, a 2-player blocked mark) or when the moves since the previous
          step revealed it — the board is rewritten by the next move, so nothing stays readable.
        * /game log never names a grave.
        """
        row, board = await self.settle()
        if self.board_id is None:
            self.board_id = board.id
        assert board.id == self.board_id, "the live board was reposted instead of edited"
        boards = [m for m in self.w.server.messages(self.w.chan) if m.embeds and "· table #" in str(m.embeds[0])]
        assert [m.id for m in boards] == [board.id]
        for m in self.w.server.messages(self.w.chan):
            if m.id == board.id:
                continue
            text = m.content + json.dumps(m.embeds)
            assert not GRAVE_ID.search(text), f"a kept message names a grave: {text[:300]}"
        view = GAME.view(GAME.load_state(row.state or {}), None)
        allowed = {c["id"] for c in view["graves"] if c["state"] in ("open", "ajar")}
        allowed |= set(view["blocked"])
        if view["pending_grave"]:
            allowed.add(view["pending_grave"])
        if view["plague"]:
            allowed |= {view["plague"]["center"], *view["plague"]["surrounding"]}
        if row.version != self.shown_version:  # the board now shows a new change: only its reveals
            self.revealed = set()
            for a in await self.service.store.actions(self.id):
                if a.seq > self.seen_seq:
                    for ev in a.events:
                        self.revealed |= set(GRAVE_ID.findall(str(ev["text"])))
                self.seen_seq = max(self.seen_seq, a.seq)
            self.shown_version = row.version
        allowed |= self.revealed
        named = set(GRAVE_ID.findall(board.content + json.dumps(board.embeds)))
        assert named <= allowed, f"the live board names closed graves {named - allowed}: {board.embeds[0]['description']}"
        for _seq, _who, line in await self.service.log(self.id):
            assert not GRAVE_ID.search(line), f"/game log names a grave: {line}"
        self.steps += 1
        return row, board


def button_for(message: Message, notation: str) -> dict[str, Any] | None:
    for b in message.buttons:
        if b.get("custom_id", "").endswith(f":{notation}"):
            return b
    return None


def select_for(message: Message, notation: str) -> dict[str, Any] | None:
    for s in message.selects:
        if any(o["value"] == notation for o in s.get("options", [])):
            return s
    return None


async def do(w: World, user: User, board: Message, action: Action, *, slash: bool) -> None:
    """Make `action` as a player would: `/dawn flip`, a board menu or button, or the gift panel."""
    text = GAME.format_action(action)
    if action.verb == "flip" and slash:
        r = await w.server.slash(user, w.chan, "dawn flip", grave=action.grave)
        assert r.ephemeral and not r.content.startswith("Sorry"), r.content
        return
    if action.verb == "give":
        r = await w.server.click(user, board, label="Choose my gift")
        panel = r.response
        assert panel is not None and r.ephemeral, "the gift choice is delivered to the giver only"
        button = button_for(panel, text)
        assert button is not None, f"no {text!r} on the gift panel: {panel.buttons}"
        await w.server.click(user, panel, button["custom_id"])
        assert panel.content.startswith("✅"), panel.content
        return
    button = button_for(board, text)
    if button is not None:
        r = await w.server.click(user, board, button["custom_id"])
    else:
        select = select_for(board, text)
        assert select is not None, f"{text!r} is neither a button nor a menu option on the board"
        r = await w.server.select(user, board, select["custom_id"], [text])
    for m in r.messages:
        assert not (m.ephemeral and m.content.startswith(("Sorry", "This", "Nothing"))), m.content


class Human:
    """A simulated player: remembers what its seat's panel and the board showed, and plays like a
    careful person (the same policy the bot seats use, fed only that seat's view)."""

    def __init__(self, user: User, seat: int) -> None:
        self.user, self.seat = user, seat
        self.memory: dict[str, Any] = {}
        self.policy = GAME.bot_policy()

    def observe(self, state: dict[str, Any]) -> None:
        self.memory = self.policy.observe(self.memory, GAME.view(state, self.seat))

    def choose(self, state: dict[str, Any], step: int) -> Action:
        view = GAME.view(state, self.seat)
        legal = GAME.legal_actions(state, self.seat)
        return self.policy.choose(view, legal, self.memory, Rng.from_seed(f"human:{self.seat}:{step}"))


# -- the tests -----------------------------------------------------------------------------------------
async def test_three_players_one_human_two_bots_to_the_end_by_dawn_flip_and_buttons(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    fixed_seed(monkeypatch, 10)  # a game in which the human flips, sleeps, stops, hides garlic and receives
    t = Table(w, await open_table(w, bots=2))
    human = Human(w.alice, 0)
    used = set()
    for step in range(400):
        row, board = await t.check_memory()
        if row.status != "active":
            break
        state = GAME.load_state(row.state or {})
        human.observe(state)
        assert GAME.to_act(state) == {0}, "bots never leave the human waiting on them"
        action = human.choose(state, step)
        if action.verb == "flip" and step % 5 == 0:
            choices = await w.server.autocomplete(w.alice, w.chan, "dawn flip", "grave", partial=action.grave[0])
            assert action.grave in [c["value"] for c in choices]
            assert all(c["value"].startswith(action.grave[0]) for c in choices)
        await do(w, w.alice, board, action, slash=step % 2 == 0)
        used.add((action.verb, "slash" if step % 2 == 0 and action.verb == "flip" else "board"))
        human.observe(await t.state())
    row, board = await t.check_memory()
    assert row.status == "finished", "the game ended"
    assert "Game over" in str(board.embeds[0]) and board.components == []
    assert {("flip", "slash"), ("flip", "board")} <= used, used
    assert {"sleep", "stop", "garlic", "put"} <= {verb for verb, _ in used}, used
    assert w.server.dms(w.alice) == [], "Dawn Under sends no DMs: they would keep reveals"
    replayed = await t.service.replay(t.id)
    assert GAME.dump_state(replayed) == row.state
