"""Golden images of the Trick or Treat board (UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.rules.trick_or_treat import GAME
from rendering.base import MAX_PNG_BYTES, encode_png
from rendering.trick_or_treat import clean_name, named, render
from tests.rendering.golden import assert_golden
from tests.rules.test_trick_or_treat import build, do

GOLDEN = Path(__file__).parent / "golden" / "trick_or_treat"


def opening_view() -> dict[str, Any]:
    s = GAME.new(2, 11)
    s = do(s, "choose witch")
    return GAME.view(s, None)


def midgame_view() -> dict[str, Any]:
    city = {
        0: (0, True, ["corn", "corn"]),
        5: (10, True, ["bonbon", "waffle"]),
        6: (17, True, []),
        9: (15, True, ["wild", "wild", "wild"]),
        10: (19, True, []),
        14: (13, True, []),
    }
    s = build(
        3,
        chars=["cowboy", "pirate", "witch"],
        pos=["V22", "V22", "N3"],
        dice=["pumpkin", "pumpkin", "club", "glass", "feet2", "candy"],
        city=city,
        candy={0: {"corn": 2, "wild": 1}, 1: {"donut": 3, "lolly": 1}, 2: {"bonbon": 1}},
        cards={1: [2, 22]},
    )
    s = do(s, "ring b2")
    return GAME.view(s, 0)


def crowded_view() -> dict[str, Any]:
    s = build(
        8,
        chars=["lion", "witch", "hero", "princess", "pumpkin", "cowboy", "dinosaur", "pirate"],
        pos=["V32", "V32", "V32", "H22", "H22", "W2", "W2", "S3"],
        dice=["club", "club", "club", "feet", "glass", "candy", "pumpkin"],
        candy={1: {"corn": 1, "donut": 2}, 3: {"lolly": 4}},
        seat=2,
        act=False,
    )
    s = do(s, "mark 4")
    s = do(s, "mark 6")
    return GAME.view(s, None)


def test_opening_board() -> None:
    assert_golden(render(opening_view()), GOLDEN / "opening.png")


def test_midgame_board_with_pawns_candy_and_used_dice() -> None:
    assert_golden(render(midgame_view()), GOLDEN / "midgame.png")


def test_eight_players_with_crowded_streets_and_marked_dice() -> None:
    assert_golden(render(crowded_view()), GOLDEN / "crowded8.png")


def test_png_fits_the_budget() -> None:
    assert len(encode_png(render(crowded_view()))) < MAX_PNG_BYTES


def test_players_names_as_discord_shows_them() -> None:
    """The platform adds the seats' names: rows and the title use them, Chinese and emoji included
    (the shipped fallback fonts), characters no shipped font has dropped."""
    view = crowded_view()
    view["names"] = ["Alexandria the Great", "bob", "小明", "dave", "Eve", "Frankenstein's Monster", "Gus", "🎃 King"]
    assert clean_name("🎃 King", 7) == "🎃 King" and clean_name("小明", 2) == "小明" and clean_name("Zoë", 0) == "Zoë"
    assert clean_name("\U0010fffd King", 7) == "King"
    assert named("P3 is rolling; P8 waits.", view) == "小明 is rolling; 🎃 King waits."
    assert named("P3正在挑P2的糖果（P10 不是座位）", view) == "小明正在挑bob的糖果（P10 不是座位）"  # zh-TW: no spaces
    assert_golden(render(view), GOLDEN / "crowded8_named.png")


def test_the_image_is_8_bit() -> None:
    """Palette images encode in half the time and a third of the bytes (sent after every step)."""
    assert render(opening_view()).mode == "P"


def test_the_board_says_when_the_last_round_is_being_played() -> None:
    """Issue #13, point 14: the last round is announced on the board (status line and image)."""
    from tests.rules.test_trick_or_treat import put_row

    s = build(dice=[], candy={0: {"corn": 4}}, cards={0: [15, 7]})
    put_row(s, 0, 1)
    s = do(s, "buy 1")  # 6 + 5 + 3 = 14 points: the round being played is the last
    view = GAME.view(s, None)
    assert view["last_round"] == "P1 has 14 points"
    img = render(view)
    assert img.size == render(GAME.view(build(dice=[]), None)).size
    assert len(encode_png(img)) <= MAX_PNG_BYTES


# -- zh-TW (issue #16) --------------------------------------------------------------------------------

ZH_NAMES = ["小明", "阿華 Bartholomew", "卡羅爾", "志明與春嬌", "春嬌", "淑芬", "家豪", "怡君"]


@pytest.mark.parametrize("name", ["midgame", "crowded8"])
def test_board_in_traditional_chinese_matches_golden(name: str) -> None:
    """The board's words in zh-TW (`LABELS` through the rendering catalogue), the characters' names
    from the glossary (the seed's), Chinese names. The headline is the rules core's status,
    translated by the game's catalogue: given here as it arrives translated, without its scores."""
    view = midgame_view() if name == "midgame" else crowded_view()
    view["names"] = ZH_NAMES[: view["players"]]
    view["status"] = "小明 正在行動：按門鈴、移動或換卡。" if name == "midgame" else "卡羅爾 擲骰中（還能重骰 2 次）。"
    image = render(view, lang="zh-TW")
    assert image.tobytes() != render(view).tobytes()
    assert_golden(image, GOLDEN / f"{name}.zh-TW.png")


def test_the_headline_drops_the_status_scores_and_round_in_any_language() -> None:
    """In a language other than English the rules' status is cut where its scores and round stand
    (stand-ins in the message's parameters), not by English words. An id without a translation
    comes back in English, so this checks the cut itself, whatever the catalogues say."""
    from bot.i18n import N_
    from rendering.base import drawing_in
    from rendering.trick_or_treat import headline

    view = {"status": N_("Round {s}: {t} is acting.{flag} Scores: {scores}.", s=4, t="P1", flag="", scores="P1 3")}
    view["names"] = ["小明"]
    with drawing_in("zh-TW"):
        assert headline(view) == "小明 is acting."
    view["status"] = N_("{seat} gives {t} a candy. Scores: {scores}.", seat="P1", t="P2", scores="P1 3, P2 0")
    view["names"] = ["小明", "阿華"]
    with drawing_in("zh-TW"):
        assert headline(view) == "小明 gives 阿華 a candy."
    assert headline(view) == "小明 gives 阿華 a candy."  # English: cut by its words, as before


def test_the_last_walk_is_drawn_along_the_streets_in_the_walkers_colour() -> None:
    """Issue #12: the board shows what moved since the last one, not only where pawns stand."""
    from rendering.base import player_colour
    from rendering.trick_or_treat import street_centre

    view = midgame_view()
    plain = render(dict(view, trail=None)).convert("RGB")
    walked = render(dict(view, trail={"seat": 2, "streets": ["V42", "H32", "V32"]})).convert("RGB")
    assert plain.tobytes() != walked.tobytes()
    x, y, _ = street_centre("V42")
    _, y_h, _ = street_centre("H32")
    corner = (int(x), int((y + y_h) / 2))  # on the line up V42 towards the crossing with H32
    near = [walked.getpixel((corner[0] + dx, corner[1] + dy)) for dx in (-2, 0, 2) for dy in (-2, 0, 2)]

    def close(c: object) -> bool:  # the palette may move a channel by one
        return isinstance(c, tuple) and max(abs(a - b) for a, b in zip(c, player_colour(2), strict=False)) <= 3

    assert any(close(c) for c in near) and not close(plain.getpixel(corner))
