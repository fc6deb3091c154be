"""Shared palette, fonts and PNG encoding for every renderer."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
MAX_PNG_BYTES = 1024 * 1024  # well under Discord's 10 MiB upload limit

# A dark Halloween palette. Player colours are distinguishable for common colour-blindness when
# paired with the initials/letters renderers always draw on them.
BACKGROUND = (28, 24, 36)
PANEL = (44, 38, 56)
INK = (236, 232, 244)
MUTED = (150, 142, 168)
ACCENT = (255, 140, 26)  # pumpkin orange
HIGHLIGHT = (250, 210, 70)
DANGER = (214, 60, 60)
PLAYER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (204, 121, 167),  # reddish purple
    (213, 94, 0),  # vermillion
    (0, 114, 178),  # blue
    (200, 200, 200),  # grey
)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans, cached per size: images look the same on every machine."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


# Player names come from Discord: Chinese, Japanese, Korean or emoji ones are common, and the zh-TW
# boards are Chinese. DejaVu has no glyph for them, so text is drawn in runs, each character in the
# first shipped font of the chain that has it. Chinese comes first from Noto Sans CJK TC (a subset,
# `fonts/subset.py`: Traditional glyph shapes, e.g. 骨 and 直, which DroidSansFallback draws in their
# Simplified forms); DroidSansFallback still draws what the subset lacks (kana, hangul, rare
# characters); Symbola the emoji and symbols (monochrome). Bold text takes the bold TC subset first.
# Both subsets hold the same characters (the texts' and Big5's common ones, for names).
CJK_FONT = "NotoSansCJKtc-Regular-subset.otf"
CJK_BOLD_FONT = "NotoSansCJKtc-Bold-subset.otf"
FALLBACK_FONTS = (CJK_FONT, "DroidSansFallback.ttf", "Symbola.ttf")
BOLD_FALLBACK_FONTS = (CJK_BOLD_FONT, *FALLBACK_FONTS)


@lru_cache(maxsize=8)
def _coverage(name: str) -> frozenset[int]:
    """The code points a shipped font file has glyphs for (read once, on first need)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # (for text beyond ASCII)

    with TTFont(str(FONT_DIR / name), lazy=True) as ttf:
        return frozenset(ttf.getBestCmap())


def warm_fonts() -> None:
    """Read every fallback font's character map now (0.4–1.2 s for the CJK subsets), so the first
    board with a Chinese name or in zh-TW does not pay for it while a player waits."""
    for name in dict.fromkeys((*BOLD_FALLBACK_FONTS, *FALLBACK_FONTS)):
        _coverage(name)


@lru_cache(maxsize=64)
def _fallback(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / name), size)


def drawable(ch: str) -> bool:
    """Whether some shipped font can draw `ch` (text drops what none can, rather than draw boxes)."""
    return ch.isascii() or any(ord(ch) in _coverage(name) for name in ("DejaVuSans.ttf", *FALLBACK_FONTS))


@lru_cache(maxsize=4096)
def _runs(face: ImageFont.FreeTypeFont, text: str) -> tuple[tuple[str, ImageFont.FreeTypeFont], ...] | None:
    """`text` split into runs of one font each, or None when `face` draws all of it (the usual case)."""
    if text.isascii() or not isinstance(face.path, str) or not face.path.startswith(str(FONT_DIR)):
        return None
    own = _coverage(Path(face.path).name)
    if all(ord(ch) in own for ch in text):
        return None
    chain = BOLD_FALLBACK_FONTS if Path(face.path).name == "DejaVuSans-Bold.ttf" else FALLBACK_FONTS
    runs: list[tuple[str, ImageFont.FreeTypeFont]] = []
    for ch in text:
        if ord(ch) in own or ch.isspace():
            f = face
        else:
            name = next((n for n in chain if ord(ch) in _coverage(n)), None)
            if name is None:
                continue  # no shipped font has it (a variation selector, a joiner, a rare symbol)
            f = _fallback(name, int(face.size))
        if runs and runs[-1][1] is f:
            runs[-1] = (runs[-1][0] + ch, f)
        else:
            runs.append((ch, f))
    return tuple(runs)


# Every renderer's flat colours start from these; `to_palette` keeps them exact.
BASE_COLOURS: tuple[tuple[int, int, int], ...] = (
    BACKGROUND,
    PANEL,
    INK,
    MUTED,
    ACCENT,
    HIGHLIGHT,
    DANGER,
    *PLAYER_COLOURS,
    (0, 0, 0),
    (255, 255, 255),
)


# The language of the image being drawn, for renderers that look their words up deep in their drawing
# code: `with drawing_in(lang):` around a render, `drawing_lang()` inside (a context variable, so two
# images drawn at once in two threads keep their own).
_DRAWING_LANG: ContextVar[str] = ContextVar("drawing_lang", default="en-US")


@contextmanager
def drawing_in(lang: str) -> Iterator[None]:
    token = _DRAWING_LANG.set(lang)
    try:
        yield
    finally:
        _DRAWING_LANG.reset(token)


def drawing_lang() -> str:
    """The language of the image being drawn (`drawing_in`); English outside one."""
    return _DRAWING_LANG.get()


def new_canvas(width: int, height: int, colour: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


TEXT_MASKS = 1024  # ~5 KB each: ~5 MB per render worker (4,096 held ~21 MB for few more hits)


@lru_cache(maxsize=TEXT_MASKS)
def _text_mask(
    face: ImageFont.FreeTypeFont, text: str, anchor: str | None, start: tuple[float, float]
) -> tuple[Any, tuple[int, int]]:
    """The rasterised text (an "L" mask) and its offset, as ImageDraw.text computes them.

    Boards repeat the same labels, numbers and names from move to move; FreeType rasterising was
    the largest part of drawing a board. The key holds the font object itself (so it stays alive
    and its id cannot be reused) and the sub-pixel start, on which the anti-aliasing depends. The
    mask is only ever read (as a stencil), so two threads may share it.
    """
    return face.getmask2(text, "L", anchor=anchor, start=start)


@dataclass
class TextRecord:
    """What text a rendering drew, for the legibility test (issue #12): every font size, and
    every line whose ink left its canvas.

    `smallest` is in the canvas's own pixels; what a player sees at the ~550 px preview of a
    W px wide image is `smallest * 550 / W` (`at_width`).
    """

    sizes: dict[int, str] = field(default_factory=dict)  # font size -> a text drawn at that size
    off_canvas: list[str] = field(default_factory=list)  # "text @ (x0, y0, x1, y1) on W×H"

    def note(self, size: int, text: str) -> None:
        self.sizes.setdefault(size, text)

    @property
    def smallest(self) -> int | None:
        return min(self.sizes) if self.sizes else None

    def at_width(self, image_width: int, preview: int = 550) -> float | None:
        """The smallest font in px once the image is shown `preview` px wide."""
        small = self.smallest
        return None if small is None else small * preview / image_width


_RECORD: ContextVar[TextRecord | None] = ContextVar("rendering_text_record", default=None)


@contextmanager
def record_text() -> Iterator[TextRecord]:
    """Record the text every `Draw` (i.e. `draw_on`) draws in this context (this thread or task).

    Off by default: drawing then costs one context-variable read per text. Renderers draw their
    text through `draw_on`; text in cached tiles is drawn once per process, so a measuring test
    clears a renderer's caches first. Text drawn with a plain `ImageDraw.Draw` is not seen.
    """
    record = TextRecord()
    token = _RECORD.set(record)
    try:
        yield record
    finally:
        _RECORD.reset(token)


class Draw(ImageDraw.ImageDraw):
    """ImageDraw whose single-line text reuses cached glyph masks: the same pixels, drawn faster.

    Anything but the plain case (multi-line text, strokes, features, bitmap fonts) goes through
    Pillow's own `text` unchanged. Inside `record_text()` it also notes each text's font size and
    whether its ink leaves the canvas.
    """

    def text(
        self,
        xy: tuple[float, float],
        text: Any,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        record = _RECORD.get()
        if record is not None and str(text).strip():
            record.note(int(getattr(font, "size", 10)), str(text))
        if (
            args
            or kwargs
            or not isinstance(text, str)
            or "\n" in text
            or not isinstance(font, ImageFont.FreeTypeFont)
            or self.fontmode != "L"
        ):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        runs = _runs(font, text)
        if runs is not None:
            self._text_runs(xy, runs, fill, font, anchor)
            return
        ink, fill_ink = self._getink(fill)
        if ink is None:
            ink = fill_ink
        if ink is None:
            return
        x, y = xy
        mask, offset = _text_mask(font, text, anchor, (math.modf(x)[0], math.modf(y)[0]))
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)
        if record is not None:
            self._check_inside(record, text, (int(x) + offset[0], int(y) + offset[1]), mask)

    def _check_inside(self, record: TextRecord, text: str, at: tuple[int, int], mask: Any) -> None:
        """Note `text` if any of its ink falls outside the canvas (only while recording)."""
        ink = mask.getbbox()
        if ink is None:
            return
        box = (at[0] + ink[0], at[1] + ink[1], at[0] + ink[2], at[1] + ink[3])
        w, h = self.im.size
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            record.off_canvas.append(f"{text!r} @ {box} on {w}×{h}")

    def _text_runs(
        self,
        xy: tuple[float, float],
        runs: tuple[tuple[str, ImageFont.FreeTypeFont], ...],
        fill: Any,
        face: ImageFont.FreeTypeFont,
        anchor: str | None,
    ) -> None:
        """Runs of several fonts, placed on one baseline as `anchor` would place the whole line."""
        anchor = anchor or "la"
        width = sum(_text_length(f, part, self.fontmode) for part, f in runs)
        x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}.get(anchor[0], 0.0)
        y = xy[1] + _baseline_offset(face, anchor[1])
        for part, f in runs:
            self.text((x, y), part, fill, f, "ls")
            x += _text_length(f, part, self.fontmode)

    def textlength(
        self,
        text: Any,
        font: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> float:
        if args or kwargs or not isinstance(text, str) or "\n" in text or not isinstance(font, ImageFont.FreeTypeFont):
            return super().textlength(text, font, *args, **kwargs)
        return _line_length(font, text, self.fontmode)


@lru_cache(maxsize=256)
def _baseline_offset(face: ImageFont.FreeTypeFont, vertical: str) -> float:
    """Where the baseline lies from a text's anchor point (`vertical`: a, m, s, d…), by the main
    font's vertical metrics. Cached: a line of mixed fonts (a Chinese name, a zh-TW label) asked
    FreeType for it twice per draw, the largest cost of a zh-TW board."""
    return float(face.getbbox("Hg", anchor="l" + vertical)[1] - face.getbbox("Hg", anchor="ls")[1])


@lru_cache(maxsize=4096)
def _text_length(face: ImageFont.FreeTypeFont, text: str, mode: str) -> float:
    """Advance width of a line; renderers fit names and status lines by measuring them repeatedly."""
    return face.getlength(text, mode)


def _line_length(face: ImageFont.FreeTypeFont, text: str, mode: str) -> float:
    runs = _runs(face, text)
    if runs is None:
        return _text_length(face, text, mode)
    return sum(_text_length(f, part, mode) for part, f in runs)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """`font(size, bold).getlength(text)`, cached (names are fitted by measuring them repeatedly)."""
    return _line_length(font(size, bold), text, "")


# -- line breaking, in pixels, for English and Chinese ------------------------------------------

# A line may break at a space, and between two CJK characters (Chinese has no spaces); never before a
# closing mark (，。、；：？！」』）》) nor after an opening one (「『（《). This is the simple rule of
# UAX #14 for CJK, which is all the boards' texts need.
_NO_BREAK_BEFORE = frozenset("，。、；：？！」』）》〉】…·,.;:?!)]}%")
_NO_BREAK_AFTER = frozenset("「『（《〈【([{")


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (
        0x2E80 <= o <= 0x9FFF  # radicals, kana, CJK symbols and punctuation, unified ideographs
        or 0xF900 <= o <= 0xFAFF
        or 0xFF00 <= o <= 0xFFEF  # full-width forms
        or 0x20000 <= o <= 0x3FFFF
    )


def break_points(text: str) -> list[str]:
    """`text` cut into the pieces a line may end after (a word and its following space, or one CJK
    character with any punctuation that must stay with it)."""
    pieces: list[str] = []
    cur = ""
    for i, ch in enumerate(text):
        cur += ch
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if not nxt:
            break
        if ch == " " and nxt != " ":
            pieces.append(cur)
            cur = ""
        elif " " not in (ch, nxt) and (_is_cjk(ch) or _is_cjk(nxt)):
            if nxt in _NO_BREAK_BEFORE or ch in _NO_BREAK_AFTER or ch.isdigit() or nxt.isdigit():
                continue  # keep punctuation with its character, and "3 張" / "第 3" together
            pieces.append(cur)
            cur = ""
    if cur:
        pieces.append(cur)
    return pieces


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `width` pixels at `size`: broken at spaces and between Chinese
    characters (see `break_points`), never inside an English word. A word wider than the whole line
    is broken after a hyphen if it has one, else it stands alone (the caller shrinks or ellipsises).
    Explicit newlines are kept. One helper for every renderer, so both languages wrap the same way."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        cur = ""
        for piece in break_points(paragraph):
            trial = cur + piece
            if not cur.strip() or text_width(trial.rstrip(), size, bold) <= width:
                cur = trial
                continue
            lines.append(cur.rstrip())
            cur = piece.lstrip()
        if cur.strip() or not paragraph:
            lines.append(cur.rstrip())
    out: list[str] = []
    for line in lines:
        if text_width(line, size, bold) > width and "-" in line.strip("-") and " " not in line:
            head, _, tail = line.partition("-")
            out.extend([head + "-", tail])
        else:
            out.append(line)
    return out


def draw_on(image: Image.Image) -> Draw:
    """A drawing context for a renderer's canvas (text through the glyph-mask cache)."""
    return Draw(image)


def to_palette(image: Image.Image, keep: Iterable[tuple[int, int, int]] = BASE_COLOURS) -> Image.Image:
    """The image as 8-bit palette: `keep` exactly, the rest from an octree of a 1-in-16 sample.

    Boards are flat illustrations with anti-aliased text, so 256 colours look the same; building
    the octree over every pixel of a 1.8-megapixel board took 15-25 ms, over every 4th pixel of
    every 4th row it takes ~1 ms, and mapping all pixels to the fixed palette ~3 ms. The renderer's
    own flat colours are listed in `keep` so that a colour too small for the sample (a thin line,
    one marker) still comes out exact. Deterministic: the same image gives the same palette.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    fixed: list[tuple[int, int, int]] = []
    for colour in keep:
        if colour not in fixed:
            fixed.append(colour)
    fixed = fixed[:192]
    small = rgb.resize((max(1, rgb.width // 4), max(1, rgb.height // 4)), Image.Resampling.NEAREST)
    octree = small.quantize(256 - len(fixed), method=Image.Quantize.FASTOCTREE, kmeans=0)
    flat = octree.getpalette() or []
    colours = list(fixed)
    seen = set(colours)
    for i in range(0, len(flat) - 2, 3):
        c = (flat[i], flat[i + 1], flat[i + 2])
        if c not in seen:
            seen.add(c)
            colours.append(c)
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in colours[:256] for v in c])
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def text_center(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    bold: bool = False,
) -> None:
    """Draw text centred on a point (the common case for labels on tiles)."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def player_colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def encode_png(image: Image.Image, max_bytes: int = MAX_PNG_BYTES) -> bytes:
    """PNG bytes within the size budget, fast.

    Boards are flat illustrations, so a 256-colour palette looks the same and halves both the bytes
    and the encoding time; renderers return palette images already (`to_palette`, with their own
    colours kept exact), other images are converted here. zlib level 1 is the right trade-off for a
    message that is sent once. Only an image that is still too big is scaled down.
    """
    current = image if image.mode == "P" else to_palette(image)
    data = _png(current)
    while len(data) > max_bytes and min(current.size) > 64:
        current = current.convert("RGB").resize((int(current.width * 0.85), int(current.height * 0.85)))
        current = current.quantize(128, method=Image.Quantize.FASTOCTREE)
        data = _png(current)
    return data


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1, optimize=False)
    return buf.getvalue()
