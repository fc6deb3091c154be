"""Shared palette, fonts and PNG encoding for every renderer."""

from __future__ import annotations

import contextlib
import copy
import ctypes
import io
import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from isal import isal_zlib
from PIL import Image, ImageColor, ImageDraw, ImageFont

_T = TypeVar("_T")

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


COVERAGE_FILE = FONT_DIR / "coverage.txt"


class Coverage:
    """The code points a font has glyphs for, as a bitmap (139 KiB a font). Read from
    `fonts/coverage.txt`, which `fonts/subset.py --coverage` writes from the fonts' character maps:
    parsing those with fontTools in every render worker cost ~14 MiB of memory a worker (the library
    and its leftovers; 55,000 ints in frozensets) and up to a second of start-up."""

    __slots__ = ("_bits",)

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        bits = bytearray(0x110000 >> 3)
        for first, last in ranges:
            for cp in range(first, last + 1):
                bits[cp >> 3] |= 1 << (cp & 7)
        self._bits = bytes(bits)

    def __contains__(self, cp: object) -> bool:
        return isinstance(cp, int) and 0 <= cp < 0x110000 and bool(self._bits[cp >> 3] >> (cp & 7) & 1)

    def __len__(self) -> int:
        return sum(bin(byte).count("1") for byte in self._bits)


def parse_ranges(text: str) -> list[tuple[int, int]]:
    """'20-7e,a0-ff' -> [(0x20, 0x7e), (0xa0, 0xff)]."""
    out = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.append((int(first, 16), int(last or first, 16)))
    return out


@cache
def _coverages() -> dict[str, str]:
    lines = COVERAGE_FILE.read_text(encoding="ascii").splitlines()
    return dict(line.split("\t", 1) for line in lines if line and not line.startswith("#"))


@cache
def _coverage(name: str) -> Coverage:
    """The code points the shipped font file `name` has glyphs for (read once, on first need)."""
    return Coverage(parse_ranges(_coverages()[name]))


def warm_fonts() -> None:
    """Build every fallback font's coverage now, so the first board with a Chinese name or in zh-TW
    does not pay for it while a player waits."""
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


# Every renderer's flat colours start from these (its palette seed, `new_canvas(colours=)`).
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


RGB = tuple[int, int, int]


def new_canvas(
    width: int, height: int, colour: tuple[int, int, int] = BACKGROUND, *, colours: Iterable[RGB] = ()
) -> Image.Image:
    """A board's canvas: an 8-bit palette image whose palette grows with each colour drawn.

    Boards are flat illustrations with anti-aliased text. Drawn in RGB, they were mapped onto a
    256-colour palette afterwards (an octree of a sample, then every pixel matched: 4-7 ms a board,
    a quarter of its CPU). Drawn in palette indices, every flat colour is exact by construction, a
    fill writes one byte a pixel instead of four, and the image is ready for the PNG encoder. Text,
    the only blending, goes through `Draw.text` (its anti-aliasing in `ALPHA_LEVELS` steps); pasting
    one palette image onto another through `paste` (which maps the colours).

    `colours`: the palette's first entries, in this order (a renderer's flat colours, `KEEP`): its
    cached tiles and layers then share them with its boards, and `paste` copies those as they are.
    """
    seed = list(dict.fromkeys(colours))[:192]
    if not seed:
        return Image.new("P", (width, height), colour)
    img = Image.new("P", (width, height), 0)
    img.putpalette(bytes(v for c in seed for v in c))
    img.load()  # a plain (not raw) palette from here on
    index = colour_index(img, colour)
    if index:
        img.im.paste(index, (0, 0, width, height))
    return img


# -- drawing in palette indices --------------------------------------------------------------------

ALPHA_LEVELS = 8  # anti-aliasing steps of text on a palette canvas: each (ink, ground) pair adds 6 colours
RAMP_ROOM = 224  # palette entries text's steps may fill; the other 32 stay free for flat colours
_STEP = [round(a * (ALPHA_LEVELS - 1) / 255) for a in range(256)]  # alpha -> its step
_STEPS = bytes(_STEP)
_STEP_ALPHA = [k * 255 // (ALPHA_LEVELS - 1) for k in range(ALPHA_LEVELS)]


def _blend(ground: RGB, ink: RGB, alpha: int) -> RGB:
    """`ink` over `ground` at `alpha`/255, rounded exactly as Pillow blends a mask (its BLEND macro)."""

    def one(a: int, b: int) -> int:
        tmp = (b - a) * alpha + 128
        return a + (((tmp >> 8) + tmp) >> 8)

    return (one(ground[0], ink[0]), one(ground[1], ink[1]), one(ground[2], ink[2]))


@lru_cache(maxsize=1024)
def _steps(ground: RGB, ink: RGB) -> tuple[RGB, ...]:
    """The colours of `ink`'s anti-aliasing steps over `ground`, from the ground to the ink."""
    return tuple(_blend(ground, ink, a) for a in _STEP_ALPHA)


def text_steps(ground: RGB, ink: RGB) -> tuple[RGB, ...]:
    """The colours (between the two) of text in `ink` drawn over `ground` on a palette canvas: a
    renderer lists its tiles' commonest ones in its palette seed (`new_canvas(colours=)`), so that a
    cached tile with that text pastes without its colours being looked up."""
    return _steps(ground, ink)[1:-1]


class _PaletteState:
    """What a palette canvas caches about its own palette (kept on the image: indices are per image)."""

    __slots__ = ("grounds", "log", "luts", "near", "ramps", "steps")

    def __init__(self) -> None:
        self.log: list[tuple[RGB, int]] | None = None  # while a patch is drawn: (colour, room) asked, in order
        self.grounds: list[RGB] = []  # while a patch is drawn: the ground colours text was laid on
        self.steps: set[int] = set()  # entries added as anti-aliasing steps
        self.near: dict[RGB, int] = {}  # colours that found no free entry -> the nearest entry
        self.ramps: dict[tuple[int, RGB], bytes] = {}  # (ground index, ink) -> alpha -> index
        self.luts: dict[int, tuple[Image.Image, bytes | None]] = {}  # id(tile) -> (tile, its colours here)


def _state(image: Image.Image) -> _PaletteState:
    state: _PaletteState | None = getattr(image, "_spooky_palette", None)
    if state is None:
        state = _PaletteState()
        image._spooky_palette = state  # type: ignore[attr-defined]
    return state


def palette_rgb(image: Image.Image, index: int) -> RGB:
    """The colour of palette entry `index` of a palette canvas."""
    data = image.palette.palette  # type: ignore[union-attr]
    return (data[3 * index], data[3 * index + 1], data[3 * index + 2])


def colour_index(image: Image.Image, rgb: RGB, *, room: int = 256) -> int:
    """The palette entry of `rgb` on a palette canvas: its own (added on first use) while the palette
    has fewer than `room` entries, else the nearest entry. Flat colours may use all 256; text's
    anti-aliasing steps stop short (`RAMP_ROOM`), so a board's flat colours always stay exact."""
    palette = image.palette
    assert palette is not None
    recording: _PaletteState | None = getattr(image, "_spooky_palette", None)
    if recording is not None and recording.log is not None:
        recording.log.append((rgb, room))
    found = palette.colors.get(rgb)
    if found is not None:
        return found
    if len(palette.palette) < 3 * room:
        return palette.getcolor(rgb)
    state = _state(image)
    near = state.near.get(rgb)
    if near is None:
        data = palette.palette
        r, g, b = rgb
        best = 1 << 30
        near = 0
        for i in range(0, len(data), 3):
            d = (data[i] - r) ** 2 + (data[i + 1] - g) ** 2 + (data[i + 2] - b) ** 2
            if d < best:
                best, near = d, i // 3
        state.near[rgb] = near
    return near


_INKED = bytes([0] + [255] * 255)  # a LUT: where a text mask has any ink


@lru_cache(maxsize=256)
def _only(index: int) -> bytes:
    """A LUT keeping one palette entry (255) and clearing the rest: where a ground colour lies."""
    return bytes(255 if i == index else 0 for i in range(256))


def _ramp(image: Image.Image, ground: int, ink: RGB) -> bytes:
    """alpha (0-255) -> the palette entry of `ink` at that alpha over entry `ground` (a text's LUT)."""
    state = _state(image)
    key = (ground, ink)
    lut = state.ramps.get(key)
    if lut is None:
        if state.log is not None:
            state.grounds.append(palette_rgb(image, ground))
        steps = _steps(palette_rgb(image, ground), ink)
        # text over text's own edge pixels takes the nearest colours: steps over steps would fill the
        # palette for a few pixels each
        room = 0 if ground in state.steps else RAMP_ROOM
        size = len(image.palette.palette) // 3  # type: ignore[union-attr]
        entries = [ground] + [colour_index(image, c, room=room) for c in steps[1:-1]]
        state.steps.update(i for i in entries[1:] if i >= size)
        entries.append(colour_index(image, ink))
        lut = _STEPS.translate(bytes(entries).ljust(256, b"\0"))
        state.ramps[key] = lut
    return lut


def _used(image: Image.Image) -> list[int]:
    """The palette entries `image` uses (cached on it: pasted tiles are cached and never drawn on)."""
    used: list[int] | None = getattr(image, "_spooky_used", None)
    if used is None:
        used = [i for i, n in enumerate(image.histogram()) if n]
        image._spooky_used = used  # type: ignore[attr-defined]
    return used


def _shared_entries(a: bytes, b: bytes) -> int:
    """How many leading palette entries two palettes (RGB bytes) have in common (a bisection of
    prefix comparisons, each in C)."""
    lo, hi = 0, min(len(a), len(b)) // 3
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[: 3 * mid] == b[: 3 * mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def paste(canvas: Image.Image, tile: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
    """`canvas.paste(tile, xy, mask)` for palette canvases: the tile's colours are looked up in the
    canvas's palette (a plain paste would copy the indices of another palette), except the entries
    both palettes share (their first entries, `new_canvas(colours=)`).
    `tile` must not be drawn on afterwards (its colours are cached). `mask` is 0 or 255 only."""
    if canvas.mode != "P" or tile.mode != "P":
        canvas.paste(tile, xy, mask)
        return
    state = _state(canvas)
    known = state.luts.get(id(tile))
    if known is None:
        shared = _shared_entries(bytes(tile.palette.palette), bytes(canvas.palette.palette))  # type: ignore[union-attr]
        todo = [i for i in _used(tile) if i >= shared]
        lut: bytes | None = None
        if todo:
            table = bytearray(range(256))
            for i in todo:
                table[i] = colour_index(canvas, palette_rgb(tile, i))
            lut = bytes(table)
        known = state.luts[id(tile)] = (tile, lut)
    lut = known[1]
    x, y = xy
    box = (x, y, x + tile.width, y + tile.height)
    if x < 0 or y < 0 or box[2] > canvas.width or box[3] > canvas.height:
        canvas.paste(tile if lut is None else tile._new(tile.im.point(lut, None)), xy, mask)
        return
    pixels = tile.im if lut is None else tile.im.point(lut, None)
    if mask is None:
        canvas.im.paste(pixels, box)
    else:
        canvas.im.paste(pixels, box, mask.im)


def shade(canvas: Image.Image, box: tuple[int, int, int, int], rgb: RGB, alpha: int) -> None:
    """`rgb` at `alpha`/255 laid over `box` of a palette canvas (what pasting a translucent RGBA
    rectangle does on RGB): each colour of the box is replaced by its blend."""
    region = canvas.crop(box)
    lut = list(range(256))
    for i in (i for i, n in enumerate(region.histogram()) if n):
        lut[i] = colour_index(canvas, _blend(palette_rgb(canvas, i), rgb, alpha))
    canvas.paste(region._new(region.im.point(lut, None)), box[:2])


# -- drawn once, laid in after: the parts of an image that repeat from one version to the next ------

PATCH_BYTES = 3 << 19  # patches kept per process (a board's seat top: ~4 KB; ~400 of them in 1.5 MB)
_patches: OrderedDict[tuple[Any, ...], _Patch] = OrderedDict()
_patches_bytes = 0
_patches_lock = threading.Lock()
patch_counts = {"hit": 0, "drawn": 0, "direct": 0}  # laid in from the cache, drawn and kept, drawn in place


@dataclass
class _Patch:
    """What drawing a patch did: its box's pixels (compressed, in the indices of the palette it was
    drawn with, `palette`), the colours it asked the palette for (first asks first; True: asked as a
    text step), the ground colours its text was laid on, and what the drawing returned. The indices its
    pixels use and their colours (`used`) are found when it is first laid in again: most patches of a
    changed bucket never are."""

    size: tuple[int, int]
    data: bytes
    palette: bytes
    requests: tuple[tuple[RGB, bool], ...]
    grounds: tuple[RGB, ...]
    result: Any
    used: tuple[tuple[int, RGB], ...] | None = None

    @property
    def nbytes(self) -> int:
        """Its memory, roughly: the two byte strings, ~130 bytes a colour asked for (a tuple and its
        colour's tuple), the pixels' colours once known, the object and its key."""
        return len(self.data) + len(self.palette) + 130 * (len(self.requests) + len(self.grounds) + 16) + 900

    def pixels_used(self, pixels: Image.Image) -> tuple[tuple[int, RGB], ...] | None:
        """The (index, colour) pairs `pixels` (this patch's) use, or None when a colour is twice in its
        palette (its pixels could not be told apart)."""
        if self.used is None:
            pal = self.palette
            first: dict[bytes, int] = {}
            for i in range(len(pal) // 3):
                first.setdefault(pal[3 * i: 3 * i + 3], i)
            used = []
            for i, n in enumerate(pixels.histogram()):
                if n:
                    rgb = pal[3 * i: 3 * i + 3]
                    if first.get(rgb) != i:
                        return None
                    used.append((i, (rgb[0], rgb[1], rgb[2])))
            self.used = tuple(used)
        return self.used


def drawn_once(
    canvas: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    key: tuple[Any, ...],
    draw: Callable[[ImageDraw.ImageDraw, Image.Image], _T],
) -> _T:
    """`draw(d, canvas)`, laid in from a bounded cache when it was drawn before: byte for byte the
    image (palette included) that drawing it gives. Consecutive boards of a table differ in a seat or
    two; the other seats' buckets, the legend, the numbers were drawn again every time (issue #18).

    `draw` must paint only inside `box` (tests check it: `CHECK_PATCHES`) and depend only on `key`,
    the box's position, the one colour the box holds before and the language drawn in. A palette
    canvas's indices are allocated per image in the order colours are first asked for, so a patch
    keeps the colours its drawing asked for, in order: laying it in asks for the same ones (new entries
    land where drawing would put them) and maps its pixels through a 256-entry table. Where that could
    come out otherwise (a palette short of room, text over text's own edge pixels, a box not one
    colour) it is drawn as before.
    """
    global _patches_bytes
    if canvas.mode != "P" or _RECORD.get() is not None or canvas.palette is None:
        return draw(d, canvas)
    x0, y0, x1, y1 = box
    state = _state(canvas)
    if x0 < 0 or y0 < 0 or x1 > canvas.width or y1 > canvas.height or x0 >= x1 or y0 >= y1 or state.near:
        patch_counts["direct"] += 1
        return draw(d, canvas)
    before = Image.Image()._new(canvas.im.crop(box)).tobytes()
    ground = before[0]
    if before != before[:1] * len(before):
        patch_counts["direct"] += 1
        return draw(d, canvas)
    full = (key, box, palette_rgb(canvas, ground), drawing_lang())
    with _patches_lock:
        patch = _patches.get(full)
        if patch is not None:
            _patches.move_to_end(full)
    if patch is not None and _lay_in(canvas, patch, box, ground):
        patch_counts["hit"] += 1
        return patch.result  # type: ignore[no-any-return]
    made, result = _capture(canvas, d, box, ground, draw)
    if made is None:
        patch_counts["direct"] += 1
        return result
    patch_counts["drawn"] += 1
    with _patches_lock:
        if full not in _patches:
            _patches[full] = made
            _patches_bytes += made.nbytes
            while _patches_bytes > PATCH_BYTES and len(_patches) > 1:
                _, old = _patches.popitem(last=False)
                _patches_bytes -= old.nbytes
    return result


CHECK_PATCHES = False  # tests: a patch's drawing that paints outside its box raises


def _capture(
    canvas: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ground: int,
    draw: Callable[[ImageDraw.ImageDraw, Image.Image], _T],
) -> tuple[_Patch | None, _T]:
    """`draw` on `canvas` itself (so a first drawing costs what it did), with a fresh drawing context
    and the palette's memos set aside, so that every colour it asks for is heard: the patch, or None
    when it could not be replayed elsewhere (the palette ran short of room, text over step entries)."""
    state = _state(canvas)
    ramps, luts = state.ramps, state.luts
    state.ramps, state.luts, state.log, state.grounds = {}, {}, [], []
    whole = canvas.copy() if CHECK_PATCHES else None
    fresh = copy.copy(d)  # (not a new Draw: that reloads the palette into the image)
    if isinstance(fresh, Draw):
        fresh._inks, fresh._pairs = {}, {}
    try:
        result = draw(fresh, canvas)
    finally:
        log, grounds = state.log, state.grounds
        state.log, state.grounds = None, []
        for key, lut in state.ramps.items():  # (equal where both have one: no nearest colours here)
            ramps.setdefault(key, lut)
        for tile, known in state.luts.items():
            luts.setdefault(tile, known)
        state.ramps, state.luts = ramps, luts
    if whole is not None:
        after = canvas.copy()
        after.paste(whole.crop(box), box[:2])
        if after.tobytes() != whole.tobytes():
            raise AssertionError(f"a patch drew outside its box {box}")
    palette = canvas.palette
    assert palette is not None and log is not None
    if state.near or any(room < RAMP_ROOM for _, room in log) or len(palette.palette) // 3 >= RAMP_ROOM:
        return None, result
    region = Image.Image()._new(canvas.im.crop(box))  # (not `canvas.crop`: that reloads the palette)
    requests: dict[RGB, bool] = {}
    for rgb, room in log:
        requests.setdefault(rgb, room == RAMP_ROOM)
    patch = _Patch(region.size, isal_zlib.compress(region.tobytes(), 1), bytes(palette.palette),
                   tuple(requests.items()), tuple(dict.fromkeys(grounds)), result)
    return patch, result


def _lay_in(canvas: Image.Image, patch: _Patch, box: tuple[int, int, int, int], ground: int) -> bool:
    """Lay `patch` into `box` of `canvas` (one colour, entry `ground`) as drawing it there would: the
    colours it asked for that the palette lacks appended in order (text steps marked as steps), its
    pixels mapped to this palette. False, nothing changed, where drawing could come out otherwise."""
    palette = canvas.palette
    assert palette is not None
    colors = palette.colors
    state = _state(canvas)
    if state.near or colors.get(palette_rgb(canvas, ground)) != ground:
        return False
    first = dict(patch.requests)
    for rgb in patch.grounds:  # text laid on a step entry would take the nearest colours
        i = colors.get(rgb)
        if (i is None and first.get(rgb, True)) or (i is not None and i in state.steps):
            return False
    missing = [(rgb, step) for rgb, step in patch.requests if rgb not in colors]
    if len(palette.palette) // 3 + len(missing) >= RAMP_ROOM:
        return False
    pixels = Image.frombytes("L", patch.size, isal_zlib.decompress(patch.data))
    used = patch.pixels_used(pixels)
    if used is None or any(rgb not in colors and rgb not in first for _, rgb in used):
        return False  # (a colour a pasted tile copied unasked, which this palette lacks)
    for rgb, step in missing:
        index = palette.getcolor(rgb)
        if step:
            state.steps.add(index)
    colors = palette.colors  # (a fresh dict if the palette was rebuilt)
    lut = bytearray(range(256))
    same = True
    for i, rgb in used:
        lut[i] = j = colors[rgb]
        same = same and i == j
    canvas.im.paste(pixels.im if same else pixels.im.point(bytes(lut), None), box)
    return True


def clear_patches() -> None:
    """Forget every patch (tests: a cold cache)."""
    global _patches_bytes
    with _patches_lock:
        _patches.clear()
        _patches_bytes = 0


def patches_held() -> tuple[int, int]:
    """(patches kept, their bytes)."""
    with _patches_lock:
        return len(_patches), _patches_bytes


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

    On a palette canvas (`new_canvas`) colours are palette entries (`colour_index`), and text is
    laid in through each ground colour's ramp of anti-aliasing steps (Pillow would blend indices).
    Its fonts measure and rasterise in "L" mode, as on RGB, so the layout is the same.
    """

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        self._inks: dict[tuple[int, ...], int] = {}
        self._pairs: dict[tuple[Any, Any], tuple[int | None, int | None]] = {}
        if self.mode == "P":
            self.fontmode = "L"

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        """Pillow's, remembered per (ink, fill) on a palette canvas: a board's cells, marks and boxes
        ask for the same few pairs thousands of times, and the answer never changes once the colours
        have their entries (asked for in the same order as before: ink, then fill)."""
        if self.mode != "P":
            return super()._getink(ink, fill)
        pair = (ink, fill)
        try:
            return self._pairs[pair]
        except (KeyError, TypeError):
            pass
        done = super()._getink(self._index(ink) if isinstance(ink, tuple) else ink,
                               self._index(fill) if isinstance(fill, tuple) else fill)
        if (ink is not None or fill is not None) and not isinstance(ink, str) and not isinstance(fill, str):
            with contextlib.suppress(TypeError):  # a list as a colour
                self._pairs[pair] = done
        return done

    def _index(self, rgb: tuple[int, ...]) -> int:
        """`colour_index` of a colour, remembered: once a colour has its entry (its own, or the nearest
        of a full palette) the answer never changes, and a board asks for the same few dozen
        colours thousands of times (issue #18: a panel's cells, a quarter of its drawing)."""
        found = self._inks.get(rgb)
        if found is None:
            found = self._inks[rgb] = colour_index(self._image, (rgb[0], rgb[1], rgb[2]))
        return found

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
            if self.mode == "P":
                self._text_pillow(xy, text, fill, font, anchor, *args, **kwargs)
            else:
                super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        runs = _runs(font, text)
        if runs is not None:
            self._text_runs(xy, runs, fill, font, anchor)
            return
        ink: int | None = 0  # (the palette path lays the ink's own steps in: `_lay_mask`)
        if self.mode != "P":
            ink, fill_ink = self._getink(fill)
            if ink is None:
                ink = fill_ink
            if ink is None:
                return
        x, y = xy
        mask, offset = _text_mask(font, text, anchor, (math.modf(x)[0], math.modf(y)[0]))
        if self.mode == "P":
            self._lay_mask((int(x) + offset[0], int(y) + offset[1]), mask, fill)
        else:
            self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)
        if record is not None:
            self._check_inside(record, text, (int(x) + offset[0], int(y) + offset[1]), mask)

    def _ink_rgb(self, fill: Any) -> RGB:
        if isinstance(fill, tuple):
            return (int(fill[0]), int(fill[1]), int(fill[2]))
        if isinstance(fill, int):
            return palette_rgb(self._image, fill)
        if fill is None:
            return (255, 255, 255)  # Pillow's default ink
        rgb = ImageColor.getrgb(fill)
        return (rgb[0], rgb[1], rgb[2])

    def _lay_mask(self, at: tuple[int, int], mask: Any, fill: Any) -> None:
        """Lay `fill` through an "L" mask (a text's glyphs) onto the palette canvas at `at`: each
        pixel takes its ground colour's blend with the ink at the mask's alpha (`_ramp`)."""
        w, h = mask.size
        W, H = self._image.size
        x0, y0 = max(0, at[0]), max(0, at[1])
        x1, y1 = min(W, at[0] + w), min(H, at[1] + h)
        if x0 >= x1 or y0 >= y1:
            return
        if (x0, y0, x1, y1) != (at[0], at[1], at[0] + w, at[1] + h):
            mask = mask.crop((x0 - at[0], y0 - at[1], x1 - at[0], y1 - at[1]))
        box = (x0, y0, x1, y1)
        ink = self._ink_rgb(fill)
        image = self._image
        region = image.im.crop(box)
        lo, hi = region.getextrema()
        if lo == hi:  # one ground colour under the text (the usual case: a label on a panel)
            image.im.paste(mask.point(_ramp(image, lo, ink), None), box)
            return
        hist = region.histogram((0, 0), mask)  # the ground colours under some ink
        grounds = [i for i in range(lo, hi + 1) if hist[i]]
        if len(grounds) == 1:  # one ground under the ink, others only around it
            image.im.paste(mask.point(_ramp(image, grounds[0], ink), None), box, mask.point(_INKED, None))
            return
        out = region.copy()
        whole = (0, 0, x1 - x0, y1 - y0)
        for ground in grounds:
            out.paste(mask.point(_ramp(image, ground, ink), None), whole, region.point(_only(ground), "L"))
        image.im.paste(out, box)

    def _text_pillow(self, xy: tuple[float, float], text: Any, fill: Any, font: Any, anchor: str | None,
                     *args: Any, **kwargs: Any) -> None:
        """Pillow's own text (multi-line, strokes...) on a palette canvas: drawn as a mask, laid in."""
        mask = Image.new("L", self._image.size, 0)
        ImageDraw.Draw(mask).text(xy, text, 255, font, anchor, *args, **kwargs)
        box = mask.getbbox()
        if box is not None:
            self._lay_mask(box[:2], mask.crop(box).im, fill)

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

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        """Pillow's rounded rectangle from cached masks of its fill and its outline: the same pixels
        (Pillow draws the fill, then the outline over it), two calls instead of about fifteen.
        Boards draw the same few dozen boxes (tiles, chips, cells) over and over."""
        (x0, y0), (x1, y1) = self._normalize_coords(xy)
        ink, fill_ink = self._getink(outline, fill)
        has_fill = fill_ink is not None
        has_outline = ink is not None and ink != fill_ink and width != 0
        # translate by an even offset (Python rounds halves to even, so the rounded shape only moves),
        # with a margin: Pillow's arcs on tiny boxes reach outside them
        ox, oy = 2 * math.floor(x0 / 2) - SHAPE_MARGIN, 2 * math.floor(y0 / 2) - SHAPE_MARGIN
        key = (x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius, width, corners, has_fill, has_outline)
        # (Pillow truncates some coordinates toward zero, which moves with the shape only right of 0)
        masks = _shape_masks(key) if 0 <= x0 <= x1 and 0 <= y0 <= y1 else None
        if masks is None:
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        fill_mask, outline_mask = masks
        if fill_mask is not None:
            self.draw.draw_bitmap((ox, oy), fill_mask, fill_ink)
        if outline_mask is not None:
            self.draw.draw_bitmap((ox, oy), outline_mask, ink)

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


SHAPE_BYTES = 1 << 20  # the rounded-rectangle masks kept, per process (the boards draw ~100 distinct)
SHAPE_MARGIN = 8  # even
SHAPE_MAX = 12_000  # pixels of one shape's box: a larger one costs more to blit than Pillow's ~45 µs
_shapes: OrderedDict[tuple[Any, ...], tuple[Any, Any] | None] = OrderedDict()
_shapes_bytes = 0
_shapes_lock = threading.Lock()


def _shape_masks(key: tuple[Any, ...]) -> tuple[Any, Any] | None:
    """The "L" masks (255 where Pillow would paint) of a rounded rectangle's fill and outline, drawn
    by Pillow itself at the key's position (offset by an even number of pixels), or None for a box
    too large to keep. A bounded LRU (`SHAPE_BYTES`); the masks are only read, so threads share them."""
    global _shapes_bytes
    with _shapes_lock:
        if key in _shapes:
            _shapes.move_to_end(key)
            return _shapes[key]
    x0, y0, x1, y1, radius, width, corners, has_fill, has_outline = key
    size = (math.ceil(x1) + SHAPE_MARGIN + 2, math.ceil(y1) + SHAPE_MARGIN + 2)
    if size[0] * size[1] > SHAPE_MAX:
        return None
    box = (x0, y0, x1, y1)
    fill_mask = outline_mask = None
    try:
        if has_fill:
            f = Image.new("L", size, 0)
            ImageDraw.Draw(f).rounded_rectangle(box, radius, fill=255, corners=corners)
            fill_mask = f.im
        if has_outline:
            o = Image.new("L", size, 0)
            ImageDraw.Draw(o).rounded_rectangle(box, radius, outline=255, width=width, corners=corners)
            outline_mask = o.im
    except ValueError:  # a box Pillow refuses to outline (it may not need to: outline == fill)
        return None
    masks = (fill_mask, outline_mask)
    with _shapes_lock:
        if key not in _shapes:
            _shapes[key] = masks
            _shapes_bytes += size[0] * size[1] * (has_fill + has_outline)
            while _shapes_bytes > SHAPE_BYTES and len(_shapes) > 1:
                (_, _, ox1, oy1, *_rest), old = _shapes.popitem(last=False)
                _shapes_bytes -= (math.ceil(ox1) + SHAPE_MARGIN + 2) * (math.ceil(oy1) + SHAPE_MARGIN + 2) * sum(
                    m is not None for m in old or ()
                )
    return masks


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
    return list(_wrap(text, size, width, bold))


@lru_cache(maxsize=1024)
def _wrap(text: str, size: int, width: float, bold: bool) -> tuple[str, ...]:
    """`wrap`, cached: boards wrap the same rules texts and status lines on every draw (a Ghost
    Stories board wraps ~40 texts, ~1 ms of Python)."""
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
    return tuple(out)


def draw_on(image: Image.Image) -> Draw:
    """A drawing context for a renderer's canvas (text through the glyph-mask cache)."""
    return Draw(image)


def to_palette(image: Image.Image, keep: Iterable[tuple[int, int, int]] = BASE_COLOURS) -> Image.Image:
    """An RGB image as 8-bit palette: `keep` exactly, the rest from an octree of a 1-in-16 sample.

    For images not drawn on a palette canvas (the renderers draw on one, `new_canvas`). Boards are
    flat illustrations with anti-aliased text, so 256 colours look the same; building the octree
    over every pixel of a 1.8-megapixel board took 15-25 ms, over every 4th pixel of every 4th row
    it takes ~1 ms, and mapping all pixels to the fixed palette ~3 ms. The renderer's own flat
    colours are listed in `keep` so that a colour too small for the sample (a thin line, one
    marker) still comes out exact. Deterministic: the same image gives the same palette.
    A palette image is returned as it is.
    """
    if image.mode == "P":
        image.load()  # the palette's new entries into the image
        return image
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
    and the encoding time; renderers draw on palette canvases (`new_canvas`), other images are
    converted here (`to_palette`). A fast level of deflate is the right trade-off for a message
    that is sent once (`_png`). Only an image that is still too big is scaled down.
    """
    current = image if image.mode == "P" else to_palette(image)
    data = _png(current)
    while len(data) > max_bytes and min(current.size) > 64:
        current = current.convert("RGB").resize((int(current.width * 0.85), int(current.height * 0.85)))
        current = current.quantize(128, method=Image.Quantize.FASTOCTREE)
        data = _png(current)
    return data


def _png(image: Image.Image) -> bytes:
    """An 8-bit palette image as PNG, compressed by ISA-L (`isal`); anything else through Pillow.

    Pillow's encoder (zlib-ng, level 1) took 4-6.5 ms for a 1200 px board, a third of the image's
    CPU once the palette step was gone; ISA-L's level 1 takes 1.0-1.5 ms on the same boards and its
    files are 10-15% smaller (issue #18). The rows are unfiltered, as Pillow writes palette images."""
    palette = image.palette
    if image.mode != "P" or image.info.get("transparency") is not None or palette is None or palette.mode != "RGB":
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=1, optimize=False)
        return buf.getvalue()
    colours = bytes(palette.palette)[:768] or b"\0\0\0"
    w, h = image.size
    rows = Image.new("P", (w + 1, h), 0)  # each row behind its filter byte (0: none)
    rows.im.paste(image.im, (1, 0, w + 1, h))
    with _pixels(rows) as raw:
        idat = isal_zlib.compress(raw, 1)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


class _ArrowArray(ctypes.Structure):
    """The Arrow C data interface's `struct ArrowArray` (a stable ABI), as Pillow exports an image."""

    _fields_ = [
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.POINTER(ctypes.c_void_p)),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


@contextmanager
def _pixels(image: Image.Image) -> Iterator[bytes | memoryview]:
    """An 8-bit image's pixels, row after row: without a copy where Pillow exports the image as an Arrow
    array (Pillow 11.2 and later, an image in one block), else `tobytes()`.

    Why: `tobytes()` copies the image through Pillow's raw encoder in 64 KB pieces and joins them,
    0.7-1.1 ms for a 1200 px board, more than ISA-L takes to compress it (issue #18). The view is only
    valid while the export lives, so it is used inside the `with` block only."""
    n = image.width * image.height
    export = getattr(image, "__arrow_c_array__", None)
    try:
        schema, array = export() if export is not None and image.mode in ("L", "P") else (None, None)
    except ValueError:  # not exportable (an image in several blocks)
        schema, array = None, None
    if schema is None:
        yield image.tobytes()
        return
    fmt = ctypes.c_char_p.from_address(_capsule_pointer(schema, b"arrow_schema")).value  # the first field
    arr = _ArrowArray.from_address(_capsule_pointer(array, b"arrow_array"))
    if fmt != b"C" or arr.length != n or arr.offset != 0 or arr.n_buffers != 2 or not arr.buffers[1]:
        yield image.tobytes()
        return
    view = memoryview((ctypes.c_char * n).from_address(arr.buffers[1])).cast("B")
    try:
        yield view
    finally:
        view.release()
        del schema, array  # the capsules release the export


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
