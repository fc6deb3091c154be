"""English and 繁體中文 through the real bot and the local Discord (issue #16).

Who reads which language: the lobby, board, pings and game over follow the table's language (chosen
at /game new, by default the server's); ephemeral answers follow the reader's own locale. The
pseudo-locale run wraps every catalogue translation in ⟦…⟧, so any English left outside the markers
is a string that bypassed the catalogues.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.i18n import PSEUDO
from tests.e2e.conftest import WAIT, World, play_out
from tests.fakediscord import Message


def _texts(message: Message) -> list[str]:
    """Everything a player reads on a message: content, embed texts, component labels, alt text."""
    out = [message.content]
    for e in message.embeds:
        out += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        out += [f.get("name", "") + "\n" + f.get("value", "") for f in e.get("fields") or []]
    for c in message.all_components():
        out += [c.get("label") or "", c.get("placeholder") or ""]
        out += [o.get("label", "") + " " + (o.get("description") or "") for o in c.get("options") or []]
    out += [a.description or "" for a in message.attachments]
    return [t for t in out if t]


_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_NOT_PROSE = re.compile(r"`[^`]*`|/[a-z]+|<[@#!&:]*\w+>|https?://\S+|\*\*|[0-9]+")


def unmarked_words(text: str, allowed: set[str]) -> list[str]:
    """Latin words of `text` outside every ⟦…⟧ marker, beyond names and notation in `allowed`."""
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    text = _NOT_PROSE.sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", text) if w not in allowed]


def _option_descriptions(cmd: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    out = [(path, cmd)]
    for opt in cmd.get("options") or []:
        out += _option_descriptions(opt, f"{path} {opt['name']}")
    return out


async def test_synced_commands_carry_traditional_chinese_descriptions(world: World) -> None:
    commands = world.server.commands(world.guild)
    assert commands
    described = [item for cmd in commands for item in _option_descriptions(cmd, "/" + cmd["name"])]
    missing = [p for p, c in described if not (c.get("description_localizations") or {}).get("zh-TW")]
    assert not missing, missing
    game = next(c for c in commands if c["name"] == "game")
    assert game["description_localizations"]["zh-TW"] == "在這張牌桌玩桌遊"
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["description_localizations"]["zh-TW"] == "在這個頻道開一張遊戲牌桌"
    # names stay English: every text of the bot cites /game move, in both languages
    assert all(not c.get("name_localizations") for _, c in described)
    notify = next(o for o in game["options"] if o["name"] == "notify")
    choices = notify["options"][0]["choices"]
    assert {c["name_localizations"]["zh-TW"] for c in choices} >= {"只有提醒"}


async def test_a_chinese_table_with_an_english_player(world: World) -> None:
    """A zh-TW server: alice reads Chinese, bob English. The public messages are Chinese; what only
    bob reads is English; a whole (short) game to its end."""
    w = world
    w.guild.preferred_locale = "zh-TW"
    w.alice.locale = "zh-TW"
    r = await w.server.slash(w.alice, w.chan, "game new", game="takeaway", options="pile=7")
    lobby = r.response
    assert lobby is not None, r.content
    embed = lobby.embeds[0]
    assert "大廳" in embed["title"]
    assert any(f["name"] == "語言" and f["value"] == "繁體中文" for f in embed["fields"])
    assert {b["label"] for b in lobby.buttons} >= {"加入", "離開", "開始", "取消"}
    # bob (en-US) joins with the Chinese button; the public lobby stays Chinese for everyone
    joined = await w.server.click(w.bob, lobby, label="加入")
    assert joined.response is not None and "大廳" in joined.response.embeds[0]["title"]
    # what only bob reads is in English, what only alice reads is in Chinese
    refused = await w.server.slash(w.bob, w.chan, "game start")
    assert refused.response is not None and refused.response.ephemeral
    assert refused.response.content.startswith("Only the host"), refused.response.content
    again = await w.server.slash(w.alice, w.chan, "game join")
    assert again.response is not None and again.response.content == "你已經坐在這張牌桌了。"
    await w.server.click(w.alice, lobby, label="開始")

    def is_board(m: Message) -> bool:
        return bool(m.embeds) and "桌" in m.embeds[0].get("title", "") and "Take-Away" in m.embeds[0]["title"]

    await w.server.wait_for_message(w.chan, is_board, timeout=WAIT)
    board = [m for m in w.server.messages(w.chan) if is_board(m)][-1]
    assert board.embeds[0]["title"].endswith("桌") and "第" in board.embeds[0]["title"]
    assert {"操作", "我的面板"} & {b.get("label") for b in board.buttons}
    table = await w.bot.service.table_in_channel(w.chan.id) if w.bot else None
    assert table is not None and table.lang == "zh-TW"
    assert {s.user_id: s.locale for s in table.seats} == {w.alice.id: "zh-TW", w.bob.id: "en-US"}
    # a move out of turn: each reader gets the refusal in their own language
    row = await w.bot.service.table(table.id)  # type: ignore[union-attr]
    idle = [s for s in row.seats if s.seat not in row.awaited]
    if idle:
        user = w.alice if idle[0].user_id == w.alice.id else w.bob
        no = await w.server.slash(user, w.chan, "game move", action="take 1")
        text = no.response.content if no.response else ""
        assert ("現在沒有在等你" in text) if user is w.alice else text.startswith("Nothing is awaited"), text
    await play_out(w, table.id, max_moves=40)
    final = await w.bot.service.table(table.id)  # type: ignore[union-attr]
    assert final.status == "finished"

    def is_over(m: Message) -> bool:
        return any("遊戲結束" in t for t in _texts(m))

    await w.server.wait_for_message(w.chan, is_over, timeout=WAIT)
    public = "\n".join(t for m in w.server.messages(w.chan) for t in _texts(m))
    assert "Game over" not in public and "Waiting for" not in public and "lobby" not in public


async def test_help_and_rules_in_both_languages(world: World) -> None:
    w = world
    w.alice.locale = "zh-TW"
    zh = await w.server.slash(w.alice, w.chan, "game help")
    en = await w.server.slash(w.bob, w.chan, "game help")
    assert zh.response is not None and en.response is not None
    assert "非同步" in zh.response.embeds[0]["description"]
    assert en.response.embeds[0]["description"].startswith("Asynchronous board games")
    zh_games = next(f["value"] for f in zh.response.embeds[0]["fields"] if f["name"] == "遊戲")
    assert "聊齋" in zh_games and "夜訪吸血鬼" in zh_games and "甜蜜堆疊" in zh_games
    zh_rules = await w.server.slash(w.alice, w.chan, "game rules", game="ghost_stories")
    en_rules = await w.server.slash(w.bob, w.chan, "game rules", game="ghost_stories")
    assert zh_rules.response is not None and en_rules.response is not None
    assert zh_rules.response.embeds[0]["title"] == "聊齋 玩法"
    assert en_rules.response.embeds[0]["title"] == "How to play Ghost Stories"
    options = next(f["value"] for f in zh_rules.response.embeds[0]["fields"] if "選項" in f["name"])
    assert "`difficulty`" in options and "預設" in options and "新手、一般、惡夢或地獄" in options


async def test_pseudo_locale_finds_no_string_outside_the_catalogues(world: World) -> None:
    """Every translation wrapped in ⟦…⟧: the lobby, its buttons, help, rules and refusals that a
    pseudo-locale reader receives contain no English outside the markers (names and notation aside)."""
    w = world
    w.guild.preferred_locale = PSEUDO
    w.alice.locale = w.bob.locale = PSEUDO
    allowed = {
        "alice",
        "bob",
        "takeaway",
        "pile",
        "difficulty",
        "initiation",
        "normal",
        "nightmare",
        "hell",
        "Spooky",
        "Table",
        "move",
        "hand",
        "rules",
        "new",
        "game",
    }
    got: list[Message] = []
    r = await w.server.slash(w.alice, w.chan, "game new", game="ghost_stories")
    assert r.response is not None
    got.append(r.response)
    joined = await w.server.click(w.bob, r.response, label="⟦Join⟧")
    assert joined.response is not None
    got.append(joined.response)
    for user, command, opts in (
        (w.bob, "game start", {}),
        (w.bob, "game join", {}),
        (w.alice, "game help", {}),
        (w.alice, "game rules", {"game": "dawn_under"}),
        (w.bob, "game move", {"action": "x"}),
        (w.alice, "game mine", {}),
        (w.alice, "game log", {}),
        (w.bob, "game stats", {}),
        (w.bob, "game away", {"days": 0.0}),
    ):
        rec = await w.server.slash(user, w.chan, command, **opts)
        assert rec.response is not None, command
        if command == "game rules":  # its how-to is a document per language (data/<game>/howto.<lang>.md)
            rec.response.embeds[0]["description"] = ""
        got.append(rec.response)
    # notation, not prose: command and subcommand names, and the options' names and values, which
    # players type as written in `/game new options:` (the lobby menus show them the same way)
    from bot.rules import get_game

    for key in ("ghost_stories", "dawn_under"):
        for spec in get_game(key).options:
            allowed |= {spec.name, *spec.name.split("_"), *spec.choices}
    allowed.add("Pseudo")  # the language's own name
    allowed |= {c["name"] for cmd in w.server.commands(w.guild) for c in [cmd, *(cmd.get("options") or [])]}
    leaks = {t: words for m in got for t in _texts(m) if (words := unmarked_words(t, allowed))}
    assert not leaks, leaks


async def _whole_game(
    w: World, key: str, bots: int, max_moves: int, host_resigns: bool = False
) -> tuple[list[str], dict[int, list[str]]]:
    """A zh-TW table of `key`: alice (zh-TW) hosts, bob (en-US) joins, `bots` bot seats; whoever is
    awaited types the move the game's own bot would choose in their seat (so the game ends soon).
    Returns the channel's texts and each user's answers."""
    from bot.rules import Rng, get_game

    policy = get_game(key).bot_policy()

    assert w.bot is not None
    w.guild.preferred_locale = "zh-TW"
    w.alice.locale = "zh-TW"
    r = await w.server.slash(w.alice, w.chan, "game new", game=key)
    lobby = r.response
    assert lobby is not None, r.content
    await w.server.click(w.bob, lobby, label="加入")
    for _ in range(bots):
        await w.server.click(w.alice, lobby, label="加入機器人")
    await w.server.click(w.alice, lobby, label="開始")
    table_id = (await w.bot.service.table_in_channel(w.chan.id)).id
    if host_resigns:  # a bot plays alice's seat: bob is the only human left (a shorter test)
        left = await w.server.slash(w.alice, w.chan, "game resign")
        assert left.response is not None and "退出" in left.response.content, left.response
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    answers: dict[int, list[str]] = {w.alice.id: [], w.bob.id: []}
    moves = 0
    deadline = asyncio.get_running_loop().time() + 60
    while moves < max_moves and asyncio.get_running_loop().time() < deadline:
        row = await w.bot.service.table(table_id)
        if row.status != "active":
            break
        humans = [s for s in row.awaited if not row.seats[s].played_by_bot]
        if not humans:  # a bot's move is on its way
            await asyncio.sleep(0.02)
            continue
        moves += 1
        seat = row.seats[min(humans)]
        assert seat.user_id is not None
        game = get_game(row.game)
        state = game.load_state(row.state or {})
        legal = game.legal_actions(state, seat.seat)
        choice = policy.choose(game.view(state, seat.seat), legal, {}, Rng.from_seed(f"zh:{moves}"))
        move = game.format_action(choice)
        rec = await w.server.slash(users[seat.user_id], w.chan, "game move", action=move)
        answers[seat.user_id] += [t for m in rec.messages for t in _texts(m)]
    row = await w.bot.service.table(table_id)
    assert row.status == "finished", f"{key} did not end in {max_moves} moves"
    await w.server.wait_for_message(w.chan, lambda m: any("遊戲結束" in t for t in _texts(m)), timeout=WAIT)
    return [t for m in w.server.messages(w.chan) for t in _texts(m)], answers


async def test_a_whole_game_of_dawn_under_at_a_chinese_table(world: World, monkeypatch: Any) -> None:
    from tests.e2e.test_dawn_under import fixed_seed

    fixed_seed(monkeypatch, 10)
    public, answers = await _whole_game(world, "dawn_under", bots=1, max_moves=300)
    text = "\n".join(public)
    assert "夜訪吸血鬼" in text and "翻開" in text and "遊戲結束" in text and "吸血鬼" in text
    # the seats are named, never "Seat N", and no English sentence of the core or the platform is left
    for english in ("Seat ", "flips", "vampire", "Waiting for", "Game over", "turn: flip"):
        assert english not in text, english
    assert any(a.startswith("✅ 翻開棺材") for a in answers[world.alice.id]), answers[world.alice.id][:3]
    assert any(a.startswith("✅ Flip grave") for a in answers[world.bob.id]), answers[world.bob.id][:3]


async def test_a_whole_game_of_sweets_stack_at_a_chinese_table(world: World) -> None:
    public, answers = await _whole_game(world, "sweets_stack", bots=0, max_moves=200)
    text = "\n".join(public)
    assert "甜蜜堆疊" in text and "遊戲結束" in text and "糖果" in text
    for english in ("Seat ", "seat ", "stacks", "Round ", "Waiting for", "Game over", "Totals"):
        assert english not in text, english
    assert any("✅" in a and "傳" in a for a in answers[world.alice.id]), answers[world.alice.id][:3]
    assert any(a.startswith("✅ Pass ") for a in answers[world.bob.id]), answers[world.bob.id][:3]


async def test_a_whole_game_of_trick_or_treat_at_a_chinese_table(world: World, monkeypatch: Any) -> None:
    import bot.rules.trick_or_treat.game as tot

    # a short game: the last round comes at 4 points instead of the seed's 12 (what is tested here is
    # the language of every message to the end, not the length of the game)
    monkeypatch.setattr(tot, "TARGET", 4)
    public, answers = await _whole_game(world, "trick_or_treat", bots=1, max_moves=600, host_resigns=True)
    text = "\n".join(public)
    assert "不給糖就搗蛋" in text and "遊戲結束" in text and "分數" in text
    for english in ("P1 ", "P2 ", "Round ", "Scores", "Waiting for", "Game over", "rolls"):
        assert english not in text, english
    assert any(a.startswith("✅") for a in answers[world.bob.id])


async def test_a_whole_game_of_ghost_stories_at_a_chinese_table(world: World) -> None:
    public, answers = await _whole_game(world, "ghost_stories", bots=0, max_moves=400, host_resigns=True)
    text = "\n".join(public)
    assert "聊齋" in text and "遊戲結束" in text and "道士" in text
    # (names from the game's data, like the tiles', are glossary terms: English until data/ghost_stories/glossary.tsv)
    for english in ("Taoist (", "Taoist to", "Yin phase", "Waiting for", "Game over", "The team", "must place"):
        assert english not in text, english
    assert any(a.startswith("✅") for a in answers[world.bob.id])


async def test_pseudo_locale_dawn_under_game_leaves_nothing_outside_the_catalogues(world: World) -> None:
    """Thirty moves of Dawn Under, everyone in the pseudo-locale: the lobby, every board (embed, buttons,
    menus, alt text), every answer and panel carry no English word outside ⟦…⟧ (names and notation aside)."""
    from bot.rules import Rng, get_game

    w = world
    assert w.bot is not None
    w.guild.preferred_locale = PSEUDO
    w.alice.locale = w.bob.locale = PSEUDO
    r = await w.server.slash(w.alice, w.chan, "game new", game="dawn_under")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="⟦Join⟧")
    await w.server.click(w.alice, r.response, label="⟦Start⟧")
    table_id = (await w.bot.service.table_in_channel(w.chan.id)).id
    game = get_game("dawn_under")
    policy = game.bot_policy()
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    got: list[Message] = []
    for i in range(30):
        row = await w.bot.service.table(table_id)
        if row.status != "active":
            break
        seat = row.seats[min(row.awaited)]
        assert seat.user_id is not None
        state = game.load_state(row.state or {})
        action = policy.choose(game.view(state, seat.seat), game.legal_actions(state, seat.seat), {}, Rng.from_seed(i))
        rec = await w.server.slash(users[seat.user_id], w.chan, "game move", action=game.format_action(action))
        got += rec.messages
    got += w.server.messages(w.chan)
    assert (await w.bot.service.table(table_id)).version >= 25 and len(got) >= 30, "the game was played"
    allowed = {"alice", "bob", "Pseudo", "move", "hand", "log", "verify", "game"}
    for spec in game.options:  # notation: what players type in `/game new options:`
        allowed |= {spec.name, *spec.name.split("_"), *spec.choices, *(c for v in spec.choices for c in v.split("_"))}
    leaks = {t: words for m in got for t in _texts(m) if (words := unmarked_words(t, allowed))}
    assert not leaks, leaks
