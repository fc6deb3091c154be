"""Shared palette, fonts and PNG encoding for every renderer."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

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


def new_canvas(width: int, height: int, colour: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


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

    Boards are flat illustrations, so a 256-colour palette (fast octree) looks the same and halves both
    the bytes and the encoding time; zlib level 1 is the right trade-off for a message that is sent
    once. Only an image that is still too big is scaled down.
    """
    current = image if image.mode == "P" else image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    data = _png(current)
    while len(data) > max_bytes and min(current.size) > 64:
        current = current.convert("RGB").resize((int(current.width * 0.85), int(current.height * 0.85)))
        current = current.quantize(128, method=Image.Quantize.FASTOCTREE)
        data = _png(current)
    return data


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
