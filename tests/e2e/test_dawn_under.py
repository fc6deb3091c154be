"""Dawn Under end to end through the local Discord: `/dawn` commands, the live board's components,
plagues, simultaneous gifts, and the memory guarantee checked in the channel history at every step."""

from __future__ import annotations

import asyncio
import io
import json
import re
import types
from typing import Any

import discord
import pytest
from PIL import Image

from bot.rules import Rng
from bot.rules.dawn_under import GAME, Action
from bot.rules.dawn_under.data import BOARD
from bot.store import TableRow
from bot.tables import service as service_module
from cogs.common.ui import render_png
from tests.e2e.conftest import World, button_for, select_for
from tests.fakediscord import Message, User

GRAVE_ID = re.compile(r"\b([A-H][1-8])\b")
KEY = "dawn_under"


# -- driving the table ------------------------------------------------------------------------------
def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """New tables get this seed (the service draws it from `secrets`), so a game is reproducible."""
    fake = types.SimpleNamespace(randbits=lambda _bits: seed, token_hex=lambda n: "5a" * n)  # the salt, too
    monkeypatch.setattr(service_module, "secrets", fake)


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
        alt = " ".join(a.description or "" for a in board.attachments)  # the image's alt text, too
        named = set(GRAVE_ID.findall(board.content + json.dumps(board.embeds) + alt))
        text = board.embeds[0].get("description", "")
        assert named <= allowed, f"the live board names closed graves {named - allowed}: {text}"
        for _seq, _who, line in await self.service.log(self.id):
            assert not GRAVE_ID.search(line), f"/game log names a grave: {line}"
        if self.steps % 10 == 0:  # the image is the lasting public view's picture, nothing more
            public = GAME.lasting_view(self.service.view_for(row, None), row.options)
            assert all("holds" not in c and "lid" not in c for c in public["graves"] if c["state"] == "closed")
            assert not [c for c in public["graves"] if c["state"] == "ajar"] or not GAME.glimpse_seconds(row.options)
            shown, drawn = board.attachments[0].data, render_png(KEY, public)
            # the picture, not the bytes: a palette's entry order follows the renderer caches' history
            # (a fresh render worker and this test process differ; tests/rendering/test_caches.py)
            assert _pixels(shown) == _pixels(drawn), f"v{row.version}: the board is not the public view's picture"
        self.steps += 1
        return row, board


def _pixels(png: bytes) -> bytes:
    """An image's RGB pixels: what it shows."""
    with Image.open(io.BytesIO(png)) as img:
        return img.convert("RGB").tobytes()


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


# -- scripted scenarios -------------------------------------------------------------------------------
def ends(state: dict[str, Any], seat: int) -> set[str]:
    row = state["rows"][seat]
    return {row[0].upper(), row[-1].upper()} if row else set()


def harmless(state: dict[str, Any], seat: int, avoid: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Closed graves that are empty, not a rat, and match neither end of `seat`'s row (the oracle)."""
    return [
        g
        for g in state["lid"]
        if g not in state["open"]
        and g not in avoid
        and state["lid"][g] not in ("rat", *ends(state, seat))
        and state["content"][g] is None
    ]


def seed_where(n: int, good: Any) -> int:
    """The first seed whose new game starts with seat 0 and satisfies `good(state)`."""
    for seed in range(1, 5000):
        s = GAME.new(n, seed)
        if s["turn"] == 0 and good(s):
            return seed
    raise AssertionError("no seed found")


def plague_spot(s: dict[str, Any]) -> tuple[str, list[str]] | None:
    """A rat whose surrounding graves are at least three harmless ones for seats 0 and 1, and no rat."""
    for g, lid in s["lid"].items():
        if lid != "rat":
            continue
        around = [h for h in BOARD.adjacent[g] if h in s["lid"]]
        if any(s["lid"][h] == "rat" for h in around):
            continue
        calm = [h for h in around if h in harmless(s, 0) and h in harmless(s, 1)]
        if len(calm) >= 3:
            return g, calm
    return None


async def quiet_turn(w: World, t: Table, user: User, seat: int, avoid: set[str]) -> None:
    """`seat` flips an empty grave that matches nothing and closes it without garlic."""
    _row, board = await t.check_memory()
    state = await t.state()
    assert state["actor"] == seat
    grave = harmless(state, seat, avoid)[0]
    await do(w, user, board, Action("flip", grave), slash=True)
    _row, board = await t.check_memory()
    assert button_for(board, f"garlic {grave}") and button_for(board, f"close {grave}")
    await do(w, user, board, Action("close", grave), slash=False)


async def test_plague_is_passed_on_around_the_table_by_buttons(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    seed = seed_where(3, lambda s: plague_spot(s) is not None)
    rat, calm = plague_spot(GAME.new(3, seed)) or ("", [])
    fixed_seed(monkeypatch, seed)
    t = Table(w, await open_table(w, w.bob, bots=1))  # alice 0, bob 1, Bot 1 2
    _row, board = await t.check_memory()
    await do(w, w.alice, board, Action("flip", rat), slash=True)
    _row, board = await t.check_memory()
    state = await t.state()
    assert state["plague"]["center"] == rat and state["actor"] == 0
    flips = {b["custom_id"].rsplit(":", 1)[1] for b in board.buttons if ":flip " in b.get("custom_id", "")}
    assert flips == {f"flip {g}" for g in BOARD.adjacent[rat] if g in state["lid"]}, "only the surrounding graves"
    assert "Plague at" in board.embeds[0]["description"]
    # alice opens one surrounding grave, then passes the plague on
    await do(w, w.alice, board, Action("flip", calm[0]), slash=False)
    _row, board = await t.check_memory()
    state = await t.state()
    assert state["actor"] == 0 and calm[0] in state["open"], "a harmless flip lets the same player go on"
    stop = button_for(board, "stop")
    assert stop is not None and stop["label"] == "Stop (pass the plague on)"
    await w.server.click(w.alice, board, stop["custom_id"])
    _row, board = await t.check_memory()
    state = await t.state()
    assert state["plague"] is not None and state["actor"] == 1, "the option passes to the left"
    assert "bob may now flip graves around the rat" in board.embeds[0]["description"]
    assert "bob may flip a grave around the rat, or stop" in board.embeds[0]["description"]
    ping = [m for m in w.server.messages(w.chan) if f"<@{w.bob.id}>" in m.content and "your move" in m.content]
    assert ping, "bob is pinged for his part of the plague"
    # alice may no longer flip: it is bob's part
    r = await w.server.click(w.alice, board, button_for(board, f"flip {calm[1]}")["custom_id"])  # type: ignore[index]
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    r = await w.server.slash(w.alice, w.chan, "dawn flip", grave=calm[1])
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    choices = await w.server.autocomplete(w.bob, w.chan, "dawn flip", "grave")
    closed_around = {g for g in BOARD.adjacent[rat] if g in state["lid"] and g not in state["open"]}
    assert {c["value"] for c in choices} == closed_around
    await do(w, w.bob, board, Action("flip", calm[1]), slash=True)
    _row, board = await t.check_memory()
    await w.server.click(w.bob, board, button_for(board, "stop")["custom_id"])  # type: ignore[index]
    # the bot takes its part; then every lid closes, the rat goes and a reserve lid covers its grave
    await t.check_memory()
    state = await t.state()
    assert state["plague"] is None and state["open"] == []
    assert state["lid"][rat] != "rat" and state["rats_out"] == 1
    assert state["turn"] == 1 and state["actor"] == 1, "after alice's plague the turn passes to bob"
    kept = "\n".join(line for _s, _w, line in await t.service.log(t.id))
    assert "found a rat: plague!" in kept and "The plague is over" in kept


def garlic_spot(s: dict[str, Any]) -> bool:
    return len(harmless(s, 0)) > 3 and len(harmless(s, 1)) > 3 and len(harmless(s, 2)) > 3


@pytest.mark.parametrize("together", [False, True], ids=["one-then-the-other", "same-instant"])
async def test_two_givers_choose_at_once_each_in_private(
    world: World, monkeypatch: pytest.MonkeyPatch, together: bool
) -> None:
    w = world
    fixed_seed(monkeypatch, seed_where(3, garlic_spot))
    t = Table(w, await open_table(w, w.bob, w.carol))  # three humans: alice 0, bob 1, carol 2
    users = {0: w.alice, 1: w.bob, 2: w.carol}
    # alice hides garlic in an empty grave
    state = await t.state()
    hideout = harmless(state, 0)[0]
    _row, board = await t.check_memory()
    await do(w, w.alice, board, Action("flip", hideout), slash=True)
    _row, board = await t.check_memory()
    await do(w, w.alice, board, Action("garlic", hideout), slash=False)
    # no panel lists where the garlic lies (the seed: 「要牢記」; option list_garlic=yes lists it to alice)
    _row, board = await t.check_memory()
    mine = await w.server.click(w.alice, board, label="Play")
    assert mine.ephemeral and "Your garlic lies in" not in mine.content
    theirs = await w.server.click(w.bob, board, label="Play")
    assert theirs.ephemeral and hideout not in theirs.content and "Your garlic lies in" not in theirs.content
    await quiet_turn(w, t, w.bob, 1, {hideout})
    await quiet_turn(w, t, w.carol, 2, {hideout})
    # alice finds her own garlic: bob and carol each give her a vampire, deciding at the same time
    _row, board = await t.check_memory()
    await do(w, w.alice, board, Action("flip", hideout), slash=True)
    row, board = await t.check_memory()
    assert set(row.awaited) == {1, 2}
    ping = await w.server.wait_for_message(w.chan, lambda m: f"<@{w.bob.id}>" in m.content)  # one ping for both
    assert f"<@{w.carol.id}>" in ping.content and "your move" in ping.content
    platform = ("Play", "What you missed", "Follow")
    assert [b["label"] for b in board.buttons if b["label"] not in platform] == ["Choose my gift"]
    before = {p: list((await t.state())["rows"][p]) for p in (1, 2)}
    panels = {}
    for p in (1, 2):
        r = await w.server.click(users[p], board, label="Choose my gift")
        assert r.ephemeral and r.response is not None
        labels = [b["label"] for b in r.response.buttons]
        assert labels[0].startswith("Give my left end — ") and labels[1].startswith("Give my right end — "), labels
        panels[p] = r.response
    # alice is not a giver
    r = await w.server.click(w.alice, board, label="Choose my gift")
    assert r.ephemeral and "Nothing to choose" in r.content
    if together:  # both click in the same instant: each choice is recorded exactly once
        await asyncio.gather(
            w.server.click(w.bob, panels[1], button_for(panels[1], "give right")["custom_id"]),  # type: ignore[index]
            w.server.click(w.carol, panels[2], button_for(panels[2], "give left")["custom_id"]),  # type: ignore[index]
        )
        gives = [a for a in await t.service.store.actions(t.id) if a.action.get("verb") == "give"]
        assert sorted(a.seat for a in gives) == [1, 2]
    else:  # bob decides first: the board says he decided, never which end
        await w.server.click(w.bob, panels[1], button_for(panels[1], "give right")["custom_id"])  # type: ignore[index]
        row, board = await t.check_memory()
        assert set(row.awaited) == {2}
        text = board.embeds[0]["description"]
        assert "bob has chosen which vampire to give" in text and "Decided: bob" in text and "right" not in text
        bob_view = await w.server.slash(w.bob, w.chan, "game hand")
        assert "You give your right-end vampire" in bob_view.content
        carol_view = await w.server.slash(w.carol, w.chan, "game hand")
        assert "You give your" not in carol_view.content
        # a second choice of bob's is refused; carol's choice completes the gift
        r = await w.server.slash(w.bob, w.chan, "dawn give", side="left")
        assert r.ephemeral and "Nothing is awaited from you" in r.content
        await w.server.click(w.carol, panels[2], button_for(panels[2], "give left")["custom_id"])  # type: ignore[index]
    row, board = await t.check_memory()
    state = await t.state()
    assert len(state["rows"][1]) == len(before[1]) - 1
    assert len(state["rows"][2]) == len(before[2]) - 1
    assert state["phase"] == "place" and sorted(state["gift"]["pending"]) == sorted(
        [before[1][-1].upper(), before[2][0].upper()]
    )
    # alice adds the vampires: one with `/dawn put` (its colour autocompletes), one with a board button
    state = await t.state()
    received = sorted(set(state["gift"]["pending"]))
    choices = await w.server.autocomplete(w.alice, w.chan, "dawn put", "colour", side="left")
    assert [c["value"] for c in choices] == received
    r = await w.server.slash(w.alice, w.chan, "dawn put", colour=received[0], side="right")
    assert r.ephemeral and r.content.startswith("✅ Add the"), r.content
    row, board = await t.check_memory()
    colour = (await t.state())["gift"]["pending"][0]
    await do(w, w.alice, board, Action("put", side="left", colour=colour), slash=False)
    row, board = await t.check_memory()
    state = await t.state()
    assert state["gift"] is None and state["turn"] == 1
    assert w.server.dms(w.alice) == [] and w.server.dms(w.bob) == []


async def test_dawn_commands_refuse_bad_input_specifically_and_change_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    # another game's table in this channel
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway")
    r = await w.server.slash(w.alice, w.chan, "dawn flip", grave="C4")
    assert r.ephemeral and "plays Take-Away; /dawn commands are for Dawn Under" in r.content
    assert await w.server.autocomplete(w.alice, w.chan, "dawn flip", "grave") == []
    await w.server.slash(w.alice, w.chan, "game abandon")

    fixed_seed(monkeypatch, seed_where(2, lambda s: len(harmless(s, 0)) > 2))
    t = Table(w, await open_table(w, w.bob))
    row, _board = await t.check_memory()
    version = row.version
    for grave, why in (("Z9", "There is no grave 'Z9'"), ("D4", "There is no grave 'D4'"), ("", "There is no grave")):
        r = await w.server.slash(w.alice, w.chan, "dawn flip", grave=grave or " ")
        assert r.ephemeral and why in r.content, r.content
    r = await w.server.slash(w.bob, w.chan, "dawn flip", grave="A1")
    assert r.ephemeral and "(waiting for alice)" in r.content
    r = await w.server.slash(w.dave, w.chan, "dawn flip", grave="A1")
    assert r.ephemeral and "not seated" in r.content
    assert await w.server.autocomplete(w.dave, w.chan, "dawn flip", "grave") == []
    assert await w.server.autocomplete(w.bob, w.chan, "dawn flip", "grave") == []
    r = await w.server.slash(w.alice, w.chan, "dawn garlic")
    assert r.ephemeral and "no grave to hide garlic in right now" in r.content
    r = await w.server.slash(w.alice, w.chan, "dawn stop")
    assert r.ephemeral and "flip a grave first" in r.content
    r = await w.server.slash(w.alice, w.chan, "dawn give", side="left")
    assert r.ephemeral and "is not possible now: you must flip a grave" in r.content
    assert (await t.row()).version == version, "nothing changed"

    choices = await w.server.autocomplete(w.alice, w.chan, "dawn flip", "grave", partial="south-e")
    assert choices and all(c["name"].endswith("south-east") and c["value"][0] in "EFGH" for c in choices)
    choices = await w.server.autocomplete(w.alice, w.chan, "dawn flip", "grave", partial="b")
    assert choices and all(c["value"].startswith("B") for c in choices)

    # every move is reachable through /game move too, with the same labels
    state = await t.state()
    grave = harmless(state, 0)[0]
    # keystroke after keystroke at one version: the legal moves and labels are made once, then narrowed
    assert w.bot is not None
    service, made = w.bot.service, []
    legal_for = service.legal_for
    service.legal_for = lambda table, user: made.append(table.version) or legal_for(table, user)  # type: ignore[method-assign]
    try:
        typed = [
            await w.server.autocomplete(w.alice, w.chan, "game move", "action", partial=p) for p in ("", "f", "flip")
        ]
        assert typed[0] and {c["value"] for c in typed[2]} <= {c["value"] for c in typed[0]}
        assert all(c["value"].startswith("flip") for c in typed[2]) and made == [version]
    finally:
        service.legal_for = legal_for  # type: ignore[method-assign]
    choices = await w.server.autocomplete(w.alice, w.chan, "game move", "action", partial=f"flip {grave}")
    assert [c["value"] for c in choices] == [f"flip {grave}"]
    r = await w.server.slash(w.alice, w.chan, "game move", action=f"flip {grave}")
    assert r.ephemeral and r.content.startswith(f"✅ Flip grave {grave}")
    answer = r.response
    assert answer is not None  # the next decision's panel is edited into the answer right after it
    await w.server.wait_for(lambda: bool(answer.buttons), what="the next panel in the answer")
    assert [b["label"] for b in answer.buttons] == [f"Hide garlic in {grave}", f"Close {grave} (no garlic)"]
    await t.check_memory()
    choices = await w.server.autocomplete(w.alice, w.chan, "game move", "action")
    assert {c["value"] for c in choices} == {f"garlic {grave}", f"close {grave}"}
    r = await w.server.slash(w.alice, w.chan, "game move", action=f"close {grave}")
    assert r.ephemeral and r.content == "✅ Close the lid without garlic"
    row, _board = await t.check_memory()
    assert row.awaited.keys() == {1}


# -- component layout over many positions (no Discord needed) -------------------------------------------
def reachable(items: list[Any]) -> set[str]:
    out: set[str] = set()
    for item in items:
        inner = item.item
        if isinstance(inner, discord.ui.Select):
            assert len(inner.options) <= 25
            out |= {o.value for o in inner.options}
            assert all(len(o.label) <= 100 for o in inner.options)
        else:
            assert inner.label is not None and len(inner.label) <= 80
            if item.verb == "do":
                out.add(item.arg)
    return out


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_legal_move_is_on_the_board_or_the_panel_within_discord_limits(players: int) -> None:
    from cogs.common.ui import TableButton, make_view
    from cogs.dawn_under import UI, decision_items

    for seed in range(3):
        state = GAME.new(players, seed)
        rng = Rng.from_seed(f"layout:{players}:{seed}")
        for step in range(400):
            if GAME.outcome(state) is not None:
                break
            table = types.SimpleNamespace(id=12345, version=step, state=GAME.dump_state(state), awaited={})
            view = GAME.view(state, None)
            board = [TableButton("panel", 12345, step, label="Play", row=0), *UI.board_items(table, view)]  # type: ignore[arg-type]
            make_view(board)  # raises if a row overflows or there are more than 5 rows
            on_board = reachable(board)
            for seat in GAME.to_act(state):
                legal = GAME.legal_actions(state, seat)
                panel = decision_items(table, GAME.view(state, seat), seat, legal, step, board=False)  # type: ignore[arg-type]
                make_view(panel)
                wanted = {GAME.format_action(a) for a in legal}
                assert wanted <= reachable(panel), (wanted - reachable(panel), view["phase"])
                if view["phase"] != "give":
                    assert wanted <= on_board, (wanted - on_board, view["phase"])
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


async def test_live_board_buttons_work_after_a_restart(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    fixed_seed(monkeypatch, seed_where(2, lambda s: len(harmless(s, 0)) > 2 and len(harmless(s, 1)) > 2))
    t = Table(w, await open_table(w, w.bob))
    await t.check_memory()  # the first board is up (see the report: a move racing it posts a second one)
    grave = harmless(await t.state(), 0)[0]
    await w.server.slash(w.alice, w.chan, "dawn flip", grave=grave)
    _row, board = await t.check_memory()
    assert w.bot is not None
    await w.bot.close()
    await w.boot()  # a new process on the same database; the board message is the same
    await w.server.click(w.alice, board, button_for(board, f"close {grave}")["custom_id"])  # type: ignore[index]
    row, board = await t.check_memory()
    assert set(row.awaited) == {1}
    # bob may not flip what alice opened on her last turn (2 players): the menus leave it out
    offered = {o["value"] for s in board.selects for o in s["options"]}
    assert f"flip {grave}" not in offered and len(offered) == len(GAME.new(2, 1)["lid"]) - 1
    other = harmless(await t.state(), 1, {grave})[0]
    await do(w, w.bob, board, Action("flip", other), slash=False)
    row, _board = await t.check_memory()
    assert (await t.state())["pending"] == other
    # /game status posts the board anew; the old live board is deleted, so it cannot keep a reveal
    old = t.board_id
    r = await w.server.slash(w.bob, w.chan, "game status")
    assert r.ephemeral
    assert old is not None
    await w.server.wait_for(lambda: w.server.message(old).deleted, timeout=15)
    t.board_id = None
    _row, board = await t.check_memory()
    assert board.id != old and button_for(board, f"garlic {other}") is not None


async def test_a_next_panel_that_cannot_be_edited_in_says_where_the_choices_are(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A typed move answers "✅" first and edits the mover's next choices in after; when that edit
    fails, the move still counts, the mover is told to use Play, and the decision stays untold (so
    the sweep tells them again) instead of being marked as shown."""
    w = world
    fixed_seed(monkeypatch, seed_where(2, lambda s: len(harmless(s, 0)) > 2))
    t = Table(w, await open_table(w, w.bob))
    row, _board = await t.check_memory()
    grave = harmless(await t.state(), 0)[0]
    # the answer's edit refused (the player dismissed the ephemeral "✅" already)
    edit = w.server.fault("PATCH", r"^/webhooks/\d+/[^/]+/messages/\d+$", 404, 10008, "Unknown Message", times=1)
    r = await w.server.slash(w.alice, w.chan, "game move", action=f"flip {grave}")
    assert r.ephemeral and r.content.startswith(f"✅ Flip grave {grave}")
    told = await r.wait_followups(2)
    assert "use **Play** on the board" in told[-1].content and told[-1].ephemeral, told[-1].content
    assert edit.hits == 1
    after = await t.row()
    assert after.version == row.version + 1, "the move counted"
    assert 0 in after.awaited and after.seats[0].notified_version < after.awaited[0], "still owed a notice"
