"""The shared rendering base: shipped fonts, the PNG size budget, and the generic card."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from rendering.base import MAX_PNG_BYTES, encode_png, font
from rendering.generic import render
from tests.rendering.golden import assert_golden
from tests.takeaway import GAME

GOLDEN = Path(__file__).parent / "golden" / "generic"


def test_the_shipped_font_is_used_not_a_system_one() -> None:
    assert font(20).path.endswith("rendering/fonts/DejaVuSans.ttf")  # type: ignore[attr-defined]
    assert font(20, bold=True).path.endswith("DejaVuSans-Bold.ttf")  # type: ignore[attr-defined]


def test_encode_png_keeps_a_noisy_image_under_the_budget() -> None:
    noise = Image.effect_noise((700, 700), 120).convert("RGB")
    data = encode_png(noise, max_bytes=200_000)
    assert data.startswith(b"\x89PNG") and len(data) <= 200_000
    assert MAX_PNG_BYTES == 1024 * 1024


def test_generic_card_for_a_seat_matches_its_golden() -> None:
    view = GAME.view(GAME.new(2, 5), 0)
    view.update(names=["alice", "bob"], title=GAME.title)
    assert_golden(render(view), GOLDEN / "takeaway_seat0.png")


def test_generic_card_for_the_public_shows_no_hand() -> None:
    view = GAME.view(GAME.new(2, 5), None)
    view.update(names=["alice", "bob"], title=GAME.title)
    assert "hand" not in view
    assert_golden(render(view), GOLDEN / "takeaway_public.png")


def test_chinese_and_emoji_names_are_drawn_with_the_shipped_fallback_fonts() -> None:
    """Discord names are often Chinese or carry emoji: no empty boxes, and the same pixels as the
    fallback font gives; a character no shipped font has is left out rather than boxed."""
    from PIL import ImageFont

    from rendering.base import FONT_DIR, draw_on, drawable, font

    def drawn(text: str, face: ImageFont.FreeTypeFont) -> bytes:
        img = Image.new("RGB", (200, 60))
        draw_on(img).text((10, 45), text, font=face, fill=(255, 255, 255), anchor="ls")
        return img.tobytes()

    droid = ImageFont.truetype(str(FONT_DIR / "DroidSansFallback.ttf"), 30)
    assert drawn("李", font(30)) == drawn("李", droid) != drawn("", font(30))
    assert drawn("🎃", font(30)) != drawn("", font(30))
    assert drawn("\U0010fffd", font(30)) == drawn("", font(30))  # nothing at all, not a box
    assert drawable("李") and drawable("🎃") and drawable("é") and not drawable("\U0010fffd")
    # measuring the mixed line agrees with drawing it in runs
    d = draw_on(Image.new("RGB", (10, 10)))
    mixed = d.textlength("Ann 李", font=font(30))
    assert mixed == d.textlength("Ann ", font=font(30)) + droid.getlength("李")


def test_trick_or_treat_keeps_chinese_names() -> None:
    from rendering.trick_or_treat import clean_name

    assert clean_name("李小龍", 0) == "李小龍"
    assert clean_name("\U0010fffd", 2) == "P3"


def test_wrap_breaks_chinese_between_characters_and_english_between_words() -> None:
    """One wrapper for every renderer: Chinese has no spaces, so it must break between characters,
    keep closing punctuation with the character before it and never split an English word."""
    from rendering.base import text_width, wrap

    zh = "每位玩家輪流翻開一張墓碑，放進自己的棺材。"
    lines = wrap(zh, 22, 200)
    assert len(lines) > 1 and "".join(lines) == zh
    assert all(text_width(line, 22) <= 200 for line in lines)
    assert not any(line.startswith(("，", "。")) for line in lines)
    en = "Drop it in column 3, lowest free row of the board"
    lines = wrap(en, 22, 200)
    assert " ".join(lines) == en and all(text_width(line, 22) <= 200 for line in lines)
    assert wrap("one\ntwo", 22, 500) == ["one", "two"]
    assert "".join(wrap("第3輪：翻開2張", 22, 40)).count("3輪") == 1
