"""A seat's private panel made in a render worker (`rendering.panels`) is the one the bot process made:
the same picture, alt text, status line and legal moves, from that seat's view only; a board likewise,
from the public view."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.i18n import tr
from bot.rules import Rng, get_game
from bot.statecache import StateCache
from bot.tables.text import ALT_TEXT_MAX, escape
from cogs.common.ui import alt_text, render_png, text_view
from rendering import panels
from rendering.panels import BoardJob, BoardParts, PanelJob, PanelParts, make_panel
from rendering.pool import Renderer, RenderPool

NAMES = ("Ann **bold**", "<@123456789012345678>", "Cy", "Dee")


def pixels(png: bytes | None) -> tuple[tuple[int, int], bytes] | None:
    """What a PNG shows (its size and RGB pixels). The same picture, not the same bytes: a palette
    image's entries come in the order its colours were first used, which follows the process's
    renderer caches (a cached tile pastes its colours at once), so a fresh worker and a warm test
    process may order them differently; `tests/rendering/test_caches.py` checks cold = warm the same way."""
    if png is None:
        return None
    with Image.open(io.BytesIO(png)) as img:
        return img.size, img.convert("RGB").tobytes()


def seen(parts: PanelParts | BoardParts) -> tuple[Any, Any]:
    """A panel's or board's parts as a reader gets them: the texts and legal moves, and the picture."""
    return replace(parts, png=None), pixels(parts.png)


def positions(key: str, moves: int = 12) -> list[tuple[str, int, int]]:
    """(stored state text, version, seat to act) along a bot game of three."""
    game = get_game(key)
    state = game.new(3, 7, game.check_options({}))
    bot, rng, out = game.bot_policy(), Rng(7), []
    for version in range(moves):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        out.append((json.dumps(game.dump_state(state)), version, seat))
        state, _ = game.apply(state, seat, bot.choose(game.view(state, seat), game.legal_actions(state, seat), {}, rng))
    return out


def in_process(key: str, text: str, seat: int, lang: str) -> PanelParts:
    """The panel's parts as `TableCog.build_panel` made them before (the seat's view in this process)."""
    game = get_game(key)
    state = game.load_state(json.loads(text))
    view = game.view(state, seat)
    view.setdefault("players", 3)
    view.setdefault("title", game.title)
    view["names"] = list(NAMES[:3])
    status = tr(lang, game.status(text_view(view)))
    legal = game.legal_actions(state, seat)
    alt = alt_text(game, view, lang=lang)  # the image was drawn in a worker, from a copy of the view
    return PanelParts(status, legal, render_png(key, view, lang), alt)


def job(key: str, text: str, version: int, seat: int, lang: str) -> PanelJob:
    names = NAMES[:3]
    return PanelJob(key, 1, version, text, seat, names, tuple(escape(n) for n in names), lang, True, True, ALT_TEXT_MAX)


async def test_a_panel_made_in_a_worker_is_the_one_made_in_process() -> None:
    pool = RenderPool(1)
    renderer = Renderer(pool, 1)
    try:
        for key in ("sweets_stack", "trick_or_treat"):
            cases = positions(key)
            assert len(cases) >= 6
            for i, (text, version, seat) in enumerate(cases[:6]):
                lang = "zh-TW" if i % 3 == 2 else "en-US"
                expected = in_process(key, text, seat, lang)
                made, png = await renderer.call("rendering.panels", "make_panel", job(key, text, version, seat, lang))
                got = replace(made, png=png)
                assert pixels(got.png) == pixels(expected.png), (key, i)
                assert got.alt == expected.alt and got.alt
                assert got.status == expected.status
                assert got.legal == expected.legal
    finally:
        pool.close()


def board_in_process(key: str, text: str, changes: tuple[str, ...], lang: str) -> BoardParts:
    """The board's parts as `TableCog._draw_board` and `_post_board` made them before."""
    game = get_game(key)
    view = game.view(game.load_state(json.loads(text)), None)
    view.setdefault("players", 3)
    view.setdefault("title", game.title)
    view["names"] = list(NAMES[:3])
    view = game.lasting_view(view, {})
    status = tr(lang, game.status(text_view(view)))
    alt = alt_text(game, view, changes, lang=lang)
    return BoardParts(status, render_png(key, view, lang), alt)


async def test_a_board_made_in_a_worker_is_the_one_made_in_process() -> None:
    pool = RenderPool(1)
    renderer = Renderer(pool, 1)
    changes = ("**Ann** passed a card.", "Cy placed a candy at row 1, column 3.")
    try:
        for key in ("sweets_stack", "trick_or_treat", "dawn_under", "ghost_stories"):
            for i, (text, version, _) in enumerate(positions(key)[:4]):
                lang = "zh-TW" if i == 3 else "en-US"
                names = NAMES[:3]
                job = BoardJob(
                    key, 1, version, text, names, tuple(escape(n) for n in names), lang, {}, changes, ALT_TEXT_MAX
                )
                made, png = await renderer.call("rendering.panels", "make_board", job)
                got = replace(made, png=png)
                assert seen(got) == seen(board_in_process(key, text, changes, lang)), (key, i)
                assert "Just now" in got.alt or lang != "en-US"
    finally:
        pool.close()


def test_a_panel_is_made_from_its_own_seats_view_only() -> None:
    """Two seats of one position: each panel is its own seat's (a secret of one is not in the other's)."""
    text, version, _ = positions("sweets_stack")[3]
    (_, one), (_, two) = (make_panel(job("sweets_stack", text, version, seat, "en-US")) for seat in (0, 1))
    assert pixels(one) == pixels(in_process("sweets_stack", text, 0, "en-US").png)
    assert pixels(two) == pixels(in_process("sweets_stack", text, 1, "en-US").png)
    assert pixels(one) != pixels(two)


def test_a_state_is_parsed_once_per_version_and_never_served_for_another_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panels, "_states", StateCache(entries=panels.STATES))
    first: Any = panels._states.parsed(5, 3, '{"a": 1}')
    assert panels._states.parsed(5, 3, '{"a": 1}') is first
    assert panels._states.parsed(5, 3, '{"a": 2}') == {"a": 2}  # the row changed at that version (an undo)
    assert panels._states.parsed(5, 4, '{"a": 2}') is not first
    for table in range(panels.STATES + 5):
        panels._states.parsed(100 + table, 0, "{}")
    assert len(panels._states) == panels.STATES


async def test_with_no_processes_a_panel_is_made_in_a_thread_the_same() -> None:
    text, version, seat = positions("sweets_stack")[2]
    made, png = await Renderer(RenderPool(0), 1).call(
        "rendering.panels", "make_panel", job("sweets_stack", text, version, seat, "en-US")
    )
    assert seen(replace(made, png=png)) == seen(in_process("sweets_stack", text, seat, "en-US"))
