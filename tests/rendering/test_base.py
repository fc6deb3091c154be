"""The shared rendering base: shipped fonts, the PNG size budget, and the generic card."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from rendering.base import MAX_PNG_BYTES, _pixels, _png, encode_png, font
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

    tc = ImageFont.truetype(str(FONT_DIR / "NotoSansCJKtc-Regular-subset.otf"), 30)
    droid = ImageFont.truetype(str(FONT_DIR / "DroidSansFallback.ttf"), 30)
    assert drawn("李", font(30)) == drawn("李", tc) != drawn("", font(30))
    assert drawn("あ", font(30)) == drawn("あ", droid) != drawn("", font(30))  # beyond the TC subset
    assert drawn("🎃", font(30)) != drawn("", font(30))
    assert drawn("\U0010fffd", font(30)) == drawn("", font(30))  # nothing at all, not a box
    assert drawable("李") and drawable("🎃") and drawable("é") and not drawable("\U0010fffd")
    # measuring the mixed line agrees with drawing it in runs
    d = draw_on(Image.new("RGB", (10, 10)))
    mixed = d.textlength("Ann 李", font=font(30))
    assert mixed == d.textlength("Ann ", font=font(30)) + tc.getlength("李")


def test_chinese_is_drawn_in_its_traditional_forms() -> None:
    """zh-TW boards need the Traditional glyph shapes (issue #16). DroidSansFallback has only the
    Simplified ones: its masks for 骨 are the same whatever language is asked for. The board's fonts
    (regular and bold) draw the TC subset's shapes, which are not Droid's; and for 骨, whose two
    forms differ visibly (the inner stroke of the top), the drawn mask is the Traditional one,
    not the Simplified one the same face gives for zh-Hans."""
    from PIL import ImageDraw, ImageFont

    from rendering.base import CJK_BOLD_FONT, CJK_FONT, FONT_DIR, draw_on

    def mask(text: str, face: ImageFont.FreeTypeFont, language: str | None = None) -> bytes:
        img = Image.new("L", (80, 80))
        if language is None:
            draw_on(img).text((10, 66), text, font=face, fill=255, anchor="ls")
        else:
            ImageDraw.Draw(img).text((10, 66), text, font=face, fill=255, anchor="ls", language=language)
        return img.tobytes()

    droid = ImageFont.truetype(str(FONT_DIR / "DroidSansFallback.ttf"), 60)
    for bold, name in ((False, CJK_FONT), (True, CJK_BOLD_FONT)):
        tc = ImageFont.truetype(str(FONT_DIR / name), 60)
        for ch in "骨直":
            assert mask(ch, droid, "zh-Hant") == mask(ch, droid, "zh-Hans")  # Droid: one form only
            assert mask(ch, font(60, bold)) == mask(ch, tc) != mask(ch, droid)
        assert mask("骨", font(60, bold)) != mask("骨", tc, "zh-Hans")  # not the Simplified shape


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


def test_the_chinese_subsets_hold_every_character_the_texts_use() -> None:
    """The TC subsets are cut to our texts (rendering/fonts/subset.py): a translation or glossary
    entry with a new character must come with a rebuilt font, or boards would draw that character
    in another font (the regular subset, or DroidSansFallback's Simplified shapes)."""
    import re

    from rendering.base import CJK_BOLD_FONT, CJK_FONT, _coverage

    root = Path(__file__).resolve().parents[2]
    cjk = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff01-\uff5e]")

    def chars(*patterns: str) -> set[str]:
        return {ch for p in patterns for f in sorted(root.glob(p)) for ch in cjk.findall(f.read_text(encoding="utf-8"))}

    drawn = chars("locales/*/LC_MESSAGES/rendering.po", "data/glossary.tsv", "data/*/glossary.tsv")
    every = drawn | chars("locales/*/LC_MESSAGES/*.po", "data/*/*.zh-TW.md", "docs/rules/*.zh-TW.md")
    regular, bold = _coverage(CJK_FONT), _coverage(CJK_BOLD_FONT)
    assert not sorted(ch for ch in every if ord(ch) not in regular), "run python rendering/fonts/subset.py"
    assert not sorted(ch for ch in drawn if ord(ch) not in bold), "run python rendering/fonts/subset.py"


def test_the_coverage_file_is_the_shipped_fonts_character_maps() -> None:
    """rendering/fonts/coverage.txt (read by the render workers instead of parsing the fonts with
    fontTools) must say what the font files draw: run `python rendering/fonts/subset.py --coverage`."""
    from rendering.base import COVERAGE_FILE, Coverage, parse_ranges
    from rendering.fonts.subset import coverage_text, font_coverage, ranges

    assert COVERAGE_FILE.read_text(encoding="ascii") == coverage_text()
    cps = {0x20, 0x21, 0x23, 0x4E00, 0x10FFFF}
    assert parse_ranges(ranges(cps)) == [(0x20, 0x21), (0x23, 0x23), (0x4E00, 0x4E00), (0x10FFFF, 0x10FFFF)]
    cov = Coverage(parse_ranges(ranges(cps)))
    assert all(cp in cov for cp in cps) and 0x22 not in cov and len(cov) == len(cps)
    assert font_coverage(COVERAGE_FILE.parent / "Symbola.ttf") >= {0x1F383}  # 🎃


def test_pixels_are_the_images_bytes_with_or_without_a_copy() -> None:
    """The PNG path reads a palette image's pixels through Pillow's Arrow export (no copy) where it can:
    the same bytes as `tobytes()`, for crops, odd sizes and grey images, and the PNG decodes to the same
    pixels and palette."""
    rnd = random.Random(7)
    for w, h in ((1, 1), (3, 5), (641, 17), (1201, 1140)):
        img = Image.new("P", (w, h))
        img.putpalette([rnd.randrange(256) for _ in range(768)])
        img.putdata([rnd.randrange(256) for _ in range(w * h)])
        for im in (img, img.crop((0, 0, max(1, w // 2), h)), img.convert("L")):
            with _pixels(im) as raw:
                assert bytes(raw) == im.tobytes()
                if hasattr(im, "__arrow_c_array__"):
                    assert isinstance(raw, memoryview)  # the fast path is the one exercised here
        back = Image.open(io.BytesIO(_png(img)))  # not encode_png: noise this big is scaled down
        assert back.mode == "P" and back.tobytes() == img.tobytes()
        assert back.getpalette() == img.getpalette()
    big = Image.new("L", (4200, 4100), 7)  # over Pillow's 16 MB block: not exportable, copied instead
    big.putpixel((4199, 4099), 9)
    with _pixels(big) as raw:
        assert bytes(raw) == big.tobytes()
