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

import pytest

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
        out += [x for o in c.get("options") or [] for x in (o.get("label", ""), o.get("description") or "")]
    out += [a.description or "" for a in message.attachments]
    return [t for t in out if t]


_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_NOT_PROSE = re.compile(r"`[^`]*`|/[a-z]+|<[@#!&:]*\w+>|https?://\S+|\*\*|\b[A-Z]-S[0-9]+\b|[0-9]+")


def unmarked_words(text: str, allowed: set[str]) -> list[str]:
    """Latin words of `text` outside every ⟦…⟧ marker, beyond names and notation in `allowed`."""
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    text = re.sub(r"⟦.*", " ", text, flags=re.S)  # an unclosed marker: a translation cut to fit a label
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


@pytest.mark.parametrize(
    ("key", "bots"), [("dawn_under", 0), ("sweets_stack", 1), ("trick_or_treat", 1), ("ghost_stories", 0)]
)
async def test_pseudo_locale_game_leaves_nothing_outside_the_catalogues(
    world: World, monkeypatch: Any, key: str, bots: int
) -> None:
    """Thirty moves of each game, everyone in the pseudo-locale: the lobby, every board (embed, buttons,
    menus, alt text), every answer and panel carry no English word outside ⟦…⟧ (names and notation aside)."""
    from bot.rules import Rng, get_game

    w = world
    assert w.bot is not None
    w.guild.preferred_locale = PSEUDO
    w.alice.locale = w.bob.locale = PSEUDO
    r = await w.server.slash(w.alice, w.chan, "game new", game=key)
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="⟦Join⟧")
    for _ in range(bots):
        await w.server.click(w.alice, r.response, label="⟦Add bot⟧")
    await w.server.click(w.alice, r.response, label="⟦Start⟧")
    table_id = (await w.bot.service.table_in_channel(w.chan.id)).id
    game = get_game(key)
    policy = game.bot_policy()
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    got: list[Message] = []
    choices: list[str] = []
    allowed_names = {"alice", "bob", "Bot"}
    moves = 0
    deadline = asyncio.get_running_loop().time() + 20
    while moves < 30 and asyncio.get_running_loop().time() < deadline:
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
        state = game.load_state(row.state or {})
        legal = game.legal_actions(state, seat.seat)
        action = policy.choose(game.view(state, seat.seat), legal, {}, Rng.from_seed(moves))
        if moves % 5 == 1:  # what `/game move action:` offers, in the reader's language (names in words)
            offered = await w.server.autocomplete(users[seat.user_id], w.chan, "game move", "action")
            assert offered, "the awaited player is offered their moves"
            choices += [c["name"] for c in offered]
        rec = await w.server.slash(users[seat.user_id], w.chan, "game move", action=game.format_action(action))
        got += rec.messages
    got += w.server.messages(w.chan)
    assert choices
    leaks_in_choices = {c: words for c in choices if (words := unmarked_words(c, allowed_names))}
    assert not leaks_in_choices, leaks_in_choices
    assert moves >= 20 and len(got) >= 30, "the game was played"
    # names (a bot seat is "Bot 1") and notation (Sweets Stack's card ids "B-S12", `/game new options:`)
    allowed = {"alice", "bob", "Bot", "Pseudo", "move", "hand", "log", "verify", "game"}
    for spec in game.options:  # notation: what players type in `/game new options:`
        choices = [*spec.choices, *(re.sub("[0-9]+", "", c) for c in spec.choices)]
        allowed |= {spec.name, *spec.name.split("_"), *choices, *(c for v in spec.choices for c in v.split("_"))}
    leaks = {t: words for m in got for t in _texts(m) if (words := unmarked_words(t, allowed))}
    assert not leaks, leaks


async def test_autocomplete_choices_speak_the_readers_language(world: World) -> None:
    """`/game move action:` and a game's own command (`/dawn flip grave:`) offer their choices in the
    language of whoever types: alice (zh-TW) reads Chinese, bob (en-US) English, at the same table."""
    w = world
    assert w.bot is not None
    w.alice.locale = "zh-TW"
    r = await w.server.slash(w.alice, w.chan, "game new", game="dawn_under")
    assert r.response is not None
    await w.server.click(w.bob, r.response, label="Join")  # the server's language: an English table
    await w.server.click(w.alice, r.response, label="Start")
    table_id = (await w.bot.service.table_in_channel(w.chan.id)).id
    row = await w.bot.service.table(table_id)
    first = min(row.awaited)
    user = w.alice if row.seats[first].user_id == w.alice.id else w.bob
    zh_user, en_user = (w.alice, w.bob)
    moves = await w.server.autocomplete(user, w.chan, "game move", "action")
    graves = await w.server.autocomplete(user, w.chan, "dawn flip", "grave", partial="C")
    assert moves and graves
    if user is zh_user:
        assert all(re.search("[\u4e00-\u9fff]", c["name"]) for c in moves), moves
        assert all(c["name"].endswith(("西北", "東北", "西南", "東南")) for c in graves), graves
    else:
        assert any(c["name"].startswith("Flip grave") for c in moves), moves
        assert all(c["name"].endswith(("north-west", "north-east", "south-west", "south-east")) for c in graves)
    # the other player (not awaited) is offered nothing to move, and `/game new game:` speaks their language too
    other = en_user if user is zh_user else zh_user
    assert await w.server.autocomplete(other, w.chan, "game move", "action") == []
    zh_games = await w.server.autocomplete(zh_user, w.chan, "game new", "game")
    en_games = await w.server.autocomplete(en_user, w.chan, "game new", "game")
    assert any("夜訪吸血鬼" in c["name"] for c in zh_games), zh_games
    assert any("Dawn Under" in c["name"] for c in en_games) and not any("夜訪吸血鬼" in c["name"] for c in en_games)
    # what a Chinese reader types in Chinese filters the choices too (not only the English labels)
    user.locale = "zh-TW"
    offered = await w.server.autocomplete(user, w.chan, "game move", "action")
    found = re.search("[\u4e00-\u9fff]{2}", offered[-1]["name"])
    assert found, offered
    typed = await w.server.autocomplete(user, w.chan, "game move", "action", partial=found.group(0))
    assert typed and all(found.group(0) in c["name"] for c in typed), (found.group(0), typed)


async def test_replay_and_verify_speak_the_readers_language(world: World) -> None:
    """`/game replay` (its heading, lines, buttons, step menu, animation) and `/game verify` answer a
    zh-TW reader in Chinese and an en-US reader in English, for the same finished table."""
    from tests.e2e.conftest import play_out, start_takeaway

    w = world
    assert w.bot is not None
    w.alice.locale = "zh-TW"
    await start_takeaway(w)
    (table,) = await w.bot.service.store.active_tables()
    await play_out(w, table.id)
    _, frames = await w.bot.service.replay_frames(table.id)
    last = len(frames) - 1
    zh = await w.server.slash(w.alice, w.chan, "game replay")
    msg = zh.response
    assert msg is not None and msg.ephemeral
    assert f"第 {table.id} 桌重播 — 第 0/{last} 步" in msg.content, msg.content
    assert "replay" not in msg.content and "begins" not in msg.content, msg.content
    assert msg.button("動畫") and msg.selects[0]["placeholder"] == "跳到某一步…"
    labels = [o["label"] for o in msg.selects[0]["options"]]
    assert labels[0] == f"第 0/{last} 步（開始）" and labels[-1] == f"第 {last}/{last} 步（結束）", labels
    await w.server.click(w.alice, msg, label="▶")
    assert f"第 1/{last} 步" in msg.content and "step" not in msg.content, msg.content
    anim = await w.server.click(w.alice, msg, label="動畫")
    (sent,) = [m for m in anim.messages if m.attachments]
    assert "格畫面" in sent.content and sent.attachments[0].description == f"第 {table.id} 桌的重播", sent.content
    en = await w.server.slash(w.bob, w.chan, "game replay")
    assert en.response is not None and f"#{table.id}, replay — step 0/{last}" in en.response.content
    assert en.response.button("Animation")
    # /game verify: the commitment, the seed and the record, in the reader's language
    zh_v = await w.server.slash(w.alice, w.chan, "game verify")
    en_v = await w.server.slash(w.bob, w.chan, "game verify")
    assert zh_v.response is not None and en_v.response is not None
    assert re.search("[\u4e00-\u9fff]", zh_v.response.content) and "commitment" not in zh_v.response.content
    assert zh_v.response.attachments[0].description == f"第 {table.id} 桌的紀錄"
    assert "commitment" in en_v.response.content
