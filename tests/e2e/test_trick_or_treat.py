"""Trick or Treat Halloween end to end through the local Discord server.

The two human seats are driven by a deterministic policy (the game's own bot, plus "rob the other human
whenever a plain steal is possible") and every decision is made the way a player would: a button or a
select of the private panel (DM, or the ephemeral panel), or a `/trick` command with autocomplete.
The table seed is fixed so that the game contains a steal whose human victim answers by DM.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

import bot.tables.service as service_module
from bot.rules import Rng
from bot.rules.trick_or_treat import GAME
from bot.rules.trick_or_treat.game import Action, card_words
from tests.e2e.conftest import World
from tests.fakediscord import Message, User

SEED = 227  # with the policies below, a human is robbed by the other human and gives by DM (issue #13: was 230)
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
    """The move notation of a panel button (roll buttons add `|<dice key>|<on/off>` after it)."""
    return str(component.get("custom_id", "")).split(":", 4)[-1].split("|")[0]


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
        self.handovers = 0
        self.by_command: set[str] = set()
        self.last_seat: int | None = None

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
        if panel.content.startswith("⚠️"):  # the move would waste something: the player says yes
            assert arg == "end", panel.content
            yes = next(b for b in panel.buttons if b.get("label", "").startswith("Yes, "))
            await self.w.server.click(self.users[seat], panel, custom_id=yes["custom_id"])
            self.note("confirmed")
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
        if seat != self.last_seat:
            self.handovers += 1
            self.last_seat = seat
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
        commands: dict[str, tuple[str, str | None, str]] = {
            "move": ("move", "street", action.arg.upper()),
            "ring": ("ring", "building", action.arg.upper()),
            "grab": ("grab", "building", action.arg.upper()),
            "reveal": ("reveal", "building", action.arg.upper()),
            "set": ("set", "faces", f"{action.arg} {action.arg2}"),
            "supply": ("supply", "candy", action.arg),
            "discount": ("discount", None, ""),
            "buy": ("buy", "card", f"{action.arg} -{action.arg2}" if action.arg2 else action.arg),
            "pay": ("candy", "kind", action.arg),
            "take": ("candy", "kind", action.arg),
            "spend": ("candy", "kind", action.arg),
            "save": ("candy", "kind", action.arg),
            "done": ("done", None, ""),
            "end": ("end", None, ""),
        }
        if v in commands and (v not in self.by_command or n % 4 == 0):  # each at least once, then now and then
            self.by_command.add(v)
            await self.command(seat, *commands[v])
        elif v in ("mark", "reroll", "done", "end", "pay", "take", "spend", "save"):
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
    used = {k for k in driver.how if k.startswith("/trick")}
    assert len(used) >= 10, driver.how
    assert driver.how.get("confirmed"), driver.how  # End turn with dice unused asked first
    # the channel stays readable: one live board, and a ping only when another player's decision begins
    boards = [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]
    assert len(boards) == 1
    assert len(pings(w, w.alice)) + len(pings(w, w.bob)) <= driver.handovers
    # hidden information: the cards still in the deck and the buildings still face down were never named
    assert w.bot is not None
    table = await w.bot.service.store.get_table(int(boards[0].embeds[0]["title"].rsplit("#", 1)[1]))
    assert table is not None and table.state is not None
    history = [m.content + json.dumps(m.embeds, ensure_ascii=False) for m in w.server.messages(w.chan)]
    history += [text for _seq, _who, text in await w.bot.service.log(table.id)]
    # score cards are named by worth and cost ("the 4-point card (4 corn candy)"), never by their data id:
    # every one named is a card bought or on offer, so none still in the deck was told
    named_cards = {m for text in history for m in re.findall(r"the \d+-point card \([^)]*\)", text)}
    public = [c for p in table.state["players"] for c in p["cards"]] + list(table.state["row"])
    assert named_cards and named_cards <= {card_words(c) for c in public}, named_cards
    assert not [t for t in history if re.search(r"card #\d", t)]
    face_down = [f"{'ABCD'[i % 4]}{i // 4 + 1}" for i, c in enumerate(table.state["city"]) if not c["up"]]
    for name in face_down:
        assert not any(f"at {name}: a " in text or f"peeks at {name}" in text for text in history), name


# -- focused scenarios -----------------------------------------------------------------------------


async def inject(w: World, state: dict[str, Any]) -> int:
    """Put the table in a prepared position (a test-only log row that replay ignores); return its version."""
    assert w.bot is not None
    table = await current(w)
    assert table is not None
    awaited = {s: table.version + 1 for s in GAME.to_act(state)}
    return await w.bot.service.store.apply(
        table.id,
        expected_version=table.version,
        seat=0,
        action={"kind": "setup"},
        events=[],
        state=GAME.dump_state(state),
        awaited=awaited,
        kind="setup",
    )


def pings(w: World, user: User) -> list[Message]:
    return [m for m in w.server.messages(w.chan) if m.content.startswith(f"<@{user.id}>") and "your move" in m.content]


async def test_roll_and_action_panels_keep_the_channel_quiet(world: World) -> None:
    w = world
    await open_table(w, bots=1)
    d = Driver(w, {0: w.alice})
    panel = await d.panel(0)
    await d.choose(0, panel, "choose witch")
    await d.choose(0, panel, "start n2")
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["phase"] == "roll" and set(table.awaited) == {0}  # seat 1 starts, the bot followed
    panel = await d.panel(0)
    assert "is rolling" in panel.content and "🎲" in panel.content
    labels = buttons(panel)
    assert [label.split(":")[0] for label in labels[:6]] == ["1", "2", "3", "4", "5", "6"]
    assert all(label.endswith("keep") for label in labels[:6])
    reroll = panel.button(custom_id=next(b["custom_id"] for b in panel.buttons if arg_of(b) == "reroll"))
    assert reroll.get("disabled") and "Done: keep these dice" in labels
    # toggle die 2 for rerolling, then reroll it
    await d.click(0, panel, "mark 2")
    assert buttons(panel)[1].endswith("→ reroll") and "`2`" in panel.content
    reroll = next(b for b in panel.buttons if arg_of(b) == "reroll")
    assert not reroll.get("disabled") and reroll["label"].startswith("Reroll 1 marked (2 left)")
    await d.click(0, panel, "reroll")
    assert panel.content.startswith("✅ Reroll") and "1 reroll left" in panel.content
    # the dice select rerolls several dice in one go
    select = next(s for s in panel.selects if ":ttroll:" in s["custom_id"])
    assert select["max_values"] == 6 and len(select["options"]) == 6
    await w.server.select(w.alice, panel, select["custom_id"], ["1", "3"])
    assert panel.content.startswith("✅ Rerolled dice 1, 3") and "is acting" in panel.content
    # the action panel: reachable streets with their footprint cost, End turn
    placeholders = [s.get("placeholder", "") for s in panel.selects]
    assert any("Walk to a street" in p for p in placeholders) or "🎲 left:" in panel.content
    for s in panel.selects:
        if "Walk to a street" in s.get("placeholder", ""):
            assert all("👣" in o["label"] for o in s["options"])
    # 「除遊戲開始外，玩家不能將自家立牌停留在城市區邊緣」: the Witch's 👣👣 can step in, so no End turn yet
    assert "End turn" not in buttons(panel)
    await d.choose(0, panel, "move v12")
    assert "End turn" in buttons(panel)
    # a single board message was edited all along; alice was pinged only when her decisions began
    boards = [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]
    assert len(boards) == 1
    await w.server.wait_for_message(w.chan, lambda m: m.id == boards[0].id and m.edits >= 4)
    assert "<@" not in boards[0].content, "the live board does not keep pinging the first player"
    assert len(pings(w, w.alice)) <= 1
    await d.click(0, panel, "end")
    table = await current(w)
    assert table is not None


async def test_steal_victim_with_closed_dms_answers_on_the_board_and_a_bot_victim_answers_itself(
    world: World,
) -> None:
    from tests.rules.test_trick_or_treat import build

    w = world
    await open_table(w, bots=1, joiners=(w.carol,))  # alice, carol (DMs closed), Bot 1
    await w.board()
    state = build(
        3,
        chars=["witch", "hero", "cowboy"],
        pos=["V22", "V22", "V22"],
        dice=["club", "club", "club", "club", "club", "club"],
        candy={1: {"corn": 1, "donut": 2}, 2: {"waffle": 2, "lolly": 1}},
    )
    version = await inject(w, state)
    # alice robs carol with /trick steal (autocomplete offers both victims by name)
    choices = await w.server.autocomplete(w.alice, w.chan, "trick steal", "player", partial="")
    assert [c["value"] for c in choices] == ["2", "3"] and "carol" in choices[0]["name"]
    r = await w.server.slash(w.alice, w.chan, "trick steal", player="2")
    assert r.ephemeral and r.content.startswith("✅ Steal from P2") and "waiting for carol" in r.content
    # carol cannot get DMs: told once in the channel (that notice is her ping for this decision), and
    # answers from the board's panel button
    notice = await w.server.wait_for_message(w.chan, lambda m: "can't send you direct messages" in m.content)
    assert f"<@{w.carol.id}>" in notice.content
    assert not [m for m in w.server.messages(w.chan) if m.content.startswith(f"<@{w.carol.id}> — your move")]
    board = await w.board()
    assert "carol chooses a candy to give to alice" in str(board.embeds[0])
    r = await w.server.click(w.carol, board, label="My panel")
    assert r.ephemeral and "Your move" in r.content
    panel = r.response
    assert panel is not None
    assert sorted(buttons(panel)) == ["Give corn candy (you have 1)", "Give donut (you have 2)"]
    choices = await w.server.autocomplete(w.carol, w.chan, "trick candy", "kind", partial="")
    assert [c["value"] for c in choices] == ["corn", "donut"] and "thief" in choices[0]["name"]
    assert await w.server.autocomplete(w.alice, w.chan, "trick candy", "kind", partial="") == []
    r = await w.server.click(w.carol, panel, label="Give donut (you have 2)")
    assert panel.content.startswith("✅ Give a donut") and "waiting for alice" in panel.content
    assert w.server.dms(w.carol) == []
    # alice goes on (her panel comes by DM) and robs the bot, which picks its candy itself
    dm = await w.server.wait_for_dm(w.alice, lambda m: bool(m.components) and "alice is acting" in m.content)
    select = next(s for s in dm.selects if any(o["value"] == "steal 3" for o in s["options"]))
    await w.server.select(w.alice, dm, select["custom_id"], ["steal 3"])
    assert dm.content.startswith("✅ Steal from P3") and "alice is acting" in dm.content
    table = await current(w)
    assert table is not None and table.state is not None
    alice = table.state["players"][0]["candy"]
    assert alice["donut"] == 1 and alice["waffle"] + alice["lolly"] == 1 and table.state["pending"] is None
    assert table.version == version + 4  # steal, give, steal, the bot's own give
    # nothing of this was a secret, but the log of the channel never speaks for the victim's DM
    log = await w.server.slash(w.alice, w.chan, "game log")
    assert "gives" in log.content or "steals" in log.content


async def test_bad_input_to_trick_commands(world: World) -> None:
    w = world
    other = w.server.add_channel(w.guild, "other")
    r = await w.server.slash(w.alice, other, "game new", game="takeaway")
    assert not r.ephemeral
    await open_table(w, bots=1, joiners=(w.bob,))
    d = Driver(w, {0: w.alice, 1: w.bob})
    await d.panel(0)
    table = await current(w)
    assert table is not None
    before = table.version
    # the wrong game's table (the Take-Away lobby in #other)
    r = await w.server.slash(w.alice, other, "trick end")
    assert r.ephemeral and "plays Take-Away" in r.content and "/trick" in r.content
    assert await w.server.autocomplete(w.alice, other, "trick move", "street", partial="") == []
    # not seated, not your turn
    r = await w.server.slash(w.dave, w.chan, "trick end")
    assert r.ephemeral and "not seated" in r.content
    r = await w.server.slash(w.bob, w.chan, "trick character", name="witch")
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    # illegal values
    r = await w.server.slash(w.alice, w.chan, "trick character", name="vampire")
    assert r.ephemeral and "not a character" in r.content
    r = await w.server.slash(w.alice, w.chan, "trick move", street="Z9")
    assert r.ephemeral and "not a street" in r.content
    r = await w.server.slash(w.alice, w.chan, "trick ring", building="B2")
    assert r.ephemeral and "not a legal move" in r.content
    r = await w.server.slash(w.alice, w.chan, "trick reroll", dice="1 3")
    assert r.ephemeral and "only while rolling" in r.content
    r = await w.server.slash(w.alice, w.chan, "trick candy", kind="corn")
    assert r.ephemeral and "Nobody is asking you for a candy" in r.content
    table = await current(w)
    assert table is not None and table.version == before
    # the character autocomplete lists the free characters only
    choices = await w.server.autocomplete(w.alice, w.chan, "trick character", "name", partial="wit")
    assert [c["value"] for c in choices] == ["witch"]
    await w.server.slash(w.alice, w.chan, "trick character", name="witch")
    choices = await w.server.autocomplete(w.bob, w.chan, "trick character", "name", partial="")
    assert "witch" not in [c["value"] for c in choices] and choices
    # a die that does not exist, once rolling
    await w.server.slash(w.bob, w.chan, "trick character", name="hero")
    for user in (w.alice, w.bob):
        await w.server.slash(user, w.chan, "trick entrance", name="N1")
    table = await current(w)
    assert table is not None and table.state is not None and table.state["phase"] == "roll"
    r = await w.server.slash(w.alice, w.chan, "trick reroll", dice="9")
    assert r.ephemeral and "no die 9" in r.content


# -- the panels against Discord's limits, over random positions (no server needed) ------------------


def fake_table(state: dict[str, Any], n: int) -> Any:
    from bot.store import SeatRow, TableRow

    seats = tuple(SeatRow(seat=i, user_id=1000 + i, name=f"player number {i + 1} with a long name") for i in range(n))
    return TableRow(
        id=123456789,
        guild_id=1,
        channel_id=2,
        game="trick_or_treat",
        options={},
        seed=1,
        host_id=1000,
        status="active",
        version=987654,
        state=state,
        awaited={s: 987654 for s in GAME.to_act(state)},
        outcome=None,
        lobby_message_id=None,
        board_message_id=None,
        reminder_after=3600,
        reminded_at=None,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
    )


def check_panel(items: list[Any], legal: list[str]) -> None:
    rows: dict[int, list[dict[str, Any]]] = {}
    reachable: set[str] = set()
    for item in items:
        data = item.item.to_component_dict()
        rows.setdefault(item.item.row, []).append(data)
        cid = data["custom_id"]
        assert len(cid) <= 100
        verb, arg = cid.split(":")[1], cid.split(":", 4)[4]
        if data["type"] == 2:
            assert len(data["label"]) <= 80
            reachable.add(arg.split("|")[0])
        else:
            assert 1 <= len(data["options"]) <= 25 and len(data.get("placeholder", "")) <= 150
            for o in data["options"]:
                assert len(o["label"]) <= 100 and len(o["value"]) <= 100 and len(o.get("description") or "") <= 100
                if verb == "ttroll":
                    reachable.update({f"mark {o['value']}", "reroll"})
                else:
                    reachable.add(o["value"].split("|")[0])
    ids = [c["custom_id"] for row in rows.values() for c in row]
    assert len(ids) == len(set(ids)), "custom ids are unique within a message"
    assert set(rows) <= set(range(5))
    for row in rows.values():
        assert len(row) <= 5 and (all(c["type"] == 2 for c in row) or len(row) == 1)
    assert set(legal) <= reachable, set(legal) - reachable


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_every_panel_fits_discord_and_offers_every_legal_move(players: int) -> None:
    from cogs.trick_or_treat import TrickUI

    ui = TrickUI()
    random_policy = __import__("bot.rules", fromlist=["RandomPolicy"]).RandomPolicy()
    for seed in range(2):
        state = GAME.new(players, seed)
        rng = Rng.from_seed(f"panels:{players}:{seed}")
        for step in range(600):
            if GAME.outcome(state) is not None:
                break
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            items = ui.panel_items(GAME, fake_table(state, players), seat, legal, 0)
            check_panel(items, [GAME.format_action(a) for a in legal])
            policy = random_policy if step % 2 else POLICY
            action = policy.choose(GAME.view(state, seat), legal, {}, rng)
            state, _ = GAME.apply(state, seat, action)


async def test_stale_panels_and_a_restart_mid_turn(world: World) -> None:
    w = world
    await open_table(w, bots=1)
    d = Driver(w, {0: w.alice})
    panel = await d.panel(0)
    await d.choose(0, panel, "choose hero")
    await d.choose(0, panel, "start w2")
    dm = await d.panel(0)  # the roll panel, in the same DM message
    hand = (await w.server.slash(w.alice, w.chan, "game hand")).response  # a second surface, same version
    assert hand is not None and any(arg_of(b) == "mark 1" for b in hand.buttons)
    await d.click(0, dm, "mark 1")
    await d.click(0, dm, "reroll")
    # the ephemeral copy shows dice that were rerolled since: it says so and links the board, changes nothing
    table = await current(w)
    assert table is not None
    r = await w.server.click(w.alice, hand, custom_id=next(b["custom_id"] for b in hand.buttons if arg_of(b) == "done"))
    answer = r.followups[-1]  # the click was acknowledged at once; the verdict follows, only for her
    assert answer.ephemeral and "out of date" in answer.content and "discord.com/channels/" in answer.content
    assert (await current(w)).version == table.version  # type: ignore[union-attr]
    # a new process on the same database: the DM panel's buttons still work
    assert w.bot is not None
    await w.bot.close()
    await w.boot()
    before = (await current(w)).version  # type: ignore[union-attr]
    await d.click(0, dm, "done")
    assert dm.content.startswith("✅ Keep these dice")
    # the click counted: she acts now, or (nothing left to do) her turn ended by itself and came back
    assert (await current(w)).version > before  # type: ignore[union-attr]
    assert "alice is acting" in dm.content or "alice is rolling" in dm.content, dm.content


async def test_quick_clicks_on_the_dice_all_count_and_a_double_click_toggles_once(world: World) -> None:
    w = world
    await open_table(w, bots=1)
    d = Driver(w, {0: w.alice})
    panel = await d.panel(0)
    await d.choose(0, panel, "choose witch")
    await d.choose(0, panel, "start e1")
    panel = await d.panel(0)
    hand = (await w.server.slash(w.alice, w.chan, "game hand")).response  # a second copy of the panel
    assert hand is not None
    ids = {arg_of(b): b["custom_id"] for b in panel.buttons}
    # four clicks before the panel could update: dice 1, 2, 3 and a double click on 3
    clicks = [w.server.click(w.alice, panel, custom_id=ids[f"mark {n}"]) for n in (1, 2, 3, 3)]
    records = await asyncio.gather(*clicks)
    for rec in records:  # each click is answered in turn (a deferred update, then its own edit)
        await rec.wait_for(lambda r: r.activity > 0)
    assert not any(f.ephemeral for r in records for f in r.followups), "no click was refused"
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["marked"] == [True, True, True, False, False, False]
    # the panel shown last is the latest one
    assert [label.endswith("→ reroll") for label in buttons(panel)[:6]] == [True] * 3 + [False] * 3
    await d.click(0, panel, "reroll")
    table = await current(w)
    assert table is not None and table.state is not None and table.state["rerolls"] == 1
    # the copy drawn before the reroll: its dice are gone, so its toggles are out of date
    r = await w.server.click(
        w.alice, hand, custom_id=next(b["custom_id"] for b in hand.buttons if arg_of(b) == "mark 4")
    )
    assert "out of date" in r.followups[-1].content
    assert (await current(w)).version == table.version  # type: ignore[union-attr]


async def test_a_bot_robs_a_human_who_answers_by_dm(world: World) -> None:
    from tests.rules.test_trick_or_treat import build

    w = world
    r = await w.server.slash(w.alice, w.chan, "game new", game="trick_or_treat")
    lobby = r.response
    assert lobby is not None
    await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    await w.board()
    # the bot (seat 2) stands on alice's street with six clubs and nothing else to do
    state = build(
        2,
        chars=["witch", "hero"],
        pos=["V22", "V22"],
        dice=["club"] * 6,
        candy={0: {"corn": 1, "donut": 2}},
        seat=1,
    )
    await inject(w, state)
    assert w.bot is not None
    cog: Any = w.bot.get_cog("TableCog")
    change = await w.bot.service.resume_bots((await current(w)).id)  # type: ignore[union-attr]
    await cog.deliver(change)
    dm = await w.server.wait_for_dm(w.alice, lambda m: any("Give" in b.get("label", "") for b in m.buttons))
    assert "alice chooses a candy to give to Bot 1" in dm.content
    # one notice for the decision: the DM panel, and no channel ping besides it
    assert not [m for m in w.server.messages(w.chan) if f"<@{w.alice.id}>" in m.content]
    await w.server.click(w.alice, dm, label="Give corn candy (you have 1)")
    assert dm.content.startswith("✅ Give a corn candy")
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["players"][1]["candy"]["corn"] == 1  # the bot has it and went on with its turn


# -- issue #11: confirmation, the turn that ends by itself, walks and the first action ---------------


async def seated_panel(w: World, state: dict[str, Any]) -> tuple[Message, int]:
    """alice (seat 1, playing a bot) in a prepared position, with her panel opened by /game hand."""
    await open_table(w, bots=1)
    await w.board()
    version = await inject(w, state)
    r = await w.server.slash(w.alice, w.chan, "game hand")
    assert r.ephemeral and r.response is not None and r.response.components
    return r.response, version


def unused_dice_position() -> dict[str, Any]:
    from tests.rules.test_trick_or_treat import build

    return build(
        2,
        chars=["hero", "witch"],
        pos=["V22", "V43"],
        dice=["glass", "glass", "pumpkin", "club", "club", "candy"],
        auto_end=True,
    )


async def test_end_turn_with_unused_dice_asks_and_cancel_changes_nothing_and_yes_ends(world: World) -> None:
    w = world
    panel, version = await seated_panel(w, unused_dice_position())
    end = next(b for b in panel.buttons if arg_of(b) == "end")
    await w.server.click(w.alice, panel, custom_id=end["custom_id"])
    # the panel itself turns into the question (only alice sees it), nothing is played yet
    assert panel.content.startswith("⚠️ End your turn with 🔍 🔍 🎃 🏏 🏏 🍬 🔍 unused?"), panel.content
    assert buttons(panel) == ["Yes, end your turn", "Cancel"]
    assert (await current(w)).version == version  # type: ignore[union-attr]
    await w.server.click(w.alice, panel, label="Cancel")
    assert "End turn" in buttons(panel) and "Your move" in panel.content
    assert (await current(w)).version == version  # type: ignore[union-attr]
    # asked again, and this time yes: the turn ends
    end = next(b for b in panel.buttons if arg_of(b) == "end")
    await w.server.click(w.alice, panel, custom_id=end["custom_id"])
    await w.server.click(w.alice, panel, label="Yes, end your turn")
    assert panel.content.startswith("✅ End your turn"), panel.content
    lines = [text for _seq, _who, text in await w.bot.service.log((await current(w)).id)]  # type: ignore[union-attr]
    assert any("alice ends the turn" in text for text in lines)


async def test_a_stale_confirmation_is_refused_and_a_typed_end_does_not_ask(world: World) -> None:
    w = world
    panel, _version = await seated_panel(w, unused_dice_position())
    end = next(b for b in panel.buttons if arg_of(b) == "end")
    await w.server.click(w.alice, panel, custom_id=end["custom_id"])
    assert buttons(panel) == ["Yes, end your turn", "Cancel"]
    r = await w.server.slash(w.alice, w.chan, "trick end")  # explicit: no question
    assert r.ephemeral and r.content.startswith("✅ End your turn"), r.content
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["turn"] == 0 and table.state["phase"] == "roll"  # the bot played; alice rolls again
    # the old question's Yes belongs to the previous turn: refused, nothing changes
    r = await w.server.click(w.alice, panel, label="Yes, end your turn")
    answer = r.followups[-1] if r.followups else r.response
    assert answer is not None and "out of date" in answer.content, answer.content
    assert (await current(w)).version == table.version  # type: ignore[union-attr]


async def test_the_turn_ends_by_itself_when_end_is_the_only_move_left(world: World) -> None:
    from tests.rules.test_trick_or_treat import build

    w = world
    state = build(2, chars=["hero", "witch"], pos=["V22", "V43"], dice=["feet", "club"], auto_end=True)
    state["perm"] = []
    state["sym"] = [d for d in state["sym"] if d["src"] != "perm"]  # no Hero magnifier: nothing else to do
    panel, _version = await seated_panel(w, state)
    await w.server.select(w.alice, panel, select_of(panel, "move v12"), ["move v12"])
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["players"][0]["pos"] == "V12" and table.state["turn"] == 0 and table.state["round"] == 2
    lines = [text for _seq, _who, text in await w.bot.service.log(table.id)]  # type: ignore[union-attr]
    assert any("alice's turn ends (nothing left to do)" in text for text in lines), lines
    assert not any("alice ends the turn" in text for text in lines)


def select_of(panel: Message, value: str) -> str:
    return str(next(s for s in panel.selects if any(o["value"] == value for o in s["options"]))["custom_id"])


async def test_a_walk_of_several_streets_is_one_choice(world: World) -> None:
    from tests.rules.test_trick_or_treat import build

    w = world
    state = build(
        2, chars=["hero", "witch"], pos=["V22", "V43"], dice=["feet2", "feet2", "pumpkin", "pumpkin"], auto_end=True
    )
    panel, version = await seated_panel(w, state)
    walk = next(s for s in panel.selects if "Walk to a street" in s.get("placeholder", ""))
    far = [o for o in walk["options"] if o["value"].startswith("walk ")]
    assert far and all(" via " in o["label"] and "👣" in o["label"] for o in far)
    choice = next(o for o in far if len(o["value"].split()) == 4)  # three streets in one click
    path = choice["value"].split()[1:]
    await w.server.select(w.alice, panel, walk["custom_id"], [choice["value"]])
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["players"][0]["pos"] == path[-1].upper() and table.version == version + 3
    via = ", ".join(p.upper() for p in path[:-1])
    assert panel.content.startswith(f"✅ Walk to {path[-1].upper()} via {via}"), panel.content


async def test_the_first_action_implies_done_rolling(world: World) -> None:
    from tests.rules.test_trick_or_treat import build

    w = world
    state = build(
        2,
        chars=["hero", "witch"],
        pos=["V22", "V43"],
        dice=["feet2", "pumpkin", "pumpkin", "club", "club", "candy"],
        act=False,
        auto_end=True,
    )
    panel, version = await seated_panel(w, state)
    assert "is rolling" in panel.content
    menus = {s.get("placeholder", ""): s for s in panel.selects}
    walk = menus["…or keep these dice and walk…"]
    act = menus["…or keep these dice and act…"]
    assert any(o["value"].startswith("ring ") for o in act["options"])
    value = next(o["value"] for o in walk["options"] if o["value"].startswith("move v12|"))
    await w.server.select(w.alice, panel, walk["custom_id"], [value])
    table = await current(w)
    assert table is not None and table.state is not None
    assert table.state["phase"] == "act" and table.state["players"][0]["pos"] == "V12"
    assert table.version == version + 2  # done, then the move
    assert panel.content.startswith("✅ Keep these dice, then move to street V12") and "is acting" in panel.content
