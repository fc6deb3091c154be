"""Golden images of the Sweets Stack renderer, drawn from frozen views (JSON next to the PNGs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rendering.base import MAX_PNG_BYTES, encode_png
from rendering.sweets_stack import render
from tests.rendering.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "sweets_stack"
CASES = sorted(p.stem for p in GOLDEN.glob("*.json"))


@pytest.mark.parametrize("name", CASES)
def test_render_matches_golden(name: str) -> None:
    view = json.loads((GOLDEN / f"{name}.json").read_text())
    image = render(view)
    assert 900 <= image.width <= 1400
    assert len(encode_png(image)) < MAX_PNG_BYTES
    assert_golden(image, GOLDEN / f"{name}.png")


def test_the_cases_cover_the_public_board_and_the_private_panel() -> None:
    views = [json.loads((GOLDEN / f"{n}.json").read_text()) for n in CASES]
    assert any(v["seat"] is None for v in views) and any("you" in v for v in views)
    assert any(v["phase"] == "over" for v in views) and any(v["phase"] == "pick" for v in views)


def test_the_candy_each_player_placed_last_is_outlined() -> None:
    """What changed since the last board: the view's `last` cells (the rules core keeps them per seat
    until the next placement or round) are outlined in the bucket; without them nothing is."""
    view = json.loads((GOLDEN / "table_3p_last_placed.json").read_text())
    assert all(seat["last"] for seat in view["seats"])
    bare = json.loads(json.dumps(view))
    for seat in bare["seats"]:
        seat["last"] = []
    assert render(view).tobytes() != render(bare).tobytes()


# -- zh-TW (issue #16) --------------------------------------------------------------------------------

ZH_NAMES = ["小明", "阿華 Bartholomew", "卡羅爾", "志明與春嬌"]


@pytest.mark.parametrize("name", ["table_3p_placing", "panel_placing", "table_2p_over"])
def test_render_in_traditional_chinese_matches_golden(name: str) -> None:
    """The images' words in zh-TW (`LABELS` through the rendering catalogue), the advanced card's
    name and text from the glossary (the seed's sentence), Chinese names. The panel's fit report is
    the rules core's message, translated by the presenter: given here as it arrives translated."""
    view = json.loads((GOLDEN / f"{name}.json").read_text())
    view["names"] = ZH_NAMES[: view["players"]]
    if "you" in view and view["you"].get("fit"):
        view["you"]["fit"]["message"] = "你的糖果放得下：選擇它停下的位置。"
    image = render(view, lang="zh-TW")
    assert image.tobytes() != render(view).tobytes()
    assert len(encode_png(image)) < MAX_PNG_BYTES
    assert_golden(image, GOLDEN / f"{name}.zh-TW.png")


# -- the thumbnails' stamp (issue #18) ----------------------------------------------------------------


def test_a_stamped_thumbnail_is_the_drawn_one_pixel_for_pixel() -> None:
    """The panel's previews paste their bucket from a cached stamp (`_draw_thumb`) and draw only the
    preview: on the panel's canvas that must give the very pixels and palette `draw_bucket` gives, at
    both parities of position, with and without the python, along real games."""
    from bot.rules import Rng
    from bot.rules.sweets_stack import GAME
    from rendering.base import draw_on
    from rendering.sweets_stack import THUMB_CELL, _draw_thumb, _render_panel, draw_bucket

    checked = 0
    for seed in (1, 2):
        s = GAME.new(3, seed, {"advanced": "every" if seed == 1 else "off"})
        bot, rng = GAME.bot_policy(), Rng(seed)
        for _ in range(24):
            seat = min(GAME.to_act(s))
            view = GAME.view(s, seat)
            options = [o for o in view["you"].get("options") or [] if "cells" in o]
            if options:
                panel = _render_panel(view)
                me, bucket = view["seats"][seat], view["bucket"]
                adv = view.get("advanced_now")
                python = adv["python_cells"] if adv and me["python"] and adv.get("python_cells") else None
                candy = view["cards"][view["you"]["incoming"]]["colour"] if view["you"].get("incoming") else None
                for (x, y), opt in zip(((500, 600), (531, 601), (640, 733), (771, 900)), options, strict=False):
                    drawn, stamped = panel.copy(), panel.copy()
                    draw_bucket(draw_on(drawn), x, y, THUMB_CELL, me, bucket, highlight=opt["cells"],
                                highlight_colour=candy, python_cells=python, labels=False)
                    _draw_thumb(draw_on(stamped), stamped, x, y, me, bucket, opt["cells"], candy, python)
                    assert stamped.tobytes() == drawn.tobytes()
                    assert stamped.getpalette() == drawn.getpalette()
                    checked += 1
            s, _ = GAME.apply(s, seat, bot.choose(view, GAME.legal_actions(s, seat), {}, rng))
    assert checked > 20
