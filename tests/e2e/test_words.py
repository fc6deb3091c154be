"""Issue #12, "Learn on the spot" and "Accessible": how to play in `/game rules`, every game's commands in
`/game help`, a tip on the first board, alt text on every image the bot sends (never more than the
view it was drawn from), `/game status text:true`, and players named by their names, never "Seat 2".

Games are played through `/game move` in the local Discord, each move chosen by the seat's own bot
policy from the seat's own view (as a careful human would).
"""

from __future__ import annotations

import json
import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.rules import Rng, get_game
from bot.store import TableRow
from tests.e2e.conftest import World
from tests.e2e.test_dawn_under import fixed_seed
from tests.fakediscord import Message, User

GROUPS = {"dawn_under": "dawn", "sweets_stack": "sweets", "trick_or_treat": "trick", "ghost_stories": "ghost"}
SEAT_WORDS = re.compile(r"\b[Ss]eat \d|\bP\d\b")  # what a core says when it does not know the names
# Sweets Stack's candy shapes have names such as P5 ("yellow P5"): there only "seat N" is a seat
SWEETS_SEAT_WORDS = re.compile(r"\b[Ss]eat \d")


def seat_words(key: str) -> re.Pattern[str]:
    return SWEETS_SEAT_WORDS if key == "sweets_stack" else SEAT_WORDS


ALT_MAX = 1024


def images(w: World) -> list[Any]:
    """Every image the bot ever uploaded (boards edited since, DMs, ephemeral panels included)."""
    return [a for a in w.server._attachments.values() if a.filename.endswith(".png")]


def board_texts(m: Message) -> str:
    embed = m.embeds[0]
    fields = " ".join(f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", []))
    return " ".join([m.content, embed.get("title", ""), embed.get("description", ""), fields])


def boards(w: World) -> list[Message]:
    return [m for m in w.server.messages(w.chan) if m.embeds and "· table #" in m.embeds[0].get("title", "")]


async def open_table(w: World, key: str, *joiners: User, options: str | None = None) -> TableRow:
    extra = {"options": options} if options else {}
    r = await w.server.slash(w.alice, w.chan, "game new", game=key, **extra)
    assert r.response is not None and not r.ephemeral, r.content
    for user in joiners:
        await w.server.click(user, r.response, label="Join")
    await w.server.click(w.alice, r.response, label="Start")
    assert w.bot is not None
    await w.bot.busy.idle()
    return await w.bot.service.table_in_channel(w.chan.id)


def secrets_of(game_key: str, seat_view: dict[str, Any], public: str) -> set[str]:
    """What a seat's own view holds that nothing public says: its hand and its pick (Sweets Stack's
    card ids), its garlic and its gift (Dawn Under's graves and ends) — minus anything public."""
    found: set[str] = set()
    you = seat_view.get("you") or {}
    found.update(str(c) for c in you.get("hand") or [])
    if you.get("pick"):
        found.add(str(you["pick"]))
    found.update(str(g) for g in seat_view.get("my_garlic") or [])
    return {s for s in found if s and s not in public}


async def play_by_move(
    w: World, key: str, users: dict[int, User], *, max_moves: int, seed: int = 7
) -> tuple[TableRow, dict[str, int]]:
    """Play `key` through `/game move` until it ends (or `max_moves`), checking after every move that
    the board names players by name and that its image's alt text says only what is public."""
    assert w.bot is not None
    service = w.bot.service
    game = get_game(key)
    table = await service.table_in_channel(w.chan.id)
    policy = game.bot_policy()
    memory: dict[int, Any] = {s: {} for s in users}
    seen: set[tuple[int, int]] = set()
    counts = {"moves": 0, "boards": 0, "secrets_checked": 0}
    for step in range(max_moves):
        row = await service.table(table.id)
        if row.status != "active":
            break
        state = service.state_of(row)
        for s in users:
            memory[s] = policy.observe(memory[s], game.view(state, s))
        seat = min(s for s in row.awaited if s in users)
        legal = game.legal_actions(state, seat)
        action = policy.choose(game.view(state, seat), legal, memory[seat], Rng.from_seed(f"{seed}:{step}"))
        r = await w.server.slash(users[seat], w.chan, "game move", action=game.format_action(action))
        assert r.ephemeral and not r.content.startswith("Sorry"), r.content
        await w.bot.busy.idle()
        counts["moves"] += 1
        after = await service.table(table.id)
        public_view = service.view_for(after, None)
        public = json.dumps(public_view, ensure_ascii=False) + " ".join(t for _, _, t in await service.log(table.id))
        for board in boards(w):
            if (board.id, board.edits) in seen:
                continue
            seen.add((board.id, board.edits))
            counts["boards"] += 1
            text = board_texts(board)
            assert not seat_words(key).search(text), text
            assert board.attachments, "a board has its image"
            alt = board.attachments[0].description or ""
            assert 0 < len(alt) <= ALT_MAX and game.title in alt, alt
            assert not seat_words(key).search(alt), alt
            if board.id == after.board_message_id and after.status == "active":
                for s in range(len(after.seats)):
                    hidden = secrets_of(key, service.view_for(after, s), public)
                    counts["secrets_checked"] += len(hidden)
                    assert not [h for h in hidden if h in alt], (s, hidden, alt)
    return await service.table(table.id), counts


def assert_every_image_has_alt_text(w: World) -> None:
    shots = images(w)
    assert shots
    missing = [a.filename for a in shots if not (a.description or "").strip()]
    assert not missing, missing
    assert all(len(a.description) <= ALT_MAX for a in shots)


# -- whole games ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "options", "max_moves"),
    [
        ("dawn_under", None, 700),
        ("sweets_stack", None, 700),
        ("trick_or_treat", None, 150),  # a long game: 150 moves check every image and name; the end is
        # covered by tests/e2e/test_trick_or_treat.py's whole four-player game
        ("ghost_stories", None, 1500),
    ],
)
async def test_a_whole_game_has_alt_text_on_every_image_and_names_on_every_board(
    world: World, monkeypatch: pytest.MonkeyPatch, key: str, options: str | None, max_moves: int
) -> None:
    w = world
    fixed_seed(monkeypatch, 12)
    await open_table(w, key, w.bob, options=options)
    first = boards(w)[0]
    assert "💡" in first.embeds[0]["description"], "the first board carries a tip for the first player"
    row, counts = await play_by_move(w, key, {0: w.alice, 1: w.bob}, max_moves=max_moves)
    assert row.status == "finished" or key == "trick_or_treat", counts
    assert "💡" not in boards(w)[-1].embeds[0]["description"], "the tip is for the first board only"
    assert_every_image_has_alt_text(w)
    assert w.bot is not None
    lines = [t for _, _, t in await w.bot.service.log(row.id)]
    leaks = [t for t in lines if seat_words(key).search(t)]
    assert not leaks, leaks[:5]
    if row.status == "finished":
        await w.server.wait_for_message(w.chan, lambda m: m.content.startswith("🏁"))
    said = [
        m.content + json.dumps(m.embeds, ensure_ascii=False)
        for m in w.server.messages(w.chan)
        if m.author is w.server.bot_user
    ]  # the game-over message and its standings too
    assert not [t for t in said if seat_words(key).search(t)]
    if key == "sweets_stack":  # DM panels: the seat's own view, so its hand is in its alt text
        assert counts["secrets_checked"] > 0
        panels = [a for a in images(w) if a.filename == "panel.png"]
        assert panels and any("Your hand:" in (a.description or "") for a in panels)


# -- learn on the spot ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(GROUPS))
async def test_rules_answers_how_to_play_with_the_full_rules_attached(world: World, key: str) -> None:
    w = world
    r = await w.server.slash(w.alice, w.chan, "game rules", game=key)
    assert r.ephemeral and r.embeds, r.content
    how = r.embeds[0]["description"]
    assert 300 <= len(how) <= 4000, len(how)
    assert f"/{GROUPS[key]} " in how, "the game's own commands are named"
    assert get_game(key).title in r.embeds[0]["title"]
    docs = [a for a in r.attachments if a.filename.endswith(".md")]
    assert docs and docs[0].filename == f"{key}.md" and docs[0].description


async def test_help_lists_every_games_command_group_from_the_command_tree(world: World) -> None:
    w = world
    r = await w.server.slash(w.alice, w.chan, "game help")
    assert r.ephemeral and r.embeds
    text = json.dumps(r.embeds[0], ensure_ascii=False)
    for group in GROUPS.values():
        assert f"**/{group}**" in text, group
    assert "/game rules" in text
    groups = next(f for f in r.embeds[0]["fields"] if f["name"] == "Each game's own commands")["value"]
    assert len(groups.splitlines()) == len(GROUPS), groups  # one line each
    assert "`flip`" in groups and "`pick`" in groups


async def test_status_as_text_gives_the_public_board_in_words(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    fixed_seed(monkeypatch, 12)
    table = await open_table(w, "sweets_stack", w.bob)
    before = len(boards(w))
    r = await w.server.slash(w.alice, w.chan, "game status", text=True)
    assert r.ephemeral and r.embeds and not r.attachments
    embed = r.embeds[0]
    assert "Sweets Stack" in embed["title"] and "as text" in embed["title"]
    body = embed["description"]
    assert "alice" in body and "bob" in body and "Buckets:" in body
    assert "Your hand" not in body, "the public board, never a seat's secrets"
    assert w.bot is not None
    for seat in range(2):
        hand = w.bot.service.view_for(table, seat)["you"]["hand"]
        assert not [c for c in hand if c in body]
    assert len(boards(w)) == before, "text:true only answers; it posts no board"
    assert not SWEETS_SEAT_WORDS.search(body), body


async def test_a_new_games_command_group_appears_in_help_by_itself(world: World) -> None:
    w = world
    assert w.bot is not None
    group = app_commands.Group(name="zombie", description="Zombie Dice moves")

    @group.command(name="roll", description="Roll the dice")
    async def roll(interaction: discord.Interaction) -> None:  # pragma: no cover - never invoked
        pass

    w.bot.tree.add_command(group)
    try:
        cog = w.bot.get_cog("TableCog")
        lines = cog.game_groups().splitlines()  # type: ignore[union-attr]
        assert "**/zombie** — Zombie Dice moves: `roll`" in lines and len(lines) == len(GROUPS) + 1
    finally:
        w.bot.tree.remove_command("zombie")


# -- labels: Discord's limits cut at a word ---------------------------------------------------------------
def test_a_label_too_long_for_discord_is_cut_after_a_whole_word_with_an_ellipsis() -> None:
    """Buttons (80 characters), select options and autocomplete names (100): a plain slice would show
    "Exorcise the Gh"; every label goes through `fit_label` at the components themselves."""
    from cogs.common.ui import LABEL_MAX, OPTION_MAX, TableButton, TableSelect, choice, fit_label

    long = "Exorcise the Ghoul of the Eastern Graveyard with two yellow dice and the Tao tokens of the red Taoist"
    assert len(long) > OPTION_MAX
    cut = fit_label(long)
    assert len(cut) <= OPTION_MAX and cut.endswith("…") and long.startswith(cut[:-1])
    assert long[len(cut) - 1] == " ", f"cut mid-word: {cut!r}"
    assert fit_label("Drop it in column 3") == "Drop it in column 3"
    assert fit_label("x" * 120) == "x" * 99 + "…"  # one word (a long name) has nowhere else to go
    button = TableButton("do", 1, 0, "x", label=long)
    label = button.item.label or ""
    assert len(label) <= LABEL_MAX and long[len(label) - 1] == " " and label.endswith("…")
    select = TableSelect("do", 1, 0, "x", options=[discord.SelectOption(label=long, value="v", description=long)])
    option = select.item.options[0]
    assert option.label == cut and option.description == cut
    assert choice(long, "v").name == cut


def test_no_cog_slices_a_label_or_a_choice_name() -> None:
    """Every label, description and autocomplete name in the cogs is fitted, none sliced ("…"[:100])."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "cogs"
    sliced = re.compile(r"\[:(80|100|150)\]")  # Discord's text limits (lists are cut at 25)
    found = [
        f"{p.relative_to(root)}:{i}: {line.strip()}"
        for p in root.rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if any(not re.search(r"(value|val|text|_notation\(a\))$", line[: m.start()]) for m in sliced.finditer(line))
    ]  # a value is notation: it is never cut
    assert not found, found
