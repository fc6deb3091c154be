"""Ghost Stories end to end through the local Discord: a 2-player Initiation game (a simulated human
and a bot Taoist, two neutral boards) played to its end through the board's components and `/ghost`
commands; a lost Tao token that falls to the other player; bad input; and the hidden deck, checked in
the channel history.

The bot seat plays with the table bot `TaoistPolicy` (monkeypatched in, so these tests pin it
whatever `bot_policy` becomes); a full game takes a few seconds."""

from __future__ import annotations

import asyncio
import json
import re
import types
from typing import Any

import discord
import pytest

from bot.rules import Rng
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.data import CARDS, space_index
from bot.rules.ghost_stories.game import GAME, Act, GhostStories
from bot.store import TableRow
from bot.tables import service as service_module
from cogs.common.ui import render_png
from tests.e2e.conftest import World, button_for, select_for
from tests.fakediscord import Message, User

KEY = "ghost_stories"
SLASH = {
    "move": "ghost move",
    "exorcise": "ghost exorcise",
    "help": "ghost villager",
    "buddha": "ghost buddha",
    "yinyang": "ghost yinyang",
    "pocket": "ghost power",
    "mantra": "ghost power",
    "push": "ghost power",
    "power": "ghost power",
    "end": "ghost end",
}


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """New tables get this seed (the service draws it from `secrets`), so a game is reproducible."""
    monkeypatch.setattr(service_module, "secrets", types.SimpleNamespace(randbits=lambda _bits: seed))


def fast_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GhostStories, "bot_policy", lambda self: TaoistPolicy())


async def open_table(
    w: World, *joiners: User, bots: int = 0, options: str = "difficulty=initiation", host: User | None = None
) -> int:
    host = host or w.alice
    r = await w.server.slash(host, w.chan, "game new", game=KEY, options=options)
    lobby = r.response
    assert lobby is not None
    for user in joiners:
        await w.server.click(user, lobby, label="Join")
    for _ in range(bots):
        await w.server.click(host, lobby, label="Add bot")
    await w.server.click(host, lobby, label="Start")
    assert w.bot is not None
    return (await w.bot.service.table_in_channel(w.chan.id)).id


class Table:
    def __init__(self, w: World, table_id: int) -> None:
        self.w = w
        self.id = table_id
        self.steps = 0
        self.checked = 0  # messages already read for hidden names

    @property
    def service(self) -> Any:
        assert self.w.bot is not None
        return self.w.bot.service

    async def row(self) -> TableRow:
        row: TableRow = await self.service.table(self.id)
        return row

    async def settle(self) -> tuple[TableRow, Message]:
        """The stored table and the newest board, once the board shows the stored version."""
        board = await self.w.board()
        for _ in range(300):
            row = await self.row()
            board = await self.w.board()
            footer = board.embeds[0].get("footer", {}).get("text", "")
            if footer.startswith(f"v{row.version} "):
                return row, board
            await asyncio.sleep(0.01)
        raise AssertionError("the board never showed the stored version")

    async def check_hidden(self) -> tuple[TableRow, Message]:
        """The deck's order and content never reach the channel: no message names a ghost still in the
        deck (unless a revealed card bears the same name), the incarnation waiting in the deck is never
        named, and the board's picture is the public view's."""
        row, board = await self.settle()
        state = GAME.load_state(row.state or {})
        revealed = {CARDS[c]["name"] for c in CARDS if c not in state["deck"]}
        hidden = {CARDS[c]["name"] for c in state["deck"]} - revealed
        fresh = [m for m in self.w.server.messages(self.w.chan) if m.id > self.checked or m.id == board.id]
        self.checked = max([self.checked, *(m.id for m in fresh)])
        for m in fresh:  # each message when it first appears (the board, edited in place, every time)
            text = m.content + json.dumps(m.embeds) + json.dumps(m.components)
            for name in hidden:  # a whole name: "Fallen Monk" may be hidden while "Fallen Monks" is shown
                found = re.search(rf"\b{re.escape(name)}\b", text)
                assert found is None, f"a message names {name!r}, still in the deck: {text[found.start() - 200 :]}"
        public = self.service.view_for(row, None)
        assert "deck_ids" not in public and isinstance(public["deck"], int)
        if self.steps % 15 == 0:
            assert board.attachments[0].data == render_png(KEY, public)
        self.steps += 1
        return row, board


def refused(r: Any) -> bool:
    texts = [r.content or ""] + [m.content for m in r.messages]
    return any(t.startswith(("Sorry", "Nothing", "This", "The table here")) or "not a legal" in t for t in texts)


async def do(w: World, user: User, board: Message, action: Act, pending: bool, *, slash: bool) -> str:
    """Make `action` as a player would: a `/ghost` command, or the board's buttons and menus."""
    text = GAME.format_action(action)
    verb = action.parts[0]
    if slash:
        if pending:
            r = await w.server.slash(user, w.chan, "ghost choose", option=text)
        elif verb in ("pocket", "mantra", "push", "power"):
            r = await w.server.slash(user, w.chan, "ghost power", use=text)
        elif verb == "move":
            r = await w.server.slash(user, w.chan, "ghost move", tile=action.parts[1])
        elif verb == "exorcise":
            r = await w.server.slash(user, w.chan, "ghost exorcise", target=" ".join(action.parts[1:]))
        elif verb == "help":
            extra = {"choice": " ".join(action.parts[1:])} if len(action.parts) > 1 else {}
            r = await w.server.invoke(user, w.chan, "ghost villager", extra)
        elif verb == "buddha":
            r = await w.server.slash(user, w.chan, "ghost buddha", space=action.parts[1])
        elif verb == "yinyang":
            r = await w.server.slash(user, w.chan, "ghost yinyang", target=text.split(" ", 1)[1])
        else:
            assert verb == "end"
            r = await w.server.slash(user, w.chan, "ghost end")
        assert r.ephemeral and not refused(r), r.content
        return SLASH.get(verb, "ghost choose") if not pending else "ghost choose"
    button = button_for(board, text)
    if button is not None:
        r = await w.server.click(user, board, button["custom_id"])
        how = "button"
    else:
        select = select_for(board, text)
        assert select is not None, f"{text!r} is neither a button nor a menu option on the board"
        r = await w.server.select(user, board, select["custom_id"], [text])
        how = "menu"
    assert not refused(r), [m.content for m in r.messages]
    question = next((m for m in r.messages if m.content.startswith("⚠️")), None)
    if question is not None:  # spending the Yin-Yang asks first (issue #11): the player says yes
        yes = next(b for b in question.buttons if b.get("label", "").startswith("Yes, "))
        r = await w.server.click(user, question, yes["custom_id"])
        assert not refused(r), [m.content for m in r.messages]
    return how


class Human:
    """A simulated player: the heuristic policy, fed only that seat's view."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.memory: dict[str, Any] = {}
        self.policy = TaoistPolicy()

    def choose(self, state: dict[str, Any], step: int) -> Act:
        view = GAME.view(state, self.seat)
        self.memory = self.policy.observe(self.memory, view)
        legal = GAME.legal_actions(state, self.seat)
        return self.policy.choose(view, legal, self.memory, Rng.from_seed(f"human:{self.seat}:{step}"))


def policy_step(policy: TaoistPolicy, memory: dict[int, Any], state: dict[str, Any], step: int) -> tuple[int, Act]:
    """The move `drive_until` makes at `step`: the first awaited seat plays the heuristic policy."""
    seat = min(GAME.to_act(state))
    view = GAME.view(state, seat)
    memory[seat] = policy.observe(memory.setdefault(seat, {}), view)
    legal = GAME.legal_actions(state, seat)
    return seat, policy.choose(view, legal, memory[seat], Rng.from_seed(f"h:{seat}:{step}"))


def seed_reaching(stop: Any, players: int = 2, limit: int = 200, tries: int = 400) -> int:
    """The first table seed whose scripted game (as `drive_until` plays it) reaches `stop` within
    `limit` moves: found by playing the rules alone, so the scenario survives changes to the bot."""
    policy = TaoistPolicy(planning=False)  # the heuristic: quick, and what drive_until plays
    for seed in range(tries):
        state = GAME.new(players, seed, {"difficulty": "initiation"})
        memory: dict[int, Any] = {}
        for step in range(limit):
            if GAME.outcome(state) is not None:
                break
            if stop(state):
                return seed
            seat, action = policy_step(policy, memory, state, step)
            state, _ = GAME.apply(state, seat, action)
    raise AssertionError("no seed reaches the situation")


async def drive_until(
    w: World, t: Table, stop: Any, limit: int = 200, users: dict[int, User] | None = None
) -> tuple[TableRow, Message, dict[str, Any]]:
    """alice (seat 0) and bob (seat 1), or `users`, play by `/game move` what the heuristic policy
    chooses, until `stop(state)`: a seeded game reaches a given situation the same way every time."""
    users = users or {0: w.alice, 1: w.bob}
    policy, memory = TaoistPolicy(planning=False), {}  # type: ignore[var-annotated]
    for step in range(limit):
        row, board = await t.check_hidden()
        state = GAME.load_state(row.state or {})
        if stop(state):
            return row, board, state
        seat, action = policy_step(policy, memory, state, step)
        r = await w.server.slash(users[seat], w.chan, "game move", action=GAME.format_action(action))
        assert not refused(r), r.content
    raise AssertionError("the scripted game never reached the situation")


# -- the tests -----------------------------------------------------------------------------------------
async def test_two_players_initiation_one_human_one_bot_to_the_end(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    fast_bots(monkeypatch)
    fixed_seed(monkeypatch, 3)
    t = Table(w, await open_table(w, bots=1))
    human = Human(0)
    used: set[tuple[str, str]] = set()
    row, board = await t.check_hidden()
    state = GAME.load_state(row.state or {})
    assert [b["seat"] is None for b in GAME.view(state, None)["boards"]].count(True) == 2, "two neutral boards"
    for step in range(300):
        row, board = await t.check_hidden()
        if row.status != "active":
            break
        state = GAME.load_state(row.state or {})
        # the bot never leaves the human waiting on it; a team decision (a neutral board's curse)
        # awaits both seats, and the bot leaves it to the human
        assert GAME.to_act(state) == ({0, 1} if GAME.shared_decision(state) else {0}), state["pending"]
        action = human.choose(state, step)
        pending = state["pending"] is not None
        if action.parts[0] == "move" and step % 3 == 0:
            choices = await w.server.autocomplete(w.alice, w.chan, "ghost move", "tile")
            moves = {GAME.format_action(a).split()[1] for a in GAME.legal_actions(state, 0) if a.parts[0] == "move"}
            assert {c["value"] for c in choices} == moves
            assert all(" — " in c["name"] and ("faces " in c["name"] or "no ghost" in c["name"]) for c in choices)
        how = await do(w, w.alice, board, action, pending, slash=step % 2 == 1)
        used.add((action.parts[0], how))
    row, board = await t.check_hidden()
    assert row.status == "finished", "the game ended"
    assert "Game over" in str(board.embeds[0]) and board.components == []
    verbs = {v for v, _ in used}
    assert {"move", "end", "place"} <= verbs, used
    assert {h for _, h in used} >= {"button", "menu"}, used
    assert any(h.startswith("ghost") for _, h in used), used
    assert w.server.dms(w.alice) == [], "Ghost Stories has no secrets: no DMs"
    replayed = await t.service.replay(t.id)
    assert GAME.dump_state(replayed) == row.state


@pytest.mark.parametrize(("level", "players"), [("hell", 1), ("nightmare", 4)])
async def test_every_seat_human_plays_a_whole_game(
    world: World, monkeypatch: pytest.MonkeyPatch, level: str, players: int
) -> None:
    """A solo Hell game and a four-player Nightmare game, every seat a person, to the end: each plays
    by `/game move`, team decisions are answered by whichever player the policy picks."""
    w = world
    fixed_seed(monkeypatch, 11)
    people = [w.alice, w.bob, w.carol, w.dave][:players]
    t = Table(w, await open_table(w, *people[1:], options=f"difficulty={level}"))
    row, board, state = await drive_until(
        w, t, lambda st: GAME.outcome(st) is not None, limit=600, users=dict(enumerate(people))
    )
    assert row.status == "finished" and state["difficulty"] == level and state["players"] == players
    assert "Game over" in str(board.embeds[0]) and board.components == []
    assert GAME.dump_state(await t.service.replay(t.id)) == row.state


async def test_a_lost_tao_token_is_the_other_players_choice(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Initiation: during alice's turn a ghost makes bob's (green) Taoist lose a Tao token of his
    choice. Bob is pinged, the board and his Play panel offer the choice, alice may not answer it."""
    w = world

    def stop(st: dict[str, Any]) -> bool:
        p = st["pending"]
        return p is not None and p["kind"] == "discard" and p["seat"] == 1 and st["boards"][st["turn"]]["seat"] == 0

    fixed_seed(monkeypatch, seed_reaching(stop))
    t = Table(w, await open_table(w, w.bob))
    row, board, state = await drive_until(w, t, stop)
    p = state["pending"]
    assert p["seat"] == 1 and state["boards"][state["turn"]]["seat"] == 0
    colours = p["colours"]
    # bob is pinged (a short message linking to the new board, which offers the discard); alice is not
    ping = await w.server.wait_for_message(w.chan, lambda m: f"<@{w.bob.id}> — your move" in m.content)
    assert f"<@{w.alice.id}>" not in ping.content and str(board.id) in ping.content
    assert "must discard a Tao token" in board.embeds[0]["description"]
    for c in colours:
        assert button_for(board, f"discard {c}") is not None
    r = await w.server.click(w.alice, board, button_for(board, f"discard {colours[0]}")["custom_id"])  # type: ignore[index]
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost choose", option=f"discard {colours[0]}")
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    assert await w.server.autocomplete(w.alice, w.chan, "ghost choose", "option") == []
    choices = await w.server.autocomplete(w.bob, w.chan, "ghost choose", "option")
    assert {c["value"] for c in choices} == {f"discard {c}" for c in colours}
    # bob's Play panel shows the choice; he answers there
    r = await w.server.click(w.bob, board, label="Play")
    panel = r.response
    assert panel is not None and r.ephemeral and "Your move" in panel.content
    before = (await t.row()).state["boards"][2]["tao"][colours[-1]]  # type: ignore[index]
    await w.server.click(w.bob, panel, button_for(panel, f"discard {colours[-1]}")["custom_id"])  # type: ignore[index]
    assert panel.content.startswith("✅")
    row, board = await t.check_hidden()
    state = GAME.load_state(row.state or {})
    assert state["boards"][2]["tao"][colours[-1]] == before - 1
    assert state["pending"] is None or state["pending"]["kind"] != "discard" or state["pending"]["seat"] != 1
    assert "Green Taoist discards" in board.embeds[0]["description"]


async def test_a_neutral_boards_curse_is_the_teams_choice(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """「由其中一生存玩家進行投擲詛咒骰並承受擲骰結果」: a Lich on the neutral Blue board torments; the
    living Taoists decide together who rolls. Both humans are pinged and offered the choice, the bot
    seat leaves it to them, the first answer settles it, and a late click changes nothing."""
    from tests.rules.test_ghost_stories_helpers import blank, put, yin

    w = world
    fast_bots(monkeypatch)
    r = await w.server.slash(w.alice, w.chan, "game new", game=KEY, options="difficulty=initiation")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Add bot")
    assert w.bot is not None
    table = await w.bot.service.table_in_channel(w.chan.id)
    state = blank(players=3, diff="initiation")  # Red alice, Yellow bob, Green the bot, Blue neutral
    put(state, "blue1", "Lich")
    yin(state, 3)
    assert state["pending"]["kind"] == "victim" and GAME.to_act(state) == {0, 1, 2}
    await w.bot.service.store.start_table(table.id, GAME.dump_state(state), {0: 0, 1: 0, 2: 0}, table.seed)
    await w.bot.service.resume_bots(table.id)  # the bot is awaited too, but a human decides
    t = Table(w, table.id)
    await w.server.slash(w.alice, w.chan, "game status")  # its first board
    row, board = await t.settle()
    assert row.version == 0 and GAME.load_state(row.state or {})["pending"]["kind"] == "victim"
    assert "the team (any living Taoist may answer) must choose who rolls the curse die for Lich" in str(
        board.embeds[0]
    )
    for colour in ("red", "yellow", "green"):
        assert button_for(board, f"suffer {colour}") is not None
    choices = await w.server.autocomplete(w.alice, w.chan, "ghost choose", "option")
    assert {c["value"] for c in choices} == {"suffer red", "suffer yellow", "suffer green"}
    # alice and bob click at the same moment (Red by alice, Yellow by bob): the first answer settles
    # it for the team, the other is told so, and only one Taoist rolls
    red, yellow = (button_for(board, f"suffer {c}")["custom_id"] for c in ("red", "yellow"))  # type: ignore[index]
    ra, rb = await asyncio.gather(w.server.click(w.alice, board, red), w.server.click(w.bob, board, yellow))
    assert [refused(r) for r in (ra, rb)].count(True) == 1, (ra.content, rb.content)
    late = ra if refused(ra) else rb
    # both clicks passed the gate and were acknowledged; the loser's refusal is an ephemeral follow-up
    answer = late.followups[-1] if late.followups else late.response
    assert answer is not None and answer.ephemeral
    assert "Nothing is awaited from you" in answer.content or "out of date" in answer.content
    row, _board = await t.settle()
    log = "\n".join(text for _, _, text in await t.service.log(t.id))
    chosen = "Yellow" if late is ra else "Red"
    assert f"The team chooses the {chosen} Taoist to roll the curse die for Lich." in log
    assert log.count("rolls the curse die") == 1 and f"Lich: the {chosen} Taoist rolls the curse die" in log


async def test_bad_input_for_ghost_commands(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    fast_bots(monkeypatch)
    # no table here
    r = await w.server.slash(w.alice, w.chan, "ghost end")
    assert r.ephemeral and not r.content.startswith("Sorry")
    # another game's table
    other = w.server.add_channel(w.guild, "other")
    await w.server.slash(w.alice, other, "game new", game="takeaway")
    r = await w.server.slash(w.alice, other, "ghost move", tile="B2")
    assert r.ephemeral and "/ghost commands are for Ghost Stories" in r.content
    assert await w.server.autocomplete(w.alice, other, "ghost move", "tile") == []
    # a Ghost Stories table: alice and bob
    fixed_seed(monkeypatch, 1)
    t = Table(w, await open_table(w, w.bob))
    row, _board = await t.check_hidden()
    state = GAME.load_state(row.state or {})
    # power_sides=choose: each player first picks the side of their board, in seat order
    assert GAME.to_act(state) == {0} and state["pending"]["kind"] == "side"
    r = await w.server.slash(w.alice, w.chan, "ghost choose", option="side mountain")  # Green's side
    assert r.ephemeral and "not a legal move" in r.content
    for user, side in ((w.alice, "side peaks"), (w.bob, "side mountain")):
        r = await w.server.slash(user, w.chan, "ghost choose", option=side)
        assert r.ephemeral and not refused(r), r.content
    row, _board = await t.check_hidden()
    state = GAME.load_state(row.state or {})
    assert [bd["power"] for bd in state["boards"][0:3:2]] == ["peaks", "mountain"]
    assert GAME.to_act(state) == {0} and state["pending"]["kind"] == "place"
    r = await w.server.slash(w.alice, w.chan, "ghost move", tile="Z9")
    assert r.ephemeral and "not a village tile" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost exorcise", target="purple4")
    assert r.ephemeral and "not a ghost space" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost buddha", space="B7")
    assert r.ephemeral and "not a ghost space" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost power", use="fly away")
    assert r.ephemeral and "Pick a power" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost end")  # a ghost must be placed first
    assert r.ephemeral and "not a legal move" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost choose", option="place green1")
    assert r.ephemeral and "not a legal move" in r.content
    r = await w.server.slash(w.bob, w.chan, "ghost choose", option="place red1")
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    r = await w.server.slash(w.dave, w.chan, "ghost end")
    assert r.ephemeral and not r.content.startswith("Sorry")
    # place the ghost, then the turn: moving too far, a choice that is not pending
    (place,) = [a for a in GAME.legal_actions(state, 0)][:1]
    r = await w.server.slash(w.alice, w.chan, "ghost choose", option=GAME.format_action(place))
    assert not refused(r), r.content
    row, _board = await t.check_hidden()
    state = GAME.load_state(row.state or {})
    while state["pending"] is not None:  # any further placement
        seat = min(GAME.to_act(state))
        a = GAME.legal_actions(state, seat)[0]
        await w.server.slash((w.alice, w.bob)[seat], w.chan, "ghost choose", option=GAME.format_action(a))
        row, _board = await t.check_hidden()
        state = GAME.load_state(row.state or {})
    assert GAME.to_act(state) == {0}
    r = await w.server.slash(w.alice, w.chan, "ghost choose", option="keep")
    assert r.ephemeral and "No decision is awaited" in r.content
    legal = GAME.legal_actions(state, 0)
    moves = {a.parts[1] for a in legal if a.parts[0] == "move"}
    far = next(f"{c}{r}" for r in "123" for c in "abc" if f"{c}{r}" not in moves)  # too far, or where she is
    r = await w.server.slash(w.alice, w.chan, "ghost move", tile=far.upper())
    assert r.ephemeral and "not a legal move" in r.content
    r = await w.server.slash(w.bob, w.chan, "ghost move", tile=next(iter(moves)).upper())
    assert r.ephemeral and "Nothing is awaited from you" in r.content
    if not any(a.parts[0] == "help" for a in legal):
        r = await w.server.slash(w.alice, w.chan, "ghost villager")
        assert r.ephemeral and "cannot ask the villager" in r.content
    r = await w.server.slash(w.alice, w.chan, "ghost ghosts")
    assert r.ephemeral and "Deck:" in r.content
    assert (await t.row()).version == row.version, "no bad input changed the table"


async def test_an_exorcism_is_paid_with_a_partners_tao_token(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Initiation: the Red Taoist's roll misses a symbol the Green Taoist, standing on the same tile,
    holds a token of; the exorcism is completed with Green's Tao token."""
    w = world

    def stop(st: dict[str, Any]) -> bool:
        p = st["pending"]
        if p is None or p["kind"] != "exorcism" or st["boards"][p["t"]]["colour"] == "green":
            return False
        labels = [a.label for a in GAME.legal_actions(st, p["seat"]) if "(Green's)" in a.label]
        # one of Green's tokens alone pays (not "1 yellow (yours) + 1 yellow (Green's)"), as asserted below
        return (
            len(labels) == 1 and labels[0].endswith("(Green's)") and "+" not in labels[0] and "paying 1 " in labels[0]
        )

    fixed_seed(monkeypatch, seed_reaching(stop))
    t = Table(w, await open_table(w, w.bob))
    row, board, state = await drive_until(w, t, stop)
    p = state["pending"]
    assert p is not None and p["kind"] == "exorcism"
    exorcist, green = state["boards"][p["t"]], state["boards"][2]
    assert exorcist["colour"] != "green" and green["pos"] == exorcist["pos"]
    user = (w.alice, w.bob)[p["seat"]]
    description = board.embeds[0]["description"]
    assert f"must finish the exorcism (rolled {', '.join(p['dice'])})" in description, description
    (pay,) = [a for a in GAME.legal_actions(state, p["seat"]) if "(Green's)" in a.label]
    labels = {b.get("label") for b in board.buttons}
    assert pay.label in labels and "Give up: keep the Tao tokens" in labels, labels
    # the same choice in /ghost choose's list
    choices = await w.server.autocomplete(user, w.chan, "ghost choose", "option", partial="green's")
    assert [c["value"] for c in choices] == [GAME.format_action(pay)]
    # the Play panel says it too, with the roll
    r = await w.server.click(user, board, label="Play")
    assert r.response is not None and "rolled" in r.response.content
    assert pay.label in {b.get("label") for b in r.response.buttons}
    await w.server.click(user, board, button_for(board, GAME.format_action(pay))["custom_id"])  # type: ignore[index]
    row, board = await t.check_hidden()
    after = GAME.load_state(row.state or {})
    (paid,) = [c for c in green["tao"] if after["boards"][2]["tao"][c] != green["tao"][c]]
    assert after["boards"][2]["tao"][paid] == green["tao"][paid] - 1 and f"1 {paid} (Green's)" in pay.label
    assert after["boards"][p["t"]]["tao"] == exorcist["tao"], "the exorcist had none of it"
    for x in pay.parts[1:]:
        k = space_index(x)
        assert k is not None and state["spaces"][k] is not None
        gone = after["spaces"][k] is None or after["spaces"][k]["id"] != state["spaces"][k]["id"]
        assert gone, "the ghost is exorcised"
    assert "is exorcised from" in board.embeds[0]["description"]


async def test_the_exorcist_picks_whose_tokens_pay_on_the_board(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Initiation: an exorcism can be paid with the exorcist's own token or with Green's, who stands
    on the same tile; after `banish`, the board asks which, and Green's token is spent."""
    w = world

    def stop(st: dict[str, Any]) -> bool:
        p = st["pending"]
        if p is None or p["kind"] != "pay" or st["boards"][p["t"]]["colour"] == "green":
            return False
        labels = [a.label for a in GAME.legal_actions(st, p["seat"])]
        greens_only = [x for x in labels if "(Green's)" in x and "(yours)" not in x]
        return any("(Green's)" not in x for x in labels) and len(greens_only) == 1

    fixed_seed(monkeypatch, seed_reaching(stop))
    t = Table(w, await open_table(w, w.bob))
    row, board, state = await drive_until(w, t, stop)
    p = state["pending"]
    user = (w.alice, w.bob)[p["seat"]]
    assert "must choose which Tao tokens pay for the exorcism" in board.embeds[0]["description"]
    labels = [a.label for a in GAME.legal_actions(state, p["seat"])]
    assert any("(yours)" in x for x in labels) and any("(Green's)" in x for x in labels), labels
    (greens,) = [a for a in GAME.legal_actions(state, p["seat"]) if "(Green's)" in a.label and "(yours)" not in a.label]
    before = dict(state["boards"][2]["tao"])
    mine = dict(state["boards"][p["t"]]["tao"])
    r = await w.server.click(user, board, button_for(board, GAME.format_action(greens))["custom_id"])  # type: ignore[index]
    assert not refused(r), [m.content for m in r.messages]
    row, board = await t.check_hidden()
    after = GAME.load_state(row.state or {})
    paid = sum(int(part.split()[0]) for part in greens.label.removeprefix("Pay ").split(" + "))
    assert sum(after["boards"][2]["tao"].values()) == sum(before.values()) - paid
    assert all(after["boards"][p["t"]]["tao"][c] >= n for c, n in mine.items()), "the exorcist kept their own"
    assert "(the Green Taoist's)" in board.embeds[0]["description"]


async def test_the_bot_partner_plays_and_no_dm_is_needed(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """carol (DMs closed) plays two rounds with the table's own bot (`bot_policy`): the game needs no DM, so she
    gets no closed-DM notice; the bot's turns appear on the board."""
    w = world
    fixed_seed(monkeypatch, 4)
    t = Table(w, await open_table(w, bots=1, host=w.carol))
    human = Human(0)
    for step in range(60):
        row, board = await t.check_hidden()
        state = GAME.load_state(row.state or {})
        if row.status != "active" or state["round"] >= 3:
            break
        assert GAME.to_act(state) == {0}
        action = human.choose(state, step)
        await do(w, w.carol, board, action, state["pending"] is not None, slash=step % 2 == 0)
    else:
        raise AssertionError("two rounds were not played")
    lines = [line for _seq, who, line in await t.service.log(t.id) if who == "Bot 1"]
    assert any("ends the turn" in line for line in lines), lines
    assert not any("direct messages" in m.content for m in w.server.messages(w.chan))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_components_respect_discord_limits_in_playouts(players: int) -> None:
    """Every decision of random playouts at every level fits Discord: at most five rows, five buttons a
    row, 25 options a menu, labels and custom ids within their limits (discord.py's View checks rows)."""
    from bot.rules import RandomPolicy
    from cogs.common.ui import make_view
    from cogs.ghost_stories import decision_items

    table = types.SimpleNamespace(id=123456, version=0, awaited={})
    for level in ("initiation", "normal", "nightmare", "hell"):
        state = GAME.new(players, 11 + players, {"difficulty": level})
        rng = Rng.from_seed(f"limits:{players}:{level}")
        for step in range(400):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            pending = state["pending"]["kind"] if state["pending"] else None
            for first_row in (0, 1):
                items = decision_items(table, legal, 10_000 + step, pending, first_row, state)  # type: ignore[arg-type]
                make_view(items)  # raises if a row overflows
                shown = set()
                for item in items:
                    comp = item.item  # type: ignore[attr-defined]
                    assert len(comp.custom_id) <= 100
                    if isinstance(comp, discord.ui.Select):
                        assert len(comp.options) <= 25
                        assert all(len(o.label) <= 100 and len(o.description or "") <= 100 for o in comp.options)
                        for o in comp.options:
                            if o.value.startswith("exorcise"):
                                assert (o.description or "").startswith(("tokens to pay", "no Tao", "Tao tokens are"))
                        shown |= {o.value for o in comp.options}
                    else:
                        assert len(comp.label or "") <= 80
                        shown.add(comp.custom_id.split(":", 4)[4])
                if first_row == 0:
                    assert shown == {GAME.format_action(a) for a in legal}, "a decision offers every choice"
            action = RandomPolicy().choose({}, legal, {}, rng)
            state, _ = GAME.apply(state, seat, action)


def test_exorcism_menu_says_which_tokens_may_pay() -> None:
    from cogs.ghost_stories import tokens_on_tile
    from tests.rules.test_ghost_stories_helpers import blank

    s = blank(3)
    for b in range(4):
        s["boards"][b]["pos"] = 4
        s["boards"][b]["tao"] = dict.fromkeys(("red", "yellow", "green", "blue", "black"), 0)
    s["boards"][0]["tao"]["red"] = 1
    s["boards"][2]["tao"]["black"] = 2
    s["boards"][1]["pos"] = 0  # elsewhere: cannot help
    s["boards"][1]["tao"]["blue"] = 3
    assert tokens_on_tile(s, 0) == "tokens to pay with: 1 red (yours); 2 black (Green's)"


async def test_difficulty_chosen_in_the_lobby_and_typed_move_confirmed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    fast_bots(monkeypatch)
    fixed_seed(monkeypatch, 3)
    r = await w.server.slash(w.alice, w.chan, "game new", game=KEY)
    lobby = r.response
    assert lobby is not None
    difficulty = next(s for s in lobby.selects if any(o["value"].startswith("difficulty=") for o in s["options"]))
    await w.server.select(w.alice, lobby, difficulty["custom_id"], ["difficulty=hell"])
    assert "difficulty: hell" in str(lobby.embeds[0])
    await w.server.click(w.alice, lobby, label="Add bot")
    await w.server.click(w.alice, lobby, label="Start")
    t = Table(w, (await t_id(w)))
    row, board = await t.check_hidden()
    assert "Hell · deck" in board.embeds[0]["description"]
    state = GAME.load_state(row.state or {})
    while state["pending"] is not None:  # the first ghosts are placed
        a = GAME.legal_actions(state, 0)[0]
        await w.server.slash(w.alice, w.chan, "ghost choose", option=GAME.format_action(a))
        row, board = await t.check_hidden()
        state = GAME.load_state(row.state or {})
    move = next(a for a in GAME.legal_actions(state, 0) if a.parts[0] == "move")
    r = await w.server.slash(w.alice, w.chan, "ghost move", tile=move.parts[1])
    assert r.ephemeral and r.content.startswith(f"✅ Move to {move.parts[1].upper()}"), r.content


async def t_id(w: World) -> int:
    assert w.bot is not None
    return int((await w.bot.service.table_in_channel(w.chan.id)).id)


async def test_spending_the_yin_yang_from_the_board_asks_first(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.rules.test_ghost_stories_helpers import blank

    w = world
    fast_bots(monkeypatch)
    t = Table(w, await open_table(w, bots=1))
    await w.board()
    state = blank(2, diff="initiation")
    assert state["boards"][0]["yy"]
    row = await t.row()
    version = await t.service.store.apply(
        t.id,
        expected_version=row.version,
        seat=0,
        action={"kind": "setup"},
        events=[],
        state=GAME.dump_state(state),
        awaited={s: row.version + 1 for s in GAME.to_act(state)},
        kind="setup",
    )
    await w.server.slash(w.alice, w.chan, "game status")  # the board of the prepared position
    board = await w.board(lambda m: m.embeds[0].get("footer", {}).get("text", "").startswith(f"v{version} "))
    legal = [GAME.format_action(a) for a in GAME.legal_actions(state, 0)]
    text = next(a for a in legal if a.startswith("yinyang "))
    select = select_for(board, text)
    assert select is not None
    # a board click: the question is an ephemeral message; Cancel says nothing changed
    r = await w.server.select(w.alice, board, select["custom_id"], [text])
    question = r.response
    assert question is not None and question.ephemeral and question.content.startswith("⚠️ Spend your Yin-Yang")
    assert [b["label"] for b in question.buttons][1] == "Cancel"
    assert question.buttons[0]["label"].startswith("Yes, Yin-Yang: ")
    await w.server.click(w.alice, question, label="Cancel")
    assert question.content == "Nothing changed." and question.components == []
    assert (await t.row()).version == version
    # asked again, then yes: the token is spent
    r = await w.server.select(w.alice, board, select["custom_id"], [text])
    question = r.response
    assert question is not None
    await w.server.click(w.alice, question, custom_id=question.buttons[0]["custom_id"])
    row = await t.row()
    assert row.version > version and not (row.state or {})["boards"][0]["yy"]
