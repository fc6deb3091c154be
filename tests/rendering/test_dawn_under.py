"""Golden images for the Dawn Under renderer, built from fixed, deterministic game positions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.rules.dawn_under import GAME
from rendering.base import MAX_PNG_BYTES, encode_png
from rendering.dawn_under import render
from tests.rendering.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "dawn_under"
# display names, as the platform puts them in every view (a long one is shortened, a CJK one drawn)
NAMES = ["alice", "Bartholomew the Unready", "卡羅爾", "dave"]


def _named(view: dict[str, Any]) -> dict[str, Any]:
    view["names"] = NAMES[: int(view["players"])]
    return view


def _play(state: dict[str, Any], moves: list[tuple[int, str]]) -> dict[str, Any]:
    for seat, text in moves:
        state, _ = GAME.apply(state, seat, GAME.parse_action(text))
    return state


def opening_public() -> dict[str, Any]:
    """Four players, nothing opened yet."""
    return _named(GAME.view(GAME.new(4, 11), None))


def _plague_position(**opts: str) -> dict[str, Any]:
    s = GAME.new(3, 5, opts or None)
    s["turn"] = s["actor"] = 0
    for g in s["lid"]:
        s["lid"][g], s["content"][g] = "W", None
    s["lid"]["B2"] = "rat"
    s["lid"]["A1"], s["content"]["A1"] = "K", "v:K"
    s["lid"]["A2"] = "R"
    s["lid"]["C1"], s["content"]["C1"] = "G", "g:2"
    s["garlic"][2] = 2
    s["content"]["F6"] = "g:1"
    s["garlic"][1] = 2
    s["rows"][0] = list("RGbyywgkYB")
    s["rows"][1] = list("YKrrGB")
    s["rows"][2] = list("WWkkRR")
    s["stakes"] = [1, 2, 0]
    return _play(s, [(0, "flip B2"), (0, "flip A2"), (0, "flip A3"), (0, "flip C1")])


def plague_gift_public() -> dict[str, Any]:
    """A plague in progress: the rat, open lids, a garlic found and its owner about to give."""
    return _named(GAME.view(_plague_position(), None))


def plague_gift_seat1() -> dict[str, Any]:
    """Seat 2's panel at the same moment, with the option list_garlic=yes: their own garlic is
    marked, nobody else's (by default a seat's view does not list it: the seed says 「要牢記」)."""
    return _named(GAME.view(_plague_position(list_garlic="yes"), 1))


def duel_public() -> dict[str, Any]:
    """Two players: bare ground, a blocked grave, a vampire just found (lid shown ajar)."""
    s = GAME.new(2, 8)
    s["turn"] = s["actor"] = 0
    graves = list(s["lid"])
    c0, c1, c2, c3 = s["colours"]
    s["rows"][0] = [c0, c1] + [c.lower() for c in s["rows"][0][2:-2]] + [c1, c0]
    s["lid"][graves[1]], s["content"][graves[1]] = c2, None
    s["lid"][graves[5]], s["content"][graves[5]] = c3, f"v:{c3}"
    s["garlic"][0] = 0
    return _named(GAME.view(_play(s, [(0, f"flip {graves[1]}"), (1, f"flip {graves[5]}")]), None))


VIEWS: dict[str, Callable[[], dict[str, Any]]] = {
    "opening_public": opening_public,
    "plague_gift_public": plague_gift_public,
    "plague_gift_seat1": plague_gift_seat1,
    "duel_public": duel_public,
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_render_matches_golden(name: str) -> None:
    image = render(VIEWS[name]())
    assert 900 <= image.width <= 1400
    assert image.height <= image.width  # landscape (issue #12; tests/rendering/test_legibility.py)
    assert len(encode_png(image)) <= MAX_PNG_BYTES
    assert_golden(image, GOLDEN / f"{name}.png")


def test_renderer_draws_only_from_the_view_and_shows_no_closed_lid() -> None:
    view = plague_gift_public()
    assert "my_garlic" not in view
    closed = [c for c in view["graves"] if c["state"] == "closed"]
    assert closed and all(set(c) == {"id", "state"} for c in closed)
    render(view)  # must not need anything else


def test_a_seats_panel_does_not_list_its_garlic_by_default() -> None:
    """「要牢記你的大蒜顏色」 and the garlic's place are the player's to remember: without the option
    list_garlic=yes a seat's view carries no `my_garlic` and its panel draws no garlic mark."""
    view = GAME.view(_plague_position(), 1)
    assert "my_garlic" not in view
    listed = GAME.view(_plague_position(list_garlic="yes"), 1)
    assert listed["my_garlic"] == ["F6"]
    assert render(view).tobytes() != render(listed).tobytes()


# -- zh-TW (issue #16) --------------------------------------------------------------------------------

ZH_NAMES = ["小明", "阿華 Bartholomew", "卡羅爾", "志明與春嬌"]
# The status line is the rules core's message, translated by the table's presenter (bot.i18n); it is
# given here as the view carries it once translated, so these goldens test the renderer's own words.
ZH_STATUS = {
    "plague_gift_seat1": "卡羅爾必須選擇一隻吸血鬼送給小明。",
    "duel_public": "輪到小明：翻開一個棺材。",
}


@pytest.mark.parametrize("name", sorted(ZH_STATUS))
def test_render_in_traditional_chinese_matches_golden(name: str) -> None:
    """The board's own words in zh-TW (`locales/zh_TW/LC_MESSAGES/rendering.po`), the colours from
    the game's glossary, Chinese names and text in the Traditional forms."""
    view = VIEWS[name]()
    view["names"] = ZH_NAMES[: int(view["players"])]
    view["status"] = ZH_STATUS[name]
    image = render(view, lang="zh-TW")
    assert image.tobytes() != render(view).tobytes()
    assert len(encode_png(image)) <= MAX_PNG_BYTES
    assert_golden(image, GOLDEN / f"{name}.zh-TW.png")
